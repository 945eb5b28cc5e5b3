"""Every job queue keeps the same promises: nothing is handed out twice, nothing is dropped."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta

from manda.jobs.model import IngestJob, JobStatus
from manda.jobs.port import JobQueue
from manda.jobs.redis import RedisJobQueue
from manda.jobs.sqlite import SqliteJobQueue
from manda.models import IngestReport, utcnow

Queue = tuple[SqliteJobQueue | RedisJobQueue, Callable[[str], None]]
TTL = 30.0


def new_job(deal: str = "falcon", *names: str) -> IngestJob:
    now = utcnow()
    return IngestJob(id=IngestJob.new_id(), deal_id=deal,
                     paths=[f"/data/{n}" for n in (names or ("Q3_Report.pdf",))],
                     requested_by="U123", created_at=now, updated_at=now)


async def test_both_adapters_are_job_queues(queue_and_expire: Queue) -> None:
    queue, _ = queue_and_expire
    assert isinstance(queue, JobQueue)
    await queue.ping()


async def test_a_job_is_claimed_once_then_finished(queue_and_expire: Queue) -> None:
    queue, _ = queue_and_expire
    job = new_job()
    await queue.submit(job)
    assert (await queue.get(job.id)) == job

    claimed = await queue.claim("w1", wait=0, ttl=TTL)
    assert claimed is not None and claimed.id == job.id
    assert (claimed.status, claimed.worker, claimed.attempts) == (JobStatus.RUNNING, "w1", 1)
    assert await queue.claim("w2", wait=0, ttl=TTL) is None
    assert (await queue.get(job.id)).status is JobStatus.RUNNING  # type: ignore[union-attr]

    done = claimed.completed(IngestReport(deal_id="falcon", ingested=["Q3_Report.pdf"]), utcnow())
    await queue.finish("w1", done)
    stored = await queue.get(job.id)
    assert stored is not None and stored.status is JobStatus.COMPLETED
    assert stored.report is not None and stored.report.ingested == ["Q3_Report.pdf"]
    assert await queue.recover(utcnow()) == []  # a finished job is never handed out again
    assert await queue.claim("w2", wait=0, ttl=TTL) is None


async def test_jobs_are_taken_in_the_order_they_came(queue_and_expire: Queue) -> None:
    queue, _ = queue_and_expire
    jobs = [new_job("falcon", f"f{i}.pdf") for i in range(4)]
    for job in jobs:
        await queue.submit(job)
    taken = [await queue.claim("w1", wait=0, ttl=TTL) for _ in jobs]
    assert [j.id for j in taken if j is not None] == [j.id for j in jobs]


async def test_a_job_sent_back_waits_for_its_time(queue_and_expire: Queue) -> None:
    queue, _ = queue_and_expire
    soon, later = new_job(), new_job()
    for job in (soon, later):
        await queue.submit(job)
    first = await queue.claim("w1", wait=0, ttl=TTL)
    second = await queue.claim("w1", wait=0, ttl=TTL)
    assert first is not None and second is not None
    now, why = utcnow(), "Neo4j is unreachable"
    await queue.retry_later("w1", first.retry_later(why, now - timedelta(days=1), now))
    await queue.retry_later("w1", second.retry_later(why, now + timedelta(days=1), now))

    pending = await queue.get(later.id)
    assert pending is not None and pending.status is JobStatus.PENDING
    assert pending.error == "Neo4j is unreachable" and pending.attempts == 1
    again = await queue.claim("w2", wait=0, ttl=TTL)
    assert again is not None and again.id == soon.id and again.attempts == 2
    assert await queue.claim("w2", wait=0, ttl=TTL) is None  # `later` is held back a day


async def test_the_jobs_of_a_worker_that_stopped_answering_are_recovered(
    queue_and_expire: Queue,
) -> None:
    queue, expire = queue_and_expire
    lost, kept = new_job(), new_job()
    await queue.submit(lost)
    await queue.submit(kept)
    assert (await queue.claim("dead", wait=0, ttl=TTL)) is not None
    assert (await queue.claim("alive", wait=0, ttl=TTL)) is not None
    assert await queue.recover(utcnow()) == []  # both heartbeats are fresh

    expire("dead")
    await queue.heartbeat("alive", TTL)  # a live worker renews its heartbeat
    assert await queue.recover(utcnow()) == [lost.id]
    record = await queue.get(lost.id)
    assert record is not None and record.status is JobStatus.PENDING and record.worker is None
    assert "stopped answering" in (record.error or "")
    assert (await queue.get(kept.id)).status is JobStatus.RUNNING  # type: ignore[union-attr]

    retaken = await queue.claim("other", wait=0, ttl=TTL)
    assert retaken is not None and retaken.id == lost.id and retaken.attempts == 2
    assert await queue.recover(utcnow()) == []


async def test_concurrent_workers_never_share_a_job(queue_and_expire: Queue) -> None:
    queue, _ = queue_and_expire
    jobs = [new_job("falcon", f"f{i}.pdf") for i in range(12)]
    for job in jobs:
        await queue.submit(job)

    async def drain(worker: str) -> list[str]:
        taken = []
        while (job := await queue.claim(worker, wait=0, ttl=TTL)) is not None:
            taken.append(job.id)
        return taken

    results = await asyncio.gather(*(drain(f"w{i}") for i in range(4)))
    every = [job_id for taken in results for job_id in taken]
    assert sorted(every) == sorted(j.id for j in jobs)


async def test_a_waiting_claim_gets_a_job_submitted_meanwhile(queue_and_expire: Queue) -> None:
    queue, _ = queue_and_expire
    job = new_job()
    waiting = asyncio.create_task(queue.claim("w1", wait=5.0, ttl=TTL))
    await asyncio.sleep(0.05)
    await queue.submit(job)
    claimed = await waiting
    assert claimed is not None and claimed.id == job.id


async def test_a_deal_lists_its_own_jobs_newest_first(queue_and_expire: Queue) -> None:
    queue, _ = queue_and_expire
    older = new_job("falcon")
    other = new_job("heron")
    newer = new_job("falcon").model_copy(
        update={"created_at": older.created_at + timedelta(seconds=1)})
    for job in (older, other, newer):
        await queue.submit(job)
    assert [j.id for j in await queue.list_jobs("falcon")] == [newer.id, older.id]
    assert [j.id for j in await queue.list_jobs("heron")] == [other.id]
    assert await queue.list_jobs("nobody") == []
    assert await queue.get("job-missing") is None
