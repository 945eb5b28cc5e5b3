"""Actions that ask first, through signed requests to the real app and the fake Slack: "Add to
Q&A…" opens a modal and adds exactly the ticked questions as edited; Reject and 👎 ask a reason
that lands in the audit log; Approve / Reject sit only under findings the answer states."""

from __future__ import annotations

from slackworld import SlackWorld

from bot import ids
from bot.blocks.answer import render_qa_offer
from bot.fakeslack import Message
from bot.payloads import Decision, QAModal, SuggestedQuestions, Suggestion
from manda.models import FindingStatus, ReviewDecisionKind


async def ask(world: SlackWorld, question: str) -> Message:
    asked = await world.fake.mention(world.alice, world.deal, question)
    await world.settle()
    return world.replies(world.deal, asked.ts)[-1]


def buttons(message: Message) -> list[dict]:
    return [e for b in message.blocks if b["type"] == "actions" for e in b["elements"]]


def decision_values(message: Message) -> list[str]:
    return [e["value"] for e in buttons(message) if e["action_id"] == ids.REJECT_FINDING]


async def test_add_to_qa_adds_exactly_the_ticked_questions_as_edited(world: SlackWorld) -> None:
    answer = await ask(world, "Any red flags?")
    [offer] = [e for e in buttons(answer) if e["action_id"] == ids.QA_OPEN]
    assert offer["text"]["text"].startswith("📝 Add to Q&A…")
    await world.fake.click(world.alice, answer, ids.QA_OPEN)
    await world.settle()
    modal = world.ws.modals[world.alice.id]
    meta = QAModal.decode(modal["private_metadata"])
    count = len(meta.questions)
    assert count >= 5 and modal["callback_id"] == ids.QA_VIEW

    # nothing ticked: the modal stays open with the error under the checkboxes
    delivery = await world.fake.submit_view(world.alice, {ids.QA_PICK: {ids.QA_PICK: []}})
    assert delivery.json == {"response_action": "errors", "errors": {ids.QA_PICK: (
        "Tick the questions to add (or All).")}}
    assert world.alice.id in world.ws.modals
    assert await world.manda.deals.questions("targetco") == []

    edited = "Please reconcile the P&L <draft> with the audited accounts"
    await world.fake.submit_view(world.alice, {
        ids.QA_PICK: {ids.QA_PICK: ["1", "3", "5"]},
        ids.qa_field("text", 3): {ids.qa_field("text", 3): f"  {edited}  "},
        ids.qa_field("category", 3): {ids.qa_field("category", 3): "Legal"},
        ids.qa_field("priority", 3): {ids.qa_field("priority", 3): "high"},
    })
    await world.settle()
    assert world.alice.id not in world.ws.modals
    items = await world.manda.deals.questions("targetco")
    by_text = {i.question: i for i in items}
    assert len(items) == 3
    assert {meta.questions[0].question, edited, meta.questions[4].question} == set(by_text)
    assert by_text[edited].category == "Legal" and by_text[edited].priority.value == "high"
    assert all(i.created_by == world.alice.id for i in items)

    thread = world.replies(world.deal, answer.thread_ts or answer.ts)
    told = thread[-1].all_text()
    assert f"<@{world.alice.id}> added 3 questions to the Q&A list" in told
    assert "P&amp;L &lt;draft&gt;" in told and "&amp;amp;" not in told  # escaped once
    updated = world.ws.find(world.deal.id, answer.ts)
    assert updated is not None
    assert not [e for e in buttons(updated) if e["action_id"] == ids.QA_OPEN]
    assert "added 3 questions to the Q&A list (Q1, Q2, Q3)" in updated.all_text()


async def test_add_all_adds_every_suggestion(world: SlackWorld) -> None:
    answer = await ask(world, "Any red flags?")
    await world.fake.click(world.alice, answer, ids.QA_OPEN)
    await world.settle()
    meta = QAModal.decode(world.ws.modals[world.alice.id]["private_metadata"])
    await world.fake.submit_view(world.alice, {ids.QA_PICK: {ids.QA_PICK: [ids.QA_ALL]}})
    await world.settle()
    assert len(await world.manda.deals.questions("targetco")) == len(meta.questions)


