"""Files dropped in Slack that the deal service queued (MANDA_INGEST_VIA_QUEUE): a `manda worker`
ingests them and the bot only follows the job in its one progress message."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.blocks.ingest import (
    render_ingest_failure,
    render_job,
    render_job_unclaimed,
    render_job_unfinished,
)
from bot.blocks.kit import SlackMessage
from bot.deps import Deps
from manda.errors import BackendUnavailableError
from manda.jobs import IngestJob, JobStatus
from manda.models import IngestReport, utcnow

log = logging.getLogger(__name__)

Show = Callable[[SlackMessage], Awaitable[None]]


async def follow(deps: Deps, job: IngestJob, show: Show) -> IngestReport | None:
    """Show where `job` stands until it ends; its report once completed, or None when the message
    already says how it ended (failed, no worker took it, or followed for too long)."""
    watch = deps.queue_watch
    loop = asyncio.get_running_loop()
    started = waiting_since = loop.time()
    current = job
    while True:
        if current.status is JobStatus.COMPLETED:
            return current.report or IngestReport(deal_id=current.deal_id)
        if current.status is JobStatus.FAILED:
            reason = current.error or "the worker gave no reason (its log has the details)"
            await show(render_ingest_failure(current.deal_id, f"job {current.id}: {reason}"))
            return None
        now = loop.time()
        if current.status is JobStatus.RUNNING:
            waiting_since = now
        elif now - waiting_since >= watch.unclaimed_seconds:
            await show(render_job_unclaimed(current, now - waiting_since))
            return None
        if now - started >= watch.limit_seconds:
            await show(render_job_unfinished(current, now - started))
            return None
        await show(render_job(current))
        await asyncio.sleep(watch.poll_seconds)
        current = await _latest(deps, current)


async def _latest(deps: Deps, job: IngestJob) -> IngestJob:
    """The job as the queue has it now; the last known state while the queue is unreachable."""
    try:
        latest = await deps.deals.job_status(job.id)
    except BackendUnavailableError as exc:
        log.warning("could not look up job %s (%s); asking again", job.id, exc)
        return job
    if latest is None:  # removed from the queue by hand: nothing more will happen to it
        return job.failed("the job queue no longer knows this job", utcnow())
    return latest
