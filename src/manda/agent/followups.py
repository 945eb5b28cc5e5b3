"""Follow-ups: inherit what is clear, ask when it is not, start fresh on a new topic.

"And EBITDA?" after Q3 2024 revenue keeps Q3 2024 and says so ("For Q3 2024, …"); "What about
last year?" after a quarter could mean the same quarter or the full year, so Manda asks; a new
question with its own topic starts from nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from manda.agent.frame import QuestionFrame
from manda.answers import Intent
from manda.finance.periods import previous_period, same_quarter_last_year, year_of
from manda.memory.port import ResolvedContext

ResolutionKind = Literal["fresh", "inherited", "clarify"]

_QUARTER_OR_HALF = re.compile(r"^([QH])([1-4]) (\d{4})$")
_FY = re.compile(r"^FY(\d{4})$")
_CARRIED_INTENTS = {Intent.FACT_LOOKUP, Intent.DEEP_DIVE, Intent.COMPARISON}


@dataclass(frozen=True)
class Resolution:
    """What this question is about once the conversation so far is taken into account."""

    kind: ResolutionKind
    intent: Intent
    subject: str | None
    period: str | None
    entity: str | None
    assumption: str | None = None  # stated first in the answer: "For Q3 2024"
    clarification: str | None = None  # the question Manda asks back
    options: tuple[str, ...] = ()


def clarification_options(period: str) -> tuple[str, str] | None:
    """For a quarter or half, "last year" reads two ways: the same quarter, or the full year."""
    m = _QUARTER_OR_HALF.match(period)
    if m is None:
        return None
    same = same_quarter_last_year(period)
    year = year_of(period)
    if same is None or year is None:
        return None
    return same, f"FY{year - 1}"


def clarification_question(period: str, subject_label: str | None) -> str | None:
    options = clarification_options(period)
    if options is None:
        return None
    same, full = options
    kind = "same quarter" if period.startswith("Q") else "same half-year"
    about = f" for {subject_label}" if subject_label else ""
    return f"Do you mean {same} ({kind}) or {full} (full year){about}?"


def _relative_period(frame: QuestionFrame, base: str | None) -> tuple[str | None, bool]:
    """The period a relative phrase points to from `base`; True when it is ambiguous."""
    if base is None or frame.relative is None:
        return None, False
    if frame.relative == "previous_period":
        return previous_period(base), False
    if frame.relative == "same_period_last_year":
        return same_quarter_last_year(base), False
    if _FY.match(base):
        return previous_period(base), False
    if clarification_options(base) is not None:
        return None, True
    return same_quarter_last_year(base), False


def _partial_with_year(partial: str | None, base: str | None) -> str | None:
    year = year_of(base)
    if partial is None or year is None:
        return None
    return f"{partial} {year}"


def _answers_clarification(frame: QuestionFrame, context: ResolvedContext) -> str | None:
    """The option a reply to "Q3 2023 (same quarter) or FY2023 (full year)?" picked, if any."""
    if context.intent != Intent.CLARIFICATION.value or not context.period:
        return None
    options = clarification_options(context.period)
    if options is None:
        return None
    same, full = options
    if frame.period in options:
        return frame.period
    if frame.full_year_reply and not frame.same_quarter_reply:
        return full
    if frame.same_quarter_reply:
        return same
    return None


def resolve(
    frame: QuestionFrame, context: ResolvedContext, subject_label: str | None = None
) -> Resolution:
    """Decide fresh, inherited or clarify; `subject_label` names the metric in a clarification."""
    picked = _answers_clarification(frame, context)
    if picked is not None:
        return Resolution(
            kind="inherited",
            intent=Intent.FACT_LOOKUP,
            subject=frame.subject or context.subject,
            period=picked,
            entity=frame.entity or context.entity,
            assumption=f"For {picked}",
        )

    has_context = bool(context.subject or context.period or context.entity)
    continuation = (frame.followup or frame.refers_back or frame.relative is not None) and (
        not frame.explicit_intent or frame.intent in _CARRIED_INTENTS
    )
    if not has_context or not continuation:
        return Resolution(
            kind="fresh",
            intent=frame.intent,
            subject=frame.subject,
            period=frame.period,
            entity=frame.entity,
        )

    subject = frame.subject or context.subject
    entity = frame.entity or (context.entity if not frame.subject else None)
    intent = frame.intent
    if not frame.explicit_intent and context.intent:
        previous = Intent(context.intent) if context.intent in Intent._value2member_map_ else None
        if previous in _CARRIED_INTENTS:
            intent = previous
    period = frame.period or _partial_with_year(frame.partial_period, context.period)
    if period is None and frame.relative is not None:
        relative, ambiguous = _relative_period(frame, context.period)
        if ambiguous and context.period is not None:
            return Resolution(
                kind="clarify",
                intent=Intent.CLARIFICATION,
                subject=subject,
                period=context.period,
                entity=entity,
                clarification=clarification_question(context.period, subject_label),
                options=clarification_options(context.period) or (),
            )
        period = relative
    stated = None
    if period is None and frame.partial_period is None:
        period = context.period
        stated = period
    elif frame.period is None:
        stated = period
    return Resolution(
        kind="inherited",
        intent=intent,
        subject=subject,
        period=period,
        entity=entity,
        assumption=f"For {stated}" if stated else None,
    )
