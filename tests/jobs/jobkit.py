"""Helpers for the job tests: a clock, fakes.

The Redis that keeps its data across a kill is `fixtures.redis_server.RedisServer(durable=True)`
(the `durable_redis` fixture in conftest.py).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from manda.errors import BackendUnavailableError
from manda.models import IngestReport


class Clock:
    """Epoch seconds that only move when a test says so (heartbeats and delays in SQLite)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class RecordingIngest:
    """An `Ingestor` that records each batch and answers with a report naming every file.

    `fail_with` makes the next calls raise that error (a backend that is down); `hook` runs
    inside each call (a test kills Redis there, in the middle of a job).
    """

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[Path], dict[Path, str]]] = []
        self.fail_with: Exception | None = None
        self.hook: Callable[[int], object] | None = None

    async def ingest(self, deal_id: str, paths: Sequence[Path], *,
                     display_names: dict[Path, str] | None = None,
                     received: bool = False) -> IngestReport:
        self.calls.append((deal_id, list(paths), dict(display_names or {})))
        if self.hook is not None:
            result = self.hook(len(self.calls))
            if hasattr(result, "__await__"):
                await result  # type: ignore[misc]
        if self.fail_with is not None:
            raise self.fail_with
        names = [(display_names or {}).get(p, p.name) for p in paths]
        return IngestReport(deal_id=deal_id, ingested=names, findings=len(names))


def neo4j_down() -> BackendUnavailableError:
    return BackendUnavailableError(
        "Neo4j at bolt://127.0.0.1:7687 is unreachable: Connection refused;",
        hint="check NEO4J_URI/NEO4J_PASSWORD, or unset NEO4J_URI to use the embedded store.",
    )


async def wait_until(condition: Callable[[], object], *, within: float = 30.0) -> None:
    """Wait for `condition()` (a value, or an awaitable one) to hold: a state, never a duration.

    Fails the test after `within` seconds.
    """

    async def poll() -> None:
        while True:
            value = condition()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return
            await asyncio.sleep(0.02)

    try:
        await asyncio.wait_for(poll(), timeout=within)
    except TimeoutError:
        pytest.fail(f"condition still false after {within:g} s")
