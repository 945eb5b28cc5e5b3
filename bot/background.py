"""Work started after Slack's ack: tracked tasks, so shutdown and tests can wait for all of it.

Acks come before work: while requests are being acknowledged, and until none has been for
`QUIET_SECONDS`, a new job waits (at most `ACK_FIRST_SECONDS`). A burst of mentions is thus
acked first, then answered, instead of every ack waiting behind the answers the earlier acks
started on the same event loop. With several workers on one host (`share_acks`), a job also
waits while another worker is acking: they share the cores (`bot.ackboard`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Iterator
from typing import Any

from bot.ackboard import AckBoard

log = logging.getLogger(__name__)

# Slack retries a request not acked within 3 s; a job waits at most this long for acks to end,
# so a steady stream of requests delays work by a second, never starves it.
ACK_FIRST_SECONDS = 1.0
# A burst's requests arrive a few milliseconds apart: work starts once none came for this long.
QUIET_SECONDS = 0.05
# How often a waiting job looks at the other processes' acks (they cannot wake it).
BOARD_POLL_SECONDS = 0.005


class BackgroundJobs:
    """Background tasks of the bot; a failed job is logged (jobs tell people themselves)."""

    def __init__(self, *, ack_first_seconds: float = ACK_FIRST_SECONDS) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        self._acking = 0
        self._acked = asyncio.Event()
        self._last_ack = float("-inf")  # the loop's clock when the last open request was acked
        self._ack_first_seconds = ack_first_seconds
        self._board: AckBoard | None = None

    def share_acks(self, board: AckBoard | None) -> None:
        """Also hold jobs back while other processes on this host ack (None: this one only)."""
        self._board = board

    @contextlib.contextmanager
    def acking(self) -> Iterator[None]:
        """Around the handling of one request until its ack: jobs wait while any is open."""
        self._acking += 1
        self._acked.clear()
        if self._board is not None:
            self._board.opened()
        try:
            yield
        finally:
            self._acking -= 1
            if self._board is not None:
                self._board.closed()
            if self._acking == 0:
                self._last_ack = asyncio.get_running_loop().time()
                self._acked.set()

    def spawn(self, work: Coroutine[Any, Any, None], *, name: str) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(self._after_acks(work), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    async def _after_acks(self, work: Coroutine[Any, Any, None]) -> None:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self._ack_first_seconds):
                while True:
                    if self._acking:
                        await self._acked.wait()
                        continue
                    quiet = loop.time() - self._last_ack
                    if quiet < QUIET_SECONDS:
                        await asyncio.sleep(QUIET_SECONDS - quiet)
                    elif self._others_acking():
                        await asyncio.sleep(BOARD_POLL_SECONDS)
                    else:
                        break
        await work

    def _others_acking(self) -> bool:
        if self._board is None:
            return False
        return self._board.others_busy(
            int(QUIET_SECONDS * 1e9), int(self._ack_first_seconds * 1e9)
        )

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("job %s failed", task.get_name(), exc_info=task.exception())

    @property
    def running(self) -> int:
        return len(self._tasks)

    async def drain(self) -> None:
        """Wait until no job runs, including jobs started by jobs."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def aclose(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
