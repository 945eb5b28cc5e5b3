"""The fake Slack's wire: Web API routes, private file downloads, response_urls and Socket Mode.

It listens on 127.0.0.1 only. Requests from the fake to the app go either over HTTP (signed as
Slack signs them) or, once the app has opened a Socket Mode connection, as envelopes on that
websocket, acknowledged by `envelope_id`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from bot.fakeslack.signing import signed_headers
from bot.fakeslack.state import Message, Workspace
from bot.fakeslack.webapi import Features, WebApi

log = logging.getLogger(__name__)

Kind = Literal["events_api", "slash_commands", "interactive"]

ACK_TIMEOUT = 10.0


@dataclass
class Delivery:
    """One request the fake sent to the app, and the app's answer (the ack)."""

    kind: Kind
    payload: dict[str, Any]
    status: int
    body: str
    via: Literal["http", "socket"]
    retry_num: int | None = None

    @property
    def json(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.body) if self.body else None
        except json.JSONDecodeError:
            return None
        return data if isinstance(data, dict) else None


HOOK_USES = 5  # https://api.slack.com/interactivity/slash-commands#responding_to_commands:
HOOK_SECONDS = 30 * 60  # "up to 5 times within 30 minutes of the user's invocation"


@dataclass
class Hook:
    """What a response_url belongs to: a channel, the person who acted, maybe a message; and
    how often it was used, as Slack takes at most `HOOK_USES` posts within `HOOK_SECONDS`."""

    channel: str
    user: str
    message_ts: str | None = None
    created: float = field(default_factory=time.monotonic)
    uses: int = 0

    def spent(self, now: float) -> str | None:
        """Why Slack would refuse one more post to this URL now; None while it is still good."""
        if now - self.created > HOOK_SECONDS:
            return "expired_url"
        if self.uses >= HOOK_USES:
            return "used_url"  # Slack documents the limit, not its error's wording: ours
        return None


