"""Constraints through the whole answering graph, on the hand-built deal: offline drafts put in the
asked form, evidence admitted by authority, date and nature, the thread keeping its constraints,
and Claude's answer sent back once by the gate, then noted."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from room import DEAL, DECK, Q3, Room
from test_claude_path import claude

from manda.agent.service import AnswerService
from manda.answers import Answer
from manda.testing.anthropic_server import FakeAnthropicServer, text_reply, tool_reply

ONE_SOURCE = f"Revenue was €4.7M in Q3 2023 (source: {Q3}, p.1)."


def checks(answer: object) -> dict[str, tuple[bool, bool]]:
    return {c["kind"]: (c["met"], c["disclosed"]) for c in answer.constraint_checks}  # type: ignore[attr-defined]


def cautions(answer: Answer) -> list[tuple[str, str]]:
    """(kind, words) of each caution; none of them is ever in the answer's text."""
    for c in answer.cautions:
        assert c.text not in answer.answer
    return [(c.kind, c.text) for c in answer.cautions]


async def test_the_instruction_is_not_searched_and_the_answer_is_one_sentence(
        service: AnswerService) -> None:
    answer = await service.ask(DEAL, "What was Q3 2024 revenue? Answer in one sentence.")
    assert "€5.2M" in answer.answer and "€5.0M" in answer.answer  # the conflict stays said
    body = [line for line in answer.answer.splitlines() if line.strip()]
    assert len(body) == 1 and body[0].count(". ") == 0, answer.answer
    assert checks(answer) == {"one_sentence": (True, False)} and answer.grounded
    assert answer.constraints[0]["phrase"] == "Answer in one sentence"


async def test_only_audited_documents_keep_the_deck_out_and_say_so(service: AnswerService) -> None:
    answer = await service.ask(DEAL, "What was Q3 2024 revenue, only from final documents?")
    cited = {c.document for c in answer.citations}
    assert Q3 in cited and DECK not in cited
    assert "€5.0M" not in answer.answer
    [(kind, said)] = cautions(answer)
    assert kind == "left_out"
    assert said.startswith(f"Left out under “only audited or final documents”: {DECK}")


async def test_a_figure_only_in_excluded_documents_is_said_not_met(service: AnswerService
                                                                   ) -> None:
    answer = await service.ask(DEAL, "What is the FY2025 revenue forecast? Exclude forecasts.")
    assert cautions(answer)[0][0] == "not_met" and cautions(answer)[0][1].startswith(
        "Not met — no forecasts or budgets: no actual (non-forecast) figure in the room gives "
        "revenue for FY2025")
    assert not any("Forecast" in c.document for c in answer.citations)


async def test_a_table_a_quote_and_units(service: AnswerService) -> None:
    table = await service.ask(DEAL, "Q3 2024 EBITDA, in a table please")
    assert table.answer.startswith("| Figure | Period | Value | Source | Basis |")
    assert f"| Ebitda | Q3 2024 | €1.1M | (source: {Q3}, p.1) |" in table.answer
    quoted = await service.ask(DEAL, "What does the Globex agreement say on change of control? "
                                     "Quote the exact clause.")
    assert "The agreement contains a change-of-control clause: on a change of control, Globex "\
        "AG may terminate with 90 days' notice.” (source: Acme_Legal_Summary.docx, Material "\
        "Contracts)" in quoted.answer and quoted.answer.count("“") == 1
    assert checks(quoted) == {"quote_exact": (True, False)}
    thousands = await service.ask(DEAL, "What was Q3 2024 EBITDA in € thousands?")
    assert "€1,100k" in thousands.answer and "€1.1M" not in thousands.answer
    assert thousands.grounded and checks(thousands) == {"units": (True, False)}
    pounds = await service.ask(DEAL, "What was Q3 2024 EBITDA in £ millions?")
    assert "no exchange rate to GBP" in cautions(pounds)[0][1] and checks(pounds) == {
        "units": (False, True)}


async def test_too_few_sources_is_said_with_the_one_that_states_it(service: AnswerService
                                                                   ) -> None:
    answer = await service.ask(DEAL, "What was Q2 2024 EBITDA? Use at least two sources.")
    assert cautions(answer) == [
        ("not_met", f"Not met — at least 2 sources: only one document states it ({Q3}).")]
    assert checks(answer) == {"min_sources": (False, True)}


