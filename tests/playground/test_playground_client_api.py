"""The fake Slack's client API: what a page does as a person reaches an app as Slack sends it
(signed, with Slack's shapes), the event stream shows the workspace, and only this machine's
pages may use it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

import aiohttp
import pytest
from aiohttp import web
from slack_sdk.signature import SignatureVerifier
from slack_sdk.web.async_client import AsyncWebClient

from bot.fakeslack import Channel, FakeSlack, User
from bot.fakeslack.client import CLIENT_HEADER, ClientApi

ACTION = {CLIENT_HEADER: "1"}


@dataclass
class Received:
    """One request the app received, after checking its signature as Bolt does."""

    kind: str
    body: dict[str, Any]


@dataclass
class RecordingApp:
    """A stand-in for the bot's request URL that verifies Slack's signature and records."""

    secret: str
    status: int = 200
    received: list[Received] = field(default_factory=list)

    async def handle(self, request: web.Request) -> web.Response:
        raw = await request.text()
        verifier = SignatureVerifier(self.secret)
        if not verifier.is_valid(
            raw,
            request.headers["X-Slack-Request-Timestamp"],
            request.headers["X-Slack-Signature"],
        ):
            return web.Response(status=401)
        if request.content_type == "application/json":
            self.received.append(Received("event", json.loads(raw)))
        else:
            form = {k: v[0] for k, v in parse_qs(raw).items()}
            if "payload" in form:
                self.received.append(Received("interactive", json.loads(form["payload"])))
            else:
                self.received.append(Received("command", form))
        return web.Response(status=self.status)

    def events(self) -> list[dict[str, Any]]:
        return [r.body["event"] for r in self.received if r.kind == "event"]


@dataclass
class Local:
    fake: FakeSlack
    client: ClientApi
    app: RecordingApp
    you: User
    deal: Channel
    http: aiohttp.ClientSession

    def url(self, path: str) -> str:
        return f"{self.fake.base_url}client/api/{path}"

    async def act(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        async with self.http.post(self.url(path), json=body, headers=ACTION) as resp:
            data: dict[str, Any] = await resp.json()
            data["_status"] = resp.status
            return data


@pytest.fixture
async def local() -> AsyncIterator[Local]:
    fake = FakeSlack()
    ws = fake.workspace
    you = ws.add_user("you", real_name="You")
    priya = ws.add_user("priya", real_name="Priya Shah")
    deal = ws.add_channel("deal-x", members=[you.id, priya.id])
    ws.add_channel("secret", members=[priya.id])
    client = ClientApi(fake, you, commands=["/manda", "/gaps"])
    fake.mount(client.routes())
    app = RecordingApp(fake.signing_secret)
    web_app = web.Application()
    web_app.router.add_post("/slack/events", app.handle)
    runner = web.AppRunner(web_app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    await fake.start()
    fake.connect_app(f"http://127.0.0.1:{runner.addresses[0][1]}/slack/events")
    try:
        async with aiohttp.ClientSession() as http:
            yield Local(fake, client, app, you, deal, http)
    finally:
        await fake.aclose()
        await runner.cleanup()


def bot_client(fake: FakeSlack) -> AsyncWebClient:
    return AsyncWebClient(token=fake.bot_token, base_url=fake.api_url)


async def test_typed_text_reaches_the_app_as_slack_sends_it(local: Local) -> None:
    bot = local.fake.workspace.bot.id
    sent = await local.act(
        "messages", {"channel": local.deal.id, "text": "@Manda what about #deal-x & <b>?"}
    )
    assert sent["ok"] and sent["_status"] == 200
    mention, message = local.app.events()
    expected = f"<@{bot}> what about <#{local.deal.id}|deal-x> &amp; &lt;b&gt;?"
    assert mention["type"] == "app_mention" and mention["text"] == expected
    assert message["type"] == "message" and message["channel_type"] == "channel"
    assert message["user"] == local.you.id and message["ts"] == sent["ts"]

    await local.act(
        "messages", {"channel": local.deal.id, "text": "thanks", "thread_ts": sent["ts"]}
    )
    reply = local.app.events()[-1]
    assert reply["thread_ts"] == sent["ts"] and reply["parent_user_id"] == local.you.id

    missing = await local.act(
        "messages", {"channel": local.deal.id, "text": "x", "thread_ts": "1.2"}
    )
    assert missing["_status"] == 404 and missing["error"] == "thread_not_found"
    empty = await local.act("messages", {"channel": local.deal.id, "text": "   "})
    assert empty["_status"] == 400 and empty["error"] == "no_text"


async def test_commands_are_signed_forms_and_unknown_ones_are_answered_by_slackbot(
    local: Local,
) -> None:
    ran = await local.act("messages", {"channel": local.deal.id, "text": "/manda  deal a&b"})
    assert ran == {"ok": True, "command": "/manda", "status": 200, "_status": 200}
    [command] = [r.body for r in local.app.received if r.kind == "command"]
    assert command["command"] == "/manda" and command["text"] == "deal a&amp;b"
    assert command["channel_id"] == local.deal.id and command["user_id"] == local.you.id
    assert command["response_url"].startswith(local.fake.base_url)

    unknown = await local.act("messages", {"channel": local.deal.id, "text": "/deploy now"})
    assert unknown["status"] is None and len(local.app.received) == 1
    [note] = local.fake.workspace.ephemerals(local.you.id)
    assert note.user == "USLACKBOT" and "`/deploy` is not a valid command" in note.text

    local.app.status = 500
    await local.act("messages", {"channel": local.deal.id, "text": "/gaps"})
    failed = local.fake.workspace.ephemerals(local.you.id)[-1]
    assert failed.text == '/gaps failed with the error "dispatch_failed" (HTTP 500)'


async def test_buttons_send_block_actions_for_messages_ephemerals_and_home(local: Local) -> None:
    ws, bot = local.fake.workspace, bot_client(local.fake)
    button = {
        "type": "button",
        "text": {"type": "plain_text", "text": "Approve finding"},
        "action_id": "manda.finding.approve",
        "value": "payload-1",
    }
    blocks = [{"type": "actions", "block_id": "b1", "elements": [button]}]
    posted = await bot.chat_postMessage(channel=local.deal.id, text="queue", blocks=blocks)
    clicked = await local.act(
        "click",
        {"channel": local.deal.id, "ts": posted["ts"], "action_id": "manda.finding.approve"},
    )
    assert clicked["ok"] and clicked["status"] == 200
    payload = local.app.received[-1].body
    assert payload["type"] == "block_actions" and payload["user"]["id"] == local.you.id
    assert (
        payload["actions"][0]["value"] == "payload-1" and payload["actions"][0]["block_id"] == "b1"
    )
    assert payload["message"]["ts"] == posted["ts"] and payload["response_url"]

    await bot.chat_postEphemeral(channel=local.deal.id, user=local.you.id, text="x", blocks=blocks)
    [ephemeral] = ws.ephemerals(local.you.id)
    await local.act(
        "click", {"channel": local.deal.id, "ts": ephemeral.ts, "action_id": button["action_id"]}
    )
    payload = local.app.received[-1].body
    assert payload["container"]["is_ephemeral"] is True and "message" not in payload
    async with local.http.post(
        payload["response_url"], json={"text": "done", "replace_original": True}
    ):
        pass
    assert ephemeral.text == "done"  # the response_url replaced the ephemeral message

    await bot.views_publish(user_id=local.you.id, view={"type": "home", "blocks": blocks})
    await local.act("click", {"home": True, "action_id": button["action_id"]})
    assert local.app.received[-1].body["container"]["type"] == "view"

    missing = await local.act(
        "click", {"channel": local.deal.id, "ts": posted["ts"], "action_id": "nope"}
    )
    assert missing["_status"] == 404 and missing["error"] == "action_not_found"


async def test_an_upload_is_stored_and_shared_with_its_private_download_url(local: Local) -> None:
    form = aiohttp.FormData()
    form.add_field("channel", local.deal.id)
    form.add_field("text", "Q3 pack")
    form.add_field("file", b"# Q3\nRevenue 5", filename="q3.md", content_type="text/markdown")
    async with local.http.post(local.url("files"), data=form, headers=ACTION) as resp:
        sent = await resp.json()
    assert sent["ok"] and sent["files"] == ["q3.md"]
    share, shared = local.app.events()
    assert share["subtype"] == "file_share" and share["text"] == "Q3 pack"
    assert shared["type"] == "file_shared" and shared["file_id"] == share["files"][0]["id"]
    url = share["files"][0]["url_private_download"]
    headers = {"Authorization": f"Bearer {local.fake.bot_token}"}
    async with local.http.get(url, headers=headers) as resp:
        assert await resp.read() == b"# Q3\nRevenue 5"
    file_id = share["files"][0]["id"]
    async with local.http.get(local.url(f"files/{file_id}/q3.md")) as resp:
        assert resp.status == 200 and await resp.read() == b"# Q3\nRevenue 5"


async def test_state_and_live_events_show_what_the_person_sees(local: Local) -> None:
    async with local.http.get(local.url("state")) as resp:
        state = await resp.json()
    assert {c["name"] for c in state["channels"]} == {"deal-x"}  # not #secret
    assert state["me"] == local.you.id and state["commands"] == ["/manda", "/gaps"]

    async with local.http.get(local.url("events")) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        events = sse(stream)
        name, snapshot = await anext(events)
        assert name == "snapshot" and snapshot["bot"] == local.fake.workspace.bot.id
        await local.act("messages", {"channel": local.deal.id, "text": "hello"})
        seen: dict[str, list[Any]] = {}
        while "message" not in seen or len(seen.get("traffic", [])) < 1:
            name, data = await anext(events)
            seen.setdefault(name, []).append(data)
        assert seen["message"][0]["text"] == "hello" and seen["message"][0]["user"] == local.you.id
        assert seen["traffic"][0] == {
            "direction": "slack→app",
            "what": "event message",
            "ok": True,
            "detail": "HTTP 200 via http",
        }


async def sse(stream: aiohttp.ClientResponse) -> AsyncIterator[tuple[str, Any]]:
    name = ""
    async for raw in stream.content:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            yield name, json.loads(line[6:])


async def test_only_pages_of_this_machine_may_act(local: Local) -> None:
    body = {"channel": local.deal.id, "text": "hi"}
    async with local.http.post(local.url("messages"), json=body) as resp:
        assert resp.status == 403 and (await resp.json())["error"] == "missing_client_header"
    evil = {**ACTION, "Origin": "http://evil.example"}
    async with local.http.post(local.url("messages"), json=body, headers=evil) as resp:
        assert resp.status == 403 and (await resp.json())["error"] == "cross_origin"
    rebound = {"Host": f"evil.example:{local.fake.port}"}
    async with local.http.get(local.url("state"), headers=rebound) as resp:
        assert resp.status == 403 and (await resp.json())["error"] == "not_loopback"
    async with local.http.get(local.url("state"),
                              headers={"Host": f"localhost:{local.fake.port}"}) as resp:
        assert resp.status == 200
    assert local.app.received == []  # nothing refused reached the app
    secret = next(c for c in local.fake.workspace.channels.values() if c.name == "secret")
    outside = await local.act("messages", {"channel": secret.id, "text": "hi"})
    assert outside["_status"] == 404 and outside["error"] == "channel_not_found"


async def test_an_overflow_option_reaches_the_app_as_slack_sends_it(
        local: Local) -> None:
    bot = bot_client(local.fake)
    menu = {"type": "overflow", "action_id": "manda.answer.menu", "options": [
        {"text": {"type": "plain_text", "text": "How I answered"}, "value": "trace-1"},
        {"text": {"type": "plain_text", "text": "Other"}, "value": "other-2"}]}
    blocks = [{"type": "actions", "block_id": "m1", "elements": [menu]}]
    posted = await bot.chat_postMessage(channel=local.deal.id, text="answer", blocks=blocks)
    await local.act("click", {"channel": local.deal.id, "ts": posted["ts"],
                              "action_id": "manda.answer.menu", "value": "other-2"})
    # https://docs.slack.dev/reference/block-kit/block-elements/overflow-menu-element
    [action] = local.app.received[-1].body["actions"]
    assert action["type"] == "overflow" and "value" not in action
    assert action["selected_option"]["value"] == "other-2"
