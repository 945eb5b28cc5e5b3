"""Conversation memory in a SQLite file under MANDA_HOME, so one process needs no Redis."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from manda.memory.port import Conversation
from manda.sqlite_thread import SqliteThread
from manda.traces import MAX_TRACE_BYTES, MAX_TRACES, AnswerTrace

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
CREATE TABLE IF NOT EXISTS traces (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL,
    answer_id TEXT NOT NULL,
    body TEXT NOT NULL,
    expires_at REAL NOT NULL,
    UNIQUE (conversation_id, answer_id)
);
CREATE INDEX IF NOT EXISTS traces_expiry ON traces (expires_at);
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
        max_traces: int = MAX_TRACES,
        max_trace_bytes: int = MAX_TRACE_BYTES,
    ) -> None:
        if ttl_seconds < 1:
            raise ValueError("ttl_seconds must be at least 1 second")
        self.path = path
        self.ttl_seconds = ttl_seconds
        self.max_traces = max_traces
        self.max_trace_bytes = max_trace_bytes
        self._clock = clock
        self._sqlite = SqliteThread(
            path,
            SCHEMA,
            what="The conversation memory",
            hint="Check that MANDA_HOME is writable and has free space. The file holds only "
            "short-term context: deleting it (with Manda stopped) starts conversations afresh.",
            thread_name="manda-memory",
            not_started=NOT_STARTED,
        )
        self._conn = self._sqlite.conn
        self._next_purge = 0.0

    @classmethod
    def in_home(
        cls, home: Path, *, ttl_seconds: int = DEFAULT_TTL_SECONDS
    ) -> SqliteConversationMemory:
        """The default store: `memory.db` in MANDA_HOME."""
        return cls(home / FILENAME, ttl_seconds=ttl_seconds)

    async def start(self) -> None:
        await self._sqlite.start("opening the store")

    async def aclose(self) -> None:
        await self._sqlite.aclose()

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

    async def save_trace(self, trace: AnswerTrace) -> None:
        """Keep the trace beside its conversation: the newest `max_traces`, the same expiry."""
        body = trace.fitted(self.max_trace_bytes).model_dump_json()
        await self._run(f"saving the trace of answer {trace.answer_id}", self._save_trace,
                        trace.conversation_id, trace.answer_id, body)

    async def load_trace(self, conversation_id: str, answer_id: str) -> AnswerTrace | None:
        body = await self._run(f"loading the trace of answer {answer_id}", self._load_trace,
                               conversation_id, answer_id)
        if body is None:
            return None
        try:
            return AnswerTrace.model_validate_json(body)
        except ValidationError as exc:
            log.warning("Dropping unreadable trace %s from %s: %s", answer_id, self.path, exc)
            return None

    # -- on the store's thread -------------------------------------------------------------

    async def _run(self, doing: str, fn: Callable[..., T], *args: object) -> T:
        return await self._sqlite.run(doing, fn, *args)

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
        # an answer's trace lives as long as its conversation
        self._conn().execute("UPDATE traces SET expires_at = ? WHERE conversation_id = ?",
                             (now + self.ttl_seconds, conversation_id))
        self._purge(now)

    def _save_trace(self, conversation_id: str, answer_id: str, body: str) -> None:
        now = self._clock()
        db = self._conn()
        row = db.execute("SELECT expires_at FROM conversations WHERE id = ? AND expires_at > ?",
                         (conversation_id, now)).fetchone()
        expires = row[0] if row else now + self.ttl_seconds
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(
                "INSERT INTO traces (conversation_id, answer_id, body, expires_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (conversation_id, answer_id) DO UPDATE SET "
                "body = excluded.body, expires_at = excluded.expires_at",
                (conversation_id, answer_id, body, expires))
            db.execute(
                "DELETE FROM traces WHERE conversation_id = ? AND seq NOT IN (SELECT seq FROM "
                "traces WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?)",
                (conversation_id, conversation_id, self.max_traces))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _load_trace(self, conversation_id: str, answer_id: str) -> str | None:
        row = self._conn().execute(
            "SELECT body FROM traces WHERE conversation_id = ? AND answer_id = ? "
            "AND expires_at > ?", (conversation_id, answer_id, self._clock())).fetchone()
        return None if row is None else row[0]

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
        db.execute("DELETE FROM traces WHERE expires_at <= ?", (now,))
