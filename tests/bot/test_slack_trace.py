""""How I answered": each answer's overflow menu opens a modal with its trace, for the channel's
deal only, within Slack's limits; a trace no longer kept is explained."""

from __future__ import annotations

from slack_sdk.models.views import View
from slackworld import SlackWorld

from bot import ids
from bot.blocks.trace import render_trace_modal
from bot.conversations import channel_key
from bot.fakeslack import Message
from bot.fakeslack.blockkit import validate_blocks
from bot.payloads import AnswerRef
from manda.traces import AnswerTrace, TracePassage

QUESTION = "What was Q3 2024 revenue?"


async def answered(world: SlackWorld) -> Message:
    question = await world.fake.mention(world.alice, world.deal, QUESTION)
    await world.settle()
    [answer] = world.replies(world.deal, question.ts)
    return answer


def menu_of(message: Message) -> dict:
    [block] = [b for b in message.blocks if b.get("block_id") == ids.ANSWER_MENU_BLOCK]
    [menu] = block["elements"]
    return menu


async def test_how_i_answered_opens_the_trace(world: SlackWorld) -> None:
    answer = await answered(world)
    menu = menu_of(answer)
    assert menu["type"] == "overflow"
    [option] = menu["options"]
    assert option["text"]["text"] == "🔎 How I answered" and len(option["value"]) <= 150
    ref = AnswerRef.decode(option["value"])
    assert ref.deal_id == "targetco" and ref.conversation_id.endswith(answer.thread_ts or "")

    delivery = await world.fake.click(world.alice, answer, ids.ANSWER_MENU)
    assert delivery.status == 200
    await world.settle()
    modal = world.ws.modals[world.alice.id]
    assert modal["title"]["text"] == "How I answered" and modal["callback_id"] == ids.TRACE_VIEW
    shown = "\n".join(b["text"]["text"] for b in modal["blocks"] if b["type"] == "section")
    assert QUESTION in shown
    for part in ("*Intent*", "fact_lookup", "*Plan*", "*Tool calls*", "query_knowledge_base(",
                 "*Passages*", "✓ cited TargetCo_Q3_2024_Report.pdf, p.1", "via vector + bm25",
                 "*Validation*", "passed: validation gate 1", "*Grounding*",
                 "€5.2M → TargetCo_Q3_2024_Report.pdf, p.2", "*Steps, tokens and cost*",
                 "total:", "0 in / 0 out, $0.0000 — answered by offline"):
        assert part in shown, part
    assert world.ws.calls_to("views.open", ok=True)


async def test_the_menu_never_shows_another_deals_trace(world: SlackWorld) -> None:
    answer = await answered(world)
    await world.manda.graph.bind_channel(channel_key(world.ws.team_id, world.deal.id), "northwind")
    await world.fake.click(world.alice, answer, ids.ANSWER_MENU)
    await world.settle()
    told = world.modal_notice(world.alice)  # no trace: the opened modal says why
    assert told is not None and "belongs to deal *targetco*" in told
    assert "Question:" not in told


async def test_a_trace_no_longer_kept_is_explained(world: SlackWorld) -> None:
    answer = await answered(world)
    menu = menu_of(answer)
    ref = AnswerRef.decode(menu["options"][0]["value"])
    gone = AnswerRef(d=ref.deal_id, c=ref.conversation_id, a="0" * 12).encode()
    menu["options"][0]["value"] = gone
    await world.fake.click(world.alice, answer, ids.ANSWER_MENU, value=gone)
    await world.settle()
    told = world.modal_notice(world.alice)
    assert told is not None and "no longer kept" in told


def test_a_huge_trace_fits_a_modal_and_says_what_was_left_out() -> None:
    trace = AnswerTrace(
        answer_id="a1", conversation_id="slack:T:C:1", deal_id="d", question="q " * 2000,
        at="2024-11-01T10:00:00+00:00", intent="due_diligence",
        passages=[TracePassage(document=f"Document_{n}.pdf", location=f"p.{n}", score=0.5,
                               channels=["vector"], excerpt="x" * 150) for n in range(400)],
        plan=[f"offline plan: step {n} " + "y" * 300 for n in range(60)],
        truncated=["passages: first 30 of 400 kept"])
    view = render_trace_modal(trace)
    assert validate_blocks(view["blocks"], limit=100) == []
    View(**view).to_dict()  # slack_sdk's own reading of a modal's limits
    note = view["blocks"][-1]["elements"][0]["text"]
    assert "line(s) are not shown here" in note and "size cap" in note
    assert any("more not shown" in b["text"]["text"] for b in view["blocks"]
               if b["type"] == "section")
