"""The tool loop's history, as the Messages API checks it: every `tool_use` answered in the very
next message. The local Messages API refuses a history that breaks the pairing with the API's own
400 body (https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use), so a
re-prompt that loses a tool call, or sends an answer turn after a `tool_result`, fails here.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import anthropic
import pytest
from room import DEAL, Q3, Room

from manda.agent.service import AnswerService
from manda.llm.claude import ClaudeChatModel
from manda.testing.anthropic_server import (
    FakeAnthropicServer,
    RecordedRequest,
    text_reply,
    tool_reply,
)

GOOD = f"Revenue was €4.7M in Q3 2023 (source: {Q3}, p.1)."
BAD = f"Revenue was €9.9M in Q3 2023 (source: {Q3}, p.1)."
QUESTION = "What was revenue in Q3 2023?"


def agent(room: Room, client: anthropic.AsyncAnthropic) -> AnswerService:
    return room.service(ClaudeChatModel(client=client, model="claude-test"))


def roles_and_blocks(request: RecordedRequest) -> list[tuple[str, list[str]]]:
    out = []
    for message in request.body["messages"]:
        content = message["content"]
        kinds = ["text"] if isinstance(content, str) else [b["type"] for b in content]
        out.append((message["role"], kinds))
    return out


def results_of(request: RecordedRequest) -> list[dict[str, Any]]:
    return [b for m in request.body["messages"] if isinstance(m["content"], list)
            for b in m["content"] if b.get("type") == "tool_result"]


async def test_the_fake_refuses_a_tool_use_left_without_its_result(
        server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    broken = [
        {"role": "user", "content": "What was revenue?"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "query_knowledge_base",
             "input": {"query": "revenue"}}]},
        {"role": "user", "content": "Write the answer again."},
    ]
    with pytest.raises(anthropic.BadRequestError) as raised:
        await client.messages.create(model="claude-test", max_tokens=100, messages=broken)
    assert raised.value.body["error"]["type"] == "invalid_request_error"
    assert raised.value.body["error"]["message"] == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: "
        "toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the "
        "next message.")
    orphan = [{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_9", "content": "x"}]}]
    with pytest.raises(anthropic.BadRequestError, match="unexpected `tool_use_id`"):
        await client.messages.create(model="claude-test", max_tokens=100, messages=orphan)


async def _refused(client: anthropic.AsyncAnthropic, messages: list[dict[str, Any]]) -> str:
    with pytest.raises(anthropic.BadRequestError) as raised:
        await client.messages.create(model="claude-test", max_tokens=100, messages=messages)
    assert raised.value.body["error"]["type"] == "invalid_request_error"
    return str(raised.value.body["error"]["message"])


def _search(ident: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": ident, "name": "query_knowledge_base",
            "input": {"query": "revenue"}}


def _result(ident: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": ident, "content": "none"}


async def test_the_fake_refuses_a_tool_use_id_used_twice_or_badly_spelled(
        server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    """https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use: ids
    are the API's own, each used once; messages as the API words them (see anthropic_rules)."""
    twice = [{"role": "user", "content": "Revenue?"},
             {"role": "assistant", "content": [_search("toolu_1")]},
             {"role": "user", "content": [_result("toolu_1")]},
             {"role": "assistant", "content": [_search("toolu_1")]},
             {"role": "user", "content": [_result("toolu_1")]}]
    assert await _refused(client, twice) == "messages.3.content.0: `tool_use` ids must be unique"
    spelled = [{"role": "user", "content": "Revenue?"},
               {"role": "assistant", "content": [_search("toolu 1")]},
               {"role": "user", "content": [_result("toolu 1")]}]
    assert "tool_use.id: String should match pattern" in await _refused(client, spelled)


async def test_the_fake_refuses_a_system_turn_and_empty_text(
        server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    """https://platform.claude.com/docs/en/api/messages: roles are user and assistant, the
    system prompt is the top-level `system`; no message but a final assistant one is empty,
    and no text block is empty or blank."""
    system = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
    assert 'Unexpected role "system"' in await _refused(client, system)
    empty = [{"role": "user", "content": []}]
    assert await _refused(client, empty) == (
        "messages.0: all messages must have non-empty content except for the optional final "
        "assistant message")
    blank = [{"role": "user", "content": [{"type": "text", "text": "  \n"}]}]
    assert await _refused(client, blank) == (
        "messages: text content blocks must contain non-whitespace text")
    nothing = [{"role": "user", "content": [{"type": "text", "text": ""}]}]
    assert await _refused(client, nothing) == "messages: text content blocks must be non-empty"


async def test_a_reprompt_answered_with_text_and_a_search_runs_the_search(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(
        text_reply(BAD),
        tool_reply("query_knowledge_base", {"query": "revenue Q3 2023"},
                   text="Let me check that figure again.", call_id="toolu_again"),
        text_reply(GOOD),
    )
    answer = await agent(room, client).ask(DEAL, QUESTION)
    assert answer.answer == GOOD and answer.model == "claude:claude-test"
    assert "Let me check" not in answer.answer
    third = server.requests[2]
    (result,) = [r for r in results_of(third) if r["tool_use_id"] == "toolu_again"]
    # the search really ran: it found the Q3 passage again, and names it by the id it was given
    # with the question instead of sending it twice
    given = re.search(rf'<excerpt id="(S\d+)" file="{re.escape(Q3)}" loc="p\.1"',
                      server.requests[0].last_user_text)
    again = re.search(r'<already_given ids="([^"]+)"', result["content"])
    assert not result.get("is_error") and given and again
    assert given.group(1) in again.group(1).split(", ")
    assert [role for role, _ in roles_and_blocks(third)][-4:] == [
        "assistant", "user", "assistant", "user"]


async def test_two_reprompts_with_searches_keep_every_tool_use_paired(
        room: Room, server: FakeAnthropicServer, client: anthropic.AsyncAnthropic) -> None:
    server.script(
        tool_reply("query_knowledge_base", {"query": "revenue"}),
        text_reply(BAD),
        tool_reply("query_knowledge_base", {"query": "revenue Q3 2023"}, text="Checking."),
        text_reply(BAD),
        tool_reply("get_document_info", {"document": Q3}, text="Checking once more."),
        text_reply(GOOD),
    )
    answer = await agent(room, client).ask(DEAL, QUESTION)
    assert answer.answer == GOOD and answer.model == "claude:claude-test", answer.notices
    assert len(server.requests) == 6  # each accepted: the fake refuses a broken history
    last = roles_and_blocks(server.requests[-1])
    for (role, blocks), (after, next_blocks) in itertools.pairwise(last):
        if "tool_use" in blocks:
            assert role == "assistant" and after == "user" and next_blocks[0] == "tool_result"
