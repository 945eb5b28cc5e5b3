"""A local Anthropic Messages API on 127.0.0.1, so the real `anthropic` SDK path runs offline.

It answers `POST /v1/messages` (JSON, or server-sent events when the request says
`"stream": true`, with the event sequence the SDK parses: message_start, ping,
content_block_start, content_block_delta (text_delta / input_json_delta), content_block_stop,
message_delta with usage, message_stop), `POST /v1/messages/count_tokens` and
`GET /v1/models/{id}` (the models in `models`, 404 `not_found_error` for any other). It records
every request and answers from a script: a queue of canned replies, then a handler function that
sees the request, so a test says exactly what "Claude" does:

    async with FakeAnthropicServer(api_key="test-key") as server:
        server.script(rate_limited(), tool_reply("record_findings", {"findings": []}))
        client = anthropic.AsyncAnthropic(api_key="test-key", base_url=server.base_url)
        ...
        assert server.requests[-1].body["tools"][0]["name"] == "record_findings"

    def answer(request: RecordedRequest) -> Reply | Fault:
        return text_reply(f"You said {request.last_user_text}")
    FakeAnthropicServer(handler=answer)

Prompt caching is modelled as documented
(https://platform.claude.com/docs/en/build-with-claude/prompt-caching): the prefix up to each
`cache_control` breakpoint (tools, then system, then messages; the markers themselves aside) is
written on first sight and read by a later request that begins with it, and `usage` says so in
`cache_creation_input_tokens` / `cache_read_input_tokens`, apart from `input_tokens`. As there, a
prefix shorter than the model's minimum cacheable length (`MIN_CACHE_TOKENS`, 1,024 tokens for
the Sonnet and Opus 5 models) is not cached at all, silently, and a request with more than four
breakpoints is refused: 400 "A maximum of 4 blocks with cache_control may be provided. Found 5."

Errors use the API's body, `{"type": "error", "error": {"type": "overloaded_error", ...}}`, with
the status the SDK maps to its exceptions (529 overloaded, 429 rate limit with `retry-after`).

It refuses what the current models refuse, with the API's 400 `invalid_request_error`
(`anthropic_rules.py` beside this module names each rule's page): a tool whose name breaks the
API's pattern or repeats another's, or whose `input_schema` is no JSON Schema 2020-12 object; a
message of a role other than user and assistant, an empty message (but a final assistant one),
an empty or blank text block; a `tool_use` id used twice or off the API's pattern; a
`tool_use` not answered by a
`tool_result` in the very next message, a `tool_result` whose call is not in the message before
it, a conversation ending on an assistant turn (no prefill), `thinking` of a type the current
Sonnet does not take (`disabled`, `enabled` with a budget), `between_tools` at `xhigh`/`max`
effort, an unknown effort level and a forced `tool_choice`. Thinking is modelled as documented
too: a reply's `thinking_tokens` are spent before its text and count toward `max_tokens` (none
with `between_tools`, which turns up-front thinking off), so a cap too small for both cuts the
reply (`stop_reason: max_tokens`); the thinking block comes back with its text omitted and a
signature, the current models' default display.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import itertools
import json
import math
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Self

from aiohttp import web

from manda.testing.anthropic_rules import refusal, thinks_first

__all__ = [
    "FakeAnthropicServer",
    "Fault",
    "RecordedRequest",
    "Reply",
    "Response",
    "error_reply",
    "fake_token_count",
    "model_info",
    "overloaded",
    "rate_limited",
    "refusal",
    "text_reply",
    "thinks_first",
    "tool_reply",
]


MAX_CACHE_BREAKPOINTS = 4
# The shortest prefix each model caches (prompt-caching page, "Cache limitations"); by id prefix,
# longest first; any other model 1,024.
MIN_CACHE_TOKENS: dict[str, int] = {
    "claude-opus-4-5": 4096, "claude-opus-4-6": 4096, "claude-haiku-4-5": 4096,
    "claude-sonnet-4-6": 2048, "claude-3-5-haiku": 2048, "claude-3-haiku": 2048,
}
DEFAULT_MIN_CACHE_TOKENS = 1024


def min_cache_tokens(model: str | None) -> int:
    """The shortest prefix `model` writes to the prompt cache."""
    for prefix in sorted(MIN_CACHE_TOKENS, key=len, reverse=True):
        if (model or "").startswith(prefix):
            return MIN_CACHE_TOKENS[prefix]
    return DEFAULT_MIN_CACHE_TOKENS


def fake_token_count(text: str) -> int:
    """The fake's tokenizer: about four characters a token."""
    return max(1, math.ceil(len(text) / 4))


