"""Buttons: Approve / Reject (once, by members), Add to Q&A (once, however often), 👍 / 👎."""

from __future__ import annotations

import asyncio

from slackworld import SlackWorld

from bot import ids
from bot.conversations import channel_key
from bot.fakeslack import Message
from bot.payloads import AddToQA, Decision, SuggestedQuestions
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
    assert block["type"] == "section"  # no Approve / Reject left, only the decision's Undo
    assert block["accessory"]["action_id"] == ids.UNDO_DECISION
    audit = await world.manda.graph.list_audit("targetco")
    assert any(
        e.action == "finding.approved" and e.subject_id == finding_id and e.by == world.alice.id
        for e in audit
    )


async def test_a_decision_is_undone_once_audited_and_the_finding_offered_again(
    world: SlackWorld
) -> None:
    message = await review_message(world)
    finding_id = first_finding(message)
    value = Decision(d="targetco", f=finding_id).encode()
    await world.fake.click(world.alice, message, ids.APPROVE_FINDING, value=value)
    await world.settle()
    decided = world.ws.find(world.deal.id, message.ts)
    assert decided is not None
    [undo_button] = [b["accessory"] for b in decided.blocks
                     if b.get("block_id") == ids.decision_block(finding_id)]
    assert undo_button["text"]["text"] == "Undo"

    await world.fake.click(world.bob, decided, ids.UNDO_DECISION, value=undo_button["value"])
    await world.settle()

    assert await world.manda.graph.get_decision("targetco", finding_id) is None
    finding = await world.manda.graph.get_finding("targetco", finding_id)
    assert finding is not None and finding.status is FindingStatus.PENDING
    [undone] = [e for e in await world.manda.graph.list_audit("targetco")
                if e.action == "finding.undone"]
    assert (undone.subject_id, undone.by) == (finding_id, world.bob.id)
    shown = world.ws.find(world.deal.id, message.ts)
    assert shown is not None
    note = next(b for b in shown.blocks if b.get("block_id") == ids.undone_block(finding_id))
    struck, said = (e["text"] for e in note["elements"])
    assert struck.startswith(f"~✅ Approved by <@{world.alice.id}> · ") and struck.endswith("~")
    assert said.startswith(f"↩️ Approval undone by <@{world.bob.id}> · ")
    pair = next(b for b in shown.blocks if b.get("block_id") == ids.decision_block(finding_id))
    assert [e["action_id"] for e in pair["elements"]] == [ids.APPROVE_FINDING, ids.REJECT_FINDING]
    # decided again, then undone elsewhere (another copy of the message): this Undo is stale
    await world.fake.click(world.alice, shown, ids.APPROVE_FINDING, value=value)
    await world.settle()
    again = await world.manda.graph.get_decision("targetco", finding_id)
    assert again is not None
    await world.manda.deals.undo("targetco", finding_id, at=again.at, by="carol")
    await world.fake.click(world.bob, shown, ids.UNDO_DECISION)
    await world.settle()
    assert any("already undone" in t for t in ephemeral_texts(world, world.bob.id))
    assert [e.by for e in await world.manda.graph.list_audit("targetco")
            if e.action == "finding.undone"] == [world.bob.id, "carol"]


async def test_a_second_decision_is_refused_kindly(world: SlackWorld) -> None:
    first, second = await review_message(world), await review_message(world)
    finding_id = first_finding(first)
    value = Decision(d="targetco", f=finding_id).encode()
    await world.fake.click(world.alice, first, ids.REJECT_FINDING, value=value)
    await world.settle()
    await world.fake.submit_view(world.alice, {ids.REASON_INPUT: {ids.REASON_INPUT: "misread"}})
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


def qa_offer(message: Message) -> dict:
    [offer] = [
        e
        for b in message.blocks
        if b["type"] == "actions"
        for e in b["elements"]
        if e["action_id"] == ids.QA_OPEN
    ]
    return offer


