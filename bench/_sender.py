"""Slack's side of a burst, as its own process: pre-signed requests, one connection each, timed.

    python bench/_sender.py < burst.json > timings.json

The input names the targets (host, port: a load balancer, or the workers themselves, taken in
turn) and the requests (path, headers, body), already signed. Slack sends each event over its
own connection, so every request gets one, opened before the burst: connection set-up is
reported apart, never inside an ack. Then every request's bytes (built beforehand) are written,
one after another with no pause, and each is timed from its first byte sent to the last byte of
its response, two ways:

- `arrived`: when the kernel queued the response's last bytes on the sender's socket (Linux's
  receive timestamp, `SO_TIMESTAMPNS`, read with each `recvmsg`) — what Slack's clock sees minus
  the network, whether or not this process was on a core at that moment;
- `done`: when this process read it — the same plus the sender's own delay in getting a core and
  reading (on 2 shared cores, tens of milliseconds in a burst).

No event-loop library sits in between: one `epoll` loop over non-blocking sockets. The loop's own
lag (how late a 1 ms tick wakes) is recorded meanwhile, so a slow sender is seen as such, not
blamed on the bot. This process does nothing else: the fake Slack's Web API, which the workers
call while answering, runs in the bench's process.

Output (JSON): per request its target, status, `sent`, `done` and `arrived` (seconds after the
first request was sent; `arrived` is null where the kernel gives no timestamp) and `connect`
(seconds to open its connection); the sender's loop lag; and, for the process ids given as `pids`
(the workers, on this host), the CPU seconds each used from the first byte sent to its last
response read when the targets are the workers themselves, else to the last response of all
(Linux's /proc/PID/task/*/schedstat).
"""

from __future__ import annotations

import json
import select
import socket
import struct
import sys
import time
from pathlib import Path
from typing import Any

TICK_SECONDS = 0.001
DEADLINE_SECONDS = 30.0  # Slack gives up on an ack after 3 s; a burst is far shorter
# Linux's SO_TIMESTAMPNS (asm-generic/socket.h; Python's socket module does not name it): each
# recvmsg on a TCP socket then carries, as SCM_TIMESTAMPNS, the time the kernel received the
# last segment read (a struct timespec, CLOCK_REALTIME). https://docs.kernel.org/networking/timestamping.html
SO_TIMESTAMPNS = 35
TIMESPEC = struct.Struct("@qq")


def raw_request(host: str, port: int, request: dict[str, Any]) -> bytes:
    body = request["body"].encode()
    headers = {"Host": f"{host}:{port}", **request["headers"], "Content-Length": str(len(body))}
    head = f"POST {request['path']} HTTP/1.1\r\n" + "".join(
        f"{name}: {value}\r\n" for name, value in headers.items()
    )
    return head.encode() + b"\r\n" + body


