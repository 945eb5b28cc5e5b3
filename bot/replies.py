"""Writing into a Slack thread while Manda works: the "working" sign, streaming, final render.

The working sign is `assistant.threads.setStatus` where the workspace has it, else a reaction on
the question, else a placeholder the answer replaces. Slack removes a status after two minutes
without a message (https://docs.slack.dev/reference/methods/assistant.threads.setStatus), so a
long answer sets it again every `STATUS_REFRESH_SECONDS` until its first words reach the thread.
Text streams with `chat.startStream` /
`appendStream` as the answer's first screen, laid out as it will stay (footnotes, no more than one
screen), and `chat.stopStream` finishes it with the blocks that go under it (footnotes, Show more,
buttons): the message is never rewritten, so it neither reflows nor shows "(edited)".
Only where streaming is unavailable (or the checked answer differs from what was streamed) is the
answer posted or put in place whole.
https://docs.slack.dev/reference/methods/chat.stopStream
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Literal

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.answer import RenderedAnswer
from bot.blocks.kit import SlackMessage, context
from bot.blocks.layout import settled_screen
from bot.conversations import Thread

log = logging.getLogger(__name__)

STATUS_TEXT = "is reading the deal's documents…"
LOADING = ["Searching the data room…", "Checking sources…", "Writing the answer…"]
PLACEHOLDER = "⏳ Reading the deal's documents…"
WORKING_REACTION = "eyes"
STREAM_FLUSH = 240  # characters buffered before each chat.appendStream
STATUS_REFRESH_SECONDS = 90.0  # well inside Slack's two minutes


class Working:
    """Shows that Manda is on it, the best way the workspace allows, and takes the sign down."""

    def __init__(self, client: AsyncWebClient, thread: Thread, *,
                 refresh_seconds: float = STATUS_REFRESH_SECONDS) -> None:
        self._client = client
        self._thread = thread
        self._refresh_seconds = refresh_seconds
        self._refresher: asyncio.Task[None] | None = None
        self.mode: Literal["status", "reaction", "placeholder", "none"] = "none"
        self.placeholder_ts: str | None = None

    async def _set_status(self) -> None:
        t = self._thread
        await self._client.assistant_threads_setStatus(
            channel_id=t.channel,
            thread_ts=t.thread_ts,
            status=STATUS_TEXT,
            loading_messages=LOADING,
        )

    async def start(self) -> None:
        t = self._thread
        try:
            await self._set_status()
            self.mode = "status"
            self._refresher = asyncio.create_task(self._keep_status(),
                                                  name=f"status {t.conversation_id}")
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

    async def _keep_status(self) -> None:
        """Set the status again before Slack drops it, until the answer speaks or is done."""
        while True:
            await asyncio.sleep(self._refresh_seconds)
            try:
                await self._set_status()
            except SlackApiError as exc:
                log.debug("status not refreshed (%s)", exc.response.get("error"))
                return

    def hush(self) -> None:
        """The answer's first message is in the thread (Slack clears the status on a reply):
        no more refreshing."""
        if self._refresher is not None:
            self._refresher.cancel()
            self._refresher = None

    async def stop(self) -> None:
        self.hush()
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
    """Writes the answer into the thread: its first screen streamed as it is written, then
    finished with the blocks that go under it."""

    def __init__(
        self,
        client: AsyncWebClient,
        thread: Thread,
        *,
        placeholder_ts: str | None = None,
        stream: bool = True,
        on_first_message: Callable[[], None] | None = None,
    ) -> None:
        """`on_first_message` is told when the answer's first message reaches the thread."""
        self._client = client
        self._thread = thread
        self._on_first_message = on_first_message
        self._placeholder_ts = placeholder_ts
        self._stream = stream and placeholder_ts is None
        self._stream_ts: str | None = None
        self._raw = ""  # the agent's text so far, as written
        self._sent = ""  # the laid-out first screen streamed so far
        self.posted: list[str] = []

    async def on_text(self, delta: str) -> None:
        """The agent's text as it is written (the `on_text` callback)."""
        if not self._stream or not delta:
            return
        self._raw += delta
        if "\n" not in delta:
            return
        settled = settled_screen(self._raw[: self._raw.rfind("\n") + 1])
        if not settled.startswith(self._sent):  # the layout changed its mind: stream no more
            return
        more = settled[len(self._sent) :]
        if not more.strip() or (self._stream_ts is not None and len(more) < STREAM_FLUSH):
            return
        if self._stream_ts is None:
            await self._start_stream(more)
        else:
            await self._append(more)

    async def _start_stream(self, text: str) -> bool:
        t = self._thread
        try:
            started = await self._client.chat_startStream(
                channel=t.channel,
                thread_ts=t.thread_ts,
                markdown_text=text,
                recipient_user_id=None if t.is_dm else t.user,
                recipient_team_id=None if t.is_dm else t.recipient_team,
            )
        except SlackApiError as exc:
            log.info(
                "streaming unavailable in %s (%s); the answer will be posted whole",
                t.channel, exc.response.get("error"),
            )
            self._stream = False
            return False
        self._stream_ts = started["ts"]
        self._sent = text
        self._spoke()
        return True

    def _spoke(self) -> None:
        if self._on_first_message is not None:
            self._on_first_message()
            self._on_first_message = None

    async def _append(self, text: str) -> None:
        if self._stream_ts is None:
            return
        try:
            await self._client.chat_appendStream(
                channel=self._thread.channel, ts=self._stream_ts, markdown_text=text
            )
        except SlackApiError as exc:
            log.warning(
                "appendStream failed (%s); the rest of the first screen comes with stopStream",
                exc.response.get("error"),
            )
            return
        self._sent += text

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
        self._spoke()
        self.posted.append(reply["ts"])

    async def finish(self, answer: RenderedAnswer) -> None:
        """End the streamed message with the blocks under the answer (`chat.stopStream`), or, where
        nothing can stream, put the whole answer in place of the placeholder or post it."""
        shown = answer.layout.shown
        if self._stream and self._stream_ts is None and shown.strip():
            await self._start_stream(shown)  # nothing streamed yet (a short or offline answer)
        if self._stream_ts is not None:
            if shown.startswith(self._sent) and await self._stop_with(answer, shown):
                return
            log.warning(
                "the checked answer in %s differs from the text streamed; replacing the streamed "
                "message with it (Slack shows it as edited)", self._thread.conversation_id,
            )
        target = await self._stop_stream() or self._placeholder_ts
        if target is None or not await self._replace(target, answer.message()):
            await self._post(answer.message())

    async def _stop_with(self, answer: RenderedAnswer, shown: str) -> bool:
        ts = self._stream_ts
        assert ts is not None
        rest = shown[len(self._sent) :]
        try:
            await self._client.chat_stopStream(
                channel=self._thread.channel, ts=ts, markdown_text=rest or None,
                blocks=answer.tail,
            )
        except SlackApiError as exc:
            log.warning("stopStream with the answer's blocks failed (%s)",
                        exc.response.get("error"))
            return False
        self._stream_ts = None
        self._stream = False
        self.posted.append(ts)
        return True

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
