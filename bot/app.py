"""The Slack app's composition root: settings and the domain in, a Bolt `AsyncApp` with every
listener out. No I/O here: Bolt calls `auth.test` on the first request."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.deps import Deps
from bot.listeners import register_all
from bot.ratelimit import choose_slack_limiter
from manda.app import Manda
from manda.config import Settings

log = logging.getLogger(__name__)


@dataclass
class MandaBot:
    """The Bolt app and the jobs it starts; `drain()` waits for all work begun after an ack."""

    bolt: AsyncApp
    deps: Deps

    async def drain(self) -> None:
        await self.deps.jobs.drain()

    async def aclose(self) -> None:
        await self.deps.jobs.aclose()
        await self.deps.aclose()


def web_client(settings: Settings) -> AsyncWebClient:
    """The bot-token Web API client, pointed at `SLACK_API_URL` when set (tests, playground)."""
    kwargs = {"base_url": settings.slack_api_url} if settings.slack_api_url else {}
    return AsyncWebClient(token=Settings.secret(settings.slack_bot_token), **kwargs)


def build_app(
    manda: Manda, settings: Settings, *, client: AsyncWebClient | None = None
) -> MandaBot:
    client = client or web_client(settings)
    if not client.token:
        from manda.errors import MandaError

        raise MandaError(
            "SLACK_BOT_TOKEN is not set.",
            hint="Copy the Bot User OAuth Token (xoxb-…) from the app's OAuth page.",
        )
    bolt = AsyncApp(
        # named, so Bolt does not read the caller's file name off `inspect.stack()` (which reads
        # the source of every frame on the stack: ~40 ms an app under pytest)
        name="manda",
        client=client,
        signing_secret=Settings.secret(settings.slack_signing_secret) or "",
        # Listeners only ack and start a tracked job, so running them before the HTTP response
        # keeps the ack fast and lets shutdown (and tests) wait for every job that was started.
        process_before_response=True,
        logger=logging.getLogger("bot.bolt"),
    )
    deps = Deps(manda=manda, settings=settings, slack_limits=choose_slack_limiter(settings))
    manda.metrics.count_jobs(lambda: deps.jobs.running)
    register_all(bolt, deps)

    @bolt.error
    async def on_error(error: Exception) -> None:
        log.error("unhandled error in a listener", exc_info=error)

    return MandaBot(bolt=bolt, deps=deps)
