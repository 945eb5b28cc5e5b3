"""Global middleware: each Events API event handled once, however often Slack delivers it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.response import BoltResponse

from bot.deps import DEDUP_SECONDS, Deps
from manda.errors import MandaError

log = logging.getLogger(__name__)


def register(app: AsyncApp, deps: Deps) -> None:
    @app.middleware
    async def once_per_event(
        body: dict[str, Any], next: Callable[[], Awaitable[None]]
    ) -> BoltResponse | None:
        event_id = body.get("event_id") if body.get("type") == "event_callback" else None
        if event_id:
            try:
                seen = await deps.manda.memory.seen_event(f"slack:{event_id}", DEDUP_SECONDS)
            except MandaError as exc:
                # Better a rare double answer than none: the person still gets a reply.
                log.warning("cannot check event %s for a repeat (%s); handling it", event_id, exc)
                seen = False
            if seen:
                log.info("event %s already handled; acknowledging the retry only", event_id)
                return BoltResponse(status=200, body="")
        await next()
        return None
