"""Waiting out an outage of the job queue's backend, for as long as the worker is not stopped.

A worker must outlive its Redis: a queue operation that fails with `BackendUnavailableError` is
tried again with exponential backoff and jitter (tenacity), until it succeeds or the worker is
asked to stop, in which case the last error is raised. The first failure of an outage is logged
as a warning, the recovery as info; the attempts in between only at debug level.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, wait_exponential_jitter
from tenacity.stop import stop_base

from manda.errors import BackendUnavailableError

T = TypeVar("T")

log = logging.getLogger(__name__)


class stop_when_set(stop_base):  # tenacity's lower-case naming
    """Give up once `event` is set (the worker was asked to stop)."""

    def __init__(self, event: asyncio.Event) -> None:
        self.event = event

    def __call__(self, retry_state: RetryCallState) -> bool:
        return self.event.is_set()


async def until_available(
    operation: Callable[[], Awaitable[T]],
    stop: asyncio.Event,
    *,
    doing: str,
    initial: float = 0.2,
    maximum: float = 5.0,
) -> T:
    """`await operation()`, waiting out `BackendUnavailableError` until `stop` is set."""

    async def pause(seconds: float) -> None:  # a stop request ends the wait at once
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=seconds)

    def before_sleep(state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome is not None else None
        level = logging.WARNING if state.attempt_number == 1 else logging.DEBUG
        log.log(level, "job queue unavailable while %s (%s); waiting for it", doing, exc)

    retrying = AsyncRetrying(
        retry=retry_if_exception_type(BackendUnavailableError),
        wait=_backoff(initial, maximum),
        stop=stop_when_set(stop),
        sleep=pause,
        reraise=True,
        before_sleep=before_sleep,
    )
    attempts = 0
    async for attempt in retrying:
        with attempt:
            attempts = attempt.retry_state.attempt_number
            result = await operation()
    if attempts > 1:
        log.info("job queue available again after %d attempts while %s", attempts, doing)
    return result


def _backoff(initial: float, maximum: float) -> wait_exponential_jitter:
    try:  # tenacity >= 9.1 calls the first wait `multiplier`
        return wait_exponential_jitter(multiplier=initial, max=maximum, jitter=initial)
    except TypeError:
        return wait_exponential_jitter(initial=initial, max=maximum, jitter=initial)
