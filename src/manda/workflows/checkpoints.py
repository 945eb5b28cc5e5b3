"""Where workflow state lives between messages: a LangGraph checkpointer per configuration.

Embedded: SQLite in `MANDA_HOME/workflows.sqlite` (LangGraph's own `AsyncSqliteSaver`). The saver
opens its connection in `start()` and closes it in `aclose()`, so constructing it does no I/O.
"""

from __future__ import annotations

import os
from pathlib import Path

import aiosqlite
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

__all__ = ["WorkflowCheckpoints"]


class WorkflowCheckpoints:
    """Opens and closes the checkpointer that workflow graphs are compiled with."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._conn: aiosqlite.Connection | None = None
        self._saver: AsyncSqliteSaver | None = None

    @property
    def saver(self) -> BaseCheckpointSaver:
        if self._saver is None:
            raise RuntimeError("workflow checkpoints are not started: call start() first")
        return self._saver

    async def start(self) -> None:
        if self._saver is not None:
            return
        self._path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = await aiosqlite.connect(str(self._path))
        self._saver = AsyncSqliteSaver(self._conn)
        await self._saver.setup()
        os.chmod(self._path, 0o600)  # deal content: readable by Manda's user only

    async def aclose(self) -> None:
        if self._conn is not None:
            await self._conn.close()
        self._conn, self._saver = None, None
