"""Each answer's trace ("How I answered"): recorded while the graph runs, read back by answer id,
on the offline path (no tokens, real latency) and the Claude path (tokens and cost per step)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import anthropic
import pytest
from room import DEAL, DECK, OTHER, Q3, Room

from manda.agent.service import AnswerService
from manda.agent.validate import LOOSER_OFFLINE
from manda.llm.claude import ClaudeChatModel
from manda.testing.anthropic_server import FakeAnthropicServer, text_reply, tool_reply
from manda.traces import trace_sections

NODES = ["load_context", "read_question", "resolve_followup", "retrieve",
         "tool_loop", "compose", "apply_constraints", "validate", "ground", "save_context"]


async def test_an_offline_answer_keeps_its_trace(service: AnswerService) -> None:
    answer = await service.ask(DEAL, "What was Q3 2024 revenue?", conversation_id="t:1")
    trace = await service.trace("t:1", answer.answer_id)
    assert trace is not None
    assert (trace.deal_id, trace.question, trace.intent) == (DEAL, "What was Q3 2024 revenue?",
                                                             "fact_lookup")
    assert "fact lookup by default" in trace.intent_why and trace.followup == "fresh"
    # the first search, then the offline plan, each with its arguments and what it returned
    first = trace.tool_calls[0]
    assert (first.step, first.name, first.arguments["query"]) == (
        "retrieve", "query_knowledge_base", "What was Q3 2024 revenue?")
    assert first.result_chars > 0 and first.passages > 0
    assert any(c.step == "tool_loop" and c.name == "detect_contradictions"
               for c in trace.tool_calls)
    assert trace.plan[0].startswith("search first: query_knowledge_base(")
    assert any(line.startswith("offline plan: ") for line in trace.plan)
    # the passages, with the channels that found them, and which ones the answer cites
    cited = {(p.document, p.location) for p in trace.passages if p.cited}
    assert (Q3, "p.1") in cited and (DECK, "slide 2") in cited
    assert len(cited) < len(trace.passages)
    assert all(p.channels for p in trace.passages)
    assert {"bm25"} <= {ch for p in trace.passages for ch in p.channels}
    assert all(p.channel_scores["bm25"] > 0 for p in trace.passages if "bm25" in p.channels)
    # the gate passed, and every number stated points at the excerpt that states it
    assert [c.ok for c in trace.checks] == [True]
    # the checks only a model's answer goes through are named (validate.LOOSER_OFFLINE)
    assert trace.checks[0].details == ["checked for a model's answer only: "
                                       + ", ".join(LOOSER_OFFLINE)]
    assert ("€5.2M", f"{Q3}, p.1", "stated") in {(n.text, n.source, n.how) for n in trace.numbers}
    assert ("€5.0M", f"{DECK}, slide 2") in {(n.text, n.source) for n in trace.numbers}
    # every node timed; offline costs nothing
    assert [s.name for s in trace.steps] == NODES
    assert sum(s.ms for s in trace.steps) > 0
    assert (trace.input_tokens, trace.output_tokens, trace.cost_usd) == (0, 0, 0.0)
    assert trace.latency_ms == answer.usage.latency_ms


async def test_a_follow_up_says_what_it_carried_over(service: AnswerService) -> None:
    await service.ask(DEAL, "What was Q3 2024 revenue?", conversation_id="t:2")
    follow = await service.ask(DEAL, "And EBITDA?", conversation_id="t:2")
    trace = await service.trace("t:2", follow.answer_id)
    assert trace is not None
    assert trace.followup == "inherited" and trace.carried_over == ["period Q3 2024"]
    titles = dict(trace_sections(trace))
    assert "Follow-up: carried over period Q3 2024" in titles["Intent"][1]


async def test_a_trace_belongs_to_its_conversation(service: AnswerService) -> None:
    answer = await service.ask(DEAL, "What was Q3 2024 revenue?", conversation_id="t:3")
    assert await service.trace("t:elsewhere", answer.answer_id) is None
    again = await service.ask(OTHER, "What was revenue?", conversation_id="t:4")
    assert (await service.trace("t:4", again.answer_id)).deal_id == OTHER  # type: ignore[union-attr]


@pytest.fixture
async def claude_service(room: Room) -> AsyncIterator[tuple[AnswerService, FakeAnthropicServer]]:
    async with FakeAnthropicServer(api_key="test-key") as server:
        client = anthropic.AsyncAnthropic(api_key="test-key", base_url=server.base_url,
                                          max_retries=0)
        yield room.service(ClaudeChatModel(client=client, model="claude-sonnet-4-6")), server
        await client.close()


async def test_a_claude_answer_traces_its_turns_tokens_and_cost(
        claude_service: tuple[AnswerService, FakeAnthropicServer]) -> None:
    service, server = claude_service
    server.script(
        tool_reply("query_knowledge_base", {"query": "revenue Q3 2023", "subject": "revenue"},
                   usage={"input_tokens": 1000, "output_tokens": 50}),
        text_reply("Revenue was €9.9M in Q3 2023 (source: Nowhere.pdf, p.9).",
                   usage={"input_tokens": 1200, "output_tokens": 30}),
        text_reply(f"Revenue was €4.7M in Q3 2023 (source: {Q3}, p.1).",
                   usage={"input_tokens": 1300, "output_tokens": 20}),
    )
    answer = await service.ask(DEAL, "What was revenue in Q3 2023?", conversation_id="t:5")
    trace = await service.trace("t:5", answer.answer_id)
    assert trace is not None and trace.answered_by == "claude:claude-sonnet-4-6"
    assert "Claude, turn 1: query_knowledge_base(query='revenue Q3 2023', subject='revenue')" \
        in trace.plan
    # the re-prompted turn is a turn of the tool loop too (it may search again)
    loop = [s for s in trace.steps if s.name == "tool_loop"]
    assert [s.input_tokens for s in loop] == [1000, 1200, 1300]
    # $3 / $15 per million tokens (manda.observability.PRICES)
    assert loop[0].cost_usd == pytest.approx((1000 * 3 + 50 * 15) / 1e6)
    assert [s.input_tokens for s in trace.steps if s.name == "reprompt"] == [0]
    # the first draft cited a place never retrieved: removed, and the gate sent it back
    gates = [c for c in trace.checks if c.name.startswith("validation gate")]
    assert [g.ok for g in gates] == [False, True]
    assert trace.dropped_references == ["Nowhere.pdf, p.9"]
    assert trace.input_tokens == 3500 and trace.cost_usd == pytest.approx(
        (3500 * 3 + 100 * 15) / 1e6)
    assert ("€4.7M", f"{Q3}, p.1") in {(n.text, n.source) for n in trace.numbers}


def test_constraints_and_their_checks_are_read_by_shape() -> None:
    """The answer's constraints (`manda.agent.constraints`) and each one's check on the final
    answer, as the graph keeps them in its state, become the trace's lines."""
    from dataclasses import dataclass

    from manda.agent.constraints import Constraint, ConstraintKind, Constraints
    from manda.agent.trace import TraceRecorder, _checks, _constraints

    table = Constraint(kind=ConstraintKind.TABLE, phrase="in a table")
    two = Constraint(kind=ConstraintKind.MIN_SOURCES, phrase="use two sources", count=2)

    @dataclass
    class Check:  # the shape of a constraint's check on the final answer
        constraint: Constraint
        met: bool
        reason: str = ""
        disclosed: bool = False

    shown = _constraints(Constraints(items=(table, two)), [table])
    assert [(c.kind, c.text, c.carried) for c in shown] == [
        ("table", "a table", True), ("min_sources", "at least 2 sources", False)]
    checks = _checks(TraceRecorder(), [
        Check(table, True), Check(two, False, "only one document states this figure", True)])
    assert [(c.name, c.ok, c.details) for c in checks] == [
        ("constraint: a table", True, []),
        ("constraint: at least 2 sources", False,
         ["only one document states this figure", "the answer says which and why"])]
