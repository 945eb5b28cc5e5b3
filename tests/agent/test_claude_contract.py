"""Claude's documented contract, pinned against the local Messages API with the real SDK.

Each test names the behaviour of the API it relies on and the page that documents it. What only
a live run can show (real refusals, real cache hits above the model's minimum prefix, thinking
as the current model writes it) is checked by `scripts/live-check.sh`.

| behaviour | doc |
|---|---|
| an `error` event inside a 200 stream carries the error type | streaming#error-events |
| `stop_reason` max_tokens / refusal / model_context_window_exceeded | handling-stop-reasons |
| thinking blocks go back unmodified in a tool loop | extended-thinking#preserving-thinking-blocks |
| `cache_control` breakpoints; cache reads and writes in `usage` | prompt-caching |
| model ids; `GET /v1/models/{id}` | models/overview, api/models/retrieve |
"""

from __future__ import annotations

import os
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import anthropic
import pytest
from anthropic.types import ModelParam
from room import DEAL, Q3, Room

from manda.agent.context import ANSWER_TOKENS, Limits
from manda.agent.graph import UNAVAILABLE_NOTICE
from manda.agent.service import AnswerService
from manda.agent.stops import CONTEXT_NOTICE, REFUSAL_NOTICE, TRUNCATED_NOTICE
from manda.cli.doctor import run_checks
from manda.config import DEFAULT_CLAUDE_MODEL, Settings
from manda.llm.calls import ANSWER
from manda.llm.claude import ClaudeChatModel
from manda.testing.anthropic_server import (
    FakeAnthropicServer,
    Reply,
    model_info,
    overloaded,
    text_reply,
    tool_reply,
)

GOOD = f"Revenue was €4.7M in Q3 2023 (source: {Q3}, p.1)."
QUESTION = "What was revenue in Q3 2023?"


def agent(room: Room, client: anthropic.AsyncAnthropic, limits: Limits | None = None
          ) -> AnswerService:
    model = ClaudeChatModel(client=client, model="claude-test", stream_retry_seconds=0.01)
    return room.service(model, limits)


def blocks_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


