"""The retry policy: transient errors retried with backoff and jitter or Retry-After, others not.

Waits go to a recording `sleep`, so no test sleeps for real beyond a per-attempt timeout of a
few milliseconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

import aiohttp
import pytest
import redis.exceptions as redis_errors

from manda.errors import UnknownDealError
from manda.resilience import (
    BreakerState,
    CircuitBreaker,
    CircuitOpenError,
    call_with_resilience,
    retrying,
)


class Waits(list[float]):
    """A `sleep` that records what it was asked to wait and returns at once."""

    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


class Flaky:
    """Fails with each scripted error in turn, then answers."""

    def __init__(self, errors: Iterable[BaseException]) -> None:
        self.errors = list(errors)
        self.calls = 0

    async def __call__(self, question: str, *, deal: str = "targetco") -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return f"{deal}: {question}"


def http_error(status: int, retry_after: str | None = None) -> aiohttp.ClientResponseError:
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return aiohttp.ClientResponseError(
        request_info=None,  # type: ignore[arg-type]
        history=(),
        status=status,
        message="scripted",
        headers=headers,  # type: ignore[arg-type]
    )


async def test_transient_errors_are_retried_with_growing_jittered_waits() -> None:
    flaky = Flaky([TimeoutError(), ConnectionResetError(), http_error(503)])
    waits = Waits()
    answer = await call_with_resilience(
        flaky, "Q3 revenue?", deal="falcon", attempts=4, initial=0.5, maximum=20.0, sleep=waits
    )
    assert answer == "falcon: Q3 revenue?"
    assert flaky.calls == 4
    assert len(waits) == 3
    for n, wait in enumerate(waits):
        base = 0.5 * 2**n
        assert base <= wait <= base + 0.5  # exponential, plus jitter of up to `initial`


async def test_waits_never_exceed_the_maximum() -> None:
    flaky = Flaky([TimeoutError()] * 6)
    waits = Waits()
    await call_with_resilience(flaky, "q", attempts=7, initial=1.0, maximum=3.0, sleep=waits)
    assert max(waits) <= 3.0 and waits[-1] == 3.0


async def test_retry_after_is_the_wait_when_the_service_sends_it() -> None:
    flaky = Flaky([http_error(429, "7"), http_error(503, "0")])
    waits = Waits()
    assert await call_with_resilience(flaky, "q", attempts=3, sleep=waits) == "targetco: q"
    assert waits == [7.0, 0.0]


async def test_a_retry_after_longer_than_the_maximum_gives_up_at_once() -> None:
    too_long = http_error(429, "120")
    flaky = Flaky([too_long])
    waits = Waits()
    with pytest.raises(aiohttp.ClientResponseError) as raised:
        await call_with_resilience(flaky, "q", attempts=5, maximum=20.0, sleep=waits)
    assert raised.value is too_long
    assert flaky.calls == 1 and waits == []


@pytest.mark.parametrize(
    "refusal",
    [
        http_error(400),
        http_error(401),
        redis_errors.AuthenticationError("invalid password"),
        UnknownDealError("falcon"),
        KeyError("content"),  # unknown: a bug is not retried
    ],
)
async def test_validation_authentication_and_unknown_errors_are_raised_at_once(
    refusal: Exception,
) -> None:
    flaky = Flaky([refusal])
    waits = Waits()
    breaker = CircuitBreaker("Claude")
    with pytest.raises(type(refusal)) as raised:
        await call_with_resilience(flaky, "q", breaker=breaker, attempts=5, sleep=waits)
    assert raised.value is refusal
    assert flaky.calls == 1 and waits == []
    assert breaker.consecutive_failures == 0


async def test_when_every_attempt_fails_the_last_error_is_raised() -> None:
    last = http_error(529)
    flaky = Flaky([TimeoutError(), http_error(500), last, TimeoutError()])
    waits = Waits()
    with pytest.raises(aiohttp.ClientResponseError) as raised:
        await call_with_resilience(flaky, "q", attempts=3, sleep=waits)
    assert raised.value is last
    assert flaky.calls == 3 and len(waits) == 2


async def test_each_attempt_has_its_own_timeout() -> None:
    hangs = 0

    async def hangs_once(question: str) -> str:
        nonlocal hangs
        hangs += 1
        if hangs == 1:
            await asyncio.Event().wait()  # a service that never answers
        return f"answer to {question}"

    waits = Waits()
    answer = await call_with_resilience(hangs_once, "q", attempts=2, timeout=0.01, sleep=waits)
    assert answer == "answer to q"
    assert hangs == 2 and len(waits) == 1


async def test_a_service_that_always_hangs_ends_in_a_timeout() -> None:
    errors: list[BaseException] = []
    with pytest.raises(TimeoutError):
        await call_with_resilience(
            asyncio.Event().wait, attempts=2, timeout=0.01, sleep=Waits(), on_error=errors.append
        )
    assert [type(e) for e in errors] == [TimeoutError, TimeoutError]


async def test_retries_stop_as_soon_as_the_breaker_opens() -> None:
    breaker = CircuitBreaker("Claude", failure_threshold=5)
    flaky = Flaky([TimeoutError()] * 10)
    waits = Waits()
    with pytest.raises(TimeoutError):
        await call_with_resilience(flaky, "q", breaker=breaker, attempts=3, sleep=waits)
    assert breaker.consecutive_failures == 3
    with pytest.raises(TimeoutError):
        await call_with_resilience(flaky, "q", breaker=breaker, attempts=3, sleep=waits)
    # the 5th failure opened the breaker: no 6th attempt, no wait before it
    assert flaky.calls == 5 and len(waits) == 3
    assert breaker.state is BreakerState.OPEN

    errors: list[BaseException] = []
    with pytest.raises(CircuitOpenError) as refused:
        await call_with_resilience(
            flaky, "q", breaker=breaker, attempts=3, sleep=waits, on_error=errors.append
        )
    assert flaky.calls == 5 and len(waits) == 3  # refused at once, never retried
    assert errors == []  # no call was made, so no failed call to count
    assert refused.value.message.startswith("Claude is failing (5 errors in a row)")


async def test_on_error_sees_every_failed_attempt() -> None:
    seen: list[BaseException] = []
    first, second = TimeoutError(), http_error(503)
    flaky = Flaky([first, second])
    await call_with_resilience(flaky, "q", attempts=3, sleep=Waits(), on_error=seen.append)
    assert seen == [first, second]


async def test_retrying_is_a_tenacity_policy_usable_on_its_own() -> None:
    waits = Waits()
    flaky = Flaky([TimeoutError(), http_error(429, "1.5")])
    attempts = 0
    async for attempt in retrying(attempts=3, sleep=waits):
        with attempt:
            attempts += 1
            answer = await flaky("q")
    assert answer == "targetco: q"
    assert attempts == 3 and waits[1] == 1.5


def test_policy_arguments_are_checked() -> None:
    with pytest.raises(ValueError):
        retrying(attempts=0)
