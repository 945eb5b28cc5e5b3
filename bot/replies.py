"""Writing into a Slack thread while Manda works: the "working" sign, streaming, final render.

The working sign is `assistant.threads.setStatus` where the workspace has it, else a reaction on
the question, else a placeholder the answer replaces. Text streams with `chat.startStream` /
`appendStream` / `stopStream` where available; the finished message is always re-rendered from the
validated answer, so what stays in the channel is the checked, cited version.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Literal

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.kit import SlackMessage, context
from bot.blocks.mrkdwn import stream_ready
from bot.conversations import Thread

log = logging.getLogger(__name__)

STATUS_TEXT = "is reading the deal's documents…"
LOADING = ["Searching the data room…", "Checking sources…", "Writing the answer…"]
PLACEHOLDER = "⏳ Reading the deal's documents…"
WORKING_REACTION = "eyes"
STREAM_FLUSH = 240  # characters buffered before each chat.appendStream


class Working:
    """Shows that Manda is on it, the best way the workspace allows, and takes the sign down."""

    def __init__(
        self, client: AsyncWebClient, thread: Thread, *, placeholder_ts: str | None = None
    ) -> None:
        self._client = client
        self._thread = thread
        self.mode: Literal["status", "reaction", "placeholder", "none"] = "none"
        self.placeholder_ts = placeholder_ts
        if placeholder_ts:
            self.mode = "placeholder"

    async def start(self) -> None:
        if self.mode == "placeholder":
            return
        t = self._thread
        try:
            await self._client.assistant_threads_setStatus(
                channel_id=t.channel,
                thread_ts=t.thread_ts,
                status=STATUS_TEXT,
                loading_messages=LOADING,
            )
            self.mode = "status"
            return
        except SlackApiError as exc:
            log.debug("setStatus unavailable (%s); falling back", exc.response.get("error"))
        if t.message_ts:
            try:
                await self._client.reactions_add(
                    channel=t.channel, timestamp=t.message_ts, name=WORKING_REACTION
                )
                self.mode = "reaction"
                return
            except SlackApiError as exc:
                log.debug(
                    "reaction unavailable (%s); posting a placeholder", exc.response.get("error")
                )
        reply = await self._client.chat_postMessage(
            channel=t.channel,
            thread_ts=t.thread_ts,
            text=PLACEHOLDER,
            blocks=[context([PLACEHOLDER])],
        )
        self.placeholder_ts = reply["ts"]
        self.mode = "placeholder"

    async def stop(self) -> None:
        t = self._thread
        with contextlib.suppress(SlackApiError):
            if self.mode == "status":
                await self._client.assistant_threads_setStatus(
                    channel_id=t.channel, thread_ts=t.thread_ts, status=""
                )
            elif self.mode == "reaction" and t.message_ts:
                await self._client.reactions_remove(
                    channel=t.channel, timestamp=t.message_ts, name=WORKING_REACTION
                )


class ThreadWriter:
    """Writes the answer into the thread: streamed while it is written, then the final render."""

    def __init__(
        self,
        client: AsyncWebClient,
        thread: Thread,
        *,
        placeholder_ts: str | None = None,
        stream: bool = True,
    ) -> None:
        self._client = client
        self._thread = thread
        self._placeholder_ts = placeholder_ts
        self._stream = stream and placeholder_ts is None
        self._stream_ts: str | None = None
        self._buffer = ""  # agent text not yet streamed, raw (made safe when sent)
        self.posted: list[str] = []

    async def on_text(self, delta: str) -> None:
        """The agent's text as it is written (the `on_text` callback)."""
        if not self._stream or not delta:
            return
        self._buffer += delta
        if self._stream_ts is None:
            await self._start_stream()
        elif len(self._buffer) >= STREAM_FLUSH:
            await self._append()

    async def _start_stream(self) -> None:
        t = self._thread
        ready, held = stream_ready(self._buffer)
        if not ready.strip():
            return
        try:
            started = await self._client.chat_startStream(
                channel=t.channel,
                thread_ts=t.thread_ts,
                markdown_text=ready,
                recipient_user_id=None if t.is_dm else t.user,
                recipient_team_id=None if t.is_dm else t.team,
            )
        except SlackApiError as exc:
            log.debug(
                "streaming unavailable (%s); the answer will be posted whole",
                exc.response.get("error"),
            )
            self._stream = False
            return
        self._stream_ts = started["ts"]
        self._buffer = held

    async def _append(self) -> None:
        if self._stream_ts is None or not self._buffer:
            return
        text, self._buffer = stream_ready(self._buffer)
        if not text:
            return
        try:
            await self._client.chat_appendStream(
                channel=self._thread.channel, ts=self._stream_ts, markdown_text=text
            )
        except SlackApiError as exc:
            log.warning(
                "appendStream failed (%s); the final answer replaces the stream",
                exc.response.get("error"),
            )
            self._stream = False

    async def _stop_stream(self) -> str | None:
        ts, self._stream_ts = self._stream_ts, None
        if ts is None:
            return None
        self._stream = False
        with contextlib.suppress(SlackApiError):
            await self._client.chat_stopStream(channel=self._thread.channel, ts=ts)
        return ts

    async def _replace(self, ts: str, message: SlackMessage) -> bool:
        try:
            await self._client.chat_update(
                channel=self._thread.channel, ts=ts, text=message.text, blocks=message.blocks
            )
        except SlackApiError as exc:
            log.warning(
                "could not update message %s (%s); posting instead", ts, exc.response.get("error")
            )
            return False
        self.posted.append(ts)
        return True

    async def _post(self, message: SlackMessage) -> None:
        reply = await self._client.chat_postMessage(
            channel=self._thread.channel,
            thread_ts=self._thread.thread_ts,
            text=message.text,
            blocks=message.blocks,
        )
        self.posted.append(reply["ts"])

    async def finish(self, messages: list[SlackMessage]) -> None:
        """Put the rendered answer in place of the stream or placeholder, the rest after it."""
        first, rest = messages[0], messages[1:]
        target = await self._stop_stream() or self._placeholder_ts
        if target is None or not await self._replace(target, first):
            await self._post(first)
        for message in rest:
            await self._post(message)

    async def fail(self, message: SlackMessage) -> None:
        """Say what went wrong where the answer would have been; never leave silence."""
        target = await self._stop_stream() or self._placeholder_ts
        if target is not None and await self._replace(target, message):
            return
        try:
            await self._post(message)
        except SlackApiError:
            log.exception(
                "could not tell %s in %s that answering failed",
                self._thread.user,
                self._thread.channel,
            )
