"""Degraded modes the agent says out loud: an unreachable conversation memory is told once a thread.

When the memory (Redis) cannot be reached, the memory itself cannot remember that a thread was
told, so the record is kept in this process: a bounded set of conversation ids, oldest forgotten
first. Several workers behind a load balancer may each tell a thread once; never more.
"""

from __future__ import annotations

from collections import OrderedDict

MEMORY_NOTICE = (
    "I can't reach my conversation memory right now, so I'm answering this question on its own."
)
DEFAULT_CAPACITY = 10_000


class OncePerConversation:
    """Says whether a conversation hears a notice for the first time (and remembers that it did)."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self._capacity = capacity
        self._told: OrderedDict[str, None] = OrderedDict()

    def first_time(self, conversation_id: str) -> bool:
        if conversation_id in self._told:
            self._told.move_to_end(conversation_id)
            return False
        self._told[conversation_id] = None
        if len(self._told) > self._capacity:
            self._told.popitem(last=False)
        return True

    def __len__(self) -> int:
        return len(self._told)
