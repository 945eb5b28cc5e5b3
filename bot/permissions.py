"""Who may approve or reject a deal's findings.

With an approver group configured (`MANDA_APPROVERS`, Slack user ids), only its members may; without
one, members of a channel bound to the deal may (direct messages do not count: anyone can bind one).
"""

from __future__ import annotations

from slack_sdk.web.async_client import AsyncWebClient

from bot.conversations import channels_of
from manda.config import Settings
from manda.kg.port import KnowledgeGraph


async def channel_members(client: AsyncWebClient, channel: str) -> set[str]:
    members: set[str] = set()
    cursor: str | None = None
    while True:
        page = await client.conversations_members(channel=channel, cursor=cursor, limit=200)
        members.update(page.get("members", []))
        cursor = (page.get("response_metadata") or {}).get("next_cursor") or None
        if not cursor:
            return members


def is_deal_channel(channel: str) -> bool:
    """Public or private channels; a DM with the bot is never a deal's channel."""
    return not channel.startswith("D")


async def may_decide(
    client: AsyncWebClient,
    settings: Settings,
    graph: KnowledgeGraph,
    *,
    deal_id: str,
    user: str,
    team: str,
    channel: str | None = None,
) -> bool:
    if settings.approvers:
        return user in settings.approvers
    return await is_deal_member(
        client, graph, deal_id=deal_id, user=user, team=team, channel=channel
    )


async def is_deal_member(
    client: AsyncWebClient,
    graph: KnowledgeGraph,
    *,
    deal_id: str,
    user: str,
    team: str,
    channel: str | None = None,
) -> bool:
    """A member of a channel of this workspace (`team`) bound to the deal (`channel` first)."""
    bound = [c for c in await channels_of(graph, deal_id, team) if is_deal_channel(c)]
    candidates = [channel] if channel in bound else bound
    for candidate in candidates:
        if user in await channel_members(client, candidate):
            return True
    return False
