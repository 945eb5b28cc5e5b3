"""Mentions, follow-ups, DMs, unbound channels, retries, bots and signatures, over real HTTP."""

from __future__ import annotations

import time

from slackworld import SlackWorld, running_world

from bot import ids
from bot.conversations import channel_key, conversation_id
from bot.fakeslack import FakeSlack, Message
from bot.fakeslack import payloads as slack_payloads
from bot.payloads import SuggestedQuestions
from bot.replies import PLACEHOLDER, WORKING_REACTION
from manda.app import Manda
from manda.config import Settings

QUESTION = "What was Q3 2024 revenue?"


def action_ids(message: Message) -> set[str]:
    return {e["action_id"] for b in message.blocks if b["type"] == "actions" for e in b["elements"]}


def sources(message: Message) -> str:
    return " ".join(
        e["text"]
        for b in message.blocks
        if str(b.get("block_id", "")).startswith(ids.SOURCES)
        for e in b["elements"]
    )


async def test_a_mention_gets_a_threaded_cited_answer_with_buttons(world: SlackWorld) -> None:
    question = await world.fake.mention(world.alice, world.deal, QUESTION)
    await world.settle()

    [answer] = world.replies(world.deal, question.ts)
    assert answer.thread_ts == question.ts
    assert "€5.2M" in answer.all_text()
    assert "[1] TargetCo_Q3_2024_Report.pdf · p.2" in sources(answer)  # the income statement
    # it rests on a finding still waiting for review: Approve / Reject under it, then feedback
    wanted = {ids.APPROVE_FINDING, ids.REJECT_FINDING, ids.FEEDBACK_UP, ids.FEEDBACK_DOWN}
    assert wanted <= action_ids(answer)
    # the mention also arrived as a `message` event; only the app_mention was answered
    kinds = sorted(d.payload["event"]["type"] for d in world.fake.deliveries)
    assert kinds == ["app_mention", "message"] and all(
        d.status == 200 for d in world.fake.deliveries
    )
    # "working" shown with the assistant status and taken down afterwards
    statuses = [s for c, t, s in world.ws.status_history if (c, t) == (world.deal.id, question.ts)]
    assert statuses[0] and statuses[-1] == ""
    # streamed as it stays, finished by chat.stopStream with its blocks: never rewritten
    assert world.ws.calls_to("chat.startStream", ok=True) and world.ws.calls_to(
        "chat.stopStream", ok=True
    )
    assert not answer.streaming and not answer.edited and not world.ws.calls_to("chat.update")
    conversation = await world.manda.memory.load(
        conversation_id(world.ws.team_id, world.deal.id, question.ts)
    )
    assert conversation is not None


async def test_a_reply_in_manda_s_thread_continues_the_conversation(world: SlackWorld) -> None:
    question = await world.fake.mention(world.alice, world.deal, QUESTION)
    await world.settle()
    await world.fake.say(world.bob, world.deal, "And EBITDA?", thread_ts=question.ts)
    await world.settle()

    _, second = world.replies(world.deal, question.ts)
    assert (
        "EBITDA" in second.all_text() and "Q3 2024" in second.all_text()
    )  # the period carried over
    conversation = await world.manda.memory.load(
        conversation_id(world.ws.team_id, world.deal.id, question.ts)
    )
    assert conversation is not None
    asked = [m.text for m in conversation.messages if m.role == "user"]
    assert asked[-2:] == [QUESTION, "And EBITDA?"]


async def test_a_question_with_no_answer_in_the_room_offers_the_qa_list(world: SlackWorld) -> None:
    asked = "What is the target's carbon footprint?"
    question = await world.fake.mention(world.alice, world.deal, asked)
    await world.settle()
    [answer] = world.replies(world.deal, question.ts)
    [button] = [
        e
        for b in answer.blocks
        if b["type"] == "actions"
        for e in b["elements"]
        if e["action_id"] == ids.QA_OPEN
    ]
    assert [q.question for q in SuggestedQuestions.decode(button["value"]).questions] == [asked]
    await world.fake.click(world.bob, answer, ids.QA_OPEN, value=button["value"])
    await world.settle()
    await world.fake.submit_view(world.bob, {})
    await world.settle()
    [item] = await world.manda.qa.items("targetco")
    assert (item.question, item.created_by) == (asked, world.bob.id)


async def test_other_threads_and_channel_chatter_are_left_alone(world: SlackWorld) -> None:
    root = await world.fake.say(world.alice, world.deal, "Lunch at noon?")
    await world.fake.say(world.bob, world.deal, "Sure, what was revenue again?", thread_ts=root.ts)
    await world.settle()
    assert world.ws.bot_messages(world.deal.id) == []
    assert all(d.status == 200 for d in world.fake.deliveries)


async def test_direct_messages_need_a_deal_then_are_answered(world: SlackWorld) -> None:
    first = await world.fake.dm(world.alice, QUESTION)
    await world.settle()
    im = world.ws.open_im(world.alice.id)
    [hint] = world.replies(im, first.ts)
    assert "not linked to a deal" in hint.all_text() and "/manda deal" in hint.all_text()

    await world.fake.slash(world.alice, im, "/manda", "deal targetco")
    await world.settle()
    second = await world.fake.dm(world.alice, QUESTION)
    await world.settle()
    [answer] = world.replies(im, second.ts)
    assert "[1] " in sources(answer)
    # in a DM the stream needs no recipient
    started = world.ws.calls_to("chat.startStream", ok=True)[-1]
    assert started.args["channel"] == im.id and "recipient_user_id" not in started.args


