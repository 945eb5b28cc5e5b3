"""Writing into a thread: streamed in chunks, then replaced by the final render; fallbacks."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.kit import SlackMessage, context, section
from bot.conversations import Thread
from bot.fakeslack import FakeSlack
from bot.replies import STREAM_FLUSH, ThreadWriter, Working


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


FINAL = [
    SlackMessage(text="final", blocks=[section("*final* answer")]),
    SlackMessage(text="more", blocks=[context(["part two"])]),
]


async def test_text_streams_in_chunks_then_the_final_render_replaces_it(fake: FakeSlack) -> None:
    client, thread = await thread_in(fake)
    writer = ThreadWriter(client, thread)
    for _ in range(10):
        await writer.on_text("x" * (STREAM_FLUSH // 3))
    ws = fake.workspace
    [streamed] = [m for m in ws.bot_messages(thread.channel) if m.streaming]
    appended = ws.calls_to("chat.appendStream", ok=True)
    assert len(ws.calls_to("chat.startStream", ok=True)) == 1 and 1 <= len(appended) < 9
    await writer.finish(FINAL)
    first, second = (m for m in ws.bot_messages(thread.channel) if m.ts != thread.thread_ts)
    assert first.ts == streamed.ts and first.text == "final" and not first.streaming
    assert second.text == "more" and second.thread_ts == thread.thread_ts
    assert ws.calls_to("chat.stopStream", ok=True)


async def test_without_streams_the_answer_is_posted_whole(fake: FakeSlack) -> None:
    fake.features.streaming = False
    client, thread = await thread_in(fake)
    writer = ThreadWriter(client, thread)
    await writer.on_text("partial")
    await writer.on_text(" more")
    await writer.finish(FINAL[:1])
    [answer] = [m for m in fake.workspace.bot_messages(thread.channel) if m.ts != thread.thread_ts]
    assert answer.text == "final" and answer.versions == []
    assert len(fake.workspace.calls_to("chat.startStream")) == 1  # tried once, then never again


async def test_a_failure_replaces_a_half_written_stream(fake: FakeSlack) -> None:
    client, thread = await thread_in(fake)
    writer = ThreadWriter(client, thread)
    await writer.on_text("Revenue was")
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
