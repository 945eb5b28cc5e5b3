"""Prometheus metrics on a private registry, read back through the exposition format."""

from __future__ import annotations

import functools

import aiohttp
import prometheus_client
import pytest
from prometheus_client.parser import text_string_to_metric_families

from manda.observability import Metrics, render_metrics
from manda.resilience import BreakerRegistry, ErrorClass, call_with_resilience


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def scrape(metrics: Metrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a `/metrics` body, by name and sorted labels."""
    body, content_type = render_metrics(metrics)
    assert content_type.startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(body.decode())
        for sample in family.samples
    }


def value(samples: dict, metric: str, /, **labels: str) -> float | None:
    return samples.get((metric, tuple(sorted(labels.items()))))


def test_answers_tokens_cost_and_latency() -> None:
    metrics = Metrics(process_metrics=False)
    for _ in range(2):
        metrics.record_answer(
            intent="fact_lookup",
            model="claude-sonnet-4-5",
            grounded=True,
            latency_seconds=1.5,
            input_tokens=2_000,
            output_tokens=500,
        )
    metrics.record_answer(
        intent="comparison",
        model="offline",
        grounded=False,
        latency_seconds=0.2,
        input_tokens=0,
        output_tokens=0,
    )
    s = scrape(metrics)
    answers = "manda_answers_total"
    assert value(s, answers, intent="fact_lookup", model="claude-sonnet-4-5", grounded="true") == 2
    assert value(s, answers, intent="comparison", model="offline", grounded="false") == 1
    assert value(s, "manda_tokens_total", direction="input", model="claude-sonnet-4-5") == 4000
    assert value(s, "manda_tokens_total", direction="output", model="claude-sonnet-4-5") == 1000
    cost = value(s, "manda_estimated_cost_usd_total", model="claude-sonnet-4-5")
    assert cost == pytest.approx(0.027)
    assert value(s, "manda_answer_latency_seconds_count") == 3
    assert value(s, "manda_answer_latency_seconds_sum") == pytest.approx(3.2)
    assert value(s, "manda_answer_latency_seconds_bucket", le="0.25") == 1
    assert value(s, "manda_answer_latency_seconds_bucket", le="2.0") == 3


def test_slack_and_ingestion_counters() -> None:
    metrics = Metrics(process_metrics=False)
    metrics.record_slack_event("app_mention", "answered")
    metrics.record_slack_event("app_mention", "answered")
    metrics.record_slack_event("file_shared", "queued")
    metrics.record_duplicate_event()
    metrics.record_slack_ack(0.004)
    metrics.record_slack_ack(0.030)
    metrics.record_ingest_file("ingested", 5)
    metrics.record_ingest_file("skipped")
    s = scrape(metrics)
    slack = "manda_slack_events_total"
    assert value(s, slack, type="app_mention", outcome="answered") == 2
    assert value(s, slack, type="file_shared", outcome="queued") == 1
    assert value(s, "manda_duplicate_events_total") == 1
    assert value(s, "manda_slack_ack_latency_seconds_count") == 2
    assert value(s, "manda_slack_ack_latency_seconds_bucket", le="0.005") == 1
    assert value(s, "manda_slack_ack_latency_seconds_bucket", le="0.05") == 2
    assert value(s, "manda_ingest_files_total", outcome="ingested") == 5
    assert value(s, "manda_ingest_files_total", outcome="skipped") == 1


async def test_failed_external_calls_are_counted_by_service_and_class() -> None:
    metrics = Metrics(process_metrics=False)
    attempts = [TimeoutError(), _http_error(429)]

    async def voyage_embed() -> str:
        if attempts:
            raise attempts.pop(0)
        return "vectors"

    async def no_wait(_: float) -> None:
        return None

    on_error = functools.partial(metrics.record_external_error, "Voyage AI")
    assert await call_with_resilience(voyage_embed, on_error=on_error, sleep=no_wait) == "vectors"
    assert metrics.record_external_error("Neo4j", ConnectionResetError()) is ErrorClass.API_ERROR
    s = scrape(metrics)
    errors = "manda_external_call_errors_total"
    assert value(s, errors, service="Voyage AI", error_class="timeout") == 1
    assert value(s, errors, service="Voyage AI", error_class="rate_limit") == 1
    assert value(s, errors, service="Neo4j", error_class="api_error") == 1


async def test_circuit_breaker_state_is_read_at_scrape_time() -> None:
    clock = FakeClock()
    breakers = BreakerRegistry(clock=clock)
    claude = breakers.get("Claude")
    breakers.get("Voyage AI")
    metrics = Metrics(breakers=breakers, process_metrics=False)

    async def overloaded() -> None:
        raise TimeoutError

    for _ in range(5):
        with pytest.raises(TimeoutError):
            await claude.call(overloaded)
    s = scrape(metrics)
    assert value(s, "manda_circuit_breaker_open", name="Claude") == 1
    assert value(s, "manda_circuit_breaker_open", name="Voyage AI") == 0
    assert value(s, "manda_circuit_breaker_consecutive_failures", name="Claude") == 5

    async def fine() -> str:
        return "ok"

    clock.now += 60
    await claude.call(fine)
    assert value(scrape(metrics), "manda_circuit_breaker_open", name="Claude") == 0


def test_each_metrics_object_has_its_own_registry() -> None:
    first, second = Metrics(process_metrics=False), Metrics(process_metrics=False)
    first.record_duplicate_event()
    assert value(scrape(first), "manda_duplicate_events_total") == 1
    assert value(scrape(second), "manda_duplicate_events_total") == 0
    default = prometheus_client.REGISTRY.get_sample_value("manda_duplicate_events_total")
    assert default is None  # nothing on prometheus_client's global registry


def test_process_metrics_are_included_by_default() -> None:
    body, _ = Metrics().render()
    assert b"process_cpu_seconds_total" in body or b"python_gc_objects_collected_total" in body


def _http_error(status: int) -> aiohttp.ClientResponseError:
    return aiohttp.ClientResponseError(
        request_info=None,  # type: ignore[arg-type]
        history=(),
        status=status,
        message="scripted",
    )
