"""Short-term conversation memory: the last messages and the resolved context of a conversation."""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from manda.models import utcnow

MAX_MESSAGES = 10


class Message(BaseModel):
    role: Literal["user", "assistant"]
    text: str
    at: str = Field(default_factory=lambda: utcnow().isoformat())


class ResolvedContext(BaseModel):
    """What a follow-up may inherit: the subject, period and entity last talked about, and the
    constraints in force ("only audited documents", "in a table") until changed or cleared."""

    subject: str | None = None
    period: str | None = None
    entity: str | None = None
    intent: str | None = None
    constraints: list[dict[str, Any]] = Field(default_factory=list)


class Conversation(BaseModel):
    id: str
    deal_id: str | None = None
    messages: list[Message] = Field(default_factory=list)
    context: ResolvedContext = Field(default_factory=ResolvedContext)

    def remember(self, message: Message) -> None:
        self.messages.append(message)
        del self.messages[:-MAX_MESSAGES]


@runtime_checkable
class ConversationMemory(Protocol):
    """Redis (`REDIS_URL`) or embedded SQLite under `MANDA_HOME`."""

    name: str
    shared_across_processes: bool

    async def start(self) -> None: ...
    async def aclose(self) -> None: ...
    async def ping(self) -> None: ...
    async def load(self, conversation_id: str) -> Conversation | None: ...
    async def save(self, conversation: Conversation) -> None: ...
    async def seen_event(self, event_id: str, ttl_seconds: int = 900) -> bool:
        """Record an event id; True when it had been seen already (Slack retry de-duplication)."""
        ...
