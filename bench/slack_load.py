"""Slack under load: `manda serve` over real HTTP with the fake Slack, 200 concurrent mentions.

First, with `redis-server` installed, several workers: 2 and 4 `manda serve` processes sharing
Redis (event de-duplication, locks, memory) and the home take 200 mentions at once (goal:
exactly 200 answers, 0 duplicates, ack p99 < 100 ms), along each path in turn (`--paths`):
through HAProxy (Debian's `haproxy`, configured as the README deploys it; skipped, with the
reason, where it is not installed; `haproxy-unlimited` and `haproxy-1thread` are set-ups it was
compared with), straight to the workers (what the workers alone cost), to one port the workers
share (`reuseport`: what `manda serve --workers N` runs, the kernel balancing), and on request
through the Python proxy (`_proxy.py`) or the previous bench's way (`before`). Sets of
workers alternate burst by burst: this code on each `--loops` event loop and, with `--against
REV`, that revision's code, so a comparison comes from one run on one machine load.

Slack's side of a burst is `_sender.py`, its own process with no event-loop library (one epoll
loop, request bytes built beforehand): the requests are signed beforehand, each goes over its
own connection opened before the burst, and each is timed from its first byte sent to its
response's last byte received (the kernel's receive timestamp, so the figure is what Slack's
clock would see minus the network, not the sender's own delay in reading; the time it read each
response is printed beside). It prints the breakdown: how long writing every request took, when
the last ack came back, its own loop lag (a busy sender is seen as such) and the connection
set-up it kept out of the figure; HAProxy's own timers for every request (its log: time in its
queue, connecting, the worker's response, and the request active in it); and the workers' own
ack histograms (`manda_slack_ack_latency_seconds`, the handler alone: what is left is queueing).

Then one process: ack latency p50/p95/p99 (goal p99 < 50 ms), throughput, the time until every
mention is answered, duplicates and lost answers; then kills Redis in the middle of a 50-mention
run, restarts it, and prints how long after the restart the bot's memory works again (the bot
is never restarted).

The bot runs as its own process (`python -m bot.cli serve`), exactly as deployed; this process
plays Slack's Web API, which the bot calls. Each mention is two requests, as Slack sends them
(`app_mention`, then `message`). A worker is idle when its `manda_jobs_running` gauge reads 0;
every wait has a deadline and, when it passes, says what is missing (which questions have no
reply, or an unfinished one; refused Web API calls).

    .venv/bin/python bench/slack_load.py [--mentions 200] [--channels 50] [--workers 2,4]
        [--paths haproxy,direct] [--loops auto,asyncio] [--against REV] [--rounds N]
        [--sender-against REV]
        [--only-workers] [--no-redis]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.conversations import channel_key
from bot.fakeslack import Channel, FakeSlack, Message, User
from bot.fakeslack.payloads import event_callback
from bot.fakeslack.server import Delivery, Kind
from manda.agent.degraded import MEMORY_NOTICE
from manda.app import Manda
from manda.config import Settings
from manda.sample import generate_sample_rooms

ROOT = Path(__file__).resolve().parents[1]
DEAL = "targetco"
QUESTION = "What was Q3 2024 revenue?"
METRICS_TOKEN = "bench-scraper"  # this run's bots serve /metrics to it on every port
READY_SECONDS = 120.0
ANSWER_SECONDS = 600.0  # every wait has a deadline: a lost answer is named, never waited for
IDLE_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


class TimedSlack(FakeSlack):
    """The fake Slack, timing each request it sends to the app until the ack is read."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ack_seconds: list[float] = []

    async def deliver(self, kind: Kind, payload: dict[str, Any], **kwargs: Any) -> Delivery:
        started = time.perf_counter()
        delivery = await super().deliver(kind, payload, **kwargs)
        self.ack_seconds.append(time.perf_counter() - started)
        return delivery


# ---------------------------------------------------------------- the bot as a process


@dataclass
class BotProcess:
    process: subprocess.Popen[bytes]
    base: str
    log: Path

    @property
    def events_url(self) -> str:
        return f"{self.base}/slack/events"

    async def get(self, path: str) -> tuple[int, str]:
        headers = {"Authorization": f"Bearer {METRICS_TOKEN}"}  # /metrics off the status port
        async with aiohttp.ClientSession() as session, session.get(
            self.base + path, headers=headers
        ) as response:
            return response.status, await response.text()

    async def health(self) -> dict[str, Any] | None:
        try:
            async with aiohttp.ClientSession() as session, session.get(
                self.base + "/healthz"
            ) as response:
                return dict(await response.json()) | {"status": response.status}
        except aiohttp.ClientError:
            return None