@dataclass
class RecordedRequest:
    """One request the server received, as the SDK sent it."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))

    @property
    def model(self) -> str | None:
        return self.body.get("model")

    @property
    def tools(self) -> list[dict[str, Any]]:
        return list(self.body.get("tools") or [])

    @property
    def system(self) -> str:
        system = self.body.get("system") or ""
        if isinstance(system, list):
            return "\n".join(b.get("text", "") for b in system if isinstance(b, dict))
        return str(system)

    @property
    def last_user_text(self) -> str:
        """The text of the last user message (its text blocks joined)."""
        for message in reversed(self.body.get("messages") or []):
            if message.get("role") != "user":
                continue
            content = message.get("content")
            if isinstance(content, str):
                return content
            return "\n".join(
                b.get("text", "") for b in content or [] if isinstance(b, dict)
                and b.get("type") == "text"
            )
        return ""


@dataclass
class Reply:
    """A successful answer: Anthropic content blocks, as the API would return them.

    `stop_reason` defaults to "tool_use" when a block is a tool call, else "end_turn"; `usage`
    defaults to an estimate from the request and the content. `stream_error` makes a streamed
    answer fail with an `error` event after `stream_error_after` text deltas (0: right after
    message_start), as the API does when it is overloaded mid-stream; `delay` holds the answer
    back that many seconds (for client timeouts). `thinking_tokens` is what the model thinks
    before it writes, when the request lets it think first.
    """

    content: list[dict[str, Any]]
    stop_reason: str | None = None
    usage: dict[str, int] | None = None
    model: str | None = None
    delay: float = 0.0
    stream_error: Fault | None = None
    stream_error_after: int = 0
    thinking_tokens: int = 0


@dataclass
class Fault:
    """An error answer: HTTP status, the API's error type and message, and retry headers."""

    status: int = 529
    error_type: str = "overloaded_error"
    message: str = "Overloaded"
    retry_after: float | None = None  # seconds, sent as `retry-after`
    retry_after_ms: float | None = None  # sent as `retry-after-ms` (the SDK prefers it)
    should_retry: bool | None = None  # sent as `x-should-retry` when set
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0

    def body(self, request_id: str) -> dict[str, Any]:
        return {
            "type": "error",
            "error": {"type": self.error_type, "message": self.message},
            "request_id": request_id,
        }

    def response_headers(self, request_id: str) -> dict[str, str]:
        headers = {"request-id": request_id, **self.headers}
        if self.retry_after is not None:
            headers["retry-after"] = f"{self.retry_after:g}"
        if self.retry_after_ms is not None:
            headers["retry-after-ms"] = f"{self.retry_after_ms:g}"
        if self.should_retry is not None:
            headers["x-should-retry"] = "true" if self.should_retry else "false"
        return headers


Response = Reply | Fault
Handler = Callable[[RecordedRequest], Response | Awaitable[Response]]


def text_reply(text: str, **kwargs: Any) -> Reply:
    """A plain text answer."""
    return Reply(content=[{"type": "text", "text": text}], **kwargs)


def tool_reply(name: str, arguments: dict[str, Any], *, text: str | None = None,
               call_id: str | None = None, **kwargs: Any) -> Reply:
    """An answer that calls one tool (optionally after some text)."""
    blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    block: dict[str, Any] = {"type": "tool_use", "name": name, "input": arguments}
    if call_id is not None:
        block["id"] = call_id
    blocks.append(block)
    return Reply(content=blocks, **kwargs)


def overloaded(*, retry_after_ms: float | None = None, message: str = "Overloaded") -> Fault:
    """HTTP 529 overloaded_error, as the API answers under load."""
    return Fault(status=529, error_type="overloaded_error", message=message,
                 retry_after_ms=retry_after_ms)


def rate_limited(*, retry_after: float = 0.001, message: str = "Rate limited") -> Fault:
    """HTTP 429 rate_limit_error with a `retry-after` header (seconds)."""
    return Fault(status=429, error_type="rate_limit_error", message=message,
                 retry_after=retry_after)


def error_reply(status: int, error_type: str, message: str, **kwargs: Any) -> Fault:
    """Any other API error: 400 invalid_request_error, 401 authentication_error, 500 api_error."""
    return Fault(status=status, error_type=error_type, message=message, **kwargs)


