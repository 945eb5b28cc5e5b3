"""Acks before work across the bot processes of one host: a small board in shared memory.

Several workers on one machine (`manda serve --workers N`, or N processes behind a load
balancer) share its cores. Each holds its own jobs back while it is acking (`BackgroundJobs`),
but a worker that has acked its share of a burst would start answering (seconds of CPU) while
the others still ack theirs, and their acks wait for a core. The board lets a job also wait,
within the same bound, until no process on the host sharing `MANDA_HOME` is acking.

The board is a file of fixed slots mapped into every process. A process takes a free slot by
locking its byte range (`fcntl` record locks end with the process, so a crashed worker's slot is
free again) and writes there how many requests it has open and when it last acked one, on
`CLOCK_MONOTONIC` (one clock for every process of a Linux host). Reads take no lock: a torn read
can only make a job wait a little longer or shorter, never past `ACK_FIRST_SECONDS`.
"""

from __future__ import annotations

import fcntl
import logging
import mmap
import os
import struct
import time
from pathlib import Path

log = logging.getLogger(__name__)

SLOTS = 64
# per slot: requests open (u32), pid (u32), when the count last changed, when the last open
# request was acked (both ns on CLOCK_MONOTONIC)
SLOT = struct.Struct("<IIqq")
BOARD_FILE = Path("run") / "ack-board"
# Record locks belong to the process, not the descriptor: slots this process took are kept here,
# so a second board in one process (tests) takes another slot.
_TAKEN: set[tuple[Path, int]] = set()


def monotonic_ns() -> int:
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


class AckBoard:
    """This process's slot on the host's board, and what the other slots say."""

    def __init__(self, path: Path, fd: int, memory: mmap.mmap, slot: int) -> None:
        self._path = path
        self._fd = fd
        self._memory = memory
        self._slot = slot
        self._open = 0
        self._changed = 0
        self._last_ack = 0

    @classmethod
    def join(cls, home: Path) -> AckBoard | None:
        """Take a slot on the board under `home`; None (and a log line) when that cannot be done:
        the process then only holds back its own jobs."""
        path = home / BOARD_FILE
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            log.warning("no shared ack board at %s (%s): acks first within this process", path, exc)
            return None
        try:
            if os.fstat(fd).st_size < SLOTS * SLOT.size:
                os.ftruncate(fd, SLOTS * SLOT.size)
            memory = mmap.mmap(fd, SLOTS * SLOT.size)
            for slot in range(SLOTS):
                if (path, slot) in _TAKEN:
                    continue
                try:
                    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, SLOT.size, slot * SLOT.size)
                except OSError:
                    continue  # another live process holds it
                _TAKEN.add((path, slot))
                board = cls(path, fd, memory, slot)
                board._write()
                return board
            memory.close()
        except OSError as exc:
            log.warning("no shared ack board at %s (%s): acks first within this process", path, exc)
        else:
            log.warning(
                "the ack board at %s has no free slot (%d processes): acks first within this "
                "process", path, SLOTS,
            )
        os.close(fd)
        return None

    @property
    def slot(self) -> int:
        return self._slot

    def opened(self) -> None:
        self._open += 1
        self._changed = monotonic_ns()
        self._write()

    def closed(self) -> None:
        self._open -= 1
        self._changed = monotonic_ns()
        if self._open == 0:
            self._last_ack = self._changed
        self._write()

    def others_busy(self, quiet_ns: int, stale_ns: int) -> bool:
        """Whether another process is acking, or acked its last open request under `quiet_ns`
        ago. A count unchanged for `stale_ns` is a stalled or killed process's, and ignored."""
        now = monotonic_ns()
        for slot in range(SLOTS):
            if slot == self._slot:
                continue
            open_, pid, changed, last_ack = SLOT.unpack_from(self._memory, slot * SLOT.size)
            if not pid:
                continue
            if open_ and now - changed < stale_ns:
                return True
            if now - last_ack < quiet_ns:
                return True
        return False

    def close(self) -> None:
        """Leave the board: the slot is cleared and unlocked."""
        self._open = 0
        SLOT.pack_into(self._memory, self._slot * SLOT.size, 0, 0, 0, 0)
        self._memory.close()
        fcntl.lockf(self._fd, fcntl.LOCK_UN, SLOT.size, self._slot * SLOT.size)
        _TAKEN.discard((self._path, self._slot))
        os.close(self._fd)

    def _write(self) -> None:
        SLOT.pack_into(
            self._memory, self._slot * SLOT.size,
            max(self._open, 0), os.getpid(), self._changed, self._last_ack,
        )
