"""Slack's rate budget shared by several workers: what the Redis limiter costs, and what it saves.

Starts a redis-server on a free 127.0.0.1 port, then (1) four limiters standing for four
workers call `chat.update` in one workspace for one simulated minute on a shared clock, with
per-process budgets (without REDIS_URL) and with the Redis one: calls let through against
Slack's Tier 3 (goal: at most the tier's per-minute rate plus its burst with Redis); (2) the same
while a second workspace calls too (goal: it gets its own whole budget, as Slack counts per
workspace); (3) chat.postMessage into one channel and into a second one (goal: about one a second
per channel plus a short burst); (4) the latency of one `try_acquire` against Redis on this
machine (goal: p99 < 5 ms, a small part of a Web API call). The load average is printed beside.

    .venv/bin/python bench/slack_limits.py [--workers 4]
"""

from __future__ import annotations

import argparse
import asyncio
import os
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


Limiters = list[LocalSlackLimiter] | list[RedisSlackLimiter]
Call = tuple[str, str | None, str]  # method, channel, team


async def let_through(limiters: Limiters, clock: Clock, seconds: float, step: float,
                      calls: list[Call]) -> dict[Call, int]:
    """Every worker asks for each of `calls` (method, channel, team) every `step` seconds of the
    clock; the calls let through, per kind."""
    allowed = dict.fromkeys(calls, 0)
    while clock.now < seconds:
        for limiter in limiters:
            for method, channel, team in calls:
                wait = limiter.try_acquire(method, channel, team=team)
                if asyncio.iscoroutine(wait):
                    wait = await wait
                allowed[(method, channel, team)] += wait == 0
        clock.now += step
    return allowed


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


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
            one = (METHOD, None, "T1")
            clock = Clock()
            local = [LocalSlackLimiter(clock=clock) for _ in range(workers)]
            per_process = (await let_through(local, clock, 60.0, 0.1, [one]))[one]
            clock = Clock()
            shared = [RedisSlackLimiter(url, clock=clock, prefix="bench:1:")
                      for _ in range(workers)]
            together = (await let_through(shared, clock, 60.0, 0.1, [one]))[one]
            print(f"{workers} workers, {METHOD} in one workspace for one minute (Tier 3: "
                  f"{tier.per_minute:g}/min + burst {tier.burst}, goal ≤ {budget:g}; {load()}):")
            print(f"  per-process budgets: {per_process} calls let through")
            print(f"  shared in Redis:     {together} calls let through")
            other = (METHOD, None, "T2")
            clock = Clock()
            shared = [RedisSlackLimiter(url, clock=clock, prefix="bench:2:")
                      for _ in range(workers)]
            both = await let_through(shared, clock, 60.0, 0.1, [one, other])
            print(f"  two workspaces at once, shared in Redis: {both[one]} and {both[other]} "
                  f"calls (goal: each ≤ {budget:g} and about as many as the other; {load()})")
            post = TIERS["chat.postMessage"]
            c1, c2 = ("chat.postMessage", "C1", "T1"), ("chat.postMessage", "C2", "T1")
            clock = Clock()
            shared = [RedisSlackLimiter(url, clock=clock, prefix="bench:3:")
                      for _ in range(workers)]
            posted = await let_through(shared, clock, 60.0, 0.1, [c1, c2])
            print(f"{workers} workers, chat.postMessage for one minute into two channels of one "
                  f"workspace: {posted[c1]} and {posted[c2]} messages (goal: each ≤ "
                  f"{post.per_minute + post.burst:g}, one a second + a burst of {post.burst}; "
                  f"{load()})")
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
                  f"(goal p99 < 5 ms; {load()})")
            for limiter in [*shared, real]:
                await limiter.aclose()
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4)
    asyncio.run(main(parser.parse_args().workers))
