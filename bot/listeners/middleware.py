"""Global middleware, run before every listener: each Events API event handled once, however
often Slack delivers it; listeners get a Web API client with retries and the "Slack" breaker.

(Bolt's `next()` only marks a middleware as passed; listeners run after all middleware, so the
log context of a request is set around the whole dispatch, in `bot.monitoring`.)
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncApp, AsyncBoltContext
from slack_bolt.response import BoltResponse

from bot.deps import DEDUP_SECONDS, Deps
from bot.monitoring import DUPLICATE, OUTCOME_KEY
from bot.slackapi import GuardedWebClient
from manda.errors import MandaError

log = logging.getLogger(__name__)

Next = Callable[[], Awaitable[None]]


def register(app: AsyncApp, deps: Deps) -> None:
    @app.middleware
    async def once_per_event(
        body: dict[str, Any], context: AsyncBoltContext, next: Next
    ) -> BoltResponse | None:
        event_id = body.get("event_id") if body.get("type") == "event_callback" else None
        if event_id:
            try:
                seen = await deps.conversations.seen_before(f"slack:{event_id}", DEDUP_SECONDS)
            except MandaError as exc:
                # Better a rare double answer than none: the person still gets a reply.
                log.warning("cannot check event %s for a repeat (%s); handling it", event_id, exc)
                seen = False
            if seen:
                log.info("event %s already handled; acknowledging the retry only", event_id)
                deps.metrics.record_duplicate_event()
                context[OUTCOME_KEY] = DUPLICATE
                return BoltResponse(status=200, body="")
        await next()
        return None

    @app.middleware
    async def guarded_client(context: AsyncBoltContext, next: Next) -> BoltResponse | None:
        context["client"] = GuardedWebClient.like(
            context.client,
            breaker=deps.slack_breaker,
            metrics=deps.metrics,
            session=deps.slack_session(),
            limiter=deps.slack_limits,
            team=context.team_id or context.enterprise_id,
        )
        await next()
        return None
