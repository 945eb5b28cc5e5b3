"""A file event names its own download URL: the bot token goes to Slack's file hosts only.

Reproduces the attack of issue 12: a `file_share` event whose `url_private_download` points at
another host received `Authorization: Bearer xoxb-…` and its content was ingested.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from slackworld import SlackWorld

from bot.downloads import DownloadError, FileHosts, download
from bot.fakeslack import payloads
from bot.fakeslack.state import Message

POISON = b"Revenue for Q3 2024 was EUR 99.9 million (attacker's figure)."


class Recorder:
    """A web server on another loopback port: records every request and what it carried."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str | None]] = []
        self.app = web.Application()
        self.app.router.add_get("/{tail:.*}", self.handle)
        self.redirect_to: str | None = None
        self.declared_size: int | None = None
        self.url = ""

    async def handle(self, request: web.Request) -> web.StreamResponse:
        self.requests.append((request.path, request.headers.get("Authorization")))
        if request.path.startswith("/hop") and self.redirect_to:
            raise web.HTTPFound(self.redirect_to)
        if request.path.startswith("/big"):
            resp = web.StreamResponse(headers={"Content-Type": "text/plain"})
            if self.declared_size is not None:
                resp.content_length = self.declared_size
            await resp.prepare(request)
            for _ in range(64):  # 4 MB streamed, no length declared unless asked
                await resp.write(b"x" * 65536)
            return resp
        return web.Response(body=POISON, content_type="text/plain")


@pytest.fixture
async def other_host() -> AsyncIterator[Recorder]:
    recorder = Recorder()
    runner = web.AppRunner(recorder.app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    recorder.url = f"http://127.0.0.1:{port}"
    try:
        yield recorder
    finally:
        await runner.cleanup()


def test_only_slack_file_hosts_over_https_are_allowed() -> None:
    hosts = FileHosts()
    assert hosts.allows("https://files.slack.com/files-pri/T1-F1/download/a.pdf")
    assert hosts.allows("https://files.slack-gov.com/files-pri/T1-F1/a.pdf")
    refused = [
        "http://files.slack.com/files-pri/T1-F1/a.pdf",  # no TLS
        "https://evil.example/files-pri/T1-F1/a.pdf",
        "https://files.slack.com.evil.example/a.pdf",
        "https://files.slack.com@evil.example/a.pdf",  # userinfo trick: the host is evil
        "https://user:pw@files.slack.com/a.pdf",
        "https://files.slack.com:8443/a.pdf",
        "https://127.0.0.1/a.pdf",
        "file:///etc/passwd",
    ]
    assert [u for u in refused if hosts.allows(u)] == []


def test_the_local_override_is_loopback_only() -> None:
    local = FileHosts.for_api_url("http://127.0.0.1:8123/api/")
    assert local.allows("http://127.0.0.1:8123/files-pri/T1-F1/a.pdf")
    assert not local.allows("http://127.0.0.1:8124/files-pri/T1-F1/a.pdf")  # another port
    assert not FileHosts.for_api_url("https://slack.proxy.example/api/").allows(
        "https://slack.proxy.example/files-pri/T1-F1/a.pdf"
    )


async def test_a_file_event_pointing_elsewhere_gets_no_token_and_is_not_ingested(
    world: SlackWorld, other_host: Recorder
) -> None:
    ws = world.fake.workspace
    message = ws.add_message(
        Message(
            channel=world.deal.id, ts=ws.new_ts(), text="", user=world.alice.id,
            subtype="file_share",
        )
    )
    forged = {
        "id": "F0FORGED",
        "name": "Q3_update.txt",
        "mimetype": "text/plain",
        "size": len(POISON),
        "mode": "hosted",
        "url_private_download": f"{other_host.url}/files-pri/T1-F0FORGED/Q3_update.txt",
    }
    event = payloads.message_event(ws, message, world.deal, files=[forged])
    await world.fake.send_event(event)
    await world.settle()

    assert other_host.requests == []  # not even asked, let alone with the token
    [reply] = world.replies(world.deal, message.ts)
    assert "does not point at Slack's file servers" in reply.all_text()
    docs = await world.manda.graph.list_documents("targetco")
    assert "Q3_update.txt" not in {d.filename for d in docs}


async def test_redirects_leave_the_token_behind_and_stay_on_allowed_hosts(
    tmp_path: Path, other_host: Recorder
) -> None:
    hosts = FileHosts.for_api_url(f"{other_host.url}/api/")
    target = tmp_path / "f.txt"
    other_host.redirect_to = f"{other_host.url}/file"
    async with aiohttp.ClientSession() as session:
        size = await download(
            session, f"{other_host.url}/hop", token="xoxb-secret", target=target,
            max_bytes=10_000, expected_type="text/plain", hosts=hosts,
        )
        assert size == len(POISON) and target.read_bytes() == POISON
        assert other_host.requests == [("/hop", "Bearer xoxb-secret"), ("/file", None)]

        other_host.redirect_to = "https://evil.example/steal"
        with pytest.raises(DownloadError, match="outside its file servers"):
            await download(
                session, f"{other_host.url}/hop", token="xoxb-secret", target=target,
                max_bytes=10_000, expected_type="text/plain", hosts=hosts,
            )


@pytest.mark.parametrize("declared", [4 * 2**20, None])
async def test_size_is_checked_from_headers_and_while_streaming(
    tmp_path: Path, other_host: Recorder, declared: int | None
) -> None:
    other_host.declared_size = declared
    hosts = FileHosts.for_api_url(f"{other_host.url}/api/")
    target = tmp_path / "big.txt"
    async with aiohttp.ClientSession() as session:
        with pytest.raises(DownloadError, match="larger than the 1 MB limit"):
            await download(
                session, f"{other_host.url}/big", token="t", target=target,
                max_bytes=1_000_000, expected_type="text/plain", hosts=hosts,
            )
    assert not target.exists()
