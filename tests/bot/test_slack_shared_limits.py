"""Slack's rate limits shared by several bot workers through Redis (the real redis-server).

Slack counts Web API calls "per API method per workspace/team per app", not per process, and a
429 carries `Retry-After`, the seconds before that method may be called again:
https://docs.slack.dev/apis/web-api/rate-limits. `chat.update` is Tier 3 (50+ a minute):
https://docs.slack.dev/reference/methods/chat.update. Two `RedisSlackLimiter`s stand for two
workers; a shared fake clock (passed to the Lua scripts instead of the server's) makes the
counts exact, so nothing here is timed.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fixtures.redis_server import RedisServer
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slackworld import SlackWorld

from bot.app import build_app
from bot.fakeslack.faults import FaultySlack, rate_limited
from bot.ratelimit import (
    TIERS,
    LocalSlackLimiter,
    RedisSlackLimiter,
    choose_slack_limiter,
)
from bot.slackapi import GuardedWebClient
from manda.app import Manda
from manda.config import Settings
from manda.resilience.breaker import CircuitBreaker

TIER = TIERS["chat.update"]
POST = TIERS["chat.postMessage"]


class Clock:
    """One clock both workers read, moved only by the test (or by a limiter's sleep)."""

    def __init__(self) -> None:
        self.now = 1_000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def workers(redis_url: str, clock: Clock) -> AsyncIterator[list[RedisSlackLimiter]]:
    pair = [RedisSlackLimiter(redis_url, clock=clock, sleep=clock.sleep) for _ in range(2)]
    yield pair
    for limiter in pair:
        await limiter.aclose()


async def test_two_workers_share_one_budget_per_method(
        workers: list[RedisSlackLimiter], clock: Clock) -> None:
    first, second = workers
    allowed = denied = 0
    for i in range(2 * TIER.burst):  # both workers call at once: one burst between them
        wait = await (first if i % 2 else second).try_acquire("chat.update")
        allowed, denied = (allowed + 1, denied) if wait == 0 else (allowed, denied + 1)
    assert allowed == TIER.burst and denied == TIER.burst
    # over ten minutes of calls alternating between them, together they keep to the tier
    start, calls = clock.now, 0
    while clock.now - start < 600:
        await (first if calls % 2 else second).acquire("chat.update")
        calls += 1
    assert calls <= TIER.per_minute * (clock.now - start) / 60.0 + 1
    assert calls >= TIER.per_minute * (clock.now - start) / 60.0 - 1  # and spend all of it
    # a local limiter per worker (today without Redis) would have let through twice as many
    locals_ = [LocalSlackLimiter(clock=clock, sleep=clock.sleep) for _ in range(2)]
    assert sum(lim.try_acquire("chat.update") == 0 for _ in range(TIER.burst)
               for lim in locals_) == 2 * TIER.burst


async def test_methods_and_channels_have_budgets_of_their_own(
        workers: list[RedisSlackLimiter], clock: Clock) -> None:
    first, second = workers
    for _ in range(TIER.burst):
        assert await first.try_acquire("chat.update", "C1", team="T1") == 0
    assert await second.try_acquire("chat.update", "C1", team="T1") > 0
    assert await second.try_acquire("chat.update", "C2", team="T1") > 0  # per workspace
    assert await second.try_acquire("chat.delete", "C1", team="T1") == 0  # another method
    # chat.postMessage: about one a second per channel, short bursts allowed
    # https://api.slack.com/methods/chat.postMessage#rate_limiting
    for _ in range(POST.burst):
        assert await first.try_acquire("chat.postMessage", "C1", team="T1") == 0
    assert await second.try_acquire("chat.postMessage", "C1", team="T1") == pytest.approx(1.0)
    assert await second.try_acquire("chat.postMessage", "C2", team="T1") == 0
    clock.now += 1.0  # a second later, one more in that channel
    assert await second.try_acquire("chat.postMessage", "C1", team="T1") == 0


@pytest.fixture(params=["redis", "local"])
async def limiter(request: pytest.FixtureRequest, redis_url: str,
                  clock: Clock) -> AsyncIterator[LocalSlackLimiter | RedisSlackLimiter]:
    if request.param == "local":
        yield LocalSlackLimiter(clock=clock, sleep=clock.sleep)
        return
    shared = RedisSlackLimiter(redis_url, clock=clock, sleep=clock.sleep)
    yield shared
    await shared.aclose()


async def taken(limiter: LocalSlackLimiter | RedisSlackLimiter, method: str,
                channel: str | None, team: str) -> float:
    wait = limiter.try_acquire(method, channel, team=team)
    return await wait if not isinstance(wait, float) else wait


async def test_each_workspace_has_budgets_of_its_own(
        limiter: LocalSlackLimiter | RedisSlackLimiter) -> None:
    """Slack's limits are "per API method per workspace per app": one busy workspace spends
    none of another's, and a 429 in one holds back only that one.
    https://api.slack.com/apis/rate-limits"""
    for _ in range(TIER.burst):
        assert await taken(limiter, "chat.update", "C1", "T1") == 0
    assert await taken(limiter, "chat.update", "C1", "T1") > 0
    assert await taken(limiter, "chat.update", "C1", "T2") == 0
    for _ in range(POST.burst):
        assert await taken(limiter, "chat.postMessage", "C1", "T1") == 0
    assert await taken(limiter, "chat.postMessage", "C1", "T1") > 0
    assert await taken(limiter, "chat.postMessage", "C1", "T2") == 0  # same id, other workspace
    await limiter.pause("users.info", 30, team="T1")
    assert await taken(limiter, "users.info", None, "T1") == pytest.approx(30.0)
    assert await taken(limiter, "users.info", None, "T2") == 0


async def test_retry_after_met_by_one_worker_pauses_the_other(
        workers: list[RedisSlackLimiter], clock: Clock) -> None:
    first, second = workers
    await first.pause("users.info", 30)
    assert await second.try_acquire("users.info") == pytest.approx(30.0)
    assert await second.try_acquire("chat.update") == 0  # only the refused method waits
    waited = await second.acquire("users.info")
    assert waited == pytest.approx(30.0) and clock.slept == [pytest.approx(30.0)]
    await first.pause("users.info", 5)
    await second.pause("users.info", 1)  # a shorter pause does not cut a longer one short
    assert await first.try_acquire("users.info") == pytest.approx(5.0)


async def test_keys_expire(workers: list[RedisSlackLimiter], redis_server: RedisServer) -> None:
    first, _ = workers
    await first.try_acquire("chat.update")
    await first.pause("chat.update", 7)
    with redis_server.client() as client:
        bucket_ttl = client.pttl(first.bucket_key("chat.update"))
        pause_ttl = client.pttl(first.pause_key("chat.update"))
    refill_ms = 60_000 / TIER.per_minute  # one token spent: full again after one refill
    assert 0 < bucket_ttl <= refill_ms + 1000
    assert 0 < pause_ttl <= 7000


async def test_the_server_clock_decides_without_a_test_clock(redis_url: str) -> None:
    limiter = RedisSlackLimiter(redis_url)
    try:
        results = [await limiter.try_acquire("chat.update") for _ in range(TIER.burst + 1)]
    finally:
        await limiter.aclose()
    assert results[: TIER.burst] == [0.0] * TIER.burst and results[-1] > 0


async def test_without_redis_the_worker_keeps_its_own_budget(
        redis_server: RedisServer, redis_url: str, clock: Clock,
        caplog: pytest.LogCaptureFixture) -> None:
    limiter = RedisSlackLimiter(redis_url, clock=clock, sleep=clock.sleep, socket_timeout=0.5)
    redis_server.stop()
    try:
        allowed = [await limiter.try_acquire("chat.update") == 0 for _ in range(TIER.burst + 1)]
        await limiter.pause("chat.update", 3)
        assert await limiter.try_acquire("chat.update") == pytest.approx(3.0)
    finally:
        redis_server.start()
        await limiter.aclose()
    assert allowed == [True] * TIER.burst + [False]
    assert "keeps its own budget" in caplog.text


async def test_a_429_from_slack_pauses_every_worker(redis_url: str) -> None:
    """The SDK's 429 handler stores Retry-After in Redis: the other worker sees the pause."""
    seen_by_other: list[float] = []

    class FirstWorker(RedisSlackLimiter):
        async def pause(self, method: str, seconds: float, *, team: str | None = None) -> None:
            await super().pause(method, seconds, team=team)
            seen_by_other.append(await other.try_acquire(method, team=team))
            seen_by_other.append(await other.try_acquire(method, team="T2"))

    first, other = FirstWorker(redis_url), RedisSlackLimiter(redis_url)
    async with FaultySlack() as slack:
        plain = AsyncWebClient(token=slack.bot_token, base_url=slack.api_url)
        client = GuardedWebClient.like(plain, breaker=CircuitBreaker("Slack"), limiter=first,
                                       team="T1")
        try:
            slack.faults.script("users.info", rate_limited(retry_after=1))
            with pytest.raises(SlackApiError, match="user_not_found"):  # the retry reached Slack
                await client.users_info(user="U1")  # refused once, retried by the SDK after 1 s
        finally:
            await first.aclose()
            await other.aclose()
    assert slack.faults.refused("users.info")
    [in_t1, in_t2] = seen_by_other
    assert 0 < in_t1 <= 1.0 and in_t2 == 0  # only the workspace Slack refused waits


async def test_redis_url_chooses_the_shared_limiter(tmp_path: Path, redis_url: str,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.ratelimit")
    shared = choose_slack_limiter(Settings(MANDA_HOME=tmp_path, REDIS_URL=redis_url))
    local = choose_slack_limiter(Settings(MANDA_HOME=tmp_path))
    assert isinstance(shared, RedisSlackLimiter) and isinstance(local, LocalSlackLimiter)
    assert "Slack rate limiter: redis" in caplog.text
    assert "Slack rate limiter: local" in caplog.text
    await shared.aclose()
    settings = Settings(MANDA_HOME=tmp_path, REDIS_URL=redis_url, SLACK_BOT_TOKEN="xoxb-1",
                        SLACK_SIGNING_SECRET="s")
    async with Manda(settings) as manda:
        bot = build_app(manda, settings)
        assert bot.deps.slack_limits.name == "redis"
        await bot.deps.aclose()


async def test_the_bot_spends_the_budget_of_the_workspace_it_works_in(world: SlackWorld) -> None:
    """Every Web API call a listener makes names its workspace (Bolt's `context.team_id`)."""
    asked: list[tuple[str, str | None, str | None]] = []

    class Recording(LocalSlackLimiter):
        async def acquire(self, method: str, channel: str | None = None, *,
                          team: str | None = None) -> float:
            asked.append((method, channel, team))
            return await super().acquire(method, channel, team=team)

    world.bot.deps.slack_limits = Recording()
    await world.fake.slash(world.alice, world.deal, "/manda", "review")
    await world.settle()
    assert ("chat.postMessage", world.deal.id, world.ws.team_id) in asked
    assert {team for _, _, team in asked} == {world.ws.team_id}
