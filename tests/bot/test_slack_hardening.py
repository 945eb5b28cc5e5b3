"""Attacks on the bot's front door (issue 12): unsigned bodies, replays, Home-tab forgeries,
`/healthz` leaks, world-readable data, the listening address."""

from __future__ import annotations

import argparse
import json
import logging
import socket
import stat
import time
from pathlib import Path

import aiohttp
import pytest
import yaml
from pydantic import SecretStr
from slackworld import SlackWorld, bot_settings, running_world

import bot.cli
from bot import ids
from bot.app import build_app
from bot.fakeslack import FakeSlack, payloads
from bot.fakeslack.signing import signed_headers
from bot.payloads import AddToQA
from bot.run import http_server
from manda.app import Manda
from manda.config import Settings


async def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as resp:
        return resp.status, await resp.text()


async def post(url: str, body: str, headers: dict[str, str]) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.post(
        url, data=body.encode(), headers=headers
    ) as resp:
        return resp.status, await resp.text()


async def test_unsigned_malformed_bodies_are_refused_unread_and_unlogged(
    world: SlackWorld, caplog: pytest.LogCaptureFixture
) -> None:
    url = world.fake.request_url
    assert url is not None
    secret_marker = "SECRET-BODY-MARKER"
    bodies = [
        f"payload=%7Bnot json {secret_marker}",  # parsed before the signature check until now
        json.dumps({"type": "event_callback", "x": secret_marker * 1000}),
    ]
    with caplog.at_level(logging.DEBUG):
        for body in bodies:
            headers = {"Content-Type": "application/x-www-form-urlencoded"}
            assert (await post(url, body, headers))[0] == 401
            forged = signed_headers("wrong-secret", body, content_type="application/json")
            assert (await post(url, body, forged))[0] == 401
            stale = signed_headers(
                world.fake.signing_secret, body, content_type="application/json",
                timestamp=int(time.time()) - 600,
            )
            assert (await post(url, body, stale))[0] == 401
    assert secret_marker not in caplog.text and "Traceback" not in caplog.text


async def test_a_replayed_signed_slash_command_runs_once(world: SlackWorld) -> None:
    ws = world.fake.workspace
    hook = world.fake.new_hook(world.deal.id, world.alice.id)
    form = payloads.slash_command(
        ws, world.alice, world.deal, "/manda", "qa", hook
    )
    at = int(time.time())
    first = await world.fake.deliver("slash_commands", form, timestamp=at)
    replay = await world.fake.deliver("slash_commands", form, timestamp=at)
    await world.settle()
    assert first.status == 200 and replay.status == 200
    assert len(ws.calls_to("response_url")) == 1


async def test_home_tab_buttons_check_membership_like_message_buttons(
    world: SlackWorld,
) -> None:
    value = AddToQA(d="targetco", q="Forged from a Home tab").encode()
    element = {"action_id": ids.ADD_TO_QA, "value": value, "type": "button"}
    view = {"id": "VFORGED", "type": "home", "blocks": []}
    body = payloads.block_actions(world.ws, world.eve, element, "b1", view=view)
    assert (await world.fake.deliver("interactive", body)).status == 200
    await world.settle()
    assert await world.manda.qa.items("targetco") == []
    assert "Only members of a channel of deal" in str(world.ws.home_views[world.eve.id])

    body = payloads.block_actions(world.ws, world.alice, element, "b1", view=view)
    await world.fake.deliver("interactive", body)
    await world.settle()
    assert [i.question for i in await world.manda.qa.items("targetco")] == [
        "Forged from a Home tab"
    ]


async def test_healthz_says_ready_and_nothing_else(world: SlackWorld, app: Manda) -> None:
    url = world.fake.request_url
    assert url is not None
    async with aiohttp.ClientSession() as session, session.get(
        url.replace("/slack/events", "/healthz")
    ) as resp:
        assert resp.status == 200
        assert await resp.json() == {"ok": True, "status": "ready"}


async def test_home_is_0700_and_databases_0600(tmp_path: Path) -> None:
    home = tmp_path / "home"
    async with Manda(Settings(MANDA_HOME=home)) as manda:
        await manda.graph.list_deals()
        await manda.memory.ping()
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    databases = sorted(home.glob("*.db"))
    assert databases
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in databases} == {
        p.name: 0o600 for p in databases
    }


def test_serve_listens_on_loopback_unless_told() -> None:
    root = argparse.ArgumentParser()
    bot.cli.register_serve(root.add_subparsers())
    assert root.parse_args(["serve"]).host == "127.0.0.1"
    assert root.parse_args(["serve", "--host", "0.0.0.0"]).host == "0.0.0.0"
    dockerfile = (Path(__file__).parents[2] / "Dockerfile").read_text()
    assert '"serve", "--host", "0.0.0.0"' in dockerfile


async def test_metrics_are_not_served_to_strangers_on_the_slack_port(
    app: Manda, fake: FakeSlack
) -> None:
    """Issue 26, item 6: `/metrics` was open on the events port, published on every interface."""
    async with running_world(app, fake) as world:
        url = world.fake.request_url
        assert url is not None
        status, _ = await get(url.replace("/slack/events", "/metrics"))
        assert status == 404  # no token configured: the public port has no /metrics at all
    async with running_world(app, fake, metrics_token=SecretStr("s3cret")) as world:
        url = (world.fake.request_url or "").replace("/slack/events", "/metrics")
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "s3cret"},
                        {"Authorization": "Basic s3cret"}):
            assert (await get(url, headers))[0] == 401, headers
        status, text = await get(url, {"Authorization": "Bearer s3cret"})
        assert status == 200 and "manda_slack_events_total" in text


async def test_the_status_port_serves_metrics_on_127_0_0_1_only(
    app: Manda, fake: FakeSlack
) -> None:
    bot = build_app(app, bot_settings(app, fake))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        status_port = probe.getsockname()[1]
    async with http_server(bot, host="127.0.0.1", port=0, status_port=status_port):
        status, text = await get(f"http://127.0.0.1:{status_port}/metrics")
        assert status == 200 and "manda_slack_ack_latency_seconds" in text


def test_compose_publishes_the_slack_port_on_loopback_only() -> None:
    compose = yaml.safe_load((Path(__file__).parents[2] / "docker-compose.yml").read_text())
    for name, service in compose["services"].items():
        for published in service.get("ports", []):
            assert str(published).startswith("127.0.0.1:"), (name, published)