class FakeSlackServer:
    """A local Slack: start it, point the app's Web API client at `api_url`, connect the app."""

    def __init__(
        self,
        *,
        bot_token: str = "xoxb-fake-bot-token",
        app_token: str = "xapp-fake-app-token",
        signing_secret: str = "fake-signing-secret",
        host: str = "127.0.0.1",
        port: int = 0,
        features: Features | None = None,
        team_id: str = "T0MANDA",
    ) -> None:
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the fake Slack only listens on the loopback interface")
        self.bot_token = bot_token
        self.app_token = app_token
        self.signing_secret = signing_secret
        self.host = host
        self.port = port
        self.features = features or Features()
        self.workspace = Workspace(team_id=team_id)
        self.api = WebApi(
            self.workspace,
            bot_token=bot_token,
            app_token=app_token,
            base_url=lambda: self.base_url,
            socket_url=self._new_socket_url,
            features=self.features,
        )
        self.request_url: str | None = None
        self.transport: Literal["auto", "http", "socket"] = "auto"
        self.deliveries: list[Delivery] = []
        self._hooks: dict[str, Hook] = {}
        self._sockets: list[web.WebSocketResponse] = []
        self._acks: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self._mounted: list[web.AbstractRouteDef] = []
        self.on_close: list[Callable[[], None]] = []  # run first in aclose (end open streams)

    # ------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    @property
    def api_url(self) -> str:
        """What to give `AsyncWebClient(base_url=...)` / `SLACK_API_URL`."""
        return f"{self.base_url}api/"

    def web_app(self) -> web.Application:
        app = web.Application(client_max_size=200 * 1024 * 1024)
        app.add_routes(
            [
                web.post("/api/{method}", self._api),
                web.get("/api/{method}", self._api),
                web.get("/files-pri/{team_file}/download/{name}", self._download),
                web.get("/files-pri/{team_file}/{name}", self._download),
                web.get("/files/{team_file}/{name}", self._download),  # permalink
                web.post("/hooks/{hook}", self._hook),
                web.post("/upload/v1/{key}", self._upload_bytes),
                web.get("/socket-mode", self._socket),
            ]
        )
        app.add_routes(self._mounted)
        return app

    def mount(self, routes: Iterable[web.AbstractRouteDef]) -> None:
        """Serve more routes beside Slack's (the playground's page and client API)."""
        if self._runner is not None:
            raise RuntimeError("mount routes before start()")
        self._mounted.extend(routes)

    async def start(self) -> None:
        self._runner = web.AppRunner(self.web_app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))

    async def aclose(self) -> None:
        for closing in list(self.on_close):
            closing()
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close()
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeSlackServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def connect_app(self, request_url: str) -> None:
        """Send Events API, command and interactivity requests to this URL (HTTP mode)."""
        self.request_url = request_url

    @property
    def app_connected(self) -> bool:
        return self.request_url is not None or self.socket_connected

    @property
    def socket_connected(self) -> bool:
        return any(not ws.closed for ws in self._sockets)

    async def wait_for_socket(self, timeout: float = 10.0) -> None:
        await self.workspace.wait_for(
            lambda: self.socket_connected, timeout=timeout, what="a Socket Mode connection"
        )

    # ------------------------------------------------------------ routes

    async def _api(self, request: web.Request) -> web.Response:
        args: dict[str, Any] = dict(request.query)
        if request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
                if isinstance(body, dict):
                    args.update(body)
            else:
                args.update(dict(await request.post()))
        auth = request.headers.get("Authorization", "")
        token = auth[7:] if auth.startswith("Bearer ") else args.pop("token", None)
        result = self.api.call(request.match_info["method"], args, token)
        return web.json_response(result)

    async def _download(self, request: web.Request) -> web.Response:
        file_id = request.match_info["team_file"].split("-", 1)[-1]
        stored = self.workspace.files.get(file_id)
        authorised = request.headers.get("Authorization") == f"Bearer {self.bot_token}"
        self.workspace.downloads.append((file_id, authorised))
        if stored is None:
            return web.Response(status=404, text="file not found")
        if not authorised:
            # Slack answers an unauthenticated download with its sign-in page, not an error.
            return web.Response(
                status=200,
                content_type="text/html",
                text="<!DOCTYPE html><html><body>Sign in to Slack</body></html>",
            )
        return web.Response(body=stored.content, content_type=stored.mimetype)

    async def _upload_bytes(self, request: web.Request) -> web.Response:
        """An upload URL from files.getUploadURLExternal: raw bytes or a multipart `file` part."""
        if request.content_type.startswith("multipart/"):
            content = b""
            async for part in await request.multipart():
                if isinstance(part, aiohttp.BodyPartReader) and part.filename is not None:
                    content = bytes(await part.read())
        else:
            content = await request.read()
        if not self.api.receive_upload(request.match_info["key"], content):
            return web.Response(status=404, text="upload URL not found")
        return web.Response(status=200, text=f"OK - {len(content)}")

    async def _hook(self, request: web.Request) -> web.Response:
        hook = self._hooks.get(request.match_info["hook"])
        body = await request.json()
        refused = "expired_url" if hook is None else hook.spent(time.monotonic())
        if hook is None or refused is not None:
            self.workspace.record("response_url", body, ok=False, error=refused)
            return web.Response(status=404, text=refused)
        hook.uses += 1
        self.workspace.record("response_url", body, ok=True)
        self._apply_response(hook, body)
        return web.Response(text="ok")

    def _apply_response(self, hook: Hook, body: dict[str, Any]) -> None:
        ws = self.workspace
        original = (
            ws.find_visible(hook.channel, hook.message_ts, hook.user) if hook.message_ts else None
        )
        if body.get("delete_original") and original is not None:
            original.deleted = True
            ws.changed("message", original)
            return
        text = str(body.get("text") or "")
        blocks = body.get("blocks") or []
        if body.get("replace_original") and original is not None:
            ws.update(original, text=text, blocks=blocks)
            return
        in_channel = body.get("response_type") == "in_channel"
        ws.add_message(
            Message(
                channel=hook.channel,
                ts=ws.new_ts(),
                text=text,
                blocks=blocks,
                user=ws.bot.id,
                bot_id=ws.bot.bot_id,
                thread_ts=body.get("thread_ts"),
                ephemeral_to=None if in_channel else hook.user,
            )
        )

    def new_hook(self, channel: str, user: str, message_ts: str | None = None) -> str:
        hook_id = uuid.uuid4().hex
        self._hooks[hook_id] = Hook(channel=channel, user=user, message_ts=message_ts)
        return f"{self.base_url}hooks/{hook_id}"

    def _new_socket_url(self) -> str:
        return f"ws://{self.host}:{self.port}/socket-mode?ticket={uuid.uuid4().hex}"

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_json(
            {
                "type": "hello",
                "num_connections": len(self._sockets),
                "connection_info": {"app_id": self.workspace.app_id},
                "debug_info": {"host": "fake-slack", "approximate_connection_time": 18060},
            }
        )
        self.workspace.changed("socket", "connected")
        try:
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                future = self._acks.pop(str(data.get("envelope_id")), None)
                if future is not None and not future.done():
                    future.set_result(data)
        finally:
            self._sockets.remove(ws)
            self.workspace.changed("socket", "closed")
        return ws

    # ------------------------------------------------------------ to the app

    async def deliver(
        self,
        kind: Kind,
        payload: dict[str, Any],
        *,
        retry_num: int | None = None,
        retry_reason: str = "http_timeout",
        timestamp: int | None = None,
        signing_secret: str | None = None,
    ) -> Delivery:
        """Send one request to the app and return its ack; recorded in `deliveries`."""
        use_socket = self.transport == "socket" or (
            self.transport == "auto" and self.socket_connected
        )
        if use_socket:
            delivery = await self._deliver_socket(kind, payload, retry_num, retry_reason)
        else:
            delivery = await self._deliver_http(
                kind, payload, retry_num, retry_reason, timestamp, signing_secret
            )
        self.deliveries.append(delivery)
        self.workspace.changed("delivery", delivery)
        return delivery

    def signed_request(
        self,
        kind: Kind,
        payload: dict[str, Any],
        *,
        retry_num: int | None = None,
        retry_reason: str = "http_timeout",
        timestamp: int | None = None,
        signing_secret: str | None = None,
    ) -> tuple[str, dict[str, str]]:
        """The body and headers of the HTTP request Slack sends the app for `payload`, signed."""
        if kind == "events_api":
            body, content_type = json.dumps(payload), "application/json"
        elif kind == "slash_commands":
            body, content_type = urlencode(payload), "application/x-www-form-urlencoded"
        else:
            body = urlencode({"payload": json.dumps(payload)})
            content_type = "application/x-www-form-urlencoded"
        headers = signed_headers(
            signing_secret or self.signing_secret,
            body,
            content_type=content_type,
            timestamp=timestamp,
        )
        if retry_num is not None:
            # https://docs.slack.dev/apis/events-api/using-http-request-urls (retries)
            headers["X-Slack-Retry-Num"] = str(retry_num)
            headers["X-Slack-Retry-Reason"] = retry_reason
        return body, headers

    async def _deliver_http(
        self,
        kind: Kind,
        payload: dict[str, Any],
        retry_num: int | None,
        retry_reason: str,
        timestamp: int | None,
        signing_secret: str | None,
    ) -> Delivery:
        if self.request_url is None or self._session is None:
            raise RuntimeError("no app connected: call connect_app(url) after start()")
        body, headers = self.signed_request(
            kind,
            payload,
            retry_num=retry_num,
            retry_reason=retry_reason,
            timestamp=timestamp,
            signing_secret=signing_secret,
        )
        async with self._session.post(
            self.request_url, data=body.encode(), headers=headers
        ) as resp:
            text = await resp.text()
            return Delivery(
                kind=kind,
                payload=payload,
                status=resp.status,
                body=text,
                via="http",
                retry_num=retry_num,
            )

    async def _deliver_socket(
        self, kind: Kind, payload: dict[str, Any], retry_num: int | None, retry_reason: str
    ) -> Delivery:
        sockets = [ws for ws in self._sockets if not ws.closed]
        if not sockets:
            raise RuntimeError("no Socket Mode connection is open")
        envelope_id = str(uuid.uuid4())
        envelope: dict[str, Any] = {
            "envelope_id": envelope_id,
            "payload": payload,
            "type": kind,
            "accepts_response_payload": kind != "events_api",
        }
        if retry_num is not None:
            envelope["retry_attempt"] = retry_num
            envelope["retry_reason"] = retry_reason
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._acks[envelope_id] = future
        await sockets[-1].send_json(envelope)
        try:
            ack = await asyncio.wait_for(future, ACK_TIMEOUT)
        except TimeoutError:
            self._acks.pop(envelope_id, None)
            return Delivery(
                kind=kind, payload=payload, status=408, body="", via="socket", retry_num=retry_num
            )
        response = ack.get("payload")
        return Delivery(
            kind=kind,
            payload=payload,
            status=200,
            body=json.dumps(response) if response else "",
            via="socket",
            retry_num=retry_num,
        )
