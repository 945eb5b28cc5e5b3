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
from manda.llm.calls import CallKind

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
    """One message of the tool loop: user text, assistant text and tool calls, or tool results.

    `content` is an assistant turn exactly as the model returned it (thinking blocks and their
    signatures included), sent back verbatim: a model that thinks refuses a tool loop whose
    earlier turns were rebuilt from their text. Only the model adapter reads it.
    """

    role: Literal["user", "assistant"]
    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_results: list[ToolResult] = field(default_factory=list)
    content: list[dict[str, Any]] | None = None


@dataclass
class TokenUsage:
    """Tokens of one or more calls. `input_tokens` excludes the cached prefix: the tokens read
    from the prompt cache and written to it are counted apart, as the API reports them."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def add(self, other: TokenUsage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cache_read_tokens += other.cache_read_tokens
        self.cache_write_tokens += other.cache_write_tokens

    @property
    def total(self) -> int:
        return (self.input_tokens + self.output_tokens + self.cache_read_tokens
                + self.cache_write_tokens)


# Why a turn ended (https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons).
END_TURN = "end_turn"
TOOL_USE = "tool_use"
MAX_TOKENS = "max_tokens"
REFUSAL = "refusal"
CONTEXT_WINDOW_EXCEEDED = "model_context_window_exceeded"
PAUSE_TURN = "pause_turn"


@dataclass
class ModelTurn:
    """What the model said in one turn; `content` is the turn verbatim (see `ChatMessage`)."""

    text: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: TokenUsage = field(default_factory=TokenUsage)
    stop_reason: str = END_TURN
    content: list[dict[str, Any]] | None = None
    raw_text: str | None = None  # the text as written, its edges kept (a cut reply continues it)

    @property
    def truncated(self) -> bool:
        """Cut off by the output limit: its text is unfinished, its tool calls may be too."""
        return self.stop_reason == MAX_TOKENS

    @property
    def written(self) -> str:
        """The turn's text exactly as written (`text` is stripped)."""
        return self.text if self.raw_text is None else self.raw_text

    def as_message(self) -> ChatMessage:
        """This turn as the assistant message of the next request, content kept verbatim."""
        return ChatMessage(role="assistant", text=self.text, tool_calls=list(self.tool_calls),
                           content=self.content)

    def as_cut_message(self) -> ChatMessage:
        """A turn cut off by `max_tokens`, as the assistant message a continuation follows: its
        blocks up to the first tool call (whose input may be cut mid-argument, and which would
        need a result), without a thinking block the cut left unsigned."""
        if self.content is None:
            return ChatMessage(role="assistant", text=self.written)
        kept: list[dict[str, Any]] = []
        for block in self.content:
            if block.get("type") not in ("text", "thinking", "redacted_thinking"):
                break
            if block.get("type") == "thinking" and not block.get("signature"):
                break
            kept.append(block)
        while kept and kept[-1].get("type") != "text":
            kept.pop()  # the reply continues its text, not a thought
        return ChatMessage(role="assistant", text=self.written, content=kept)


class ModelUnavailableError(BackendUnavailableError):
    """The model could not answer (overloaded, timed out, unreachable) after its retries."""

    def __init__(self, reason: str) -> None:
        super().__init__(
            f"The language model is unavailable: {reason}.",
            hint="Manda answers from the extracted findings meanwhile; try again in a minute.",
        )
        self.reason = reason


class ModelRequestError(MandaError):
    """The model rejected the request itself (bad request, key or billing): retrying will not
    help. `reason` is one line for the person who asked; `request_id` is the API's, for the log."""

    def __init__(self, message: str, *, hint: str = "", reason: str = "",
                 request_id: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.reason = reason or message.rstrip(".")
        self.request_id = request_id


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
        max_tokens: int | None = None,
        call: CallKind | None = None,
    ) -> ModelTurn:
        """One model turn. `on_text` receives text deltas as they stream, when given;
        `max_tokens` caps this turn's reply (the model's default when None); `call` says how
        hard the model thinks first, and its room to think is added to the cap."""
        ...
