"""Where a Slack message lives (team, channel, thread) and which deal that channel is bound to.

The conversation id `slack:{team}:{channel}:{thread_ts}` keys the agent's short-term memory; the
channel key `slack:{team}:{channel}` keys the channel → deal binding kept by the knowledge graph.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from manda.errors import BackendUnavailableError
from manda.kg.port import KnowledgeGraph
from manda.memory.port import Conversation, ConversationMemory
from manda.models import Deal

log = logging.getLogger(__name__)

DEAL_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")


def channel_key(team: str, channel: str) -> str:
    return f"slack:{team}:{channel}"


def conversation_id(team: str, channel: str, thread_ts: str) -> str:
    return f"slack:{team}:{channel}:{thread_ts}"


def parse_channel_key(key: str) -> tuple[str, str] | None:
    """(team, channel) of a Slack channel key; None for keys of other front ends."""
    parts = key.split(":")
    if len(parts) != 3 or parts[0] != "slack":
        return None
    return parts[1], parts[2]


@dataclass(frozen=True)
class Thread:
    """One Slack thread: where to reply, who asked, and the message that asked (if any)."""

    team: str
    channel: str
    thread_ts: str
    user: str
    message_ts: str | None = None
    channel_type: str = "channel"  # channel, group, im, mpim

    @property
    def conversation_id(self) -> str:
        return conversation_id(self.team, self.channel, self.thread_ts)

    @property
    def channel_key(self) -> str:
        return channel_key(self.team, self.channel)

    @property
    def is_dm(self) -> bool:
        return self.channel_type == "im" or self.channel.startswith("D")


async def deal_for(graph: KnowledgeGraph, team: str, channel: str) -> str | None:
    return await graph.channel_deal(channel_key(team, channel))


async def bind(
    graph: KnowledgeGraph, team: str, channel: str, deal_id: str
) -> tuple[str | None, bool]:
    """Bind the channel to `deal_id`, creating an empty deal when needed.

    Returns the deal the channel was bound to before (if any) and whether the deal is new.
    """
    previous = await deal_for(graph, team, channel)
    created = False
    if await graph.get_deal(deal_id) is None:
        await graph.upsert_deal(Deal(id=deal_id, name=deal_id))
        created = True
    await graph.bind_channel(channel_key(team, channel), deal_id)
    return previous, created


async def channels_of(graph: KnowledgeGraph, deal_id: str, team: str | None = None) -> list[str]:
    """Slack channel ids bound to `deal_id` (in `team` when given)."""
    channels = []
    for key, deal in (await graph.list_bindings()).items():
        parsed = parse_channel_key(key)
        if parsed and deal == deal_id and (team is None or parsed[0] == team):
            channels.append(parsed[1])
    return sorted(channels)


async def manda_answered(memory: ConversationMemory, thread: Thread) -> bool:
    """True when Manda answered in this thread before, so replies continue without a mention."""
    return await memory.load(thread.conversation_id) is not None


async def remember_thread(memory: ConversationMemory, thread: Thread, deal_id: str) -> None:
    """Make sure the thread is known as a Manda conversation (the agent normally saves it).

    With the memory unreachable the answer already given stands (the agent said it answered
    without memory); only replies without a mention will not be recognised in this thread.
    """
    try:
        if await memory.load(thread.conversation_id) is None:
            await memory.save(Conversation(id=thread.conversation_id, deal_id=deal_id))
    except BackendUnavailableError as exc:
        log.warning("thread %s not remembered: %s", thread.conversation_id, exc)
