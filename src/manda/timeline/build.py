"""A deal's timeline: events from every passage, merged across documents, checked for sense.

Same event, same date from two sources → one event with two citations; two sources giving
different dates for one event → both kept and flagged as a date conflict. "Upcoming" is measured
from the room's as-of date (its newest document date), never from today's clock, so the answer
does not change while nobody adds a document.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Protocol

from manda.finance.dates import DateSpan, find_date_mentions
from manda.finance.fiscal import FiscalYearEnd, learn_fiscal_year_end
from manda.ingest.chunking import shown_text
from manda.ingest.extract.dedupe import EntityResolver
from manda.ingest.extract.excerpts import MAX_EXCERPT, excerpt_span
from manda.ingest.extract.names import find_orgs, is_person_name
from manda.ingest.versions import version_info
from manda.models import (
    Chunk,
    Document,
    DocumentRole,
    DocumentStatus,
    Relation,
    RelationType,
    heading_trail,
)
from manda.timeline.events import (
    CORRECTION_ISSUED,
    DOCUMENT_DATED,
    TRIGGERS,
    EventCandidate,
    events_in_text,
)
from manda.timeline.model import CATEGORIES, EventCitation, Timeline, TimelineEvent

__all__ = ["TimelineFilter", "build_timeline", "position_at", "room_year_end",
           "timeline_for_deal"]

UPCOMING_DAYS = 365
_PAST_ONLY = {
    "founded", "acquired", "disposed", "loan drawn", "claim filed", "judgment", "contract signed",
    "contract renewed", "contract terminated", "joined", "appointed", "board decision",
    "audit opinion", "lease starts",
}
_LONG_DATED = {"loan matures", "contract expires", "lease expires"}
_NEVER_CONFLICT = {"period ended", "forecast period", "document dated", "hearing", "correction",
                   "covenant test", "board decision"}
_DOCUMENT_TITLED = {"report", "forecast", "document"}


class TimelineSource(Protocol):
    """What the timeline reads: the deal's documents, their passages and their corrections."""

    async def list_documents(self, deal_id: str) -> list[Document]: ...
    async def list_chunks(self, deal_id: str, document_id: str) -> list[Chunk]: ...
    async def list_relations(
        self, deal_id: str, *, type: RelationType | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Relation]: ...


@dataclass(frozen=True)
class TimelineFilter:
    """`--from`, `--to` (inclusive, on the event's span) and `--category`."""

    start: date | None = None
    end: date | None = None
    category: str | None = None

    def keeps(self, event: TimelineEvent) -> bool:
        if self.category and event.category != self.category:
            return False
        if self.start and event.end_date < self.start:
            return False
        return not (self.end and event.date > self.end)


def room_year_end(documents: Sequence[Document], texts: Iterable[str]) -> tuple[int, int]:
    """The (month, day) the room's fiscal years end on: as ingestion stored it on the documents,
    else as the passages state it, else 31 December."""
    stored = Counter(d.fiscal_year_end for d in documents if d.fiscal_year_end)
    if stored:
        return FiscalYearEnd.from_iso(stored.most_common(1)[0][0]).key
    learned = learn_fiscal_year_end(texts)
    return learned.key if learned else (12, 31)


@dataclass
class _Event:
    candidate: EventCandidate
    span: DateSpan
    citations: list[EventCitation]
    actors: list[str]
    title: str
    conflict_with: list[str]


def _heading(chunk: Chunk) -> str:
    """What the passage stands under: its heading path (`Legal summary › Litigation`), else a
    section's own label."""
    return heading_trail(chunk.heading_path) or (
        chunk.location.label if chunk.location.kind.value == "section" else "")


def _citation(document: Document, chunk: Chunk, excerpt: str) -> EventCitation:
    return EventCitation(document=document.filename, location=chunk.location.label,
                         page=chunk.location.page, heading_path=list(chunk.heading_path),
                         excerpt=excerpt, chunk_id=chunk.id)


def _same_event(a: _Event, b: _Event) -> bool:
    trigger = a.candidate.trigger
    if trigger.kind != b.candidate.trigger.kind:
        return False
    if trigger in (DOCUMENT_DATED, CORRECTION_ISSUED):
        return a.title == b.title
    if trigger.category in _DOCUMENT_TITLED:  # a period or forecast is the same by its dates
        return a.span == b.span
    if a.actors and b.actors:
        return bool(set(a.actors) & set(b.actors))
    return a.span == b.span  # one source names nobody: the same kind on the same dates


def _merge(events: list[_Event]) -> list[_Event]:
    merged: list[_Event] = []
    for event in events:
        for kept in merged:
            if _same_event(kept, event) and kept.span.overlaps(event.span):
                if event.span.finer(kept.span):
                    kept.span = event.span
                    kept.title = event.title
                for c in event.citations:
                    if all((c.document, c.location) != (k.document, k.location)
                           for k in kept.citations):
                        kept.citations.append(c)
                kept.actors += [a for a in event.actors if a not in kept.actors]
                kept.candidate.change_of_control |= event.candidate.change_of_control
                break
        else:
            merged.append(event)
    return merged


