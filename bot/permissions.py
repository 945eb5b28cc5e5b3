"""Slack's answer to the deal rules' one question, who is in a channel (`manda.deals.Membership`).

The rules themselves (who may link a channel, who may approve) live in `manda.deals.access`.
"""

from __future__ import annotations

import logging

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.conversations import parse_channel_key

log = logging.getLogger(__name__)


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


class SlackMembership:
    """Channel members as Slack lists them (`conversations.members`), asked once per channel
    for the life of this object (one click, one command).

    A channel of another workspace is asked too: with an organisation-wide install or a shared
    (Slack Connect) channel, channel ids are the organisation's and the members listed include
    people of every workspace in it; a channel this token cannot read counts nobody in it.
    """

    def __init__(self, client: AsyncWebClient) -> None:
        self._client = client
        self._members: dict[str, set[str]] = {}

    def is_direct(self, channel_key: str) -> bool:
        parsed = parse_channel_key(channel_key)
        return parsed is None or not is_deal_channel(parsed[1])

    async def is_member(self, channel_key: str, user: str) -> bool:
        parsed = parse_channel_key(channel_key)
        if parsed is None:
            return False  # another front end's channel: Slack cannot tell
        channel = parsed[1]
        if channel not in self._members:
            try:
                self._members[channel] = await channel_members(self._client, channel)
            except SlackApiError as exc:
                log.info(
                    "cannot read the members of %s (%s); counting nobody in it",
                    channel,
                    exc.response.get("error"),
                )
                self._members[channel] = set()
        return user in self._members[channel]
