"""App Home: the deals linked to channels the person is in, their review queue and Q&A list."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.home import HomeDeal, render_home
from bot.blocks.messages import error_text
from bot.conversations import parse_channel_key
from bot.deps import Deps
from bot.listeners.common import team_of
from bot.permissions import channel_members, is_deal_channel

log = logging.getLogger(__name__)


async def visible_deals(
    deps: Deps, client: AsyncWebClient, team: str, user: str
) -> dict[str, list[str]]:
    """Deal id → channels bound to it that `user` is in (every bound channel for approvers)."""
    approver = user in deps.settings.approvers
    deals: dict[str, list[str]] = {}
    for key, deal_id in sorted((await deps.manda.graph.list_bindings()).items()):
        parsed = parse_channel_key(key)
        if parsed is None or parsed[0] != team:
            continue
        channel = parsed[1]
        if not is_deal_channel(channel):
            continue
        try:
            member = approver or user in await channel_members(client, channel)
        except SlackApiError as exc:
            log.info(
                "cannot read members of %s (%s); leaving it out of Home",
                channel,
                exc.response.get("error"),
            )
            member = False
        if member:
            deals.setdefault(deal_id, []).append(channel)
    return deals


async def home_deal(deps: Deps, deal_id: str, channels: list[str]) -> HomeDeal:
    documents = await deps.manda.graph.list_documents(deal_id)
    return HomeDeal(
        deal_id=deal_id,
        channels=channels,
        documents=len(documents),
        pending=await deps.manda.review.queue(deal_id),
        qa_items=await deps.manda.qa.items(deal_id),
        document_names={d.id: d.filename for d in documents},
    )


async def publish_home(
    deps: Deps, client: AsyncWebClient, team: str, user: str, *, notice: str | None = None
) -> None:
    """Render and publish `user`'s Home tab; a failure is shown on the tab itself."""
    try:
        deals = await visible_deals(deps, client, team, user)
        view = render_home([await home_deal(deps, d, c) for d, c in deals.items()], notice=notice)
    except Exception as exc:
        log.exception("building the Home tab of %s failed", user)
        view = render_home([], notice=error_text(exc, "show your deals"))
    await client.views_publish(user_id=user, view=view)


def register(app: AsyncApp, deps: Deps) -> None:
    @app.event("app_home_opened")
    async def on_home(
        ack: AsyncAck, event: dict[str, Any], body: dict[str, Any], client: AsyncWebClient
    ) -> None:
        await ack()
        if event.get("tab", "home") != "home":
            return
        deps.jobs.spawn(
            publish_home(deps, client, team_of(body), event["user"]), name=f"home {event['user']}"
        )