@asynccontextmanager
async def running_bot(
    home: Path, fake: FakeSlack, *, connect: bool = True, code: Path = ROOT,
    options: tuple[str, ...] = (), shared_port: int | None = None, **env: str
) -> AsyncIterator[BotProcess]:
    """`manda serve` as its own process, on this code or on `code` (an exported revision).

    With `shared_port` it also listens there, sharing it with the others (SO_REUSEPORT, what
    each of `manda serve --workers N`'s processes does); its own port is then its status port.
    """
    port = free_port()
    log = home / f"bot-{port}.log"
    environ = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "REDIS_"))},
        "MANDA_HOME": str(home),
        "SLACK_BOT_TOKEN": fake.bot_token,
        "SLACK_SIGNING_SECRET": fake.signing_secret,
        "SLACK_API_URL": fake.api_url,
        "MANDA_LOG_LEVEL": "WARNING",
        "MANDA_METRICS_TOKEN": METRICS_TOKEN,
        **env,
    }
    if code != ROOT:  # that revision's `manda` and `bot` before this checkout's
        environ["PYTHONPATH"] = os.pathsep.join([str(code / "src"), str(code)])
    ports = (["--port", str(port)] if shared_port is None else
             ["--port", str(shared_port), "--reuse-port", "--status-port", str(port)])
    command = [sys.executable, "-m", "bot.cli", "serve", "--host", "127.0.0.1", *ports, *options]
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=code, env=environ, stdout=out, stderr=out)
    bot = BotProcess(process, f"http://127.0.0.1:{port}", log)
    try:
        deadline = time.monotonic() + READY_SECONDS
        while (health := await bot.health()) is None or health["status"] != 200:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"manda serve did not start; see {log}")
            await asyncio.sleep(0.1)
        if connect:
            fake.connect_app(bot.events_url)
        yield bot
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.to_thread(process.wait, 30)
        except subprocess.TimeoutExpired:
            process.kill()


async def jobs_running(bot: BotProcess) -> float | None:
    """The worker's `manda_jobs_running` gauge (work started after an ack), None if unreadable."""
    try:
        status, text = await bot.get("/metrics")
    except aiohttp.ClientError:
        return None
    if status != 200:
        return None
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "manda_jobs_running":
                return sample.value
    return None


async def wait_idle(bot: BotProcess, timeout: float = IDLE_SECONDS) -> None:
    """Until the bot runs no job (every answer written, every sign taken down)."""
    deadline = time.monotonic() + timeout
    running = None
    while time.monotonic() < deadline:
        running = await jobs_running(bot)
        if running == 0:
            return
        if bot.process.poll() is not None:
            raise SystemExit(f"the worker at {bot.base} exited ({bot.process.returncode}); "
                             f"see {bot.log}")
        await asyncio.sleep(0.1)
    raise SystemExit(
        f"the worker at {bot.base} still runs {running if running is not None else 'unknown'} "
        f"job(s) after {timeout:g} s (manda_jobs_running on /metrics); see {bot.log}"
    )


# ---------------------------------------------------------------- Slack's side


@dataclass
class Run:
    questions: list[Message] = field(default_factory=list)
    expected: int = 0
    fired_at: float = 0.0
    answered_at: dict[str, float] = field(default_factory=dict)  # question ts -> seconds


def replies_by_thread(fake: FakeSlack) -> dict[str, list[Message]]:
    threads: dict[str, list[Message]] = {}
    bot = fake.workspace.bot.id
    for message in fake.workspace.messages:
        if message.user == bot and message.is_reply and message.ephemeral_to is None:
            threads.setdefault(str(message.thread_ts), []).append(message)
    return threads


def final(reply: Message) -> bool:
    """The checked rendering is in place (not a stream still being written)."""
    return not reply.streaming and bool(reply.blocks)


async def fire(fake: FakeSlack, people: list[User], channels: list[Channel], count: int,
               label: str, *, rate: float | None = None, run: Run | None = None) -> Run:
    """`count` mentions at once, or started `rate` a second; returns once all are acked.

    Each question joins `run.questions` as soon as it is acked, so `watch` can run meanwhile.
    """
    run = run or Run()
    run.fired_at = time.perf_counter()
    run.expected += count

    async def mention(n: int) -> None:
        if rate is not None:
            await asyncio.sleep(n / rate)
        run.questions.append(await fake.mention(
            people[n % len(people)], channels[n % len(channels)], f"{QUESTION} ({label} {n})"
        ))

    await asyncio.gather(*(mention(n) for n in range(count)))
    return run


async def watch(fake: FakeSlack, run: Run, until: int, timeout: float = ANSWER_SECONDS) -> None:
    """Note when each question's answer is in place; return once `until` of them are."""
    deadline = time.monotonic() + timeout
    while len(run.answered_at) < until:
        threads = replies_by_thread(fake)
        now = time.perf_counter() - run.fired_at
        for question in list(run.questions):
            if question.ts not in run.answered_at and any(
                final(r) for r in threads.get(question.ts, [])
            ):
                run.answered_at[question.ts] = now
        if time.monotonic() > deadline:
            raise SystemExit(f"only {len(run.answered_at)} of {until} answered after "
                             f"{timeout:g} s\n{missing(fake, run)}")
        await asyncio.sleep(0.02)


def missing(fake: FakeSlack, run: Run) -> str:
    """What is missing, question by question: no reply at all, or a reply never finished."""
    threads = replies_by_thread(fake)
    lines = []
    for question in run.questions:
        if question.ts in run.answered_at:
            continue
        replies = threads.get(question.ts, [])
        state = ("no reply in its thread" if not replies else
                 "; ".join("still streaming" if r.streaming else "reply without blocks"
                           for r in replies))
        lines.append(f"  {question.channel} {question.ts} {question.text[-40:]!r}: {state}")
    acks = [d for d in fake.deliveries if d.status != 200]
    if acks:
        lines.append(f"  {len(acks)} request(s) not acked with 200: "
                     + ", ".join(sorted({str(d.status) for d in acks})))
    if len(run.questions) < run.expected:
        lines.append(f"  {run.expected - len(run.questions)} mention(s) never acked")
    refused = [c for c in fake.workspace.calls if not c.ok]
    if refused:
        lines.append(f"  Web API calls refused: {len(refused)} (e.g. {refused[-1].method}: "
                     f"{refused[-1].error})")
    return "\n".join(lines[:40])


