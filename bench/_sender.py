"""Slack's side of a burst, as its own process: pre-signed requests, one connection each, timed.

    python bench/_sender.py < burst.json > timings.json

The input names the targets (host, port: a load balancer, or the workers themselves, taken in
turn) and the requests (path, headers, body), already signed. Slack sends each event over its
own connection, so every request gets one, opened before the burst: connection set-up is
reported apart, never inside an ack. Then every request is written, one after another with no
pause, and each is timed from its first byte sent to the last byte of its response read, in
`asyncio.Protocol` callbacks (no stream or HTTP-client layer in between). A ticker measures the
sender's own event-loop lag meanwhile, so a slow sender is seen as such, not blamed on the bot.
This process does nothing else: the fake Slack's Web API, which the workers call while
answering, runs in the bench's process.

Output (JSON): per request its target, status, `sent` and `done` (seconds after the first
request was sent) and `connect` (seconds to open its connection); the sender's loop lag; and,
for the process ids given as `pids` (the workers, on this host), the CPU seconds each used from
the first byte sent to its last response read when the targets are the workers themselves, else
to the last response of all (Linux's /proc/PID/task/*/schedstat).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TICK_SECONDS = 0.001
DEADLINE_SECONDS = 30.0  # Slack gives up on an ack after 3 s; a burst is far shorter
CONNECT_AT_ONCE = 64  # connections opened concurrently before the burst (kept under any backlog)


class Exchange(asyncio.Protocol):
    """One request on its own connection: the time its response was complete, and its status."""

    def __init__(self, on_done: Callable[[], None] = lambda: None) -> None:
        self.on_done = on_done
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.status = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.buffer += data
        head, sep, body = bytes(self.buffer).partition(b"\r\n\r\n")
        if not sep or self.done.done():
            return
        lines = head.decode("latin-1").split("\r\n")
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        if len(body) >= length:
            self.status = int(lines[0].split()[1])
            self.done.set_result(now)
            self.on_done()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_exception(ConnectionError(f"connection closed before a response: {exc}"))


def raw_request(host: str, port: int, request: dict[str, Any]) -> bytes:
    body = request["body"].encode()
    headers = {"Host": f"{host}:{port}", **request["headers"], "Content-Length": str(len(body))}
    head = f"POST {request['path']} HTTP/1.1\r\n" + "".join(
        f"{name}: {value}\r\n" for name, value in headers.items()
    )
    return head.encode() + b"\r\n" + body


async def loop_lag(stop: asyncio.Event, lags: list[float]) -> None:
    """How late a 1 ms tick wakes: the sender's own delay in writing and reading."""
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(TICK_SECONDS)
        lags.append(time.perf_counter() - started - TICK_SECONDS)


def cpu_seconds(pid: int) -> float:
    """CPU time `pid` has used, all its threads, from the scheduler's own count (ns): 0 if gone."""
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            total += int((task / "schedstat").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    return total / 1e9


async def burst(spec: dict[str, Any]) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    targets = [(str(h), int(p)) for h, p in spec["targets"]]
    requests = spec["requests"]
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)
    pids = [int(pid) for pid in spec.get("pids", [])]
    # with one pid a target (straight to the workers), each worker's CPU is read at its own
    # last ack, before its jobs start; else every worker's at the last ack of all
    per_target = len(pids) == len(targets)
    left = [len(range(n, len(requests), len(targets))) for n in range(len(targets))]
    cpu_after: dict[int, float] = {}

    def finished(target: int) -> None:
        left[target] -= 1
        if per_target and left[target] == 0:
            cpu_after[target] = cpu_seconds(pids[target])

    async def connect(n: int) -> tuple[Exchange, float]:
        host, port = targets[n % len(targets)]
        async with gate:
            started = time.perf_counter()
            _, exchange = await loop.create_connection(
                lambda: Exchange(lambda: finished(n % len(targets))), host, port
            )
            return exchange, time.perf_counter() - started

    opened = await asyncio.gather(*(connect(n) for n in range(len(requests))))
    raws = [raw_request(*targets[n % len(targets)], r) for n, r in enumerate(requests)]
    await asyncio.sleep(0.2)  # connections settled (accepted and idle) before the burst

    stop, lags = asyncio.Event(), []
    ticker = asyncio.ensure_future(loop_lag(stop, lags))
    await asyncio.sleep(0)
    cpu_before = [cpu_seconds(pid) for pid in pids]
    sent = []
    start = time.perf_counter()
    for (exchange, _), raw in zip(opened, raws, strict=True):
        sent.append(time.perf_counter() - start)
        assert exchange.transport is not None
        exchange.transport.write(raw)
    done: list[float | str] = []
    for exchange, _ in opened:
        try:
            finished = await asyncio.wait_for(
                asyncio.shield(exchange.done), DEADLINE_SECONDS - (time.perf_counter() - start)
            )
            done.append(finished - start)
        except (TimeoutError, ConnectionError) as exc:
            done.append(f"{type(exc).__name__}: {exc}")
    # the workers' CPU until their last ack (their jobs wait until no ack was open for 50 ms)
    cpu = [
        cpu_after.get(n, cpu_seconds(pid)) - was
        for n, (pid, was) in enumerate(zip(pids, cpu_before, strict=True))
    ]
    stop.set()
    await ticker
    for exchange, _ in opened:
        if exchange.transport is not None:
            exchange.transport.close()
    return {
        "requests": [
            {
                "target": n % len(targets),
                "status": exchange.status,
                "sent": sent[n],
                "done": done[n],
                "connect": took,
            }
            for n, (exchange, took) in enumerate(opened)
        ],
        "loop_lag": lags,
        "cpu": cpu,
        "start": start,  # time.perf_counter() at the first byte: the system's monotonic clock
    }


def main() -> None:
    spec = json.load(sys.stdin)
    json.dump(asyncio.run(burst(spec)), sys.stdout)


if __name__ == "__main__":
    main()
