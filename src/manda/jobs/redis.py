"""The job queue in Redis, shared by every worker: a reliable queue with heartbeats.

Keys (under `key_prefix`): `job:{id}` the job as JSON; `jobs:pending` the ids waiting, taken from
the right; `jobs:processing:{worker}` the ids a worker holds; `jobs:delayed` ids held back until
a time (a sorted set by epoch seconds); `jobs:deal:{deal}` a deal's ids by creation time;
`jobs:workers` the workers seen and `jobs:alive:{worker}` their heartbeats (keys that expire);
`jobs:recovering` the ids `recover` moved back, by the worker that held them, until their records
say so.

Every write is safe to repeat, because redis-py repeats a command whose connection broke, also
after the server applied it (a reply lost on the way back):
- `submit` is keyed by the job id (a Lua script: `SET NX`, then queue): a second push is a no-op.
- `claim` is a script that moves the next id to the worker's list and notes it under a token
  made for that one claim (`jobs:claim:{token}`, expiring): the same claim repeated gets the same
  id back, so it cannot move a second job and strand the first in `processing:{worker}`. There is
  therefore no blocking pop (a repeated BLMOVE would move a second id): `claim` polls.
- `recover` notes what it moved in `jobs:recovering` inside the same script, so a repeat that
  finds nothing left to move still updates the records of what the first run moved.
- `finish`, `retry_later` and the heartbeat are MULTI/EXEC blocks of idempotent commands.
Finished jobs expire after `finished_ttl` seconds (30 days by default; `MANDA_JOB_TTL`).
Redis must persist its data (AOF, as docker-compose configures it) for jobs to survive a restart
of Redis itself. Command semantics: https://redis.io/docs/latest/commands/ (SET NX, LMOVE, EVAL).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from manda.errors import BackendUnavailableError, MandaError
from manda.jobs.model import IngestJob, JobStatus
from manda.memory.redis import redacted
from manda.models import utcnow

log = logging.getLogger(__name__)

PROMOTE_BATCH = 100
POLL_SECONDS = (0.02, 0.25)  # a waiting claim asks again after this, doubling up to the maximum
DEFAULT_FINISHED_TTL = 30 * 24 * 3600
WORKER_LOST = "the worker running it stopped answering; queued again"

# A new job, once: its record, its deal's list, the queue. A repeat finds the record and stops.
SUBMIT_SCRIPT = """
if not redis.call('SET', KEYS[1], ARGV[2], 'NX') then
    return 0
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('LPUSH', KEYS[3], ARGV[1])
return 1
"""

# The next id moved to the worker's list, noted under this claim's token: the same claim
# repeated (same token) gets the same id back instead of moving another one.
CLAIM_SCRIPT = """
local earlier = redis.call('GET', KEYS[3])
if earlier then
    return earlier
end
local id = redis.call('LMOVE', KEYS[1], KEYS[2], 'RIGHT', 'LEFT')
if id then
    redis.call('SET', KEYS[3], id, 'EX', tonumber(ARGV[1]))
end
return id
"""
CLAIM_TOKEN_SECONDS = 600

# Due delayed ids go back to the end of the queue (LPUSH: the queue is taken from the right).
PROMOTE_SCRIPT = """
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(ids) do
    redis.call('ZREM', KEYS[1], id)
    redis.call('LPUSH', KEYS[2], id)
end
return #ids
"""

# A worker whose heartbeat expired: its ids go to the front of the queue, noted in `recovering`
# (so their records are updated even if this reply is lost), and it is forgotten. Checked and
# moved in one script, so a heartbeat renewed meanwhile keeps the worker's jobs.
RECOVER_SCRIPT = """
if redis.call('EXISTS', KEYS[3]) == 1 then
    return 0
end
local moved = 0
while true do
    local id = redis.call('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT')
    if not id then
        break
    end
    redis.call('HSET', KEYS[5], id, ARGV[1])
    moved = moved + 1