async def test_an_unbound_channel_says_how_to_bind_it_but_names_no_deal(
    world: SlackWorld,
) -> None:
    question = await world.fake.mention(world.alice, world.lobby, QUESTION)
    await world.settle()
    [reply] = world.replies(world.lobby, question.ts)
    text = reply.all_text()
    assert "/manda deal" in text and "targetco" not in text and "northwind" not in text
    assert not world.ws.calls_to("chat.startStream")


async def test_the_same_event_delivered_three_times_is_answered_once(world: SlackWorld) -> None:
    question = await world.fake.mention(world.alice, world.deal, QUESTION)
    mention = next(d for d in world.fake.deliveries if d.payload["event"]["type"] == "app_mention")
    for attempt in (1, 2):
        retry = await world.fake.redeliver(mention, retry_num=attempt)
        assert retry.status == 200 and retry.retry_num == attempt
    await world.settle()
    assert len(world.replies(world.deal, question.ts)) == 1


async def test_retries_are_deduplicated_in_redis_when_configured(
    home_copy, redis_url: str, fake: FakeSlack
) -> None:  # type: ignore[no-untyped-def]
    async with Manda(Settings(MANDA_HOME=home_copy, REDIS_URL=redis_url)) as manda:
        assert manda.memory.name == "redis"
        async with running_world(manda, fake) as world:
            question = await fake.mention(world.alice, world.deal, QUESTION)
            mention = next(
                d for d in fake.deliveries if d.payload["event"]["type"] == "app_mention"
            )
            await fake.redeliver(mention, retry_num=1)
            await fake.redeliver(mention, retry_num=2)
            await world.settle()
            [answer] = world.replies(world.deal, question.ts)
            assert "€5.2M" in answer.all_text()
            event_id = mention.payload["event_id"]
            assert await manda.memory.seen_event(f"slack:{event_id}")  # recorded in Redis


async def test_messages_from_bots_are_never_answered(world: SlackWorld) -> None:
    question = await world.fake.mention(world.alice, world.deal, QUESTION)
    await world.settle()
    other = world.ws.add_user("statusbot", is_bot=True)
    world.ws.join(world.deal.id, other.id)
    await world.fake.say(other, world.deal, "Build passed", thread_ts=question.ts)
    await world.fake.mention(other, world.deal, "what was revenue?")
    [own] = world.replies(world.deal, question.ts)
    await world.fake.send_event(
        slack_payloads.message_event(world.ws, own, world.deal)
    )  # Slack's echo
    await world.settle()
    assert len(world.ws.bot_messages(world.deal.id)) == 1


async def test_forged_and_stale_requests_are_refused(world: SlackWorld) -> None:
    message = world.ws.add_message(
        Message(
            channel=world.deal.id,
            ts=world.ws.new_ts(),
            text=f"{world.fake.bot_mention} {QUESTION}",
            user=world.alice.id,
        )
    )
    event = slack_payloads.app_mention_event(world.ws, message)
    forged = await world.fake.send_event(event, signing_secret="someone-else's-secret")
    stale = await world.fake.send_event(event, timestamp=int(time.time()) - 10 * 60)
    assert (forged.status, stale.status) == (401, 401)
    await world.settle()
    assert world.ws.bot_messages() == [] and not world.ws.calls_to("assistant.threads.setStatus")


async def test_without_status_or_streams_a_reaction_shows_the_work(world: SlackWorld) -> None:
    world.fake.features.assistant_status = False
    world.fake.features.streaming = False
    question = await world.fake.mention(world.alice, world.deal, QUESTION)
    await world.settle()
    [answer] = world.replies(world.deal, question.ts)
    assert "[1] " in sources(answer) and answer.versions == []
    added = world.ws.calls_to("reactions.add", ok=True)
    assert [c.args["name"] for c in added] == [WORKING_REACTION]
    assert world.ws.calls_to("reactions.remove", ok=True)
    assert world.ws.find(world.deal.id, question.ts).reactions == {}  # type: ignore[union-attr]


async def test_with_no_working_sign_available_a_placeholder_is_replaced(world: SlackWorld) -> None:
    world.fake.features.assistant_status = False
    world.fake.features.streaming = False
    world.fake.features.reactions = False
    question = await world.fake.mention(world.alice, world.deal, QUESTION)
    await world.settle()
    [answer] = world.replies(world.deal, question.ts)
    assert answer.versions[0]["text"] == PLACEHOLDER
    assert "[1] " in sources(answer)


async def test_a_failure_becomes_a_clear_message_in_the_thread(world: SlackWorld) -> None:
    await world.manda.graph.bind_channel(channel_key(world.ws.team_id, world.lobby.id), "ghost")
    question = await world.fake.mention(world.alice, world.lobby, QUESTION)
    await world.settle()
    [reply] = world.replies(world.lobby, question.ts)
    text = reply.all_text()
    assert "could not answer that" in text and "ghost" in text
    assert world.ws.statuses == {}
