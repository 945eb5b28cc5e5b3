"""Ingestion jobs end to end: submitted, taken by a worker, retried while a backend is down."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jobkit import RecordingIngest, neo4j_down

from manda.app import Manda
from manda.cli import main
from manda.config import Settings
from manda.errors import MandaError
from manda.jobs import IngestJob, JobService, JobStatus, RetryPolicy
from manda.jobs.sqlite import SqliteJobQueue
from manda.llm.port import ModelRequestError
from manda.models import utcnow

NOTE = "# Deal notes\n\nRevenue for Q3 2024 was EUR 5.2 million.\n"
MEMO = "# Memo\n\nHeadcount was 180 employees as of 30 September 2024.\n"


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Manda]:
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as manda:
        yield manda


@pytest.fixture
async def queue(tmp_path: Path) -> AsyncIterator[SqliteJobQueue]:
    store = SqliteJobQueue(tmp_path / "jobs.db", poll_seconds=0.01)
    await store.start()
    yield store
    await store.aclose()


def service(queue: SqliteJobQueue, ingest: RecordingIngest, tmp_path: Path,
            **kwargs: object) -> JobService:
    return JobService(queue=queue, ingest=ingest, uploads_dir=tmp_path / "uploads",
                      claim_wait=0.01, **kwargs)  # type: ignore[arg-type]


def files(folder: Path) -> list[Path]:
    folder.mkdir(exist_ok=True)
    (folder / "Deal_Notes.md").write_text(NOTE)
    (folder / "Memo.md").write_text(MEMO)
    return [folder / "Deal_Notes.md", folder / "Memo.md"]


async def test_a_submitted_batch_is_ingested_by_the_worker(app: Manda, tmp_path: Path) -> None:
    paths = files(tmp_path / "room")
    job = await app.jobs.submit("falcon", paths, requested_by="U42")
    assert job.status is JobStatus.PENDING and job.paths == [str(p) for p in paths]
    assert await app.graph.get_deal("falcon") is None  # nothing happens until a worker runs

    assert await app.jobs.run_worker(asyncio.Event(), once=True) == 1
    done = await app.jobs.status(job.id)
    assert done is not None and done.status is JobStatus.COMPLETED and done.attempts == 1
    assert done.report is not None and done.report.ingested == ["Deal_Notes.md", "Memo.md"]
    assert done.requested_by == "U42" and done.finished_at is not None
    docs = await app.graph.list_documents("falcon")
    assert sorted(d.filename for d in docs) == ["Deal_Notes.md", "Memo.md"]

    again = await app.jobs.submit("falcon", paths)
    await app.jobs.run_worker(asyncio.Event(), once=True)
    second = await app.jobs.status(again.id)
    assert second is not None and second.report is not None
    assert second.report.ingested == [] and second.report.unchanged == ["Deal_Notes.md", "Memo.md"]
    assert [j.id for j in await app.jobs.list_jobs("falcon")] == [again.id, job.id]


async def test_uploads_are_kept_under_the_home_with_their_names(
    app: Manda, tmp_path: Path
) -> None:
    received = tmp_path / "slack-download.bin"
    received.write_text(MEMO)
    job = await app.jobs.submit_uploads(
        "falcon", [("Deal Notes (v2).md", NOTE.encode()), ("Memo.md", received)],
        requested_by="U42")
    folder = app.settings.home_dir / "uploads" / job.id
    assert job.upload_dir == str(folder)
    assert sorted(p.name for p in folder.iterdir()) == ["001-Deal Notes (v2).md", "002-Memo.md"]
    assert sorted(job.display_names.values()) == ["Deal Notes (v2).md", "Memo.md"]

    await app.jobs.run_worker(asyncio.Event(), once=True)
    done = await app.jobs.status(job.id)
    assert done is not None and done.report is not None
    assert done.report.ingested == ["Deal Notes (v2).md", "Memo.md"]
    assert not folder.exists()  # ingested: the copies are no longer needed


async def test_a_job_whose_backend_is_down_waits_and_is_not_lost(
    queue: SqliteJobQueue, tmp_path: Path
) -> None:
    ingest = RecordingIngest()
    ingest.fail_with = neo4j_down()
    jobs = service(queue, ingest, tmp_path, retry=RetryPolicy(initial=0.0))
    job = await jobs.submit("falcon", [tmp_path / "Q3_Report.pdf"], requested_by="U42")

    first = await jobs.run_one()
    assert first is not None and first.status is JobStatus.PENDING and first.attempts == 1
    assert first.error is not None and first.error.startswith("Neo4j at bolt://127.0.0.1:7687 is")
    assert "check NEO4J_URI" in first.error
    stored = await jobs.status(job.id)
    assert stored is not None and stored.status is JobStatus.PENDING
    assert "waiting to be retried" in stored.summary()

    second = await jobs.run_one()  # still down: attempts keep counting, the job stays
    assert second is not None and second.status is JobStatus.PENDING and second.attempts == 2

    ingest.fail_with = None  # Neo4j is back
    third = await jobs.run_one()
    assert third is not None and third.status is JobStatus.COMPLETED and third.attempts == 3
    assert third.error is None and third.report is not None
    assert len(ingest.calls) == 3 and await jobs.run_one() is None


async def test_a_job_held_back_is_not_taken_before_its_time(
    queue: SqliteJobQueue, tmp_path: Path
) -> None:
    ingest = RecordingIngest()
    ingest.fail_with = neo4j_down()
    jobs = service(queue, ingest, tmp_path)  # the default policy: 5 s, then 10 s...
    await jobs.submit("falcon", [tmp_path / "a.pdf"])
    back = await jobs.run_one()
    assert back is not None and back.not_before is not None and back.started_at is not None
    assert (back.not_before - back.updated_at).total_seconds() == pytest.approx(5.0)
    assert await jobs.run_one() is None


def test_the_delay_grows_and_has_a_ceiling() -> None:
    policy = RetryPolicy()
    assert [policy.delay(n) for n in range(1, 10)] == [5, 10, 20, 40, 80, 160, 300, 300, 300]


async def test_a_job_that_cannot_succeed_fails_with_its_reason_and_the_worker_goes_on(
    queue: SqliteJobQueue, tmp_path: Path
) -> None:
    ingest = RecordingIngest()

    def fault(call: int) -> None:
        if call == 1:
            raise ModelRequestError("Claude rejected the extraction request (HTTP 401).",
                                    hint="Check ANTHROPIC_API_KEY.")
        if call == 2:
            raise KeyError("sheet")

    ingest.hook = fault
    jobs = service(queue, ingest, tmp_path)
    refused = await jobs.submit("falcon", [tmp_path / "a.pdf"])
    buggy = await jobs.submit("falcon", [tmp_path / "b.pdf"])
    fine = await jobs.submit("falcon", [tmp_path / "c.pdf"])

    assert await jobs.run_worker(asyncio.Event(), once=True) == 3
    statuses = {j.id: j for j in await jobs.list_jobs("falcon")}
    assert statuses[refused.id].status is JobStatus.FAILED
    assert statuses[refused.id].error == (
        "Claude rejected the extraction request (HTTP 401). Check ANTHROPIC_API_KEY.")
    assert statuses[buggy.id].status is JobStatus.FAILED
    assert statuses[buggy.id].error == (
        "could not be processed (KeyError: 'sheet'); the worker's log has the details")
    assert statuses[fine.id].status is JobStatus.COMPLETED


async def test_a_worker_stops_when_asked(queue: SqliteJobQueue, tmp_path: Path) -> None:
    jobs = service(queue, RecordingIngest(), tmp_path)
    stop = asyncio.Event()
    worker = asyncio.create_task(jobs.run_worker(stop))
    await jobs.submit("falcon", [tmp_path / "a.pdf"])
    while not (listed := await jobs.list_jobs("falcon")) or not listed[0].done:
        await asyncio.sleep(0.01)
    stop.set()
    assert await asyncio.wait_for(worker, timeout=10) == 1


async def test_an_empty_submission_is_refused(queue: SqliteJobQueue, tmp_path: Path) -> None:
    jobs = service(queue, RecordingIngest(), tmp_path)
    with pytest.raises(MandaError, match="No files to ingest into deal falcon"):
        await jobs.submit("falcon", [])
    with pytest.raises(MandaError, match="needs a deal id"):
        await jobs.submit(" ", [tmp_path / "a.pdf"])
    assert await jobs.list_jobs("falcon") == []


def test_the_command_line_queues_runs_and_lists_jobs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = files(tmp_path / "room")
    assert main(["jobs", "--deal", "falcon", "--submit", *map(str, paths), "--by", "ana"]) == 0
    assert "`manda worker` ingests it" in capsys.readouterr().out

    assert main(["jobs", "--deal", "falcon", "--json"]) == 0
    [pending] = json.loads(capsys.readouterr().out)
    assert pending["status"] == "pending" and pending["requested_by"] == "ana"

    assert main(["worker", "--once"]) == 0
    assert "worker stopped after 1 job(s)" in capsys.readouterr().err

    assert main(["jobs", "--deal", "falcon", "--json"]) == 0
    [done] = json.loads(capsys.readouterr().out)
    assert done["status"] == "completed" and done["attempts"] == 1
    assert done["report"]["ingested"] == ["Deal_Notes.md", "Memo.md"]
    assert set(done) >= {"id", "deal_id", "paths", "status", "attempts", "report", "error",
                         "created_at", "updated_at", "started_at", "finished_at", "not_before"}

    assert main(["jobs", "--deal", "heron"]) == 0
    assert "No ingestion jobs for deal heron" in capsys.readouterr().out


# --- jobs with an end ------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(initial=st.floats(0, 60), extra=st.floats(0, 3600), max_attempts=st.integers(1, 30),
       errors=st.lists(st.text(min_size=1, max_size=20), min_size=1, max_size=60))
def test_no_job_is_retried_without_end(initial: float, extra: float, max_attempts: int,
                                       errors: list[str]) -> None:
    """Whatever keeps failing, a job is failed after `max_attempts` attempts, never later; each
    wait is no shorter than the one before and never longer than the ceiling."""
    policy = RetryPolicy(initial=initial, maximum=initial + extra, max_attempts=max_attempts)
    now = utcnow()
    job = IngestJob(id="job-1", deal_id="falcon", paths=["/a.pdf"])
    waits: list[float] = []
    for error in itertools.cycle(errors):
        job = job.claimed("w1", now)
        assert job.attempts <= max_attempts
        job = policy.next_try(job, error, now)
        if job.status is JobStatus.FAILED:
            assert job.attempts == max_attempts
            assert job.error is not None and error in job.error and "gave up" in job.error
            break
        assert job.status is JobStatus.PENDING and job.not_before is not None
        waits.append((job.not_before - now).total_seconds())
    assert len(waits) == max_attempts - 1
    assert waits == sorted(waits) and all(w <= policy.maximum + 1e-6 for w in waits)


async def test_a_job_whose_backend_stays_down_fails_with_the_reason_in_manda_jobs(
    queue: SqliteJobQueue, tmp_path: Path
) -> None:
    ingest = RecordingIngest()
    ingest.fail_with = neo4j_down()
    jobs = service(queue, ingest, tmp_path, retry=RetryPolicy(initial=0.0, max_attempts=3))
    job = await jobs.submit("falcon", [tmp_path / "a.pdf"], requested_by="U42")
    outcomes = [await jobs.run_one() for _ in range(4)]
    assert [o.status if o else None for o in outcomes] == [
        JobStatus.PENDING, JobStatus.PENDING, JobStatus.FAILED, None]
    failed = await jobs.status(job.id)
    assert failed is not None and failed.attempts == 3 and len(ingest.calls) == 3
    assert failed.error is not None and failed.error.startswith("gave up after 3 attempts: Neo4j")
    assert "failed — gave up after 3 attempts" in failed.summary()  # what `manda jobs` shows


async def test_a_job_its_workers_keep_dying_on_is_failed_not_run_again(
    queue: SqliteJobQueue, tmp_path: Path
) -> None:
    ingest = RecordingIngest()
    jobs = service(queue, ingest, tmp_path, retry=RetryPolicy(max_attempts=2))
    job = await jobs.submit("falcon", [tmp_path / "a.pdf"])
    for n in range(2):  # taken, then its worker vanished, twice
        taken = await queue.claim(f"dead-{n}", wait=0, ttl=0.001)
        assert taken is not None
        await asyncio.sleep(0.01)
        assert await queue.recover(utcnow()) == [job.id]
    done = await jobs.run_one()
    assert done is not None and done.status is JobStatus.FAILED and ingest.calls == []
    assert done.error is not None and "gave up after 2 attempts" in done.error
