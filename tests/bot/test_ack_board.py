"""Acks before work across the workers of one host: the shared ack board (`bot.ackboard`)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.ackboard import AckBoard
from bot.background import QUIET_SECONDS, BackgroundJobs

QUIET_NS = int(QUIET_SECONDS * 1e9)
STALE_NS = int(1e9)


@pytest.fixture
def boards(tmp_path: Path):  # type: ignore[no-untyped-def]
    joined: list[AckBoard] = []

    def join() -> AckBoard:
        board = AckBoard.join(tmp_path)
        assert board is not None
        joined.append(board)
        return board

    yield join
    for board in joined:
        board.close()


def test_another_workers_open_ack_is_seen_until_it_has_been_quiet(boards) -> None:  # type: ignore[no-untyped-def]
    mine, other = boards(), boards()
    assert not mine.others_busy(QUIET_NS, STALE_NS)
    other.opened()
    assert mine.others_busy(QUIET_NS, STALE_NS)
    assert not other.others_busy(QUIET_NS, STALE_NS)  # its own acks are not "another's"
    other.closed()
    assert mine.others_busy(QUIET_NS, STALE_NS)  # acked just now: a burst may go on
    time.sleep(QUIET_SECONDS * 1.5)
    assert not mine.others_busy(QUIET_NS, STALE_NS)


async def test_a_job_waits_while_another_worker_acks(boards) -> None:  # type: ignore[no-untyped-def]
    mine, other = boards(), boards()
    jobs = BackgroundJobs()
    jobs.share_acks(mine)
    started = asyncio.Event()

    async def work() -> None:
        started.set()

    other.opened()
    jobs.spawn(work(), name="answer")
    await asyncio.sleep(0.2)
    assert not started.is_set()  # the other worker is still acking
    other.closed()
    await asyncio.wait_for(started.wait(), timeout=5)
    assert started.is_set()
    await jobs.drain()


async def test_a_job_waits_at_most_the_ack_first_bound(boards) -> None:  # type: ignore[no-untyped-def]
    mine, other = boards(), boards()
    jobs = BackgroundJobs(ack_first_seconds=0.1)
    jobs.share_acks(mine)
    started = asyncio.Event()

    async def work() -> None:
        started.set()

    other.opened()  # an ack that never ends
    jobs.spawn(work(), name="answer")
    await asyncio.wait_for(started.wait(), timeout=5)  # raises TimeoutError if starved
    assert started.is_set()


def test_a_killed_worker_neither_holds_its_slot_nor_holds_jobs_back(tmp_path: Path) -> None:
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from bot.ackboard import AckBoard\n"
        "board = AckBoard.join(Path(sys.argv[1]))\n"
        "board.opened()\n"
        "print('acking', flush=True)\n"
        "time.sleep(60)\n"
    )
    with subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True,
        cwd=Path(__file__).resolve().parents[2],
    ) as child:
        _ack_in_child_then_kill_it(child, tmp_path)


def _ack_in_child_then_kill_it(child: subprocess.Popen[str], tmp_path: Path) -> None:
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "acking"
        mine = AckBoard.join(tmp_path)
        assert mine is not None
        try:
            assert mine.others_busy(QUIET_NS, STALE_NS)  # the child is acking
            assert mine.slot == 1  # the child holds the first
            os.kill(child.pid, signal.SIGKILL)
            child.wait(timeout=10)
            time.sleep(0.06)
            # its count stays on the board, but unchanged past the bound it holds nobody back
            assert not mine.others_busy(QUIET_NS, stale_ns=int(0.05e9))
            # and its slot is free for the worker started in its place
            again = AckBoard.join(tmp_path)
            assert again is not None and again.slot == 0
            again.close()
        finally:
            mine.close()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_without_a_writable_home_the_worker_acks_first_on_its_own(tmp_path: Path) -> None:
    blocker = tmp_path / "home"
    blocker.write_text("a file where the home should be")
    assert AckBoard.join(blocker) is None
