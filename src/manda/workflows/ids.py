"""A workflow's id: `{mode}:{deal}:{user_or_channel}:{conversation}`.

The conversation part is whatever the front end keys a conversation by; a Slack thread keeps its
`slack:{team}:{channel}:{thread_ts}`, so the id holds colons after the third one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Mode = Literal["chat", "cim", "irl"]
MODES: tuple[Mode, ...] = ("chat", "cim", "irl")


@dataclass(frozen=True)
class WorkflowId:
    mode: Mode
    deal_id: str
    owner: str  # the user or channel that started it
    conversation: str

    def __str__(self) -> str:
        return f"{self.mode}:{self.deal_id}:{self.owner}:{self.conversation}"

    @classmethod
    def parse(cls, text: str) -> WorkflowId:
        """`ValueError`, said for a person, when `text` is not a workflow id."""
        parts = text.split(":", 3)
        if len(parts) != 4 or parts[0] not in MODES or not all(parts[1:]):
            raise ValueError(f"{text!r} is not a workflow id: expected "
                             "{mode}:{deal}:{user_or_channel}:{conversation}, mode one of "
                             + ", ".join(MODES))
        return cls(parts[0], parts[1], parts[2], parts[3])  # type: ignore[arg-type]
