"""Timeouts, retries and circuit breakers for every call Manda makes to another service."""

from manda.resilience.breaker import (
    BreakerRegistry,
    BreakerSnapshot,
    BreakerState,
    CircuitBreaker,
    CircuitOpenError,
)
from manda.resilience.errors import (
    ErrorClass,
    classify,
    is_transient,
    retry_after_seconds,
)
from manda.resilience.retry import call_with_resilience, retrying, worth_retrying

__all__ = [
    "BreakerRegistry",
    "BreakerSnapshot",
    "BreakerState",
    "CircuitBreaker",
    "CircuitOpenError",
    "ErrorClass",
    "call_with_resilience",
    "classify",
    "is_transient",
    "retry_after_seconds",
    "retrying",
    "worth_retrying",
]