async def test_a_question_submitted_twice_is_added_once(world: SlackWorld) -> None:
    """Two people tick the same suggestion in their own modals: one item, the second told."""
    answer = await gaps_answer(world)
    offer = qa_offer(answer)
    first = SuggestedQuestions.decode(offer["value"]).questions[0].question
    clicks = await asyncio.gather(
        world.fake.click(world.alice, answer, ids.QA_OPEN, value=offer["value"]),
        world.fake.click(world.bob, answer, ids.QA_OPEN, value=offer["value"]),
    )
    assert [c.status for c in clicks] == [200, 200]
    await world.settle()
    for person in (world.alice, world.bob):
        await world.fake.submit_view(person, {ids.QA_PICK: {ids.QA_PICK: ["1"]}})
        await world.settle()

    items = await world.manda.qa.items("targetco")
    assert [(i.question, i.created_by, i.status) for i in items] == [
        (first, world.alice.id, "draft")
    ]
    told = [m.all_text() for m in world.replies(world.deal, answer.ts)]
    assert any(f"<@{world.alice.id}> added 1 question to the Q&A list" in t for t in told)
    assert any("Nothing new for the Q&A list" in t and "Already on the list: Q1" in t
               for t in told)


async def test_a_legacy_add_button_still_adds_once(world: SlackWorld) -> None:
    """An "Add: …" button an earlier version posted keeps working, and adds once."""
    answer = await gaps_answer(world)
    value = AddToQA(d="targetco", q="Send the FY2024 tax returns", c="Tax").encode()
    answer.blocks.append({"type": "actions", "block_id": ids.QA_ACTIONS + ".old", "elements": [
        {"type": "button", "action_id": ids.add_to_qa(0), "value": value,
         "text": {"type": "plain_text", "text": "📝 Add to Q&A"}}]})
    await asyncio.gather(*[
        world.fake.click(world.alice, answer, ids.add_to_qa(0), value=value) for _ in range(2)
    ])
    await world.settle()
    items = await world.manda.qa.items("targetco")
    assert [(i.question, i.category) for i in items] == [("Send the FY2024 tax returns", "Tax")]


async def test_a_button_never_acts_on_another_deal(world: SlackWorld) -> None:
    answer = await gaps_answer(world)
    offer = qa_offer(answer)
    await world.manda.graph.bind_channel(channel_key(world.ws.team_id, world.deal.id), "northwind")
    await world.fake.click(world.alice, answer, ids.QA_OPEN, value=offer["value"])
    await world.settle()
    assert (
        await world.manda.qa.items("targetco") == []
        and await world.manda.qa.items("northwind") == []
    )
    told = world.modal_notice(world.alice)  # the form's modal says why there is no form
    assert told is not None
    assert "belongs to deal *targetco*" in told and "linked to *northwind*" in told


async def test_feedback_is_recorded_with_who(world: SlackWorld) -> None:
    answer = await gaps_answer(world)
    await world.fake.click(world.bob, answer, ids.FEEDBACK_DOWN)
    await world.settle()
    await world.fake.submit_view(world.bob, {})  # the reason is optional
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


def review_count(message: Message) -> str | None:
    """The ingestion summary's Review button, as it reads."""
    block = next((b for b in message.blocks if b.get("block_id") == ids.INGEST_ACTIONS), None)
    return block["elements"][0]["text"]["text"] if block else None


async def test_the_summarys_review_count_follows_an_undo_and_a_decision(
    world: SlackWorld
) -> None:
    flash = b"# Board flash Q3 2024\n\nEBITDA for Q3 2024 was EUR 1.3 million.\n"
    upload = await world.fake.upload(world.alice, world.deal, [("Board_Flash.md", flash)])
    await world.settle()
    [ebitda] = [f for f in await world.manda.graph.list_findings("targetco", subject="ebitda")
                if f.value == 1_300_000]
    await world.manda.deals.decide("targetco", ebitda.id, ReviewDecisionKind.REJECT,
                                   by=world.alice.id, reason="a flash figure")
    restated = flash.replace(b"flash", b"flash (restated)")  # EBITDA unchanged: carried over
    upload = await world.fake.upload(world.alice, world.deal, [("Board_Flash_v2.md", restated)])
    await world.settle()
    [summary] = world.replies(world.deal, upload.ts)
    assert "1 decision carried over" in summary.all_text()
    before = review_count(summary)
    waiting = int(before.split()[1]) if before else 0

    await world.fake.click(world.bob, summary, ids.UNDO_DECISION)
    await world.settle()
    undone = world.ws.find(world.deal.id, summary.ts)
    assert undone is not None and "Rejection undone" in undone.all_text()
    assert review_count(undone) == f"Review {waiting + 1} finding{'s' if waiting else ''}"

    await world.fake.click(world.bob, undone, ids.APPROVE_FINDING)
    await world.settle()
    decided = world.ws.find(world.deal.id, summary.ts)
    assert decided is not None and "Approved by" in decided.all_text()
    assert review_count(decided) == before  # back where it was (none: no button)
