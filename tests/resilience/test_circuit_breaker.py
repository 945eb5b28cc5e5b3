"""The circuit breaker: opens after 5 transient failures in a row, refuses for 60 s, one trial
whose verdict the calls that come meanwhile wait for."""

from __future__ import annotations

import asyncio

import pytest
import redis.exceptions as redis_errors

from manda.errors import BackendUnavailableError, UnknownDealError
from manda.resilience import (
    BreakerRegistry,
    BreakerState,
    CircuitBreaker,
    CircuitOpenError,
    ErrorClass,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Service:
    """A stand-in for Claude: counts calls and fails with what it is told to."""

    def __init__(self) -> None:
        self.calls = 0
        self.failure: BaseException | None = None

    async def answer(self, question: str) -> str:
        self.calls += 1
        if self.failure is not None:
            raise self.failure
        return f"answer to {question}"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def breaker(clock: FakeClock) -> CircuitBreaker:
    return CircuitBreaker("Claude", clock=clock)


async def fail(breaker: CircuitBreaker, service: Service, times: int) -> None:
    for _ in range(times):
        with pytest.raises(type(service.failure)):
            await breaker.call(service.answer, "q")


async def test_five_transient_failures_in_a_row_open_it(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    service = Service()
    service.failure = TimeoutError("Claude did not answer in 60 s")
    await fail(breaker, service, 4)
    assert breaker.state is BreakerState.CLOSED and breaker.consecutive_failures == 4

    await fail(breaker, service, 1)
    assert breaker.state is BreakerState.OPEN
    assert breaker.opened_at == clock.now
    assert breaker.last_error_class is ErrorClass.TIMEOUT

    with pytest.raises(CircuitOpenError) as refused:
        await breaker.call(service.answer, "q")
    assert service.calls == 5  # the refused call never reached the service
    assert isinstance(refused.value, BackendUnavailableError)
    assert refused.value.message == (
        "Claude is failing (5 errors in a row); not calling it for the next 60 s."
    )
    assert "manda doctor" in str(refused.value)


async def test_the_refusal_says_how_long_is_left(breaker: CircuitBreaker, clock: FakeClock) -> None:
    service = Service()
    service.failure = ConnectionResetError("reset by peer")
    await fail(breaker, service, 5)
    clock.advance(18)
    with pytest.raises(CircuitOpenError) as refused:
        await breaker.call(service.answer, "q")
    assert refused.value.message == (
        "Claude is failing (5 errors in a row); not calling it for the next 42 s."
    )
    assert refused.value.retry_in == pytest.approx(42.0)
    assert breaker.retry_in == pytest.approx(42.0)


async def test_a_success_resets_the_run_of_failures(breaker: CircuitBreaker) -> None:
    service = Service()
    service.failure = TimeoutError()
    await fail(breaker, service, 4)
    service.failure = None
    assert await breaker.call(service.answer, "q") == "answer to q"
    service.failure = TimeoutError()
    await fail(breaker, service, 4)
    assert breaker.state is BreakerState.CLOSED
    assert breaker.consecutive_failures == 4


async def test_validation_and_authentication_errors_never_open_it(
    breaker: CircuitBreaker,
) -> None:
    """They prove the service answered: they reach the caller and reset the run of failures."""
    service = Service()
    service.failure = TimeoutError()
    await fail(breaker, service, 4)
    refusals = [
        redis_errors.AuthenticationError("invalid password"),  # authentication
        UnknownDealError("falcon"),  # validation
        KeyError("content"),  # unknown: most likely our bug, not the service's failure
    ]
    for refusal in refusals * 3:
        service.failure = refusal
        with pytest.raises(type(refusal)) as raised:
            await breaker.call(service.answer, "q")
        assert raised.value is refusal
    assert breaker.state is BreakerState.CLOSED
    assert breaker.consecutive_failures == 0
    assert service.calls == 4 + 9


async def test_after_the_reset_timeout_one_trial_call_goes_through(clock: FakeClock) -> None:
    breaker = CircuitBreaker("Claude", clock=clock, trial_wait=0)  # nobody waits for the trial
    service = Service()
    service.failure = TimeoutError()
    await fail(breaker, service, 5)
    clock.advance(60)
    assert breaker.state is BreakerState.HALF_OPEN

    release = asyncio.Event()

    async def slow_answer() -> str:
        service.calls += 1
        await release.wait()
        return "back"

    trial = asyncio.create_task(breaker.call(slow_answer))
    await asyncio.sleep(0)  # the trial is now in flight
    with pytest.raises(CircuitOpenError) as refused:
        await breaker.call(service.answer, "q")
    assert "trial call" in refused.value.message
    release.set()
    assert await trial == "back"
    assert breaker.state is BreakerState.CLOSED
    assert breaker.consecutive_failures == 0 and breaker.opened_at is None
    service.failure = None
    assert await breaker.call(service.answer, "q") == "answer to q"


async def _half_open_with_a_trial_in_flight(
    breaker: CircuitBreaker, clock: FakeClock, service: Service, outcome: asyncio.Future[str]
) -> asyncio.Task[str]:
    service.failure = TimeoutError()
    await fail(breaker, service, 5)
    clock.advance(60)
    trial = asyncio.create_task(breaker.call(lambda: outcome))
    await asyncio.sleep(0)  # the trial is now in flight
    assert breaker.state is BreakerState.HALF_OPEN
    return trial


async def test_calls_during_the_trial_wait_for_its_success_and_then_go_through(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    service = Service()
    outcome: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    trial = await _half_open_with_a_trial_in_flight(breaker, clock, service, outcome)
    service.failure = None
    waiting = [asyncio.create_task(breaker.call(service.answer, f"q{n}")) for n in range(3)]
    await asyncio.sleep(0)
    assert not any(task.done() for task in waiting)  # not refused: waiting for the verdict
    outcome.set_result("back")
    assert await trial == "back"
    assert await asyncio.gather(*waiting) == ["answer to q0", "answer to q1", "answer to q2"]
    assert breaker.state is BreakerState.CLOSED


async def test_calls_during_a_failing_trial_are_refused_when_it_fails(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    service = Service()
    outcome: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    trial = await _half_open_with_a_trial_in_flight(breaker, clock, service, outcome)
    calls_before = service.calls
    waiting = asyncio.create_task(breaker.call(service.answer, "q"))
    await asyncio.sleep(0)
    outcome.set_exception(TimeoutError())
    with pytest.raises(TimeoutError):
        await trial
    with pytest.raises(CircuitOpenError) as refused:
        await waiting
    assert "not calling it for the next 60 s" in refused.value.message
    assert service.calls == calls_before  # the waiting call never reached the service
    assert breaker.state is BreakerState.OPEN


async def test_a_call_waits_for_the_trial_no_longer_than_trial_wait(clock: FakeClock) -> None:
    breaker = CircuitBreaker("Redis", clock=clock, trial_wait=0.05)
    service = Service()
    never: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    trial = await _half_open_with_a_trial_in_flight(breaker, clock, service, never)
    with pytest.raises(CircuitOpenError) as refused:
        await breaker.call(service.answer, "q")
    assert "one trial call is checking whether it is back" in refused.value.message
    trial.cancel()
    with pytest.raises(asyncio.CancelledError):
        await trial


async def test_a_cancelled_trial_makes_a_waiting_call_the_next_trial(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    service = Service()
    never: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    trial = await _half_open_with_a_trial_in_flight(breaker, clock, service, never)
    service.failure = None
    waiting = asyncio.create_task(breaker.call(service.answer, "q"))
    await asyncio.sleep(0)
    trial.cancel()
    with pytest.raises(asyncio.CancelledError):
        await trial
    assert await waiting == "answer to q"
    assert breaker.state is BreakerState.CLOSED


async def test_a_failed_trial_opens_it_again_for_the_full_timeout(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    service = Service()
    service.failure = TimeoutError()
    await fail(breaker, service, 5)
    clock.advance(61)
    await fail(breaker, service, 1)
    assert breaker.state is BreakerState.OPEN
    assert breaker.opened_at == clock.now
    assert breaker.retry_in == pytest.approx(60.0)
    with pytest.raises(CircuitOpenError) as refused:
        await breaker.call(service.answer, "q")
    assert "(6 errors in a row)" in refused.value.message
    assert service.calls == 6


async def test_a_trial_failing_with_a_validation_error_closes_it(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    service = Service()
    service.failure = TimeoutError()
    await fail(breaker, service, 5)
    clock.advance(60)
    service.failure = ValueError("prompt too long")
    with pytest.raises(ValueError):
        await breaker.call(service.answer, "q")
    assert breaker.state is BreakerState.CLOSED


async def test_a_cancelled_trial_lets_the_next_call_be_the_trial(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    service = Service()
    service.failure = TimeoutError()
    await fail(breaker, service, 5)
    clock.advance(60)
    trial = asyncio.create_task(breaker.call(asyncio.Event().wait))
    await asyncio.sleep(0)
    trial.cancel()
    with pytest.raises(asyncio.CancelledError):
        await trial
    assert breaker.state is BreakerState.HALF_OPEN
    service.failure = None
    assert await breaker.call(service.answer, "q") == "answer to q"
    assert breaker.state is BreakerState.CLOSED


async def test_late_outcomes_of_calls_let_in_before_it_opened_are_ignored(
    breaker: CircuitBreaker,
) -> None:
    release = asyncio.Event()

    async def slow_success() -> str:
        await release.wait()
        return "late"

    late = asyncio.create_task(breaker.call(slow_success))
    await asyncio.sleep(0)
    service = Service()
    service.failure = TimeoutError()
    await fail(breaker, service, 5)
    release.set()
    assert await late == "late"
    assert breaker.state is BreakerState.OPEN  # one old success does not close it


async def test_async_with_counts_and_refuses_like_call(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    for _ in range(5):
        with pytest.raises(TimeoutError):
            async with breaker:
                raise TimeoutError("Voyage did not answer")
    assert breaker.state is BreakerState.OPEN
    ran = False
    with pytest.raises(CircuitOpenError):
        async with breaker:
            ran = True
    assert not ran

    clock.advance(60)
    async with breaker:
        ran = True
    assert ran and breaker.state is BreakerState.CLOSED


async def test_nested_async_with_settles_each_block(breaker: CircuitBreaker) -> None:
    with pytest.raises(TimeoutError):
        async with breaker:
            async with breaker:
                pass  # the inner block succeeds...
            raise TimeoutError  # ...the outer one fails
    assert breaker.consecutive_failures == 1


async def test_snapshot_for_doctor(breaker: CircuitBreaker, clock: FakeClock) -> None:
    service = Service()
    service.failure = TimeoutError("no answer")
    await fail(breaker, service, 5)
    clock.advance(10)
    snap = breaker.snapshot()
    assert snap.name == "Claude"
    assert snap.state is BreakerState.OPEN
    assert snap.consecutive_failures == 5
    assert snap.opened_at == clock.now - 10
    assert snap.retry_in == pytest.approx(50.0)
    assert snap.last_error == "TimeoutError: no answer"
    assert snap.last_error_class is ErrorClass.TIMEOUT


def test_registry_hands_out_one_breaker_per_name(clock: FakeClock) -> None:
    registry = BreakerRegistry(failure_threshold=3, reset_timeout=30.0, clock=clock)
    claude = registry.get("Claude")
    assert registry.get("Claude") is claude
    assert claude.failure_threshold == 3 and claude.reset_timeout == 30.0
    voyage = registry.add(CircuitBreaker("Voyage AI"))
    assert [b.name for b in registry] == ["Claude", "Voyage AI"]
    assert registry.breakers() == [claude, voyage] and len(registry) == 2
    with pytest.raises(ValueError, match="Voyage AI"):
        registry.add(CircuitBreaker("Voyage AI"))
    assert len(BreakerRegistry()) == 0  # registries share nothing


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        CircuitBreaker("Claude", failure_threshold=0)
    with pytest.raises(ValueError):
        CircuitBreaker("Claude", reset_timeout=0)


async def test_a_refusal_from_another_breaker_is_no_verdict(breaker: CircuitBreaker) -> None:
    inner = CircuitBreaker("Voyage AI", failure_threshold=1)
    with pytest.raises(TimeoutError):
        await inner.call(_raise, TimeoutError())
    for _ in range(6):
        with pytest.raises(CircuitOpenError):
            await breaker.call(inner.call, _raise, TimeoutError())
    assert breaker.state is BreakerState.CLOSED and breaker.consecutive_failures == 0


async def _raise(exc: BaseException) -> None:
    raise exc
