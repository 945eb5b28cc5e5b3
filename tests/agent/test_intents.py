"""Intent detection and follow-up resolution: deterministic, read from the question alone."""

from __future__ import annotations

import pytest

from manda.agent.followups import resolve
from manda.agent.frame import read_question
from manda.answers import Intent
from manda.memory.port import ResolvedContext


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("What was Q3 revenue?", Intent.FACT_LOOKUP),
        ("Who is the CEO?", Intent.FACT_LOOKUP),
        ("Walk me through the EBITDA trend", Intent.DEEP_DIVE),
        ("Break down revenue by quarter", Intent.DEEP_DIVE),
        ("What are the red flags?", Intent.DUE_DILIGENCE),
        ("Any risks we should worry about?", Intent.DUE_DILIGENCE),
        ("Compare revenue Q3 2023 vs Q3 2024", Intent.COMPARISON),
        ("Revenue Q3 2023 and Q3 2024", Intent.COMPARISON),
        ("Summarise the financial profile", Intent.SYNTHESIS),
        ("What is missing from the IRL?", Intent.GAP_IDENTIFICATION),
        ("Which documents haven't we received yet?", Intent.GAP_IDENTIFICATION),
        ("Give me an overview of the data room", Intent.EXPLORATION),
        ("Any claims against the company?", Intent.FACT_LOOKUP),
        # the drivers of a thing ask a deep dive; a platform's drivers are who it pays
        ("What are the key drivers of churn?", Intent.DEEP_DIVE),
        ("What are the growth drivers?", Intent.DEEP_DIVE),
        ("How much has the company paid to settle drivers' claims?", Intent.FACT_LOOKUP),
        ("How many drivers use the platform?", Intent.FACT_LOOKUP),
    ],
)
def test_intents_are_named_exactly(question: str, intent: Intent) -> None:
    assert read_question(question).intent is intent


def test_the_question_names_metric_period_entity() -> None:
    frame = read_question("What was FY2023 EBITDA for Globex AG?")
    assert frame.subjects == ("ebitda",)
    assert frame.periods == ("FY2023",)
    assert frame.entity == "Globex AG"
    partial = read_question("What was Q3 revenue?")
    assert partial.periods == () and partial.partial_period == "Q3"


def test_clear_follow_up_inherits_the_period_and_states_it() -> None:
    context = ResolvedContext(subject="revenue", period="Q3 2024", intent="fact_lookup")
    resolution = resolve(read_question("And EBITDA?"), context, "EBITDA")
    assert resolution.kind == "inherited"
    assert (resolution.subject, resolution.period) == ("ebitda", "Q3 2024")
    assert resolution.assumption == "For Q3 2024"


def test_last_year_after_a_quarter_is_ambiguous() -> None:
    context = ResolvedContext(subject="ebitda", period="Q3 2024", intent="fact_lookup")
    resolution = resolve(read_question("What about last year?"), context, "EBITDA")
    assert resolution.kind == "clarify"
    assert resolution.intent is Intent.CLARIFICATION
    assert resolution.clarification == (
        "Do you mean Q3 2023 (same quarter) or FY2023 (full year) for EBITDA?"
    )


def test_last_year_after_a_full_year_is_clear() -> None:
    context = ResolvedContext(subject="revenue", period="FY2024", intent="fact_lookup")
    resolution = resolve(read_question("What about last year?"), context, "Revenue")
    assert (resolution.kind, resolution.period) == ("inherited", "FY2023")


@pytest.mark.parametrize(("reply", "period"), [("Q3 2023", "Q3 2023"),
                                                ("the full year", "FY2023"),
                                                ("same quarter", "Q3 2023")])
def test_a_reply_to_the_clarification_picks_an_option(reply: str, period: str) -> None:
    context = ResolvedContext(subject="ebitda", period="Q3 2024", intent="clarification")
    resolution = resolve(read_question(reply), context, "EBITDA")
    assert (resolution.subject, resolution.period) == ("ebitda", period)


def test_a_new_topic_starts_fresh() -> None:
    context = ResolvedContext(subject="revenue", period="Q3 2024", intent="fact_lookup")
    resolution = resolve(read_question("What are the red flags?"), context, None)
    assert resolution.kind == "fresh"
    assert (resolution.subject, resolution.period, resolution.assumption) == (None, None, None)
    standalone = resolve(read_question("What is the headcount?"), context, "Headcount")
    assert standalone.kind == "fresh" and standalone.period is None


@pytest.mark.parametrize(("question", "back"), [
    ("What did they do in revenue last year vs the year before?", (1, 2)),
    ("What was EBITDA last year?", (1,)),
    ("What was prior year revenue?", (1,)),
    ("Revenue for the year before last", (2,)),
    ("Show me EBITDA for the last two fiscal years", (1, 2)),
    ("Net income over the past three years", (1, 2, 3)),
    ("Revenue in Q3 last year?", ()),  # a quarter: the follow-up rules read it
    ("How did revenue do year on year?", ()),
    ("Revenue FY2023 vs last year", ()),  # a named year anchors it
])
def test_full_years_counted_back_from_the_latest(question: str, back: tuple[int, ...]) -> None:
    assert read_question(question).years_back == back


def test_two_years_counted_back_are_a_comparison() -> None:
    assert read_question("Revenue last year vs the year before").intent is Intent.COMPARISON
    assert read_question("What was EBITDA last year?").intent is Intent.FACT_LOOKUP


def test_the_model_is_told_how_to_read_last_year() -> None:
    """The Claude path reads "last year" the way the offline composer does."""
    from manda.agent.compose.common import Ask
    from manda.agent.prompts import question_message

    frame = read_question("What did revenue do last year vs the year before?")
    ask = Ask(intent=frame.intent, frame=frame, subject=frame.subject)
    message = question_message(ask, "(no passages)")
    assert "full years counted back (the latest, 1 before it)" in message
    assert "never a quarter or the calendar" in message
    plain = read_question("What was revenue in Q3 2024?")
    assert "counted back" not in question_message(
        Ask(intent=plain.intent, frame=plain, subject=plain.subject,
            period=plain.period), "(no passages)")
