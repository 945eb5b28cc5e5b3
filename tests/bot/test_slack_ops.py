"""What an operator sees: `/healthz` readiness, `/metrics`, JSON logs naming the conversation."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from fixtures.redis_server import RedisServer
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr
from slackworld import SlackWorld, bot_settings, running_world

from bot.app import build_app
from bot.conversations import channel_key, conversation_id
from bot.fakeslack import FakeSlack
from bot.monitoring import readiness
from bot.run import socket_mode
from manda.app import Manda
from manda.config import Settings
from manda.observability.logging import ContextFilter

QUESTION = "What was Q3 2024 revenue?"
ROOT = Path(__file__).resolve().parents[2]
# A bound on the first answer of a cold `manda serve` process (imports, index, model-free answer),
# not a speed target: on a loaded 2-core CI machine it took more than 30 s.
SERVE_ANSWER_SECONDS = 180


def url_of(world: SlackWorld, path: str) -> str:
    assert world.fake.request_url is not None
    return world.fake.request_url.replace("/slack/events", path)


async def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as response:
        return response.status, await response.text()


METRICS_TOKEN = "scraper-token"


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(found: dict[tuple[str, frozenset[tuple[str, str]]], float], metric: str, /,
          **labels: str) -> float | None:
    return found.get((metric, frozenset(labels.items())))


async def test_metrics_count_events_outcomes_acks_and_duplicates(
    app: Manda, fake: FakeSlack
) -> None:
    async with running_world(app, fake, metrics_token=SecretStr(METRICS_TOKEN)) as world:
        await count_events_outcomes_acks_and_duplicates(world)


async def count_events_outcomes_acks_and_duplicates(world: SlackWorld) -> None:
    question = await world.fake.mention(world.alice, world.deal, QUESTION)
    mention = next(d for d in world.fake.deliveries if d.payload["event"]["type"] == "app_mention")
    await world.fake.redeliver(mention, retry_num=1)
    forged = await world.fake.send_event(
        mention.payload["event"], signing_secret="someone-else's-secret"
    )
    await world.fake.slash(world.alice, world.deal, "/manda", "help")
    await world.settle()
    assert forged.status == 401 and len(world.replies(world.deal, question.ts)) == 1

    status, text = await get(url_of(world, "/metrics"),
                             {"Authorization": f"Bearer {METRICS_TOKEN}"})
    assert status == 200
    found = samples(text)
    events = "manda_slack_events_total"
    assert value(found, events, type="app_mention", outcome="handled") == 1
    assert value(found, events, type="app_mention", outcome="duplicate") == 1
    # a forged body is never read, so its kind is not known (signature checked before parsing)
    assert value(found, events, type="unverified", outcome="rejected") == 1
    assert value(found, events, type="message", outcome="handled") == 1
    assert value(found, events, type="slash_command", outcome="handled") == 1
    assert value(found, "manda_duplicate_events_total") == 1
    assert value(found, "manda_slack_ack_latency_seconds_count") == 5  # every request, acked
    assert value(found, "manda_circuit_breaker_open", name="Slack") == 0
    answers = [v for (name, _), v in found.items() if name == "manda_answers_total"]
    assert sum(answers) == 1  # the domain's own metrics share the same registry


async def test_socket_mode_requests_are_measured_too(app: Manda, fake: FakeSlack) -> None:
    bot = build_app(app, bot_settings(app, fake))
    ws = fake.workspace
    alice = ws.add_user("alice")
    deal = ws.add_channel("deal-targetco", members=[alice.id])
    await app.graph.bind_channel(channel_key(ws.team_id, deal.id), "targetco")
    try:
        async with socket_mode(bot, fake.app_token):
            await fake.wait_for_socket()
            await fake.mention(alice, deal, QUESTION)
            await bot.drain()
    finally:
        await bot.aclose()
    registry = app.metrics.registry
    assert registry.get_sample_value(
        "manda_slack_events_total", {"type": "app_mention", "outcome": "handled"}
    ) == 1
    assert registry.get_sample_value("manda_slack_ack_latency_seconds_count") == 2


async def test_healthz_is_ready_only_while_graph_and_memory_answer(
    home_copy: Path, redis_server: RedisServer, redis_url: str, fake: FakeSlack
) -> None:
    manda = Manda(Settings(MANDA_HOME=home_copy, REDIS_URL=redis_url))
    async with manda, running_world(manda, fake) as world:
        deps = world.bot.deps

        async def details() -> dict:
            return (await readiness(manda, jobs=0, breakers=deps.breakers))[1]

        status, text = await get(url_of(world, "/healthz"))
        assert status == 200 and json.loads(text) == {"ok": True, "status": "ready"}
        report = await details()  # what `manda doctor` and the log show; never /healthz
        assert report["adapters"]["graph"] == {
            "adapter": "embedded", "detail": report["adapters"]["graph"]["detail"], "ok": True
        }
        assert report["adapters"]["memory"]["adapter"] == "redis"
        assert report["adapters"]["memory"]["ok"] is True
        assert report["adapters"]["model"]["adapter"] == "offline"

        await asyncio.to_thread(redis_server.stop)
        try:
            status, text = await get(url_of(world, "/healthz"))
            report = await details()
        finally:
            await asyncio.to_thread(redis_server.start)
        assert status == 503 and json.loads(text) == {"ok": False, "status": "unavailable"}
        assert report["adapters"]["graph"]["ok"] is True
        memory = report["adapters"]["memory"]
        assert memory["ok"] is False and "Redis" in memory["error"]

        status, text = await get(url_of(world, "/healthz"))  # back by itself
        assert status == 200 and json.loads(text)["ok"] is True


async def test_records_logged_for_a_request_name_its_conversation_event_and_channel(
    world: SlackWorld, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    caplog.handler.addFilter(ContextFilter())
    question = await world.fake.mention(world.alice, world.deal, QUESTION)
    await world.settle()
    mention = next(d for d in world.fake.deliveries if d.payload["event"]["type"] == "app_mention")

    [answered] = [r for r in caplog.records if r.name == "manda.answers"]
    assert answered.context["conversation_id"] == conversation_id(
        world.ws.team_id, world.deal.id, question.ts
    )
    assert answered.context["event_id"] == mention.payload["event_id"]
    assert answered.context["channel"] == world.deal.id
    assert answered.context["user"] == world.alice.id


# ---------------------------------------------------------------- `manda serve` as a process


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def wait_until_ready(url: str, process: asyncio.subprocess.Process) -> None:
    """Poll `/healthz` until the bot answers 200 (it loads the embedder first)."""
    deadline = time.monotonic() + 60
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            if process.returncode is not None:
                raise AssertionError(f"manda serve exited with {process.returncode}")
            try:
                async with session.get(url) as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientConnectionError:
                pass
            await asyncio.sleep(0.1)
    raise AssertionError("manda serve did not become ready within 60 s")


async def test_manda_serve_writes_json_lines_with_the_conversation(
    home_copy: Path, fake: FakeSlack
) -> None:
    ws = fake.workspace
    alice = ws.add_user("alice")
    deal = ws.add_channel("deal-targetco", members=[alice.id])
    async with Manda(Settings(MANDA_HOME=home_copy)) as manda:
        await manda.graph.bind_channel(channel_key(ws.team_id, deal.id), "targetco")
    port = free_port()
    env = {
        **os.environ,
        "MANDA_HOME": str(home_copy),
        "SLACK_BOT_TOKEN": fake.bot_token,
        "SLACK_SIGNING_SECRET": fake.signing_secret,
        "SLACK_API_URL": fake.api_url,
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
        cwd=ROOT, env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    stderr = asyncio.ensure_future(process.stderr.read())  # drained all along: no full pipe
    unanswered: TimeoutError | None = None
    try:
        await wait_until_ready(f"http://127.0.0.1:{port}/healthz", process)
        fake.connect_app(f"http://127.0.0.1:{port}/slack/events")
        question = await fake.mention(alice, deal, QUESTION)
        await ws.wait_for(
            lambda: [m for m in ws.bot_messages(deal.id, thread_ts=question.ts)
                     if m.ts != question.ts and not m.streaming
                     and (deal.id, question.ts) not in ws.statuses],
            timeout=SERVE_ANSWER_SECONDS, what="the answer",
        )
    except TimeoutError as exc:
        unanswered = exc
    finally:
        process.send_signal(signal.SIGTERM)
        await process.wait()
    logged = (await stderr).decode()
    assert unanswered is None, f"{unanswered}; manda serve logged:\n{logged[-4000:]}"
    assert process.returncode == 0

    lines = [json.loads(line) for line in logged.splitlines() if line.strip()]
    assert lines, "manda serve logged nothing"
    [answered] = [r for r in lines if r["logger"] == "manda.answers"]
    assert answered["conversation_id"] == conversation_id(ws.team_id, deal.id, question.ts)
    assert answered["channel"] == deal.id and answered["event_id"].startswith("Ev")
    assert {"ts", "level", "message", "intent", "latency_ms"} <= answered.keys()
