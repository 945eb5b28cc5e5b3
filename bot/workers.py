"""`manda serve --workers N`: N HTTP processes sharing one port, each restarted if it dies.

One process acks a burst on one core. With N processes on one port (SO_REUSEPORT) the kernel
spreads Slack's connections over them, with no load balancer in between. Each is a plain
`manda serve --reuse-port` with the same settings and environment; they share Redis (required:
event de-duplication, locks and thread memory must be common to all) and `MANDA_HOME`. A child
that exits is started again, after a pause that grows while it keeps dying within seconds of
starting; one that fails that way `MAX_QUICK_EXITS` times in a row stops them all, with the
reason. SIGTERM or Ctrl-C stops every child, each finishing the jobs it has started.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from manda.config import Settings
from manda.errors import MandaError

log = logging.getLogger(__name__)

RESTART_PAUSE_SECONDS = 1.0  # before starting a child that died; doubles while it dies quickly
MAX_PAUSE_SECONDS = 30.0
QUICK_EXIT_SECONDS = 10.0  # a child dying sooner than this after its start is failing to start
MAX_QUICK_EXITS = 5
STOP_SECONDS = 30.0  # a child's time to finish its jobs after SIGTERM, then SIGKILL


@dataclass(frozen=True)
class WorkerPlan:
    """What every child is started with; worker `i` gets status port `status_port + i`."""

    count: int
    host: str
    port: int
    loop: str  # auto, uvloop or asyncio
    status_port: int | None = None
    verbose: bool = False


def child_command(plan: WorkerPlan, index: int) -> list[str]:
    """`manda serve` for worker `index`, sharing the port."""
    command = [sys.executable, "-m", "bot.cli", *(["-v"] if plan.verbose else []), "serve",
               "--host", plan.host, "--port", str(plan.port), "--loop", plan.loop,
               "--reuse-port"]
    if plan.status_port is not None:
        command += ["--status-port", str(plan.status_port + index)]
    return command


def check_workers(settings: Settings, count: int, *, socket_mode: bool) -> None:
    """Refuse a worker count that could answer an event twice, saying what to set."""
    if count < 1:
        raise MandaError(f"--workers {count}: give 1 or more.")
    if count == 1:
        return
    if socket_mode:
        raise MandaError(
            "--workers applies to HTTP mode only.",
            hint="Socket Mode needs one connection: run `manda serve --socket` without --workers.",
        )
    if not settings.redis_url:
        raise MandaError(
            f"--workers {count} needs REDIS_URL: event de-duplication, locks and thread memory "
            "must be shared by the processes, or a retried event could be answered twice.",
            hint="Start Redis and set REDIS_URL=redis://HOST:6379/0, or run one worker.",
        )


def reserve_port(host: str, port: int) -> socket.socket:
    """A socket bound to the shared port (never listening): holds it, and picks one for 0."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise MandaError(
            f"cannot listen on {host}:{port} ({exc.strerror}).",
            hint="Another program holds the port: stop it or choose another with --port.",
        ) from exc
    return sock


class WorkerFailed(MandaError):
    """A child kept exiting right after it started."""


class Supervisor:
    """Starts the children, restarts any that exits, stops them all on request."""

    def __init__(
        self, plan: WorkerPlan, *, command: Callable[[WorkerPlan, int], list[str]] = child_command,
        restart_pause: float = RESTART_PAUSE_SECONDS, max_quick_exits: int = MAX_QUICK_EXITS,
    ) -> None:
        self.plan = plan
        self.command = command
        self.restart_pause = restart_pause
        self.max_quick_exits = max_quick_exits
        self.pids: dict[int, int] = {}  # worker index -> its current process id

    async def run(self, stop: asyncio.Event) -> None:
        """Until `stop` is set; raises WorkerFailed (after stopping the rest) if one fails."""
        tasks = [asyncio.create_task(self._keep(n, stop)) for n in range(self.plan.count)]
        try:
            await asyncio.gather(*tasks)
        except WorkerFailed:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise

    async def _keep(self, index: int, stop: asyncio.Event) -> None:
        pause, quick_exits = self.restart_pause, 0
        while not stop.is_set():
            started = time.monotonic()
            # its own session: Ctrl-C reaches the supervisor alone, which stops the child with
            # SIGTERM so that it finishes its jobs
            child = await asyncio.create_subprocess_exec(
                *self.command(self.plan, index), start_new_session=True
            )
            self.pids[index] = child.pid
            log.warning("worker %d started (pid %d)", index, child.pid)
            exited = asyncio.ensure_future(child.wait())
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({exited, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if not exited.done():  # asked to stop: the child finishes its jobs first
                await self._stop(child, exited)
                return
            if stop.is_set():
                return
            code = exited.result()
            quick = time.monotonic() - started < QUICK_EXIT_SECONDS
            quick_exits = quick_exits + 1 if quick else 0
            if quick_exits >= self.max_quick_exits:
                raise WorkerFailed(
                    f"worker {index} exited {quick_exits} times within "
                    f"{QUICK_EXIT_SECONDS:g} s of starting (last exit code {code}).",
                    hint="Its log above says why; fix that and start `manda serve` again.",
                )
            pause = min(pause * 2, MAX_PAUSE_SECONDS) if quick else self.restart_pause
            log.warning("worker %d (pid %d) exited with code %s; starting it again in %g s",
                        index, child.pid, code, pause)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), pause)

    async def _stop(self, child: asyncio.subprocess.Process, exited: asyncio.Future[int]) -> None:
        with contextlib.suppress(ProcessLookupError):
            child.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(exited, STOP_SECONDS)
        except TimeoutError:
            log.warning("worker pid %d did not stop within %g s; killed", child.pid,
                        STOP_SECONDS)
            with contextlib.suppress(ProcessLookupError):
                child.kill()
            await exited


async def supervise(plan: WorkerPlan) -> None:
    """Run `plan.count` workers on one port until SIGTERM or Ctrl-C."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # not on Windows
            loop.add_signal_handler(signum, stop.set)
    holder = reserve_port(plan.host, plan.port)
    try:
        plan = dataclasses.replace(plan, port=holder.getsockname()[1])  # 0: the one picked
        log.warning("Manda runs %d workers on %s:%d (SO_REUSEPORT); Ctrl-C stops them.",
                    plan.count, plan.host, plan.port)
        await Supervisor(plan).run(stop)
    finally:
        holder.close()
