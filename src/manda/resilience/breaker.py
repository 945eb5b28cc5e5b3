"""Circuit breakers: stop calling a service that keeps failing, and say so instead of hanging.

A breaker opens after `failure_threshold` consecutive *transient* failures (rate limits,
timeouts, service-side errors; see `is_transient`). While open, calls fail at once with
`CircuitOpenError`. After `reset_timeout` seconds it is half-open: one trial call goes through;
its success closes the breaker, its failure opens it again for another `reset_timeout`. A call
that comes while the trial is in flight waits for its verdict, up to `trial_wait` seconds, and
then goes through (the service is back) or is refused (it is not): a burst of requests at the
moment a service returns does not all fail over because one of them is still checking.

Decision: a validation or authentication error, like any error that is not transient, proves
that the service answered. It therefore counts as a success for the breaker (it resets the run
of failures and closes a half-open breaker) while still reaching the caller unchanged. A
cancelled call, or one refused by another breaker further down, gives no verdict. Outcomes of
calls let in before the breaker last changed state are ignored: they describe a service that
no longer is.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from enum import StrEnum
from types import TracebackType
from typing import ParamSpec, TypeVar

from manda.errors import BackendUnavailableError
from manda.resilience.errors import ErrorClass, classify, is_transient

P = ParamSpec("P")
T = TypeVar("T")

log = logging.getLogger(__name__)

# How long a call waits for the verdict of a trial in flight before it is refused: a little more
# than a Redis call's socket timeout; a slow model trial refuses its waiters to the fallback.
TRIAL_WAIT_SECONDS = 5.0


class BreakerState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


class CircuitOpenError(BackendUnavailableError):
    """A call refused without trying, because the service failed too often just before."""

    def __init__(self, name: str, retry_in: float, *, failures: int | None = None) -> None:
        seconds = max(0, math.ceil(retry_in))
        in_a_row = (
            f" ({failures} error{'s' if failures != 1 else ''} in a row)" if failures else ""
        )
        if seconds > 0:
            message = f"{name} is failing{in_a_row}; not calling it for the next {seconds} s."
        else:
            message = f"{name} is failing{in_a_row}; one trial call is checking whether it is back."
        super().__init__(
            message,
            hint="Manda tries again by itself; if this lasts, `manda doctor` shows what is wrong.",
        )
        self.name = name
        self.retry_in = max(0.0, retry_in)
        self.failures = failures


@dataclass(frozen=True)
class BreakerSnapshot:
    """A breaker's state at one moment, for `manda doctor` and `/metrics`."""

    name: str
    state: BreakerState
    consecutive_failures: int
    opened_at: float | None
    retry_in: float
    last_error: str | None
    last_error_class: ErrorClass | None


@dataclass(frozen=True)
class _Ticket:
    generation: int
    trial: bool


