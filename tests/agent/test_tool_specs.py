"""Claude's tools describe themselves, take typed lists from the vocabulary, and send a passage
once a question (issue 30 item 7)."""

from __future__ import annotations

import re
from typing import Any

import anthropic
import pytest
from room import DEAL, Q3, Room
from test_tools import toolbox

from manda.agent.context import AgentContext
from manda.agent.tool_specs import TOOL_SPECS, role_names, subject_names
from manda.agent.tools import ToolBox
from manda.llm.claude import to_anthropic_tools
from manda.models import DocumentRole
from manda.testing.anthropic_rules import refusal
from manda.testing.anthropic_server import FakeAnthropicServer, text_reply
from manda.vocabulary import vocabulary

# a sentence ends at . ! or ? before a capital, a quote or the end ("e.g. Q3" does not)
_SENTENCE_END = re.compile(r"(?<!e\.g)(?<!i\.e)[.!?](?=\s+[A-Z\"(]|\s*$)")


def _parameters(schema: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every property of a schema, nested ones (an array's items' properties) included."""
    out = []
    for name, prop in (schema.get("properties") or {}).items():
        out.append((f"{path}{name}", prop))
        items = prop.get("items") or {}
        if items.get("type") == "object":
            out += _parameters(items, f"{path}{name}[].")
    return out


# https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools#best-practices-for-tool-definitions
# "Provide extremely detailed descriptions … Aim for at least 3-4 sentences per tool description."
@pytest.mark.parametrize("spec", TOOL_SPECS, ids=lambda s: s.name)
def test_each_tool_says_when_to_use_it_when_not_and_what_comes_back(spec: Any) -> None:
    sentences = len(_SENTENCE_END.findall(spec.description))
    assert 3 <= sentences <= 5, (spec.name, sentences)
    lowered = spec.description.lower()
    assert "use it" in lowered or "run it" in lowered, spec.name  # when to use it
    assert "returns" in lowered, spec.name  # what comes back
    assert any(w in lowered for w in ("not ", "never", "only", "instead")), spec.name


@pytest.mark.parametrize("spec", TOOL_SPECS, ids=lambda s: s.name)
def test_every_parameter_is_described(spec: Any) -> None:
    for name, prop in _parameters(spec.input_schema):
        assert len(prop.get("description", "")) >= 12, (spec.name, name)


def test_lists_are_typed_arrays_of_the_vocabulary_not_comma_separated_strings() -> None:
    query = next(s for s in TOOL_SPECS if s.name == "query_knowledge_base").input_schema
    roles, subject = query["properties"]["roles"], query["properties"]["subject"]
    assert roles["type"] == subject["type"] == "array"
    assert roles["items"]["enum"] == list(role_names())
    assert subject["items"]["enum"] == list(subject_names())
    # read from the vocabulary: roles.yaml's order, every line item and every topic's subjects
    words = vocabulary()
    assert roles["items"]["enum"][:len(words.role_specs)] == [r.value for r in words.role_specs]
    assert set(roles["items"]["enum"]) == {r.value for r in DocumentRole}
    assert {i.subject for i in words.line_items} <= set(subject["items"]["enum"])
    assert {s for t in words.topics for s in t.subjects} <= set(subject["items"]["enum"])
    for spec in TOOL_SPECS:
        for name, prop in _parameters(spec.input_schema):
            said = prop.get("description", "").lower()
            assert "separated by commas" not in said and "comma" not in said, (spec.name, name)


def test_the_tools_are_what_the_messages_api_accepts() -> None:
    assert refusal({"tools": to_anthropic_tools(TOOL_SPECS), "messages": []}) is None


# ---------------------------------------------------------------- the local Messages API refuses


def _tool(name: str = "search", **schema: Any) -> dict[str, Any]:
    return {"name": name, "description": "Search.",
            "input_schema": {"type": "object", **schema}}


# https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools#specifying-client-tools
# name "Must match the regex ^[a-zA-Z0-9_-]{1,128}$"; input_schema "A JSON Schema object";
# a schema that is no JSON Schema draft 2020-12 is refused with "JSON schema is invalid. It must
# match JSON Schema draft 2020-12" (the message quoted in
# https://github.com/acomagu/vscode-as-mcp-server/issues/6).
@pytest.mark.parametrize(("tools", "says"), [
    ([_tool("search docs")], "String should match pattern"),
    ([_tool("x" * 129)], "String should match pattern"),
    ([_tool(), _tool()], "Tool names must be unique"),
    ([{"name": "search", "input_schema": {"type": "string"}}], "Input should be 'object'"),
    ([{"name": "search"}], "input_schema: Field required"),
    ([_tool(properties={"roles": {"type": "string", "enum": "cap_table, contract"}})],
     "must match JSON Schema draft 2020-12"),
    ([_tool(properties={"roles": {"type": "list"}})], "must match JSON Schema draft 2020-12"),
    ([_tool(properties={"pair": {"type": "array", "items": [{"type": "string"}]}})],
     "must match JSON Schema draft 2020-12"),
], ids=["space in name", "name too long", "repeated name", "schema not an object",
        "no schema", "enum not an array", "unknown type", "tuple items (pre-2020-12)"])
async def test_the_local_messages_api_refuses_tools_the_real_one_refuses(
        server: FakeAnthropicServer, client: anthropic.AsyncAnthropic,
        tools: list[dict[str, Any]], says: str) -> None:
    with pytest.raises(anthropic.BadRequestError) as refused:
        await client.messages.create(model="claude-test", max_tokens=100, tools=tools,
                                     messages=[{"role": "user", "content": "Revenue?"}])
    assert says in str(refused.value)


async def test_a_typed_enum_array_is_accepted(server: FakeAnthropicServer,
                                              client: anthropic.AsyncAnthropic) -> None:
    server.script(text_reply("Revenue was €5.2M."))
    tools = [_tool(properties={"roles": {"type": "array", "description": "Favour these roles.",
                                         "items": {"type": "string",
                                                   "enum": ["cap_table", "contract"]}}})]
    reply = await client.messages.create(model="claude-test", max_tokens=100, tools=tools,
                                         messages=[{"role": "user", "content": "Revenue?"}])
    assert reply.content


# ---------------------------------------------------------------- a search's size and repeats


def _excerpts(text: str) -> int:
    return text.count("<excerpt ")


async def test_a_search_returns_at_most_k_passages_with_its_favoured_roles(room: Room) -> None:
    box, _ = await toolbox(room)
    found = await box.query_knowledge_base({"query": "revenue EBITDA", "k": 2,
                                            "roles": ["management_accounts", "presentation"]})
    assert _excerpts(found) == 2


async def test_a_repeated_search_names_what_it_gave_instead_of_sending_it_again(
        room: Room) -> None:
    box, evidence = await toolbox(room)
    first = await box.query_knowledge_base({"query": "Q3 2024 revenue", "k": 3})
    assert _excerpts(first) >= 1 and Q3 in first
    again = await box.query_knowledge_base({"query": "Q3 2024 revenue", "k": 3})
    assert _excerpts(again) == 0 and "Revenue of €5.2M" not in again
    named = re.search(r'<already_given ids="([^"]+)"', again)
    assert named is not None
    assert set(named.group(1).split(", ")) <= evidence.ids.given
    # the evidence holds each passage once, whatever the repeats
    assert len({h.chunk_id for h in evidence.hits}) == len(evidence.hits)


async def test_the_model_searching_again_reads_the_next_passages_of_that_search(
        room: Room) -> None:
    """Claude often searches again with words it searched with before: it gets the passages
    after those it was given, not only their ids; once the search runs dry, the ids."""
    _, evidence = await toolbox(room)
    ctx = AgentContext(graph=room.graph, search=room.search, memory=room.memory)
    box = ToolBox(ctx, DEAL, evidence, next_page=True)
    first = await box.query_knowledge_base({"query": "revenue EBITDA", "k": 2})
    again = await box.query_knowledge_base({"query": "revenue EBITDA", "k": 2})
    given, more = (set(re.findall(r'<excerpt id="(S\d+)"', t)) for t in (first, again))
    assert len(given) == 2 and more and not more & given
    for _ in range(30):  # the room's passages run out
        last = await box.query_knowledge_base({"query": "revenue EBITDA", "k": 2})
        if _excerpts(last) == 0:
            break
    assert _excerpts(last) == 0 and "<already_given" in last
    assert len({h.chunk_id for h in evidence.hits}) == len(evidence.hits)


async def test_an_overlapping_search_sends_only_what_is_new(room: Room) -> None:
    box, evidence = await toolbox(room)
    await box.query_knowledge_base({"query": "Q3 2024 revenue", "k": 2})
    given = set(evidence.ids.given)
    wider = await box.query_knowledge_base({"query": "Q3 2024 revenue EBITDA litigation",
                                            "k": 6})
    sent = set(re.findall(r'<excerpt id="(S\d+)"', wider))
    assert sent and not sent & given
    named = re.search(r'<already_given ids="([^"]+)"', wider)
    assert named is not None and set(named.group(1).split(", ")) <= given


async def test_searches_inside_other_tools_mark_nothing_as_given(room: Room) -> None:
    """topic_brief and red_flags search for themselves: what they read was never sent whole,
    so a later search sends it."""
    box, evidence = await toolbox(room)
    await box.red_flags({})
    assert evidence.ids.given == set()
    found = await box.query_knowledge_base({"query": "litigation claim", "k": 3})
    assert _excerpts(found) >= 1


async def test_lists_in_a_string_still_read_for_older_callers(room: Room) -> None:
    box, evidence = await toolbox(room)
    await box.gather({"query": "revenue", "subject": "revenue, ebitda", "roles": "cap_table"})
    as_list, listed_evidence = await toolbox(room)
    await as_list.gather({"query": "revenue", "subject": ["revenue", "ebitda"],
                          "roles": ["cap_table"]})
    assert evidence.findings and set(evidence.findings) == set(listed_evidence.findings)
