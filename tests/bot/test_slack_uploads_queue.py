"""Files dropped in Slack with MANDA_INGEST_VIA_QUEUE: queued for a worker, followed in Slack."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from slackworld import SlackWorld, running_world

from bot.deps import QueueWatch
from bot.fakeslack import FakeSlack
from manda.app import Manda
from manda.config import Settings
from manda.errors import MandaError
from manda.jobs import JobService, JobStatus
from manda.models import DocumentStatus, IngestReport

BAD_PDF = b"%PDF-1.4\nthis is not really a PDF, it stops here"


@pytest.fixture
async def app(home_copy: Path) -> AsyncIterator[Manda]:
    """Manda with MANDA_INGEST_VIA_QUEUE: the deal service queues files dropped in Slack."""
    async with Manda(Settings(MANDA_HOME=home_copy, MANDA_INGEST_VIA_QUEUE=True)) as manda:
        yield manda


@pytest.fixture
async def queued_world(app: Manda, fake: FakeSlack) -> AsyncIterator[SlackWorld]:
    async with running_world(app, fake) as running:
        yield running
        await running.settle()


async def bind_lobby(world: SlackWorld) -> None:
    await world.fake.slash(world.alice, world.lobby, "/manda", "deal new falcon")
    await world.settle()


async def test_a_worker_ingests_the_upload_and_the_summary_names_every_bad_file(
    app: Manda, fake: FakeSlack, sample_rooms: dict[str, Path]
) -> None:
    good = sample_rooms["northwind"] / "Northwind_Q3_2024_Report.pdf"
    size = good.stat().st_size
    limit_mb = (size + 1000) / 1e6  # the good file fits; the one below is refused at download
    async with running_world(app, fake, max_file_mb=limit_mb) as world:
        world.bot.deps.queue_watch = QueueWatch(poll_seconds=0.02)
        world.bot.deps.progress_interval = 0.0  # every state it went through, not one a second
        await bind_lobby(world)
        stop = asyncio.Event()
        worker = asyncio.create_task(app.jobs.run_worker(stop))
        try:
            files = [
                (good.name, good.read_bytes()),
                ("broken.pdf", BAD_PDF),
                ("huge.pdf", b"%PDF-1.4\n" + b"0" * (size + 5000)),
            ]
            upload = await world.fake.upload(world.alice, world.lobby, files, text="Q3 pack")
            await world.settle()
        finally:
            stop.set()
            assert await worker == 1  # the listener ingested nothing itself: one job, run here

        [progress] = world.replies(world.lobby, upload.ts)  # one message, updated as it went
        steps = [v["text"] for v in progress.versions]
        assert steps[0].startswith("⏳ Downloading 3 files")
        assert "⏳ Queued 2 files for *falcon* as job" in steps[1]  # shown before any worker ran
        summary = progress.all_text()
        assert "✅ *falcon*: 1 document ingested, 2 skipped" in summary
        assert "`broken.pdf`: is corrupt" in summary
        assert "`huge.pdf`: it is larger than the" in summary
        documents = {d.filename: d.status for d in await app.graph.list_documents("falcon")}
        assert documents[good.name] is DocumentStatus.COMPLETED
        assert documents.get("broken.pdf") in (None, DocumentStatus.FAILED)
        assert "huge.pdf" not in documents

        [job] = await app.jobs.list_jobs("falcon")
        assert job.status is JobStatus.COMPLETED and job.requested_by == world.alice.id
        assert sorted(job.display_names.values()) == ["Northwind_Q3_2024_Report.pdf", "broken.pdf"]
        assert job.upload_dir and not Path(job.upload_dir).exists()  # cleaned up once completed


async def test_without_a_worker_the_upload_stays_queued_and_the_thread_is_told(
    queued_world: SlackWorld,
) -> None:
    world = queued_world
    world.bot.deps.queue_watch = QueueWatch(poll_seconds=0.01, unclaimed_seconds=0.05)
    world.bot.deps.progress_interval = 0.0  # every state it went through, not one a second
    await bind_lobby(world)
    upload = await world.fake.upload(world.alice, world.lobby, [("notes.txt", b"Revenue was 5M")])
    await world.settle()  # the listener stops following once it said nobody took the job

    [job] = await world.manda.jobs.list_jobs("falcon")
    assert job.status is JobStatus.PENDING and job.requested_by == world.alice.id
    [progress] = world.replies(world.lobby, upload.ts)
    steps = [v["text"] for v in progress.versions]
    assert f"⏳ Queued 1 file for *falcon* as job `{job.id}`, waiting for a worker…" in steps
    final = progress.all_text()
    assert f"No worker has taken job `{job.id}`" in final
    assert "stays queued, not lost" in final and "manda worker" in final
    assert "notes.txt" not in {d.filename for d in await world.manda.graph.list_documents("falcon")}

    assert await world.manda.jobs.run_one() is not None  # a worker started later ingests it
    assert "notes.txt" in {d.filename for d in await world.manda.graph.list_documents("falcon")}


class RefusingIngestor:
    """An `Ingestor` whose every run is refused, as a broken deal or parser would be."""

    async def ingest(
        self,
        deal_id: str,
        paths: Sequence[Path],
        *,
        display_names: dict[Path, str] | None = None,
        received: bool = False,
    ) -> IngestReport:
        raise MandaError(f"deal {deal_id} is read-only")


async def test_a_failed_job_ends_as_the_failure_message(queued_world: SlackWorld) -> None:
    world = queued_world
    world.bot.deps.queue_watch = QueueWatch(poll_seconds=0.01)
    await bind_lobby(world)
    refusing = JobService(
        queue=world.manda.job_queue,
        ingest=RefusingIngestor(),
        uploads_dir=world.manda.jobs.uploads_dir,
    )
    stop = asyncio.Event()
    worker = asyncio.create_task(refusing.run_worker(stop))
    try:
        upload = await world.fake.upload(world.alice, world.lobby, [("notes.txt", b"Revenue 5M")])
        await world.settle()
    finally:
        stop.set()
        assert await worker == 1

    [job] = await world.manda.jobs.list_jobs("falcon")
    assert job.status is JobStatus.FAILED
    [progress] = world.replies(world.lobby, upload.ts)
    final = progress.all_text()
    assert final.startswith("❌ The files could not be ingested into *falcon*")
    assert f"job {job.id}: deal falcon is read-only" in final
