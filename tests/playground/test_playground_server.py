"""`manda playground` without a browser: the seeded workspace, deal channels linked through the
bot's own `/manda deal`, the page and its assets, 127.0.0.1 only, and clear errors."""

from __future__ import annotations

import asyncio
import io
import re
import socket
from pathlib import Path

import aiohttp
import pytest
from rich.console import Console

from bot import cli as bot_cli
from bot.commands import SUBCOMMANDS, slash_commands
from bot.conversations import channel_key
from bot.fakeslack import FakeSlack
from bot.playground import Playground
from bot.playground.run import HEADLINE, playground_settings, run_playground
from bot.playground.seed import DEAL_CHANNELS
from manda import cli as domain_cli
from manda.app import Manda
from manda.cli.demo import ingest_sample_rooms
from manda.config import Settings
from manda.errors import MandaError


async def test_the_workspace_is_seeded_through_slack(playground: Playground) -> None:
    ws, manda = playground.fake.workspace, playground.manda
    assert manda is not None
    names = {c.name: c for c in ws.channels.values() if c.kind != "im"}
    assert set(names) == {"general", "deal-targetco", "deal-northwind", "deal-pennine",
                          "deal-fernhill"}
    for name, deal_id in DEAL_CHANNELS.items():
        channel = names[name]
        assert await manda.graph.channel_deal(channel_key(ws.team_id, channel.id)) == deal_id
        [linked] = ws.bot_messages(channel.id)
        assert f"linked this channel to deal *{deal_id}*" in linked.text
    assert await manda.graph.channel_deal(channel_key(ws.team_id, names["general"].id)) is None
    commands = [d.payload for d in playground.fake.deliveries if d.kind == "slash_commands"]
    assert [c["text"] for c in commands] == ["deal targetco", "deal northwind", "deal pennine",
                                             "deal fernhill"]
    you = playground.seeded.you
    assert playground.seeded.dm.kind == "im" and you.id in playground.seeded.dm.members
    assert all(you.id in c.members and ws.bot.id in c.members for c in names.values())


async def test_the_page_offers_the_commands_of_the_bots_command_table(
    playground: Playground,
) -> None:
    snapshot = playground.client.snapshot()
    assert snapshot["command_hints"] == slash_commands()
    assert snapshot["commands"] == list(slash_commands())
    offered = set(snapshot["command_examples"])
    for command in (c for c in SUBCOMMANDS if not c.needs_args):
        assert any(e.startswith(f"/manda {command.name}") for e in offered), command.name
    assert "/manda deal targetco" in offered and {"/gaps", "/redflags"} <= offered


async def test_everything_listens_on_127_0_0_1_only(playground: Playground) -> None:
    assert playground.url.startswith("http://127.0.0.1:")
    assert playground.fake.request_url is not None
    assert playground.fake.request_url.startswith("http://127.0.0.1:")
    runner = playground.fake._runner
    assert runner is not None and {a[0] for a in runner.addresses} == {"127.0.0.1"}
    with pytest.raises(MandaError, match=re.escape("127.0.0.1 only")):
        Playground(playground.settings, host="0.0.0.0")
    with pytest.raises(ValueError, match="loopback"):
        FakeSlack(host="0.0.0.0")


async def test_the_page_and_its_assets(playground: Playground) -> None:
    async with aiohttp.ClientSession(cookies=playground.cookie) as http:
        async with http.get(playground.address) as resp:
            page = await resp.text()
            assert resp.status == 200 and resp.content_type == "text/html"
        assert "Local playground — no Slack account involved" in page
        for asset, kind in [("app.js", "text/javascript"), ("playground.css", "text/css")]:
            async with http.get(f"{playground.address}static/{asset}") as resp:
                assert resp.status == 200 and resp.content_type == kind
        async with http.get(f"{playground.address}static/..%2Fserver.py") as resp:
            assert resp.status == 404
        headers = {"Host": f"rebound.example:{playground.fake.port}"}
        async with http.get(playground.address, headers=headers) as resp:
            assert resp.status == 403


