"""Conversation memory in a SQLite file under MANDA_HOME, so one process needs no Redis."""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from manda.errors import BackendUnavailableError
from manda.memory.port import Conversation

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_TTL_SECONDS = 7 * 24 * 3600
FILENAME = "memory.db"
PURGE_EVERY_SECONDS = 60.0
NOT_STARTED = "SqliteConversationMemory is not started; call `await start()` first"

SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS conversations_expiry ON conversations (expires_at);
CREATE TABLE IF NOT EXISTS seen_events (
    id TEXT PRIMARY KEY,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS seen_events_expiry ON seen_events (expires_at);
"""


class SqliteConversationMemory:
    """Conversations and seen event ids in one WAL-mode SQLite file, with expiry.

    Every statement runs on one private thread, so the event loop never waits on the disk and the
    connection is never shared between threads. Expired rows are ignored on read and deleted at
    most once a minute on write. `clock` (epoch seconds) exists so tests can move time forward.
    """

    name = "embedded"
    shared_across_processes = False

    def __init__(
        self,
        path: Path,
        *,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if ttl_seconds < 1:
            raise ValueError("ttl_seconds must be at least 1 second")
        self.path = path
        self.ttl_seconds = ttl_seconds
        self._clock = clock
        self._executor: ThreadPoolExecutor | None = None
        self._db: sqlite3.Connection | None = None
        self._next_purge = 0.0

    @classmethod
    def in_home(
        cls, home: Path, *, ttl_seconds: int = DEFAULT_TTL_SECONDS
    ) -> SqliteConversationMemory:
        """The default store: `memory.db` in MANDA_HOME."""
        return cls(home / FILENAME, ttl_seconds=ttl_seconds)

    async def start(self) -> None:
        if self._executor is not None:
            return
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="manda-memory")
        try:
            await self._run("opening the store", self._open)
        except BaseException:
            self._executor.shutdown(wait=False)
            self._executor = None
            raise

    async def aclose(self) -> None:
        executor = self._executor
        if executor is None:
            return
        try:
            await self._run("closing the store", self._close)
        finally:
            self._executor = None
            executor.shutdown(wait=False)

    async def ping(self) -> None:
        await self._run("checking the store", lambda: self._conn().execute("SELECT 1").fetchone())

    async def load(self, conversation_id: str) -> Conversation | None:
        doing = f"loading conversation {conversation_id}"
        body = await self._run(doing, self._load, conversation_id)
        if body is None:
            return None
        try:
            return Conversation.model_validate_json(body)
        except ValidationError as exc:
            # Short-term context is disposable: a stale shape starts the conversation afresh.
            log.warning(
                "Dropping unreadable conversation %s from %s: %s", conversation_id, self.path, exc
            )
            return None

    async def save(self, conversation: Conversation) -> None:
        body = conversation.model_dump_json()
        await self._run(f"saving conversation {conversation.id}", self._save, conversation.id, body)

    async def seen_event(self, event_id: str, ttl_seconds: int = 900) -> bool:
        """True when the event was recorded before (by any process on this file), else record it."""
        return await self._run(f"recording event {event_id}", self._seen, event_id, ttl_seconds)

    # -- on the store's thread -------------------------------------------------------------

    async def _run(self, doing: str, fn: Callable[..., T], *args: object) -> T:
        if self._executor is None:
            raise RuntimeError(NOT_STARTED)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, functools.partial(fn, *args))
        except (sqlite3.Error, OSError) as exc:
            raise BackendUnavailableError(
                f"The conversation memory at {self.path} failed while {doing}: {exc}.",
                hint="Check that MANDA_HOME is writable and has free space. The file holds only "
                "short-term context: deleting it (with Manda stopped) starts conversations afresh.",
            ) from exc

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError(NOT_STARTED)
        return self._db

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(SCHEMA)
        except BaseException:
            db.close()
            raise
        self._db = db

    def _close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            db.close()

    def _load(self, conversation_id: str) -> str | None:
        row = (
            self._conn()
            .execute(
                "SELECT body FROM conversations WHERE id = ? AND expires_at > ?",
                (conversation_id, self._clock()),
            )
            .fetchone()
        )
        return None if row is None else row[0]

    def _save(self, conversation_id: str, body: str) -> None:
        now = self._clock()
        self._conn().execute(
            "INSERT INTO conversations (id, body, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET body = excluded.body, expires_at = excluded.expires_at",
            (conversation_id, body, now + self.ttl_seconds),
        )
        self._purge(now)

    def _seen(self, event_id: str, ttl_seconds: int) -> bool:
        now = self._clock()
        db = self._conn()
        # IMMEDIATE takes the write lock first, so two processes cannot both see "new".
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("DELETE FROM seen_events WHERE id = ? AND expires_at <= ?", (event_id, now))
            inserted = db.execute(
                "INSERT OR IGNORE INTO seen_events (id, expires_at) VALUES (?, ?)",
                (event_id, now + max(1, ttl_seconds)),
            ).rowcount
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        self._purge(now)
        return inserted == 0

    def _purge(self, now: float) -> None:
        if now < self._next_purge:
            return
        self._next_purge = now + PURGE_EVERY_SECONDS
        db = self._conn()
        db.execute("DELETE FROM conversations WHERE expires_at <= ?", (now,))
        db.execute("DELETE FROM seen_events WHERE expires_at <= ?", (now,))
