"""Ingestion as jobs: a listener submits a batch and returns at once; `manda worker` ingests it.

`JobService.submit` (files already on disk) and `submit_uploads` (bytes or files received by a
front end, stored under MANDA_HOME/uploads) queue a job; `run_worker` takes jobs until it is
stopped. A job whose backend is down (Neo4j, Voyage, Claude: `BackendUnavailableError`) goes
back to pending with a growing delay and is tried again, up to `RetryPolicy.max_attempts`
attempts, then marked failed with the last reason: never lost, never retried without end. A job
that cannot succeed by waiting (a bug, a refused request) is marked failed at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shutil
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from manda.errors import BackendUnavailableError, MandaError
from manda.jobs.model import GridTask, IngestJob, JobStatus
from manda.jobs.port import JobQueue
from manda.jobs.waiting import until_available
from manda.models import IngestReport, utcnow
from manda.observability.logging import log_context
from manda.private import private_dir

if TYPE_CHECKING:
    from manda.observability.metrics import Metrics

log = logging.getLogger(__name__)

T = TypeVar("T")

Upload = tuple[str, bytes | Path]
"""A file received by a front end: the name a person knows it by, and its bytes or a local copy."""


class Ingestor(Protocol):
    """What a job runs: `manda.ingest.service.IngestService.ingest`."""

    def ingest(
        self,
        deal_id: str,
        paths: Sequence[Path],
        *,
        display_names: dict[Path, str] | None = None,
        received: bool = False,
    ) -> Awaitable[IngestReport]: ...


GridWork = Callable[[str, str, str], Awaitable[int]]
"""What a grid job runs: `manda.grid.service.GridService.read_document(deal, run, document)`."""


@dataclass(frozen=True)
class RetryPolicy:
    """When a job whose backend was down is tried again, and when it is given up.

    Attempt n waits `initial`·2ⁿ⁻¹ seconds (at most `maximum`) before attempt n + 1; after
    `max_attempts` attempts the job is `failed` with the last reason. Every attempt counts, also
    one whose worker stopped answering, so no job is retried without end.
    """

    initial: float = 5.0
    maximum: float = 300.0
    max_attempts: int = 6

    def __post_init__(self) -> None:
        if self.max_attempts < 1 or self.initial < 0 or self.maximum < self.initial:
            raise ValueError("max_attempts must be >= 1 and 0 <= initial <= maximum")

    def delay(self, attempts: int) -> float:
        return min(self.maximum, self.initial * 2 ** max(0, attempts - 1))

    def gives_up(self, attempts: int) -> bool:
        """Whether a job that failed its `attempts`-th attempt is not tried again."""
        return attempts >= self.max_attempts

    def next_try(self, job: IngestJob, error: str, now: datetime) -> IngestJob:
        """`job` after a failed attempt: pending again after its delay, or failed for good."""
        if self.gives_up(job.attempts):
            return job.failed(self.given_up(job.attempts, error), now)
        return job.retry_later(error, now + timedelta(seconds=self.delay(job.attempts)), now)

    @staticmethod
    def given_up(attempts: int, error: str) -> str:
        tries = f"{attempts} attempt{'s' if attempts != 1 else ''}"
        return (f"gave up after {tries}: {error} Queue the files again once that is fixed "
                "(`manda jobs --deal D --submit PATH...`, or drop them in the channel again).")


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class JobService:
    """Submit ingestion jobs, look them up, and run a worker that takes them from the queue."""

    def __init__(
        self,
        *,
        queue: JobQueue,
        ingest: Ingestor,
        uploads_dir: Path,
        retry: RetryPolicy | None = None,
        heartbeat_seconds: float = 30.0,
        claim_wait: float = 1.0,
        recover_every: float = 60.0,
        worker_id: str | None = None,
        metrics: Metrics | None = None,
        clock: Callable[[], datetime] = utcnow,
        grid: GridWork | None = None,
    ) -> None:
        """`grid` reads a review grid's document (jobs of `submit_grid`)."""
        self.queue = queue
        self._ingest = ingest
        self._grid = grid
        self.uploads_dir = uploads_dir
        self.retry = retry or RetryPolicy()
        self.heartbeat_seconds = heartbeat_seconds
        self.claim_wait = claim_wait
        self.recover_every = recover_every
        self.worker_id = worker_id or worker_name()
        self._metrics = metrics
        self._clock = clock

    # ---------------------------------------------------------------- submitting

    async def submit(
        self,
        deal_id: str,
        paths: Sequence[Path | str],
        *,
        requested_by: str = "",
        display_names: Mapping[Path | str, str] | None = None,
    ) -> IngestJob:
        """Queue the files (or folders) at `paths` for ingestion into `deal_id`."""
        _check(deal_id, paths)
        now = self._clock()
        job = IngestJob(
            id=IngestJob.new_id(),
            deal_id=deal_id,
            paths=[str(Path(p).expanduser().absolute()) for p in paths],
            display_names={
                str(Path(p).expanduser().absolute()): name
                for p, name in (display_names or {}).items()
            },
            requested_by=requested_by,
            created_at=now,
            updated_at=now,
        )
        await self.queue.submit(job)
        log.info("queued job %s: %d path(s) for deal %s by %s", job.id, len(job.paths), deal_id,
                 requested_by or "someone")
        return job

    async def submit_uploads(
        self, deal_id: str, files: Sequence[Upload], *, requested_by: str = ""
    ) -> IngestJob:
        """Store received files under MANDA_HOME/uploads/<job id>/ and queue them, keeping the
        names people know them by. The folder is removed once the job completed."""
        _check(deal_id, files)
        job_id = IngestJob.new_id()
        folder = self.uploads_dir / job_id
        stored = await asyncio.to_thread(_store, folder, files)
        now = self._clock()
        job = IngestJob(
            id=job_id,
            deal_id=deal_id,
            paths=[str(path) for path, _ in stored],
            display_names={str(path): name for path, name in stored},
            upload_dir=str(folder),
            requested_by=requested_by,
            created_at=now,
            updated_at=now,
        )
        try:
            await self.queue.submit(job)
        except BaseException:
            await asyncio.to_thread(shutil.rmtree, folder, True)
            raise
        log.info("queued job %s: %d upload(s) for deal %s by %s", job.id, len(stored), deal_id,
                 requested_by or "someone")
        return job

    async def submit_grid(self, deal_id: str, run_id: str, documents: Mapping[str, str], *,
                          requested_by: str = "") -> dict[str, str]:
        """Queue one job per document of a review grid (`{document id: name}`); their job ids
        by document id. A worker that stops mid-grid leaves the rest queued."""
        now = self._clock()
        jobs: dict[str, str] = {}
        for document_id, name in documents.items():
            job = IngestJob(id=IngestJob.new_id(), deal_id=deal_id, paths=[],
                            requested_by=requested_by, created_at=now, updated_at=now,
                            grid=GridTask(run_id=run_id, document_id=document_id,
                                          document=name))
            await self.queue.submit(job)
            jobs[document_id] = job.id
        log.info("queued %d grid job(s) of %s for deal %s", len(jobs), run_id, deal_id)
        return jobs

    # ---------------------------------------------------------------- looking up

    async def status(self, job_id: str) -> IngestJob | None:
        return await self.queue.get(job_id)

    async def list_jobs(self, deal_id: str, *, limit: int = 50) -> list[IngestJob]:
        return await self.queue.list_jobs(deal_id, limit=limit)

    # ---------------------------------------------------------------- the worker

    async def run_worker(self, stop: asyncio.Event, *, once: bool = False) -> int:
        """Take and run jobs until `stop` is set (with `once`: until none is ready); the number
        of jobs run. An outage of the queue itself is waited out; a job already taken when the
        worker stops stays claimed and is queued again by the next worker that starts."""
        log.info("worker %s started on the %s job queue", self.worker_id, self.queue.name)
        processed = 0
        heart = asyncio.create_task(self._keep_alive(stop), name=f"heartbeat {self.worker_id}")
        try:
            await self._recover(stop)
            next_sweep = time.monotonic() + self.recover_every
            while not stop.is_set():
                if time.monotonic() >= next_sweep:
                    await self._recover(stop)
                    next_sweep = time.monotonic() + self.recover_every
                job = await until_available(
                    lambda: self.queue.claim(
                        self.worker_id,
                        wait=0.0 if once else self.claim_wait,
                        ttl=self.heartbeat_seconds,
                    ),
                    stop,
                    doing="taking the next job",
                )
                if job is None:
                    if once:
                        break
                    continue
                await self._run(job, stop)
                processed += 1
        except BackendUnavailableError as exc:  # asked to stop while the queue was down
            log.warning("worker %s stopped while the job queue was unavailable: %s",
                        self.worker_id, exc)
        finally:
            heart.cancel()
            await asyncio.gather(heart, return_exceptions=True)
        log.info("worker %s stopped after %d job(s)", self.worker_id, processed)
        return processed

    async def run_one(self) -> IngestJob | None:
        """Run the next ready job, if any (for tests and scripts); its final record."""
        job = await self.queue.claim(self.worker_id, wait=0.0, ttl=self.heartbeat_seconds)
        if job is None:
            return None
        once = asyncio.Event()
        once.set()  # record the outcome with one attempt; a failure leaves the job claimed
        return await self._run(job, once)

    async def _recover(self, stop: asyncio.Event) -> list[str]:
        return await until_available(
            lambda: self.queue.recover(self._clock()), stop, doing="recovering stale jobs"
        )

    async def _keep_alive(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self.queue.heartbeat(self.worker_id, self.heartbeat_seconds)
            except BackendUnavailableError as exc:
                log.debug("heartbeat of worker %s not recorded: %s", self.worker_id, exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=self.heartbeat_seconds / 3)

    async def _run(self, job: IngestJob, stop: asyncio.Event) -> IngestJob:
        with log_context(job_id=job.id, deal_id=job.deal_id):
            log.info("running job %s (attempt %d): %d path(s)", job.id, job.attempts,
                     len(job.paths))
            if job.attempts > self.retry.max_attempts:  # its workers kept dying on it
                done = job.failed(self.retry.given_up(
                    job.attempts - 1, f"{job.error or 'its worker stopped answering'}."),
                    self._clock())
            elif job.grid is not None:
                done = await self._grid_job(job)
            else:
                done = await self._ingest_job(job)
            try:
                if done.status is JobStatus.PENDING:
                    await until_available(lambda: self.queue.retry_later(self.worker_id, done),
                                          stop, doing=f"queueing job {job.id} again")
                else:
                    await until_available(lambda: self.queue.finish(self.worker_id, done),
                                          stop, doing=f"recording job {job.id}")
            except BackendUnavailableError:
                log.warning("job %s could not be recorded before the worker stopped; it stays "
                            "claimed and runs again after recovery", job.id)
                return done
            if done.status is JobStatus.COMPLETED and done.upload_dir:
                await asyncio.to_thread(shutil.rmtree, done.upload_dir, True)
            self._count(done)
            return done

    async def _ingest_job(self, job: IngestJob) -> IngestJob:
        names = {Path(path): name for path, name in job.display_names.items()}
        report = await self._attempt(job, self._ingest.ingest(
            job.deal_id,
            [Path(p) for p in job.paths],
            display_names=names or None,
            received=bool(job.upload_dir),  # files a person dropped, not a folder on disk
        ))
        if isinstance(report, IngestJob):
            return report
        log.info("job %s completed: %d ingested, %d unchanged, %d skipped", job.id,
                 len(report.ingested), len(report.unchanged), len(report.skipped))
        return job.completed(report, self._clock())

    async def _grid_job(self, job: IngestJob) -> IngestJob:
        assert job.grid is not None
        if self._grid is None:
            return job.failed("this worker does not read review grids (built without them)",
                              self._clock())
        read = await self._attempt(job, self._grid(job.deal_id, job.grid.run_id,
                                                   job.grid.document_id))
        if isinstance(read, IngestJob):
            return read
        log.info("grid job %s: %d cell(s) read of %s", job.id, read, job.grid.document_id)
        return job.completed(IngestReport(deal_id=job.deal_id), self._clock())

    async def _attempt(self, job: IngestJob, work: Awaitable[T]) -> T | IngestJob:
        """What `work` returns, or the job as it stands after it failed: pending again when
        its backend was down (until the retry policy gives up), failed otherwise."""
        try:
            return await work
        except BackendUnavailableError as exc:
            later = self.retry.next_try(job, str(exc), self._clock())
            if later.status is JobStatus.FAILED:
                log.warning("job %s failed after %d attempts: %s", job.id, job.attempts, exc)
            else:
                log.warning("job %s: %s; back to pending, tried again in %.0f s (attempt %d)",
                            job.id, exc, self.retry.delay(job.attempts), job.attempts)
            return later
        except MandaError as exc:
            log.warning("job %s failed: %s", job.id, exc)
            return job.failed(str(exc), self._clock())
        except Exception as exc:  # a bug: say so, keep the worker alive
            log.exception("job %s failed unexpectedly", job.id)
            return job.failed(
                f"could not be processed ({type(exc).__name__}: {exc}); the worker's log has "
                "the details",
                self._clock(),
            )

    def _count(self, job: IngestJob) -> None:
        if self._metrics is None or job.report is None:
            return
        report = job.report
        for outcome, count in (("ingested", len(report.ingested)),
                               ("unchanged", len(report.unchanged)),
                               ("skipped", len(report.skipped))):
            if count:
                self._metrics.record_ingest_file(outcome, count)


def _check(deal_id: str, items: Sequence[object]) -> None:
    if not deal_id.strip():
        raise MandaError("An ingestion job needs a deal id.",
                         hint="Name the deal, e.g. `manda jobs --deal falcon --submit PATH...`.")
    if not items:
        raise MandaError(f"No files to ingest into deal {deal_id}.",
                         hint="Give at least one file or folder.")


_UNSAFE = re.compile(r"[^\w.\- ()]+")


def _store(folder: Path, files: Sequence[Upload]) -> list[tuple[Path, str]]:
    """Write each upload under `folder`, numbered so equal names never collide."""
    private_dir(folder.parent)
    folder.mkdir(mode=0o700, exist_ok=False)
    stored: list[tuple[Path, str]] = []
    try:
        for index, (name, content) in enumerate(files, start=1):
            shown = Path(name).name or f"file-{index}"
            target = folder / f"{index:03d}-{_UNSAFE.sub('_', shown)[:150]}"
            if isinstance(content, Path):
                shutil.copyfile(content, target)
            else:
                target.write_bytes(content)
            stored.append((target, shown))
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return stored
