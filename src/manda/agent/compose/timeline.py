"""Timeline answers: "what is coming up", "when does X expire", "what happened in 2023" — dated
events from the deal timeline, each cited to where the room states it."""

from __future__ import annotations

import re
from datetime import timedelta

from manda.agent.compose.common import Ask, Draft
from manda.agent.evidence import Evidence, Source
from manda.agent.frame import QuestionFrame
from manda.agent.grounding import cite
from manda.answers import caution
from manda.timeline import Timeline, TimelineEvent

MAX_EVENTS = 12
UPCOMING_DAYS = range(360, 371)  # "the next 12 months" is the window events are flagged in


def _named(frame: QuestionFrame, events: list[TimelineEvent]) -> list[TimelineEvent]:
    """Events whose title or actors carry a name the question uses (Globex, Vertex, a lender)."""
    words = frame.event_words
    if not words:
        return []
    hits = []
    for event in events:
        text = " ".join([event.title, *event.actors]).lower()
        if any(re.search(rf"\b{re.escape(w.lower())}", text) for w in words):
            hits.append(event)
    return hits


def _of_kind(frame: QuestionFrame, events: list[TimelineEvent]) -> list[TimelineEvent]:
    return [e for e in events if any(k in f"{e.kind} {e.title}".lower()
                                     for k in frame.event_kinds)]


def select(frame: QuestionFrame, timeline: Timeline, *, asked_as_of: bool = False
           ) -> tuple[str, list[TimelineEvent]]:
    """What the question asks for: (how the list is introduced, the events). `asked_as_of`:
    the timeline's as-of date is the question's ("as of 31 March 2024"), not the room's."""
    events = [e for e in timeline.events if e.category != "document"]
    named = _named(frame, events)
    if frame.ahead and timeline.as_of is not None:
        days = round(frame.horizon_days or 0)
        horizon = timeline.as_of + timedelta(days=days) \
            if days and days not in UPCOMING_DAYS else None
        ahead = [e for e in (named or events) if e.end_date >= timeline.as_of
                 and (e.date <= horizon if horizon else e.upcoming)]
        until = f" to {horizon:%-d %B %Y}" if horizon else " (the next 12 months)"
        whose = "the question's as-of date" if asked_as_of else "the deal's as-of date"
        return (f"Coming up after {timeline.as_of:%-d %B %Y}, {whose}{until}:", ahead)
    if frame.years:
        wanted = set(frame.years)
        dated = [e for e in (named or events) if e.date.year in wanted
                 or e.end_date.year in wanted]
        return f"Dated events in {', '.join(str(y) for y in sorted(frame.years))}:", dated
    if named:
        # an event of the kind asked for ("expire"), or nothing: the passages answer instead
        return "What the documents date:", _of_kind(frame, named) if frame.event_kinds \
            else named
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
    intro, events = select(ask.frame, timeline, asked_as_of=as_of is not None)
    later = _left_out(ask.frame, evidence, timeline)
    if not events and not later:
        return None
    if events:
        lines = [intro, *[_line(e) for e in events[:MAX_EVENTS]]]
    else:
        lines = [f"No document dated on or before {as_of:%-d %B %Y} schedules an event in "
                 "that window." if ask.frame.ahead else
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


def _left_out(frame: QuestionFrame, evidence: Evidence, timeline: Timeline
              ) -> list[TimelineEvent]:
    """The events an "as of" kept out that the question would otherwise have listed."""
    if not evidence.timeline_left_out:
        return []
    as_of = timeline.as_of
    events = [e if as_of is None else e.model_copy(update={"upcoming": (
        as_of < e.end_date and e.date <= as_of + timedelta(days=365))})
        for e in evidence.timeline_left_out]
    return select(frame, timeline.model_copy(update={"events": events}))[1]
