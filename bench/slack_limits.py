"""Slack's rate budget shared by several workers: what the Redis limiter costs, and what it saves.

Starts a redis-server on a free 127.0.0.1 port, then (1) four limiters standing for four
workers call `chat.update` for one simulated minute on a shared clock, with per-process budgets
(today without REDIS_URL) and with the Redis one: calls let through against Slack's Tier 3
(goal: at most the tier's per-minute rate plus its burst with Redis); (2) the latency of one
`try_acquire` against Redis on this machine (goal: p99 < 5 ms, a small part of a Web API call).

    .venv/bin/python bench/slack_limits.py [--workers 4]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import statistics
import subprocess
import tempfile
import time

import redis

from bot.ratelimit import TIERS, LocalSlackLimiter, RedisSlackLimiter

METHOD = "chat.update"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def let_through(limiters: list[LocalSlackLimiter] | list[RedisSlackLimiter], clock: Clock,
                      seconds: float, step: float) -> int:
    """Every worker asks for a call every `step` seconds of the clock; the calls let through."""
    allowed = 0
    while clock.now < seconds:
        for limiter in limiters:
            wait = limiter.try_acquire(METHOD)
            if asyncio.iscoroutine(wait):
                wait = await wait
            allowed += wait == 0
        clock.now += step
    return allowed


async def main(workers: int) -> None:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server not installed: `apt-get install redis-server`")
    port = free_port()
    with tempfile.TemporaryDirectory() as home:
        server = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save",
                                   "", "--appendonly", "no", "--dir", home],
                                  stdout=subprocess.DEVNULL)
        try:
            url = f"redis://127.0.0.1:{port}/0"
            for _ in range(200):  # until it answers PING (the limiter would fall back instead)
                try:
                    with redis.Redis.from_url(url, socket_timeout=1) as client:
                        client.ping()
                    break
                except redis.exceptions.RedisError:
                    await asyncio.sleep(0.05)
            else:
                raise SystemExit(f"redis-server on port {port} did not answer PING")
            tier = TIERS[METHOD]
            budget = tier.per_minute + tier.burst
            clock = Clock()
            local = [LocalSlackLimiter(clock=clock) for _ in range(workers)]
            per_process = await let_through(local, clock, 60.0, 0.1)
            clock = Clock()
            shared = [RedisSlackLimiter(url, clock=clock) for _ in range(workers)]
            together = await let_through(shared, clock, 60.0, 0.1)
            print(f"{workers} workers, {METHOD} for one minute (Tier 3: {tier.per_minute:g}/min "
                  f"+ burst {tier.burst}, goal ≤ {budget:g}):")
            print(f"  per-process budgets: {per_process} calls let through")
            print(f"  shared in Redis:     {together} calls let through")
            real = RedisSlackLimiter(url, prefix="bench:latency:")
            timings = []
            for i in range(2000):
                began = time.perf_counter()
                await real.try_acquire(f"bench.{i % 50}")
                timings.append((time.perf_counter() - began) * 1000)
            timings.sort()
            p50 = statistics.median(timings)
            p99 = timings[int(len(timings) * 0.99)]
            print(f"  try_acquire against Redis: p50 {p50:.2f} ms, p99 {p99:.2f} ms "
                  "(goal p99 < 5 ms)")
            for limiter in [*shared, real]:
                await limiter.aclose()
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4)
    asyncio.run(main(parser.parse_args().workers))
