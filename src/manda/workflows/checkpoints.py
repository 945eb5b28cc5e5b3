"""Where workflow state lives between messages: a LangGraph checkpointer per configuration.

Embedded: SQLite in `MANDA_HOME/workflows.sqlite` (LangGraph's own `AsyncSqliteSaver`); with
`REDIS_URL`, plain Redis (`ShallowRedisSaver`), so any worker can resume any thread. Connections
open in `start()` and close in `aclose()`; constructing does no I/O.
"""

from __future__ import annotations

import os
from pathlib import Path

import aiosqlite
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from redis.asyncio import Redis

from manda.workflows.redis_saver import ShallowRedisSaver

__all__ = ["WorkflowCheckpoints"]


class WorkflowCheckpoints:
    """Opens and closes the checkpointer that workflow graphs are compiled with."""

    def __init__(self, path: Path, *, redis_url: str | None = None) -> None:
        self._path = path
        self._redis_url = redis_url
        self._conn: aiosqlite.Connection | None = None
        self._redis: Redis | None = None
        self._saver: BaseCheckpointSaver | None = None

    @property
    def backend(self) -> str:
        return "redis" if self._redis_url else "sqlite"

    @property
    def saver(self) -> BaseCheckpointSaver:
        if self._saver is None:
            raise RuntimeError("workflow checkpoints are not started: call start() first")
        return self._saver

    async def start(self) -> None:
        if self._saver is not None:
            return
        if self._redis_url:
            self._redis = Redis.from_url(self._redis_url)
            self._saver = ShallowRedisSaver(self._redis)
            return
        self._path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = await aiosqlite.connect(str(self._path))
        saver = AsyncSqliteSaver(self._conn)
        await saver.setup()
        self._saver = saver
        os.chmod(self._path, 0o600)  # deal content: readable by Manda's user only

    async def aclose(self) -> None:
        if self._conn is not None:
            await self._conn.close()
        if self._redis is not None:
            await self._redis.aclose()
        self._conn, self._redis, self._saver = None, None, None
