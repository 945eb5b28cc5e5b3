"""Structured logs: JSON lines with the conversation in context, and the per-answer record."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Iterator

import pytest
from fixtures.log_capture import json_lines, json_log_stream

from manda.observability import (
    PRICES,
    configure_logging,
    current_log_context,
    estimate_cost,
    log_answer,
    log_context,
    price_of,
)

log = logging.getLogger("manda.test")


@pytest.fixture
def stream() -> Iterator[io.StringIO]:
    yield from json_log_stream()


def test_one_json_object_per_line_with_the_base_fields(stream: io.StringIO) -> None:
    log.info("ingested %d files", 3)
    log.debug("not shown at INFO")
    (record,) = json_lines(stream)
    assert record["level"] == "INFO"
    assert record["logger"] == "manda.test"
    assert record["message"] == "ingested 3 files"
    assert record["ts"].endswith("Z") and "T" in record["ts"]


def test_context_fields_are_in_every_record_inside_it(stream: io.StringIO) -> None:
    with log_context(conversation_id="slack:T1:C1:1700000000.000100", deal_id="targetco"):
        log.info("question received")
        with log_context(event_id="Ev01", deal_id=None):  # None leaves the outer value
            log.warning("answer posted", extra={"channel": "C1"})
        log.info("done")
    log.info("outside")
    inside, nested, after, outside = json_lines(stream)
    assert inside["conversation_id"] == "slack:T1:C1:1700000000.000100"
    assert inside["deal_id"] == "targetco" and "event_id" not in inside
    assert nested["event_id"] == "Ev01" and nested["deal_id"] == "targetco"
    assert nested["channel"] == "C1"
    assert "event_id" not in after and after["deal_id"] == "targetco"
    assert "conversation_id" not in outside and current_log_context() == {}


async def test_context_follows_each_conversation_across_awaits_and_tasks(
    stream: io.StringIO,
) -> None:
    async def conversation(thread: str) -> None:
        with log_context(conversation_id=thread):
            for step in range(3):
                await asyncio.sleep(0)  # the two conversations interleave here
                log.info("step %d", step)
            await asyncio.create_task(_in_a_task())

    async def _in_a_task() -> None:
        log.info("inside a task")

    await asyncio.gather(conversation("slack:T:C:1"), conversation("slack:T:C:2"))
    seen = [(r["conversation_id"], r["message"]) for r in json_lines(stream)]
    assert [m for c, m in seen if c == "slack:T:C:1"] == [*STEPS, "inside a task"]
    assert [m for c, m in seen if c == "slack:T:C:2"] == [*STEPS, "inside a task"]
    assert [c for c, _ in seen[:2]] == ["slack:T:C:1", "slack:T:C:2"]  # they did interleave


STEPS = ["step 0", "step 1", "step 2"]


def test_base_fields_cannot_be_overwritten(stream: io.StringIO) -> None:
    with log_context(level="spoofed"):
        log.error("real", extra={"logger": "spoofed", "ts": "spoofed"})
    (record,) = json_lines(stream)
    assert record["level"] == "ERROR"
    assert record["logger"] == "manda.test"
    assert record["ts"] != "spoofed"


def test_exceptions_carry_their_traceback(stream: io.StringIO) -> None:
    try:
        raise RuntimeError("Neo4j refused the query")
    except RuntimeError:
        log.exception("ingestion failed")
    (record,) = json_lines(stream)
    assert "Traceback" in record["exc"] and "Neo4j refused the query" in record["exc"]


def test_values_json_cannot_encode_are_written_as_text(stream: io.StringIO) -> None:
    log.info("odd values", extra={"path": object.__new__(_Path), "ids": {1}})
    (record,) = json_lines(stream)
    assert record["path"] == "<dataroom/a.pdf>" and record["ids"] == "{1}"


class _Path:
    def __str__(self) -> str:
        return "<dataroom/a.pdf>"


def test_configuring_again_replaces_the_handler(stream: io.StringIO) -> None:
    configure_logging("INFO", json=True, stream=stream)
    log.info("once")
    assert len(json_lines(stream)) == 1


def test_text_mode_for_a_terminal() -> None:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    out = io.StringIO()
    try:
        configure_logging("WARNING", json=False, stream=out)
        with log_context(deal_id="targetco"):
            log.info("hidden")
            log.warning("Redis is down; answering without thread memory")
    finally:
        for handler in list(root.handlers):
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
    (line,) = out.getvalue().splitlines()
    assert "WARNING manda.test: Redis is down; answering without thread memory" in line
    assert line.endswith("deal_id=targetco")


def test_an_unknown_level_is_refused_with_the_setting_to_fix() -> None:
    with pytest.raises(ValueError, match="MANDA_LOG_LEVEL='LOUD'"):
        configure_logging("LOUD", json=True, stream=io.StringIO())


# --- cost and the per-answer record ------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "input_tokens", "output_tokens", "dollars"),
    [
        ("claude-sonnet-4-5", 1_000_000, 1_000_000, 18.0),
        ("claude-sonnet-4-5", 2_000, 500, 0.0135),
        ("claude-haiku-4-5", 1_000_000, 1_000_000, 6.0),
        ("claude-opus-4-1", 1_000_000, 1_000_000, 90.0),
        ("claude-sonnet-4-5-20250929", 1_000_000, 0, 3.0),  # a dated snapshot id
        ("offline", 5_000, 800, 0.0),
        ("voyage-3.5", 1_000_000, 0, 0.06),
    ],
)
def test_estimated_cost(model: str, input_tokens: int, output_tokens: int, dollars: float) -> None:
    assert estimate_cost(model, input_tokens, output_tokens) == pytest.approx(dollars)


def test_an_unpriced_model_is_an_error_not_a_free_one() -> None:
    assert price_of("gpt-4o") is None
    assert price_of("claude-sonnet-4") is None  # a prefix of a priced id is another model
    with pytest.raises(ValueError, match="gpt-4o"):
        estimate_cost("gpt-4o", 10, 10)
    assert set(PRICES) >= {"claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1", "offline"}


def test_the_answer_record(stream: io.StringIO) -> None:
    with log_context(conversation_id="slack:T1:C1:1700000000.000100", deal_id="targetco"):
        returned = log_answer(
            intent="fact_lookup",
            model="claude-sonnet-4-5",
            tool_calls=["search_findings", "get_document"],
            input_tokens=2_000,
            output_tokens=500,
            latency_ms=1834.56,
            grounded=True,
        )
    (record,) = json_lines(stream)
    assert record["logger"] == "manda.answers"
    assert record["conversation_id"] == "slack:T1:C1:1700000000.000100"
    for key, value in {
        "event": "answer",
        "intent": "fact_lookup",
        "model": "claude-sonnet-4-5",
        "tool_calls": ["search_findings", "get_document"],
        "input_tokens": 2000,
        "output_tokens": 500,
        "estimated_cost_usd": 0.0135,
        "latency_ms": 1834.6,
        "grounded": True,
    }.items():
        assert record[key] == value, key
        assert returned[key] == value, key


def test_an_answer_from_an_unpriced_model_has_a_null_cost(stream: io.StringIO) -> None:
    log_answer(
        intent="comparison",
        model="some-proxy-model",
        tool_calls=[],
        input_tokens=10,
        output_tokens=10,
        latency_ms=5,
        grounded=False,
    )
    (record,) = json_lines(stream)
    assert record["estimated_cost_usd"] is None and record["grounded"] is False
