"""Where a Slack message lives (team, channel, thread), in the keys the domain knows it by.

The conversation id `slack:{team}:{channel}:{thread_ts}` keys the agent's short-term memory; the
channel key `slack:{team}:{channel}` keys the channel's link to a deal (`manda.deals`), and
`slack:{team}` is the workspace whose channels the deal rules compare.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEAL_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")


def channel_key(team: str, channel: str) -> str:
    return f"slack:{team}:{channel}"


def workspace_key(team: str) -> str:
    return f"slack:{team}"


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
    user_team: str | None = None  # the asker's own team: another one in a Slack Connect channel

    @property
    def recipient_team(self) -> str:
        """The team of the person an answer is streamed to (`chat.startStream` wants theirs,
        not the installing workspace's)."""
        return self.user_team or self.team

    @property
    def conversation_id(self) -> str:
        return conversation_id(self.team, self.channel, self.thread_ts)

    @property
    def channel_key(self) -> str:
        return channel_key(self.team, self.channel)

    @property
    def is_dm(self) -> bool:
        return self.channel_type == "im" or self.channel.startswith("D")
