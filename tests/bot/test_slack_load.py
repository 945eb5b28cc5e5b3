"""Load: 40 concurrent mentions over real HTTP → 40 threaded answers, none twice, none lost.

The bot acks each request at once and answers in a background job per mention; as in
production, a few answers are computed at a time (`Deps.answer_slots`, 4) and the rest wait their
turn: 40 mentions in 10 channels are ten times the slots, two people asking in each channel,
so most mentions queue and every channel has several threads answered at once. Slack's retries
of every mention arrive while the answers are being written, as they would if acks were slow.
The 200-mention burst, ack latency and throughput are `bench/slack_load.py`'s figures, never
asserted here.
"""

from __future__ import annotations

import asyncio

import pytest
from slackworld import SlackWorld

from bot.conversations import channel_key
from bot.deps import ANSWER_CONCURRENCY
from bot.fakeslack import Channel, Message
from bot.slackapi import SlackRateLimiter

MENTIONS = 10 * ANSWER_CONCURRENCY  # 40: most wait for a slot
CHANNELS = 10
QUESTION = "What was Q3 2024 revenue?"

pytestmark = pytest.mark.slow


async def deal_channels(world: SlackWorld, count: int) -> list[Channel]:
    ws = world.ws
    channels = []
    for n in range(count):
        channel = ws.add_channel(f"deal-targetco-{n}", members=[world.alice.id, world.bob.id])
        await world.manda.graph.bind_channel(channel_key(ws.team_id, channel.id), "targetco")
        channels.append(channel)
    return channels


async def test_concurrent_mentions_get_exactly_one_threaded_answer_each(world: SlackWorld) -> None:
    # this measures acks and de-duplication, not Slack's budgets (test_slack_contract pins them):
    # the fake Slack never rate-limits, so the bot's own per-method limiter is lifted here
    world.bot.deps.slack_limits = SlackRateLimiter(tiers={})
    channels = await deal_channels(world, CHANNELS)
    people = (world.alice, world.bob)

    questions: list[Message] = await asyncio.gather(
        *(
            world.fake.mention(people[n % 2], channels[n % CHANNELS], f"{QUESTION} (#{n})")
            for n in range(MENTIONS)
        )
    )
    acks = list(world.fake.deliveries)
    mentions = [d for d in acks if d.payload["event"]["type"] == "app_mention"]
    # Slack retries every mention once while the answers are being written
    retries = await asyncio.gather(*(world.fake.redeliver(d, retry_num=1) for d in mentions))
    await world.settle()

    assert len(mentions) == MENTIONS and len(acks) == 2 * MENTIONS  # app_mention + message each
    assert all(d.status == 200 for d in [*acks, *retries])
    answers_per_thread = [
        world.replies(world.fake.channel(q.channel), q.ts) for q in questions
    ]
    lost = [q.text for q, replies in zip(questions, answers_per_thread, strict=True) if not replies]
    doubled = [q.text for q, replies in zip(questions, answers_per_thread, strict=True)
               if len(replies) > 1]
    assert (lost, doubled) == ([], [])
    for question, [answer] in zip(questions, answers_per_thread, strict=True):
        assert answer.thread_ts == question.ts
        assert "€5.2M" in answer.all_text() and "could not" not in answer.all_text()
    # nothing else was posted anywhere: no stray messages outside the threads
    assert len(world.ws.bot_messages()) == MENTIONS
    registry = world.bot.deps.metrics.registry
    assert registry.get_sample_value("manda_duplicate_events_total") == MENTIONS