def cpu_seconds(pid: int) -> float:
    """CPU time `pid` has used, all its threads, from the scheduler's own count (ns): 0 if gone."""
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            total += int((task / "schedstat").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    return total / 1e9


def complete(buffer: bytes) -> int | None:
    """The status of a whole HTTP response in `buffer`, None while part of it is missing."""
    head, sep, body = buffer.partition(b"\r\n\r\n")
    if not sep:
        return None
    lines = head.decode("latin-1").split("\r\n")
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    return int(lines[0].split()[1]) if len(body) >= length else None


class Exchange:
    """One request on its own connection: its bytes, and when and how its response came."""

    def __init__(self, target: int, sock: socket.socket, connect: float, raw: bytes) -> None:
        self.target = target
        self.sock = sock
        self.connect = connect
        self.raw = raw
        self.timestamps = True
        try:
            sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        except OSError:  # not Linux: only the time this process read the response
            self.timestamps = False
        sock.setblocking(False)
        self.buffer = b""
        self.sent = 0.0
        self.sent_ns = 0  # CLOCK_REALTIME, the receive timestamps' clock
        self.status = 0
        self.done: float | str | None = None
        self.arrived_ns: int | None = None

    def send(self, start: float) -> None:
        self.sent_ns = time.clock_gettime_ns(time.CLOCK_REALTIME)
        self.sent = time.perf_counter() - start
        view = memoryview(self.raw)
        while view:  # a request is far smaller than a socket buffer: one call, in practice
            try:
                view = view[self.sock.send(view):]
            except BlockingIOError:
                select.select([], [self.sock], [])

    def receive(self, start: float) -> bool:
        """Read what has come; True once the response is whole (or the connection failed)."""
        try:
            data, ancillary, _, _ = self.sock.recvmsg(65536, socket.CMSG_SPACE(TIMESPEC.size))
        except BlockingIOError:
            return False
        except OSError as exc:
            self.done = f"ConnectionError: {exc}"
            return True
        now = time.perf_counter() - start
        if not data:
            self.done = "ConnectionError: connection closed before a response"
            return True
        self.buffer += data
        status = complete(self.buffer)
        if status is None:
            return False
        self.status, self.done = status, now
        for level, kind, value in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                seconds, nanoseconds = TIMESPEC.unpack(value[: TIMESPEC.size])
                self.arrived_ns = seconds * 1_000_000_000 + nanoseconds
        return True

    @property
    def arrived(self) -> float | None:
        """Seconds from the first byte of the burst to the kernel's receipt of the response."""
        if self.arrived_ns is None or not isinstance(self.done, float):
            return None
        return self.sent + (self.arrived_ns - self.sent_ns) / 1e9


def open_connections(
    targets: list[tuple[str, int]], requests: list[dict[str, Any]]
) -> list[Exchange]:
    exchanges = []
    for n, request in enumerate(requests):
        host, port = targets[n % len(targets)]
        started = time.perf_counter()
        sock = socket.create_connection((host, port), timeout=10)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        exchanges.append(Exchange(n % len(targets), sock, time.perf_counter() - started,
                                  raw_request(host, port, request)))
    return exchanges


def burst(spec: dict[str, Any]) -> dict[str, Any]:
    targets = [(str(h), int(p)) for h, p in spec["targets"]]
    pids = [int(pid) for pid in spec.get("pids", [])]
    exchanges = open_connections(targets, spec["requests"])
    time.sleep(0.2)  # connections settled (accepted and idle) before the burst
    # with one pid a target (straight to the workers), each worker's CPU is read at its own
    # last ack, before its jobs start; else every worker's at the last ack of all
    per_target = len(pids) == len(targets)
    left = [sum(e.target == n for e in exchanges) for n in range(len(targets))]
    cpu_after: dict[int, float] = {}
    poller = select.epoll()
    by_fd = {e.sock.fileno(): e for e in exchanges}
    for fd in by_fd:
        poller.register(fd, select.EPOLLIN)

    lags: list[float] = []
    cpu_before = [cpu_seconds(pid) for pid in pids]
    start = time.perf_counter()
    start_ns = time.clock_gettime_ns(time.CLOCK_REALTIME)
    for exchange in exchanges:
        exchange.send(start)
    pending = len(exchanges)
    tick = time.perf_counter() + TICK_SECONDS
    while pending and time.perf_counter() - start < DEADLINE_SECONDS:
        events = poller.poll(max(0.0, tick - time.perf_counter()))
        now = time.perf_counter()
        if now >= tick:
            lags.append(now - tick)
            tick = now + TICK_SECONDS
        for fd, _ in events:
            exchange = by_fd[fd]
            if exchange.done is None and exchange.receive(start):
                poller.unregister(fd)
                pending -= 1
                left[exchange.target] -= 1
                if per_target and left[exchange.target] == 0:
                    cpu_after[exchange.target] = cpu_seconds(pids[exchange.target])
    # the workers' CPU until their last ack (their jobs wait until no ack was open for 50 ms)
    cpu = [
        cpu_after.get(n, cpu_seconds(pid)) - was
        for n, (pid, was) in enumerate(zip(pids, cpu_before, strict=True))
    ]
    poller.close()
    for exchange in exchanges:
        exchange.sock.close()
        if exchange.done is None:
            exchange.done = f"TimeoutError: no response within {DEADLINE_SECONDS:g} s"
    return {
        "requests": [
            {
                "target": e.target,
                "status": e.status,
                "sent": e.sent,
                "done": e.done,
                "arrived": e.arrived,
                "connect": e.connect,
            }
            for e in exchanges
        ],
        "loop_lag": lags,
        "cpu": cpu,
        "start": start,  # time.perf_counter() at the first byte: the system's monotonic clock
        "start_realtime_ns": start_ns,
    }


def main() -> None:
    spec = json.load(sys.stdin)
    json.dump(burst(spec), sys.stdout)


if __name__ == "__main__":
    main()