def tally(fake: FakeSlack, run: Run) -> tuple[int, int]:
    """(duplicates, lost): threads with more than one reply, threads with none."""
    threads = replies_by_thread(fake)
    counts = [len(threads.get(q.ts, [])) for q in run.questions]
    return sum(c > 1 for c in counts), sum(c == 0 for c in counts)


def histogram_quantile(q: float, buckets: list[tuple[float, float]]) -> float:
    """Prometheus' estimate from cumulative (upper bound, count) buckets."""
    total = buckets[-1][1]
    rank = q * total
    lower_bound, lower_count = 0.0, 0.0
    for bound, count in buckets:
        if count >= rank:
            if bound == float("inf"):
                return lower_bound
            span = count - lower_count
            share = (rank - lower_count) / span if span else 0.0
            return lower_bound + (bound - lower_bound) * share
        lower_bound, lower_count = bound, count
    return lower_bound


async def full_collections(bot: BotProcess) -> float:
    """How many full (generation 2) garbage collections the worker has run so far."""
    _, text = await bot.get("/metrics")
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if (sample.name == "python_gc_collections_total"
                    and sample.labels.get("generation") == "2"):
                return sample.value
    return 0.0


async def server_side_acks(bot: BotProcess) -> list[tuple[float, float]]:
    _, text = await bot.get("/metrics")
    buckets = []
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "manda_slack_ack_latency_seconds_bucket":
                buckets.append((float(sample.labels["le"]), sample.value))
    return sorted(buckets)


# ---------------------------------------------------------------- setup


async def prepare_home(tmp: Path) -> Path:
    home = tmp / "home"
    rooms = generate_sample_rooms(tmp / "rooms")
    async with Manda(Settings(MANDA_HOME=home)) as manda:
        await manda.ingest.ingest(DEAL, [rooms[DEAL]])
    return home


async def workspace(fake: FakeSlack, home: Path, channels: int) -> tuple[list[User], list[Channel]]:
    ws = fake.workspace
    people = [ws.add_user(name) for name in ("alice", "bob", "carol", "dan")]
    made = [ws.add_channel(f"deal-{DEAL}-{n}", members=[p.id for p in people])
            for n in range(channels)]
    async with Manda(Settings(MANDA_HOME=home)) as manda:
        for channel in made:
            await manda.graph.bind_channel(channel_key(ws.team_id, channel.id), DEAL)
    return people, made


# ---------------------------------------------------------------- the two measurements


async def load(
    home: Path, mentions: int, channels: int, rate: float | None = None
) -> list[tuple[str, str]]:
    async with TimedSlack() as fake:
        people, places = await workspace(fake, home, channels)
        async with running_bot(home, fake) as bot:
            # one warm-up question: the first answer loads what every answer uses
            warm = await fire(fake, people, places[:1], 1, "warm-up")
            await watch(fake, warm, 1)
            await wait_idle(bot)
            fake.ack_seconds.clear()
            before = await server_side_acks(bot)

            run = Run()
            watching = asyncio.ensure_future(watch(fake, run, mentions))
            await fire(fake, people, places, mentions, "load", rate=rate, run=run)
            acked = time.perf_counter() - run.fired_at
            await watching
            await wait_idle(bot)
            after = await server_side_acks(bot)
            duplicates, lost = tally(fake, run)

    acks_ms = [s * 1000 for s in fake.ack_seconds]
    all_answered = max(run.answered_at.values())
    server = [(bound, count - dict(before).get(bound, 0.0)) for bound, count in after]
    how = "all at once" if rate is None else f"{rate:g} a second"
    rows = [
        ("mentions (each: app_mention + message)", f"{mentions}, {how}, {channels} channels"),
        ("requests acked", f"{len(acks_ms)} in {acked:.2f} s"),
        ("ack latency p50 / p95 / p99 (sender)",
         " / ".join(f"{percentile(acks_ms, q):.1f} ms" for q in (50, 95, 99))),
        ("ack latency max / mean (sender)",
         f"{max(acks_ms):.1f} ms / {statistics.fmean(acks_ms):.1f} ms"),
        ("ack latency p50 / p99 (bot's histogram)",
         " / ".join(f"{histogram_quantile(q, server) * 1000:.1f} ms" for q in (0.5, 0.99))),
        ("time until all answered", f"{all_answered:.1f} s"),
        ("first / median answer after firing",
         f"{min(run.answered_at.values()):.2f} s / "
         f"{statistics.median(run.answered_at.values()):.1f} s"),
        ("throughput", f"{mentions / all_answered:.1f} answers/s"),
        ("duplicates / lost", f"{duplicates} / {lost}"),
    ]
    return rows


