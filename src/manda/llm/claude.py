"""Claude behind the model port: Messages API with tool use, streaming, caching and usage per turn.

The `anthropic.AsyncAnthropic` client is built at the composition root (key, base URL, timeout,
retries) and injected here; the SDK retries 429/5xx with backoff, honouring `Retry-After`, but
only before a stream begins. An `overloaded_error` (or `api_error`) event inside a stream, which
arrives with the stream's HTTP 200 (https://platform.claude.com/docs/en/build-with-claude/
streaming#error-events), is retried here once after a backoff; text the failed attempt already
streamed is not sent to the caller twice. Each call, retries included, runs inside the "Claude"
circuit breaker when one is given: while it is open, no request is sent. What still fails is
judged by its error *type* (`resilience.errors`): an outage becomes `ModelUnavailableError`, a
request the API will never accept (400 `invalid_request_error`, 401, 402 `billing_error`)
`ModelRequestError` with one line of why and the API's request id; the agent answers from the
findings either way. Each call says how hard Claude thinks first (`manda.llm.calls`).

The stable prefix of every request is marked for prompt caching: tools and system prompt, and the
last block of the conversation so far, so each turn of one question's tool loop reads what the
turn before wrote (https://platform.claude.com/docs/en/build-with-claude/prompt-caching).
Assistant turns go back verbatim, thinking blocks and signatures included.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import random
from collections.abc import Callable, Sequence
from typing import Any

import anthropic

from manda.config import DEFAULT_CLAUDE_MODEL
from manda.llm.calls import CallKind
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
from manda.resilience.errors import ErrorClass, classify

ErrorSink = Callable[[BaseException], object]

log = logging.getLogger(__name__)

DEFAULT_MODEL = DEFAULT_CLAUDE_MODEL
EPHEMERAL = {"type": "ephemeral"}
STREAM_RETRY_SECONDS = 2.0  # before the one retry of a stream that failed mid-way (+ jitter)
_RETRIED_IN_STREAM = frozenset({"overloaded_error", "api_error"})


def to_anthropic_messages(messages: Sequence[ChatMessage]) -> list[dict[str, Any]]:
    """Vendor-neutral messages as Messages API `messages` (text, tool_use, tool_result blocks).

    An assistant message that carries the model's own `content` is sent back as it came.
    """
    payload: list[dict[str, Any]] = []
    for message in messages:
        if message.content is not None:
            payload.append({"role": message.role, "content": copy.deepcopy(message.content)})
            continue
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


def cached_request(
    system: str, tools: list[dict[str, Any]], messages: list[dict[str, Any]]
) -> dict[str, Any]:
    """`system`, `tools` and `messages` with cache breakpoints on the stable prefix.

    One breakpoint after the system prompt (which caches tools and system, in the API's prefix
    order), one on the last block of the last message (the retrieved context and every earlier
    turn): two of the four the API allows.
    """
    request: dict[str, Any] = {
        "system": [{"type": "text", "text": system, "cache_control": EPHEMERAL}],
        "messages": messages,
    }
    if tools:
        request["tools"] = tools
    if messages and messages[-1]["content"]:
        last = messages[-1]["content"][-1]
        if last.get("type") not in ("thinking", "redacted_thinking"):
            last["cache_control"] = EPHEMERAL
    return request


class ClaudeChatModel:
    """`ChatModel` over an injected `AsyncAnthropic` client."""

    def __init__(
        self,
        *,
        client: anthropic.AsyncAnthropic,
        model: str = DEFAULT_MODEL,
        max_tokens: int = 4096,
        breaker: CircuitBreaker | None = None,
        on_error: ErrorSink | None = None,
        stream_retry_seconds: float = STREAM_RETRY_SECONDS,
    ) -> None:
        """`max_tokens` is the default cap of a turn; `breaker` guards every call; `on_error`
        sees each failed one (e.g. metrics); `stream_retry_seconds` is the backoff before the
        one retry of a stream that failed mid-way."""
        self._client = client
        self.model = model
        self.name = f"claude:{model}"
        self._max_tokens = max_tokens
        self._breaker = breaker
        self._on_error = on_error
        self._stream_retry_seconds = stream_retry_seconds

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
        limit = max_tokens or self._max_tokens
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": call.max_tokens(limit) if call is not None else limit,
            **(call.request_fields(self.model) if call is not None else {}),
            **cached_request(system, to_anthropic_tools(tools), to_anthropic_messages(messages)),
        }
        sink = _OnceOnly(on_text) if on_text is not None else None
        for attempt in (1, 2):
            try:
                message = await self._attempt(request, sink)
                break
            except CircuitOpenError as exc:
                raise ModelUnavailableError(exc.message.rstrip(".")) from exc
            except anthropic.AnthropicError as exc:
                if self._on_error is not None:
                    self._on_error(exc)
                if attempt == 1 and failed_mid_stream(exc):
                    wait = self._stream_retry_seconds * (1 + random.random() / 2)
                    log.warning("Claude failed mid-stream (%s, request %s); retrying once in "
                                "%.1f s", _describe(exc), request_id_of(exc) or "?", wait)
                    await asyncio.sleep(wait)
                    if sink is not None:
                        sink.again()
                    continue
                raise _mapped(exc) from exc
        return _turn(message)

    async def _attempt(self, request: dict[str, Any], sink: TextSink | None) -> Any:
        if self._breaker is None:
            return await self._send(request, sink)
        return await self._breaker.call(self._send, request, sink)

    async def _send(self, request: dict[str, Any], on_text: TextSink | None) -> Any:
        return await stream_message(self._client, request, on_text)


class _OnceOnly:
    """A text sink that passes on each piece of text once across attempts: a retried stream
    writes its reply from the start again, and what the failed attempt already passed on is
    held back (if the new reply starts differently, nothing more is passed on: the caller's
    final text replaces what was streamed)."""

    def __init__(self, sink: TextSink) -> None:
        self._sink = sink
        self._sent = ""
        self._now = ""
        self._diverged = False

    def again(self) -> None:
        self._now = ""

    async def __call__(self, delta: str) -> None:
        self._now += delta
        if self._diverged:
            return
        if len(self._now) <= len(self._sent):
            self._diverged = not self._sent.startswith(self._now)
            return
        if not self._now.startswith(self._sent):
            self._diverged = True
            return
        fresh = self._now[len(self._sent):]
        self._sent = self._now
        await self._sink(fresh)


def failed_mid_stream(exc: BaseException) -> bool:
    """An error event inside a stream that began with HTTP 200, of a type worth one retry."""
    if not isinstance(exc, anthropic.APIStatusError) or exc.status_code != 200:
        return False
    body = exc.body if isinstance(exc.body, dict) else {}
    error = body.get("error") if isinstance(body.get("error"), dict) else {}
    return str(error.get("type") or "") in _RETRIED_IN_STREAM


def request_id_of(exc: BaseException) -> str | None:
    """The API's request id of a failed call (its header, or the error body's)."""
    found = getattr(exc, "request_id", None)
    if found:
        return str(found)
    body = getattr(exc, "body", None)
    if isinstance(body, dict) and body.get("request_id"):
        return str(body["request_id"])
    return None


async def stream_message(
    client: anthropic.AsyncAnthropic, request: dict[str, Any], on_text: TextSink | None = None
) -> Any:
    """The final message of a streamed request, text deltas to `on_text` as they come.

    Always streamed: the client's timeout then bounds the wait between two events, never the
    whole answer, so a long answer (or a dense extraction batch) cannot time out while it is
    being written, as a non-streamed request of that size would.
    """
    async with client.messages.stream(**request) as stream:
        async for event in stream:
            if on_text is not None and getattr(event, "type", None) == "text" and event.text:
                await on_text(event.text)
        return await stream.get_final_message()


def _mapped(exc: anthropic.AnthropicError) -> Exception:
    """The SDK's error as the model port's, by its class: a request the API will never accept
    (validation, authentication) or an outage worth waiting out (everything transient)."""
    kind = classify(exc)
    if kind in (ErrorClass.VALIDATION_ERROR, ErrorClass.AUTHENTICATION_ERROR):
        status = getattr(exc, "status_code", None)
        where = f" ({status})" if status else ""
        request_id = request_id_of(exc)
        log.warning("Claude rejected the request%s: %s (request id %s)", where, _describe(exc),
                    request_id or "unknown")
        return ModelRequestError(
            f"Claude rejected the request{where}: {_describe(exc)}.",
            hint="Check ANTHROPIC_API_KEY, MANDA_CLAUDE_MODEL and the account's billing "
                 "(`manda doctor`).",
            reason=f"Claude rejected the request ({_short(exc)})",
            request_id=request_id,
        )
    return ModelUnavailableError(_describe(exc))


def _short(exc: anthropic.AnthropicError) -> str:
    """`HTTP 402, billing_error`: what a person needs to tell an administrator."""
    status = getattr(exc, "status_code", None)
    body = getattr(exc, "body", None)
    error = body.get("error") if isinstance(body, dict) else None
    kind = error.get("type") if isinstance(error, dict) else None
    return ", ".join(part for part in (f"HTTP {status}" if status else "", kind or "") if part) \
        or type(exc).__name__


def content_blocks(message: Any) -> list[dict[str, Any]]:
    """A response's content blocks as request blocks, verbatim (thinking signatures included)."""
    blocks: list[dict[str, Any]] = []
    for block in message.content:
        kind = block.type
        if kind == "text":
            blocks.append({"type": "text", "text": block.text})
        elif kind == "tool_use":
            blocks.append({"type": "tool_use", "id": block.id, "name": block.name,
                           "input": dict(block.input or {})})
        elif kind == "thinking":
            blocks.append({"type": "thinking", "thinking": block.thinking,
                           "signature": block.signature})
        elif kind == "redacted_thinking":
            blocks.append({"type": "redacted_thinking", "data": block.data})
        else:  # a block type this code does not know: pass it back as the API sent it
            blocks.append(block.model_dump(mode="json", exclude_none=True))
    return blocks


