"""Thinking and effort, set for each kind of call; caps sized for thinking plus the reply; a reply
cut off at its cap continued, not started again. Against the local Messages API, which counts a
reply's thinking toward `max_tokens` and refuses the `thinking` and `tool_choice` forms the
current Sonnet refuses.

Pages under https://platform.claude.com/docs/en/:
- adaptive thinking on by default, effort `high` by default, `output_config.effort`:
  build-with-claude/effort
- thinking tokens count toward `max_tokens`: build-with-claude/adaptive-thinking
- `between_tools` turns up-front thinking off, `disabled` is a 400 on Sonnet 5.5, forced
  `tool_choice` is a 400, no assistant prefill: models/sonnet-5-5/whats-new-sonnet-5-5
- `max_tokens`: raise the cap or continue the response: build-with-claude/handling-stop-reasons
"""

from __future__ import annotations

from typing import Any

import anthropic
import pytest
from room import DEAL, Q3, Room

from manda.agent.context import ANSWER_TOKENS, Limits
from manda.agent.prompts import CONTINUE_MESSAGE
from manda.agent.service import AnswerService
from manda.llm.calls import ANSWER, EXTRACTION, SLIDE, traits_of
from manda.llm.claude import ClaudeChatModel
from manda.testing.anthropic_server import FakeAnthropicServer, Reply, text_reply

FIRST = "Revenue was €4.7M in Q3 2023 "
REST = f"(source: {Q3}, p.1)."
GOOD = FIRST + REST
QUESTION = "What was revenue in Q3 2023?"


def agent(room: Room, client: anthropic.AsyncAnthropic, limits: Limits | None = None,
          model: str = "claude-sonnet-5-5") -> AnswerService:
    return room.service(ClaudeChatModel(client=client, model=model), limits)


def test_each_kind_of_call_says_how_it_thinks() -> None:
    sonnet = "claude-sonnet-5-5"
    assert ANSWER.request_fields(sonnet) == {"thinking": {"type": "adaptive"},
                                             "output_config": {"effort": "medium"}}
    assert SLIDE.request_fields(sonnet) == ANSWER.request_fields(sonnet)
    assert EXTRACTION.request_fields(sonnet) == {"thinking": {"type": "between_tools"},
                                                 "output_config": {"effort": "high"}}
    # models that take other forms get theirs (each family's "what's new" page)
    assert EXTRACTION.request_fields("claude-sonnet-5")["thinking"] == {"type": "disabled"}
    assert "thinking" not in EXTRACTION.request_fields("claude-opus-5-5")  # always thinks
    assert "output_config" not in ANSWER.request_fields("claude-haiku-4-5")
    assert traits_of("claude-sonnet-5-5-20261001") == traits_of("claude-sonnet-5-5")
    assert ANSWER.max_tokens(2048) == 2048 + ANSWER.thinking_tokens
    assert EXTRACTION.max_tokens(16384) == 16384  # nothing thought up front: all for findings


async def test_an_answer_request_sets_thinking_and_effort_and_room_for_both(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    # a one-sentence answer after 6,000 tokens of thought: a 2,048 cap would have cut it
    server.script(Reply(content=[{"type": "text", "text": GOOD}], thinking_tokens=6000))
    answer = await agent(room, client).ask(DEAL, QUESTION)
    (request,) = server.requests
    assert request.body["thinking"] == {"type": "adaptive"}
    assert request.body["output_config"] == {"effort": "medium"}
    assert request.body["max_tokens"] == ANSWER_TOKENS["fact_lookup"] + ANSWER.thinking_tokens
    assert answer.answer == GOOD and answer.model == "claude:claude-sonnet-5-5"


async def test_a_cut_off_reply_is_continued_and_never_streamed_twice(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(text_reply(FIRST, stop_reason="max_tokens"), text_reply(REST))
    deltas: list[str] = []

    async def on_text(delta: str) -> None:
        deltas.append(delta)

    answer = await agent(room, client).ask(DEAL, QUESTION, on_text=on_text)
    assert answer.answer == GOOD and answer.model == "claude:claude-sonnet-5-5"
    assert "".join(deltas) == GOOD  # the first part once, then the rest
    first, second = server.requests
    assert second.body["max_tokens"] == first.body["max_tokens"]  # continued, not re-asked larger
    cut, ask = second.body["messages"][-2:]
    assert cut["role"] == "assistant" and [b["text"] for b in cut["content"]] == [FIRST]
    assert ask["role"] == "user" and ask["content"][0]["text"] == CONTINUE_MESSAGE


async def test_a_turn_that_only_thought_is_asked_again_with_a_larger_cap(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    limits = Limits(answer_tokens={"fact_lookup": 1000})
    thought = ANSWER.max_tokens(1000) + 500  # the whole cap goes to thinking
    server.script(Reply(content=[{"type": "text", "text": GOOD}], thinking_tokens=thought),
                  Reply(content=[{"type": "text", "text": GOOD}], thinking_tokens=thought))
    answer = await agent(room, client, limits).ask(DEAL, QUESTION)
    assert [r.body["max_tokens"] for r in server.requests] == [ANSWER.max_tokens(1000),
                                                               ANSWER.max_tokens(2000)]
    assert answer.answer == GOOD


@pytest.mark.parametrize(("change", "said"), [
    ({"thinking": {"type": "disabled"}}, '"thinking.type.disabled" is not supported'),
    ({"thinking": {"type": "enabled", "budget_tokens": 2000}},
     '"thinking.type.enabled" is not supported'),
    ({"thinking": {"type": "between_tools"}, "output_config": {"effort": "max"}},
     "between_tools\" is not supported with effort"),
    ({"output_config": {"effort": "extreme"}}, "output_config.effort"),
    ({"tool_choice": {"type": "tool", "name": "record"}}, "forced tool use"),
    ({"messages": [{"role": "user", "content": "Hi"},
                   {"role": "assistant", "content": "The answer is"}]},
     "does not support assistant message prefill"),
])
async def test_the_fake_refuses_what_the_current_sonnet_refuses(
        server: FakeAnthropicServer, client: anthropic.AsyncAnthropic,
        change: dict[str, Any], said: str) -> None:
    body: dict[str, Any] = {"model": "claude-sonnet-5-5", "max_tokens": 100,
                            "messages": [{"role": "user", "content": "Hi"}],
                            "tools": [{"name": "record", "description": "r",
                                       "input_schema": {"type": "object"}}]}
    with pytest.raises(anthropic.BadRequestError) as raised:
        await client.messages.create(**{**body, **change})
    assert said in raised.value.body["error"]["message"]
