"""One SQLite connection owned by one worker thread, so SQLite work never blocks the event loop.

Why a single-thread executor rather than `asyncio.to_thread` with a connection per thread:
a process writes through one connection anyway (SQLite has one writer), a connection used by one
thread needs no locking, and the in-memory vector cache is only touched from that same thread.
Writes run in short `BEGIN IMMEDIATE` transactions, so a second process (the CLI next to the
bot) waits on the busy timeout at the start of a write instead of failing halfway through it.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeAlias, TypeVar

from manda.errors import BackendUnavailableError
from manda.kg.embedded.schema import BUSY_TIMEOUT_MS, apply_schema, configure
from manda.private import private_file

P = ParamSpec("P")
T = TypeVar("T")

# A function run on the connection's thread: `fn(conn, *args, **kwargs)`.
SqlFn: TypeAlias = Callable[Concatenate[sqlite3.Connection, P], T]


class SqliteRunner:
    """Runs functions `fn(conn, ...)` on the connection's own thread, in short transactions."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None

    async def open(self) -> None:
        if self._executor is not None:
            return
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="manda-kg")
        try:
            self._conn = await self._submit(self._connect)
        except BaseException:
            self._executor.shutdown(wait=False)
            self._executor = None
            raise

    async def close(self) -> None:
        executor, conn = self._executor, self._conn
        self._executor, self._conn = None, None
        if executor is None:
            return
        if conn is not None:
            await asyncio.get_running_loop().run_in_executor(executor, conn.close)
        executor.shutdown(wait=True)

    async def check(self) -> None:
        """Raise `BackendUnavailableError` unless the file is open and its schema readable."""
        await self._submit(self._check)

    async def read(self, fn: SqlFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `fn` inside one read transaction: a consistent snapshot of the database."""
        return await self._submit(self._in_transaction, "BEGIN", fn, *args, **kwargs)

    async def write(self, fn: SqlFn[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `fn` inside one short write transaction, committed on success."""
        return await self._submit(self._in_transaction, "BEGIN IMMEDIATE", fn, *args, **kwargs)

    # ---------------------------------------------------------------- on the worker thread

    def _connect(self) -> sqlite3.Connection:
        try:
            private_file(self.path)
            conn = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
            )
        except (OSError, sqlite3.Error) as exc:
            raise self._unavailable(exc) from exc
        try:
            configure(conn)
            apply_schema(conn)
        except sqlite3.Error as exc:
            conn.close()
            raise self._unavailable(exc) from exc
        return conn

    def _check(self) -> None:
        if self._conn is None:
            raise self._not_open()
        try:
            self._conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            self._conn.execute("SELECT count(*) FROM deals").fetchone()
        except sqlite3.Error as exc:
            raise self._unavailable(exc) from exc

    def _in_transaction(
        self, begin: str, fn: SqlFn[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        conn = self._conn
        if conn is None:
            raise self._not_open()
        try:
            conn.execute(begin)
        except sqlite3.OperationalError as exc:
            raise self._unavailable(exc) from exc
        try:
            result = fn(conn, *args, **kwargs)
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        try:
            conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise self._unavailable(exc) from exc
        return result

    # ---------------------------------------------------------------- helpers

    async def _submit(self, fn: Callable[..., T], *args: object, **kwargs: object) -> T:
        if self._executor is None:
            raise self._not_open()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: fn(*args, **kwargs))

    def _not_open(self) -> BackendUnavailableError:
        return BackendUnavailableError(
            f"The embedded knowledge graph at {self.path} is not open.",
            hint="Call `await graph.start()` before using it (the app does this at startup).",
        )

    def _unavailable(self, exc: BaseException) -> BackendUnavailableError:
        return BackendUnavailableError(
            f"The embedded knowledge graph at {self.path} cannot be used: {exc}.",
            hint="If another manda process is writing, try again in a moment; if the file is "
            "damaged, move it aside and re-ingest the deal's documents (`manda ingest`).",
        )
