"""The bodies Slack sends to an app: Events API callbacks, slash commands, block actions."""

from __future__ import annotations

import time
import uuid
from typing import Any

from bot.fakeslack.state import Channel, Message, User, Workspace


def event_callback(
    ws: Workspace, event: dict[str, Any], *, event_id: str | None = None
) -> dict[str, Any]:
    return {
        "token": "fake-verification-token",
        "team_id": ws.team_id,
        "api_app_id": ws.app_id,
        "event": event,
        "type": "event_callback",
        "event_id": event_id or f"Ev{uuid.uuid4().hex[:10].upper()}",
        "event_time": int(time.time()),
        "authorizations": [
            {
                "enterprise_id": None,
                "team_id": ws.team_id,
                "user_id": ws.bot.id,
                "is_bot": True,
                "is_enterprise_install": False,
            }
        ],
        "is_ext_shared_channel": False,
        "event_context": f"4-{uuid.uuid4().hex[:12]}",
    }


def _rich_text(text: str) -> list[dict[str, Any]]:
    return [
        {
            "type": "rich_text",
            "block_id": uuid.uuid4().hex[:5],
            "elements": [
                {"type": "rich_text_section", "elements": [{"type": "text", "text": text}]}
            ],
        }
    ]


def message_event(
    ws: Workspace, message: Message, channel: Channel, files: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The `message` event Slack sends for a person's (or another bot's) message."""
    event: dict[str, Any] = {
        "type": "message",
        "text": message.text,
        "user": message.user,
        "ts": message.ts,
        "team": ws.team_id,
        "channel": channel.id,
        "event_ts": message.ts,
        "channel_type": channel.channel_type,
        "blocks": _rich_text(message.text),
    }
    author = ws.users.get(message.user or "")
    if author is not None:
        # whose team the author is in: another organisation's, in a Slack Connect channel
        # (the reference payload `events_api_message_channel_thread.json` carries both)
        event["user_team"] = author.team_id
        event["source_team"] = author.team_id
    if author is not None and author.is_bot:
        event["bot_id"] = author.bot_id
    else:
        event["client_msg_id"] = str(uuid.uuid4())
    if message.thread_ts:
        event["thread_ts"] = message.thread_ts
        parent = ws.find(channel.id, message.thread_ts)
        if parent is not None and parent.user:
            event["parent_user_id"] = parent.user
    if message.subtype:
        event["subtype"] = message.subtype
    if files:
        event["files"] = files
        event["upload"] = False
        event["display_as_bot"] = False
    return event


def app_mention_event(ws: Workspace, message: Message) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": "app_mention",
        "client_msg_id": str(uuid.uuid4()),
        "text": message.text,
        "user": message.user,
        "ts": message.ts,
        "team": ws.team_id,
        "channel": message.channel,
        "event_ts": message.ts,
        "blocks": _rich_text(message.text),
    }
    if message.thread_ts:
        event["thread_ts"] = message.thread_ts
    author = ws.users.get(message.user or "")
    if author is not None:
        event["user_team"] = author.team_id
        event["source_team"] = author.team_id
    if author is not None and author.is_bot:
        event["bot_id"] = author.bot_id
    return event


def file_shared_event(ws: Workspace, file_id: str, user: str, channel: str) -> dict[str, Any]:
    return {
        "type": "file_shared",
        "channel_id": channel,
        "file_id": file_id,
        "user_id": user,
        "file": {"id": file_id},
        "event_ts": f"{time.time():.6f}",
    }


def app_home_opened_event(ws: Workspace, user: str, channel: str) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": "app_home_opened",
        "user": user,
        "channel": channel,
        "tab": "home",
        "event_ts": f"{time.time():.6f}",
    }
    if user in ws.home_views:
        event["view"] = ws.home_views[user]
    return event


def slash_command(
    ws: Workspace, user: User, channel: Channel, command: str, text: str, response_url: str
) -> dict[str, str]:
    return {
        "token": "fake-verification-token",
        "team_id": ws.team_id,
        "team_domain": ws.domain,
        "channel_id": channel.id,
        "channel_name": "directmessage" if channel.kind == "im" else channel.name,
        "user_id": user.id,
        "user_name": user.name,
        "command": command,
        "text": text,
        "api_app_id": ws.app_id,
        "is_enterprise_install": "false",
        "response_url": response_url,
        "trigger_id": f"{int(time.time())}.{uuid.uuid4().int % 10**12}.{uuid.uuid4().hex[:16]}",
    }


def block_actions(
    ws: Workspace,
    user: User,
    action: dict[str, Any],
    block_id: str,
    *,
    message: dict[str, Any] | None = None,
    channel: Channel | None = None,
    view: dict[str, Any] | None = None,
    response_url: str | None = None,
    ephemeral: bool = False,
) -> dict[str, Any]:
    """A button click; `message` + `channel` for a message, `view` for the Home tab.

    A click in an ephemeral message carries no `message` (Slack keeps no copy of it), only its
    container marked `is_ephemeral` and a response_url.
    """
    clicked = {
        "action_id": action["action_id"],
        "block_id": block_id,
        "text": action.get("text"),
        "value": action.get("value"),
        "type": action.get("type", "button"),
        "action_ts": f"{time.time():.6f}",
    }
    if "style" in action:
        clicked["style"] = action["style"]
    if "selected_option" in action:  # an overflow menu: the option chosen, no text or value
        # https://docs.slack.dev/reference/block-kit/block-elements/overflow-menu-element
        clicked = {k: v for k, v in clicked.items() if k not in ("text", "value")}
        clicked["selected_option"] = action["selected_option"]
    body: dict[str, Any] = {
        "type": "block_actions",
        "user": {"id": user.id, "username": user.name, "name": user.name, "team_id": ws.team_id},
        "api_app_id": ws.app_id,
        "token": "fake-verification-token",
        "trigger_id": f"{int(time.time())}.{uuid.uuid4().int % 10**12}.{uuid.uuid4().hex[:16]}",
        "team": {"id": ws.team_id, "domain": ws.domain},
        "enterprise": None,
        "is_enterprise_install": False,
        "state": {"values": {}},
        "actions": [clicked],
    }
    if view is not None:
        body["container"] = {"type": "view", "view_id": view["id"]}
        body["view"] = view
    else:
        assert message is not None and channel is not None
        container: dict[str, Any] = {
            "type": "message",
            "message_ts": message["ts"],
            "channel_id": channel.id,
            "is_ephemeral": ephemeral,
        }
        if message.get("thread_ts"):
            container["thread_ts"] = message["thread_ts"]
        body["container"] = container
        body["channel"] = {"id": channel.id, "name": channel.name}
        if not ephemeral:
            body["message"] = message
        body["response_url"] = response_url
    return body