# https://platform.claude.com/docs/en/build-with-claude/streaming#error-events
# "Occasionally, errors may be sent in the event stream" (e.g. overloaded_error) after HTTP 200.
# It is retried once (`test_claude_fallbacks.py`); still overloaded, it is an outage.
async def test_an_overloaded_error_inside_the_stream_is_an_outage_not_a_refused_request(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(*[Reply(content=[{"type": "text", "text": GOOD}], stream_error=overloaded())] * 2)
    answer = await agent(room, client).ask(DEAL, QUESTION)
    assert answer.notices == [UNAVAILABLE_NOTICE] and answer.model == "offline"
    assert "€4.7M" in answer.answer


# https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons#max-tokens
# A turn stopped by max_tokens is incomplete: a tool_use block in it may be cut short.
async def test_tools_of_a_turn_cut_by_max_tokens_never_run_and_the_turn_is_asked_again_larger(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(
        tool_reply("add_to_qa", {"question": "Explain the revenue", "category": "Financial"},
                   stop_reason="max_tokens"),
        text_reply(GOOD),
    )
    answer = await agent(room, client).ask(DEAL, QUESTION)
    first, second = server.requests
    cap = ANSWER_TOKENS["fact_lookup"]  # the reply's; the room to think in comes on top
    assert (first.body["max_tokens"], second.body["max_tokens"]) == (
        ANSWER.max_tokens(cap), ANSWER.max_tokens(2 * cap))
    sent = [b["type"] for m in second.body["messages"] for b in blocks_of(m)]
    assert "tool_use" not in sent and "tool_result" not in sent  # the cut turn was dropped
    assert answer.answer == GOOD and answer.model == "claude:claude-test"
    assert not [a for a in answer.suggested_actions if a.type == "add_to_qa"]


async def test_an_answer_still_cut_at_the_ceiling_is_answered_from_the_findings(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(*[text_reply("", stop_reason="max_tokens")] * 3)  # cut before a word
    limits = Limits(answer_tokens={"fact_lookup": 1000}, max_answer_tokens=4000)
    answer = await agent(room, client, limits).ask(DEAL, QUESTION)
    assert [r.body["max_tokens"] for r in server.requests] == [
        ANSWER.max_tokens(n) for n in (1000, 2000, 4000)]
    assert answer.notices == [TRUNCATED_NOTICE] and answer.model == "offline"
    assert "€4.7M" in answer.answer


async def test_a_reply_cut_again_and_again_is_answered_from_the_findings(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(*[text_reply("Revenue was ", stop_reason="max_tokens")] * 3)
    answer = await agent(room, client, Limits(max_continuations=2)).ask(DEAL, QUESTION)
    assert len(server.requests) == 3  # the reply, then two continuations of it
    assert answer.notices == [TRUNCATED_NOTICE] and answer.model == "offline"


# https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons#refusal
async def test_a_refusal_is_answered_from_the_findings_with_a_plain_note(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(text_reply("", stop_reason="refusal"))
    answer = await agent(room, client).ask(DEAL, QUESTION)
    assert answer.notices == [REFUSAL_NOTICE] and answer.model == "offline"
    assert "€4.7M" in answer.answer and len(server.requests) == 1


# https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons#model-context-window-exceeded
async def test_a_full_context_window_trims_the_retrieval_and_asks_once_more(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(text_reply("", stop_reason="model_context_window_exceeded"), text_reply(GOOD))
    answer = await agent(room, client).ask(DEAL, QUESTION)
    first, second = server.requests
    assert len(second.last_user_text) < len(first.last_user_text)
    assert "shortened to fit the model's context window" in second.last_user_text
    assert answer.answer == GOOD and answer.model == "claude:claude-test"


async def test_a_context_window_exceeded_twice_is_answered_from_the_findings(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(*[text_reply("", stop_reason="model_context_window_exceeded")] * 2)
    answer = await agent(room, client).ask(DEAL, QUESTION)
    assert len(server.requests) == 2
    assert answer.notices == [CONTEXT_NOTICE] and answer.model == "offline"


# https://platform.claude.com/docs/en/build-with-claude/extended-thinking#preserving-thinking-blocks
# During tool use, the thinking blocks of the last assistant turn must be passed back unmodified.
async def test_thinking_blocks_go_back_verbatim_in_the_tool_loop(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    thinking = {"type": "thinking", "thinking": "The report's page 1 has it.",
                "signature": "c2lnbmF0dXJlLW9mLXRoZS10aGlua2luZw=="}
    server.script(
        Reply(content=[thinking, {"type": "tool_use", "name": "query_knowledge_base",
                                  "input": {"query": "revenue Q3 2023"}}]),
        text_reply(GOOD),
    )
    answer = await agent(room, client).ask(DEAL, QUESTION, on_text=_ignore)
    assistant = [m for m in server.requests[1].body["messages"] if m["role"] == "assistant"]
    first_block = {k: v for k, v in blocks_of(assistant[-1])[0].items() if k != "cache_control"}
    assert first_block == thinking
    assert answer.answer == GOOD


# Output caps by answer shape: one sourced sentence needs far less than a red-flag scan.
async def test_each_answer_shape_gets_its_own_output_cap(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server._handler = lambda request: text_reply(GOOD)
    service = agent(room, client)
    await service.ask(DEAL, QUESTION)
    asked = len(server.requests)
    await service.red_flags(DEAL)
    caps = [server.requests[0].body["max_tokens"], server.requests[asked].body["max_tokens"]]
    assert caps == [ANSWER.max_tokens(ANSWER_TOKENS["fact_lookup"]),
                    ANSWER.max_tokens(ANSWER_TOKENS["due_diligence"])]
    assert caps[0] < caps[1]


# https://platform.claude.com/docs/en/build-with-claude/prompt-caching
# Breakpoints cache the prefix (tools, system, messages); a later request that begins with a
# cached prefix reads it: usage reports cache_read_input_tokens apart from input_tokens.
async def test_the_second_turn_of_a_tool_loop_reads_the_prompt_cache(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(tool_reply("query_knowledge_base", {"query": "revenue Q3 2023"}),
                  text_reply(GOOD))
    answer = await agent(room, client).ask(DEAL, QUESTION)
    first, _ = server.requests
    assert first.body["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert blocks_of(first.body["messages"][-1])[-1]["cache_control"] == {"type": "ephemeral"}
    assert answer.usage.cache_write_tokens > 0
    assert answer.usage.cache_read_tokens > 0  # turn 2 read what turn 1 wrote
    # and turn 2 read at least the system prompt, tools and the retrieved context
    assert answer.usage.cache_read_tokens >= len(first.last_user_text) // 4


# https://platform.claude.com/docs/en/about-claude/models/overview (Claude Sonnet 5.5 is the
# current Sonnet); the installed SDK lists the ids it knows as `ModelParam` literals.
def test_the_default_model_is_the_current_sonnet_the_sdk_knows() -> None:
    literals = typing.get_args(typing.get_args(ModelParam)[0])
    assert DEFAULT_CLAUDE_MODEL in literals
    assert Settings().claude_model == DEFAULT_CLAUDE_MODEL
    assert "sonnet" in DEFAULT_CLAUDE_MODEL
    assert ClaudeChatModel.__init__.__kwdefaults__["model"] == DEFAULT_CLAUDE_MODEL


async def _ignore(_: str) -> None:
    return None


# https://platform.claude.com/docs/en/api/models/retrieve: 404 not_found_error for an unknown
# id; `lifecycle` is active, deprecated or retired.
@pytest.mark.parametrize(
    ("models", "expected"),
    [
        ({"claude-sonnet-5-5": model_info("claude-sonnet-5-5")}, None),
        ({}, "the model 'claude-sonnet-5-5' does not exist"),
        ({"claude-sonnet-5-5": model_info("claude-sonnet-5-5", lifecycle="deprecated",
                                          deprecated_at="2026-09-01T00:00:00Z")},
         "the model 'claude-sonnet-5-5' is deprecated since 2026-09-01"),
    ],
)
async def test_doctor_retrieves_the_configured_model_by_id(
        tmp_path: Path, models: dict[str, Any], expected: str | None) -> None:
    async with FakeAnthropicServer(api_key="test-key", models=models) as fake:
        settings = Settings(MANDA_HOME=tmp_path, ANTHROPIC_API_KEY="test-key",
                            ANTHROPIC_BASE_URL=fake.base_url,
                            MANDA_CLAUDE_MODEL="claude-sonnet-5-5", MANDA_MODEL_MAX_RETRIES=0)
        checks = {c.port: c for c in await run_checks(settings)}
        assert [r.path for r in fake.requests][:1] == ["/v1/models/claude-sonnet-5-5"]
    model = checks["model"]
    if expected is None:
        assert model.ok, model.problem
    else:
        assert not model.ok and expected in model.problem
        assert "MANDA_CLAUDE_MODEL" in model.problem


def test_the_live_check_says_what_it_skips_without_keys(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    keys = ("ANTHROPIC_API_KEY", "SLACK_BOT_TOKEN", "MANDA_LIVE_CHANNEL", "MANDA_LIVE_USER")
    env = {k: v for k, v in os.environ.items() if k not in keys}
    env["MANDA_HOME"] = str(tmp_path)
    for command in (["bash", "scripts/live-check.sh"],
                    [sys.executable, "scripts/live_check.py"]):
        done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 2, done.stderr  # nothing could be checked
        assert ("ANTHROPIC_API_KEY is not set: the Claude checks (items 1-5) and the live eval "
                "(`manda eval --live --token-budget N`) are skipped") in done.stderr
        assert "eval  skip    manda eval --live — ANTHROPIC_API_KEY is not set" in done.stdout
        assert "SLACK_BOT_TOKEN, MANDA_LIVE_CHANNEL, MANDA_LIVE_USER not set" in done.stderr
        assert "skip" in done.stdout
