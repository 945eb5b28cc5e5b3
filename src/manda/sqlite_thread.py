"""One WAL-mode SQLite connection on one private thread, shared by the embedded queue and memory.

Every statement runs on that thread, so the event loop never waits on the disk and the connection
is never shared between threads. SQLite and disk failures come back as `BackendUnavailableError`
naming the file, what was being done, and what to check.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from manda.errors import BackendUnavailableError
from manda.private import private_file

T = TypeVar("T")


class SqliteThread:
    """Opens `path` with `schema` on `start`, runs functions on the connection's thread.

    `what` names the store in errors ("The job queue"), `hint` says what to check, and
    `not_started` is the message for a call before `start()` (or after `aclose()`).
    """

    def __init__(
        self,
        path: Path,
        schema: str,
        *,
        what: str,
        hint: str,
        thread_name: str,
        not_started: str,
    ) -> None:
        self.path = path
        self._schema = schema
        self._what = what
        self._hint = hint
        self._thread_name = thread_name
        self._not_started = not_started
        self._executor: ThreadPoolExecutor | None = None
        self._db: sqlite3.Connection | None = None

    async def start(self, doing: str) -> None:
        """Open the file (creating its folder and schema); `doing` names this in errors."""
        if self._executor is not None:
            return
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self._thread_name)
        try:
            await self.run(doing, self._open)
        except BaseException:
            self._executor.shutdown(wait=False)
            self._executor = None
            raise

    async def aclose(self) -> None:
        executor, self._executor = self._executor, None
        if executor is None:
            return
        try:
            await asyncio.get_running_loop().run_in_executor(executor, self._close)
        finally:
            executor.shutdown(wait=False)

    async def run(self, doing: str, fn: Callable[..., T], *args: object) -> T:
        """`fn(*args)` on the connection's thread; `doing` says what it was in errors."""
        if self._executor is None:
            raise RuntimeError(self._not_started)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, functools.partial(fn, *args))
        except (sqlite3.Error, OSError) as exc:
            raise BackendUnavailableError(
                f"{self._what} at {self.path} failed while {doing}: {exc}.", hint=self._hint
            ) from exc

    def conn(self) -> sqlite3.Connection:
        """The open connection; only to be used on its thread (inside `run`)."""
        if self._db is None:
            raise RuntimeError(self._not_started)
        return self._db

    def _open(self) -> None:
        private_file(self.path)
        db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(self._schema)
        except BaseException:
            db.close()
            raise
        self._db = db

    def _close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            db.close()
