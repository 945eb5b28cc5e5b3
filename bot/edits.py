"""Edits of one message made one at a time, from its latest blocks, so quick clicks never undo
each other (Slack sends each click the message as it was when it was clicked)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

Key = tuple[str, str]


class MessageEdits:
    """Per-message locks plus the blocks last written to each recently edited message."""

    def __init__(self, remember: int = 512) -> None:
        self._locks: dict[Key, asyncio.Lock] = {}
        self._users: dict[Key, int] = {}
        self._latest: OrderedDict[Key, list[dict[str, Any]]] = OrderedDict()
        self._remember = remember

    @asynccontextmanager
    async def editing(
        self, channel: str, ts: str, clicked_blocks: list[dict[str, Any]]
    ) -> AsyncIterator[list[dict[str, Any]]]:
        """Hold the message; yields its current blocks (ours if we edited it last)."""
        key = (channel, ts)
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                yield list(self._latest.get(key, clicked_blocks))
        finally:
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key]
                del self._locks[key]

    def seen(self, channel: str, ts: str, blocks: list[dict[str, Any]]) -> None:
        """Keep a clicked message's blocks (unless newer ones are known), so an edit after its
        modal is submitted starts from them."""
        if (channel, ts) not in self._latest:
            self.written(channel, ts, blocks)

    def known(self, channel: str, ts: str) -> list[dict[str, Any]] | None:
        """The blocks last written to or seen on a message, if this process remembers them."""
        blocks = self._latest.get((channel, ts))
        return None if blocks is None else list(blocks)

    def written(self, channel: str, ts: str, blocks: list[dict[str, Any]]) -> None:
        key = (channel, ts)
        self._latest[key] = blocks
        self._latest.move_to_end(key)
        while len(self._latest) > self._remember:
            self._latest.popitem(last=False)
