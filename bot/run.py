"""Running the bot: HTTP mode on aiohttp (`/slack/events`, `/healthz`) or Socket Mode."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler

from bot.app import MandaBot, build_app
from manda.app import Manda
from manda.config import Settings
from manda.errors import MandaError

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"


def web_app(bot: MandaBot) -> web.Application:
    """Slack's request URL (events, commands and interactivity) and a health check."""

    async def events(request: web.Request) -> web.Response:
        response = await bot.bolt.async_dispatch(await to_bolt_request(request))
        return await to_aiohttp_response(response)

    async def healthz(request: web.Request) -> web.Response:
        return web.json_response({"ok": True, "jobs": bot.deps.jobs.running})

    app = web.Application()
    app.add_routes([web.post(EVENTS_PATH, events), web.get("/healthz", healthz)])
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
        await runner.cleanup()


@asynccontextmanager
async def socket_mode(bot: MandaBot, app_token: str) -> AsyncIterator[AsyncSocketModeHandler]:
    """Connect to Slack over Socket Mode (`apps.connections.open` with the app-level token)."""
    handler = AsyncSocketModeHandler(bot.bolt, app_token)
    await handler.connect_async()
    try:
        yield handler
    finally:
        await handler.close_async()
        await bot.drain()


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


def _stop_on_sigterm() -> asyncio.Event:
    stop = asyncio.Event()
    with contextlib.suppress(NotImplementedError):  # not on Windows
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    return stop


async def serve(
    settings: Settings, *, socket: bool = False, host: str = "0.0.0.0", port: int = 3000
) -> None:
    """Run until Ctrl-C or SIGTERM; jobs already started finish before the process exits."""
    check_settings(settings, socket=socket)
    stop = _stop_on_sigterm()
    async with Manda(settings) as manda:
        bot = build_app(manda, settings)
        try:
            if socket:
                async with socket_mode(bot, Settings.secret(settings.slack_app_token) or ""):
                    log.warning("Manda is connected to Slack over Socket Mode; Ctrl-C stops it.")
                    await stop.wait()
            else:
                async with http_server(bot, host=host, port=port) as url:
                    log.warning(
                        "Manda listens for Slack on %s (health: /healthz); Ctrl-C stops it.", url
                    )
                    await stop.wait()
        finally:
            await bot.aclose()
