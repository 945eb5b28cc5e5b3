"""Writing into a thread: the first screen streamed as it stays, finished by chat.stopStream with
the blocks under it (never rewritten); posted whole only where streaming is unavailable."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from bot import ids
from bot.blocks.answer import render_answer
from bot.blocks.kit import SlackMessage, section
from bot.conversations import Thread
from bot.fakeslack import FakeSlack
from bot.replies import ThreadWriter, Working
from manda.answers import Answer, Citation, Intent


@pytest.fixture
async def fake() -> AsyncIterator[FakeSlack]:
    async with FakeSlack() as server:
        yield server  # type: ignore[misc]


async def thread_in(fake: FakeSlack) -> tuple[AsyncWebClient, Thread]:
    ws = fake.workspace
    alice = ws.add_user("alice")
    channel = ws.add_channel("deal-x", members=[alice.id])
    question = await fake.say(alice, channel, "question")  # no app connected: no events sent
    client = AsyncWebClient(token=fake.bot_token, base_url=fake.api_url)
    return client, Thread(
        team=ws.team_id,
        channel=channel.id,
        thread_ts=question.ts,
        user=alice.id,
        message_ts=question.ts,
    )


LINES = [f"- **Item {i}**: cost rose by €{i}.0M (source: Report.pdf, p.{i})" for i in range(40)]
TEXT = "**Costs rose in 40 lines**, most in Q3 (source: Report.pdf, p.0).\n\n" + "\n".join(LINES)
ANSWER = Answer(
    answer=TEXT,
    intent=Intent.DEEP_DIVE,
    conversation_id="slack:T1:C1:1.0",
    citations=[Citation(document="Report.pdf", location=f"p.{i}", excerpt="…") for i in range(40)],
)


async def test_the_first_screen_streams_and_stop_stream_adds_the_blocks(fake: FakeSlack) -> None:
    # chat.stopStream's `blocks` are "rendered at the bottom of the finalized message", after the
    # streamed markdown: https://docs.slack.dev/reference/methods/chat.stopStream
    client, thread = await thread_in(fake)
    writer = ThreadWriter(client, thread)
    for start in range(0, len(TEXT), 37):  # as a model writes it
        await writer.on_text(TEXT[start : start + 37])
    ws = fake.workspace
    [streamed] = [m for m in ws.bot_messages(thread.channel) if m.streaming]
    assert len(ws.calls_to("chat.startStream", ok=True)) == 1
    rendered = render_answer(ANSWER, deal_id="x", question="costs?")
    await writer.finish(rendered)
    [final] = [m for m in ws.bot_messages(thread.channel) if m.ts != thread.thread_ts]
    assert final.ts == streamed.ts and not final.streaming
    assert not final.edited  # a stream that ends is no edit: no "(edited)"
    assert not ws.calls_to("chat.update") and ws.calls_to("chat.stopStream", ok=True)
    body = final.blocks[0]
    assert body["type"] == "markdown" and body["text"] == rendered.layout.shown
    assert body["text"].startswith("**Costs rose in 40 lines**, most in Q3 [1].")
    assert "(source:" not in body["text"] and "Item 39" not in body["text"]
    block_ids = [b.get("block_id") for b in final.blocks[1:]]
    assert ids.SOURCES in block_ids and ids.ANSWER_MORE in block_ids
    assert final.blocks[1:] == rendered.tail


async def test_a_short_answer_written_at_once_still_ends_by_stop_stream(fake: FakeSlack) -> None:
    client, thread = await thread_in(fake)
    writer = ThreadWriter(client, thread)
    short = ANSWER.model_copy(update={"answer": "Revenue was €5.2M (source: Report.pdf, p.1)."})
    await writer.on_text(short.answer)  # one line, no newline: nothing is settled yet
    await writer.finish(render_answer(short, deal_id="x", question="revenue?"))
    ws = fake.workspace
    [final] = [m for m in ws.bot_messages(thread.channel) if m.ts != thread.thread_ts]
    assert final.blocks[0]["text"] == "Revenue was €5.2M [1]."
    assert ws.calls_to("chat.stopStream", ok=True) and not ws.calls_to("chat.update")
    assert "Show more" not in str(final.blocks)


async def test_without_streams_the_answer_is_posted_whole(fake: FakeSlack) -> None:
    fake.features.streaming = False
    client, thread = await thread_in(fake)
    writer = ThreadWriter(client, thread)
    await writer.on_text(TEXT[:300])
    await writer.on_text(TEXT[300:])
    rendered = render_answer(ANSWER, deal_id="x", question="costs?")
    await writer.finish(rendered)
    [answer] = [m for m in fake.workspace.bot_messages(thread.channel) if m.ts != thread.thread_ts]
    assert answer.blocks == rendered.blocks() and answer.versions == []
    assert len(fake.workspace.calls_to("chat.startStream")) == 1  # tried once, then never again


async def test_a_checked_answer_unlike_the_stream_replaces_it(fake: FakeSlack) -> None:
    client, thread = await thread_in(fake)
    writer = ThreadWriter(client, thread)
    await writer.on_text("A first draft the gate will reject (source: Report.pdf, p.9).\n\n")
    await writer.on_text("- more draft\n")
    await writer.finish(render_answer(ANSWER, deal_id="x", question="costs?"))
    [final] = [m for m in fake.workspace.bot_messages(thread.channel) if m.ts != thread.thread_ts]
    assert final.blocks[0]["text"].startswith("**Costs rose") and not final.streaming


async def test_a_failure_replaces_a_half_written_stream(fake: FakeSlack) -> None:
    client, thread = await thread_in(fake)
    writer = ThreadWriter(client, thread)
    await writer.on_text("Revenue was €5.2M.\n\nAnd then\n")
    await writer.fail(
        SlackMessage(
            text="⚠️ I could not answer that", blocks=[section("⚠️ I could not answer that")]
        )
    )
    [reply] = [m for m in fake.workspace.bot_messages(thread.channel) if m.ts != thread.thread_ts]
    assert reply.text.startswith("⚠️") and not reply.streaming


async def test_the_working_sign_falls_back_step_by_step(fake: FakeSlack) -> None:
    client, thread = await thread_in(fake)
    modes = []
    for status, reactions in ((True, True), (False, True), (False, False)):
        fake.features.assistant_status, fake.features.reactions = status, reactions
        working = Working(client, thread)
        await working.start()
        modes.append(working.mode)
        await working.stop()
    assert modes == ["status", "reaction", "placeholder"]
    ws = fake.workspace
    assert ws.statuses == {} and ws.find(thread.channel, thread.message_ts or "").reactions == {}  # type: ignore[union-attr]