@dataclass
class RedisProcess:
    binary: str
    port: int
    workdir: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.02)
        raise SystemExit("redis-server did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


async def recovery(home: Path, binary: str, channels: int, outage: float) -> list[tuple[str, str]]:
    redis = RedisProcess(binary, free_port(), home)
    redis.start()
    try:
        async with TimedSlack() as fake:
            people, places = await workspace(fake, home, channels)
            async with running_bot(home, fake, REDIS_URL=redis.url) as bot:
                run = Run()
                watching = asyncio.ensure_future(watch(fake, run, 15))
                await fire(fake, people, places, 50, "redis", run=run)
                await watching
                redis.kill()
                killed_at = time.perf_counter()
                await asyncio.sleep(outage)
                await asyncio.to_thread(redis.start)
                restarted_at = time.perf_counter()
                # the bot is not touched: it must find Redis again by itself (its readiness
                # probe answers 200 only once graph and memory answer)
                deadline = time.monotonic() + READY_SECONDS
                while (health := await bot.health()) is None or health["status"] != 200:
                    if time.monotonic() > deadline:
                        raise SystemExit(f"memory not back {READY_SECONDS:g} s after Redis "
                                         f"restarted (/healthz); see {bot.log}")
                    await asyncio.sleep(0.25)
                memory_back = time.perf_counter() - restarted_at
                await watch(fake, run, 50)
                # memory used again: a follow-up continues a new thread's conversation
                probe = await fire(fake, people, places[:1], 1, "after restart")
                await watch(fake, probe, 1)
                await wait_idle(bot)
                await fake.say(people[0], places[0], "And EBITDA?", thread_ts=probe.questions[0].ts)
                await wait_idle(bot)
                follow_up = replies_by_thread(fake).get(probe.questions[0].ts, [])
                duplicates, lost = tally(fake, run)
                told = sum(
                    MEMORY_NOTICE in r.all_text()
                    for q in run.questions
                    for r in replies_by_thread(fake).get(q.ts, [])
                )
    finally:
        redis.kill()
    continued = len(follow_up) == 2 and "Q3 2024" in follow_up[1].all_text()
    return [
        ("Redis killed after", f"15 of 50 answered ({killed_at - run.fired_at:.1f} s in)"),
        ("Redis down for", f"{outage:.0f} s"),
        ("restart → memory answers again (/healthz)", f"{memory_back:.1f} s"),
        ("mentions answered / duplicates / lost", f"{50 - lost} / {duplicates} / {lost}"),
        ("answers with the no-memory notice", str(told)),
        ("follow-up after restart uses memory", "yes" if continued else "NO"),
    ]


async def wait_listening(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{what} did not start") from None
            await asyncio.sleep(0.05)


async def stop_process(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        await asyncio.to_thread(process.wait, 10)
    except subprocess.TimeoutExpired:
        process.kill()


@asynccontextmanager
async def running_proxy(upstreams: list[str]) -> AsyncIterator[str]:
    """The Python round-robin proxy (`bench/_proxy.py`) as its own process; its base URL."""
    port = free_port()
    command = [sys.executable, str(ROOT / "bench" / "_proxy.py"), str(port), *upstreams]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        await wait_listening(port, process, "the Python proxy")
        yield f"http://127.0.0.1:{port}"
    finally:
        await stop_process(process)


# Requests in flight to one worker; the rest wait in HAProxy's queue (cheap, in C) and go out
# over the same kept-alive connections as answers come back, instead of each costing the worker
# a new connection. None: no limit (a new connection per request in flight).
SERVER_MAXCONN = 32
# HAProxy times every request and logs it (`log stdout`, one line each, in the bench's log file):
# Tw time in its queues, Tc connecting to the worker, Tr the worker's response (request sent to
# response headers read), Ta the request active in HAProxy (first byte of the request received
# to last byte of the response sent), all in ms.
# https://docs.haproxy.org/2.6/configuration.html#8.4 (timing events), #8.2.4 (custom log format)
HAPROXY_LOG_FORMAT = "%Tw %Tc %Tr %Ta %ST %s"


@dataclass(frozen=True)
class HAProxyTuning:
    """What differs between the HAProxy set-ups a burst can be sent through."""

    maxconn: int | None = SERVER_MAXCONN  # requests in flight to a worker (None: no limit)
    threads: int | None = None  # `nbthread` (None: HAProxy's default, one a core)


def haproxy_config(port: int, upstreams: list[str], tuning: HAProxyTuning = HAProxyTuning(),
                   *, timing_log: bool = True) -> str:
    """HAProxy in front of the workers, as the README deploys it: round robin per request."""
    limit = f" maxconn {tuning.maxconn}" if tuning.maxconn else ""
    servers = "\n".join(
        f"    server w{n} {url.removeprefix('http://')}{limit}" for n, url in enumerate(upstreams)
    )
    threads = f"\n    nbthread {tuning.threads}" if tuning.threads else ""
    log = "\n    log stdout format raw local0 info" if timing_log else ""
    log_format = f'\n    log global\n    log-format "{HAPROXY_LOG_FORMAT}"' if timing_log else ""
    return f"""global
    maxconn 4096{threads}{log}

defaults
    mode http
    timeout connect 5s
    timeout client 30s
    timeout server 30s{log_format}

frontend slack
    bind 127.0.0.1:{port}
    default_backend manda

backend manda
    balance roundrobin
    http-reuse always
{servers}
"""


@dataclass
class Balancer:
    """A running load balancer: its base URL, and its per-request timing log if it keeps one."""

    url: str
    log: Path | None = None

    def log_size(self) -> int:
        return self.log.stat().st_size if self.log is not None else 0


@dataclass
class BalancerTimes:
    """HAProxy's own timers for one burst's requests (ms), from its log."""

    queue_ms: list[float]  # Tw
    connect_ms: list[float]  # Tc
    worker_ms: list[float]  # Tr
    active_ms: list[float]  # Ta


async def balancer_times(balancer: Balancer, offset: int, count: int) -> BalancerTimes | None:
    """The timers HAProxy logged for the `count` requests after `offset` in its log."""
    if balancer.log is None:
        return None
    deadline = time.monotonic() + 5
    while True:  # a request's line is written once its response is sent: at most a moment later
        with balancer.log.open("rb") as file:
            file.seek(offset)
            rows = [line.split() for line in file.read().decode(errors="replace").splitlines()]
        rows = [r for r in rows if len(r) >= 5 and all(v.lstrip("-").isdigit() for v in r[:5])]
        if len(rows) >= count or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.05)
    if not rows:
        return None
    columns = [[float(r[i]) for r in rows] for i in range(4)]
    return BalancerTimes(*columns)


@asynccontextmanager
async def running_haproxy(
    binary: str, upstreams: list[str], workdir: Path, tuning: HAProxyTuning = HAProxyTuning()
) -> AsyncIterator[Balancer]:
    """HAProxy (Debian's `haproxy`) as the load balancer, in the foreground, timing each request."""
    port = free_port()
    config = workdir / f"haproxy-{port}.cfg"
    config.write_text(haproxy_config(port, upstreams, tuning))
    log = workdir / f"haproxy-{port}.log"
    with log.open("wb") as out:
        process = subprocess.Popen([binary, "-db", "-f", str(config)], stdout=out, stderr=out)
    try:
        await wait_listening(port, process, f"haproxy (see {log})")
        yield Balancer(f"http://127.0.0.1:{port}", log)
    finally:
        await stop_process(process)


# The ways a burst reaches the workers. Each is measured by the sender process (`_sender.py`),
# first byte sent to response read, except BEFORE: the previous bench's own sender (the fake
# Slack's aiohttp client in this process, which also serves the Web API the workers call).
DIRECT = "direct to the workers (no balancer)"
REUSEPORT = "to one port the workers share (SO_REUSEPORT: the kernel balances)"
PYPROXY = "through the Python proxy"
BEFORE = "before: in-process sender, Python proxy"
# HAProxy as the README configures it, and the set-ups it is compared with
HAPROXY_SETUPS = {
    "haproxy": HAProxyTuning(),
    "haproxy-unlimited": HAProxyTuning(maxconn=None),
    "haproxy-1thread": HAProxyTuning(threads=1),
}


def describe(tuning: HAProxyTuning) -> str:
    conns = (f"{tuning.maxconn} connections a worker" if tuning.maxconn
             else "a connection per request in flight")
    threads = f", {tuning.threads} thread{'s' * (tuning.threads > 1)}" if tuning.threads else ""
    return f"through HAProxy ({conns}{threads})"


PATHS = {"direct": DIRECT, "reuseport": REUSEPORT,
         **{k: describe(t) for k, t in HAPROXY_SETUPS.items()},
         "pyproxy": PYPROXY, "before": BEFORE}


@dataclass
class Sent:
    """What the sender process measured for one burst."""

    start: float  # time.perf_counter() at the first byte sent (one monotonic clock per host)
    start_realtime_ns: int  # the same instant on the wall clock (HAProxy's log dates)
    acks_ms: list[float]  # first byte sent -> response's last byte received by the kernel
    read_ms: list[float]  # first byte sent -> response read by the sender (its own lag added)
    sent_ms: list[float]  # each request's first byte, after the burst's first
    last_ms: float  # the last response read, after the first request was sent
    write_ms: float  # writing every request, first to last
    connect_ms: list[float]  # opening each request's connection (before the burst, not an ack)
    lag_ms: list[float]  # the sender's own event-loop lag during the burst
    statuses: list[int]
    cpu_ms: list[float]  # each worker's CPU from the first byte sent to the last ack read


SENDER = ROOT / "bench" / "_sender.py"


async def send_burst(
    fake: FakeSlack, targets: list[str], messages: list[Message], pids: list[int],
    sender: Path = SENDER,
) -> Sent:
    """Slack's requests for `messages`, signed now, sent by `_sender.py` (its own process)."""
    requests, payloads_sent = [], []
    for message in messages:
        for event in fake.events_for(message):
            payload = event_callback(fake.workspace, event)
            body, headers = fake.signed_request("events_api", payload)
            requests.append({"path": "/slack/events", "headers": headers, "body": body})
            payloads_sent.append(payload)
    hosts = []
    for url in targets:
        host, _, port = url.removeprefix("http://").partition(":")
        hosts.append([host, int(port)])
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(sender), cwd=ROOT,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate(
        json.dumps({"targets": hosts, "requests": requests, "pids": pids}).encode()
    )
    if process.returncode != 0:
        raise SystemExit(f"the sender failed ({process.returncode}): {err.decode()[-2000:]}")
    result = json.loads(out)
    done = result["requests"]
    failed = [r["done"] for r in done if isinstance(r["done"], str)]
    if failed:
        raise SystemExit(f"{len(failed)} request(s) got no response, e.g. {failed[0]}")
    for payload, r in zip(payloads_sent, done, strict=True):
        fake.deliveries.append(Delivery("events_api", payload, r["status"], "", "http"))
    read_ms = [(r["done"] - r["sent"]) * 1000 for r in done]
    return Sent(
        start=result["start"],
        start_realtime_ns=result.get("start_realtime_ns", 0),
        # where the kernel gives no receive timestamp (not Linux, or an older sender), the time
        # the sender read it
        acks_ms=[(r["arrived"] - r["sent"]) * 1000 if r.get("arrived") is not None else read
                 for r, read in zip(done, read_ms, strict=True)],
        read_ms=read_ms,
        sent_ms=[r["sent"] * 1000 for r in done],
        last_ms=max(r["done"] for r in done) * 1000,
        write_ms=max(r["sent"] for r in done) * 1000,
        connect_ms=[r["connect"] * 1000 for r in done],
        lag_ms=[lag * 1000 for lag in result["loop_lag"]] or [0.0],
        statuses=[r["status"] for r in done],
        cpu_ms=[c * 1000 for c in result["cpu"]],
    )


@dataclass
class Burst:
    """What a burst gave: the counts a test checks, the figures the bench prints."""

    path: str
    answers: int
    duplicates: int
    lost: int
    acked_by_worker: list[int]  # requests each worker acked during the burst (its histogram)
    acks_ms: list[float]
    server: list[tuple[float, float]]  # the workers' ack histogram over the burst, summed
    sent: Sent | None
    answered_s: float
    load: float
    balancer: BalancerTimes | None = None
    full_collections: list[int] = field(default_factory=list)
    workers: str = ""
    sender: str = ""

    def rows(self, mentions: int) -> list[tuple[str, str]]:
        p99 = percentile(self.acks_ms, 99)
        rows = [
            ("ack p50 / p95 / p99 / max (first byte sent to response received)",
             " / ".join(f"{percentile(self.acks_ms, q):.1f}" for q in (50, 95, 99))
             + f" / {max(self.acks_ms):.1f} ms  (goal p99 < 100 ms: "
             + ("met)" if p99 < 100 else "NOT met)")),
            ("workers' own ack (handler) p50 / p99",
             " / ".join(f"{histogram_quantile(q, self.server) * 1000:.1f}" for q in (0.5, 0.99))
             + " ms"),
        ]
        if self.balancer is not None:
            times = self.balancer

            def spread(values: list[float]) -> str:
                return (" / ".join(f"{percentile(values, q):.0f}" for q in (50, 99))
                        + f" / {max(values):.0f} ms")

            rows += [
                ("HAProxy: request active in it (Ta) p50 / p99 / max", spread(times.active_ms)),
                ("HAProxy: of which in its queue (Tw)", spread(times.queue_ms)),
                ("HAProxy: of which the worker's response (Tr)", spread(times.worker_ms)),
                ("HAProxy: of which connecting to a worker (Tc)", spread(times.connect_ms)),
            ]
        if self.sent is not None:
            sent = self.sent
            rows += [
                ("the same acks as the sender read them (its own lag added)",
                 " / ".join(f"{percentile(sent.read_ms, q):.1f}" for q in (50, 95, 99))
                 + f" / {max(sent.read_ms):.1f} ms"),
                ("sender: all written in / last ack read at",
                 f"{sent.write_ms:.1f} ms / {sent.last_ms:.1f} ms after the first byte"),
                ("workers' CPU until their last ack" if self.path == "direct" else
                 "workers' CPU until the last ack (answers may have begun)",
                 f"{sum(sent.cpu_ms):.0f} ms: {sum(sent.cpu_ms) / len(sent.acks_ms):.2f} ms "
                 f"a request ({' / '.join(f'{c:.0f}' for c in sent.cpu_ms)} ms)"),
                ("acks over 1 s (a connection resent, or a process stalled)",
                 str(sum(a >= 1000 for a in self.acks_ms))),
                ("sender: loop lag p99 / max",
                 f"{percentile(sent.lag_ms, 99):.1f} / {max(sent.lag_ms):.1f} ms"),
                ("sender: connect p50 / max (before the burst)",
                 f"{percentile(sent.connect_ms, 50):.2f} / {max(sent.connect_ms):.1f} ms"),
            ]
        rows += [
            ("requests acked by each worker", " / ".join(map(str, self.acked_by_worker))),
            ("full garbage collections in each worker during the acks",
             " / ".join(map(str, self.full_collections))),
            ("answers / duplicates / lost",
             f"{self.answers} / {self.duplicates} / {self.lost}  (goal {mentions} / 0 / 0)"),
            ("all answered after", f"{self.answered_s:.1f} s"),
            ("load (1 min) before the burst", f"{self.load:.2f} on {os.cpu_count()} cores"),
        ]
        return rows


def merged(before: list[list[tuple[float, float]]],
           after: list[list[tuple[float, float]]]) -> list[tuple[float, float]]:
    server: dict[float, float] = {}
    for was, now in zip(before, after, strict=True):
        for bound, count in now:
            server[bound] = server.get(bound, 0.0) + count - dict(was).get(bound, 0.0)
    return sorted(server.items())


def haproxy_binary() -> str | None:
    """Debian installs HAProxy in /usr/sbin, which a user's PATH may not hold."""
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/sbin")


def balancer() -> str:
    """The load balancer a deployment would use: HAProxy where installed, else the Python one."""
    return "haproxy" if haproxy_binary() else "pyproxy"


def available_paths(paths: list[str]) -> tuple[list[str], list[str]]:
    """The paths that can run here, and why any other cannot."""
    usable, skipped = [], []
    for path in paths:
        if path not in PATHS:
            raise SystemExit(f"unknown path {path!r}; choose from {', '.join(PATHS)}")
        if path.startswith("haproxy") and haproxy_binary() is None:
            skipped.append("haproxy is not installed (`apt-get install haproxy`): the burst "
                           "through a real load balancer is not measured")
            continue
        usable.append(path)
    return usable, skipped


@dataclass(frozen=True)
class Workers:
    """A set of workers to measure: this code on an event loop, or an exported revision."""

    label: str
    code: Path = ROOT
    options: tuple[str, ...] = ()


def this_code(loop: str) -> Workers:
    return Workers(f"this code, --loop {loop}", ROOT, ("--loop", loop))


def export_sender(rev: str, dest: Path) -> Path:
    """A git revision's `bench/_sender.py`, to send bursts with it beside this one's."""
    path = dest / f"sender-{rev.replace('/', '_')}.py"
    path.write_bytes(subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:bench/_sender.py"],
                                    check=True, capture_output=True).stdout)
    return path


def export_revision(rev: str, dest: Path) -> Workers:
    """`src/` and `bot/` of a git revision, to run its workers beside this code's."""
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src", "bot"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return Workers(f"revision {rev}", dest)


async def load_workers(
    home: Path, binary: str, mentions: int, channels: int, workers: int,
    paths: list[str] | None = None, rounds: int = 1, sets: list[Workers] | None = None,
    senders: list[tuple[str, Path]] | None = None,
) -> list[Burst]:
    """`workers` HTTP workers of each set, all sharing Redis; all mentions at once, along each
    path to each set in turn.

    Sets and paths alternate burst by burst, round by round, so a busy machine weighs on all.
    """
    usable, _ = available_paths(paths or [balancer()])
    sets = sets or [Workers("this code")]
    redis = RedisProcess(binary, free_port(), home)
    redis.start()
    bursts: list[Burst] = []
    try:
        async with TimedSlack() as fake, AsyncExitStack() as stack:
            people, places = await workspace(fake, home, channels)
            groups = []
            for one in sets:
                shared = free_port() if "reuseport" in usable else None
                bots = [
                    await stack.enter_async_context(running_bot(
                        home, fake, connect=False, code=one.code, options=one.options,
                        shared_port=shared, REDIS_URL=redis.url,
                    ))
                    for _ in range(workers)
                ]
                bases = [b.base for b in bots]
                front: dict[str, Balancer | list[str]] = {"direct": bases}
                if shared is not None:
                    front["reuseport"] = Balancer(f"http://127.0.0.1:{shared}")
                for path in usable:
                    if path in HAPROXY_SETUPS:
                        front[path] = await stack.enter_async_context(running_haproxy(
                            str(haproxy_binary()), bases, home, HAPROXY_SETUPS[path]))
                if {"pyproxy", "before"} & set(usable):
                    front["pyproxy"] = front["before"] = Balancer(
                        await stack.enter_async_context(running_proxy(bases)))
                # warm-up: every worker answers once (each gets both of its mention's requests)
                for bot in bots:
                    fake.connect_app(bot.events_url)
                    warm = await fire(fake, people, places[:1], 1, "warm-up")
                    await watch(fake, warm, 1)
                    await wait_idle(bot)
                groups.append((one, bots, front))
            for n in range(rounds):
                for one, bots, front in groups:
                    for path in usable:
                        for sender_label, sender in senders or [("", SENDER)]:
                            burst = await one_burst(fake, bots, people, places, mentions, path,
                                                    front[path], f"{one.label} {path} {n}",
                                                    sender)
                            burst.workers = one.label
                            burst.sender = sender_label
                            bursts.append(burst)
    finally:
        redis.kill()
    return bursts


async def one_burst(
    fake: TimedSlack, bots: list[BotProcess], people: list[User], places: list[Channel],
    mentions: int, path: str, front: Balancer | list[str], label: str, sender: Path = SENDER,
) -> Burst:
    load = os.getloadavg()[0]
    before = [await server_side_acks(bot) for bot in bots]
    targets = [front.url] if isinstance(front, Balancer) else front
    collections = [await full_collections(bot) for bot in bots]
    offset = front.log_size() if isinstance(front, Balancer) else 0
    run = Run()
    sent: Sent | None = None
    if path == "before":
        fake.connect_app(f"{targets[0]}/slack/events")
        fake.ack_seconds.clear()
        watching = asyncio.ensure_future(watch(fake, run, mentions))
        await fire(fake, people, places, mentions, label, run=run)
        acks_ms = [s * 1000 for s in fake.ack_seconds]
    else:
        run.expected = mentions
        run.questions = [
            fake.post(people[n % len(people)], places[n % len(places)],
                      f"{fake.bot_mention} {QUESTION} ({label} {n})")
            for n in range(mentions)
        ]
        run.fired_at = time.perf_counter()
        watching = asyncio.ensure_future(watch(fake, run, mentions))
        sent = await send_burst(fake, targets, run.questions,
                                [bot.process.pid for bot in bots], sender)
        acks_ms = sent.acks_ms
    # read at once: answers start only once no ack has been open for 50 ms
    collections = [await full_collections(bot) - was for bot, was in zip(bots, collections,
                                                                          strict=True)]
    timed = (await balancer_times(front, offset, len(acks_ms))
             if isinstance(front, Balancer) else None)
    await watching
    if sent is not None:  # answers are timed from the first byte sent, not the sender's start
        shift = sent.start - run.fired_at
        run.answered_at = {ts: at - shift for ts, at in run.answered_at.items()}
    for bot in bots:
        await wait_idle(bot)
    after = [await server_side_acks(bot) for bot in bots]
    duplicates, lost = tally(fake, run)
    threads = replies_by_thread(fake)
    return Burst(
        path=path,
        answers=sum(len(threads.get(q.ts, [])) for q in run.questions),
        duplicates=duplicates,
        lost=lost,
        acked_by_worker=[round(now[-1][1] - was[-1][1]) for was, now in zip(before, after,
                                                                          strict=True)],
        acks_ms=acks_ms,
        server=merged(before, after),
        sent=sent,
        answered_s=max(run.answered_at.values()),
        load=load,
        balancer=timed,
        full_collections=[round(c) for c in collections],
    )


def table(title: str, rows: list[tuple[str, str]]) -> str:
    width = max(len(k) for k, _ in rows)
    lines = [title, "-" * len(title)]
    lines += [f"{k.ljust(width)}  {v}" for k, v in rows]
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mentions", type=int, default=200)
    parser.add_argument("--rate", type=float, default=20.0,
                        help="mentions a second in the paced run (default 20)")
    parser.add_argument("--channels", type=int, default=50)
    parser.add_argument("--outage", type=float, default=5.0, help="seconds Redis stays down")
    parser.add_argument("--no-redis", action="store_true", help="skip the Redis recovery run")
    parser.add_argument("--workers", default="2,4",
                        help="worker counts for the burst behind a load balancer (default 2,4)")
    parser.add_argument("--loops", default="auto",
                        help="event loops of this code's workers, each a set (default auto)")
    parser.add_argument("--against", help="also a set of workers on this git revision's code")
    parser.add_argument("--sender-against",
                        help="also send each burst with this git revision's bench/_sender.py")
    parser.add_argument("--paths", default="haproxy,direct",
                        help="how the several-workers bursts reach the workers, alternating: "
                        + "; ".join(f"{k}: {v}" for k, v in PATHS.items()))
    parser.add_argument("--rounds", type=int, default=1,
                        help="bursts along each path, alternating (default 1)")
    parser.add_argument("--only-workers", action="store_true",
                        help="run only the several-workers bursts")
    args = parser.parse_args()
    binary = shutil.which("redis-server")
    with tempfile.TemporaryDirectory(prefix="manda-slack-bench-") as tmp:
        print("ingesting the sample deal…", file=sys.stderr)
        home = await prepare_home(Path(tmp))
        counts = [int(n) for n in args.workers.split(",") if n.strip()]
        paths, skipped = available_paths([p for p in args.paths.split(",") if p.strip()])
        for reason in skipped:
            print(f"(skipped: {reason})\n")
        sets = [this_code(loop) for loop in args.loops.split(",") if loop.strip()]
        if args.against:
            sets.append(export_revision(args.against, Path(tmp) / "against"))
        senders = [("this sender", SENDER)]
        if args.sender_against:
            senders.append((f"sender of {args.sender_against}",
                            export_sender(args.sender_against, Path(tmp))))
        if binary is not None and paths:
            for workers in counts:
                print(f"{workers} workers of {len(sets)} set(s): {', '.join(paths)}…",
                      file=sys.stderr)
                bursts = await load_workers(home, binary, args.mentions, args.channels,
                                            workers, paths, args.rounds, sets, senders)
                for n, burst in enumerate(bursts):
                    round_ = (f", round {n // (len(paths) * len(sets) * len(senders)) + 1}"
                              if args.rounds > 1 else "")
                    by = f", {burst.sender}" if len(senders) > 1 else ""
                    print(table(f"{args.mentions} mentions at once, {workers} workers "
                                f"({burst.workers}) + Redis, {PATHS[burst.path]}{by}{round_}",
                                burst.rows(args.mentions)))
                    print()
        elif binary is None:
            print("(redis-server not installed: no several-workers figure)\n")
        if args.only_workers:
            return
        print(f"firing {args.mentions} mentions at manda serve…", file=sys.stderr)
        print(table("Slack burst (embedded stores, offline model)",
                    await load(home, args.mentions, args.channels)))
        print()
        print(table("Slack paced (embedded stores, offline model)",
                    await load(home, args.mentions, args.channels, args.rate)))
        if args.no_redis:
            return
        if binary is None:
            print("\n(redis-server not installed: no recovery figure)")
            return
        print("killing Redis mid-run…", file=sys.stderr)
        print()
        print(table("Redis killed and restarted mid-run (REDIS_URL set)",
                    await recovery(home, binary, args.channels, args.outage)))


if __name__ == "__main__":
    asyncio.run(main())
