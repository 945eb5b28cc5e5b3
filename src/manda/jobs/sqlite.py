"""The job queue in a SQLite file under MANDA_HOME, for one machine without Redis.

Same contract as the Redis queue: a claim marks the job running for one worker inside one
`BEGIN IMMEDIATE` transaction (so two processes never take the same job), and `recover` gives
the running jobs of workers whose heartbeat lapsed back to the queue. There is no blocking pop:
`claim` polls, and is woken at once by a job submitted in the same process.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from manda.jobs.model import IngestJob, JobStatus
from manda.models import utcnow
from manda.sqlite_thread import SqliteThread

T = TypeVar("T")

FILENAME = "jobs.db"
POLL_SECONDS = 0.5
DEFAULT_FINISHED_TTL = 30 * 24 * 3600
WORKER_LOST = "the worker running it stopped answering; queued again"
NOT_STARTED = "SqliteJobQueue is not started; call `await start()` first"

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    deal_id TEXT NOT NULL,
    status TEXT NOT NULL,
    worker TEXT,
    ready_at REAL NOT NULL,
    created_at REAL NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_ready ON jobs (status, ready_at, created_at);
CREATE INDEX IF NOT EXISTS jobs_deal ON jobs (deal_id, created_at);
CREATE TABLE IF NOT EXISTS workers (
    id TEXT PRIMARY KEY,
    alive_until REAL NOT NULL
);
"""


