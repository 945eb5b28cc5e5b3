"""People as the team knows them: a Slack user id turned into the name people use."""

from __future__ import annotations

import re

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

_SLACK_USER = re.compile(r"^[UW][A-Z0-9]{2,}$")


async def people_names(client: AsyncWebClient, ids_: set[str]) -> dict[str, str]:
    """Slack user ids as the names people know (users.info); an id Slack won't name stays."""
    names: dict[str, str] = {}
    for user in sorted(i for i in ids_ if _SLACK_USER.match(i)):
        try:
            found = (await client.users_info(user=user))["user"]
        except SlackApiError:
            continue
        profile = found.get("profile") or {}
        names[user] = str(
            profile.get("real_name") or found.get("real_name") or found.get("name") or user
        )
    return names
