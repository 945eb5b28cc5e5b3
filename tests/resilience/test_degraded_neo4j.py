"""Neo4j down: a clear message saying what is wrong and what to do, and ingestion jobs kept.

`manda ask` runs against a 127.0.0.1 port where no Neo4j listens, through the real driver. For
Neo4j lost after start, the adapter's executor (its seam to the driver) accepts every statement,
then fails each one as `DriverExecutor` does when the driver reports the server unavailable.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from fixtures.resilience import external_call_errors
from neo4j.exceptions import ServiceUnavailable

from manda.agent.context import AgentContext
from manda.agent.service import AnswerService
from manda.cli import main
from manda.errors import BackendUnavailableError
from manda.ingest.extract.offline import OfflineExtractor
from manda.ingest.service import IngestService
from manda.jobs import JobService, JobStatus, RetryPolicy
from manda.jobs.sqlite import SqliteJobQueue
from manda.kg.neo4j import Neo4jKnowledgeGraph
from manda.kg.neo4j.executor import unavailable
from manda.memory.embedded import SqliteConversationMemory
from manda.observability.metrics import Metrics
from manda.resilience import BreakerRegistry, CircuitOpenError
from manda.retrieval.hybrid import HybridSearch


def closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_ask_says_what_is_wrong_and_what_to_do(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    uri = f"bolt://127.0.0.1:{closed_port()}"
    monkeypatch.setenv("NEO4J_URI", uri)
    assert main(["ask", "--deal", "targetco", "What was Q3 revenue?"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"manda ask: Neo4j at {uri} is unreachable: ")
    assert "check NEO4J_URI/NEO4J_PASSWORD, or unset NEO4J_URI to use the embedded store." in (
        captured.err)
    assert "Traceback" not in captured.err


class LosableExecutor:
    """Answers every statement (no rows) until `lose()`, then fails it like the lost server."""

    def __init__(self, uri: str) -> None:
        self.uri = uri
        self.down = False
        self.statements = 0

    def lose(self) -> None:
        self.down = True

    async def run(self, query: str, params: Mapping[str, Any], *, write: bool
                  ) -> list[dict[str, Any]]:
        if not self.down:
            return []
        self.statements += 1
        cause = ServiceUnavailable(f"Couldn't connect to {self.uri.removeprefix('bolt://')}")
        raise unavailable(self.uri, cause) from cause


@pytest.fixture
async def graph() -> AsyncIterator[tuple[Neo4jKnowledgeGraph, LosableExecutor, Metrics]]:
    uri = f"bolt://127.0.0.1:{closed_port()}"
    executor = LosableExecutor(uri)
    breakers = BreakerRegistry()
    metrics = Metrics(breakers=breakers, process_metrics=False)
    store = Neo4jKnowledgeGraph(
        uri=uri, executor=executor, breaker=breakers.get("Neo4j"),
        on_error=lambda exc: metrics.record_external_error("Neo4j", exc),
    )
    await store.start()
    executor.lose()
    yield store, executor, metrics
    await store.aclose()


def neo4j_errors(metrics: Metrics) -> float:
    return sum(external_call_errors(metrics, "Neo4j").values())


async def test_a_question_while_neo4j_is_lost_gets_a_clear_error_then_fails_fast(
    graph: tuple[Neo4jKnowledgeGraph, LosableExecutor, Metrics], tmp_path: Path
) -> None:
    store, executor, metrics = graph
    memory = SqliteConversationMemory(tmp_path / "memory.db")
    await memory.start()
    answers = AnswerService(AgentContext(
        graph=store, search=HybridSearch(graph=store, embedder=None), memory=memory))
    try:
        with pytest.raises(BackendUnavailableError) as lost:
            await answers.ask("falcon", "What was Q3 revenue?")
        assert str(lost.value).startswith("Neo4j at bolt://127.0.0.1:")
        assert "is unreachable" in str(lost.value) and "check NEO4J_URI" in str(lost.value)

        for _ in range(4):  # five failures in a row open the breaker
            with pytest.raises(BackendUnavailableError):
                await answers.ask("falcon", "What was Q3 revenue?")
        with pytest.raises(CircuitOpenError) as refused:
            await answers.ask("falcon", "What was Q3 revenue?")
        assert str(refused.value) == (
            "Neo4j is failing (5 errors in a row); not calling it for the next 60 s. Manda "
            "tries again by itself; if this lasts, `manda doctor` shows what is wrong.")
        assert neo4j_errors(metrics) == 5 and executor.statements == 5
    finally:
        await memory.aclose()


async def test_ingestion_jobs_stay_pending_while_neo4j_is_lost(
    graph: tuple[Neo4jKnowledgeGraph, LosableExecutor, Metrics], tmp_path: Path
) -> None:
    store, _, _ = graph
    queue = SqliteJobQueue(tmp_path / "jobs.db", poll_seconds=0.01)
    await queue.start()
    ingest = IngestService(graph=store, embedder=None, extractor=OfflineExtractor())
    jobs = JobService(queue=queue, ingest=ingest, uploads_dir=tmp_path / "uploads",
                      retry=RetryPolicy(initial=0.0, max_attempts=10))  # pending until the 10th
    note = tmp_path / "Deal_Notes.md"
    note.write_text("# Notes\n\nRevenue for Q3 2024 was EUR 5.2 million.\n")
    try:
        job = await jobs.submit("falcon", [note], requested_by="U42")
        outcomes = [await jobs.run_one() for _ in range(7)]  # past the breaker's threshold
        assert [o.status for o in outcomes if o] == [JobStatus.PENDING] * 7
        assert [o.attempts for o in outcomes if o] == list(range(1, 8))
        last = await jobs.status(job.id)
        assert last is not None and last.status is JobStatus.PENDING and last.attempts == 7
        assert last.error is not None and last.error.startswith("Neo4j is failing")
        assert last.paths == [str(note)] and last.requested_by == "U42"  # nothing lost
    finally:
        await queue.aclose()