async def test_more_than_nine_suggestions_are_all_offered_and_only_the_ticked_added(
    world: SlackWorld,
) -> None:
    """A checkbox group holds 10 options, so 25 questions come in three groups; a modal holds
    100 blocks, which the fake Slack checks on views.open.
    https://docs.slack.dev/reference/block-kit/block-elements/checkboxes-element"""
    questions = [Suggestion(q=f"Please provide item {i} of the information request list",
                            c="Financial") for i in range(1, 26)]
    offer = SuggestedQuestions.fitted(deal_id="targetco", questions=questions, source="IRL")
    posted = world.ws.add_message(Message(
        channel=world.deal.id, ts=world.ws.new_ts(), text="Gaps", blocks=render_qa_offer(offer),
        user=world.ws.bot.id, bot_id=world.ws.bot.bot_id))
    assert "(25 questions)" in str(posted.blocks)
    await world.fake.click(world.alice, posted, ids.QA_OPEN)
    await world.settle()
    modal = world.ws.modals[world.alice.id]
    groups = [b for b in modal["blocks"] if b.get("block_id", "").startswith(ids.QA_PICK)]
    assert [b["block_id"] for b in groups] == [ids.qa_pick(g) for g in (1, 2, 3)]
    assert [len(b["element"]["options"]) for b in groups] == [10, 10, 6]  # "All" and 25
    assert all(b["optional"] for b in groups)  # ticks in any one group are enough

    # nothing ticked anywhere: the app's own error, as no group alone is required
    refused = await world.fake.submit_view(world.alice, {})
    assert refused.json == {"response_action": "errors", "errors": {ids.QA_PICK: (
        "Tick the questions to add (or All).")}}

    await world.fake.submit_view(world.alice, {
        ids.qa_pick(1): {ids.qa_pick(1): ["2"]},
        ids.qa_pick(3): {ids.qa_pick(3): ["21", "25"]},
    })
    await world.settle()
    added = {i.question for i in await world.manda.deals.questions("targetco")}
    assert added == {questions[n - 1].question for n in (2, 21, 25)}


async def test_a_required_field_left_empty_is_refused_by_slack_not_sent(
    world: SlackWorld,
) -> None:
    answer = await ask(world, "What was Q3 2024 revenue?")
    [value] = decision_values(answer)
    await world.fake.click(world.alice, answer, ids.REJECT_FINDING, value=value)
    await world.settle()
    before = len(world.fake.deliveries)
    refused = await world.fake.submit_view(world.alice, {ids.REASON_INPUT: {ids.REASON_INPUT: ""}})
    assert refused.status == 0 and len(world.fake.deliveries) == before
    assert world.ws.modal_errors[world.alice.id] == {ids.REASON_INPUT: "This field is required."}


async def test_reject_asks_why_and_keeps_the_reason(world: SlackWorld) -> None:
    answer = await ask(world, "What was Q3 2024 revenue?")
    [value] = decision_values(answer)
    finding_id = Decision.decode(value).finding_id
    text = answer.all_text()
    assert "€5.0M" in text and "slide 2" in text and "Q3 2024" in text  # what, when, where
    assert "_Approve_ = you checked the figure against its source" in text

    await world.fake.click(world.alice, answer, ids.REJECT_FINDING, value=value)
    await world.settle()
    modal = world.ws.modals[world.alice.id]
    assert modal["callback_id"] == ids.REJECT_VIEW and "€5.0M" in str(modal["blocks"][0])
    refused = await world.fake.submit_view(world.alice, {ids.REASON_INPUT: {ids.REASON_INPUT: " "}})
    assert (refused.json or {}).get("response_action") == "errors"
    finding = await world.manda.graph.get_finding("targetco", finding_id)
    assert finding is not None and finding.status is FindingStatus.PENDING

    reason = "Preliminary figure; the Q3 report is final"
    await world.fake.submit_view(world.alice, {ids.REASON_INPUT: {ids.REASON_INPUT: reason}})
    await world.settle()
    decision = await world.manda.graph.get_decision("targetco", finding_id)
    assert decision is not None and decision.decision is ReviewDecisionKind.REJECT
    assert decision.reason == reason and decision.by == world.alice.id
    audit = await world.manda.graph.list_audit("targetco")
    assert any(e.subject_id == finding_id and e.detail == reason for e in audit)
    updated = world.ws.find(world.deal.id, answer.ts)
    assert updated is not None and f"Rejected by <@{world.alice.id}>" in updated.all_text()


async def test_someone_outside_the_deal_gets_no_reject_form(world: SlackWorld) -> None:
    # the modal opens at the click (its trigger lives 3 s), before anyone could check who clicked:
    # the check's answer replaces its loading view, with nothing to submit
    answer = await ask(world, "What was Q3 2024 revenue?")
    [value] = decision_values(answer)
    await world.fake.click(world.eve, answer, ids.REJECT_FINDING, value=value)
    await world.settle()
    modal = world.ws.modals[world.eve.id]
    assert "submit" not in modal and "callback_id" not in modal
    told = " ".join(b["text"]["text"] for b in modal["blocks"] if b.get("type") == "section")
    assert "can reject its findings, so nothing was recorded" in told