class SqliteJobQueue:
    """`JobQueue` in one WAL-mode SQLite file; every statement runs on one private thread."""

    name = "embedded"
    shared_across_processes = True  # several processes on one machine share the file

    def __init__(
        self,
        path: Path,
        *,
        poll_seconds: float = POLL_SECONDS,
        finished_ttl: int = DEFAULT_FINISHED_TTL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Finished jobs are deleted `finished_ttl` seconds after they ended."""
        self.path = path
        self.finished_ttl = finished_ttl
        self._poll = poll_seconds
        self._clock = clock
        self._sqlite = SqliteThread(
            path,
            SCHEMA,
            what="The job queue",
            hint="Check that MANDA_HOME is writable and has free space.",
            thread_name="manda-jobs",
            not_started=NOT_STARTED,
        )
        self._conn = self._sqlite.conn
        self._submitted = asyncio.Event()

    async def start(self) -> None:
        await self._sqlite.start("opening the job queue")

    async def aclose(self) -> None:
        await self._sqlite.aclose()

    async def ping(self) -> None:
        await self._run("checking the job queue", lambda: self._conn().execute("SELECT 1"))

    async def submit(self, job: IngestJob) -> None:
        """Queue `job` once: a job id already known (a repeated submission) changes nothing."""
        await self._run(f"queueing job {job.id}", self._insert, job)
        self._submitted.set()

    async def claim(self, worker: str, *, wait: float, ttl: float) -> IngestJob | None:
        deadline = time.monotonic() + max(0.0, wait)
        while True:
            self._submitted.clear()
            job = await self._run("taking the next job", self._claim, worker, ttl)
            left = deadline - time.monotonic()
            if job is not None or left <= 0:
                return job
            with contextlib.suppress(TimeoutError):  # another process may submit: poll too
                await asyncio.wait_for(self._submitted.wait(), timeout=min(left, self._poll))

    async def heartbeat(self, worker: str, ttl: float) -> None:
        await self._run("renewing the worker's heartbeat", self._beat, worker, ttl)

    async def finish(self, worker: str, job: IngestJob) -> None:
        await self._run(f"recording job {job.id} as {job.status.value}", self._write, job)

    async def retry_later(self, worker: str, job: IngestJob) -> None:
        await self._run(f"queueing job {job.id} again", self._write, job)

    async def recover(self, now: datetime) -> list[str]:
        return await self._run("recovering the jobs of stopped workers", self._recover, now)

    async def get(self, job_id: str) -> IngestJob | None:
        query = "SELECT body FROM jobs WHERE id = ?"
        row = await self._run(
            f"reading job {job_id}", lambda: self._conn().execute(query, (job_id,)).fetchone()
        )
        return IngestJob.model_validate_json(row[0]) if row is not None else None

    async def list_jobs(self, deal_id: str, *, limit: int = 50) -> list[IngestJob]:
        rows = await self._run(
            f"listing the jobs of deal {deal_id}",
            lambda: self._conn().execute(
                "SELECT body FROM jobs WHERE deal_id = ? ORDER BY created_at DESC, id DESC "
                "LIMIT ?",
                (deal_id, limit),
            ).fetchall(),
        )
        return [IngestJob.model_validate_json(row[0]) for row in rows]

    # -- on the queue's thread -------------------------------------------------------------

    async def _run(self, doing: str, fn: Callable[..., T], *args: object) -> T:
        return await self._sqlite.run(doing, fn, *args)

    def _write(self, job: IngestJob) -> None:
        ready = job.not_before.timestamp() if job.not_before is not None else 0.0
        self._conn().execute(
            "INSERT INTO jobs (id, deal_id, status, worker, ready_at, created_at, body) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status, "
            "worker = excluded.worker, ready_at = excluded.ready_at, body = excluded.body",
            (job.id, job.deal_id, job.status.value, job.worker, ready,
             job.created_at.timestamp(), job.model_dump_json()),
        )

    def _insert(self, job: IngestJob) -> None:
        ready = job.not_before.timestamp() if job.not_before is not None else 0.0
        self._conn().execute(
            "INSERT INTO jobs (id, deal_id, status, worker, ready_at, created_at, body) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
            (job.id, job.deal_id, job.status.value, job.worker, ready,
             job.created_at.timestamp(), job.model_dump_json()),
        )

    def _beat(self, worker: str, ttl: float) -> None:
        self._conn().execute(
            "INSERT INTO workers (id, alive_until) VALUES (?, ?) "
            "ON CONFLICT (id) DO UPDATE SET alive_until = excluded.alive_until",
            (worker, self._clock() + ttl),
        )

    def _claim(self, worker: str, ttl: float) -> IngestJob | None:
        db = self._conn()
        self._beat(worker, ttl)
        db.execute("BEGIN IMMEDIATE")  # the write lock first: no other process claims meanwhile
        try:
            row = db.execute(
                "SELECT body FROM jobs WHERE status = ? AND ready_at <= ? "
                "ORDER BY created_at, id LIMIT 1",
                (JobStatus.PENDING.value, self._clock()),
            ).fetchone()
            job = None
            if row is not None:
                job = IngestJob.model_validate_json(row[0]).claimed(worker, utcnow())
                self._write(job)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return job

    def _expire(self, db: sqlite3.Connection) -> None:
        """Forget finished jobs `finished_ttl` seconds after they ended."""
        cutoff = datetime.fromtimestamp(self._clock() - self.finished_ttl, UTC)
        rows = db.execute(
            "SELECT id, body FROM jobs WHERE status IN (?, ?)",
            (JobStatus.COMPLETED.value, JobStatus.FAILED.value),
        ).fetchall()
        old = [job_id for job_id, body in rows
               if (ended := IngestJob.model_validate_json(body).finished_at) is not None
               and ended < cutoff]
        db.executemany("DELETE FROM jobs WHERE id = ?", [(job_id,) for job_id in old])

    def _recover(self, now: datetime) -> list[str]:
        db = self._conn()
        db.execute("BEGIN IMMEDIATE")
        try:
            rows = db.execute(
                "SELECT body FROM jobs WHERE status = ? AND (worker IS NULL OR worker NOT IN "
                "(SELECT id FROM workers WHERE alive_until > ?))",
                (JobStatus.RUNNING.value, self._clock()),
            ).fetchall()
            recovered = []
            for (body,) in rows:
                job = IngestJob.model_validate_json(body).requeued(WORKER_LOST, now)
                self._write(job)
                recovered.append(job.id)
            db.execute("DELETE FROM workers WHERE alive_until <= ?", (self._clock(),))
            self._expire(db)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return recovered
