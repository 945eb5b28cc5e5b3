"""What reaches a person when Claude cannot answer: the findings' answer and one line of why, never
an error — for a request the API refuses (400, 402), a model that takes too long, and an
overloaded stream (retried once first). Each against the local Messages API with the real SDK.

- 400 `invalid_request_error`, 402 `billing_error`, the `request-id` header: api/errors
- an `error` event inside a 200 stream (the SDK retries only before it): streaming#error-events
"""

from __future__ import annotations

import logging

import anthropic
import pytest
from room import DEAL, Q3, Room

from manda.agent.context import Limits
from manda.agent.graph import UNAVAILABLE_NOTICE
from manda.agent.service import AnswerService
from manda.llm.claude import ClaudeChatModel
from manda.testing.anthropic_server import (
    FakeAnthropicServer,
    Reply,
    error_reply,
    overloaded,
    text_reply,
)

GOOD = f"Revenue was €4.7M in Q3 2023 (source: {Q3}, p.1)."
QUESTION = "What was revenue in Q3 2023?"
FINDINGS = "€4.7M"  # the offline composer's answer states the finding


def agent(room: Room, client: anthropic.AsyncAnthropic, limits: Limits | None = None
          ) -> AnswerService:
    model = ClaudeChatModel(client=client, model="claude-test", stream_retry_seconds=0.01)
    return room.service(model, limits)


# https://platform.claude.com/docs/en/api/errors: 400 invalid_request_error, 402 billing_error;
# every response carries a `request-id` header, to quote when reporting it.
@pytest.mark.parametrize(("status", "kind"), [(400, "invalid_request_error"),
                                              (402, "billing_error")])
async def test_a_refused_request_is_answered_from_the_findings_with_one_line_why(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic,
        caplog: pytest.LogCaptureFixture, status: int, kind: str) -> None:
    server.script(error_reply(status, kind, "refused by the test"))
    with caplog.at_level(logging.WARNING):
        answer = await agent(room, client).ask(DEAL, QUESTION)
    assert answer.model == "offline" and FINDINGS in answer.answer
    assert answer.notices == [
        f"Claude rejected the request (HTTP {status}, {kind}); answered from the extracted "
        "findings (`manda doctor` checks the model)."]
    assert "req_fake_" in caplog.text  # the request id, for Anthropic's support
    assert len(server.requests) == 1  # never retried: it would be refused again


async def test_a_model_slower_than_its_time_budget_is_answered_from_the_findings(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(text_reply(GOOD, delay=5.0))
    answer = await agent(room, client, Limits(model_seconds=0.5)).ask(DEAL, QUESTION)
    assert answer.model == "offline" and FINDINGS in answer.answer
    assert answer.notices == ["The model took longer than 0.5 s; answered from the extracted "
                              "findings."]


# https://platform.claude.com/docs/en/build-with-claude/streaming#error-events: "Occasionally,
# errors may be sent in the event stream", e.g. overloaded_error, after the stream's HTTP 200.
async def test_an_overload_mid_stream_is_retried_once_without_repeating_streamed_text(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(Reply(content=[{"type": "text", "text": GOOD}], stream_error=overloaded(),
                        stream_error_after=2),
                  text_reply(GOOD))
    deltas: list[str] = []

    async def on_text(delta: str) -> None:
        deltas.append(delta)

    answer = await agent(room, client).ask(DEAL, QUESTION, on_text=on_text)
    assert answer.answer == GOOD and answer.model == "claude:claude-test"
    assert len(server.requests) == 2
    assert "".join(deltas) == GOOD  # the two deltas of the failed attempt were not sent again


async def test_an_overload_mid_stream_twice_is_answered_from_the_findings(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    failing = Reply(content=[{"type": "text", "text": GOOD}], stream_error=overloaded(),
                    stream_error_after=1)
    server.script(failing, failing)
    answer = await agent(room, client).ask(DEAL, QUESTION)
    assert len(server.requests) == 2
    assert answer.notices == [UNAVAILABLE_NOTICE] and answer.model == "offline"
    assert FINDINGS in answer.answer