async def test_only_the_browser_that_opened_this_runs_address_is_served(
    playground: Playground,
) -> None:
    """Issue 26, item 5: any local user could drive the playground through /client/api."""
    address, api = playground.address, f"{playground.address}client/api"
    message = {"channel": playground.seeded.channels["deal-targetco"].id, "text": "hi"}
    action = {"X-Slack-Client": "1"}
    before = len(playground.fake.deliveries)
    async with aiohttp.ClientSession() as stranger:  # another user of the machine: no key
        for url in (address, f"{address}static/app.js", f"{api}/state", f"{api}/events"):
            async with stranger.get(url) as resp:
                assert resp.status == 403, url
        async with stranger.post(f"{api}/messages", json=message, headers=action) as resp:
            assert resp.status == 403 and (await resp.json())["error"] == "no_key"
        async with stranger.get(f"{address}?key=guessed", allow_redirects=False) as resp:
            assert resp.status == 403
        async with stranger.get(f"{api}/state?key={playground.key}") as resp:
            assert resp.status == 403  # the key opens the page only, never an API call
    assert len(playground.fake.deliveries) == before  # nothing reached the bot

    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
        async with browser.get(playground.url, allow_redirects=False) as resp:
            assert resp.status == 303 and resp.headers["Location"] == "/"
            cookie = resp.headers["Set-Cookie"]
            assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        async with browser.get(playground.url) as resp:  # then the page, with the cookie
            assert resp.status == 200 and str(resp.url) == address
        async with browser.get(f"{api}/state") as resp:
            assert resp.status == 200
        own = f"http://127.0.0.1:{playground.fake.port}"
        for origin in ("http://127.0.0.1:1", "http://localhost:9", "null", "http://evil.example"):
            async with browser.post(f"{api}/messages", json=message,
                                    headers={**action, "Origin": origin}) as resp:
                assert resp.status == 403, origin
        elsewhere = {"Host": f"127.0.0.1:{playground.fake.port + 1}"}
        async with browser.get(f"{api}/state", headers=elsewhere) as resp:
            assert resp.status == 403
        async with browser.post(f"{api}/messages", json=message,
                                headers={**action, "Origin": own}) as resp:
            assert resp.status == 200


def test_the_playground_has_a_home_of_its_own(tmp_path: Path) -> None:
    real = Settings(MANDA_HOME=tmp_path / "real")
    assert playground_settings(real).home_dir == tmp_path / "real" / "playground"
    chosen = playground_settings(real, tmp_path / "elsewhere").home_dir
    assert chosen == tmp_path / "elsewhere"
    parser = domain_cli.build_parser(bot_cli.REGISTRARS)
    assert parser.parse_args(["playground"]).home is None
    assert parser.parse_args(["playground", "--home", "x"]).home == Path("x")


async def test_a_busy_port_is_reported_with_what_to_do(home_copy: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        playground = Playground(Settings(MANDA_HOME=home_copy), port=port)
        with pytest.raises(MandaError, match=re.escape(f"127.0.0.1:{port}")) as caught:
            await playground.start()
    assert "--port 0" in (caught.value.hint or "")


async def test_sample_deals_already_ingested_are_left_alone(app: Manda) -> None:
    before = len(await app.graph.list_documents("targetco"))
    assert await ingest_sample_rooms(app, app.settings, only_missing=True) == []
    assert len(await app.graph.list_documents("targetco")) == before


def test_the_command_is_registered() -> None:
    parser = domain_cli.build_parser(bot_cli.REGISTRARS)
    args = parser.parse_args(["playground", "--port", "0", "--no-open"])
    assert args.handler is bot_cli.playground and args.port == 0 and args.no_open
    assert parser.parse_args(["playground"]).port == 8765


async def test_the_command_prints_where_to_open_it_and_stops(home_copy: Path) -> None:
    out = Console(file=io.StringIO(), width=100)
    stop = asyncio.Event()
    stop.set()  # stop as soon as it runs, as Ctrl-C would
    settings = Settings(MANDA_HOME=home_copy)
    await run_playground(settings, port=0, open_browser=False, out=out, stop=stop)
    printed = out.file.getvalue()  # type: ignore[attr-defined]
    assert HEADLINE in printed
    assert re.search(r"Open http://127\.0\.0\.1:\d+/\?key=[\w-]{40,} in your browser", printed)
    assert "@Manda What was Q3 2024 revenue?" in printed
    assert printed.rstrip().endswith("Stopping the playground…")