end
redis.call('SREM', KEYS[4], ARGV[1])
return moved
"""


class RedisJobQueue:
    """`JobQueue` on Redis; `on_error` sees every failed call (e.g. metrics)."""

    name = "redis"
    shared_across_processes = True

    def __init__(
        self,
        url: str,
        *,
        key_prefix: str = "manda:",
        socket_timeout: float = 5.0,
        finished_ttl: int = DEFAULT_FINISHED_TTL,
        on_error: Callable[[BaseException], object] | None = None,
    ) -> None:
        if finished_ttl < 1:
            raise ValueError("finished_ttl must be at least 1 second")
        self.url = url
        self.key_prefix = key_prefix
        self.socket_timeout = socket_timeout
        self.finished_ttl = finished_ttl
        self._on_error = on_error
        self._client: aioredis.Redis | None = None
        self._submit: Any = None
        self._claim: Any = None
        self._promote: Any = None
        self._recover: Any = None

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Build the client; no round trip (`ping` checks the server)."""
        if self._client is not None:
            return
        try:
            client = aioredis.from_url(
                self.url,
                socket_timeout=self.socket_timeout,
                socket_connect_timeout=self.socket_timeout,
                retry=Retry(ExponentialBackoff(), 3, supported_errors=(RedisConnectionError,)),
                decode_responses=True,
            )
        except ValueError as exc:
            raise MandaError(
                f"REDIS_URL {redacted(self.url)!r} is not a Redis URL: {exc}.",
                hint="Use redis://host:6379/0 (or rediss:// for TLS), or unset REDIS_URL.",
            ) from exc
        self._client = client
        self._submit = client.register_script(SUBMIT_SCRIPT)
        self._claim = client.register_script(CLAIM_SCRIPT)
        self._promote = client.register_script(PROMOTE_SCRIPT)
        self._recover = client.register_script(RECOVER_SCRIPT)

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    @property
    def client(self) -> aioredis.Redis:
        if self._client is None:
            raise RuntimeError("RedisJobQueue is not started; call `await start()` first")
        return self._client

    def key(self, *parts: str) -> str:
        return self.key_prefix + ":".join(parts)

    @asynccontextmanager
    async def _errors(self, doing: str) -> AsyncIterator[None]:
        try:
            yield
        except RedisError as exc:
            if self._on_error is not None:
                self._on_error(exc)
            raise BackendUnavailableError(
                f"The job queue in Redis at {redacted(self.url)} failed while {doing}: {exc}.",
                hint="Jobs already queued wait in Redis until it is back; check that Redis is "
                "running and that REDIS_URL points to it (`manda doctor`).",
            ) from exc

    @asynccontextmanager
    async def _atomically(self, doing: str) -> AsyncIterator[Any]:
        """A MULTI/EXEC pipeline: the commands queued on it apply together or not at all."""
        async with self._errors(doing), self.client.pipeline(transaction=True) as tx:
            yield tx
            await tx.execute()

    # ---------------------------------------------------------------- the queue

    async def ping(self) -> None:
        async with self._errors("checking the connection"):
            await self.client.ping()

    async def submit(self, job: IngestJob) -> None:
        """Queue `job` once: a job id already known (a repeated push) changes nothing."""
        async with self._errors(f"queueing job {job.id}"):
            await self._submit(
                keys=[self.key("job", job.id), self.key("jobs", "deal", job.deal_id),
                      self.key("jobs", "pending")],
                args=[job.id, job.model_dump_json(), job.created_at.timestamp()],
            )

    async def claim(self, worker: str, *, wait: float, ttl: float) -> IngestJob | None:
        pending, mine = self.key("jobs", "pending"), self.key("jobs", "processing", worker)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(0.0, wait)
        pause, longest = POLL_SECONDS
        async with self._errors("taking the next job"):
            await self._beat(worker, ttl)
            while True:
                await self._promote(
                    keys=[self.key("jobs", "delayed"), pending], args=[time.time(), PROMOTE_BATCH]
                )
                token = self.key("jobs", "claim", secrets.token_hex(12))
                job_id = await self._claim(keys=[pending, mine, token],
                                           args=[CLAIM_TOKEN_SECONDS])
                left = deadline - loop.time()
                if job_id is not None or left <= 0:
                    break
                await asyncio.sleep(min(pause, left))
                pause = min(pause * 2, longest)
            if job_id is None:
                return None
            raw = await self.client.get(self.key("job", job_id))
            if raw is None:  # an id without its record: nothing to run
                log.warning("job %s has no record in Redis; dropped from the queue", job_id)
                await self.client.lrem(mine, 1, job_id)
                return None
            job = IngestJob.model_validate_json(raw)
            if job.status is JobStatus.RUNNING and job.worker == worker:
                return job  # already ours: a claim repeated after its reply was lost
            job = job.claimed(worker, utcnow())
            await self.client.set(self.key("job", job.id), job.model_dump_json())
        return job

    async def heartbeat(self, worker: str, ttl: float) -> None:
        async with self._errors("renewing the worker's heartbeat"):
            await self._beat(worker, ttl)

    async def _beat(self, worker: str, ttl: float) -> None:
        async with self.client.pipeline(transaction=True) as tx:
            tx.sadd(self.key("jobs", "workers"), worker)
            tx.set(self.key("jobs", "alive", worker), "1", px=max(1, int(ttl * 1000)))
            await tx.execute()

    async def finish(self, worker: str, job: IngestJob) -> None:
        """Record the finished job, kept for `finished_ttl` seconds, and let go of it."""
        async with self._atomically(f"recording job {job.id} as {job.status.value}") as tx:
            tx.set(self.key("job", job.id), job.model_dump_json(), ex=self.finished_ttl)
            tx.lrem(self.key("jobs", "processing", worker), 1, job.id)

    async def retry_later(self, worker: str, job: IngestJob) -> None:
        ready = job.not_before.timestamp() if job.not_before is not None else time.time()
        async with self._atomically(f"queueing job {job.id} again") as tx:
            tx.set(self.key("job", job.id), job.model_dump_json())
            tx.zadd(self.key("jobs", "delayed"), {job.id: ready})
            tx.lrem(self.key("jobs", "processing", worker), 1, job.id)

    async def recover(self, now: datetime) -> list[str]:
        recovering = self.key("jobs", "recovering")
        async with self._errors("recovering the jobs of stopped workers"):
            for worker in sorted(await self.client.smembers(self.key("jobs", "workers"))):
                await self._recover(
                    keys=[
                        self.key("jobs", "processing", worker),
                        self.key("jobs", "pending"),
                        self.key("jobs", "alive", worker),
                        self.key("jobs", "workers"),
                        recovering,
                    ],
                    args=[worker],
                )
            moved: dict[str, str] = await self.client.hgetall(recovering)
            for job_id, worker in sorted(moved.items()):
                await self._mark_requeued(job_id, worker, now)
                await self.client.hdel(recovering, job_id)
        recovered = sorted(moved)
        if recovered:
            log.warning("queued again %d job(s) of stopped workers: %s", len(recovered),
                        ", ".join(recovered))
        return recovered

    async def _mark_requeued(self, job_id: str, worker: str, now: datetime) -> None:
        """Say so in the record, unless another worker took the job meanwhile."""
        key = self.key("job", job_id)

        async def update(tx: Any) -> None:
            raw = await tx.get(key)
            if raw is None:
                return
            job = IngestJob.model_validate_json(raw)
            if job.status is not JobStatus.RUNNING or job.worker != worker:
                return
            tx.multi()
            tx.set(key, job.requeued(WORKER_LOST, now).model_dump_json())

        await self.client.transaction(update, key)  # retried by redis-py if the record changed

    async def get(self, job_id: str) -> IngestJob | None:
        async with self._errors(f"reading job {job_id}"):
            raw = await self.client.get(self.key("job", job_id))
        return IngestJob.model_validate_json(raw) if raw is not None else None

    async def list_jobs(self, deal_id: str, *, limit: int = 50) -> list[IngestJob]:
        deal = self.key("jobs", "deal", deal_id)
        async with self._errors(f"listing the jobs of deal {deal_id}"):
            ids = await self.client.zrevrange(deal, 0, limit - 1)
            raws = await self.client.mget([self.key("job", i) for i in ids]) if ids else []
            expired = [i for i, raw in zip(ids, raws, strict=True) if raw is None]
            if expired:  # finished jobs whose record expired leave the deal's list too
                await self.client.zrem(deal, *expired)
        return [IngestJob.model_validate_json(raw) for raw in raws if raw is not None]
