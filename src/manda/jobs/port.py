"""The job queue port: Redis (`REDIS_URL`, shared by every worker) or SQLite under MANDA_HOME.

A reliable queue: a worker *claims* a job (it moves to that worker's in-flight set, nothing is
removed), and only `finish` or `retry_later` let go of it. A worker proves it is alive with a
heartbeat; `recover` gives the in-flight jobs of workers whose heartbeat lapsed back to the queue,
so a worker that dies (or loses its backend) never loses a job. Ingestion is idempotent, so a job
that runs twice after such a recovery changes nothing the second time.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, runtime_checkable

from manda.jobs.model import IngestJob


@runtime_checkable
class JobQueue(Protocol):
    name: str
    shared_across_processes: bool

    async def start(self) -> None: ...
    async def aclose(self) -> None: ...
    async def ping(self) -> None: ...

    async def submit(self, job: IngestJob) -> None:
        """Store a new pending job and queue it."""
        ...

    async def claim(self, worker: str, *, wait: float, ttl: float) -> IngestJob | None:
        """The next ready job, now running for `worker` (attempts + 1), or None after `wait`
        seconds without one. Also renews the worker's heartbeat for `ttl` seconds."""
        ...

    async def heartbeat(self, worker: str, ttl: float) -> None:
        """`worker` is alive for the next `ttl` seconds."""
        ...

    async def finish(self, worker: str, job: IngestJob) -> None:
        """Record the completed or failed job and let go of it."""
        ...

    async def retry_later(self, worker: str, job: IngestJob) -> None:
        """Record the pending job and queue it again for `job.not_before`."""
        ...

    async def recover(self, now: datetime) -> list[str]:
        """Queue again the in-flight jobs of workers whose heartbeat lapsed; their ids."""
        ...

    async def get(self, job_id: str) -> IngestJob | None: ...

    async def list_jobs(self, deal_id: str, *, limit: int = 50) -> list[IngestJob]:
        """The deal's jobs, newest first."""
        ...
