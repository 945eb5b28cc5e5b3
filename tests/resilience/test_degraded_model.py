"""Claude down (529 overloaded, timeouts, or its breaker open): the offline composer answers and
says so. The app is wired as in production, its Claude client pointed at a local Messages API."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fixtures.resilience import Clock, external_call_errors

from manda.agent.graph import UNAVAILABLE_NOTICE
from manda.app import Manda
from manda.config import Settings
from manda.jobs import JobService, JobStatus, RetryPolicy
from manda.models import DocumentStatus
from manda.resilience import BreakerRegistry, BreakerState
from manda.testing.anthropic_server import (
    FakeAnthropicServer,
    Fault,
    RecordedRequest,
    Reply,
    overloaded,
    rate_limited,
    text_reply,
    tool_reply,
)

DEAL = "targetco"
QUESTION = "What was Q3 2024 EBITDA?"
GOOD = "EBITDA was €1.1M in Q3 2024 (source: TargetCo_Q3_2024_Report.pdf, p.1)."
OFFLINE = "EBITDA was €1.1M in Q3 2024 (sources: TargetCo_Q3_2024_Report.pdf p.2"


@pytest.fixture
async def server() -> AsyncIterator[FakeAnthropicServer]:
    async with FakeAnthropicServer(api_key="test-key") as fake:
        yield fake


def settings(home: Path, server: FakeAnthropicServer, **extra: object) -> Settings:
    values: dict[str, object] = {
        "MANDA_HOME": home, "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": server.base_url, "MANDA_MODEL_MAX_RETRIES": 0,
        "MANDA_CLAUDE_MODEL": "claude-sonnet-4-6", **extra,
    }
    return Settings(**values)  # type: ignore[arg-type]


def claude_errors(app: Manda) -> dict[str, float]:
    return external_call_errors(app.metrics, "Claude")


async def test_an_overloaded_model_gives_offline_answers_then_its_breaker_opens(
    home_copy: Path,
) -> None:
    clock = Clock()
    claude_down = True

    def claude(request: RecordedRequest) -> Reply | Fault:
        return overloaded() if claude_down else text_reply(GOOD)

    async with (
        FakeAnthropicServer(api_key="test-key", handler=claude) as server,
        Manda(settings(home_copy, server), breakers=BreakerRegistry(clock=clock)) as app,
    ):
        breaker = app.breakers.get("Claude")
        for n in range(1, breaker.failure_threshold + 1):
            answer = await app.answers.ask(DEAL, QUESTION, conversation_id=f"c{n}")
            assert answer.notices == [UNAVAILABLE_NOTICE] and answer.model == "offline"
            assert answer.answer.startswith(OFFLINE) and answer.citations
            assert len(server.requests) == n
        assert breaker.state is BreakerState.OPEN
        assert claude_errors(app) == {"api_error": breaker.failure_threshold}

        refused = await app.answers.ask(DEAL, QUESTION, conversation_id="c-open")
        assert len(server.requests) == breaker.failure_threshold  # nothing sent while open
        assert refused.notices == [UNAVAILABLE_NOTICE] and refused.answer.startswith(OFFLINE)

        claude_down = False
        clock.now += breaker.reset_timeout  # a trial call is let through, succeeds, closes it
        back = await app.answers.ask(DEAL, QUESTION, conversation_id="c-back")
        assert back.answer == GOOD and back.notices == []
        assert back.model == "claude:claude-sonnet-4-6"
        assert breaker.state is BreakerState.CLOSED


async def test_a_model_that_times_out_is_answered_offline(
    home_copy: Path, server: FakeAnthropicServer
) -> None:
    server.script(text_reply(GOOD, delay=1.0))
    async with Manda(settings(home_copy, server, MANDA_MODEL_TIMEOUT=0.3)) as app:
        answer = await app.answers.ask(DEAL, QUESTION)
        assert answer.notices == [UNAVAILABLE_NOTICE] and answer.model == "offline"
        assert answer.answer.startswith(OFFLINE)
        assert claude_errors(app) == {"timeout": 1}


async def test_a_rate_limit_is_waited_out_as_the_api_asks(
    home_copy: Path, server: FakeAnthropicServer
) -> None:
    server.script(rate_limited(retry_after=0.01), rate_limited(retry_after=0.01), text_reply(GOOD))
    async with Manda(settings(home_copy, server, MANDA_MODEL_MAX_RETRIES=2)) as app:
        answer = await app.answers.ask(DEAL, QUESTION)
        assert answer.answer == GOOD and answer.notices == []
        assert len(server.requests) == 3  # the SDK's retries, honouring retry-after
        assert app.breakers.get("Claude").consecutive_failures == 0
        assert claude_errors(app) == {}


async def test_ingestion_with_claude_down_waits_in_the_queue_then_completes(
    tmp_path: Path,
) -> None:
    claude_down = True
    findings = {"findings": []}

    def claude(request: RecordedRequest) -> Reply | Fault:
        return overloaded() if claude_down else tool_reply("record_findings", findings)

    note = tmp_path / "Deal_Notes.md"
    note.write_text("# Notes\n\nRevenue for Q3 2024 was EUR 5.2 million.\n")
    clock = Clock()
    breakers = BreakerRegistry(failure_threshold=1, clock=clock)  # opens at the first failure
    async with (
        FakeAnthropicServer(api_key="test-key", handler=claude) as server,
        Manda(settings(tmp_path / "home", server), breakers=breakers) as app,
    ):
        jobs = JobService(queue=app.job_queue, ingest=app.ingest,
                          uploads_dir=tmp_path / "uploads", retry=RetryPolicy(initial=0.0))
        job = await jobs.submit("falcon", [note], requested_by="U42")
        waiting = await jobs.run_one()
        assert waiting is not None and waiting.status is JobStatus.PENDING
        assert waiting.error is not None
        assert waiting.error.startswith("Claude could not extract findings from Deal_Notes.md")
        assert [d.status for d in await app.graph.list_documents("falcon")] == [
            DocumentStatus.RUNNING]  # not marked failed: the file is fine, Claude is not

        refused = await jobs.run_one()  # the breaker is open: no request, the job waits again
        assert refused is not None and refused.status is JobStatus.PENDING
        assert "Claude (ingestion) is failing (1 error in a row)" in (refused.error or "")
        assert len(server.requests) == 1
        # ingestion has its own breaker: answers still go to Claude meanwhile
        assert app.breakers.get("Claude").consecutive_failures == 0
        assert app.breakers.get("Claude").opened_at is None

        claude_down = False
        clock.now += breakers.get("Claude").reset_timeout
        done = await jobs.run_one()
        assert done is not None and done.id == job.id and done.status is JobStatus.COMPLETED
        assert done.report is not None and done.report.ingested == ["Deal_Notes.md"]
        assert done.attempts == 3 and len(server.requests) == 2
