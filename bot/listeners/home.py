"""App Home: the deals linked to channels the person is in, their review queue and Q&A list."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.home import HomeDeal, render_home
from bot.blocks.messages import error_text
from bot.conversations import parse_channel_key, workspace_key
from bot.deps import Deps
from bot.listeners.common import team_of
from bot.permissions import SlackMembership

log = logging.getLogger(__name__)


async def home_deal(deps: Deps, deal_id: str, channel_keys: list[str],
                    viewer: str | None = None) -> HomeDeal:
    overview = await deps.deals.overview(deal_id)
    channels = [parsed[1] for k in channel_keys if (parsed := parse_channel_key(k))]
    # what changed since the person last asked (`/manda changes`); looking is not asking
    changes = (await deps.deals.changes(deal_id, viewer=viewer, remember=False, coverage=False)
               if viewer is not None else None)
    return HomeDeal(
        deal_id=deal_id,
        channels=channels,
        documents=len(overview.documents),
        pending=overview.pending,
        qa_items=overview.qa_items,
        document_names=overview.document_names,
        changes=changes,
    )


async def publish_home(
    deps: Deps, client: AsyncWebClient, team: str, user: str, *, notice: str | None = None
) -> None:
    """Render and publish `user`'s Home tab; a failure is shown on the tab itself."""
    try:
        deals = await deps.deals.visible_deals(
            user, workspace=workspace_key(team), membership=SlackMembership(client)
        )
        view = render_home(
            [await home_deal(deps, deal_id, keys, user) for deal_id, keys in deals.items()],
            notice=notice,
        )
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
