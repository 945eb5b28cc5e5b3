"""Claude behind the model port: Messages API with tool use, streaming and usage per turn.

The `anthropic.AsyncAnthropic` client is built at the composition root (key, base URL, timeout,
retries) and injected here; the SDK retries 429/5xx with backoff, honouring `Retry-After`. Each
call, retries included, runs inside the "Claude" circuit breaker when one is given: while it is
open, no request is sent. What still fails becomes `ModelUnavailableError` (the agent then answers
from the findings) or `ModelRequestError` (a request the API will never accept, e.g. a bad key).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import anthropic

from manda.llm.port import (
    ChatMessage,
    ModelRequestError,
    ModelTurn,
    ModelUnavailableError,
    TextSink,
    TokenUsage,
    ToolCall,
    ToolSpec,
)
from manda.resilience.breaker import CircuitBreaker, CircuitOpenError

ErrorSink = Callable[[BaseException], object]


def to_anthropic_messages(messages: Sequence[ChatMessage]) -> list[dict[str, Any]]:
    """Vendor-neutral messages as Messages API `messages` (text, tool_use, tool_result blocks)."""
    payload: list[dict[str, Any]] = []
    for message in messages:
        blocks: list[dict[str, Any]] = []
        for result in message.tool_results:
            blocks.append(
                {
                    "type": "tool_result",
                    "tool_use_id": result.call_id,
                    "content": result.content,
                    "is_error": result.is_error,
                }
            )
        if message.text:
            blocks.append({"type": "text", "text": message.text})
        for call in message.tool_calls:
            blocks.append(
                {"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}
            )
        payload.append({"role": message.role, "content": blocks})
    return payload


def to_anthropic_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {"name": t.name, "description": t.description, "input_schema": t.input_schema}
        for t in tools
    ]


class ClaudeChatModel:
    """`ChatModel` over an injected `AsyncAnthropic` client."""

    def __init__(
        self,
        *,
        client: anthropic.AsyncAnthropic,
        model: str = "claude-sonnet-4-6",
        max_tokens: int = 1500,
        breaker: CircuitBreaker | None = None,
        on_error: ErrorSink | None = None,
    ) -> None:
        """`breaker` guards every call; `on_error` sees each failed one (e.g. metrics)."""
        self._client = client
        self.model = model
        self.name = f"claude:{model}"
        self._max_tokens = max_tokens
        self._breaker = breaker
        self._on_error = on_error

    async def respond(
        self,
        system: str,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        *,
        on_text: TextSink | None = None,
    ) -> ModelTurn:
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self._max_tokens,
            "system": system,
            "messages": to_anthropic_messages(messages),
        }
        if tools:
            request["tools"] = to_anthropic_tools(tools)
        try:
            if self._breaker is None:
                message = await self._send(request, on_text)
            else:
                message = await self._breaker.call(self._send, request, on_text)
        except CircuitOpenError as exc:
            raise ModelUnavailableError(exc.message.rstrip(".")) from exc
        except anthropic.AnthropicError as exc:
            if self._on_error is not None:
                self._on_error(exc)
            raise _mapped(exc) from exc
        return _turn(message)

    async def _send(self, request: dict[str, Any], on_text: TextSink | None) -> Any:
        if on_text is None:
            return await self._client.messages.create(**request)
        return await self._stream(request, on_text)

    async def _stream(self, request: dict[str, Any], on_text: TextSink) -> Any:
        async with self._client.messages.stream(**request) as stream:
            async for event in stream:
                if getattr(event, "type", None) == "text" and event.text:
                    await on_text(event.text)
            return await stream.get_final_message()


def _mapped(exc: anthropic.AnthropicError) -> Exception:
    """The SDK's error as the model port's: unavailable (try later) or a refused request."""
    if isinstance(exc, anthropic.APIStatusError) and not (
        exc.status_code in (408, 409, 429) or exc.status_code >= 500
    ):
        return ModelRequestError(
            f"Claude rejected the request ({exc.status_code}): {_describe(exc)}.",
            hint="Check ANTHROPIC_API_KEY and MANDA_CLAUDE_MODEL (`manda doctor`).",
        )
    return ModelUnavailableError(_describe(exc))


def _turn(message: Any) -> ModelTurn:
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in message.content:
        if block.type == "text":
            texts.append(block.text)
        elif block.type == "tool_use":
            calls.append(ToolCall(id=block.id, name=block.name, arguments=dict(block.input or {})))
    usage = TokenUsage(
        input_tokens=int(getattr(message.usage, "input_tokens", 0) or 0),
        output_tokens=int(getattr(message.usage, "output_tokens", 0) or 0),
    )
    return ModelTurn(
        text="".join(texts).strip(),
        tool_calls=calls,
        usage=usage,
        stop_reason=str(message.stop_reason or "end_turn"),
    )


def _describe(exc: Exception) -> str:
    if isinstance(exc, anthropic.APITimeoutError):
        return "the request timed out"
    if isinstance(exc, anthropic.APIConnectionError):
        return "the API could not be reached"
    if isinstance(exc, anthropic.APIStatusError):
        if exc.status_code == 529:
            return "the API is overloaded (529)"
        if exc.status_code == 429:
            return "rate limited (429)"
        return f"HTTP {exc.status_code}"
    return type(exc).__name__
