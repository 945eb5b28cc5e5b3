"""Running the bot: HTTP mode on aiohttp (`/slack/events`, `/healthz`, `/metrics`) or Socket Mode.

Both transports dispatch through `measured_dispatch`: every request is counted, its ack timed,
and handled in its conversation's log context. `/healthz` is a readiness probe (200 when graph
and memory answer, else 503, with every adapter's state); `/metrics` is Prometheus text.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler
from slack_bolt.adapter.socket_mode.async_internals import send_async_response
from slack_bolt.adapter.socket_mode.internals import build_headers
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.socket_mode.aiohttp import SocketModeClient
from slack_sdk.socket_mode.request import SocketModeRequest

from bot.app import MandaBot, build_app
from bot.monitoring import measured_dispatch, readiness, serve_logging
from manda.app import Manda
from manda.config import Settings
from manda.errors import MandaError

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
METRICS_PATH = "/metrics"


def web_app(bot: MandaBot) -> web.Application:
    """Slack's request URL (events, commands and interactivity), readiness and metrics."""
    deps = bot.deps

    async def events(request: web.Request) -> web.Response:
        received = time.perf_counter()
        bolt_request = await to_bolt_request(request)
        response = await measured_dispatch(bot.bolt, bolt_request, deps.metrics, received)
        return await to_aiohttp_response(response)

    async def healthz(request: web.Request) -> web.Response:
        ready, report = await readiness(
            deps.manda, jobs=deps.jobs.running, breakers=deps.breakers
        )
        return web.json_response(report, status=200 if ready else 503)

    async def metrics(request: web.Request) -> web.Response:
        body, content_type = deps.metrics.render()
        return web.Response(body=body, headers={"Content-Type": content_type})

    app = web.Application()
    app.add_routes(
        [
            web.post(EVENTS_PATH, events),
            web.get(HEALTH_PATH, healthz),
            web.get(METRICS_PATH, metrics),
        ]
    )
    return app


@asynccontextmanager
async def http_server(
    bot: MandaBot, *, host: str = "0.0.0.0", port: int = 3000
) -> AsyncIterator[str]:
    """Serve `bot` over HTTP; yields the request URL (port 0 picks a free port)."""
    runner = web.AppRunner(web_app(bot), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = runner.addresses[0][1]
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        yield f"http://{shown}:{bound}{EVENTS_PATH}"
    finally:
        await bot.drain()
        await bot.deps.aclose()
        await runner.cleanup()


class MeasuredSocketModeHandler(AsyncSocketModeHandler):
    """Bolt's Socket Mode handler, dispatching through `measured_dispatch` like HTTP mode."""

    def __init__(self, bot: MandaBot, app_token: str) -> None:
        super().__init__(bot.bolt, app_token)
        self.bot = bot

    async def handle(self, client: SocketModeClient, req: SocketModeRequest) -> None:  # type: ignore[override]
        received = time.perf_counter()
        request = AsyncBoltRequest(mode="socket_mode", body=req.payload, headers=build_headers(req))
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
    settings: Settings, *, socket: bool = False, host: str = "0.0.0.0", port: int = 3000
) -> None:
    """Run until Ctrl-C or SIGTERM; jobs already started finish before the process exits.

    Logs are JSON lines on stderr, each with the conversation it concerns.
    """
    check_settings(settings, socket=socket)
    serve_logging(settings.log_level)
    stop = _stop_on_sigterm()
    async with Manda(settings) as manda:
        bot = build_app(manda, settings)
        settle_heap()
        try:
            if socket:
                async with socket_mode(bot, Settings.secret(settings.slack_app_token) or ""):
                    log.warning("Manda is connected to Slack over Socket Mode; Ctrl-C stops it.")
                    await stop.wait()
            else:
                async with http_server(bot, host=host, port=port) as url:
                    log.warning(
                        "Manda listens for Slack on %s (/healthz, /metrics); Ctrl-C stops it.", url
                    )
                    await stop.wait()
        finally:
            await bot.aclose()
