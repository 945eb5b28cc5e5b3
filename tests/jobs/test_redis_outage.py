"""The Redis job queue through a Redis that dies: no job is lost, and workers recover by themselves.

These run a real redis-server with its append-only file on (as docker-compose runs it): Redis
killed with SIGKILL mid-run keeps every job it acknowledged, and a worker killed mid-job leaves
its job where the next worker finds it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fixtures.redis_server import RedisServer
from jobkit import RecordingIngest, wait_until

from manda.errors import BackendUnavailableError
from manda.jobs import JobService, JobStatus
from manda.jobs.redis import RedisJobQueue

pytestmark = pytest.mark.redis


@pytest.fixture
def errors() -> list[BaseException]:
    """Every failed call the queue made to Redis (what `Metrics` would count)."""
    return []


@pytest.fixture
async def queue(durable_redis_url: str, errors: list[BaseException]
                ) -> AsyncIterator[RedisJobQueue]:
    store = RedisJobQueue(durable_redis_url, socket_timeout=1.0, on_error=errors.append)
    await store.start()
    yield store
    await store.aclose()


def service(queue: RedisJobQueue, ingest: RecordingIngest, tmp_path: Path,
            worker_id: str, heartbeat: float = 10.0) -> JobService:
    return JobService(queue=queue, ingest=ingest, uploads_dir=tmp_path / "uploads",
                      claim_wait=0.1, heartbeat_seconds=heartbeat, worker_id=worker_id)


async def test_redis_killed_and_restarted_mid_run_loses_no_job(
    queue: RedisJobQueue, errors: list[BaseException], durable_redis: RedisServer,
    tmp_path: Path,
) -> None:
    ingest = RecordingIngest()
    killed = asyncio.Event()

    async def kill_redis_during_the_fourth_job(call: int) -> None:
        if call == 4:
            await asyncio.to_thread(durable_redis.kill)
            killed.set()

    ingest.hook = kill_redis_during_the_fourth_job
    jobs = service(queue, ingest, tmp_path, "w1")
    submitted = [await jobs.submit("falcon", [tmp_path / f"doc{i}.pdf"]) for i in range(10)]
    stop = asyncio.Event()
    worker = asyncio.create_task(jobs.run_worker(stop))

    await asyncio.wait_for(killed.wait(), timeout=30)
    await wait_until(lambda: errors)  # the worker has met the dead Redis
    with pytest.raises(BackendUnavailableError) as refused:  # said at once, never dropped
        await jobs.submit("falcon", [tmp_path / "late.pdf"])
    assert "REDIS_URL" in str(refused.value) and durable_redis.url in str(refused.value)
    assert not worker.done()  # the worker waits for Redis instead of dying

    await asyncio.to_thread(durable_redis.start)  # same port, same append-only file
    late = await jobs.submit("falcon", [tmp_path / "late.pdf"])
    everything = [*submitted, late]

    async def all_completed() -> bool:
        records = [await jobs.status(j.id) for j in everything]
        return all(r is not None and r.status is JobStatus.COMPLETED for r in records)

    await wait_until(all_completed)
    stop.set()
    assert await asyncio.wait_for(worker, timeout=10) == 11

    ingested = [paths[0].name for _, paths, _ in ingest.calls]
    assert sorted(ingested) == sorted([f"doc{i}.pdf" for i in range(10)] + ["late.pdf"])
    assert ingested.count("doc3.pdf") == 1  # the job held through the outage ran once
    with durable_redis.client() as client:
        assert client.llen("manda:jobs:pending") == 0
        assert client.llen("manda:jobs:processing:w1") == 0


async def test_the_job_of_a_worker_that_died_is_run_by_the_next_one(
    queue: RedisJobQueue, durable_redis: RedisServer, tmp_path: Path
) -> None:
    ingest = RecordingIngest()
    crashed = asyncio.Event()

    async def hang_on_the_first_job(call: int) -> None:
        if call == 1:
            crashed.set()
            await asyncio.Event().wait()  # the worker dies here (its task is cancelled)

    ingest.hook = hang_on_the_first_job
    dead = service(queue, ingest, tmp_path, "w-dead", heartbeat=0.3)
    job = await dead.submit("falcon", [tmp_path / "Q3_Report.pdf"])
    worker = asyncio.create_task(dead.run_worker(asyncio.Event()))
    await asyncio.wait_for(crashed.wait(), timeout=30)
    worker.cancel()
    await asyncio.gather(worker, return_exceptions=True)

    held = await queue.get(job.id)
    assert held is not None and held.status is JobStatus.RUNNING and held.worker == "w-dead"
    with durable_redis.client() as client:
        assert client.lrange("manda:jobs:processing:w-dead", 0, -1) == [job.id]
        await wait_until(lambda: not client.exists("manda:jobs:alive:w-dead"))  # lapsed

    ingest.hook = None
    successor = service(queue, ingest, tmp_path, "w-next")
    assert await successor.run_worker(asyncio.Event(), once=True) == 1
    done = await queue.get(job.id)
    assert done is not None and done.status is JobStatus.COMPLETED and done.attempts == 2
    assert [paths[0].name for _, paths, _ in ingest.calls] == ["Q3_Report.pdf"] * 2
    with durable_redis.client() as client:
        assert client.llen("manda:jobs:processing:w-dead") == 0
        assert "w-dead" not in client.smembers("manda:jobs:workers")
