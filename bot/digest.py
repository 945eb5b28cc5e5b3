"""The daily digest of each deal channel that turned it on (`/manda digest on 08:30`): once its
time has come, one post of what changed since the last one — only when something did — sent
through the bot's Web API client, so Slack's rate limits (`bot.ratelimit`) pace it like any
other post. Every worker may look; one posts a channel's digest of a day (`claim_digest`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from datetime import datetime

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import MandaBot
from bot.blocks.changes import render_digest
from bot.conversations import parse_channel_key
from bot.deps import Deps
from manda.models import utcnow

log = logging.getLogger(__name__)

POLL_SECONDS = 60.0  # digests are set to the minute


async def post_due_digests(deps: Deps, client: AsyncWebClient, now: datetime) -> int:
    """Post every digest due at `now` that has something to say; how many were posted."""
    posted = 0
    for setting, day in await deps.deals.due_digests(now):
        if not await deps.deals.claim_digest(setting, day):
            continue  # another worker has this channel's digest of the day
        changes = await deps.deals.digest(setting, now)
        parsed = parse_channel_key(setting.channel_key)
        headline = None
        if changes and parsed is not None:
            message = render_digest(changes)
            try:
                await client.chat_postMessage(channel=parsed[1], text=message.text,
                                              blocks=message.blocks)
            except SlackApiError as exc:  # not in the channel any more, archived…: said once
                log.warning("the digest of %s could not be posted in %s (%s)",
                            setting.deal_id, setting.channel_key, exc.response.get("error"))
            else:
                headline = changes.headline()
                posted += 1
        await deps.deals.digest_done(setting, day, posted=headline, until=now)
    return posted


async def _run(deps: Deps, client: AsyncWebClient, clock: Callable[[], datetime],
               every: float) -> None:
    while True:
        try:
            await post_due_digests(deps, client, clock())
        except Exception:  # a bad round is logged; the next one tries again
            log.exception("the daily digests could not be checked")
        await asyncio.sleep(every)


@contextlib.asynccontextmanager
async def running_digests(bot: MandaBot, *, clock: Callable[[], datetime] = utcnow,
                          every: float = POLL_SECONDS) -> AsyncIterator[None]:
    """Check the digests every `every` seconds while the block runs."""
    task = asyncio.create_task(_run(bot.deps, bot.bolt.client, clock, every),
                               name="daily digests")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
