"""Claude's tools that change what a deal knows (`update_knowledge_base`, `create_irl`,
`trigger_analysis`, `update_knowledge_graph`), over the real `anthropic` SDK against the local
Messages API: each is a deal operation of the asking person, with the same guards as Slack."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import anthropic
import pytest

from manda.agent.service import AnswerService
from manda.agent.tools import TOOL_NAMES
from manda.app import Manda
from manda.deals import Teller
from manda.llm.claude import ClaudeChatModel
from manda.models import DocumentRole, FindingStatus
from manda.testing.anthropic_server import FakeAnthropicServer, text_reply, tool_reply

DEAL = "targetco"
ANA = Teller(user="U1ANA", name="Ana", at=datetime(2024, 11, 3, 9, 30, tzinfo=UTC))
KEY = "slack:T1:C1"


class Members:
    def __init__(self, members: set[str]) -> None:
        self._members = members

    def is_direct(self, channel_key: str) -> bool:
        return False

    async def is_member(self, channel_key: str, user: str) -> bool:
        return channel_key == KEY and user in self._members


@pytest.fixture
async def server() -> AsyncIterator[FakeAnthropicServer]:
    async with FakeAnthropicServer(api_key="test-key") as fake:
        yield fake


@pytest.fixture
async def claude(app: Manda, server: FakeAnthropicServer) -> AsyncIterator[AnswerService]:
    client = anthropic.AsyncAnthropic(api_key="test-key", base_url=server.base_url,
                                      max_retries=0, timeout=10.0)
    model = ClaudeChatModel(client=client, model="claude-test")
    await app.graph.bind_channel(KEY, DEAL)
    yield AnswerService(dataclasses.replace(app.answers.context, model=model))
    await client.close()


def results(server: FakeAnthropicServer) -> list[str]:
    out: list[str] = []
    for message in server.requests[-1].body["messages"]:
        if isinstance(message["content"], list):
            out += [str(b["content"]) for b in message["content"]
                    if b.get("type") == "tool_result"]
    return out


async def _as(app: Manda, said: str, *, member: bool = True) -> Any:
    return await app.deals.actions_for(
        DEAL, ANA, said=said, workspace="slack:T1",
        membership=Members({"U1ANA"} if member else set()), channel_key=KEY,
        owner="C1", conversation="slack:T1:C1:1730626200.000100")


async def test_claude_keeps_a_fact_the_person_tells_as_a_pending_cited_finding(
    app: Manda, claude: AnswerService, server: FakeAnthropicServer
) -> None:
    said = "Management told us Q4 2024 revenue will land at €5.5M, please keep that in mind."
    reply = ("Noted: Q4 2024 revenue of €5.5M, a forecast management gave (source: told by Ana "
             "on 3 Nov 2024, not in a document). It waits for review before answers rely on it.")
    server.script(
        tool_reply("update_knowledge_base",
                   {"fact": "Management told us Q4 2024 revenue will land at €5.5M"}),
        text_reply(reply),
    )
    answer = await claude.ask(DEAL, said, actions=await _as(app, said))
    assert answer.answer == reply and answer.grounded and answer.model == "claude:claude-test"
    assert sorted(t["name"] for t in server.requests[0].tools) == sorted(TOOL_NAMES)
    [kept] = results(server)
    assert "Kept as told by Ana on 3 Nov 2024, not in a document" in kept
    notes = [d for d in await app.deals.documents(DEAL) if d.role is DocumentRole.THREAD_NOTE]
    [figure] = await app.graph.list_findings(DEAL, document_id=notes[0].id)
    assert figure.status is FindingStatus.PENDING and figure.value == 5_500_000.0
    assert [c.document for c in answer.citations] == ["told by Ana on 3 Nov 2024"]
    assert {a.finding_id for a in answer.suggested_actions
            if a.type == "approve_finding"} == {figure.id}  # Approve / Reject under it


async def test_what_a_document_says_is_never_kept_as_told(
    app: Manda, claude: AnswerService, server: FakeAnthropicServer
) -> None:
    said = "What was Q3 2024 revenue?"
    server.script(
        tool_reply("update_knowledge_base", {"fact": "Q3 2024 revenue was €50M"}),
        text_reply("I cannot keep that."),
    )
    await claude.ask(DEAL, said, actions=await _as(app, said))
    [refused] = results(server)
    assert "Not kept" in refused and "is not what Ana said" in refused
    assert not [d for d in await app.deals.documents(DEAL)
                if d.role is DocumentRole.THREAD_NOTE]


async def test_someone_outside_the_deal_is_refused_every_change(
    app: Manda, claude: AnswerService, server: FakeAnthropicServer
) -> None:
    said = "Globex AG is the same company as Globex Holding."
    server.script(
        tool_reply("update_knowledge_graph", {"names": ["Globex AG", "Globex Holding"]}),
        tool_reply("trigger_analysis", {}),
        text_reply("Those changes were refused."),
    )
    await claude.ask(DEAL, said, actions=await _as(app, said, member=False))
    refusals = results(server)
    assert len(refusals) == 2 and all(
        "Ana may not change what Manda knows about targetco" in r for r in refusals)
    assert await app.deals.entity_links(DEAL) == []


async def test_linking_re_checking_and_drafting_the_irl(
    app: Manda, claude: AnswerService, server: FakeAnthropicServer
) -> None:
    said = ("Globex AG is the same company as Globex Holding. Check the conflicts again and "
            "draft the IRL with a request for the Globex supply agreement.")
    server.script(
        tool_reply("update_knowledge_graph", {"names": ["Globex AG", "Globex Holding"]}),
        tool_reply("trigger_analysis", {}),
        tool_reply("create_irl", {"requests": [
            {"request": "Supply agreement with Globex Holding", "category": "Legal"}]}),
        text_reply("Done: the names are linked, the checks ran again and the IRL is drafted."),
    )
    await claude.ask(DEAL, said, actions=await _as(app, said))
    linked, checked, drafted = results(server)
    assert "Linked as one entity: Globex AG = Globex Holding" in linked
    assert "Checked corrections and conflicts again" in checked
    assert "Supply agreement with Globex Holding" in drafted and "IRL for targetco" in drafted
    assert await app.deals.entity_links(DEAL) == [["Globex AG", "Globex Holding"]]
    audit = {e.action for e in await app.deals.audit_log(DEAL)}
    assert {"entity.linked", "analysis.run", "irl.drafted"} <= audit
