"""Retries for external calls, on tenacity: transient errors only, backoff with jitter, Retry-After.

`retrying()` is the policy (a tenacity `AsyncRetrying`); `call_with_resilience()` runs one call
under it with a timeout per attempt and, optionally, a circuit breaker. When the service says
how long to wait (`Retry-After`), that is the wait; when it asks for longer than `maximum`, the
call gives up at once rather than keep a person waiting. Validation and authentication errors,
and refusals of an open breaker, are raised at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    stop_never,
    wait_exponential_jitter,
)
from tenacity.stop import stop_base
from tenacity.wait import wait_base

from manda.resilience.breaker import BreakerState, CircuitBreaker, CircuitOpenError
from manda.resilience.errors import classify, is_transient, retry_after_seconds

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]

log = logging.getLogger(__name__)


def worth_retrying(exc: BaseException) -> bool:
    """Transient, and not a breaker's refusal (which would only be refused again)."""
    return is_transient(exc) and not isinstance(exc, CircuitOpenError)


class wait_retry_after(wait_base):  # tenacity's lower-case naming
    """The wait the service asked for in `Retry-After`, else `fallback`'s."""

    def __init__(self, fallback: wait_base) -> None:
        self.fallback = fallback

    def __call__(self, retry_state: RetryCallState) -> float:
        asked = _asked_wait(retry_state)
        return asked if asked is not None else self.fallback(retry_state)


class stop_if_retry_after_exceeds(stop_base):
    """Give up when the service asks us to wait longer than `limit` seconds."""

    def __init__(self, limit: float) -> None:
        self.limit = limit

    def __call__(self, retry_state: RetryCallState) -> bool:
        asked = _asked_wait(retry_state)
        return asked is not None and asked > self.limit


class stop_if_breaker_not_closed(stop_base):
    """Give up once the breaker opened: every further attempt would be refused."""

    def __init__(self, breaker: CircuitBreaker) -> None:
        self.breaker = breaker

    def __call__(self, retry_state: RetryCallState) -> bool:
        return self.breaker.state is not BreakerState.CLOSED


def retrying(
    *,
    attempts: int = 3,
    initial: float = 0.5,
    maximum: float = 20.0,
    breaker: CircuitBreaker | None = None,
    sleep: Sleep | None = None,
    service: str | None = None,
) -> AsyncRetrying:
    """The retry policy: `attempts` tries in all, waits of `initial`·2ⁿ plus up to `initial` of
    jitter, capped at `maximum`, or exactly the `Retry-After` the service sent.

    `breaker` only stops the retries once it opens; run each attempt inside it
    (`call_with_resilience` does). `sleep` replaces `asyncio.sleep` (tests pass a fake).
    """
    if attempts < 1 or initial < 0 or maximum < 0:
        raise ValueError("attempts must be >= 1, initial and maximum >= 0")
    stop = stop_after_attempt(attempts) | stop_if_retry_after_exceeds(maximum)
    stop = stop | (stop_if_breaker_not_closed(breaker) if breaker is not None else stop_never)
    name = service or (breaker.name if breaker is not None else "an external service")
    return AsyncRetrying(
        stop=stop,
        wait=wait_retry_after(_backoff(initial, maximum)),
        retry=retry_if_exception(worth_retrying),
        reraise=True,
        sleep=sleep if sleep is not None else asyncio.sleep,
        before_sleep=_log_retry(name, attempts),
    )


async def call_with_resilience(
    fn: Callable[..., Awaitable[T]],
    /,
    *args: Any,
    breaker: CircuitBreaker | None = None,
    attempts: int = 3,
    timeout: float | None = None,
    initial: float = 0.5,
    maximum: float = 20.0,
    sleep: Sleep | None = None,
    on_error: Callable[[BaseException], object] | None = None,
    service: str | None = None,
    **kwargs: Any,
) -> T:
    """`await fn(*args, **kwargs)` with at most `timeout` seconds per attempt, transient errors
    retried under `retrying(...)`, and every outcome recorded in `breaker`.

    `on_error` sees each failed attempt (e.g. `Metrics.record_external_error`). What finally
    fails is raised unchanged: the last attempt's error, a `TimeoutError`, or `CircuitOpenError`.
    Keyword arguments named like this function's own (`timeout`...) are this function's: pass
    `fn` its own through `functools.partial`.
    """

    async def attempt() -> T:
        try:
            if breaker is None:
                return await _within(timeout, fn, *args, **kwargs)
            return await breaker.call(_within, timeout, fn, *args, **kwargs)
        except Exception as exc:
            if on_error is not None and not isinstance(exc, CircuitOpenError):
                on_error(exc)  # a refusal of the breaker is not a call that failed
            raise

    policy = retrying(
        attempts=attempts,
        initial=initial,
        maximum=maximum,
        breaker=breaker,
        sleep=sleep,
        service=service,
    )
    return await policy(attempt)


def _backoff(initial: float, maximum: float) -> wait_base:
    try:  # tenacity >= 9.1 calls the first wait `multiplier`, and warns about `initial`
        return wait_exponential_jitter(multiplier=initial, max=maximum, jitter=initial)
    except TypeError:
        return wait_exponential_jitter(initial=initial, max=maximum, jitter=initial)


async def _within(
    timeout: float | None, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any
) -> T:
    async with asyncio.timeout(timeout):
        return await fn(*args, **kwargs)


def _asked_wait(retry_state: RetryCallState) -> float | None:
    outcome = retry_state.outcome
    if outcome is None or not outcome.failed:
        return None
    exc = outcome.exception()
    return retry_after_seconds(exc) if exc is not None else None


def _log_retry(service: str, attempts: int) -> Callable[[RetryCallState], None]:
    def before_sleep(retry_state: RetryCallState) -> None:
        outcome = retry_state.outcome
        exc = outcome.exception() if outcome is not None else None
        if exc is None:
            return
        wait = retry_state.upcoming_sleep
        log.warning(
            "%s failed (%s: %s); attempt %d of %d, retrying in %.2f s",
            service,
            classify(exc),
            type(exc).__name__,
            retry_state.attempt_number,
            attempts,
            wait,
            extra={
                "service": service,
                "error_class": str(classify(exc)),
                "attempt": retry_state.attempt_number,
                "wait_seconds": round(wait, 3),
            },
        )

    return before_sleep
