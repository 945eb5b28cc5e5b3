"""`manda serve`, the HTTP endpoints, and the domain CLI staying free of Slack."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import aiohttp
import pytest
from slackworld import SlackWorld

import bot.cli
from bot.fakeslack.signing import signed_headers
from manda.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


def test_serve_is_added_by_the_bot_entry_point() -> None:
    args = build_parser(bot.cli.REGISTRARS).parse_args(["serve", "--port", "4000", "--socket"])
    assert (args.port, args.socket, args.handler) == (4000, True, bot.cli.serve)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve"])


def test_the_domain_cli_imports_no_slack() -> None:
    code = (
        "import json, sys; import manda.cli; manda.cli.build_parser();"
        "names = ('slack_bolt', 'slack_sdk', 'bot');"
        "print(json.dumps(sorted(m for m in names if m in sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert json.loads(out.stdout) == []


def test_the_console_script_is_the_bot_entry_point() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["manda"] == "bot.cli:main"


def test_serve_says_which_setting_is_missing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert bot.cli.main(["serve"]) == 1
    assert "SLACK_BOT_TOKEN is not set" in capsys.readouterr().err
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
    assert bot.cli.main(["serve", "--socket"]) == 1
    assert "SLACK_APP_TOKEN" in capsys.readouterr().err
    assert bot.cli.main(["serve"]) == 1
    assert "SLACK_SIGNING_SECRET" in capsys.readouterr().err


async def test_health_check_and_url_verification(world: SlackWorld) -> None:
    url = world.fake.request_url
    assert url is not None
    async with aiohttp.ClientSession() as session:
        async with session.get(url.replace("/slack/events", "/healthz")) as health:
            assert health.status == 200 and (await health.json())["ok"] is True
        body = json.dumps({"token": "x", "challenge": "c-123", "type": "url_verification"})
        headers = signed_headers(world.fake.signing_secret, body, content_type="application/json")
        async with session.post(url, data=body, headers=headers) as verified:
            assert verified.status == 200 and (await verified.json())["challenge"] == "c-123"
