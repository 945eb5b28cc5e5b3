"""Questions about dates are answered from the deal timeline (tool `get_timeline`), offline, with
each event cited; upcoming events join the red flags."""

from __future__ import annotations

from manda.agent.compose.common import Ask
from manda.agent.intents import detect_intent, read_question
from manda.agent.planner import OfflineComposer
from manda.agent.tools import TOOL_NAMES
from manda.app import Manda


async def test_what_is_coming_up_lists_upcoming_events_with_sources(app: Manda) -> None:
    timeline = await app.deals.timeline("targetco")
    upcoming = [e for e in timeline.events if e.upcoming and e.category != "document"]
    assert upcoming, "the sample room has events within 12 months of its as-of date"
    answer = await app.answers.ask("targetco", "What is coming up in the next 12 months?")
    assert f"{timeline.as_of:%-d %B %Y}" in answer.answer
    for event in upcoming:
        assert event.label in answer.answer and event.title in answer.answer
    cited = {(c.document, c.location) for c in answer.citations}
    assert {(c.document, c.location) for c in upcoming[0].citations} <= cited
    later = [e for e in timeline.events if e.date.year >= timeline.as_of.year + 2]
    assert later and all(e.title not in answer.answer for e in later)


async def test_when_a_named_contract_expires(app: Manda) -> None:
    answer = await app.answers.ask("targetco", "When does the Globex contract expire?")
    [expiry] = [e for e in (await app.deals.timeline("targetco")).events
                if "expire" in e.kind and "Globex" in e.title]
    assert f"**{expiry.label}** — {expiry.title}" in answer.answer
    assert "Contract signed" not in answer.answer  # the question asked about the expiry
    assert any(c.document == expiry.citations[0].document for c in answer.citations)


async def test_red_flags_name_what_falls_due(app: Manda) -> None:
    answer = await app.answers.ask("targetco", "What are the red flags?")
    assert "**Coming up within 12 months" in answer.answer
    assert "Hearing — Vertex" in answer.answer.split("**Coming up")[1]


def test_the_offline_plan_asks_the_timeline_for_dates_only() -> None:
    planner = OfflineComposer()

    def tools(question: str) -> list[str]:
        intent, _ = detect_intent(question)
        ask = Ask(question=question, intent=intent, frame=read_question(question))
        return [c.name for c in planner.plan(ask, max_calls=6)]

    assert "get_timeline" in TOOL_NAMES
    assert "get_timeline" in tools("When does the loan mature?")
    assert "get_timeline" in tools("What happened in 2023?")
    assert "get_timeline" in tools("What are the red flags?")
    assert "get_timeline" not in tools("What was Q3 2024 revenue?")


async def test_as_of_leaves_later_events_out_and_says_so(app: Manda) -> None:
    everything = await app.answers.ask("targetco", "What happened in 2024?")
    assert "Claim filed — Vertex" in everything.answer  # 14 May 2024, in the full timeline

    answer = await app.answers.ask("targetco", "What happened in 2024 as of 31 March 2024?")
    listed = answer.answer
    note = " ".join(c.text for c in answer.cautions if c.kind == "left_out"
                    and c.text.startswith("Left out under “as of 31 March 2024”"))
    assert "Claim filed — Vertex" not in listed
    assert "2024-03-18" in listed  # the audit opinion came before the date
    assert "2024-05-14 Claim filed — Vertex" in note
    assert [c for c in answer.constraints if c["kind"] == "as_of"]


async def test_as_of_moves_what_is_coming_up_to_that_date(app: Manda) -> None:
    answer = await app.answers.ask(
        "targetco", "As of 30 September 2024, what was coming up in the next 12 months?")
    assert "Coming up after 30 September 2024, the question's as-of date" in answer.answer
    listed = answer.answer
    note = " ".join(c.text for c in answer.cautions if c.kind == "left_out")
    # scheduled in the legal summary of 30 September 2024: known at the date
    assert "Hearing — Vertex" in listed
    # the board decided in October 2024: after the date, left out and said so
    assert "Board decision" not in listed and "Board decision" in note
