"""Buttons: Approve / Reject (once, by members), Add to Q&A (once, however often), 👍 / 👎."""

from __future__ import annotations

import asyncio

from slackworld import SlackWorld

from bot import ids
from bot.conversations import channel_key
from bot.fakeslack import Message
from bot.payloads import AddToQA, Decision
from manda.deals import AccessRules, ReviewFilter
from manda.models import FindingStatus, ReviewDecisionKind


async def review_message(world: SlackWorld) -> Message:
    await world.fake.slash(world.alice, world.deal, "/manda", "review")
    await world.settle()
    return [m for m in world.ws.bot_messages(world.deal.id) if not m.is_reply][-1]


def first_finding(message: Message) -> str:
    block = next(b for b in message.blocks if b["type"] == "actions")
    return Decision.decode(block["elements"][0]["value"]).finding_id


def ephemeral_texts(world: SlackWorld, user_id: str) -> list[str]:
    return [m.all_text() for m in world.ws.ephemerals(user_id)]


async def test_approve_is_recorded_and_shown_on_the_message(world: SlackWorld) -> None:
    message = await review_message(world)
    finding_id = first_finding(message)
    value = Decision(d="targetco", f=finding_id).encode()
    delivery = await world.fake.click(world.alice, message, ids.APPROVE_FINDING, value=value)
    assert delivery.status == 200
    await world.settle()

    decision = await world.manda.graph.get_decision("targetco", finding_id)
    assert (
        decision is not None
        and decision.decision is ReviewDecisionKind.APPROVE
        and decision.by == world.alice.id
    )
    finding = await world.manda.graph.get_finding("targetco", finding_id)
    assert finding is not None and finding.status is FindingStatus.APPROVED
    updated = world.ws.find(world.deal.id, message.ts)
    assert updated is not None and f"Approved by <@{world.alice.id}>" in updated.all_text()
    block = next(b for b in updated.blocks if b.get("block_id") == ids.decision_block(finding_id))
    assert block["type"] == "context"  # no buttons left for this finding
    audit = await world.manda.graph.list_audit("targetco")
    assert any(
        e.action == "finding.approved" and e.subject_id == finding_id and e.by == world.alice.id
        for e in audit
    )


async def test_a_second_decision_is_refused_kindly(world: SlackWorld) -> None:
    first, second = await review_message(world), await review_message(world)
    finding_id = first_finding(first)
    value = Decision(d="targetco", f=finding_id).encode()
    await world.fake.click(world.alice, first, ids.REJECT_FINDING, value=value)
    await world.settle()
    await world.fake.click(world.bob, second, ids.APPROVE_FINDING, value=value)
    await world.settle()

    decision = await world.manda.graph.get_decision("targetco", finding_id)
    assert (
        decision is not None
        and decision.decision is ReviewDecisionKind.REJECT
        and decision.by == world.alice.id
    )
    [told] = ephemeral_texts(world, world.bob.id)
    assert f"already rejected by <@{world.alice.id}>" in told and "Nothing changed" in told
    updated = world.ws.find(world.deal.id, second.ts)
    assert updated is not None and f"Already rejected by <@{world.alice.id}>" in updated.all_text()
    assert f"Rejected by <@{world.alice.id}>" in world.ws.find(world.deal.id, first.ts).all_text()  # type: ignore[union-attr]


async def test_people_outside_the_deal_channel_cannot_decide(world: SlackWorld) -> None:
    message = await review_message(world)
    finding_id = first_finding(message)
    value = Decision(d="targetco", f=finding_id).encode()
    await world.fake.click(
        world.eve, message, ids.APPROVE_FINDING, value=value
    )  # public channel, not a member
    await world.settle()
    assert await world.manda.graph.get_decision("targetco", finding_id) is None
    [told] = ephemeral_texts(world, world.eve.id)
    assert "Only members of the channel of deal *targetco*" in told
    assert world.ws.find(world.deal.id, message.ts).versions == []  # type: ignore[union-attr]


async def test_a_configured_approver_group_decides_instead_of_members(world: SlackWorld) -> None:
    world.manda.deals.rules = AccessRules(approvers=frozenset({world.eve.id}))
    message = await review_message(world)
    first, second = [
        Decision.decode(b["elements"][0]["value"]).finding_id
        for b in message.blocks
        if b.get("block_id", "").startswith("manda.decide.")
    ][:2]
    await world.fake.click(
        world.alice, message, ids.APPROVE_FINDING, value=Decision(d="targetco", f=first).encode()
    )
    await world.fake.click(
        world.eve, message, ids.APPROVE_FINDING, value=Decision(d="targetco", f=second).encode()
    )
    await world.settle()
    assert await world.manda.graph.get_decision("targetco", first) is None
    decided = await world.manda.graph.get_decision("targetco", second)
    assert decided is not None and decided.by == world.eve.id


