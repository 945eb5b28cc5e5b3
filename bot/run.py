"""Running the bot: HTTP mode on aiohttp (`/slack/events`, `/healthz`, `/metrics`) or Socket Mode.

Both transports dispatch through `measured_dispatch`: every request is counted, its ack timed,
and handled in its conversation's log context. In HTTP mode Slack's signature is verified before
anything reads the body (an unsigned body is never parsed or logged), and a signed request seen
before within Slack's 5-minute window (a replay) is acknowledged and dropped. What a body is
(an event, a command or an interaction) is judged from the signed body alone, never from the
unsigned Content-Type header, and Bolt is handed the body with the type it was judged to have. An
Events API event is acknowledged as soon as its signature is checked and dispatched after, as a
job (its ack carries nothing); commands and interactions, whose ack may carry a reply, are
dispatched before their ack. `/healthz` is a readiness probe that says only ready or not
(200 / 503; `manda doctor` gives the details); `/metrics` is Prometheus text, served on the
127.0.0.1 status port (`--status-port`) and on the Slack port only to `Authorization: Bearer
<MANDA_METRICS_TOKEN>` (never to an unauthenticated caller of the public port).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import hmac
import json
import logging
import signal
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response
from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler
from slack_bolt.adapter.socket_mode.async_internals import send_async_response
from slack_bolt.adapter.socket_mode.internals import build_headers
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.signature import SignatureVerifier
from slack_sdk.socket_mode.aiohttp import SocketModeClient
from slack_sdk.socket_mode.request import SocketModeRequest

from bot.ackboard import AckBoard
from bot.app import MandaBot, build_app
from bot.deps import Deps
from bot.digest import running_digests
from bot.inflight import recover_uploads
from bot.monitoring import measured_dispatch, readiness, serve_logging
from manda.app import Manda
from manda.config import Settings
from manda.errors import MandaError

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
METRICS_PATH = "/metrics"
MAX_BODY_BYTES = 1 << 20  # Slack's payloads are far smaller; aiohttp's default cap, stated
# Connections waiting to be accepted. Slack sends each event over its own connection (and a load
# balancer opens one per request in flight), so a burst of 200 mentions is 400 connections at
# once; past the queue the kernel drops the connection attempt and the client tries again a
# second later (TCP's initial retransmission timeout), a third of Slack's 3 s gone.
# aiohttp's default is 128; the kernel caps this at net.core.somaxconn (4096 on Linux ≥ 5.4).
LISTEN_BACKLOG = 2048
# Slack signs requests with a timestamp it accepts for 5 minutes; a replay is remembered longer.
# https://docs.slack.dev/authentication/verifying-requests-from-slack
REPLAY_WINDOW_SECONDS = 5 * 60
UNVERIFIED = "unverified"  # the request kind of a body that was never read
REPLAY_MEMORY_SECONDS = REPLAY_WINDOW_SECONDS + 60


def request_digest(timestamp: str, signature: str) -> str:
    """One signed request, whatever its body: the signature already covers timestamp and body."""
    return hashlib.sha256(f"{timestamp}:{signature}".encode()).hexdigest()


def web_app(bot: MandaBot, *, status: bool = False) -> web.Application:
    """Slack's request URL (events, commands and interactivity), readiness and metrics.

    `status`: the app of the 127.0.0.1 status port, whose `/metrics` needs no token; on the
    public port `/metrics` answers only `Authorization: Bearer <MANDA_METRICS_TOKEN>`, and is not
    there at all without that setting.
    """
    deps = bot.deps
    metrics_token = Settings.secret(deps.settings.metrics_token)
    verifier = SignatureVerifier(Settings.secret(deps.settings.slack_signing_secret) or "")

    async def events(request: web.Request) -> web.Response:
        with deps.jobs.acking():  # jobs the request starts wait until the open acks are sent
            return await acknowledge(request, time.perf_counter())

    async def acknowledge(request: web.Request, received: float) -> web.Response:
        body = await request.read()
        timestamp = request.headers.get("X-Slack-Request-Timestamp", "")
        signature = request.headers.get("X-Slack-Signature", "")
        if not (timestamp.isdigit() and signature) or not verifier.is_valid(
            body=body, timestamp=timestamp, signature=signature
        ):
            log.warning(
                "refused a request with a missing, stale or wrong signature (%d bytes, "
                "not read)", len(body)
            )
            deps.metrics.record_slack_event(UNVERIFIED, "rejected")  # its type is in the body
            deps.metrics.record_slack_ack(time.perf_counter() - received)
            return web.Response(status=401, text="invalid request")
        # What the body is decides everything after the signature, never the Content-Type
        # header, which Slack does not sign: an Events API event (a JSON object with an
        # event_id) is de-duplicated by that id by the middleware; every other signed body
        # (commands, interactions) by its signature, as a replay.
        body_kind = kind_of(body)
        if body_kind != EVENT and await _replayed(deps, request_digest(timestamp, signature)):
            log.warning("refused a replayed signed request (same signature within 5 minutes)")
            deps.metrics.record_duplicate_event()
            deps.metrics.record_slack_ack(time.perf_counter() - received)
            return web.Response(status=200, text="")
        headers = bolt_headers(request.headers, body_kind)
        if body_kind == EVENT:
            # An event's ack carries nothing (Slack wants a 200 within 3 s), so it is sent before
            # any work: even Bolt's request is built after it, then de-duplication and listeners
            # run, as a job. https://docs.slack.dev/apis/events-api/using-http-request-urls
            deps.jobs.spawn(
                _dispatch_acked(bot, body, request.query_string, headers), name="slack event"
            )
            deps.metrics.record_slack_ack(time.perf_counter() - received)
            return web.Response(status=200, text="")
        bolt_request = AsyncBoltRequest(
            body=body.decode("utf-8", "replace"), query=request.query_string,
            headers=headers,  # type: ignore[arg-type]
        )
        response = await measured_dispatch(bot.bolt, bolt_request, deps.metrics, received)
        return await to_aiohttp_response(response)

    async def healthz(request: web.Request) -> web.Response:
        ready, report = await readiness(
            deps.manda, jobs=deps.jobs.running, breakers=deps.breakers
        )
        if not ready:
            log.warning("not ready: %s", report)
        return web.json_response(
            {"ok": ready, "status": "ready" if ready else "unavailable"},
            status=200 if ready else 503,
        )

    async def metrics(request: web.Request) -> web.Response:
        if not status and not _bearer_matches(request, metrics_token or ""):
            return web.Response(status=401, text="a bearer token is required",
                                headers={"WWW-Authenticate": "Bearer"})
        body, content_type = deps.metrics.render()
        return web.Response(body=body, headers={"Content-Type": content_type})

    app = web.Application(client_max_size=MAX_BODY_BYTES)
    routes = [web.post(EVENTS_PATH, events), web.get(HEALTH_PATH, healthz)]
    if status or metrics_token:
        routes.append(web.get(METRICS_PATH, metrics))
    app.add_routes(routes)
    return app


def _bearer_matches(request: web.Request, token: str) -> bool:
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return bool(token) and scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), token.encode()
    )


EVENT, JSON_BODY, FORM = "event", "json", "form"
_BOLT_TYPES = {EVENT: "application/json", JSON_BODY: "application/json",
               FORM: "application/x-www-form-urlencoded"}


def kind_of(body: bytes) -> str:
    """What a signed body is, read from the body alone: an Events API event (a JSON object of
    type event_callback with an event_id), another JSON object (url_verification), or a form
    (a command, or an interaction's `payload=`)."""
    try:
        data = json.loads(body)
    except ValueError:
        return FORM
    if not isinstance(data, dict):
        return FORM
    event_id = data.get("event_id")
    if data.get("type") == "event_callback" and isinstance(event_id, str) and event_id:
        return EVENT
    return JSON_BODY


def bolt_headers(headers: Mapping[str, str], body_kind: str) -> dict[str, str]:
    """The request's headers with the Content-Type its body really has: Bolt chooses how to
    parse a body from that header, so it reads the body as it was judged here."""
    kept = {k: v for k, v in headers.items() if k.lower() != "content-type"}
    return {**kept, "Content-Type": _BOLT_TYPES[body_kind]}


async def _dispatch_acked(
    bot: MandaBot, body: bytes, query: str, headers: Mapping[str, str]
) -> None:
    # what slack_bolt's aiohttp adapter (`to_bolt_request`) builds, once the ack is sent
    request = AsyncBoltRequest(body=body.decode(), query=query, headers=headers)  # type: ignore[arg-type]
    response = await measured_dispatch(bot.bolt, request, bot.deps.metrics, None)
    if response.status >= 400:
        log.warning("an acknowledged event was not handled (status %d)", response.status)


async def _replayed(deps: Deps, digest: str) -> bool:
    try:
        key = f"slack-request:{digest}"
        return await deps.conversations.seen_before(key, REPLAY_MEMORY_SECONDS)
    except MandaError as exc:
        log.warning("cannot check a request for a replay (%s); handling it", exc)
        return False


@asynccontextmanager
async def http_server(
    bot: MandaBot, *, host: str = "127.0.0.1", port: int = 3000, reuse_port: bool = False,
    status_port: int | None = None,
) -> AsyncIterator[str]:
    """Serve `bot` over HTTP; yields the request URL (port 0 picks a free port).

    `reuse_port`: the port is shared with other processes that set it too (SO_REUSEPORT; the
    kernel spreads new connections over them: `manda serve --workers N`). `status_port`: the same
    endpoints on a port of this process alone, on 127.0.0.1, so each of several processes sharing
    a port can be probed and scraped on its own (`/healthz`, and `/metrics` with no token).
    """
    runner = web.AppRunner(web_app(bot), access_log=None)
    status = web.AppRunner(web_app(bot, status=True), access_log=None)
    await runner.setup()
    await status.setup()
    try:
        site = web.TCPSite(
            runner, host, port, backlog=LISTEN_BACKLOG, reuse_port=reuse_port or None
        )
        await site.start()
        if status_port is not None:
            await web.TCPSite(status, "127.0.0.1", status_port, backlog=LISTEN_BACKLOG).start()
        bound = runner.addresses[0][1]
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        yield f"http://{shown}:{bound}{EVENTS_PATH}"
    finally:
        await bot.drain()
        await bot.deps.aclose()
        await status.cleanup()
        await runner.cleanup()


class MeasuredSocketModeHandler(AsyncSocketModeHandler):
    """Bolt's Socket Mode handler, dispatching through `measured_dispatch` like HTTP mode."""

    def __init__(self, bot: MandaBot, app_token: str) -> None:
        super().__init__(bot.bolt, app_token)
        self.bot = bot

    async def handle(self, client: SocketModeClient, req: SocketModeRequest) -> None:  # type: ignore[override]
        received = time.perf_counter()
        request = AsyncBoltRequest(mode="socket_mode", body=req.payload, headers=build_headers(req))
        with self.bot.deps.jobs.acking():
            response = await measured_dispatch(
                self.bot.bolt, request, self.bot.deps.metrics, received
            )
            await send_async_response(client, req, response, time.time())


@asynccontextmanager
async def socket_mode(bot: MandaBot, app_token: str) -> AsyncIterator[AsyncSocketModeHandler]:
    """Connect to Slack over Socket Mode (`apps.connections.open` with the app-level token)."""
    handler = MeasuredSocketModeHandler(bot, app_token)
    await handler.connect_async()
    try:
        yield handler
    finally:
        await handler.close_async()
        await bot.drain()
        await bot.deps.aclose()


def check_settings(settings: Settings, *, socket: bool) -> None:
    """Refuse to start with a configuration Slack would reject, saying what to set."""
    if not Settings.secret(settings.slack_bot_token):
        raise MandaError(
            "SLACK_BOT_TOKEN is not set.",
            hint="Copy the Bot User OAuth Token (xoxb-…) from the app's OAuth & Permissions page.",
        )
    if socket and not Settings.secret(settings.slack_app_token):
        raise MandaError(
            "Socket Mode needs SLACK_APP_TOKEN.",
            hint="Create an app-level token with the connections:write scope (xapp-…) "
            "under Basic Information.",
        )
    if not socket and not Settings.secret(settings.slack_signing_secret):
        raise MandaError(
            "HTTP mode needs SLACK_SIGNING_SECRET to verify Slack's requests.",
            hint="Copy the Signing Secret from Basic Information, or run `manda serve --socket`.",
        )


def settle_heap() -> None:
    """Keep what start-up loaded (models, indexes, libraries) out of every later collection.

    Full collections otherwise walk all of it, stopping the event loop for ~0.3 s each, a few
    times a minute under load: acks waited behind them. `gc.freeze()` is Python's own remedy.
    """
    gc.collect()
    gc.freeze()


def _stop_on_sigterm() -> asyncio.Event:
    stop = asyncio.Event()
    with contextlib.suppress(NotImplementedError):  # not on Windows
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    return stop


async def serve(
    settings: Settings, *, socket: bool = False, host: str = "127.0.0.1", port: int = 3000,
    reuse_port: bool = False, status_port: int | None = None,
) -> None:
    """Run until Ctrl-C or SIGTERM; jobs already started finish before the process exits.

    Logs are JSON lines on stderr, each with the conversation it concerns.
    """
    check_settings(settings, socket=socket)
    serve_logging(settings.log_level)
    stop = _stop_on_sigterm()
    async with Manda(settings) as manda:
        bot = build_app(manda, settings)
        board = AckBoard.join(settings.home_dir)  # the workers of this host ack before any works
        bot.deps.jobs.share_acks(board)
        # documents a crashed process left `running` on this host are marked failed, with why,
        # and the threads of the uploads it was ingesting are told
        await bot.deps.deals.recover_interrupted()
        told = await recover_uploads(bot.deps.uploads, bot.bolt.client)
        if told:
            log.warning("told %d thread(s) that their upload was interrupted", told)
        settle_heap()
        # the linked deals' search indexes open in the background, so the first question after
        # a start does not wait for them (acks never do: they need no index)
        warming = asyncio.create_task(manda.warm_linked_deals(), name="warm search indexes")
        try:
            if socket:
                async with socket_mode(bot, Settings.secret(settings.slack_app_token) or ""), \
                        running_digests(bot):
                    log.warning("Manda is connected to Slack over Socket Mode; Ctrl-C stops it.")
                    await stop.wait()
            else:
                async with http_server(
                    bot, host=host, port=port, reuse_port=reuse_port, status_port=status_port
                ) as url, running_digests(bot):
                    log.warning(
                        "Manda listens for Slack on %s (/healthz%s); Ctrl-C stops it.", url,
                        "" if status_port is None else
                        f"; /metrics on 127.0.0.1:{status_port}",
                    )
                    await stop.wait()
        finally:
            warming.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await warming
            await bot.aclose()
            if board is not None:
                bot.deps.jobs.share_acks(None)
                board.close()
