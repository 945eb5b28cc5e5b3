"""Prometheus metrics for `/metrics`: answers, tokens and cost, Slack events, ingestion, failures.

Everything lives on the `Metrics` object's own `CollectorRegistry`, never on prometheus_client's
global one: the composition root builds one `Metrics` and passes it down, so tests and several
apps in one process never share a counter. Circuit breaker states are read from a
`BreakerRegistry` at scrape time.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from manda.observability.logging import estimate_cost
from manda.resilience.breaker import BreakerRegistry, BreakerState
from manda.resilience.errors import ErrorClass, classify

NAMESPACE = "manda"
ANSWER_LATENCY_BUCKETS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0, 120.0)
# Slack wants an ack within 3 s; the goal is p99 under 50 ms.
ACK_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 3.0)


class BreakerCollector(Collector):
    """`circuit_breaker_open{name}`: 1 while a breaker refuses calls (open or half-open)."""

    def __init__(self, breakers: BreakerRegistry, namespace: str = NAMESPACE) -> None:
        self._breakers = breakers
        self._prefix = f"{namespace}_" if namespace else ""

    def describe(self) -> Iterable[Metric]:
        return self._families()

    def collect(self) -> Iterable[Metric]:
        return self._families()

    def _families(self) -> list[Metric]:
        is_open = GaugeMetricFamily(
            f"{self._prefix}circuit_breaker_open",
            "1 while the breaker refuses calls to the service (open or half-open), else 0.",
            labels=["name"],
        )
        failures = GaugeMetricFamily(
            f"{self._prefix}circuit_breaker_consecutive_failures",
            "Transient failures in a row recorded by the breaker.",
            labels=["name"],
        )
        for breaker in self._breakers:
            closed = breaker.state is BreakerState.CLOSED
            is_open.add_metric([breaker.name], 0.0 if closed else 1.0)
            failures.add_metric([breaker.name], float(breaker.consecutive_failures))
        return [is_open, failures]


class Metrics:
    """The application's metrics; `record_*` methods are what the rest of Manda calls."""

    def __init__(
        self,
        *,
        breakers: BreakerRegistry | None = None,
        namespace: str = NAMESPACE,
        process_metrics: bool = True,
    ) -> None:
        self.registry = CollectorRegistry()
        registry, ns = self.registry, namespace
        self.answers = Counter(
            "answers",
            "Answers given.",
            ["intent", "model", "grounded"],
            namespace=ns,
            registry=registry,
        )
        self.answer_latency = Histogram(
            "answer_latency_seconds",
            "Time from question to answer.",
            namespace=ns,
            registry=registry,
            buckets=ANSWER_LATENCY_BUCKETS,
        )
        self.tokens = Counter(
            "tokens", "Model tokens.", ["direction", "model"], namespace=ns, registry=registry
        )
        self.cost = Counter(
            "estimated_cost_usd",
            "Estimated spend on models, in US dollars.",
            ["model"],
            namespace=ns,
            registry=registry,
        )
        self.slack_events = Counter(
            "slack_events",
            "Slack events and interactions received.",
            ["type", "outcome"],
            namespace=ns,
            registry=registry,
        )
        self.slack_ack_latency = Histogram(
            "slack_ack_latency_seconds",
            "Time from receiving a Slack request to acknowledging it.",
            namespace=ns,
            registry=registry,
            buckets=ACK_LATENCY_BUCKETS,
        )
        self.duplicate_events = Counter(
            "duplicate_events",
            "Slack events dropped because the same event_id was already handled.",
            namespace=ns,
            registry=registry,
        )
        self.ingest_files = Counter(
            "ingest_files",
            "Files of a data room handled by ingestion, by outcome.",
            ["outcome"],
            namespace=ns,
            registry=registry,
        )
        self.external_call_errors = Counter(
            "external_call_errors",
            "Failed calls to other services, by service and error class.",
            ["service", "error_class"],
            namespace=ns,
            registry=registry,
        )
        self.jobs_running = Gauge(
            "jobs_running",
            "Work started after an ack (answers, ingests) still running in this process.",
            namespace=ns,
            registry=registry,
        )
        if breakers is not None:
            registry.register(BreakerCollector(breakers, ns))
        if process_metrics:
            ProcessCollector(registry=registry)
            GCCollector(registry=registry)

    def record_answer(
        self,
        *,
        intent: str,
        model: str,
        grounded: bool,
        latency_seconds: float,
        input_tokens: int,
        output_tokens: int,
        cache_read_tokens: int = 0,
        cache_write_tokens: int = 0,
    ) -> None:
        """Tokens by direction: `input`, `output`, and the prompt cache's `cache_read` and
        `cache_write` (billed at their own rates)."""
        self.answers.labels(str(intent), model, "true" if grounded else "false").inc()
        self.answer_latency.observe(latency_seconds)
        self.tokens.labels("input", model).inc(input_tokens)
        self.tokens.labels("output", model).inc(output_tokens)
        if cache_read_tokens:
            self.tokens.labels("cache_read", model).inc(cache_read_tokens)
        if cache_write_tokens:
            self.tokens.labels("cache_write", model).inc(cache_write_tokens)
        with contextlib.suppress(ValueError):  # an unpriced model: no made-up spend
            self.cost.labels(model).inc(estimate_cost(
                model, input_tokens, output_tokens, cache_read_tokens=cache_read_tokens,
                cache_write_tokens=cache_write_tokens))

    def record_slack_event(self, event_type: str, outcome: str) -> None:
        """`event_type`: Slack's (`app_mention`, `message`, `block_actions`...); `outcome`: ours."""
        self.slack_events.labels(event_type, outcome).inc()

    def record_slack_ack(self, seconds: float) -> None:
        self.slack_ack_latency.observe(seconds)

    def count_jobs(self, running: Callable[[], float]) -> None:
        """Read `jobs_running` from `running` at scrape time (a load balancer or a benchmark
        waits for a worker to be idle without the readiness probe telling its internals)."""
        self.jobs_running.set_function(running)

    def record_duplicate_event(self) -> None:
        self.duplicate_events.inc()

    def record_ingest_file(self, outcome: str, count: int = 1) -> None:
        self.ingest_files.labels(outcome).inc(count)

    def record_external_error(self, service: str, exc: BaseException) -> ErrorClass:
        """Count one failed call (usable as `call_with_resilience(on_error=...)` via partial)."""
        error_class = classify(exc)
        self.external_call_errors.labels(service, str(error_class)).inc()
        return error_class

    def render(self) -> tuple[bytes, str]:
        """The body and content type of a `/metrics` response."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


def render_metrics(metrics: Metrics) -> tuple[bytes, str]:
    return metrics.render()
