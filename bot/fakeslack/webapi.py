"""The Slack Web API methods the bot uses, answered from the fake workspace with Slack's errors.

Each method checks what Slack checks (token, channel, membership, authorship, Block Kit limits)
and returns Slack's response shape, so a bug that Slack would reject fails here too.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.fakeslack.blockkit import (
    MAX_VIEW_BLOCKS,
    MESSAGE_TEXT,
    tables_in,
    validate_blocks,
    validate_modal,
)
from bot.fakeslack.state import Channel, Message, Workspace


@dataclass
class Features:
    """What this workspace offers; turn one off to exercise the bot's fallback."""

    streaming: bool = True  # chat.startStream / appendStream / stopStream
    assistant_status: bool = True  # assistant.threads.setStatus
    reactions: bool = True  # reactions.add / remove (off: as if reactions:write was not granted)


@dataclass
class PendingUpload:
    """A file between `files.getUploadURLExternal` and `files.completeUploadExternal`."""

    file_id: str
    filename: str
    length: int
    content: bytes | None = None  # set when the bytes reach the upload URL


class ApiError(Exception):
    def __init__(self, error: str, **extra: Any) -> None:
        super().__init__(error)
        self.error = error
        self.extra = extra


Handler = Callable[[dict[str, Any]], dict[str, Any]]


TRIGGER_SECONDS = 3.0  # a trigger_id opens a modal within this long of the click


def _blocks_arg(args: dict[str, Any], key: str = "blocks") -> list[dict[str, Any]] | None:
    value = args.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise ApiError("invalid_blocks_format") from exc
    return value