def _flag_conflicts(events: list[_Event]) -> None:
    for i, a in enumerate(events):
        if a.candidate.trigger.kind in _NEVER_CONFLICT or not a.actors:
            continue
        for b in events[i + 1:]:
            if _same_event(a, b) and not a.span.overlaps(b.span):
                a.conflict_with.append(f"{b.citations[0].document} says {b.span.label}")
                b.conflict_with.append(f"{a.citations[0].document} says {a.span.label}")


def _reasonable(event: _Event, founded: date | None, as_of: date | None) -> bool:
    kind, start = event.candidate.trigger.kind, event.span.start
    if start.year < 1900:
        return False
    if founded and event.span.end < founded and kind not in {"founded", "document dated"}:
        return False
    if as_of is None:
        return True
    if kind in _PAST_ONLY and start > as_of + timedelta(days=366):
        return False
    horizon = 40 if kind in _LONG_DATED else 10
    return start <= as_of + timedelta(days=365 * horizon)


def build_timeline(
    deal_id: str, passages: Sequence[tuple[Document, Chunk]],
    documents: Sequence[Document], *, where: TimelineFilter | None = None,
    supersessions: Sequence[Relation] = (),
) -> Timeline:
    """Events from `passages` (completed documents only; request lists state no facts)."""
    year_end = room_year_end(documents, (shown_text(c) for _, c in passages))
    dated = [d.doc_date for d in documents if d.doc_date]
    as_of = max(dated) if dated else None
    raw: list[_Event] = []
    for document, chunk in passages:
        context_year = document.doc_date.year if document.doc_date else None
        for cand in events_in_text(shown_text(chunk), context_year=context_year,
                                   year_end=year_end, heading=_heading(chunk)):
            title = cand.title
            if cand.trigger.category in _DOCUMENT_TITLED:
                title = f"{cand.trigger.label} {cand.span.label}"
            raw.append(_Event(cand, cand.span, [_citation(document, chunk, cand.excerpt)],
                              list(cand.actors), title, []))
    raw += _document_dates(passages, documents)
    raw += _corrections(passages, documents, supersessions)
    _resolve_actors(raw)
    events = _merge(raw)
    founded = min((e.span.start for e in events if e.candidate.trigger.kind == "founded"),
                  default=None)
    events = [e for e in events if _reasonable(e, founded, as_of)]
    _flag_conflicts(events)
    out = [_public(e, as_of) for e in events]
    if where is not None:
        out = [e for e in out if where.keeps(e)]
    out.sort(key=lambda e: (e.date, e.end_date, CATEGORIES.index(e.category), e.title))
    return Timeline(deal_id=deal_id, as_of=as_of, events=out)


def _stated_date(document: Document, chunk: Chunk) -> tuple[DateSpan, str] | None:
    """A document's own date with the precision its text gives it, and the words that say so."""
    if document.doc_date is None:
        return None
    body = shown_text(chunk)
    stated = [m for m in find_date_mentions(body) if m.span.start == document.doc_date]
    if not stated:
        span = DateSpan(document.doc_date, document.doc_date, "day")
        return span, " ".join(body.split())[:MAX_EXCERPT]
    first = min(stated, key=lambda m: (m.span.end - m.span.start, m.start))
    s, e = excerpt_span(body, first.start, first.end)
    return first.span, " ".join(body[s:e].split())


def _first_chunks(passages: Sequence[tuple[Document, Chunk]]) -> dict[str, Chunk]:
    first: dict[str, Chunk] = {}
    for document, chunk in passages:
        first.setdefault(document.id, chunk)
    return first


def _document_dates(
    passages: Sequence[tuple[Document, Chunk]], documents: Sequence[Document]
) -> list[_Event]:
    """Each document's own date, cited where the document states it (else its opening words)."""
    first_chunk = _first_chunks(passages)
    out: list[_Event] = []
    for document in documents:
        chunk = first_chunk.get(document.id)
        dated = _stated_date(document, chunk) if chunk is not None else None
        if chunk is None or dated is None:
            continue
        span, excerpt = dated
        cand = EventCandidate(span=span, trigger=DOCUMENT_DATED, title="", actors=[],
                              excerpt=excerpt)
        out.append(_Event(cand, span, [_citation(document, chunk, excerpt)], [],
                          f"Document dated — {document.filename}", []))
    return out


