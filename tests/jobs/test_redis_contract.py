"""Redis's documented semantics the job queue and the memory lock rely on, pinned against a real
redis-server, including a reply lost after the server applied the command.

redis-py retries a command whose connection broke (`Retry(..., supported_errors=
(ConnectionError,))`), also when the server had applied it: only commands safe to repeat may be
sent that way. A small TCP proxy (`fixtures.tcp_proxy`) loses exactly one reply to show it.

| behaviour | doc |
|---|---|
| `SET key value NX` sets only a missing key | https://redis.io/docs/latest/commands/set/ |
| `LMOVE` moves one element atomically | https://redis.io/docs/latest/commands/lmove/ |
| a Lua script runs atomically | https://redis.io/docs/latest/develop/programmability/eval-intro/ |
| `SET ... EX` expires the key | https://redis.io/docs/latest/commands/expire/ |
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis
from fixtures.redis_server import RedisServer
from fixtures.tcp_proxy import LostReplyProxy
from jobkit import Clock
from test_job_queue_contract import Queue, new_job

from manda.config import Settings
from manda.jobs.model import JobStatus
from manda.jobs.redis import DEFAULT_FINISHED_TTL, WORKER_LOST, RedisJobQueue
from manda.jobs.sqlite import SqliteJobQueue
from manda.models import IngestReport, utcnow

TTL = 30.0


@pytest.fixture
async def proxied(durable_redis: RedisServer, durable_redis_url: str
                  ) -> AsyncIterator[tuple[RedisJobQueue, LostReplyProxy, redis.Redis]]:
    async with LostReplyProxy("127.0.0.1", durable_redis.port) as proxy:
        queue = RedisJobQueue(proxy.url, socket_timeout=2.0)
        await queue.start()
        # warm up: every script is loaded, so an armed drop hits the command itself
        warm = new_job("warmup")
        await queue.submit(warm)
        claimed = await queue.claim("warm", wait=0, ttl=TTL)
        assert claimed is not None
        await queue.finish("warm", claimed.completed(IngestReport(deal_id="warmup"), utcnow()))
        await queue.recover(utcnow())
        with durable_redis.client() as direct:
            yield queue, proxy, direct
        await queue.aclose()


# SET NX: a job id already stored is not queued again, so a repeated push is a no-op.
async def test_a_submission_whose_reply_was_lost_is_queued_once(proxied) -> None:
    queue, proxy, direct = proxied
    job = new_job("falcon", "a.pdf")
    proxy.drop_reply_after(job.id)
    await queue.submit(job)  # the client retries after the lost reply
    assert len(proxy.dropped) == 1
    assert direct.lrange("manda:jobs:pending", 0, -1) == [job.id]
    assert await queue.claim("w1", wait=0, ttl=TTL) is not None
    assert await queue.claim("w1", wait=0, ttl=TTL) is None


# LMOVE inside a script keyed by a claim token: the claim repeated gets the same job back.
async def test_a_claim_whose_reply_was_lost_strands_no_job(proxied) -> None:
    queue, proxy, direct = proxied
    first, second = new_job("falcon", "a.pdf"), new_job("falcon", "b.pdf")
    await queue.submit(first)
    await queue.submit(second)
    proxy.drop_reply_after(b"jobs:processing:w1")
    claimed = await queue.claim("w1", wait=0, ttl=TTL)
    assert len(proxy.dropped) == 1
    assert claimed is not None and claimed.id == first.id and claimed.attempts == 1
    assert direct.lrange("manda:jobs:processing:w1", 0, -1) == [first.id]
    assert direct.lrange("manda:jobs:pending", 0, -1) == [second.id]


# The script notes what it moved before answering: a lost answer still updates the records.
async def test_a_recovery_whose_reply_was_lost_still_requeues_the_record(proxied) -> None:
    queue, proxy, direct = proxied
    job = new_job("falcon", "a.pdf")
    await queue.submit(job)
    assert await queue.claim("w-dead", wait=0, ttl=TTL) is not None
    direct.delete("manda:jobs:alive:w-dead")  # its heartbeat lapsed
    proxy.drop_reply_after(b"jobs:alive:w-dead")
    recovered = await queue.recover(utcnow())
    assert len(proxy.dropped) == 1
    assert recovered == [job.id]
    stored = await queue.get(job.id)
    assert stored is not None and stored.status is JobStatus.PENDING
    assert stored.error == WORKER_LOST and stored.worker is None
    assert direct.hlen("manda:jobs:recovering") == 0


async def test_a_duplicate_submission_changes_nothing(queue_and_expire: Queue) -> None:
    queue, _ = queue_and_expire
    job = new_job("falcon", "a.pdf")
    await queue.submit(job)
    claimed = await queue.claim("w1", wait=0, ttl=TTL)
    assert claimed is not None
    done = claimed.completed(IngestReport(deal_id="falcon", ingested=["a.pdf"]), utcnow())
    await queue.finish("w1", done)
    await queue.submit(job)  # the same id again, e.g. a front end retrying its request
    stored = await queue.get(job.id)
    assert stored is not None and stored.status is JobStatus.COMPLETED
    assert await queue.claim("w1", wait=0, ttl=TTL) is None


def test_finished_jobs_expire_after_30_days_by_default() -> None:
    assert DEFAULT_FINISHED_TTL == 30 * 24 * 3600 == Settings().job_ttl_seconds
    assert RedisJobQueue("redis://127.0.0.1:1/0").finished_ttl == DEFAULT_FINISHED_TTL


async def test_a_finished_job_expires_in_redis_and_leaves_its_deal_list(
        durable_redis: RedisServer, durable_redis_url: str) -> None:
    queue = RedisJobQueue(durable_redis_url, finished_ttl=3600)
    await queue.start()
    try:
        job, running = new_job("falcon", "a.pdf"), new_job("falcon", "b.pdf")
        await queue.submit(job)
        await queue.submit(running)
        claimed = await queue.claim("w1", wait=0, ttl=TTL)
        assert claimed is not None and claimed.id == job.id
        await queue.finish("w1", claimed.failed("refused", utcnow()))
        with durable_redis.client() as direct:
            assert 3500 < direct.ttl(f"manda:job:{job.id}") <= 3600
            assert direct.ttl(f"manda:job:{running.id}") == -1  # unfinished: kept
            direct.delete(f"manda:job:{job.id}")  # as the expiry will
            assert [j.id for j in await queue.list_jobs("falcon")] == [running.id]
            assert direct.zcard("manda:jobs:deal:falcon") == 1
    finally:
        await queue.aclose()


async def test_a_finished_job_expires_in_sqlite(tmp_path: Path) -> None:
    clock = Clock()
    queue = SqliteJobQueue(tmp_path / "jobs.db", finished_ttl=3600, clock=clock)
    await queue.start()
    try:
        job, waiting = new_job("falcon", "a.pdf"), new_job("falcon", "b.pdf")
        await queue.submit(job)
        claimed = await queue.claim("w1", wait=0, ttl=TTL)
        assert claimed is not None
        await queue.finish("w1", claimed.completed(IngestReport(deal_id="falcon"), utcnow()))
        await queue.submit(waiting)
        clock.advance(1800)
        await queue.recover(utcnow())
        assert await queue.get(job.id) is not None
        clock.advance(3600)
        await queue.recover(utcnow())
        assert await queue.get(job.id) is None
        assert [j.id for j in await queue.list_jobs("falcon")] == [waiting.id]
    finally:
        await queue.aclose()