class WebApi:
    """Dispatches `POST /api/{method}` calls; every call is recorded in the workspace."""

    def __init__(
        self,
        workspace: Workspace,
        *,
        bot_token: str,
        app_token: str,
        base_url: Callable[[], str],
        socket_url: Callable[[], str],
        features: Features,
    ) -> None:
        self.ws = workspace
        self.bot_token = bot_token
        self.app_token = app_token
        self._base_url = base_url
        self._socket_url = socket_url
        self.features = features
        self.uploads: dict[str, PendingUpload] = {}  # upload key -> file awaiting its bytes
        self.methods: dict[str, Handler] = {
            "auth.test": self.auth_test,
            "chat.postMessage": self.post_message,
            "chat.update": self.update,
            "chat.postEphemeral": self.post_ephemeral,
            "chat.delete": self.delete,
            "chat.getPermalink": self.get_permalink,
            "chat.startStream": self.start_stream,
            "chat.appendStream": self.append_stream,
            "chat.stopStream": self.stop_stream,
            "assistant.threads.setStatus": self.set_status,
            "conversations.members": self.members,
            "conversations.info": self.info,
            "conversations.replies": self.replies,
            "conversations.history": self.history,
            "conversations.open": self.open,
            "users.info": self.users_info,
            "files.info": self.files_info,
            "files.getUploadURLExternal": self.get_upload_url,
            "files.completeUploadExternal": self.complete_upload,
            "reactions.add": self.reactions_add,
            "reactions.remove": self.reactions_remove,
            "views.publish": self.views_publish,
            "views.open": self.views_open,
            "views.update": self.views_update,
        }

    # ------------------------------------------------------------ dispatch

    def call(self, method: str, args: dict[str, Any], token: str | None) -> dict[str, Any]:
        self.ws.spend(method)
        try:
            result = self._dispatch(method, args, token)
        except ApiError as exc:
            self.ws.record(method, args, ok=False, error=exc.error)
            return {"ok": False, "error": exc.error, **exc.extra}
        self.ws.record(method, args, ok=True)
        return {"ok": True, **result}

    def _dispatch(self, method: str, args: dict[str, Any], token: str | None) -> dict[str, Any]:
        if not token:
            raise ApiError("not_authed")
        if method == "apps.connections.open":
            if token != self.app_token:
                raise ApiError(
                    "invalid_auth" if not token.startswith("xoxb") else "not_allowed_token_type"
                )
            return {"url": self._socket_url()}
        if token != self.bot_token:
            raise ApiError("invalid_auth")
        handler = self.methods.get(method)
        if handler is None:
            raise ApiError("unknown_method")
        return handler(args)

    # ------------------------------------------------------------ helpers

    def _channel(self, args: dict[str, Any], key: str = "channel") -> Channel:
        channel = self.ws.channels.get(str(args.get(key, "")))
        if channel is None:
            raise ApiError("channel_not_found")
        return channel

    def _bot_in(self, channel: Channel) -> None:
        if self.ws.bot.id not in channel.members:
            raise ApiError("not_in_channel")

    def _message(self, channel: Channel, ts: Any) -> Message:
        message = self.ws.find(channel.id, str(ts or ""))
        if message is None or message.deleted:
            raise ApiError("message_not_found")
        return message

    def _content(
        self, args: dict[str, Any], *, required: bool = True
    ) -> tuple[str | None, list[dict[str, Any]] | None]:
        text = args.get("text")
        blocks = _blocks_arg(args)
        if required and not text and not blocks:
            raise ApiError("no_text")
        if text is not None and len(str(text)) > MESSAGE_TEXT:
            raise ApiError("msg_too_long")
        if blocks is not None:
            errors = validate_blocks(blocks)
            if errors:
                raise ApiError("invalid_blocks", response_metadata={"messages": errors})
            if tables_in(blocks) > 1:  # one table a message: the table block reference
                raise ApiError("invalid_attachments",
                               response_metadata={"messages": ["only_one_table_allowed"]})
        return (None if text is None else str(text)), blocks

    def _thread(self, channel: Channel, thread_ts: Any) -> str | None:
        if not thread_ts:
            return None
        parent = self.ws.find(channel.id, str(thread_ts))
        if parent is None:
            raise ApiError("thread_not_found")
        return parent.thread_ts or parent.ts

    def _files(self, message: Message) -> list[dict[str, Any]]:
        return [
            self.ws.files[f].to_api(self._base_url(), self.ws.team_id)
            for f in message.files
            if f in self.ws.files
        ]

    def _api_message(self, message: Message) -> dict[str, Any]:
        return message.to_api(self._files(message))

    def _bot_message(self, channel: Channel, **fields: Any) -> Message:
        return Message(
            channel=channel.id,
            ts=self.ws.new_ts(),
            user=self.ws.bot.id,
            bot_id=self.ws.bot.bot_id,
            **fields,
        )

    # ------------------------------------------------------------ methods

    def auth_test(self, args: dict[str, Any]) -> dict[str, Any]:
        return {
            "url": f"https://{self.ws.domain}.slack.com/",
            "team": self.ws.domain,
            "user": self.ws.bot.name,
            "team_id": self.ws.team_id,
            "user_id": self.ws.bot.id,
            "bot_id": self.ws.bot.bot_id,
            "app_id": self.ws.app_id,
            "is_enterprise_install": False,
        }

    def post_message(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        self._bot_in(channel)
        text, blocks = self._content(args)
        thread_ts = self._thread(channel, args.get("thread_ts"))
        message = self.ws.add_message(
            self._bot_message(channel, text=text or "", blocks=blocks or [], thread_ts=thread_ts)
        )
        return {"channel": channel.id, "ts": message.ts, "message": self._api_message(message)}

    def update(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        message = self._message(channel, args.get("ts"))
        if message.user != self.ws.bot.id:
            raise ApiError("cant_update_message")
        text, blocks = self._content(args)
        if message.streaming:
            raise ApiError("message_is_streaming")
        self.ws.update(message, text=text, blocks=blocks)
        return {
            "channel": channel.id,
            "ts": message.ts,
            "text": message.text,
            "message": self._api_message(message),
        }

    def post_ephemeral(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        self._bot_in(channel)
        user = str(args.get("user", ""))
        if user not in self.ws.users:
            raise ApiError("user_not_found")
        if user not in channel.members:
            raise ApiError("user_not_in_channel")
        text, blocks = self._content(args)
        thread_ts = self._thread(channel, args.get("thread_ts"))
        message = self.ws.add_message(
            self._bot_message(
                channel,
                text=text or "",
                blocks=blocks or [],
                thread_ts=thread_ts,
                ephemeral_to=user,
            )
        )
        return {"message_ts": message.ts}

    def delete(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        message = self._message(channel, args.get("ts"))
        if message.user != self.ws.bot.id:
            raise ApiError("cant_delete_message")
        message.deleted = True
        self.ws.changed("message", message)
        return {"channel": channel.id, "ts": message.ts}

    def start_stream(self, args: dict[str, Any]) -> dict[str, Any]:
        if not self.features.streaming:
            raise ApiError("unknown_method")
        channel = self._channel(args)
        self._bot_in(channel)
        if not args.get("thread_ts"):
            raise ApiError(
                "invalid_arguments", response_metadata={"messages": ["thread_ts is required"]}
            )
        if channel.kind != "im" and not (
            args.get("recipient_user_id") and args.get("recipient_team_id")
        ):
            raise ApiError(
                "invalid_arguments",
                response_metadata={
                    "messages": ["recipient_user_id and recipient_team_id are required in channels"]
                },
            )
        recipient = self.ws.users.get(str(args.get("recipient_user_id") or ""))
        if channel.kind != "im" and recipient is not None \
                and args.get("recipient_team_id") != recipient.team_id:
            # "The encoded ID of the team the user receiving the streaming text belongs to":
            # another organisation's in a Slack Connect channel
            # (https://docs.slack.dev/reference/methods/chat.startStream)
            raise ApiError("invalid_arguments", response_metadata={
                "messages": ["recipient_team_id is not the team of recipient_user_id"]})
        thread_ts = self._thread(channel, args["thread_ts"])
        text = str(args.get("markdown_text") or "")
        message = self.ws.add_message(
            self._bot_message(
                channel,
                text=text,
                blocks=[{"type": "markdown", "text": text}] if text else [],
                thread_ts=thread_ts,
                streaming=True,
            )
        )
        return {"channel": channel.id, "ts": message.ts}

    def _streaming(self, args: dict[str, Any]) -> Message:
        if not self.features.streaming:
            raise ApiError("unknown_method")
        channel = self._channel(args)
        message = self._message(channel, args.get("ts"))
        if not message.streaming:
            raise ApiError("message_not_in_streaming_state")
        return message

    def append_stream(self, args: dict[str, Any]) -> dict[str, Any]:
        message = self._streaming(args)
        text = message.text + str(args.get("markdown_text") or "")
        self.ws.update(message, text=text, blocks=[{"type": "markdown", "text": text}], edit=False)
        return {"channel": message.channel, "ts": message.ts}

    def stop_stream(self, args: dict[str, Any]) -> dict[str, Any]:
        """The stream ends; `blocks` are rendered under the streamed text (up to 50 of their
        own, apart from the text's), and the message is not marked edited.
        https://docs.slack.dev/reference/methods/chat.stopStream"""
        message = self._streaming(args)
        text = message.text + str(args.get("markdown_text") or "")
        extra = _blocks_arg(args) or []
        errors = validate_blocks(extra)
        if errors:
            raise ApiError("invalid_blocks", response_metadata={"messages": errors})
        blocks = ([{"type": "markdown", "text": text}] if text else []) + extra
        message.streaming = False
        self.ws.update(message, text=text, blocks=blocks, edit=False)
        return {"channel": message.channel, "ts": message.ts, "message": self._api_message(message)}

    def set_status(self, args: dict[str, Any]) -> dict[str, Any]:
        if not self.features.assistant_status:
            raise ApiError("not_allowed")
        channel = self._channel(args, "channel_id")
        self._bot_in(channel)
        if not args.get("thread_ts"):
            raise ApiError("invalid_arguments")
        self.ws.set_status(channel.id, str(args["thread_ts"]), str(args.get("status") or ""))
        return {}

    def members(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        if channel.kind != "public":
            self._bot_in(channel)
        limit = int(args.get("limit") or 100)
        start = int(args.get("cursor") or 0)
        page = channel.members[start : start + limit]
        following = start + limit
        cursor = str(following) if following < len(channel.members) else ""
        return {"members": page, "response_metadata": {"next_cursor": cursor}}

    def info(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        if channel.kind != "public":
            self._bot_in(channel)
        return {"channel": channel.to_api(self.ws.bot.id)}

    def replies(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        self._bot_in(channel)
        parent = self._message(channel, args.get("ts"))
        thread = self.ws.replies(channel.id, parent.thread_ts or parent.ts)
        return {"messages": [self._api_message(m) for m in thread], "has_more": False}

    def history(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        self._bot_in(channel)
        messages = list(reversed(self.ws.history(channel.id)))[: int(args.get("limit") or 100)]
        return {"messages": [self._api_message(m) for m in messages], "has_more": False}

    def open(self, args: dict[str, Any]) -> dict[str, Any]:
        users = [u for u in str(args.get("users", "")).split(",") if u]
        if len(users) != 1 or users[0] not in self.ws.users:
            raise ApiError("user_not_found")
        return {"channel": self.ws.open_im(users[0]).to_api(self.ws.bot.id)}

    def get_permalink(self, args: dict[str, Any]) -> dict[str, Any]:
        """A message's link, as Slack builds it: no scope needed; an unknown channel or message
        is refused. https://docs.slack.dev/reference/methods/chat.getPermalink"""
        channel = self._channel(args)
        ts = str(args.get("message_ts", ""))
        message = self.ws.find(channel.id, ts)
        if message is None:
            raise ApiError("message_not_found")
        link = f"https://{self.ws.domain}.slack.com/archives/{channel.id}/p{ts.replace('.', '')}"
        if message.thread_ts and message.thread_ts != ts:  # a reply links through its thread
            link += f"?thread_ts={message.thread_ts}&cid={channel.id}"
        return {"channel": channel.id, "permalink": link}

    def users_info(self, args: dict[str, Any]) -> dict[str, Any]:
        user = self.ws.users.get(str(args.get("user", "")))
        if user is None:
            raise ApiError("user_not_found")
        return {"user": user.to_api()}

    def files_info(self, args: dict[str, Any]) -> dict[str, Any]:
        stored = self.ws.files.get(str(args.get("file", "")))
        if stored is None:
            raise ApiError("file_not_found")
        return {"file": stored.to_api(self._base_url(), self.ws.team_id)}

    # External upload flow: https://docs.slack.dev/reference/methods/files.getUploadURLExternal
    # and https://docs.slack.dev/reference/methods/files.completeUploadExternal

    def get_upload_url(self, args: dict[str, Any]) -> dict[str, Any]:
        filename = str(args.get("filename") or "")
        try:
            length = int(args.get("length") or 0)
        except (TypeError, ValueError) as exc:
            raise ApiError("invalid_arguments") from exc
        if not filename or length <= 0:
            raise ApiError("missing_argument")  # Slack's answer to a missing name or length 0
        key = secrets.token_urlsafe(12)
        self.uploads[key] = PendingUpload(self.ws.new_id("F"), filename, length)
        return {
            "upload_url": f"{self._base_url()}upload/v1/{key}",
            "file_id": self.uploads[key].file_id,
        }

    def receive_upload(self, key: str, content: bytes) -> bool:
        """The bytes POSTed to an upload URL; False when the URL was never handed out."""
        pending = self.uploads.get(key)
        if pending is None:
            return False
        pending.content = content
        return True

    def complete_upload(self, args: dict[str, Any]) -> dict[str, Any]:
        raw = args.get("files")
        try:
            wanted = json.loads(raw) if isinstance(raw, str) else raw
        except json.JSONDecodeError as exc:
            raise ApiError("invalid_arguments") from exc
        if not isinstance(wanted, list) or not wanted:
            raise ApiError("invalid_arguments")
        by_id = {p.file_id: (k, p) for k, p in self.uploads.items()}
        ready: list[tuple[str, PendingUpload, str]] = []
        for item in wanted:
            found = by_id.get(str(item.get("id", ""))) if isinstance(item, dict) else None
            if found is None or found[1].content is None:
                raise ApiError("file_not_found")  # unknown id, or its bytes never arrived
            ready.append((found[0], found[1], str(item.get("title") or found[1].filename)))
        channel = self._channel(args, "channel_id") if args.get("channel_id") else None
        thread_ts = None
        if channel is not None:
            self._bot_in(channel)
            thread_ts = self._thread(channel, args.get("thread_ts"))
        shared = []
        for key, pending, title in ready:
            del self.uploads[key]
            stored = self.ws.add_file(
                pending.filename,
                pending.content or b"",
                user=self.ws.bot.id,
                file_id=pending.file_id,
            )
            stored.title = title
            if channel is not None:
                stored.channels.append(channel.id)
            shared.append(stored)
        if channel is not None:
            self.ws.add_message(
                self._bot_message(
                    channel,
                    text=str(args.get("initial_comment") or ""),
                    thread_ts=thread_ts,
                    subtype="file_share",
                    files=[f.id for f in shared],
                )
            )
        return {"files": [f.to_api(self._base_url(), self.ws.team_id) for f in shared]}

    def _reaction_target(self, args: dict[str, Any]) -> tuple[Message, str]:
        if not self.features.reactions:
            raise ApiError("missing_scope", needed="reactions:write")
        channel = self._channel(args)
        self._bot_in(channel)
        message = self._message(channel, args.get("timestamp"))
        name = str(args.get("name", "")).strip(":")
        if not name:
            raise ApiError("invalid_name")
        return message, name

    def reactions_add(self, args: dict[str, Any]) -> dict[str, Any]:
        message, name = self._reaction_target(args)
        users = message.reactions.setdefault(name, [])
        if self.ws.bot.id in users:
            raise ApiError("already_reacted")
        users.append(self.ws.bot.id)
        self.ws.changed("message", message)
        return {}

    def reactions_remove(self, args: dict[str, Any]) -> dict[str, Any]:
        message, name = self._reaction_target(args)
        users = message.reactions.get(name, [])
        if self.ws.bot.id not in users:
            raise ApiError("no_reaction")
        users.remove(self.ws.bot.id)
        if not users:
            del message.reactions[name]
        self.ws.changed("message", message)
        return {}

    def views_publish(self, args: dict[str, Any]) -> dict[str, Any]:
        user = str(args.get("user_id", ""))
        if user not in self.ws.users:
            raise ApiError("user_not_found")
        view = args.get("view")
        if isinstance(view, str):
            view = json.loads(view)
        if not isinstance(view, dict) or view.get("type") != "home":
            raise ApiError("invalid_arguments")
        errors = validate_blocks(view.get("blocks", []), limit=MAX_VIEW_BLOCKS)
        if errors:
            raise ApiError("invalid_blocks", response_metadata={"messages": errors})
        previous = self.ws.home_views.get(user)
        published = {
            **view,
            "id": previous["id"] if previous else self.ws.new_id("V"),
            "team_id": self.ws.team_id,
            "app_id": self.ws.app_id,
            "bot_id": self.ws.bot.bot_id,
        }
        self.ws.home_views[user] = published
        self.ws.changed("view", (user, published))
        return {"view": published}

    def views_open(self, args: dict[str, Any]) -> dict[str, Any]:
        """A modal opened with a click's trigger_id; kept for `FakeSlack.submit_view`.

        A trigger_id is good once, within 3 seconds of the click (`expired_trigger_id` after,
        `exchanged_trigger_id` the second time): https://docs.slack.dev/reference/methods/views.open,
        https://docs.slack.dev/surfaces/modals#opening_modals.
        """
        trigger = str(args.get("trigger_id", ""))
        if trigger in self.ws.used_triggers:
            raise ApiError("exchanged_trigger_id")
        user = self.ws.triggers.get(trigger)
        if user is None:
            raise ApiError("invalid_trigger_id")
        if self.ws.clock() - self.ws.trigger_times.get(trigger, 0.0) > TRIGGER_SECONDS:
            raise ApiError("expired_trigger_id")
        view = self._modal_view(args)
        self.ws.triggers.pop(trigger)
        self.ws.used_triggers.add(trigger)
        opened = {**view, "id": self.ws.new_id("V"), "team_id": self.ws.team_id,
                  "app_id": self.ws.app_id, "bot_id": self.ws.bot.bot_id,
                  "hash": self.ws.new_id("H")}
        self.ws.show_modal(user, opened)
        return {"view": opened}

    def views_update(self, args: dict[str, Any]) -> dict[str, Any]:
        """Replace an open modal's content by its `view_id` (no trigger needed); a `hash` that
        is not the view's current one is refused, as Slack guards against races
        (https://docs.slack.dev/reference/methods/views.update)."""
        view_id = str(args.get("view_id") or "")
        owner = next((user for user, open_ in self.ws.modals.items()
                      if open_.get("id") == view_id), None)
        if owner is None:
            raise ApiError("not_found")
        current = self.ws.modals[owner]
        if args.get("hash") and args["hash"] != current.get("hash"):
            raise ApiError("hash_conflict")
        view = self._modal_view(args)
        updated = {**view, "id": view_id, "team_id": self.ws.team_id, "app_id": self.ws.app_id,
                   "bot_id": self.ws.bot.bot_id, "hash": self.ws.new_id("H")}
        self.ws.show_modal(owner, updated)
        return {"view": updated}

    def _modal_view(self, args: dict[str, Any]) -> dict[str, Any]:
        view = args.get("view")
        if isinstance(view, str):
            view = json.loads(view)
        if not isinstance(view, dict) or view.get("type") != "modal":
            raise ApiError("invalid_arguments")
        errors = validate_modal(view)
        if errors:
            raise ApiError("invalid_arguments", response_metadata={"messages": errors})
        return view