class FakeAnthropicServer:
    """The Messages API on a free local port; `base_url` goes to `AsyncAnthropic(base_url=...)`."""

    def __init__(self, *, handler: Handler | None = None, api_key: str | None = None,
                 host: str = "127.0.0.1",
                 models: dict[str, dict[str, Any]] | None = None) -> None:
        """`models`: what `GET /v1/models/{id}` knows, by id (see `model_info`)."""
        self._handler = handler
        self.models = dict(models or {})
        self._cache: dict[str, int] = {}  # cached prefix (its digest) -> its tokens
        self._api_key = api_key
        self._host = host
        self._queue: deque[Response] = deque()
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self.requests: list[RecordedRequest] = []

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 2**20)
        app.router.add_post("/v1/messages", self._messages)
        app.router.add_post("/v1/messages/count_tokens", self._count_tokens)
        app.router.add_get("/v1/models/{model_id}", self._model)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, 0)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        self._port = sockets[0].getsockname()[1]

    async def aclose(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    @property
    def base_url(self) -> str:
        if self._port is None:
            raise RuntimeError("FakeAnthropicServer is not started; use `async with` or start()")
        return f"http://{self._host}:{self._port}"

    # ------------------------------------------------------------ scripting

    def script(self, *responses: Response) -> None:
        """Queue answers; each request takes the next one before the handler is asked."""
        self._queue.extend(responses)

    def respond_with(self, handler: Handler | None) -> None:
        """Answer what the script does not cover with `handler` from now on."""
        self._handler = handler

    @property
    def pending(self) -> int:
        """Scripted answers not used yet."""
        return len(self._queue)

    @property
    def last_request(self) -> RecordedRequest:
        return self.requests[-1]

    # ------------------------------------------------------------ HTTP

    def _request_id(self) -> str:
        return f"req_fake_{next(self._ids):06d}"

    async def _record(self, request: web.Request) -> RecordedRequest | web.Response:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return self._error(Fault(400, "invalid_request_error", "Body is not valid JSON",
                                     should_retry=False))
        recorded = RecordedRequest(request.method, request.path, dict(request.headers), body)
        self.requests.append(recorded)
        problem = self._check(request, body)
        return self._error(problem) if problem is not None else recorded

    def _check_headers(self, request: web.Request) -> Fault | None:
        if self._api_key is not None:
            given = request.headers.get("x-api-key") or request.headers.get(
                "authorization", "").removeprefix("Bearer ").strip()
            if given != self._api_key:
                return Fault(401, "authentication_error", "invalid x-api-key", should_retry=False)
        return None

    def _check(self, request: web.Request, body: Any) -> Fault | None:
        if self._api_key is not None:
            given = request.headers.get("x-api-key") or request.headers.get(
                "authorization", "").removeprefix("Bearer ").strip()
            if given != self._api_key:
                return Fault(401, "authentication_error", "invalid x-api-key", should_retry=False)
        if "anthropic-version" not in request.headers:
            return Fault(400, "invalid_request_error", "anthropic-version header is required",
                         should_retry=False)
        if not isinstance(body, dict):
            return Fault(400, "invalid_request_error", "Body must be a JSON object",
                         should_retry=False)
        missing = [k for k in ("model", "messages") if k not in body]
        if request.path == "/v1/messages" and "max_tokens" not in body:
            missing.append("max_tokens")
        if missing:
            return Fault(400, "invalid_request_error", f"{missing[0]}: Field required",
                         should_retry=False)
        if request.path == "/v1/messages":
            refused = refusal(body)
            if refused is not None:
                return Fault(400, "invalid_request_error", refused, should_retry=False)
        marked = sum(1 for _, breakpoint in _prompt_parts(body) if breakpoint)
        if marked > MAX_CACHE_BREAKPOINTS:
            return Fault(400, "invalid_request_error",
                         f"A maximum of {MAX_CACHE_BREAKPOINTS} blocks with cache_control may be "
                         f"provided. Found {marked}.", should_retry=False)
        return None

    def _error(self, fault: Fault) -> web.Response:
        request_id = self._request_id()
        return web.json_response(fault.body(request_id), status=fault.status,
                                 headers=fault.response_headers(request_id))

    async def _answer(self, request: RecordedRequest) -> Response:
        if self._queue:
            return self._queue.popleft()
        if self._handler is not None:
            result = self._handler(request)
            answer = await result if inspect.isawaitable(result) else result
            if isinstance(answer, Reply | Fault):
                return answer
            return Fault(500, "api_error", "FakeAnthropicServer: the handler returned no reply",
                         should_retry=False)
        return Fault(400, "invalid_request_error",
                     "FakeAnthropicServer has no scripted reply left for this request",
                     should_retry=False)

    async def _model(self, request: web.Request) -> web.StreamResponse:
        self.requests.append(RecordedRequest(request.method, request.path, dict(request.headers),
                                             {}))
        problem = self._check_headers(request)
        if problem is not None:
            return self._error(problem)
        model_id = request.match_info["model_id"]
        info = self.models.get(model_id)
        if info is None:
            return self._error(Fault(404, "not_found_error", f"model: {model_id}",
                                     should_retry=False))
        return web.json_response(info, headers={"request-id": self._request_id()})

    async def _count_tokens(self, request: web.Request) -> web.StreamResponse:
        recorded = await self._record(request)
        if isinstance(recorded, web.Response):
            return recorded
        return web.json_response({"input_tokens": fake_token_count(json.dumps(recorded.body))})

    async def _messages(self, request: web.Request) -> web.StreamResponse:
        recorded = await self._record(request)
        if isinstance(recorded, web.Response):
            return recorded
        answer = await self._answer(recorded)
        if answer.delay:
            await asyncio.sleep(answer.delay)
        if isinstance(answer, Fault):
            return self._error(answer)
        message = self._message(recorded, answer)
        if recorded.stream:
            return await self._stream(request, message, answer.stream_error,
                                      answer.stream_error_after)
        return web.json_response(message, headers={"request-id": self._request_id()})

    def _message(self, request: RecordedRequest, reply: Reply) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        for block in reply.content:
            block = dict(block)
            if block.get("type") == "tool_use":
                block.setdefault("id", f"toolu_fake_{next(self._ids):06d}")
                block.setdefault("input", {})
            content.append(block)
        stop = reply.stop_reason
        thought = reply.thinking_tokens if thinks_first(request.body) else 0
        if thought:
            content, cut = _after_thinking(content, thought, int(request.body["max_tokens"]),
                                           signature=f"sig_fake_{next(self._ids):06d}")
            stop = "max_tokens" if cut else stop
        has_tool = any(b.get("type") == "tool_use" for b in content)
        usage = reply.usage or {
            **self._cached_input(request.body),
            "output_tokens": thought + fake_token_count(json.dumps(content)),
        }
        return {
            "id": f"msg_fake_{next(self._ids):06d}",
            "type": "message",
            "role": "assistant",
            "model": reply.model or request.model or "claude-fake",
            "content": content,
            "stop_reason": stop or ("tool_use" if has_tool else "end_turn"),
            "stop_sequence": None,
            "usage": usage,
        }

    def _cached_input(self, body: dict[str, Any]) -> dict[str, int]:
        """Input tokens split as the API splits them: read from the cache, written, the rest."""
        parts = _prompt_parts(body)
        total = fake_token_count("".join(text for text, _ in parts))
        read = written = 0
        prefix = ""
        shortest = min_cache_tokens(body.get("model"))
        for text, breakpoint in parts:
            prefix += text
            if not breakpoint:
                continue
            digest = hashlib.sha256(prefix.encode()).hexdigest()
            tokens = fake_token_count(prefix)
            if tokens < shortest:  # too short to cache: processed at full price, silently
                continue
            if digest in self._cache:
                read = max(read, tokens)
            else:
                self._cache[digest] = tokens
                written = max(written, tokens)
        written = max(0, written - read)
        return {"input_tokens": max(0, total - read - written),
                "cache_read_input_tokens": read, "cache_creation_input_tokens": written}

    async def _stream(self, request: web.Request, message: dict[str, Any],
                      error: Fault | None, error_after: int = 0) -> web.StreamResponse:
        response = web.StreamResponse(
            status=200,
            headers={"content-type": "text/event-stream", "cache-control": "no-cache",
                     "request-id": self._request_id()},
        )
        await response.prepare(request)
        usage = dict(message["usage"])
        start = {**message, "content": [], "stop_reason": None, "stop_sequence": None,
                 "usage": {**usage, "output_tokens": 1}}
        await _event(response, "message_start", {"type": "message_start", "message": start})
        await _event(response, "ping", {"type": "ping"})
        budget = [error_after] if error is not None else None
        for index, block in enumerate(message["content"]):
            if not await self._stream_block(response, index, block, budget):
                break
        if error is not None:
            await _event(response, "error", error.body(self._request_id()))
            await response.write_eof()
            return response
        await _event(response, "message_delta", {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": usage["output_tokens"]},
        })
        await _event(response, "message_stop", {"type": "message_stop"})
        await response.write_eof()
        return response

    @staticmethod
    async def _stream_block(response: web.StreamResponse, index: int, block: dict[str, Any],
                            budget: list[int] | None = None) -> bool:
        """Stream one content block; with a `budget` of text deltas, stop once it is spent (an
        error comes next) and say False."""
        if block.get("type") == "tool_use":
            opening = {**block, "input": {}}
            raw = json.dumps(block.get("input", {}))
            deltas = [{"type": "input_json_delta", "partial_json": raw[i : i + 24]}
                      for i in range(0, len(raw), 24)]
        elif block.get("type") == "text":
            opening = {**block, "text": ""}
            words = block.get("text", "").split(" ")
            pieces = [" ".join(words[i : i + 3]) + (" " if i + 3 < len(words) else "")
                      for i in range(0, len(words), 3)]
            deltas = [{"type": "text_delta", "text": piece} for piece in pieces if piece]
        elif block.get("type") == "thinking":
            opening = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [{"type": "thinking_delta", "thinking": block.get("thinking", "")}]
            if block.get("signature"):
                deltas.append({"type": "signature_delta", "signature": block["signature"]})
        else:
            opening, deltas = block, []
        if budget is not None and budget[0] <= 0:
            return False
        await _event(response, "content_block_start",
                     {"type": "content_block_start", "index": index, "content_block": opening})
        for delta in deltas:
            if budget is not None and delta["type"] == "text_delta":
                if budget[0] <= 0:
                    return False
                budget[0] -= 1
            await _event(response, "content_block_delta",
                         {"type": "content_block_delta", "index": index, "delta": delta})
        await _event(response, "content_block_stop", {"type": "content_block_stop", "index": index})
        return True


def _after_thinking(content: list[dict[str, Any]], thought: int, cap: int, *,
                    signature: str) -> tuple[list[dict[str, Any]], bool]:
    """The reply as the model writes it after thinking `thought` tokens within `cap`: a thinking
    block first (its text omitted, signed), then what fits of the content; True when cut."""
    if thought >= cap:  # the cap ran out mid-thought: no signature, no reply
        return [{"type": "thinking", "thinking": "", "signature": ""}], True
    left = cap - thought
    kept: list[dict[str, Any]] = [{"type": "thinking", "thinking": "", "signature": signature}]
    for block in content:
        if block.get("type") == "text":
            tokens = fake_token_count(block.get("text", ""))
            if tokens > left:
                kept.append({**block, "text": block["text"][: left * 4]})
                return kept, True
            left -= tokens
        elif block.get("type") == "tool_use":
            tokens = fake_token_count(json.dumps(block.get("input", {})))
            if tokens > left:
                return kept, True
            left -= tokens
        kept.append(block)
    return kept, False


def model_info(model_id: str, *, lifecycle: str = "active",
               deprecated_at: str | None = None) -> dict[str, Any]:
    """A `GET /v1/models/{id}` body (https://platform.claude.com/docs/en/api/models/retrieve)."""
    return {"type": "model", "id": model_id, "display_name": model_id,
            "created_at": "2026-01-01T00:00:00Z", "lifecycle": lifecycle,
            "deprecated_at": deprecated_at}


def _prompt_parts(body: dict[str, Any]) -> list[tuple[str, bool]]:
    """The prompt in the API's cache order (tools, system, messages) as (text of a block,
    whether a cache breakpoint follows it), the `cache_control` markers left out."""
    def strip(block: Any) -> str:
        if isinstance(block, dict):
            block = {k: v for k, v in block.items() if k != "cache_control"}
        return json.dumps(block, sort_keys=True)

    def marked(block: Any) -> bool:
        return isinstance(block, dict) and "cache_control" in block

    parts: list[tuple[str, bool]] = [(strip(t), marked(t)) for t in body.get("tools") or []]
    system = body.get("system")
    if isinstance(system, str):
        parts.append((system, False))
    else:
        parts += [(strip(b), marked(b)) for b in system or []]
    for message in body.get("messages") or []:
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        parts.append((message.get("role", ""), False))
        parts += [(strip(b), marked(b)) for b in blocks or []]
    return parts


async def _event(response: web.StreamResponse, name: str, data: dict[str, Any]) -> None:
    await response.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