class CircuitBreaker:
    """One breaker per external service; `name` is the service as a person knows it ("Claude").

    Use `await breaker.call(fn, *args)` or `async with breaker: ...`. `opened_at` is a reading of
    `clock` (monotonic seconds by default), `None` while closed.
    """

    def __init__(
        self,
        name: str,
        *,
        failure_threshold: int = 5,
        reset_timeout: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        trial_wait: float = TRIAL_WAIT_SECONDS,
    ) -> None:
        if failure_threshold < 1 or reset_timeout <= 0 or trial_wait < 0:
            raise ValueError(
                "failure_threshold must be >= 1, reset_timeout > 0 and trial_wait >= 0"
            )
        self.name = name
        self.failure_threshold = failure_threshold
        self.reset_timeout = reset_timeout
        self._clock = clock
        self._failures = 0
        self._opened_at: float | None = None
        self.trial_wait = trial_wait
        self._trial_in_flight = False
        self._trial_settled: asyncio.Event | None = None  # set when the trial in flight ends
        self._generation = 0  # changes whenever the breaker opens or closes
        self.last_error: str | None = None
        self.last_error_class: ErrorClass | None = None
        self._entered: ContextVar[tuple[_Ticket, ...]] = ContextVar(f"breaker:{name}", default=())

    @property
    def state(self) -> BreakerState:
        if self._opened_at is None:
            return BreakerState.CLOSED
        if self._trial_in_flight or self._clock() - self._opened_at >= self.reset_timeout:
            return BreakerState.HALF_OPEN
        return BreakerState.OPEN

    @property
    def consecutive_failures(self) -> int:
        return self._failures

    @property
    def opened_at(self) -> float | None:
        return self._opened_at

    @property
    def retry_in(self) -> float:
        """Seconds until a trial call will be let through (0 unless open)."""
        if self._opened_at is None:
            return 0.0
        return max(0.0, self.reset_timeout - (self._clock() - self._opened_at))

    def snapshot(self) -> BreakerSnapshot:
        return BreakerSnapshot(
            name=self.name,
            state=self.state,
            consecutive_failures=self._failures,
            opened_at=self._opened_at,
            retry_in=self.retry_in,
            last_error=self.last_error,
            last_error_class=self.last_error_class,
        )

    async def call(self, fn: Callable[P, Awaitable[T]], *args: P.args, **kwargs: P.kwargs) -> T:
        ticket = await self._admitted()
        try:
            result = await fn(*args, **kwargs)
        except BaseException as exc:
            self._settle(ticket, exc)
            raise
        self._settle(ticket, None)
        return result

    async def __aenter__(self) -> CircuitBreaker:
        ticket = await self._admitted()
        self._entered.set((*self._entered.get(), ticket))
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        *outer, ticket = self._entered.get()
        self._entered.set(tuple(outer))
        self._settle(ticket, exc)

    async def _admitted(self) -> _Ticket:
        """`_admit`, after waiting (up to `trial_wait` s) for the verdict of a trial in flight."""
        deadline = asyncio.get_running_loop().time() + self.trial_wait
        while self._trial_in_flight and self._trial_settled is not None:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                break
            try:
                async with asyncio.timeout(remaining):
                    await self._trial_settled.wait()
            except TimeoutError:
                break
        return self._admit()

    def _admit(self) -> _Ticket:
        state = self.state
        if state is BreakerState.CLOSED:
            return _Ticket(self._generation, trial=False)
        if state is BreakerState.HALF_OPEN and not self._trial_in_flight:
            self._trial_in_flight = True
            self._trial_settled = asyncio.Event()
            return _Ticket(self._generation, trial=True)
        raise CircuitOpenError(self.name, self.retry_in, failures=self._failures)

    def _settle(self, ticket: _Ticket, exc: BaseException | None) -> None:
        if ticket.generation != self._generation:
            return
        if isinstance(exc, CircuitOpenError) or (
            exc is not None and not isinstance(exc, Exception)
        ):  # cancelled, or refused by another breaker further down: no verdict on this service
            if ticket.trial:
                self._end_trial()
            return
        if exc is not None and is_transient(exc):
            self._failures += 1
            self.last_error = f"{type(exc).__name__}: {exc}"[:300]
            self.last_error_class = classify(exc)
            if ticket.trial or self._failures >= self.failure_threshold:
                self._open()
        elif ticket.trial:
            self._close()
        else:
            self._failures = 0

    def _end_trial(self) -> None:
        """No trial in flight any more: the calls waiting for its verdict are admitted again."""
        self._trial_in_flight = False
        settled, self._trial_settled = self._trial_settled, None
        if settled is not None:
            settled.set()

    def _open(self) -> None:
        self._generation += 1
        self._opened_at = self._clock()
        self._end_trial()
        log.warning(
            "%s circuit opened after %d consecutive failures; calls refused for %.0f s",
            self.name,
            self._failures,
            self.reset_timeout,
            extra={"breaker": self.name, "failures": self._failures, "error": self.last_error},
        )

    def _close(self) -> None:
        self._generation += 1
        self._opened_at = None
        self._failures = 0
        self._end_trial()
        log.info(
            "%s circuit closed: a trial call succeeded", self.name, extra={"breaker": self.name}
        )


class BreakerRegistry:
    """The breakers of one application, by name, for adapters, `manda doctor` and `/metrics`.

    Built by the composition root and passed down, like `Metrics`: no process-wide state, so
    tests and several apps in one process never share a breaker.
    """

    def __init__(
        self,
        *,
        failure_threshold: int = 5,
        reset_timeout: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._defaults = (failure_threshold, reset_timeout, clock)
        self._breakers: dict[str, CircuitBreaker] = {}

    def get(self, name: str) -> CircuitBreaker:
        """The breaker called `name`, created with this registry's settings on first use."""
        breaker = self._breakers.get(name)
        if breaker is None:
            threshold, reset_timeout, clock = self._defaults
            breaker = CircuitBreaker(
                name, failure_threshold=threshold, reset_timeout=reset_timeout, clock=clock
            )
            self._breakers[name] = breaker
        return breaker

    def add(self, breaker: CircuitBreaker) -> CircuitBreaker:
        """Register a breaker built elsewhere; a second, different one of the same name is a bug."""
        existing = self._breakers.setdefault(breaker.name, breaker)
        if existing is not breaker:
            raise ValueError(f"A circuit breaker named {breaker.name!r} is already registered")
        return breaker

    def breakers(self) -> list[CircuitBreaker]:
        return [self._breakers[name] for name in sorted(self._breakers)]

    def __iter__(self) -> Iterator[CircuitBreaker]:
        return iter(self.breakers())

    def __len__(self) -> int:
        return len(self._breakers)
