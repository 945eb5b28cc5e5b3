"""Small helpers the listeners share: who sent an event, the thread it belongs to, the question."""

from __future__ import annotations

from typing import Any

from bot.conversations import Thread
from bot.slacktext import from_slack

_CHANNEL_TYPES = {"C": "channel", "G": "group", "D": "im"}


def from_a_bot(event: dict[str, Any]) -> bool:
    """Messages by bots (this one included) are never answered."""
    return bool(
        event.get("bot_id") or event.get("bot_profile") or event.get("subtype") == "bot_message"
    )


def channel_type(event: dict[str, Any]) -> str:
    return str(
        event.get("channel_type")
        or _CHANNEL_TYPES.get(str(event.get("channel", " "))[0], "channel")
    )


def thread_of(event: dict[str, Any], team: str) -> Thread:
    """The thread a message belongs to (a top-level message starts its own)."""
    return Thread(
        team=team,
        channel=event["channel"],
        thread_ts=event.get("thread_ts") or event["ts"],
        user=event.get("user", ""),
        message_ts=event["ts"],
        channel_type=channel_type(event),
        user_team=event.get("user_team") or event.get("team") or None,
    )


def team_of(body: dict[str, Any]) -> str:
    team = (
        body.get("team_id")
        or (body.get("team") or {}).get("id")
        or body.get("user", {}).get("team_id")
    )
    return str(team or "")


def strip_mention(text: str, bot_user_id: str | None) -> str:
    """The question as typed, without the @Manda that addressed it (Slack markup made plain)."""
    return from_slack(text, bot_user_id=bot_user_id)


def mentions(text: str, bot_user_id: str | None) -> bool:
    return bool(bot_user_id) and f"<@{bot_user_id}" in text