async def test_constraints_hold_in_the_thread_until_cleared(service: AnswerService) -> None:
    thread = "cli:constraints"
    await service.ask(DEAL, "What was Q3 2024 revenue? Only final documents.",
                      conversation_id=thread)
    follow = await service.ask(DEAL, "And EBITDA?", conversation_id=thread)
    assert [c["kind"] for c in follow.constraints] == ["authoritative_only"]
    assert ("still_applying", "Still applying from earlier in this thread: only audited or "
            "final documents (say “ignore the earlier instructions” to drop them).") in \
        cautions(follow)
    again = await service.ask(DEAL, "Now in a table.", conversation_id=thread)
    assert {c["kind"] for c in again.constraints} == {"authoritative_only", "table"}
    assert "| Ebitda | Q3 2024 | €1.1M |" in again.answer  # the previous question, re-asked
    cleared = await service.ask(DEAL, "Ignore the earlier instructions. What was Q3 2024 "
                                      "revenue?", conversation_id=thread)
    assert cleared.constraints == [] and "€5.0M" in cleared.answer and cleared.cautions == []


# ---------------------------------------------------------------- the Claude path


@pytest.fixture
async def server() -> AsyncIterator[FakeAnthropicServer]:
    async with FakeAnthropicServer(api_key="test-key") as fake:
        yield fake


@pytest.fixture
async def agent(room: Room, server: FakeAnthropicServer) -> AsyncIterator[AnswerService]:
    model, client = claude(server)
    yield room.service(model)
    await client.close()


async def test_claude_hears_the_constraints_and_is_sent_back_once_then_noted(
        agent: AnswerService, server: FakeAnthropicServer) -> None:
    server.script(
        tool_reply("query_knowledge_base", {"query": "revenue Q3 2023", "subject": "revenue"}),
        text_reply(ONE_SOURCE),
        text_reply(ONE_SOURCE),  # the second attempt still cites one document
    )
    answer = await agent.ask(DEAL, "What was revenue in Q3 2023? Use at least two sources.")
    first, _, third = server.requests
    assert "- at least 2 sources" in first.last_user_text
    assert "Question: What was revenue in Q3 2023?" in first.last_user_text
    assert "at least 2 sources; the answer cites 1" in third.last_user_text
    assert server.pending == 0  # sent back once, not again
    assert answer.model == "claude:claude-test" and answer.grounded
    assert answer.answer == ONE_SOURCE  # the caution is beside it, not in the text
    assert cautions(answer) == [
        ("not_met", f"Not met — at least 2 sources: only one document states it ({Q3}).")]
    assert checks(answer) == {"min_sources": (False, True)}


async def test_claude_prose_when_a_table_was_asked_is_laid_out_after_one_retry(
        agent: AnswerService, server: FakeAnthropicServer) -> None:
    server.script(
        tool_reply("query_knowledge_base", {"query": "revenue Q3 2023"}),
        text_reply(ONE_SOURCE),
        text_reply(ONE_SOURCE),
    )
    answer = await agent.ask(DEAL, "Revenue in Q3 2023, as a table")
    assert "Answer in a Markdown table" in server.requests[-1].last_user_text
    assert answer.answer.splitlines()[:3] == [
        "| Point | Detail |", "|---|---|", f"|  | {ONE_SOURCE} |"]
    assert [c.document for c in answer.citations] == [Q3]
    assert checks(answer) == {"table": (True, False)}


async def test_claude_left_out_passages_are_listed_for_it(agent: AnswerService,
                                                          server: FakeAnthropicServer) -> None:
    server.script(
        tool_reply("query_knowledge_base", {"query": "Q3 2024 revenue"}),
        text_reply(f"Revenue was €5.2M in Q3 2024 (source: {Q3}, p.1)."),
    )
    answer = await agent.ask(DEAL, "Q3 2024 revenue, only from final documents")
    given = server.requests[0].last_user_text  # the retrieval the question starts from
    assert f"{DECK}: neither audited nor final" in given and "slide 2" not in given
    assert checks(answer) == {"authoritative_only": (True, False)} and answer.grounded
