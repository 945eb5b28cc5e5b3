"""Slack's documented Web API limits, pinned against the local fake Slack over real HTTP.

- Methods are rate-limited per tier, per method per workspace per app (Tier 3: 50+ a minute;
  chat.postMessage about one a second per channel): https://docs.slack.dev/apis/web-api/rate-limits
- `chat.update` is Tier 3: https://docs.slack.dev/reference/methods/chat.update
- A 429 carries `Retry-After`, the seconds to wait before calling that method again (same page).

Only a live workspace shows the real limits of a given app and workspace, and whether
`chat.update` may rewrite a message started by `chat.startStream` after `chat.stopStream`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.kit import SlackMessage
from bot.conversations import Thread
from bot.deps import PROGRESS_INTERVAL
from bot.fakeslack.faults import FaultySlack, rate_limited
from bot.progress import MIN_INTERVAL, ProgressMessage
from bot.slackapi import TIERS, GuardedWebClient, SlackRateLimiter
from manda.resilience.breaker import CircuitBreaker


@pytest.fixture
async def slack() -> AsyncIterator[FaultySlack]:
    async with FaultySlack() as server:
        yield server  # type: ignore[misc]


def guarded(slack: FaultySlack, limiter: SlackRateLimiter) -> GuardedWebClient:
    plain = AsyncWebClient(token=slack.bot_token, base_url=slack.api_url)
    return GuardedWebClient.like(plain, breaker=CircuitBreaker("Slack"), limiter=limiter)


async def thread_in(slack: FaultySlack) -> Thread:
    """A thread under a message in a deal channel (the upload a progress message replies to)."""
    alice = slack.workspace.add_user("alice")
    channel = slack.workspace.add_channel("deal-x", members=[alice.id])
    plain = AsyncWebClient(token=slack.bot_token, base_url=slack.api_url)
    root = await plain.chat_postMessage(channel=channel.id, text="Q3 pack")
    slack.workspace.calls.clear()
    return Thread(team="T1", channel=channel.id, thread_ts=root["ts"], message_ts=root["ts"],
                  user=alice.id)


def state(n: int) -> SlackMessage:
    return SlackMessage(text=f"⏳ Ingesting file {n} of 40", blocks=[])


# chat.update is Tier 3: a file-by-file progress message would spend the method's whole budget.
async def test_progress_edits_are_coalesced_to_one_a_second_and_the_last_state_is_written(
        slack: FaultySlack) -> None:
    assert MIN_INTERVAL == PROGRESS_INTERVAL == 1.0
    client = guarded(slack, SlackRateLimiter())
    progress = ProgressMessage(client, await thread_in(slack), min_interval=0.3)
    started = time.monotonic()
    for n in range(1, 41):
        await progress.show(state(n))
        await asyncio.sleep(0.01)  # the work: 40 files in ~0.4 s
    await progress.flush()
    elapsed = time.monotonic() - started
    updates = slack.workspace.calls_to("chat.update")
    assert len(slack.workspace.calls_to("chat.postMessage")) == 1
    assert 1 <= len(updates) <= elapsed / 0.3 + 1  # never more than one per interval
    message = slack.workspace.find(progress_channel(slack), progress.ts)
    assert message is not None and message.text == state(40).text  # the last state, always


# A 429's Retry-After is waited by the message's own writer, never by the work it reports on.
async def test_a_rate_limited_edit_never_holds_up_the_work(slack: FaultySlack) -> None:
    client = guarded(slack, SlackRateLimiter())
    progress = ProgressMessage(client, await thread_in(slack), min_interval=0.0)
    await progress.show(state(1))
    await progress.flush()
    slack.faults.script("chat.update", rate_limited(retry_after=1))
    slowest = 0.0
    for n in range(2, 12):
        began = time.monotonic()
        await progress.show(state(n))
        slowest = max(slowest, time.monotonic() - began)
        await asyncio.sleep(0.02)
    assert slowest < 0.1  # `show` returned at once while the edit waited out the 429
    await progress.flush()
    assert slack.faults.refused("chat.update")  # Slack did refuse one
    message = slack.workspace.find(progress_channel(slack), progress.ts)
    assert message is not None and message.text == state(11).text


# Retry-After holds the method back for every caller in the process, not only the one refused.
async def test_a_429_pauses_the_method_for_every_caller_sharing_the_limiter(
        slack: FaultySlack) -> None:
    limiter = SlackRateLimiter()
    first, second = guarded(slack, limiter), guarded(slack, limiter)
    thread = await thread_in(slack)
    posted = await first.chat_postMessage(channel=thread.channel, text="v1",
                                          thread_ts=thread.thread_ts)
    slack.faults.script("chat.update", rate_limited(retry_after=1))
    began = time.monotonic()
    refused = asyncio.create_task(first.chat_update(channel=thread.channel, ts=posted["ts"],
                                                    text="v2"))
    await asyncio.sleep(0.2)  # the first caller met the 429 and is waiting it out
    await second.chat_update(channel=thread.channel, ts=posted["ts"], text="v3")
    waited = time.monotonic() - began
    await refused
    assert waited >= 0.9  # the second caller was held back by the first one's Retry-After


# Tier 3 (50+ a minute): after a burst, calls are spaced to the tier's rate.
async def test_the_limiter_keeps_a_method_within_its_tier() -> None:
    now = [0.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    limiter = SlackRateLimiter(clock=lambda: now[0], sleep=sleep)
    tier = TIERS["chat.update"]
    for _ in range(tier.burst):
        assert await limiter.acquire("chat.update") == 0.0
    waited = await limiter.acquire("chat.update")
    assert waited == pytest.approx(60.0 / tier.per_minute)
    calls = 120
    for _ in range(calls):
        await limiter.acquire("chat.update")
    assert calls / (now[0] / 60.0) <= tier.per_minute + 1e-6
    # chat.postMessage is limited per channel: another channel is not held back
    for _ in range(3):
        await limiter.acquire("chat.postMessage", "C1")
    before = now[0]
    assert await limiter.acquire("chat.postMessage", "C2") == 0.0 and now[0] == before


def progress_channel(slack: FaultySlack) -> str:
    return slack.workspace.calls_to("chat.postMessage")[0].args["channel"]
