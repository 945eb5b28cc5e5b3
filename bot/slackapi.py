"""The Slack Web API client the listeners get: SDK retries on transient errors, a "Slack" breaker.

Retries are the SDK's own retry handlers: 429 waits for `Retry-After`, 500/502/503/504 and
dropped connections are tried again with backoff and jitter. A timed-out call is not retried:
Slack may have applied it, and a second `chat.postMessage` would be a second answer. Each call,
retries included, runs inside the "Slack" circuit breaker, so after repeated failures the bot
stops calling Slack for a while instead of piling up requests. A call that still fails is
logged here, with the conversation in the log context, and raised as `SlackUnavailableError`:
still a `SlackApiError` for the code that falls back on one, and a `MandaError` whose message
says what happened, for the thread when Slack can be reached again.

Every call also waits for its method's share of Slack's rate tiers (`SlackRateLimiter`, one per
process): https://docs.slack.dev/apis/web-api/rate-limits. A 429 pauses that method for every
caller in the process for the `Retry-After` Slack sent, not only for the call that met it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.http_retry.builtin_interval_calculators import (
    BackoffRetryIntervalCalculator,
)
from slack_sdk.http_retry.jitter import RandomJitter
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from manda.errors import BackendUnavailableError
from manda.observability.metrics import Metrics
from manda.resilience.breaker import CircuitBreaker, CircuitOpenError
from manda.resilience.errors import ErrorClass, classify, is_transient

log = logging.getLogger(__name__)

SERVICE = "Slack"
TIMEOUT_SECONDS = 10  # per attempt; Slack answers in well under a second when it is healthy
RATE_LIMIT_RETRIES = 3
SERVER_ERROR_RETRIES = 2
CONNECTION_RETRIES = 2
BACKOFF_SECONDS = 0.25  # then x2 per attempt, plus up to 1 s of jitter
SERVER_ERRORS = frozenset({500, 502, 503, 504})


class SlackUnavailableError(SlackApiError, BackendUnavailableError):
    """A Web API call Slack kept refusing (rate limit, server error) after the retries."""

    def __init__(self, api_method: str, cause: SlackApiError, error_class: ErrorClass) -> None:
        super().__init__(str(cause), cause.response)
        self.api_method = api_method
        self.error_class = error_class
        if error_class is ErrorClass.RATE_LIMIT:
            what = "Slack is rate-limiting Manda"
        else:
            what = "Slack is having trouble"
        self.message = f"{what} ({api_method}: {_describe(cause)}, after retries)."
        self.hint = "Try again in a minute."


@dataclass(frozen=True)
class Tier:
    """A rate tier: calls a minute, and how many may go at once after a quiet spell."""

    per_minute: float
    burst: int


# Slack's tiers (https://docs.slack.dev/apis/web-api/rate-limits): Tier 2 20+/min, Tier 3 50+/min,
# Tier 4 100+/min, "per API method per workspace per app"; each method's page names its tier.
TIER_2, TIER_3, TIER_4 = Tier(20, 3), Tier(50, 8), Tier(100, 15)
# chat.postMessage is special: about one message a second per channel, short bursts allowed.
POST_MESSAGE = Tier(60, 3)
TIERS: MappingProxyType[str, Tier] = MappingProxyType({
    "chat.update": TIER_3,
    "chat.delete": TIER_3,
    "conversations.info": TIER_3,
    "chat.postEphemeral": TIER_4,
    "conversations.members": TIER_4,
    "files.info": TIER_4,
    "users.info": TIER_4,
    "views.publish": TIER_4,
    "views.open": TIER_4,
})
PER_CHANNEL = frozenset({"chat.postMessage"})


class _Bucket:
    """A token bucket: `burst` calls at once, refilled at `per_minute` a minute."""

    def __init__(self, tier: Tier, clock: Callable[[], float]) -> None:
        self.rate = tier.per_minute / 60.0
        self.capacity = float(tier.burst)
        self.tokens = self.capacity
        self.stamp = clock()

    def wait_for(self, now: float) -> float:
        """Take a token if there is one (0.0), else the seconds until there will be."""
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0 - 1e-9:  # a refill that lands a rounding error short counts
            self.tokens = max(0.0, self.tokens - 1.0)
            return 0.0
        return (1.0 - self.tokens) / self.rate


class SlackRateLimiter:
    """Keeps one process's Web API calls within Slack's tiers, per method (and per channel for
    chat.postMessage), and holds a method back for as long as a 429's `Retry-After` asked.

    Shared by every client of the process (`Deps.slack_limits`), so concurrent answers, uploads
    and edits share the method's budget instead of each spending all of it.
    """

    def __init__(self, tiers: MappingProxyType[str, Tier] | dict[str, Tier] = TIERS, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self._tiers = tiers
        self._clock = clock
        self._sleep = sleep
        self._buckets: dict[tuple[str, str], _Bucket] = {}
        self._paused_until: dict[str, float] = {}

    async def acquire(self, method: str, channel: str | None = None) -> float:
        """Wait until a call of `method` is within its tier; the seconds waited."""
        waited = 0.0
        while True:
            now = self._clock()
            pause = self._paused_until.get(method, 0.0) - now
            wait = pause if pause > 0 else self._take(method, channel, now)
            if wait <= 0:
                return waited
            await self._sleep(wait)
            waited += wait

    def pause(self, method: str, seconds: float) -> None:
        """Slack answered 429 for `method`: no call of it before `seconds` from now."""
        until = self._clock() + max(0.0, seconds)
        self._paused_until[method] = max(self._paused_until.get(method, 0.0), until)
        log.warning("Slack rate-limited %s: holding its calls for %.1f s", method, seconds,
                    extra={"slack_method": method, "retry_after": seconds})

    def _take(self, method: str, channel: str | None, now: float) -> float:
        tier = self._tiers.get(method)
        if tier is None:
            return 0.0  # a method without a known tier: only its 429s hold it back
        key = (method, channel or "" if method in PER_CHANNEL else "")
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(tier, self._clock)
        return bucket.wait_for(now)


class RateLimitRetryHandler(AsyncRateLimitErrorRetryHandler):
    """The SDK's 429 handler (it waits `Retry-After`, then retries), telling the process's
    limiter too, so every other caller of that method waits as well."""

    def __init__(self, limiter: SlackRateLimiter | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.limiter = limiter

    async def prepare_for_next_attempt_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> None:
        if self.limiter is not None and response is not None:
            method = request.url.rstrip("/").rsplit("/", 1)[-1]
            self.limiter.pause(method, _retry_after(response))
        await super().prepare_for_next_attempt_async(
            state=state, request=request, response=response, error=error
        )


def _retry_after(response: HttpResponse) -> float:
    """Slack's `Retry-After` seconds (the SDK keeps headers as lists); 1 s when it sent none."""
    for name, values in response.headers.items():
        if name.lower() != "retry-after":
            continue
        value = values[0] if isinstance(values, list) and values else values
        try:
            return float(value)
        except (TypeError, ValueError):
            break
    return 1.0


