"""A message that follows long work (an upload being ingested), edited within Slack's limits.

The work says where it stands as often as it likes; Slack sees at most one `chat.update` per
message a second (`chat.update` is Tier 3: https://docs.slack.dev/reference/methods/chat.update),
intermediate states are skipped, and the last state is always written. The interval is this
process's: only the worker doing the work edits its message. The method's budget, which every
worker spends, is kept by the client's limiter (`bot.ratelimit`, in Redis with REDIS_URL).
The writes happen in a task of their own, so a rate limit (and the `Retry-After` wait it asks
for) never holds up the work the message reports on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.background import BackgroundJobs
from bot.blocks.kit import SlackMessage
from bot.conversations import Thread

log = logging.getLogger(__name__)

MIN_INTERVAL = 1.0  # seconds between two writes of one message


class ProgressMessage:
    """One message in the thread, posted on the first `show` and edited as the work goes."""

    def __init__(
        self,
        client: AsyncWebClient,
        thread: Thread,
        *,
        jobs: BackgroundJobs | None = None,
        min_interval: float = MIN_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        """`jobs` tracks the writer task (so shutdown and tests wait for the last write)."""
        self._client = client
        self._thread = thread
        self._jobs = jobs
        self._min_interval = min_interval
        self._clock = clock
        self._sleep = sleep
        self.ts: str | None = None
        self._wanted: SlackMessage | None = None
        self._written: SlackMessage | None = None
        self._last_write = float("-inf")
        self._writer: asyncio.Task[None] | None = None
        self.writes = 0

    async def show(self, message: SlackMessage) -> None:
        """Ask for `message` to be shown; returns at once, the write follows within a second."""
        if self._wanted is not None and message.text == self._wanted.text:
            return
        self._wanted = message
        if self._writer is None or self._writer.done():
            work = self._write_latest()
            name = f"progress {self._thread.channel} {self._thread.thread_ts}"
            if self._jobs is not None:
                self._writer = self._jobs.spawn(work, name=name)
            else:
                self._writer = asyncio.get_running_loop().create_task(work, name=name)

    async def flush(self) -> None:
        """Wait until the latest state asked for is written (or its write failed)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    async def _write_latest(self) -> None:
        while self._wanted is not None and self._wanted is not self._written:
            wait = self._last_write + self._min_interval - self._clock()
            if wait > 0:
                await self._sleep(wait)
            message = self._wanted
            try:
                await self._write(message)
            except SlackApiError as exc:
                log.warning("progress message not updated (%s)", exc.response.get("error"))
            self._written = message
            self._last_write = self._clock()

    async def _write(self, message: SlackMessage) -> None:
        self.writes += 1
        if self.ts is None:
            reply = await self._client.chat_postMessage(
                channel=self._thread.channel,
                thread_ts=self._thread.thread_ts or None,  # "": a message of its own
                text=message.text,
                blocks=message.blocks,
            )
            self.ts = reply["ts"]
            return
        await self._client.chat_update(
            channel=self._thread.channel, ts=self.ts, text=message.text, blocks=message.blocks
        )
