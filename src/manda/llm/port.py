"""The model port for the agent's tool loop: one turn in, text and tool calls out.

Claude implements it (`manda.llm.claude`); tests use local fakes of the Messages API. The offline
path does not need a model at all: it composes from the extracted findings (`manda.agent.planner`).
Messages are kept vendor-neutral so the agent never builds Anthropic payloads itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from manda.errors import BackendUnavailableError, MandaError

TextSink = Callable[[str], Awaitable[None]]


@dataclass(frozen=True)
class ToolSpec:
    """A tool the model may call: name, what it does, and a JSON schema of its input."""

    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ToolResult:
    call_id: str
    content: str
    is_error: bool = False


@dataclass
class ChatMessage:
    """One message of the tool loop: user text, assistant text and tool calls, or tool results."""

    role: Literal["user", "assistant"]
    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_results: list[ToolResult] = field(default_factory=list)


@dataclass
class TokenUsage:
    input_tokens: int = 0
    output_tokens: int = 0

    def add(self, other: TokenUsage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass
class ModelTurn:
    """What the model said in one turn."""

    text: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: TokenUsage = field(default_factory=TokenUsage)
    stop_reason: str = "end_turn"


class ModelUnavailableError(BackendUnavailableError):
    """The model could not answer (overloaded, timed out, unreachable) after its retries."""

    def __init__(self, reason: str) -> None:
        super().__init__(
            f"The language model is unavailable: {reason}.",
            hint="Manda answers from the extracted findings meanwhile; try again in a minute.",
        )
        self.reason = reason


class ModelRequestError(MandaError):
    """The model rejected the request itself (bad key, bad request): retrying will not help."""


@runtime_checkable
class ChatModel(Protocol):
    """A model that chooses tools and writes answers, one turn at a time."""

    name: str

    async def respond(
        self,
        system: str,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        *,
        on_text: TextSink | None = None,
    ) -> ModelTurn:
        """One model turn. `on_text` receives text deltas as they stream, when given."""
        ...
