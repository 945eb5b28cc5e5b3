"""The Slack client's side of the fake: what a browser page uses to act as one person.

A small JSON API turns what the person does (post, mention, run a command, click, upload, open
Home) into the requests Slack sends the app — signed, over HTTP or Socket Mode — and a stream of
server-sent events shows the workspace as it changes. The page never reaches the app another way.

Only loopback Host and same-origin Origin headers are served (no DNS rebinding, no cross-site
use), every action needs a header that a cross-site form cannot send, and with a key (the
playground's) only a browser that opened this run's printed address is served (`LocalGuard`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any
from urllib.parse import quote, urlsplit

import aiohttp
from aiohttp import web

from bot.fakeslack.actions import FakeSlack
from bot.fakeslack.server import Delivery
from bot.fakeslack.state import Call, Channel, Message, StoredFile, User, Workspace

log = logging.getLogger(__name__)

CLIENT_HEADER = "X-Slack-Client"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
SLACKBOT = "USLACKBOT"
KEEPALIVE = 15.0
TRAFFIC_KEPT = 300

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_COMMAND = re.compile(r"^(/[a-z0-9_-]+)(?:\s+(.*))?$", re.DOTALL | re.IGNORECASE)
_URL = re.compile(r"(?<![<|])\bhttps?://[^\s<>|]+")
_AT = re.compile(r"(?<![\w<@/])@([A-Za-z][\w.\-]*)")
_HASH = re.compile(r"(?<![\w<#/&])#([a-z0-9][a-z0-9_\-]*)")


def refuse(status: int, error: str, detail: str) -> web.Response:
    return web.json_response({"ok": False, "error": error, "detail": detail}, status=status)


class LocalGuard:
    """Serves a handler only to pages of this machine and, with a `key`, of this run.

    - Host: a loopback name with this server's own port (no DNS rebinding, no other server's
      pages);
    - Origin, when sent: this very origin (`http://127.0.0.1:<port>`), never another port,
      site or a `null` origin;
    - changes: the client header, which a cross-site form cannot send without a preflight we
      never answer;
    - with a key (the playground's per-run secret): the key in this run's cookie, which the
      entry page sets from the address `manda playground` printed (`/?key=…`), so another user
      of the machine, who can reach 127.0.0.1 but never saw the address, is refused.
    """

    def __init__(self, key: str | None = None) -> None:
        self.key = key

    @staticmethod
    def cookie_name(port: int) -> str:
        # cookies are not kept apart by port: each playground run names its own
        return f"manda_playground_{port}"

    def __call__(self, handler: Handler) -> Handler:
        async def guarded(request: web.Request) -> web.StreamResponse:
            refusal = self.refusal(request)
            if refusal is not None:
                return refusal
            if self.key is not None and not self._has_key(request):
                return refuse(
                    403, "no_key",
                    "open the address `manda playground` printed: it carries this run's key",
                )
            return await handler(request)

        return guarded

    def entry(self, handler: Handler) -> Handler:
        """The page's own address: `/?key=…` is exchanged for this run's cookie, and the key
        leaves the address bar (a redirect to `/`)."""

        async def entered(request: web.Request) -> web.StreamResponse:
            refusal = self.refusal(request)
            if refusal is not None:
                return refusal
            offered = request.query.get("key")
            if self.key is not None and offered is not None:
                if not hmac.compare_digest(offered.encode(), self.key.encode()):
                    return refuse(403, "wrong_key", "that is not this run's key")
                response = web.Response(status=303, headers={"Location": "/"})
                response.set_cookie(
                    self.cookie_name(_own_port(request)), self.key, httponly=True,
                    samesite="Strict", path="/",
                )
                return response
            return await self(handler)(request)

        return entered

    def refusal(self, request: web.Request) -> web.Response | None:
        port = _own_port(request)
        host, _, host_port = request.host.rpartition(":")
        if host.strip("[]") not in LOOPBACK or host_port != str(port):
            return refuse(
                403,
                "not_loopback",
                f"The local Slack is served on 127.0.0.1 only; open it at "
                f"http://127.0.0.1:{port}.",
            )
        origin = request.headers.get("Origin")
        if origin is not None and not _same_origin(origin, port):
            return refuse(403, "cross_origin", f"requests from {origin} are refused")
        if request.method != "GET" and request.headers.get(CLIENT_HEADER) != "1":
            return refuse(
                403, "missing_client_header", f"send the {CLIENT_HEADER}: 1 header with actions"
            )
        return None

    def _has_key(self, request: web.Request) -> bool:
        given = request.cookies.get(self.cookie_name(_own_port(request)), "")
        return bool(self.key) and hmac.compare_digest(given.encode(), (self.key or "").encode())


def _own_port(request: web.Request) -> int:
    """The port this request reached (the server's own socket, not what the client claims)."""
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    return int(sockname[1]) if sockname else -1


def _same_origin(origin: str, port: int) -> bool:
    parts = urlsplit(origin)
    return parts.scheme == "http" and parts.hostname in LOOPBACK and parts.port == port


def escape(text: str) -> str:
    """What Slack's own client does to typed text before sending it: escape `&`, `<`, `>`."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class ClientApi:
    """One person's Slack client for a browser page: their view of the workspace and their hands.

    Mount `routes()` on the fake before it starts; the page then uses `{prefix}/api/...`.
    """

    def __init__(
        self,
        fake: FakeSlack,
        viewer: User,
        *,
        commands: Sequence[str] = (),
        command_hints: Mapping[str, str] | None = None,
        command_examples: Sequence[str] = (),
        workspace_name: str = "Local Slack",
        start_channel: str | None = None,
        prefix: str = "/client",
        guard: LocalGuard | None = None,
    ) -> None:
        self.fake = fake
        self.guard = guard or LocalGuard()
        self.viewer = viewer
        self.commands = tuple(commands)
        self.command_hints = dict(command_hints or {})  # shown beside each command as it is typed
        self.command_examples = tuple(command_examples)
        self.workspace_name = workspace_name
        self.start_channel = start_channel  # the channel the page opens on
        self.prefix = prefix.rstrip("/")
        self.traffic: deque[dict[str, Any]] = deque(maxlen=TRAFFIC_KEPT)
        self._queues: set[asyncio.Queue[tuple[str, Any] | None]] = set()
        fake.workspace.subscribers.append(self._on_change)
        fake.on_close.append(self.close)

    @property
    def ws(self) -> Workspace:
        return self.fake.workspace

    def routes(self) -> list[web.AbstractRouteDef]:
        api, guard = f"{self.prefix}/api", self.guard
        return [
            web.get(f"{api}/state", guard(self._state)),
            web.get(f"{api}/events", guard(self._events)),
            web.post(f"{api}/messages", guard(self._send)),
            web.post(f"{api}/click", guard(self._click)),
            web.post(f"{api}/files", guard(self._upload)),
            web.post(f"{api}/home", guard(self._open_home)),
            web.post(f"{api}/view", guard(self._submit_view)),
            web.post(f"{api}/view/close", guard(self._close_view)),
            web.get(f"{api}/files/{{file_id}}/{{name}}", guard(self._file)),
        ]

    def close(self) -> None:
        """End every open event stream (the server is going away)."""
        for queue in list(self._queues):
            queue.put_nowait(None)

    # ------------------------------------------------------------ what the person sees

    def sees(self, channel: Channel) -> bool:
        return self.viewer.id in channel.members

    def user_json(self, user: User) -> dict[str, Any]:
        return {
            "id": user.id,
            "name": user.name,
            "real_name": user.real_name,
            "is_bot": user.is_bot,
        }

    def channel_json(self, channel: Channel) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": channel.id,
            "name": channel.name,
            "kind": channel.kind,
            "topic": channel.topic,
            "members": list(channel.members),
            "is_member": self.sees(channel),
        }
        if channel.kind == "im":
            data["user"] = next((m for m in channel.members if m != self.viewer.id), None)
        return data

    def file_json(self, stored: StoredFile) -> dict[str, Any]:
        return {
            "id": stored.id,
            "name": stored.name,
            "size": len(stored.content),
            "filetype": stored.filetype,
            "mimetype": stored.mimetype,
            "url": f"{self.prefix}/api/files/{stored.id}/{quote(stored.name)}",
        }

    def message_json(self, message: Message) -> dict[str, Any]:
        files = [self.ws.files[f] for f in message.files if f in self.ws.files]
        return {
            "channel": message.channel,
            "ts": message.ts,
            "thread_ts": message.thread_ts,
            "user": message.user,
            "text": message.text,
            "blocks": message.blocks,
            "subtype": message.subtype,
            "files": [self.file_json(f) for f in files],
            "reactions": [
                {"name": name, "users": list(users), "count": len(users)}
                for name, users in message.reactions.items()
            ],
            "ephemeral": message.ephemeral_to is not None,
            "streaming": message.streaming,
            "deleted": message.deleted,
            "edited": message.edited,
            "version": len(message.versions),
            "posted_at": message.posted_at,
        }

    def modal_json(self) -> dict[str, Any] | None:
        """The modal open for the person, with the errors the app gave on its last submission."""
        view = self.ws.modals.get(self.viewer.id)
        if view is None:
            return None
        return {"view": view, "errors": self.ws.modal_errors.get(self.viewer.id, {})}

    def _shown(self, message: Message) -> bool:
        channel = self.ws.channels.get(message.channel)
        return (
            channel is not None
            and self.sees(channel)
            and message.ephemeral_to in (None, self.viewer.id)
        )

    def snapshot(self) -> dict[str, Any]:
        """Everything the person's client shows, as of now."""
        ws = self.ws
        channels = [c for c in ws.channels.values() if self.sees(c)]
        return {
            "team": {"id": ws.team_id, "domain": ws.domain, "name": self.workspace_name},
            "me": self.viewer.id,
            "bot": ws.bot.id,
            "users": {u.id: self.user_json(u) for u in ws.users.values()},
            "channels": [self.channel_json(c) for c in channels],
            "messages": [self.message_json(m) for m in ws.messages if self._shown(m)],
            "statuses": [
                {"channel": c, "thread_ts": t, "status": s} for (c, t), s in ws.statuses.items()
            ],
            "home": ws.home_views.get(self.viewer.id),
            "modal": self.modal_json(),
            "commands": list(self.commands),
            "command_hints": self.command_hints,
            "command_examples": list(self.command_examples),
            "start_channel": self.start_channel,
            "app_connected": self.fake.app_connected,
            "traffic": list(self.traffic),
        }

    # ------------------------------------------------------------ live updates

    def _on_change(self, kind: str, subject: Any) -> None:
        try:
            self._forward(kind, subject)
        except Exception:  # a page's feed must never break the Web API the app is calling
            log.exception("could not forward a %s change to the page", kind)

    def _forward(self, kind: str, subject: Any) -> None:
        update = self._traffic(kind, subject)
        if update is not None:
            self.traffic.append(update)
            self._publish("traffic", update)
            return
        if not self._queues:
            return
        if kind == "message" and isinstance(subject, Message):
            if self._shown(subject):
                self._publish("message", self.message_json(subject))
        elif kind == "channel" and isinstance(subject, Channel):
            self._publish("channel", self.channel_json(subject))
        elif kind == "user" and isinstance(subject, User):
            self._publish("user", self.user_json(subject))
        elif kind == "status":
            channel, thread_ts, status = subject
            self._publish("status", {"channel": channel, "thread_ts": thread_ts, "status": status})
        elif kind == "view":
            user, view = subject
            if user == self.viewer.id:
                self._publish("home", view)
        elif kind == "modal":
            user = subject[0]
            if user == self.viewer.id:
                self._publish("modal", self.modal_json())

    def _publish(self, event: str, data: Any) -> None:
        for queue in list(self._queues):
            queue.put_nowait((event, data))

    @staticmethod
    def _traffic(kind: str, subject: Any) -> dict[str, Any] | None:
        """One line of the protocol log: a Web API call the app made, or a request it was sent."""
        if kind == "call" and isinstance(subject, Call):
            return {
                "direction": "app→slack",
                "what": subject.method,
                "ok": subject.ok,
                "detail": subject.error or "",
            }
        if kind == "delivery" and isinstance(subject, Delivery):
            return {
                "direction": "slack→app",
                "what": describe(subject),
                "ok": subject.status == 200,
                "detail": f"HTTP {subject.status} via {subject.via}",
            }
        return None

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        queue: asyncio.Queue[tuple[str, Any] | None] = asyncio.Queue()
        self._queues.add(queue)
        try:
            await _sse(response, "snapshot", self.snapshot())
            while True:
                try:
                    item = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except TimeoutError:
                    await response.write(b": keepalive\n\n")
                    continue
                if item is None:
                    break
                await _sse(response, *item)
        except (ConnectionResetError, aiohttp.ClientConnectionResetError):
            pass  # the page went away
        finally:
            self._queues.discard(queue)
        with contextlib.suppress(ConnectionResetError, aiohttp.ClientConnectionResetError):
            await response.write_eof()
        return response

    async def _state(self, request: web.Request) -> web.Response:
        return web.json_response(self.snapshot())

    # ------------------------------------------------------------ what the person does

    def _visible_channel(self, channel_id: Any) -> Channel:
        channel = self.ws.channels.get(str(channel_id or ""))
        if channel is None or not self.sees(channel):
            raise web.HTTPNotFound(
                text=json.dumps(
                    {
                        "ok": False,
                        "error": "channel_not_found",
                        "detail": f"no channel {channel_id} that {self.viewer.name} is in",
                    }
                ),
                content_type="application/json",
            )
        return channel

    def resolve(self, text: str) -> str:
        """Typed text as Slack's client sends it: escaped, with `@name`, `#channel` and links
        turned into `<@U…>`, `<#C…|name>` and `<url>`."""
        ws = self.ws
        by_name: dict[str, str] = {}
        for user in ws.users.values():
            by_name.setdefault(user.name.lower(), user.id)
            by_name.setdefault(user.real_name.lower().split(" ")[0], user.id)
        channels = {c.name: c.id for c in ws.channels.values() if c.kind != "im"}

        def user_ref(match: re.Match[str]) -> str:
            name = match.group(1).rstrip(".-")
            found = by_name.get(name.lower())
            tail = match.group(1)[len(name) :]
            return f"<@{found}>{tail}" if found else match.group(0)

        def channel_ref(match: re.Match[str]) -> str:
            found = channels.get(match.group(1))
            return f"<#{found}|{match.group(1)}>" if found else match.group(0)

        text = escape(text)
        text = _URL.sub(lambda m: f"<{m.group(0)}>", text)
        text = _AT.sub(user_ref, text)
        return _HASH.sub(channel_ref, text)

    async def _body(self, request: web.Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            body = None
        if not isinstance(body, dict):
            raise web.HTTPBadRequest(
                text=json.dumps(
                    {"ok": False, "error": "invalid_json", "detail": "send a JSON object"}
                ),
                content_type="application/json",
            )
        return body

    async def _send(self, request: web.Request) -> web.Response:
        """The composer: a slash command when the text starts with one, else a message."""
        body = await self._body(request)
        channel = self._visible_channel(body.get("channel"))
        text = str(body.get("text") or "").strip()
        thread_ts = str(body["thread_ts"]) if body.get("thread_ts") else None
        if not text:
            return refuse(400, "no_text", "type a message or a command first")
        command = _COMMAND.match(text)
        if command:
            return await self.run_command(channel, command.group(1).lower(), command.group(2) or "")
        if thread_ts and self.ws.find(channel.id, thread_ts) is None:
            return refuse(404, "thread_not_found", f"no message {thread_ts} in #{channel.name}")
        message = await self.say(channel, self.resolve(text), thread_ts=thread_ts)
        return web.json_response({"ok": True, "ts": message.ts})

    async def say(self, channel: Channel, text: str, *, thread_ts: str | None = None) -> Message:
        """Post as the person; the app hears it as Slack would tell it (if it is connected)."""
        ws = self.ws
        message = ws.add_message(
            Message(
                channel=channel.id,
                ts=ws.new_ts(),
                text=text,
                user=self.viewer.id,
                thread_ts=thread_ts,
            )
        )
        try:
            await self.fake.announce(message)
        except (aiohttp.ClientError, RuntimeError) as exc:
            log.warning("the app did not receive the events of %s: %s", message.ts, exc)
        return message

    async def run_command(self, channel: Channel, command: str, text: str) -> web.Response:
        if command not in self.commands:
            known = ", ".join(f"`{c}`" for c in self.commands) or "none"
            self.slackbot(
                channel,
                f"`{escape(command)}` is not a valid command. In Slack, messages that start "
                f"with “/” are interpreted as commands. Commands in this workspace: {known}.",
            )
            return web.json_response({"ok": True, "command": command, "status": None})
        try:
            delivery = await self.fake.slash(self.viewer, channel, command, escape(text))
        except (aiohttp.ClientError, RuntimeError, TimeoutError) as exc:
            log.warning("%s could not be delivered: %s", command, exc)
            self.slackbot(channel, f'{command} failed with the error "dispatch_failed"')
            return web.json_response({"ok": True, "command": command, "status": None})
        if delivery.status != 200:
            failed = f'{command} failed with the error "dispatch_failed"'
            self.slackbot(channel, f"{failed} (HTTP {delivery.status})")
        return web.json_response({"ok": True, "command": command, "status": delivery.status})

    def slackbot(self, channel: Channel, text: str) -> Message:
        """What Slack itself tells only this person (an unknown command, a failed dispatch)."""
        ws = self.ws
        if SLACKBOT not in ws.users:
            ws.users[SLACKBOT] = User(
                id=SLACKBOT, name="slackbot", real_name="Slackbot", team_id=ws.team_id, is_bot=True
            )
            ws.changed("user", ws.users[SLACKBOT])
        return ws.add_message(
            Message(
                channel=channel.id,
                ts=ws.new_ts(),
                text=text,
                user=SLACKBOT,
                ephemeral_to=self.viewer.id,
            )
        )

    async def _click(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        action_id = str(body.get("action_id") or "")
        value = body.get("value")
        value = None if value is None else str(value)
        try:
            if body.get("home"):
                delivery = await self.fake.click_home(self.viewer, action_id, value=value)
            else:
                channel = self._visible_channel(body.get("channel"))
                message = self.ws.find_visible(channel.id, str(body.get("ts")), self.viewer.id)
                if message is None:
                    return refuse(404, "message_not_found", f"no message {body.get('ts')}")
                delivery = await self.fake.click(self.viewer, message, action_id, value=value)
        except LookupError as exc:
            return refuse(404, "action_not_found", str(exc))
        except (aiohttp.ClientError, RuntimeError) as exc:
            return refuse(502, "dispatch_failed", f"the app could not be reached: {exc}")
        return web.json_response({"ok": delivery.status == 200, "status": delivery.status})

    async def _submit_view(self, request: web.Request) -> web.Response:
        """The modal's submit button: {"values": {block_id: {action_id: text | [values]}}}."""
        body = await self._body(request)
        values = body.get("values")
        if not isinstance(values, dict):
            return refuse(400, "invalid_values", "send the modal's values as an object")
        try:
            delivery = await self.fake.submit_view(self.viewer, values)
        except LookupError as exc:
            return refuse(404, "view_not_found", str(exc))
        except (aiohttp.ClientError, RuntimeError) as exc:
            return refuse(502, "dispatch_failed", f"the app could not be reached: {exc}")
        return web.json_response({"ok": delivery.status == 200, "status": delivery.status,
                                  "modal": self.modal_json()})

    async def _close_view(self, request: web.Request) -> web.Response:
        self.fake.close_view(self.viewer)
        return web.json_response({"ok": True})

    async def _upload(self, request: web.Request) -> web.Response:
        fields: dict[str, str] = {}
        files: list[tuple[str, bytes]] = []
        async for part in await request.multipart():
            if not isinstance(part, aiohttp.BodyPartReader):
                continue
            if part.filename:
                files.append((part.filename, bytes(await part.read())))
            elif part.name:
                fields[part.name] = await part.text()
        channel = self._visible_channel(fields.get("channel"))
        if not files:
            return refuse(400, "no_file", "choose at least one file to upload")
        thread_ts = fields.get("thread_ts") or None
        try:
            message = await self.fake.upload(
                self.viewer,
                channel,
                files,
                text=self.resolve(fields.get("text", "").strip()),
                thread_ts=thread_ts,
            )
        except (aiohttp.ClientError, RuntimeError) as exc:
            return refuse(502, "dispatch_failed", f"the app could not be reached: {exc}")
        return web.json_response({"ok": True, "ts": message.ts, "files": [n for n, _ in files]})

    async def _open_home(self, request: web.Request) -> web.Response:
        try:
            delivery = await self.fake.open_home(self.viewer)
        except (aiohttp.ClientError, RuntimeError) as exc:
            return refuse(502, "dispatch_failed", f"the app could not be reached: {exc}")
        return web.json_response({"ok": delivery.status == 200, "status": delivery.status})

    async def _file(self, request: web.Request) -> web.Response:
        stored = self.ws.files.get(request.match_info["file_id"])
        visible = stored is not None and (
            stored.user == self.viewer.id
            or any(self.sees(self.ws.channels[c]) for c in stored.channels if c in self.ws.channels)
        )
        if stored is None or not visible:
            return refuse(404, "file_not_found", "no such file in your channels")
        return web.Response(
            body=stored.content,
            content_type=stored.mimetype,
            headers={"Content-Disposition": f"attachment; filename*=UTF-8''{quote(stored.name)}"},
        )


def describe(delivery: Delivery) -> str:
    """A short name for a request sent to the app: its event type, command or action."""
    payload = delivery.payload
    if delivery.kind == "events_api":
        event = payload.get("event") or {}
        subtype = f"/{event['subtype']}" if event.get("subtype") else ""
        return f"event {event.get('type', '?')}{subtype}"
    if delivery.kind == "slash_commands":
        return f"command {payload.get('command', '?')} {payload.get('text', '')}".rstrip()
    actions = payload.get("actions") or [{}]
    return f"{payload.get('type', 'interaction')} {actions[0].get('action_id', '')}".rstrip()


async def _sse(response: web.StreamResponse, event: str, data: Any) -> None:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    await response.write(f"event: {event}\ndata: {payload}\n\n".encode())
