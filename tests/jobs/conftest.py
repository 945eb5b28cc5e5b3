"""Fixtures for the job queue: both adapters, and a Redis that keeps its data across a kill."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from fixtures.redis_server import RedisServer, running_server
from jobkit import Clock

from manda.jobs.redis import RedisJobQueue
from manda.jobs.sqlite import SqliteJobQueue


@pytest.fixture(scope="session")
def durable_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A redis-server with the append-only file on, so killing it loses nothing."""
    yield from running_server(tmp_path_factory, "redis-aof", durable=True)


@pytest.fixture
def durable_redis_url(durable_redis: RedisServer) -> str:
    durable_redis.start()
    durable_redis.flush()
    return durable_redis.url


@pytest.fixture(params=["sqlite", "redis"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def queue_and_expire(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[tuple[SqliteJobQueue | RedisJobQueue, Callable[[str], None]]]:
    """A started queue of each kind, and a way to make a worker's heartbeat lapse at once."""
    if backend == "sqlite":
        clock = Clock()
        sqlite_queue = SqliteJobQueue(tmp_path / "jobs.db", poll_seconds=0.01, clock=clock)
        await sqlite_queue.start()

        def expire_sqlite(worker: str) -> None:
            clock.advance(3600)

        yield sqlite_queue, expire_sqlite
        await sqlite_queue.aclose()
        return
    url = request.getfixturevalue("durable_redis_url")
    server: RedisServer = request.getfixturevalue("durable_redis")
    redis_queue = RedisJobQueue(url, socket_timeout=2.0)
    await redis_queue.start()

    def expire_redis(worker: str) -> None:
        with server.client() as client:
            client.delete(f"manda:jobs:alive:{worker}")

    yield redis_queue, expire_redis
    await redis_queue.aclose()
