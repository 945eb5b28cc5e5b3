"""The Slack Web API client the listeners get: SDK retries on transient errors, a "Slack" breaker.

Retries are the SDK's own retry handlers: 429 waits for `Retry-After`, 500/502/503/504 and
dropped connections are tried again with backoff and jitter. A timed-out call is not retried:
Slack may have applied it, and a second `chat.postMessage` would be a second answer. Each call,
retries included, runs inside the "Slack" circuit breaker, so after repeated failures the bot
stops calling Slack for a while instead of piling up requests. A call that still fails is
logged here, with the conversation in the log context, and raised as `SlackUnavailableError`:
still a `SlackApiError` for the code that falls back on one, and a `MandaError` whose message
says what happened, for the thread when Slack can be reached again.

Every call also waits for its method's share of Slack's rate tiers (a `SlackLimiter` from
`bot.ratelimit`: the process's own, or with REDIS_URL one budget shared by every worker):
https://docs.slack.dev/apis/web-api/rate-limits. A 429 pauses that method for every caller
sharing the limiter for the `Retry-After` Slack sent, not only for the call that met it.
"""

from __future__ import annotations

import logging
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

from bot.ratelimit import (
    POST_MESSAGE,
    TIER_2,
    TIER_3,
    TIER_4,
    TIERS,
    LocalSlackLimiter,
    SlackLimiter,
    Tier,
)
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
SlackRateLimiter = LocalSlackLimiter  # the name the bot and its tests knew it by
__all__ = [
    "POST_MESSAGE",
    "TIERS",
    "TIER_2",
    "TIER_3",
    "TIER_4",
    "GuardedWebClient",
    "LocalSlackLimiter",
    "SlackLimiter",
    "SlackRateLimiter",
    "SlackUnavailableError",
    "Tier",
    "retry_handlers",
]


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


class RateLimitRetryHandler(AsyncRateLimitErrorRetryHandler):
    """The SDK's 429 handler (it waits `Retry-After`, then retries), telling the limiter too, so
    every other caller of that method (in every worker, with Redis) waits as well."""

    def __init__(self, limiter: SlackLimiter | None, *, team: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.limiter = limiter
        self.team = team

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
            await self.limiter.pause(method, _retry_after(response), team=self.team)
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


def retry_handlers(
    limiter: SlackLimiter | None = None, team: str | None = None
) -> list[AsyncRetryHandler]:
    """A fresh set of the SDK's retry handlers (they keep no state between calls); a 429 holds
    the method back in `team`'s workspace."""
    backoff = BackoffRetryIntervalCalculator(backoff_factor=BACKOFF_SECONDS, jitter=RandomJitter())
    return [
        AsyncConnectionErrorRetryHandler(
            max_retry_count=CONNECTION_RETRIES, interval_calculator=backoff
        ),
        RateLimitRetryHandler(limiter, team=team, max_retry_count=RATE_LIMIT_RETRIES),
        ServerErrorRetryHandler(max_retry_count=SERVER_ERROR_RETRIES, interval_calculator=backoff),
    ]


class GuardedWebClient(AsyncWebClient):
    """An `AsyncWebClient` whose every call goes through the "Slack" breaker and is counted."""

    def __init__(
        self,
        *,
        breaker: CircuitBreaker,
        metrics: Metrics | None = None,
        limiter: SlackLimiter | None = None,
        team: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.breaker = breaker
        self.metrics = metrics
        self.limiter = limiter
        self.team = team  # the workspace whose rate budget its calls spend

    @classmethod
    def like(
        cls,
        client: AsyncWebClient,
        *,
        breaker: CircuitBreaker,
        metrics: Metrics | None = None,
        session: aiohttp.ClientSession | None = None,
        limiter: SlackLimiter | None = None,
        team: str | None = None,
    ) -> GuardedWebClient:
        """The same token, workspace and URL as `client` (Bolt's per-request client), guarded,
        on `session`'s connections when given, within `limiter`'s rate tiers for `team`'s
        workspace."""
        return cls(
            breaker=breaker,
            metrics=metrics,
            limiter=limiter,
            team=team,
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
            retry_handlers=retry_handlers(limiter, team),
        )

    async def api_call(  # type: ignore[override]
        self, api_method: str, **kwargs: Any
    ) -> AsyncSlackResponse:
        if self.limiter is not None:
            params = kwargs.get("json") or kwargs.get("data") or kwargs.get("params") or {}
            channel = (params.get("channel") or params.get("channel_id")
                       if isinstance(params, dict) else None)
            await self.limiter.acquire(api_method, channel, team=self.team)
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
