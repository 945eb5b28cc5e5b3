"""Proof: every answer leaves one JSON log line with its conversation, and is counted in metrics.

The line carries what an operator follows usage and cost by: intent, tool calls, tokens in and
out, estimated cost, latency and whether the answer passed the source checks.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures.log_capture import json_lines, json_log_stream

from manda.app import Manda
from manda.config import Settings
from manda.testing.anthropic_server import FakeAnthropicServer, text_reply

THREAD = "slack:T1:C1:1730000000.000100"


@pytest.fixture
def stream() -> Iterator[io.StringIO]:
    yield from json_log_stream()


async def test_one_json_line_per_answer_with_the_conversation(
    app: Manda, stream: io.StringIO
) -> None:
    first = await app.answers.ask("targetco", "What was Q3 2024 revenue?", conversation_id=THREAD)
    follow = await app.answers.ask("targetco", "And EBITDA?", conversation_id=THREAD)
    flags = await app.answers.red_flags("northwind")

    records = [r for r in json_lines(stream) if r.get("event") == "answer"]
    assert len(records) == 3
    assert all(r["logger"] == "manda.answers" and r["level"] == "INFO" for r in records)
    one, two, three = records
    assert (one["conversation_id"], two["conversation_id"]) == (THREAD, THREAD)
    assert three["conversation_id"] == flags.conversation_id
    assert [r["deal_id"] for r in records] == ["targetco", "targetco", "northwind"]
    assert [r["intent"] for r in records] == ["fact_lookup", "fact_lookup", "due_diligence"]
    assert one["tool_calls"][0] == "query_knowledge_base"
    assert "detect_contradictions" in three["tool_calls"] and "find_gaps" in three["tool_calls"]
    for record, answer in zip(records, (first, follow, flags), strict=True):
        assert record["model"] == "offline" and record["answered_by"] == "offline"
        assert record["input_tokens"] == record["output_tokens"] == 0
        assert record["estimated_cost_usd"] == 0.0
        assert record["latency_ms"] > 0 and record["grounded"] is answer.grounded is True
        assert record["citations"] == len(answer.citations)
    # everything logged while answering carries the conversation too
    inside = [r for r in json_lines(stream) if r.get("conversation_id") == THREAD]
    assert len(inside) >= 2

    body, _ = app.metrics.render()
    text = body.decode()
    assert 'manda_answers_total{grounded="true",intent="fact_lookup",model="offline"} 2.0' in text
    assert 'manda_answers_total{grounded="true",intent="due_diligence",model="offline"} 1.0' in text
    assert "manda_answer_latency_seconds_count 3.0" in text


async def test_a_model_answer_logs_its_tokens_and_their_cost(
    home_copy: Path, stream: io.StringIO
) -> None:
    good = "EBITDA was €1.1M in Q3 2024 (source: TargetCo_Q3_2024_Report.pdf, p.1)."
    async with FakeAnthropicServer(api_key="test-key") as server:
        server.script(text_reply(good, usage={"input_tokens": 12_000, "output_tokens": 400}))
        settings = Settings(MANDA_HOME=home_copy, ANTHROPIC_API_KEY="test-key",
                            ANTHROPIC_BASE_URL=server.base_url, MANDA_MODEL_MAX_RETRIES=0,
                            MANDA_CLAUDE_MODEL="claude-sonnet-4-6")
        async with Manda(settings) as app:
            answer = await app.answers.ask("targetco", "What was Q3 2024 EBITDA?",
                                           conversation_id=THREAD)
    assert answer.answer == good
    [record] = [r for r in json_lines(stream) if r.get("event") == "answer"]
    assert record["conversation_id"] == THREAD
    assert record["answered_by"] == "claude:claude-sonnet-4-6"
    assert (record["model"], record["input_tokens"], record["output_tokens"]) == (
        "claude-sonnet-4-6", 12_000, 400)
    assert record["estimated_cost_usd"] == pytest.approx(12_000 * 3e-6 + 400 * 15e-6)
    assert record["grounded"] is True and record["tool_calls"] == []
