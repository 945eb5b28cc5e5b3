"""How `manda serve` listens: a burst's connections are queued, not dropped; its event loop.

Slack sends each event over its own connection and wants an HTTP 200 within 3 seconds, or it
retries (X-Slack-Retry-Num / X-Slack-Retry-Reason):
https://docs.slack.dev/apis/events-api/using-http-request-urls (formerly
https://api.slack.com/apis/events-api). A connection the kernel's accept queue has no room for is
dropped and resent a second later, a third of that budget gone.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlparse

import pytest
from slackworld import SlackWorld

import bot.cli
from bot.run import LISTEN_BACKLOG
from manda.cli import build_parser, main
from manda.config import Settings


def listen_backlog(port: int) -> int:
    """The accept queue of the socket listening on `port`, as the kernel reports it (`ss`)."""
    out = subprocess.run(
        ["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True, check=True
    ).stdout
    # State Recv-Q Send-Q Local Peer: on a listening socket Send-Q is its backlog
    # (https://man7.org/linux/man-pages/man8/ss.8.html)
    [line] = out.splitlines()
    return int(line.split()[2])


async def test_the_accept_queue_holds_a_burst_of_connections(world: SlackWorld) -> None:
    if shutil.which("ss") is None:
        pytest.skip("`ss` (iproute2) not installed")
    port = urlparse(world.fake.request_url).port
    assert port is not None
    somaxconn = int(Path("/proc/sys/net/core/somaxconn").read_text())
    # 200 mentions at once are 400 connections; aiohttp's default would queue 128
    assert listen_backlog(port) == min(LISTEN_BACKLOG, somaxconn) >= 400


def test_serve_runs_on_uvloop_unless_asked_for_asyncio() -> None:
    uvloop = pytest.importorskip("uvloop")
    parse = build_parser(bot.cli.REGISTRARS).parse_args
    assert parse(["serve"]).loop_factory is uvloop.new_event_loop
    assert parse(["serve", "--loop", "uvloop"]).loop_factory is uvloop.new_event_loop
    assert parse(["serve", "--loop", "asyncio"]).loop_factory is asyncio.new_event_loop
    with pytest.raises(SystemExit):
        parse(["serve", "--loop", "trio"])


def test_the_cli_runs_a_command_on_the_loop_it_chose() -> None:
    uvloop = pytest.importorskip("uvloop")
    loops: list[str] = []

    async def record(args: argparse.Namespace, settings: Settings) -> int:
        loops.append(type(asyncio.get_running_loop()).__module__.split(".")[0])
        return 0

    def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        p = sub.add_parser("probe")
        p.add_argument("--loop", dest="loop_factory", type=bot.cli.event_loop, default="auto")
        p.set_defaults(handler=record)

    assert main(["probe"], extra=[register]) == 0
    assert main(["probe", "--loop", "asyncio"], extra=[register]) == 0
    assert loops == [uvloop.__name__, "asyncio"]