class ServerErrorRetryHandler(AsyncServerErrorRetryHandler):
    """The SDK's 5xx handler, also for the 502 and 504 a proxy in front of Slack answers."""

    async def _can_retry_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        return response is not None and response.status_code in SERVER_ERRORS


def retry_handlers(limiter: SlackRateLimiter | None = None) -> list[AsyncRetryHandler]:
    """A fresh set of the SDK's retry handlers (they keep no state between calls)."""
    backoff = BackoffRetryIntervalCalculator(backoff_factor=BACKOFF_SECONDS, jitter=RandomJitter())
    return [
        AsyncConnectionErrorRetryHandler(
            max_retry_count=CONNECTION_RETRIES, interval_calculator=backoff
        ),
        RateLimitRetryHandler(limiter, max_retry_count=RATE_LIMIT_RETRIES),
        ServerErrorRetryHandler(max_retry_count=SERVER_ERROR_RETRIES, interval_calculator=backoff),
    ]


class GuardedWebClient(AsyncWebClient):
    """An `AsyncWebClient` whose every call goes through the "Slack" breaker and is counted."""

    def __init__(
        self,
        *,
        breaker: CircuitBreaker,
        metrics: Metrics | None = None,
        limiter: SlackRateLimiter | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.breaker = breaker
        self.metrics = metrics
        self.limiter = limiter

    @classmethod
    def like(
        cls,
        client: AsyncWebClient,
        *,
        breaker: CircuitBreaker,
        metrics: Metrics | None = None,
        session: aiohttp.ClientSession | None = None,
        limiter: SlackRateLimiter | None = None,
    ) -> GuardedWebClient:
        """The same token, workspace and URL as `client` (Bolt's per-request client), guarded,
        on `session`'s connections when given, within `limiter`'s rate tiers."""
        return cls(
            breaker=breaker,
            metrics=metrics,
            limiter=limiter,
            token=client.token,
            base_url=client.base_url,
            timeout=TIMEOUT_SECONDS,
            ssl=client.ssl,
            proxy=client.proxy,
            session=session or client.session,
            trust_env_in_session=client.trust_env_in_session,
            headers=dict(client.headers),
            team_id=client.default_params.get("team_id"),
            logger=client.logger,
            retry_handlers=retry_handlers(limiter),
        )

    async def api_call(  # type: ignore[override]
        self, api_method: str, **kwargs: Any
    ) -> AsyncSlackResponse:
        if self.limiter is not None:
            params = kwargs.get("json") or kwargs.get("data") or kwargs.get("params") or {}
            channel = params.get("channel") if isinstance(params, dict) else None
            await self.limiter.acquire(api_method, channel)
        try:
            return await self.breaker.call(super().api_call, api_method, **kwargs)
        except CircuitOpenError as exc:
            log.error(
                "Slack %s not called: %s",
                api_method,
                exc.message,
                extra={"slack_method": api_method, "error_class": "circuit_open"},
            )
            raise
        except Exception as exc:
            if not is_transient(exc):  # a refusal (`channel_not_found`…) is the caller's
                raise
            error_class = self._failed(api_method, exc)
            if isinstance(exc, SlackApiError):
                raise SlackUnavailableError(api_method, exc, error_class) from exc
            raise

    def _failed(self, api_method: str, exc: Exception) -> ErrorClass:
        error_class = (
            self.metrics.record_external_error(SERVICE, exc)
            if self.metrics is not None
            else classify(exc)
        )
        log.error(
            "Slack %s failed after retries (%s): %s",
            api_method,
            error_class,
            _describe(exc),
            extra={"slack_method": api_method, "error_class": str(error_class)},
        )
        return error_class


def _describe(exc: BaseException) -> str:
    response = getattr(exc, "response", None)
    status = getattr(response, "status_code", None)
    data = getattr(response, "data", None)
    code = data.get("error") if isinstance(data, dict) else None
    if status is not None:
        return f"HTTP {status}" + (f" {code}" if code else "")
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
