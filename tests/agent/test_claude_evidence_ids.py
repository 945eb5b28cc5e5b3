"""Claude cites evidence by id: ids carry date and status, expand to the house citation, and an
unknown id is sent back by name. Driven through the real `anthropic` SDK against the local
Messages API; a user turn's `tool_result` blocks come before its text
(https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import anthropic
import pytest
from room import ANNUAL, DEAL, DECK, Q3, Room

from manda.agent.service import AnswerService
from manda.llm.claude import ClaudeChatModel
from manda.testing.anthropic_server import (
    FakeAnthropicServer,
    RecordedRequest,
    Reply,
    text_reply,
    tool_reply,
)


@pytest.fixture
async def agent(room: Room, server: FakeAnthropicServer) -> AsyncIterator[AnswerService]:
    client = anthropic.AsyncAnthropic(api_key="test-key", base_url=server.base_url,
                                      max_retries=0, timeout=10.0)
    yield room.service(ClaudeChatModel(client=client, model="claude-test"))
    await client.close()


def shown(request: RecordedRequest) -> str:
    """Everything the model was shown: its turns' text and tool results."""
    parts = []
    for message in request.body["messages"]:
        content = message["content"]
        if isinstance(content, str):
            parts.append(content)
            continue
        for block in content:
            parts.append(str(block.get("text") or block.get("content") or ""))
    return "\n".join(parts)


def id_of(request: RecordedRequest, file: str, loc: str) -> str:
    """The id the model was given for a passage (as a model reading its excerpts would)."""
    m = re.search(rf'<excerpt id="(S\d+)" file="{re.escape(file)}" loc="{re.escape(loc)}"',
                  shown(request))
    assert m, f"no excerpt id for {file} {loc}"
    return m.group(1)


async def test_excerpts_carry_ids_and_their_documents_date_status_and_supersession(
        agent: AnswerService, server: FakeAnthropicServer) -> None:
    """Each excerpt carries its id and place; its document's date, status and supersession
    are said once, in a <document> line of the same result."""
    server.script(text_reply("ok"))
    await agent.ask(DEAL, "What was FY2023 EBITDA in the annual report?")
    first = shown(server.requests[0])
    excerpt = re.search(rf'<excerpt id="S\d+" file="{re.escape(ANNUAL)}" loc="[^"]+"', first)
    assert excerpt, first[:2000]
    document = re.search(rf'<document file="{re.escape(ANNUAL)}"[^>]*/>', first)
    assert document, first[:2000]
    tag = document.group(0)
    assert 'dated="2024-03-20"' in tag and 'status="final"' in tag
    assert 'superseded_by="Acme_Annual_Report_2023_CORRECTED.pdf"' in tag
    assert "Cite every factual claim right after it by its id" in server.requests[0].system
    assert "Answer in the language of the question" in server.requests[0].system
    assert "TOOL BUDGET: 6 remaining." in first


async def test_an_id_cited_answer_reaches_the_person_in_the_house_format(
        agent: AnswerService, server: FakeAnthropicServer) -> None:
    def handler(request: RecordedRequest) -> Reply:
        if len(server.requests) == 1:
            return tool_reply("query_knowledge_base", {"query": "Q3 revenue", "subject": "revenue"})
        q3, deck = id_of(request, Q3, "p.1"), id_of(request, DECK, "slide 2")
        assert "TOOL BUDGET: 5 remaining." in shown(request)
        return text_reply(
            f"Le chiffre d'affaires du T3 2024 s'élève à 5,2 M€ [{q3}] ; la présentation "
            f"indique 5,0 M€ [{deck}] : les deux documents divergent.\n\n"
            f"La marge d'EBITDA est de 21,2 % : EBITDA de 1,1 M€ [{q3}] / chiffre d'affaires "
            "de 5,2 M€.")

    server._handler = handler
    deltas: list[str] = []

    async def on_text(delta: str) -> None:
        deltas.append(delta)

    answer = await agent.ask(DEAL, "Quel est le chiffre d'affaires du T3 2024 ?",
                             on_text=on_text)
    assert answer.model == "claude:claude-test" and answer.notices == []
    assert f"5,2 M€ (source: {Q3}, p.1)" in answer.answer
    assert f"5,0 M€ (source: {DECK}, slide 2)" in answer.answer
    assert "[S" not in answer.answer and "".join(deltas) == answer.answer
    margin = next(n for n in answer.numbers if n.text == "21,2 %")
    assert margin.computed and margin.inputs == ["1,1 M€", "5,2 M€"]


async def test_an_unknown_id_is_named_in_the_reprompt(agent: AnswerService,
                                                      server: FakeAnthropicServer) -> None:
    def handler(request: RecordedRequest) -> Reply:
        if len(server.requests) == 1:
            return text_reply("Acme has no pending litigation [S99].")
        q3 = id_of(server.requests[0], Q3, "p.1")
        return text_reply(f"Revenue was €4.7M in Q3 2023 [{q3}].")

    server._handler = handler
    answer = await agent.ask(DEAL, "What was revenue in Q3 2023?")
    retry = server.requests[1].last_user_text
    assert "[S99] is no evidence id you were given" in retry
    assert "“Acme has no pending litigation” has no source" in retry
    assert "References removed because they were never returned to you: [S99]." in retry
    assert re.search(r"- \[S\d+\] Acme_Q3_2024_Report\.pdf, p\.1", retry)
    assert "TOOL BUDGET: 6 remaining. You may call tools" in retry
    assert answer.answer == f"Revenue was €4.7M in Q3 2023 (source: {Q3}, p.1)."
