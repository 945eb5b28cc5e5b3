"""Job commands: `manda worker` takes ingestion jobs from the queue; `manda jobs` lists a deal's."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from manda.cli._common import print_json, running
from manda.config import Settings
from manda.jobs.model import IngestJob, JobStatus

out = Console()
err = Console(stderr=True)

_STYLE = {
    JobStatus.PENDING: "yellow",
    JobStatus.RUNNING: "cyan",
    JobStatus.COMPLETED: "green",
    JobStatus.FAILED: "red",
}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "worker", help="take ingestion jobs from the queue (Redis with REDIS_URL, else SQLite)"
    )
    p.add_argument("--once", action="store_true", help="run the jobs ready now, then exit")
    p.set_defaults(handler=worker)

    p = sub.add_parser("jobs", help="a deal's ingestion jobs, or queue new ones with --submit")
    p.add_argument("--deal", required=True)
    p.add_argument(
        "--submit", nargs="+", type=Path, metavar="PATH",
        help="queue these files or folders (the worker must be able to read them)",
    )
    p.add_argument("--by", default="", help="who asks (kept with the job)")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=jobs)


def job_json(job: IngestJob) -> dict[str, Any]:
    """The stable `manda jobs --json` shape of one job."""
    return job.model_dump(mode="json", exclude={"worker", "upload_dir"})


async def worker(args: argparse.Namespace, settings: Settings) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
            loop.add_signal_handler(sig, stop.set)
    async with running(settings) as app:
        queue = next(c for c in app.choices if c.port == "jobs")
        err.print(f"worker {app.jobs.worker_id}: {queue.adapter} queue ({queue.reason})")
        count = await app.jobs.run_worker(stop, once=args.once)
    err.print(f"worker stopped after {count} job(s)")
    return 0


async def jobs(args: argparse.Namespace, settings: Settings) -> int:
    async with running(settings) as app:
        if args.submit:
            job = await app.jobs.submit(args.deal, args.submit, requested_by=args.by)
            if args.json:
                print_json(job_json(job))
            else:
                out.print(f"queued [bold]{job.id}[/] for deal {job.deal_id}: "
                          f"{len(job.paths)} path(s); `manda worker` ingests it")
            return 0
        listed = await app.jobs.list_jobs(args.deal, limit=args.limit)
    if args.json:
        print_json([job_json(j) for j in listed])
        return 0
    if not listed:
        out.print(f"No ingestion jobs for deal {args.deal}. Queue one with "
                  f"`manda jobs --deal {args.deal} --submit PATH...`.")
        return 0
    table = Table("job", "status", "requested by", "attempts", "created (UTC)", "what happened")
    for job in listed:
        style = _STYLE[job.status]
        table.add_row(job.id, f"[{style}]{job.status.value}[/]", job.requested_by or "-",
                      str(job.attempts), f"{job.created_at:%Y-%m-%d %H:%M:%S}", job.summary())
    out.print(table)
    return 0
