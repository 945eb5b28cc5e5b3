"""Finished extraction batches, kept so a failed document resumes instead of paying again.

A long document is sent to Claude in batches; an outage late in it used to fail the document, and
the job's next attempt sent (and billed) every batch again. Each batch's findings are kept here
the moment its answer is complete, under a digest of exactly what was asked (model, prompt,
tools, thinking settings; not the output cap), so the next attempt — in this process or another
worker sharing `MANDA_HOME` — reads the batches that finished and sends only the first one that
did not, and those after it. The same request asked again gets the same findings: a digest
cannot go stale. Entries are dropped after `KEEP_DAYS`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any, Protocol

from manda.private import private_file

log = logging.getLogger(__name__)

KEEP_DAYS = 14
_SCHEMA = """CREATE TABLE IF NOT EXISTS batches (
    key TEXT PRIMARY KEY, at REAL NOT NULL, items TEXT NOT NULL)"""


def batch_key(request: dict[str, Any]) -> str:
    """The digest of a batch's request, its output cap left out (a larger cap asks the same)."""
    asked = {k: v for k, v in request.items() if k != "max_tokens"}
    return hashlib.sha256(json.dumps(asked, sort_keys=True, default=str).encode()).hexdigest()


class BatchLedger(Protocol):
    """Where finished batches are kept: their tool input items, by `batch_key`."""

    async def finished(self, key: str) -> list[dict[str, Any]] | None: ...

    async def record(self, key: str, items: list[dict[str, Any]]) -> None: ...


class MemoryBatchLedger:
    """One process's finished batches (tests, and a store-less run)."""

    def __init__(self) -> None:
        self.batches: dict[str, list[dict[str, Any]]] = {}

    async def finished(self, key: str) -> list[dict[str, Any]] | None:
        return self.batches.get(key)

    async def record(self, key: str, items: list[dict[str, Any]]) -> None:
        self.batches[key] = items


class SqliteBatchLedger:
    """Finished batches in a SQLite file under `MANDA_HOME`, shared by the workers using it.

    Each call opens the file on a worker thread (a batch takes seconds of Claude's time; the
    file's open is not the cost), so there is nothing to start or close. A file that cannot be
    read or written is logged and ignored: the batch is then simply asked again.
    """

    def __init__(self, path: Path) -> None:
        self._path = path
        self._pruned = False

    async def finished(self, key: str) -> list[dict[str, Any]] | None:
        return await self._run(self._finished, key)

    async def record(self, key: str, items: list[dict[str, Any]]) -> None:
        await self._run(self._record, key, items)

    async def _run(self, fn: Any, *args: Any) -> Any:
        try:
            return await asyncio.to_thread(fn, *args)
        except (sqlite3.Error, OSError) as exc:
            log.warning("extraction batches in %s not usable (%s); asking Claude again",
                        self._path, exc)
            return None

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(private_file(self._path), timeout=10)
        conn.execute(_SCHEMA)
        if not self._pruned:
            conn.execute("DELETE FROM batches WHERE at < ?", (time.time() - KEEP_DAYS * 86400,))
            conn.commit()
            self._pruned = True
        return conn

    def _finished(self, key: str) -> list[dict[str, Any]] | None:
        conn = self._connect()
        try:
            row = conn.execute("SELECT items FROM batches WHERE key = ?", (key,)).fetchone()
        finally:
            conn.close()
        return None if row is None else list(json.loads(row[0]))

    def _record(self, key: str, items: list[dict[str, Any]]) -> None:
        conn = self._connect()
        try:
            conn.execute("INSERT OR REPLACE INTO batches (key, at, items) VALUES (?, ?, ?)",
                         (key, time.time(), json.dumps(items)))
            conn.commit()
        finally:
            conn.close()
