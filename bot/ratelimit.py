"""Slack's Web API rate limits, kept by one process or shared by every bot worker through Redis.

Slack counts calls "per API method per workspace per app", and chat.postMessage about one a
second per channel: https://docs.slack.dev/apis/web-api/rate-limits. So a budget is kept per
workspace (team) and method, and for chat.postMessage per channel too; one busy workspace never
spends another's. N workers behind a load balancer are one app to Slack, so with `REDIS_URL` set
they take their calls from one budget kept in Redis (a token bucket per budget, updated
atomically by a Lua script on the server's clock), and a 429's `Retry-After` met by one worker
holds that workspace's method back in all of them. Without Redis the budget is the process's own
(`LocalSlackLimiter`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from manda.config import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Tier:
    """A rate tier: calls a minute, and how many may go at once after a quiet spell."""

    per_minute: float
    burst: int


# Slack's tiers (https://docs.slack.dev/apis/web-api/rate-limits): Tier 2 20+/min, Tier 3 50+/min,
# Tier 4 100+/min, "per API method per workspace per app"; each method's page names its tier.
TIER_2, TIER_3, TIER_4 = Tier(20, 3), Tier(50, 8), Tier(100, 15)
# chat.postMessage is special: "1 message per second to a specific channel, with short bursts of
# more than 1 allowed" (https://api.slack.com/methods/chat.postMessage#rate_limiting); the burst's
# size is not documented, so a few messages go at once and then one a second, per channel.
POST_MESSAGE = Tier(60, 3)
# assistant.threads.setStatus: "Special rate limits apply" (its page, which names no figure);
# kept like chat.postMessage, about one a second per channel.
SET_STATUS = POST_MESSAGE
PER_CHANNEL = frozenset({"chat.postMessage", "assistant.threads.setStatus"})  # budget per channel
TIERS: MappingProxyType[str, Tier] = MappingProxyType({
    "chat.postMessage": POST_MESSAGE,
    # the answer's stream: appendStream is Tier 4 and stopStream Tier 2 on their pages
    # (https://docs.slack.dev/reference/methods/chat.appendStream, …/chat.stopStream);
    # startStream's page gives none we could read, so it keeps the stricter tier of its pair
    "chat.startStream": TIER_2,
    "chat.appendStream": TIER_4,
    "chat.stopStream": TIER_2,
    "assistant.threads.setStatus": SET_STATUS,
    "chat.update": TIER_3,
    "chat.delete": TIER_3,
    "conversations.info": TIER_3,
    "chat.postEphemeral": TIER_4,
    "conversations.members": TIER_4,
    "files.info": TIER_4,
    "users.info": TIER_4,
    "chat.getPermalink": TIER_4,
    "views.publish": TIER_4,
    "views.open": TIER_4,
    "views.update": TIER_4,
})


class SlackLimiter(Protocol):
    """The port the Web API client paces its calls through."""

    name: str  # "local" or "redis", for logs and `manda doctor`

    async def acquire(
        self, method: str, channel: str | None = None, *, team: str | None = None
    ) -> float:
        """Wait until a call of `method` (in `team`'s workspace, to `channel`) is within its
        tier; the seconds waited."""
        ...

    async def pause(self, method: str, seconds: float, *, team: str | None = None) -> None:
        """Slack answered 429 for `method` in `team`'s workspace: no call of it there before
        `seconds` from now."""
        ...

    async def aclose(self) -> None:
        """Let go of any connection the limiter holds."""
        ...


class _Bucket:
    """A token bucket: `burst` calls at once, refilled at `per_minute` a minute."""

    def __init__(self, tier: Tier, now: float) -> None:
        self.rate = tier.per_minute / 60.0
        self.capacity = float(tier.burst)
        self.tokens = self.capacity
        self.stamp = now

    def wait_for(self, now: float) -> float:
        """Take a token if there is one (0.0), else the seconds until there will be."""
        self.tokens = min(self.capacity, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = max(self.stamp, now)
        if self.tokens >= 1.0 - 1e-9:  # a refill that lands a rounding error short counts
            self.tokens = max(0.0, self.tokens - 1.0)
            return 0.0
        return (1.0 - self.tokens) / self.rate


def _bucket_key(method: str, channel: str | None, team: str | None) -> str:
    """A budget per workspace and method, and per channel for chat.postMessage (`PER_CHANNEL`).

    A call whose workspace is unknown (a client built outside a request) counts in a budget of
    its own, `-`.
    """
    key = f"{team or '-'}:{method}"
    return f"{key}:{channel}" if method in PER_CHANNEL and channel else key


def _pause_key(method: str, team: str | None) -> str:
    return f"{team or '-'}:{method}"


class LocalSlackLimiter:
    """Keeps one process's Web API calls within Slack's tiers, per workspace and method (and per
    channel for chat.postMessage), and holds a workspace's method back for as long as a 429's
    `Retry-After` asked.

    Shared by every client of the process (`Deps.slack_limits`), so concurrent answers, uploads
    and edits share the method's budget instead of each spending all of it. Right for one worker;
    several workers need `RedisSlackLimiter`.
    """

    name = "local"

    def __init__(self, tiers: MappingProxyType[str, Tier] | dict[str, Tier] = TIERS, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self._tiers = tiers
        self._clock = clock
        self._sleep = sleep
        self._buckets: dict[str, _Bucket] = {}
        self._paused_until: dict[str, float] = {}

    async def acquire(
        self, method: str, channel: str | None = None, *, team: str | None = None
    ) -> float:
        waited = 0.0
        while True:
            wait = self.try_acquire(method, channel, team=team)
            if wait <= 0:
                return waited
            await self._sleep(wait)
            waited += wait

    def try_acquire(
        self, method: str, channel: str | None = None, *, team: str | None = None
    ) -> float:
        """Take a call of `method` now (0.0), or the seconds to wait before asking again."""
        now = self._clock()
        pause = self._paused_until.get(_pause_key(method, team), 0.0) - now
        if pause > 0:
            return pause
        tier = self._tiers.get(method)
        if tier is None:
            return 0.0  # a method without a known tier: only its 429s hold it back
        key = _bucket_key(method, channel, team)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(tier, now)
        return bucket.wait_for(now)

    async def pause(self, method: str, seconds: float, *, team: str | None = None) -> None:
        self.pause_now(method, seconds, team=team)

    def pause_now(self, method: str, seconds: float, *, team: str | None = None) -> None:
        """`pause`, for callers outside the event loop (and the Redis limiter's fallback)."""
        until = self._clock() + max(0.0, seconds)
        key = _pause_key(method, team)
        self._paused_until[key] = max(self._paused_until.get(key, 0.0), until)
        log.warning("Slack rate-limited %s in %s: holding its calls for %.1f s", method,
                    team or "an unknown workspace", seconds,
                    extra={"slack_method": method, "retry_after": seconds, "limiter": self.name,
                           "team": team})

    async def aclose(self) -> None:
        return None


# KEYS[1] the bucket (a hash: tokens, stamp), KEYS[2] the method's pause (its end, in ms).
# ARGV: tokens per ms (0: no tier, only pauses hold the method back), capacity, now in ms ("" for
# the server's clock, which every worker shares). Returns 0 when the call may go, else the ms to
# wait. The bucket expires once it would be full again: an idle method leaves no key behind.
TAKE_SCRIPT = """
local now = tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local paused = tonumber(redis.call('GET', KEYS[2]))
if paused and paused > now then return math.ceil(paused - now) end
local rate = tonumber(ARGV[1])
if rate <= 0 then return 0 end
local capacity = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(state[1]) or capacity
local stamp = tonumber(state[2]) or now
if now > stamp then
  tokens = math.min(capacity, tokens + (now - stamp) * rate)
  stamp = now
end
local wait = 0
if tokens >= 1 - 1e-9 then
  tokens = math.max(0, tokens - 1)
else
  wait = math.max(1, math.ceil((1 - tokens) / rate))
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(stamp))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / rate) + 1000)
return wait
"""

# KEYS[1] the method's pause. ARGV: the pause in ms, now in ms ("" for the server's clock).
# A later end wins; the key expires when the pause ends.
PAUSE_SCRIPT = """
local now = tonumber(ARGV[2])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local ms = tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]))
if ms <= 0 or (current and current >= now + ms) then return 0 end
redis.call('SET', KEYS[1], tostring(now + ms), 'PX', ms)
return ms
"""


class RedisSlackLimiter:
    """Slack's tiers and 429 pauses kept in Redis, so every bot worker spends one budget.

    `clock` (seconds) is for tests only; by default the Redis server's clock decides, so workers
    on machines whose clocks disagree still agree on the budget. If Redis cannot be reached the
    limiter keeps the process's own budget (`LocalSlackLimiter`) until it can, and says so.
    """

    name = "redis"

    def __init__(self, url: str, *, tiers: MappingProxyType[str, Tier] | dict[str, Tier] = TIERS,
                 prefix: str = "manda:slack:", clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 socket_timeout: float = 2.0) -> None:
        self.url = url
        self._tiers = tiers
        self._prefix = prefix
        self._clock = clock
        self._sleep = sleep
        self._socket_timeout = socket_timeout
        self._client: aioredis.Redis | None = None
        self._fallback = LocalSlackLimiter(tiers, clock=clock or time.monotonic, sleep=sleep)
        self._degraded = False

    def bucket_key(self, method: str, channel: str | None = None, *,
                   team: str | None = None) -> str:
        return f"{self._prefix}rate:{_bucket_key(method, channel, team)}"

    def pause_key(self, method: str, *, team: str | None = None) -> str:
        return f"{self._prefix}pause:{_pause_key(method, team)}"

    def _redis(self) -> aioredis.Redis:
        if self._client is None:  # connects on first command, inside the loop
            self._client = aioredis.from_url(self.url, socket_timeout=self._socket_timeout,
                                             socket_connect_timeout=self._socket_timeout)
        return self._client

    def _now_ms(self) -> str:
        return "" if self._clock is None else str(int(self._clock() * 1000))

    async def try_acquire(
        self, method: str, channel: str | None = None, *, team: str | None = None
    ) -> float:
        """Take a call of `method` now (0.0), or the seconds to wait before asking again."""
        tier = self._tiers.get(method)
        rate = tier.per_minute / 60_000.0 if tier else 0.0
        capacity = tier.burst if tier else 0
        try:
            wait_ms = await self._redis().eval(
                TAKE_SCRIPT, 2, self.bucket_key(method, channel, team=team),
                self.pause_key(method, team=team), repr(rate), capacity, self._now_ms())
        except RedisError as exc:
            self._lost(exc)
            return self._fallback.try_acquire(method, channel, team=team)
        self._back()
        return int(wait_ms) / 1000.0

    async def acquire(
        self, method: str, channel: str | None = None, *, team: str | None = None
    ) -> float:
        waited = 0.0
        while True:
            wait = await self.try_acquire(method, channel, team=team)
            if wait <= 0:
                return waited
            await self._sleep(wait)
            waited += wait

    async def pause(self, method: str, seconds: float, *, team: str | None = None) -> None:
        ms = max(0, int(seconds * 1000))
        try:
            await self._redis().eval(PAUSE_SCRIPT, 1, self.pause_key(method, team=team), ms,
                                     self._now_ms())
        except RedisError as exc:
            self._lost(exc)
            self._fallback.pause_now(method, seconds, team=team)
            return
        self._back()
        log.warning("Slack rate-limited %s in %s: every worker holds its calls for %.1f s",
                    method, team or "an unknown workspace", seconds,
                    extra={"slack_method": method, "retry_after": seconds,
                           "limiter": self.name, "team": team})

    def _lost(self, exc: RedisError) -> None:
        if not self._degraded:
            self._degraded = True
            log.warning("Slack rate limits: Redis at REDIS_URL not reachable (%s); this worker "
                        "keeps its own budget until it is, so the workers together may exceed "
                        "Slack's limits", exc, extra={"limiter": self.name})

    def _back(self) -> None:
        if self._degraded:
            self._degraded = False
            log.info("Slack rate limits: Redis reachable again, the workers share one budget",
                     extra={"limiter": self.name})

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()


def choose_slack_limiter(settings: Settings) -> SlackLimiter:
    """Redis when REDIS_URL is set (the workers share Slack's budget), else the process's own."""
    if settings.redis_url:
        limiter: SlackLimiter = RedisSlackLimiter(settings.redis_url)
        reason = "REDIS_URL set: every worker shares one budget per workspace and method"
    else:
        limiter = LocalSlackLimiter()
        reason = "REDIS_URL not set: this process's own budget (one worker only)"
    log.info("Slack rate limiter: %s (%s)", limiter.name, reason,
             extra={"limiter": limiter.name})
    return limiter