async def gaps_answer(world: SlackWorld) -> Message:
    await world.fake.slash(world.alice, world.deal, "/manda", "gaps")
    await world.settle()
    return [m for m in world.ws.bot_messages(world.deal.id) if not m.is_reply][-1]


def qa_buttons(message: Message) -> list[dict]:
    return [
        e
        for b in message.blocks
        if b["type"] == "actions"
        for e in b["elements"]
        if ids.ADD_TO_QA_ANY.match(e["action_id"])
    ]


async def test_add_to_qa_clicked_twice_adds_once(world: SlackWorld) -> None:
    answer = await gaps_answer(world)
    [button, *_] = qa_buttons(answer)
    payload = AddToQA.decode(button["value"])
    clicks = await asyncio.gather(
        world.fake.click(world.alice, answer, button["action_id"], value=button["value"]),
        world.fake.click(world.alice, answer, button["action_id"], value=button["value"]),
    )
    assert [c.status for c in clicks] == [200, 200]
    await world.settle()

    items = await world.manda.qa.items("targetco")
    assert [(i.question, i.created_by, i.status) for i in items] == [
        (payload.question, world.alice.id, "draft")
    ]
    confirmations = [
        m for m in world.replies(world.deal, answer.ts) if "added to the Q&A list" in m.all_text()
    ]
    assert len(confirmations) == 1
    updated = world.ws.find(world.deal.id, answer.ts)
    assert (
        updated is not None
        and f"Added to the Q&A list by <@{world.alice.id}>" in updated.all_text()
    )
    assert button["value"] not in [b["value"] for b in qa_buttons(updated)]
    assert any("nothing was added twice" in t for t in ephemeral_texts(world, world.alice.id))


async def test_a_button_never_acts_on_another_deal(world: SlackWorld) -> None:
    answer = await gaps_answer(world)
    [button, *_] = qa_buttons(answer)
    await world.manda.graph.bind_channel(channel_key(world.ws.team_id, world.deal.id), "northwind")
    await world.fake.click(world.alice, answer, button["action_id"], value=button["value"])
    await world.settle()
    assert (
        await world.manda.qa.items("targetco") == []
        and await world.manda.qa.items("northwind") == []
    )
    [told] = ephemeral_texts(world, world.alice.id)
    assert "belongs to deal *targetco*" in told and "linked to *northwind*" in told


async def test_feedback_is_recorded_with_who(world: SlackWorld) -> None:
    answer = await gaps_answer(world)
    await world.fake.click(world.bob, answer, ids.FEEDBACK_DOWN)
    await world.settle()
    audit = await world.manda.graph.list_audit("targetco")
    [entry] = [e for e in audit if e.action == "answer.feedback"]
    assert entry.by == world.bob.id and entry.detail == "not helpful"
    assert entry.subject_id == f"slack:{world.ws.team_id}:{world.deal.id}:{answer.ts}"
    updated = world.ws.find(world.deal.id, answer.ts)
    assert updated is not None and "your feedback was recorded" in updated.all_text()


async def test_a_stale_button_is_explained(world: SlackWorld) -> None:
    message = await review_message(world)
    block = next(b for b in message.blocks if b["type"] == "actions")
    block["elements"][0]["value"] = "click_me_123"  # a value from an older version
    await world.fake.click(world.alice, message, ids.APPROVE_FINDING, value="click_me_123")
    await world.settle()
    [told] = ephemeral_texts(world, world.alice.id)
    assert "older version of Manda" in told


async def test_the_review_queue_pages_in_place_and_filters(world: SlackWorld) -> None:
    message = await review_message(world)
    page = await world.manda.deals.review_page("targetco")
    assert page.total > 10 and f"{page.total} findings of targetco" in message.all_text()
    [paging] = [b for b in message.blocks if b.get("block_id") == ids.REVIEW_PAGING]
    await world.fake.click(
        world.alice, message, ids.REVIEW_PAGE, value=paging["elements"][0]["value"]
    )
    await world.settle()
    assert "11–" in message.all_text() and "← Previous" in str(message.blocks)
    assert len([m for m in world.ws.bot_messages(world.deal.id) if not m.is_reply]) == 1

    priorities = {u.priority for u in page.urgency.values()}
    assert len(priorities) > 1  # rubric and materiality spread the queue
    await world.fake.slash(world.alice, world.deal, "/manda", "review high doc:Q3")
    await world.settle()
    filtered = [m for m in world.ws.bot_messages(world.deal.id) if not m.is_reply][-1]
    assert "high priority, document “Q3”" in filtered.all_text()
    shown = await world.manda.deals.review_page(
        "targetco", where=ReviewFilter(priority="high", document="Q3")
    )
    assert all("Q3" in shown.document_names[f.document_id] for f in shown.findings)