def _corrections(
    passages: Sequence[tuple[Document, Chunk]], documents: Sequence[Document],
    supersessions: Sequence[Relation],
) -> list[_Event]:
    """A corrected or newer version issued, on the newer document's date, cited where it says so."""
    by_id = {d.id: d for d in documents}
    first_chunk = _first_chunks(passages)
    out: list[_Event] = []
    for rel in supersessions:
        newer, older = by_id.get(rel.source_id), by_id.get(rel.target_id)
        if rel.between != "document" or newer is None or older is None:
            continue
        chunk = first_chunk.get(newer.id)
        dated = _stated_date(newer, chunk) if chunk is not None else None
        if chunk is None or dated is None:
            continue
        span, excerpt = dated
        stated = next((c for c in newer.corrections if c.sentence in rel.reason), None)
        if stated is not None:
            excerpt = stated.sentence[:MAX_EXCERPT]
        corrected = stated is not None or version_info(newer.filename).is_correction
        label = "Correction issued" if corrected else "Revised version issued"
        citation = (EventCitation(document=newer.filename, location=stated.location.label,
                                  page=stated.location.page, excerpt=excerpt)
                    if stated else _citation(newer, chunk, excerpt))
        cand = EventCandidate(span=span, trigger=CORRECTION_ISSUED, title="", actors=[],
                              excerpt=excerpt)
        out.append(_Event(cand, span, [citation], [],
                          f"{label} — {newer.filename} replaces {older.filename}", []))
    return out


def _resolve_actors(events: list[_Event]) -> None:
    """One spelling per person or organisation across the room ("Globex" is "Globex AG")."""
    orgs, people = EntityResolver("organisation"), EntityResolver("person")
    names = [name for event in events for name in event.actors]
    for name in names:
        if find_orgs(name):  # a legal form makes it an organisation, whatever it looks like
            orgs.add(name)

    def resolver(name: str) -> EntityResolver:
        if find_orgs(name) or orgs.resolve(name) != name or not is_person_name(name):
            return orgs
        return people

    for name in names:
        resolver(name).add(name)
    for event in events:
        resolved: list[str] = []
        for name in event.actors:
            display = resolver(name).resolve(name)
            if display not in resolved:
                resolved.append(display)
        event.actors = resolved


def _public(event: _Event, as_of: date | None) -> TimelineEvent:
    trigger = event.candidate.trigger
    upcoming = bool(
        as_of is not None and trigger.future
        and as_of < event.span.end and event.span.start <= as_of + timedelta(days=UPCOMING_DAYS)
    )
    return TimelineEvent(
        label=event.span.label, date=event.span.start, end_date=event.span.end,
        precision="fiscal_year" if event.span.fiscal else event.span.precision,
        category=trigger.category, kind=trigger.kind,
        title=event.title, actors=event.actors, citations=event.citations,
        conflict=bool(event.conflict_with),
        conflict_note="; ".join(event.conflict_with) or None,
        upcoming=upcoming, change_of_control=event.candidate.change_of_control,
    )


_MAY_LIE_AHEAD = frozenset(t.kind for t in TRIGGERS if t.future)


def position_at(timeline: Timeline, as_of: date, stated_on: Mapping[str, date | None]
                ) -> tuple[Timeline, list[TimelineEvent]]:
    """The timeline as it stood on `as_of` ("as of 31 March 2024"), and the events left out.

    An event that started by then stays; a later one stays only when it was scheduled then — an
    expiry, a maturity, a hearing that a document dated on or before `as_of` states
    (`stated_on`: each document's date, by filename) — since that was known at the date.
    Anything else after it (a claim filed, a board decision, a period that had not ended) is
    left out. "Upcoming" is measured from `as_of`.
    """
    kept: list[TimelineEvent] = []
    left_out: list[TimelineEvent] = []
    for event in timeline.events:
        scheduled = event.kind in _MAY_LIE_AHEAD and any(
            (when := stated_on.get(c.document)) is not None and when <= as_of
            for c in event.citations)
        if event.date > as_of and not scheduled:
            left_out.append(event)
            continue
        upcoming = (event.kind in _MAY_LIE_AHEAD and as_of < event.end_date
                    and event.date <= as_of + timedelta(days=UPCOMING_DAYS))
        kept.append(event.model_copy(update={"upcoming": upcoming}))
    return timeline.model_copy(update={"as_of": as_of, "events": kept}), left_out


async def timeline_for_deal(
    source: TimelineSource, deal_id: str, *, where: TimelineFilter | None = None
) -> Timeline:
    """Read the deal's completed documents and build its timeline."""
    documents = [
        d for d in await source.list_documents(deal_id)
        if d.status is DocumentStatus.COMPLETED and not d.is_irl and d.role is not DocumentRole.IRL
    ]
    passages: list[tuple[Document, Chunk]] = []
    for document in sorted(documents, key=lambda d: d.filename):
        chunks = await source.list_chunks(deal_id, document.id)
        passages += [(document, c) for c in sorted(chunks, key=lambda c: c.ordinal)]
    supersessions = await source.list_relations(deal_id, type=RelationType.SUPERSEDES)
    return build_timeline(deal_id, passages, documents, where=where,
                          supersessions=[r for r in supersessions if r.between == "document"])