async def test_thumbs_down_asks_what_was_wrong(world: SlackWorld) -> None:
    answer = await ask(world, "What was EBITDA in Q3 2024?")
    await world.fake.click(world.bob, answer, ids.FEEDBACK_DOWN)
    await world.settle()
    assert world.ws.modals[world.bob.id]["callback_id"] == ids.FEEDBACK_VIEW
    await world.fake.submit_view(world.bob, {ids.REASON_INPUT: {
        ids.REASON_INPUT: "Wrong period & no Q2 comparison"}})
    await world.settle()
    audit = await world.manda.graph.list_audit("targetco")
    assert any(e.by == world.bob.id and e.detail == "not helpful: Wrong period & no Q2 comparison"
               for e in audit)
    updated = world.ws.find(world.deal.id, answer.ts)
    assert updated is not None
    assert "your feedback was recorded: “Wrong period &amp; no Q2 comparison”" in (
        updated.all_text())


async def test_decisions_only_for_findings_the_answer_states(world: SlackWorld) -> None:
    """The EBITDA answer cites a slide that also holds a pending revenue figure: not offered."""
    answer = await ask(world, "What was EBITDA in Q3 2024?")
    for value in decision_values(answer):
        finding = await world.manda.graph.get_finding("targetco", Decision.decode(value).finding_id)
        assert finding is not None and finding.subject != "revenue"


async def test_reject_from_the_home_tab_asks_why_then_refreshes_home(world: SlackWorld) -> None:
    await world.fake.open_home(world.alice)
    await world.settle()
    home = world.ws.home_views[world.alice.id]
    [value, *_] = [e["value"] for b in home["blocks"] if b["type"] == "actions"
                   for e in b["elements"] if e["action_id"] == ids.REJECT_FINDING]
    finding_id = Decision.decode(value).finding_id
    await world.fake.click_home(world.alice, ids.REJECT_FINDING, value=value)
    await world.settle()
    assert world.ws.modals[world.alice.id]["callback_id"] == ids.REJECT_VIEW
    await world.fake.submit_view(world.alice, {ids.REASON_INPUT: {ids.REASON_INPUT: "Duplicate"}})
    await world.settle()
    decision = await world.manda.graph.get_decision("targetco", finding_id)
    assert decision is not None and decision.reason == "Duplicate"
    assert finding_id not in str(world.ws.home_views[world.alice.id]["blocks"])


# https://docs.slack.dev/reference/methods/views.open: a trigger_id is exchanged once, within 3
# seconds of the click (`expired_trigger_id`, `exchanged_trigger_id`). The fake keeps Slack's
# clock; `latency` makes a method take that long of it without the test waiting.
def test_the_fake_refuses_a_trigger_older_than_three_seconds(world: SlackWorld) -> None:
    ws, api = world.ws, world.fake.api
    view = {"type": "modal", "title": {"type": "plain_text", "text": "T"},
            "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "x"}}]}
    token = world.fake.bot_token
    ws.issue_trigger("1.2.fresh", world.alice.id)
    assert api.call("views.open", {"trigger_id": "1.2.fresh", "view": view}, token)["ok"]
    again = api.call("views.open", {"trigger_id": "1.2.fresh", "view": view}, token)
    assert again["error"] == "exchanged_trigger_id"
    ws.issue_trigger("1.2.stale", world.alice.id)
    ws.latency["users.info"] = 3.2
    api.call("users.info", {"user": world.alice.id}, token)
    late = api.call("views.open", {"trigger_id": "1.2.stale", "view": view}, token)
    assert late["error"] == "expired_trigger_id"


async def test_modals_open_at_the_click_though_the_checks_behind_them_are_slow(
        world: SlackWorld) -> None:
    # Reject… checks who may decide (conversations.members) before its form exists; with that
    # check taking 3.5 s of Slack's time, a views.open made after it finds its trigger expired.
    answer = await ask(world, "What was Q3 2024 revenue?")
    [value] = decision_values(answer)
    world.ws.latency["conversations.members"] = 3.5
    await world.fake.click(world.alice, answer, ids.REJECT_FINDING, value=value)
    await world.settle()
    assert world.ws.calls_to("views.open", ok=False) == []
    assert world.ws.modals[world.alice.id]["callback_id"] == ids.REJECT_VIEW
    opened, = world.ws.calls_to("views.open", ok=True)
    members = world.ws.calls_to("conversations.members")
    assert members and opened.seq < members[0].seq  # opened before the slow check ran
    assert world.ws.calls_to("views.update", ok=True)
