"""The fake workspace's state: users, channels, messages and threads, files, reactions, views.

Everything the Web API methods change lives here, so a test (or the local playground) can look at
what the bot did, wait for it, and see every version of an updated message.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

ChannelKind = Literal["public", "private", "im"]

CHANNEL_TYPE = {"public": "channel", "private": "group", "im": "im"}


@dataclass
class User:
    id: str
    name: str
    real_name: str
    team_id: str
    is_bot: bool = False
    bot_id: str | None = None

    def to_api(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "team_id": self.team_id,
            "name": self.name,
            "real_name": self.real_name,
            "is_bot": self.is_bot,
            "deleted": False,
            "profile": {
                "real_name": self.real_name,
                "display_name": self.name,
                **({"bot_id": self.bot_id} if self.bot_id else {}),
            },
        }


@dataclass
class Channel:
    id: str
    name: str
    kind: ChannelKind
    members: list[str]
    created: int = field(default_factory=lambda: int(time.time()))
    topic: str = ""

    @property
    def channel_type(self) -> str:
        return CHANNEL_TYPE[self.kind]

    def to_api(self, viewer: str | None = None) -> dict[str, Any]:
        info: dict[str, Any] = {
            "id": self.id,
            "created": self.created,
            "is_channel": self.kind == "public",
            "is_group": self.kind == "private",
            "is_im": self.kind == "im",
            "is_private": self.kind != "public",
            "is_archived": False,
            "is_member": viewer in self.members if viewer else False,
        }
        if self.kind == "im":
            info["user"] = next((m for m in self.members if m != viewer), self.members[0])
        else:
            info["name"] = self.name
            info["num_members"] = len(self.members)
            info["topic"] = {"value": self.topic, "creator": "", "last_set": 0}
        return info


@dataclass
class StoredFile:
    id: str
    name: str
    user: str
    content: bytes
    mimetype: str
    filetype: str
    created: int = field(default_factory=lambda: int(time.time()))
    channels: list[str] = field(default_factory=list)
    title: str | None = None

    def to_api(self, base_url: str, team_id: str) -> dict[str, Any]:
        private = f"{base_url}files-pri/{team_id}-{self.id}/{self.name}"
        return {
            "id": self.id,
            "created": self.created,
            "timestamp": self.created,
            "name": self.name,
            "title": self.title or self.name,
            "permalink": f"{base_url}files/{team_id}-{self.id}/{self.name}",
            "mimetype": self.mimetype,
            "filetype": self.filetype,
            "pretty_type": self.filetype.upper(),
            "user": self.user,
            "size": len(self.content),
            "mode": "hosted",
            "is_external": False,
            "is_public": False,
            "url_private": private,
            "url_private_download": f"{base_url}files-pri/{team_id}-{self.id}/download/{self.name}",
            "channels": list(self.channels),
        }


@dataclass
class Message:
    channel: str
    ts: str
    text: str = ""
    user: str | None = None
    bot_id: str | None = None
    blocks: list[dict[str, Any]] = field(default_factory=list)
    thread_ts: str | None = None
    subtype: str | None = None
    files: list[str] = field(default_factory=list)
    reactions: dict[str, list[str]] = field(default_factory=dict)
    ephemeral_to: str | None = None  # only this user sees it
    streaming: bool = False
    edited: bool = False  # chat.update changed it ("(edited)"); a stream's growth is no edit
    deleted: bool = False
    versions: list[dict[str, Any]] = field(
        default_factory=list
    )  # earlier text/blocks, oldest first
    posted_at: float = field(default_factory=time.time)  # wall clock, for people reading it

    @property
    def is_reply(self) -> bool:
        return self.thread_ts is not None and self.thread_ts != self.ts

    def all_text(self) -> str:
        """The text a reader sees: the fallback text and every text inside the blocks."""
        parts = [self.text]
        parts.extend(_block_texts(self.blocks))
        return "\n".join(p for p in parts if p)

    def to_api(self, files: Iterable[dict[str, Any]] = ()) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "message", "ts": self.ts, "text": self.text}
        if self.user:
            data["user"] = self.user
        if self.bot_id:
            data["bot_id"] = self.bot_id
        if self.blocks:
            data["blocks"] = self.blocks
        if self.thread_ts:
            data["thread_ts"] = self.thread_ts
        if self.subtype:
            data["subtype"] = self.subtype
        file_list = list(files)
        if file_list:
            data["files"] = file_list
            data["upload"] = False
        if self.reactions:
            data["reactions"] = [
                {"name": n, "users": list(u), "count": len(u)} for n, u in self.reactions.items()
            ]
        if self.edited:
            data["edited"] = {"user": self.user, "ts": self.ts}
        return data


def _block_texts(blocks: Iterable[dict[str, Any]]) -> list[str]:
    texts: list[str] = []
    for block in blocks:
        for key in ("text",):
            value = block.get(key)
            if isinstance(value, dict):
                texts.append(str(value.get("text", "")))
            elif isinstance(value, str):
                texts.append(value)
        for element in block.get("elements", []) or []:
            if isinstance(element, dict):
                if element.get("type") in ("mrkdwn", "plain_text"):
                    texts.append(str(element.get("text", "")))
                elif isinstance(element.get("text"), dict):
                    texts.append(str(element["text"].get("text", "")))
        for f in block.get("fields", []) or []:
            texts.append(str(f.get("text", "")))
    return texts


@dataclass
class Call:
    """One Web API call (or response_url post) the app made, with its outcome."""

    seq: int
    method: str
    args: dict[str, Any]
    ok: bool
    error: str | None = None


# assistant.threads.setStatus: "A two minute timeout applies, which will cause the status to be
# removed if no message has been sent" (https://docs.slack.dev/reference/methods/assistant.threads.setStatus)
STATUS_SECONDS = 120.0


class Workspace:
    """One Slack workspace with its bot user. Not thread-safe: used from one event loop."""

    def __init__(self, *, team_id: str = "T0MANDA", domain: str = "manda-local") -> None:
        self.team_id = team_id
        self.domain = domain
        self.app_id = "A0MANDA"
        self.users: dict[str, User] = {}
        self.channels: dict[str, Channel] = {}
        self.messages: list[Message] = []
        self.files: dict[str, StoredFile] = {}
        self.calls: list[Call] = []
        self.statuses: dict[tuple[str, str], str] = {}  # (channel, thread_ts) -> status text
        self.status_times: dict[tuple[str, str], float] = {}  # when each was set (clock)
        self.status_history: list[tuple[str, str, str]] = []
        self.home_views: dict[str, dict[str, Any]] = {}  # user id -> published view
        self.modals: dict[str, dict[str, Any]] = {}  # user id -> the modal open for them
        self.modal_errors: dict[str, dict[str, str]] = {}  # user id -> {block_id: error}
        self.triggers: dict[str, str] = {}  # trigger_id of a click -> who clicked
        self.trigger_times: dict[str, float] = {}  # trigger_id -> when Slack issued it (clock)
        self.used_triggers: set[str] = set()
        # Slack's clock, for how old a trigger_id is: real time plus `latency` of every call made
        # so far, so a test can say "conversations.members takes 2 s" without waiting 2 s
        self.latency: dict[str, float] = {}
        self._simulated = 0.0
        self.downloads: list[tuple[str, bool]] = []  # (file id, authorised)
        self._ids = itertools.count(1)
        self._ts = itertools.count(1)
        self._epoch = int(time.time())
        self._changed = asyncio.Event()
        self.subscribers: list[Callable[[str, Any], None]] = []
        self.bot = self.add_user("manda", real_name="Manda", is_bot=True)
        self.bot.bot_id = "B0MANDA"

    # ------------------------------------------------------------ ids and notification

    def new_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids):07d}"

    def new_ts(self) -> str:
        n = next(self._ts)
        return f"{self._epoch + n // 1_000_000}.{n % 1_000_000:06d}"

    def changed(self, kind: str, subject: Any = None) -> None:
        """Wake whoever waits on the state, and tell subscribers (the playground) what changed."""
        self._changed.set()
        self._changed = asyncio.Event()
        for subscriber in list(self.subscribers):
            subscriber(kind, subject)

    async def wait_for(
        self, predicate: Callable[[], Any], *, timeout: float = 10.0, what: str = "condition"
    ) -> Any:
        """Wait until `predicate()` is truthy and return its value; TimeoutError names `what`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"fake Slack: still waiting for {what} after {timeout:g}s")
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), left)
            except TimeoutError:
                continue

    # ------------------------------------------------------------ people and places

    def add_user(self, name: str, *, real_name: str | None = None, is_bot: bool = False,
                 team_id: str | None = None) -> User:
        """A person of this workspace, or with `team_id` of another organisation's, as in a
        Slack Connect channel."""
        user = User(
            id=self.new_id("U"),
            name=name,
            real_name=real_name or name.title(),
            team_id=team_id or self.team_id,
            is_bot=is_bot,
            bot_id=self.new_id("B") if is_bot else None,
        )
        self.users[user.id] = user
        self.changed("user", user)
        return user

    def add_channel(
        self,
        name: str,
        *,
        members: Iterable[str] = (),
        private: bool = False,
        with_bot: bool = True,
        topic: str = "",
    ) -> Channel:
        ids = list(dict.fromkeys(members))
        if with_bot and self.bot.id not in ids:
            ids.append(self.bot.id)
        channel = Channel(
            id=self.new_id("G" if private else "C"),
            name=name,
            kind="private" if private else "public",
            members=ids,
            topic=topic,
        )
        self.channels[channel.id] = channel
        self.changed("channel", channel)
        return channel

    def open_im(self, user: str) -> Channel:
        """The direct-message channel between `user` and the bot (created on first use)."""
        for channel in self.channels.values():
            if channel.kind == "im" and user in channel.members:
                return channel
        channel = Channel(id=self.new_id("D"), name=user, kind="im", members=[user, self.bot.id])
        self.channels[channel.id] = channel
        self.changed("channel", channel)
        return channel

    def join(self, channel: str, user: str) -> None:
        if user not in self.channels[channel].members:
            self.channels[channel].members.append(user)
            self.changed("channel", self.channels[channel])

    # ------------------------------------------------------------ messages

    def add_message(self, message: Message) -> Message:
        self.messages.append(message)
        if message.thread_ts and message.user == self.bot.id:
            self.clear_status(message.channel, message.thread_ts)  # Slack clears it on reply
        self.changed("message", message)
        return message

    def find(self, channel: str, ts: str) -> Message | None:
        for message in self.messages:
            if message.channel == channel and message.ts == ts and message.ephemeral_to is None:
                return message
        return None

    def show_modal(
        self, user: str, view: dict[str, Any] | None, *, errors: dict[str, str] | None = None
    ) -> None:
        """Open (or keep open, with errors under its fields) or close the modal of `user`."""
        if view is None:
            self.modals.pop(user, None)
            self.modal_errors.pop(user, None)
        else:
            self.modals[user] = view
            self.modal_errors[user] = dict(errors or {})
        self.changed("modal", (user, view, dict(errors or {})))

    def find_visible(self, channel: str, ts: str, viewer: str | None) -> Message | None:
        """The message `viewer` sees at `ts`: a shared one, or an ephemeral one shown to them."""
        for message in self.messages:
            if message.channel == channel and message.ts == ts and self.visible(message, viewer):
                return message
        return None

    def update(
        self,
        message: Message,
        *,
        text: str | None,
        blocks: list[dict[str, Any]] | None,
        edit: bool = True,
    ) -> None:
        """Change a message, keeping what it was; `edit=False` for a stream growing or ending,
        which Slack does not mark "(edited)"."""
        message.versions.append({"text": message.text, "blocks": message.blocks})
        message.edited = message.edited or edit
        if text is not None:
            message.text = text
        if blocks is not None:
            message.blocks = blocks
        self.changed("message", message)

    def visible(self, message: Message, viewer: str | None) -> bool:
        return not message.deleted and (
            message.ephemeral_to is None or message.ephemeral_to == viewer
        )

    def history(self, channel: str, *, viewer: str | None = None) -> list[Message]:
        """Top-level messages of a channel, oldest first (thread replies left out)."""
        return [
            m
            for m in self.messages
            if m.channel == channel and not m.is_reply and self.visible(m, viewer)
        ]

    def replies(self, channel: str, thread_ts: str, *, viewer: str | None = None) -> list[Message]:
        """A thread: the parent, then its replies, oldest first."""
        return [
            m
            for m in self.messages
            if m.channel == channel
            and (m.ts == thread_ts or m.thread_ts == thread_ts)
            and self.visible(m, viewer)
        ]

    def bot_messages(
        self, channel: str | None = None, *, thread_ts: str | None = None, ephemeral: bool = False
    ) -> list[Message]:
        """What the bot posted (visible ones; ephemeral ones only when asked)."""
        return [
            m
            for m in self.messages
            if m.user == self.bot.id
            and not m.deleted
            and (channel is None or m.channel == channel)
            and (thread_ts is None or m.thread_ts == thread_ts or m.ts == thread_ts)
            and ((m.ephemeral_to is not None) == ephemeral)
        ]

    def ephemerals(self, user: str, channel: str | None = None) -> list[Message]:
        return [
            m
            for m in self.messages
            if m.ephemeral_to == user and (channel is None or m.channel == channel)
        ]

    # ------------------------------------------------------------ status, files, calls

    def set_status(self, channel: str, thread_ts: str, status: str) -> None:
        if status:
            self.statuses[(channel, thread_ts)] = status
            self.status_times[(channel, thread_ts)] = self.clock()
        else:
            self.statuses.pop((channel, thread_ts), None)
            self.status_times.pop((channel, thread_ts), None)
        self.status_history.append((channel, thread_ts, status))
        self.changed("status", (channel, thread_ts, status))

    def clear_status(self, channel: str, thread_ts: str) -> None:
        if (channel, thread_ts) in self.statuses:
            self.set_status(channel, thread_ts, "")

    def add_file(
        self,
        name: str,
        content: bytes,
        *,
        user: str,
        mimetype: str | None = None,
        file_id: str | None = None,
    ) -> StoredFile:
        suffix = name.rsplit(".", 1)[-1].lower() if "." in name else "binary"
        stored = StoredFile(
            id=file_id or self.new_id("F"),
            name=name,
            user=user,
            content=content,
            mimetype=mimetype or _MIMETYPES.get(suffix, "application/octet-stream"),
            filetype=suffix,
        )
        self.files[stored.id] = stored
        self.changed("file", stored)
        return stored

    def clock(self) -> float:
        """Slack's time: monotonic, plus every simulated `latency` spent so far."""
        return time.monotonic() + self._simulated

    def issue_trigger(self, trigger_id: str, user: str) -> None:
        """A click's (or command's) trigger_id, valid for `TRIGGER_SECONDS` from now."""
        self.triggers[trigger_id] = user
        self.trigger_times[trigger_id] = self.clock()

    def spend(self, method: str) -> None:
        """A call of `method` takes its simulated latency of Slack's clock."""
        self.advance(self.latency.get(method, 0.0))

    def advance(self, seconds: float) -> None:
        """Move Slack's clock on (a trigger ages, a status left alone expires)."""
        self._simulated += seconds
        now = self.clock()
        for key, at in list(self.status_times.items()):
            if now - at > STATUS_SECONDS and key in self.statuses:
                self.set_status(*key, "")  # "a two minute timeout applies" without a message

    def record(self, method: str, args: dict[str, Any], ok: bool, error: str | None = None) -> Call:
        call = Call(seq=len(self.calls) + 1, method=method, args=args, ok=ok, error=error)
        self.calls.append(call)
        self.changed("call", call)
        return call

    def calls_to(self, method: str, *, ok: bool | None = None) -> list[Call]:
        return [c for c in self.calls if c.method == method and (ok is None or c.ok == ok)]


_MIMETYPES = {
    "pdf": "application/pdf",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "csv": "text/csv",
    "txt": "text/plain",
    "md": "text/markdown",
    "png": "image/png",
}