def usage_of(message: Any) -> TokenUsage:
    """The turn's tokens, the prompt cache's reads and writes apart (the API reports them so)."""
    usage = message.usage

    def count(name: str) -> int:
        return int(getattr(usage, name, 0) or 0)

    return TokenUsage(
        input_tokens=count("input_tokens"),
        output_tokens=count("output_tokens"),
        cache_read_tokens=count("cache_read_input_tokens"),
        cache_write_tokens=count("cache_creation_input_tokens"),
    )


def _turn(message: Any) -> ModelTurn:
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in message.content:
        if block.type == "text":
            texts.append(block.text)
        elif block.type == "tool_use":
            calls.append(ToolCall(id=block.id, name=block.name, arguments=dict(block.input or {})))
    return ModelTurn(
        text="".join(texts).strip(),
        raw_text="".join(texts),
        tool_calls=calls,
        usage=usage_of(message),
        stop_reason=str(message.stop_reason or "end_turn"),
        content=content_blocks(message),
    )


def _describe(exc: Exception) -> str:
    if isinstance(exc, anthropic.APITimeoutError):
        return "the request timed out"
    if isinstance(exc, anthropic.APIConnectionError):
        return "the API could not be reached"
    if isinstance(exc, anthropic.APIStatusError):
        body = exc.body if isinstance(exc.body, dict) else {}
        error = body.get("error") if isinstance(body.get("error"), dict) else {}
        kind = str(error.get("type") or "")
        message = str(error.get("message") or "")
        if kind == "overloaded_error" or exc.status_code == 529:
            return "the API is overloaded" + (f" ({exc.status_code})" if exc.status_code != 200
                                              else " (during the stream)")
        if exc.status_code == 429:
            return "rate limited (429)"
        if kind:
            return f"{kind}" + (f": {message}" if message else "")
        return f"HTTP {exc.status_code}"
    return type(exc).__name__
