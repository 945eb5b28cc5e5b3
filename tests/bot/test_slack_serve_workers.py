"""`manda serve --workers N`: N processes on one port (SO_REUSEPORT), a dead one started again.

Slack wants each event acked with an HTTP 200 within 3 seconds, or it retries it (with
X-Slack-Retry-Num / X-Slack-Retry-Reason): https://api.slack.com/apis/events-api — so several
processes must share event de-duplication (Redis), and a worker that dies must come back.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

import bot.cli
from bot.workers import Supervisor, WorkerFailed, WorkerPlan, child_command

ROOT = Path(__file__).resolve().parents[2]
READY_SECONDS = 120.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_several_workers_need_redis_and_http_mode(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "secret")
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert bot.cli.main(["serve", "--workers", "2", "--port", "0"]) == 1
    assert "--workers 2 needs REDIS_URL" in capsys.readouterr().err
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    assert bot.cli.main(["serve", "--workers", "2", "--socket"]) == 1
    assert "HTTP mode only" in capsys.readouterr().err


def test_each_worker_shares_the_port_and_has_its_own_status_port() -> None:
    plan = WorkerPlan(count=2, host="0.0.0.0", port=3000, loop="uvloop", status_port=9100)
    command = child_command(plan, 1)
    assert command[1:4] == ["-m", "bot.cli", "serve"]
    assert command[4:] == ["--host", "0.0.0.0", "--port", "3000", "--loop", "uvloop",
                           "--reuse-port", "--status-port", "9101"]


async def test_a_worker_that_keeps_dying_at_start_stops_them_all_with_the_reason() -> None:
    plan = WorkerPlan(count=2, host="127.0.0.1", port=0, loop="asyncio")
    supervisor = Supervisor(
        plan,
        command=lambda _, n: [sys.executable, "-c", f"import time; time.sleep({n * 60})"] if n
        else [sys.executable, "-c", "raise SystemExit(3)"],
        restart_pause=0.01,
        max_quick_exits=3,
    )
    stop = asyncio.Event()
    with pytest.raises(WorkerFailed, match=r"worker 0 exited 3 times .*last exit code 3"):
        await asyncio.wait_for(supervisor.run(stop), 60)
    assert stop.is_set()
    with pytest.raises(ProcessLookupError):  # the healthy one was stopped too
        os.kill(supervisor.pids[1], 0)


async def healthy(port: int) -> bool:
    try:
        async with aiohttp.ClientSession() as session, session.get(
            f"http://127.0.0.1:{port}/healthz", timeout=aiohttp.ClientTimeout(total=5)
        ) as response:
            return response.status == 200
    except (aiohttp.ClientError, TimeoutError):
        return False


def started(log: Path) -> dict[int, int]:
    """Worker index -> pid, from the supervisor's latest `worker N started (pid P)` lines."""
    return {int(n): int(pid) for n, pid in
            re.findall(r"worker (\d+) started \(pid (\d+)\)", log.read_text())}


async def wait_for(condition, what: str, log: Path) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + READY_SECONDS
    while not await condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} after {READY_SECONDS:g} s; log:\n{log.read_text()}")
        await asyncio.sleep(0.2)


@pytest.mark.slow
@pytest.mark.redis
async def test_workers_share_one_port_and_a_killed_one_is_started_again(
    tmp_path: Path, redis_url: str
) -> None:
    port, status = free_port(), free_port()
    log = tmp_path / "serve.log"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "REDIS_"))},
           "MANDA_HOME": str(tmp_path / "home"), "SLACK_BOT_TOKEN": "xoxb-test",
           "SLACK_SIGNING_SECRET": "secret", "SLACK_API_URL": "http://127.0.0.1:9/api/",
           "REDIS_URL": redis_url}
    with log.open("wb") as out:
        supervisor = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "serve", "--workers", "2", "--port", str(port),
             "--status-port", str(status)], cwd=ROOT, env=env, stdout=out, stderr=out)
    try:
        async def both_ready() -> bool:
            return await healthy(status) and await healthy(status + 1)

        await wait_for(both_ready, "the two workers are not ready", log)
        first = started(log)
        assert sorted(first) == [0, 1]
        assert await healthy(port)  # the shared port answers
        if shutil.which("ss"):  # both processes listen on it
            listening = subprocess.run(["ss", "-ltnpH", f"sport = :{port}"], text=True,
                                       capture_output=True, check=True).stdout
            assert {int(p) for p in re.findall(r"pid=(\d+)", listening)} == set(first.values())

        os.kill(first[1], signal.SIGKILL)

        async def restarted() -> bool:
            return started(log).get(1) not in (None, first[1]) and await healthy(status + 1)

        await wait_for(restarted, "worker 1 was not started again", log)
        assert f"worker 1 (pid {first[1]}) exited with code -9" in log.read_text()
        assert started(log)[0] == first[0]
    finally:
        supervisor.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(supervisor.wait, 60)
    assert code == 0
    for pid in started(log).values():  # every worker stopped with it
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
