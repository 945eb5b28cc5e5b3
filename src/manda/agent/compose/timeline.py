"""Timeline answers: "what is coming up", "when does X expire", "what happened in 2023" — dated
events from the deal timeline, each cited to where the room states it."""

from __future__ import annotations

import re
from datetime import date, timedelta

from manda.agent.compose.common import Ask, Draft
from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import cite
from manda.answers import caution
from manda.timeline import Timeline, TimelineEvent

MAX_EVENTS = 12
_AHEAD = re.compile(r"\b(?:coming up|upcoming|ahead|due|next\s+(?:(\d{1,2})\s+)?"
                    r"(months?|years?|quarters?))\b", re.I)
_WHEN = re.compile(
    r"\bwhen\b.*\b(?:expire|expiry|expires|mature|matures|maturity|signed|sign|filed|file|"
    r"hearing|judgment|terminate|terminable|renew|renewal|join|joined|leave|left|"
    r"incorporated|founded|acquired|sold|due|appointed)\w*", re.I)
_HISTORY = re.compile(r"\b(?:timeline|key dates|chronology|what happened|history of events|"
                      r"dated events)\b", re.I)
_YEAR = re.compile(r"\b(19\d{2}|20\d{2})\b")
_STOP = {"when", "does", "did", "the", "what", "will", "contract", "agreement", "with", "and",
         "expire", "expires", "happened", "coming", "upcoming", "next", "months", "month",
         "year", "years", "is", "was", "of", "in", "a", "an", "for", "to", "our", "its", "this",
         "that", "up", "are", "which", "loan", "mature", "deal", "company"}


def asks_timeline(question: str) -> bool:
    """A question about dates of events ("when…expire", "coming up", "timeline")."""
    return bool((_AHEAD.search(question) and re.search(
        r"\b(?:coming|upcoming|happen|events?|expir|matur|deadline|due|dates?)\w*", question, re.I))
        or _WHEN.search(question) or _HISTORY.search(question))


def _horizon(question: str, as_of: date) -> date | None:
    found = _AHEAD.search(question)
    if found is None or not found.group(2):
        return None
    count = int(found.group(1) or 1)
    unit = found.group(2).lower()
    days = {"m": 30.5, "q": 91.5, "y": 365.25}[unit[0]] * count
    return as_of + timedelta(days=round(days))


def _named(question: str, events: list[TimelineEvent]) -> list[TimelineEvent]:
    """Events whose title or actors carry a name the question uses (Globex, Vertex, a lender)."""
    words = [w for w in re.findall(r"[A-Za-zÀ-ÿ][\w&.-]{2,}", question) if w.lower() not in _STOP]
    if not words:
        return []
    hits = []
    for event in events:
        text = " ".join([event.title, *event.actors]).lower()
        if any(re.search(rf"\b{re.escape(w.lower())}", text) for w in words):
            hits.append(event)
    return hits


# What a "when …" question asks about, as the word stems event kinds use.
_KINDS = (("expir", "expire"), ("matur", "matur"), ("sign", "signed"), ("file", "filed"),
          ("hearing", "hearing"), ("renew", "renew"), ("join", "joined"), ("left", "left"),
          ("leave", "left"), ("terminat", "terminat"), ("appoint", "appointed"),
          ("judg", "judgment"), ("draw", "drawn"))


def _of_kind(question: str, events: list[TimelineEvent]) -> list[TimelineEvent]:
    lowered = question.lower()
    stems = [kind for asked, kind in _KINDS if asked in lowered]
    return [e for e in events if any(k in f"{e.kind} {e.title}".lower() for k in stems)]


def select(question: str, timeline: Timeline, *, asked_as_of: bool = False
           ) -> tuple[str, list[TimelineEvent]]:
    """What the question asks for: (how the list is introduced, the events). `asked_as_of`:
    the timeline's as-of date is the question's ("as of 31 March 2024"), not the room's."""
    events = [e for e in timeline.events if e.category != "document"]
    named = _named(question, events)
    if _AHEAD.search(question) and timeline.as_of is not None:
        horizon = _horizon(question, timeline.as_of)
        ahead = [e for e in (named or events) if e.end_date >= timeline.as_of
                 and (e.date <= horizon if horizon else e.upcoming)]
        until = f" to {horizon:%-d %B %Y}" if horizon else " (the next 12 months)"
        whose = "the question's as-of date" if asked_as_of else "the deal's as-of date"
        return (f"Coming up after {timeline.as_of:%-d %B %Y}, {whose}{until}:", ahead)
    if years := _YEAR.findall(question):
        wanted = {int(y) for y in years}
        dated = [e for e in (named or events) if e.date.year in wanted
                 or e.end_date.year in wanted]
        return f"Dated events in {', '.join(sorted(years))}:", dated
    if named:
        asked = any(stem in question.lower() for stem, _ in _KINDS)
        # an event of the kind asked for ("expire"), or nothing: the passages answer instead
        return "What the documents date:", _of_kind(question, named) if asked else named
    return "The deal's key dates:", events


def _line(event: TimelineEvent) -> str:
    sources = [Source(document=c.document, document_id="", location=c.location, page=c.page,
                      excerpt=c.excerpt, chunk_id=c.chunk_id) for c in event.citations[:2]]
    flag = " — ⏳ within 12 months" if event.upcoming else ""
    if event.conflict:
        note = f": {event.conflict_note}" if event.conflict_note else ""
        flag += f" — ⚠️ the sources give different dates{note}"
    return f"- **{event.label}** — {event.title}{flag} {cite(sources)}"


RED_FLAG_CATEGORIES = ("contract", "financing", "litigation", "lease")


def upcoming_lines(evidence: Evidence) -> list[str]:
    """Red flags with a date: contract expiries, maturities, hearings within 12 months."""
    timeline = evidence.timeline
    if not isinstance(timeline, Timeline):
        return []
    return [_line(e) for e in timeline.events
            if e.upcoming and e.category in RED_FLAG_CATEGORIES][:MAX_EVENTS]


def compose(ask: Ask, evidence: Evidence) -> Draft | None:
    """The dated events the question asks for; None when the timeline holds none of them (the
    intent's own composer then answers from the passages and findings)."""
    timeline = evidence.timeline
    if not isinstance(timeline, Timeline):
        return None
    as_of = evidence.admission.as_of if evidence.admission else None
    intro, events = select(ask.question, timeline, asked_as_of=as_of is not None)
    later = _left_out(ask.question, evidence, timeline)
    if not events and not later:
        return None
    if events:
        lines = [intro, *[_line(e) for e in events[:MAX_EVENTS]]]
    else:
        lines = [f"No document dated on or before {as_of:%-d %B %Y} schedules an event in "
                 "that window." if _AHEAD.search(ask.question) else
                 f"No event the question asks about is dated on or before {as_of:%-d %B %Y}."]
    if len(events) > MAX_EVENTS:
        lines.append(f"- … and {len(events) - MAX_EVENTS} more (`/manda timeline` lists all).")
    cautions = []
    if later and as_of is not None:
        shown = "; ".join(f"{e.label} {e.title}" for e in later[:4])
        more = f" and {len(later) - 4} more" if len(later) > 4 else ""
        cautions.append(caution("left_out", f"“as of {as_of:%-d %B %Y}”: {len(later)} later "
                                f"event{'s' if len(later) != 1 else ''} ({shown}{more})."))
    return Draft(text="\n".join(lines), cautions=cautions)


def _left_out(question: str, evidence: Evidence, timeline: Timeline) -> list[TimelineEvent]:
    """The events an "as of" kept out that the question would otherwise have listed."""
    if not evidence.timeline_left_out:
        return []
    as_of = timeline.as_of
    events = [e if as_of is None else e.model_copy(update={"upcoming": (
        as_of < e.end_date and e.date <= as_of + timedelta(days=365))})
        for e in evidence.timeline_left_out]
    return select(question, timeline.model_copy(update={"events": events}))[1]
