"""Real SDK exceptions from local servers on 127.0.0.1: Claude, Voyage, Neo4j, Redis, aiohttp.

Each SDK is pointed at a local server (or a closed port) that fails the way the real service
does; the exceptions the SDK raises are classified, and retried or not, by our policy.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import anthropic
import neo4j
import pytest
import redis.asyncio as aioredis
import voyageai
from aiohttp import web

from manda.embed.voyage import VoyageEmbedder, VoyageRequestError
from manda.errors import BackendUnavailableError
from manda.resilience import (
    CircuitBreaker,
    ErrorClass,
    call_with_resilience,
    classify,
    is_transient,
    retry_after_seconds,
)
from manda.testing.voyage_server import FakeVoyageServer, Fault

MODEL = "claude-test"  # any id: the fake does not check it, and the SDK warns about none
MESSAGE = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": MODEL,
    "content": [{"type": "text", "text": "Q3 2024 revenue was $12.4m."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 12, "output_tokens": 9},
}


@dataclass
class Reply:
    """One scripted answer of the fake Messages API."""

    status: int = 200
    error_type: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    stream_error: bool = False  # a 200 event stream whose first event is an error


class FakeClaude:
    """`POST /v1/messages` on 127.0.0.1: scripted replies first, then a normal message."""

    def __init__(self) -> None:
        self.script: deque[Reply] = deque()
        self.requests = 0
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/v1/messages", self._messages)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.base_url = f"http://127.0.0.1:{self._runner.addresses[0][1]}"

    async def aclose(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _messages(self, request: web.Request) -> web.StreamResponse:
        self.requests += 1
        await request.read()
        reply = self.script.popleft() if self.script else Reply()
        if reply.delay:
            await asyncio.sleep(reply.delay)
        error = {"type": "error", "error": {"type": reply.error_type, "message": "scripted"}}
        if reply.stream_error:
            stream = web.StreamResponse(headers={"content-type": "text/event-stream"})
            await stream.prepare(request)
            await stream.write(f"event: error\ndata: {json.dumps(error)}\n\n".encode())
            return stream
        if reply.status != 200:
            return web.json_response(error, status=reply.status, headers=reply.headers)
        return web.json_response(MESSAGE)


@pytest.fixture
async def claude() -> AsyncIterator[FakeClaude]:
    server = FakeClaude()
    await server.start()
    yield server
    await server.aclose()


def client(server: FakeClaude, *, timeout: float = 5.0) -> anthropic.AsyncAnthropic:
    # max_retries=0: the SDK makes one attempt; the retries under test are ours.
    return anthropic.AsyncAnthropic(
        api_key="sk-test", base_url=server.base_url, max_retries=0, timeout=timeout
    )


async def ask(c: anthropic.AsyncAnthropic) -> Any:
    return await c.messages.create(
        model=MODEL,
        max_tokens=64,
        messages=[{"role": "user", "content": "What was Q3 revenue?"}],
    )


async def raised_by(server: FakeClaude, reply: Reply, *, timeout: float = 5.0) -> Exception:
    server.script.append(reply)
    c = client(server, timeout=timeout)
    try:
        await ask(c)
    except Exception as exc:
        return exc
    finally:
        await c.close()
    raise AssertionError("the fake was scripted to fail")


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- Claude ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (Reply(429, "rate_limit_error"), ErrorClass.RATE_LIMIT),
        (Reply(529, "overloaded_error"), ErrorClass.API_ERROR),
        (Reply(500, "api_error"), ErrorClass.API_ERROR),
        (Reply(503, "api_error"), ErrorClass.API_ERROR),
        (Reply(401, "authentication_error"), ErrorClass.AUTHENTICATION_ERROR),
        (Reply(403, "permission_error"), ErrorClass.AUTHENTICATION_ERROR),
        (Reply(400, "invalid_request_error"), ErrorClass.VALIDATION_ERROR),
        (Reply(422, "invalid_request_error"), ErrorClass.VALIDATION_ERROR),
    ],
)
async def test_claude_http_errors_are_classified(
    claude: FakeClaude, reply: Reply, expected: ErrorClass
) -> None:
    exc = await raised_by(claude, reply)
    assert isinstance(exc, anthropic.APIStatusError)
    assert classify(exc) is expected
    assert is_transient(exc) is (expected in {ErrorClass.RATE_LIMIT, ErrorClass.API_ERROR})


async def test_claude_overloaded_529_is_a_transient_api_error(claude: FakeClaude) -> None:
    exc = await raised_by(claude, Reply(529, "overloaded_error"))
    assert isinstance(exc, anthropic.InternalServerError) and exc.status_code == 529
    assert classify(exc) is ErrorClass.API_ERROR and is_transient(exc)


async def test_claude_retry_after_headers_are_read(claude: FakeClaude) -> None:
    seconds = await raised_by(claude, Reply(429, "rate_limit_error", {"retry-after": "7"}))
    millis = await raised_by(claude, Reply(529, "overloaded_error", {"retry-after-ms": "1500"}))
    none = await raised_by(claude, Reply(500, "api_error"))
    assert retry_after_seconds(seconds) == 7.0
    assert retry_after_seconds(millis) == 1.5
    assert retry_after_seconds(none) is None


async def test_claude_timeout_and_refused_connection(claude: FakeClaude) -> None:
    timed_out = await raised_by(claude, Reply(delay=0.2), timeout=0.02)
    assert isinstance(timed_out, anthropic.APITimeoutError)
    assert classify(timed_out) is ErrorClass.TIMEOUT and is_transient(timed_out)

    c = anthropic.AsyncAnthropic(
        api_key="sk-test", base_url=f"http://127.0.0.1:{closed_port()}", max_retries=0
    )
    with pytest.raises(anthropic.APIConnectionError) as refused:
        await ask(c)
    await c.close()
    assert classify(refused.value) is ErrorClass.API_ERROR and is_transient(refused.value)


@pytest.mark.parametrize(
    ("error_type", "expected"),
    [
        ("overloaded_error", ErrorClass.API_ERROR),
        ("rate_limit_error", ErrorClass.RATE_LIMIT),
        ("invalid_request_error", ErrorClass.VALIDATION_ERROR),
    ],
)
async def test_an_error_event_inside_a_stream_is_classified_by_its_type(
    claude: FakeClaude, error_type: str, expected: ErrorClass
) -> None:
    claude.script.append(Reply(error_type=error_type, stream_error=True))
    c = client(claude)
    with pytest.raises(anthropic.APIStatusError) as raised:
        async with c.messages.stream(
            model=MODEL, max_tokens=64, messages=[{"role": "user", "content": "Hi"}]
        ) as stream:
            async for _ in stream:
                pass
    await c.close()
    assert raised.value.status_code == 200  # the stream itself had started fine
    assert classify(raised.value) is expected


async def test_claude_429_then_529_then_answer_is_retried_honouring_retry_after(
    claude: FakeClaude,
) -> None:
    claude.script.extend(
        [Reply(429, "rate_limit_error", {"retry-after": "2"}), Reply(529, "overloaded_error")]
    )
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    breaker = CircuitBreaker("Claude")
    c = client(claude)
    message = await call_with_resilience(
        ask, c, breaker=breaker, attempts=3, timeout=5.0, initial=0.5, sleep=sleep
    )
    await c.close()
    assert message.content[0].text == "Q3 2024 revenue was $12.4m."
    assert claude.requests == 3
    assert waits[0] == 2.0  # exactly what the 429 asked for
    assert 1.0 <= waits[1] <= 1.5  # backoff after the 2nd attempt: initial·2 plus jitter ≤ initial
    assert breaker.consecutive_failures == 0


async def test_claude_authentication_error_is_raised_at_once(claude: FakeClaude) -> None:
    claude.script.append(Reply(401, "authentication_error"))
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    c = client(claude)
    with pytest.raises(anthropic.AuthenticationError):
        await call_with_resilience(ask, c, attempts=5, sleep=sleep)
    await c.close()
    assert claude.requests == 1 and waits == []


async def test_claude_timeouts_on_every_attempt_end_in_the_timeout(claude: FakeClaude) -> None:
    # The fake answers far later than our per-attempt timeout, which itself leaves a loaded
    # 2-core machine ample time to deliver each request: only the order of the two matters.
    claude.script.extend([Reply(delay=3.0), Reply(delay=3.0)])

    async def sleep(seconds: float) -> None:
        return None

    c = client(claude, timeout=30.0)
    with pytest.raises(TimeoutError):
        # our per-attempt timeout trips before the SDK's
        await call_with_resilience(ask, c, attempts=2, timeout=1.0, sleep=sleep)
    await c.close()
    assert claude.requests == 2


# --- Voyage ----------------------------------------------------------------------------------


@pytest.fixture
async def voyage() -> AsyncIterator[FakeVoyageServer]:
    async with FakeVoyageServer(api_key="test-key") as server:
        yield server


async def voyage_error(server: FakeVoyageServer, fault: Fault, *, key: str = "test-key") -> Any:
    server.script(fault)
    c = voyageai.AsyncClient(api_key=key, base_url=server.base_url, max_retries=0, timeout=5)
    try:
        await c.embed(["Q3 revenue"], model="voyage-3.5", input_type="query")
    except Exception as exc:
        return exc
    raise AssertionError("the fake was scripted to fail")


@pytest.mark.parametrize(
    ("fault", "expected"),
    [
        (Fault(status=429, retry_after=3), ErrorClass.RATE_LIMIT),
        (Fault(status=500), ErrorClass.API_ERROR),
        (Fault(status=503), ErrorClass.API_ERROR),
        (Fault(status=401), ErrorClass.AUTHENTICATION_ERROR),
        (Fault(status=400), ErrorClass.VALIDATION_ERROR),
    ],
)
async def test_voyage_sdk_errors_are_classified(
    voyage: FakeVoyageServer, fault: Fault, expected: ErrorClass
) -> None:
    exc = await voyage_error(voyage, fault)
    assert isinstance(exc, voyageai.error.VoyageError)
    assert classify(exc) is expected


async def test_voyage_retry_after_is_read(voyage: FakeVoyageServer) -> None:
    exc = await voyage_error(voyage, Fault(status=429, retry_after=3))
    assert retry_after_seconds(exc) == 3.0


async def test_our_voyage_errors_keep_the_class_of_what_they_wrap(voyage: FakeVoyageServer) -> None:
    embedder = VoyageEmbedder(
        api_key="test-key", base_url=voyage.base_url, max_retries=0, timeout=5.0
    )
    voyage.script(Fault(status=429, retry_after=4))
    with pytest.raises(BackendUnavailableError) as unavailable:
        await embedder.embed(["Q3 revenue"], "query")
    voyage.script(Fault(status=401))
    with pytest.raises(VoyageRequestError) as refused:
        await embedder.embed(["Q3 revenue"], "query")
    await embedder.aclose()

    assert classify(unavailable.value) is ErrorClass.RATE_LIMIT
    assert retry_after_seconds(unavailable.value) == 4.0
    assert classify(refused.value) is ErrorClass.AUTHENTICATION_ERROR
    assert not is_transient(refused.value)


# --- Neo4j, Redis, aiohttp -------------------------------------------------------------------


async def test_neo4j_server_not_reachable_is_a_transient_api_error() -> None:
    driver = neo4j.AsyncGraphDatabase.driver(
        f"bolt://127.0.0.1:{closed_port()}", auth=("neo4j", "x"), connection_timeout=2.0
    )
    with pytest.raises(neo4j.exceptions.ServiceUnavailable) as raised:
        await driver.verify_connectivity()
    await driver.close()
    assert classify(raised.value) is ErrorClass.API_ERROR and is_transient(raised.value)


async def test_redis_not_reachable_is_a_transient_api_error() -> None:
    client = aioredis.Redis.from_url(f"redis://127.0.0.1:{closed_port()}/0")
    with pytest.raises(aioredis.ConnectionError) as raised:
        await client.ping()
    await client.aclose()
    assert classify(raised.value) is ErrorClass.API_ERROR and is_transient(raised.value)


@pytest.mark.redis
async def test_redis_refusing_a_password_is_an_authentication_error(redis_url: str) -> None:
    client = aioredis.Redis.from_url(redis_url)
    with pytest.raises(aioredis.RedisError) as raised:
        await client.execute_command("AUTH", "not-the-password")
    await client.aclose()
    assert classify(raised.value) is ErrorClass.AUTHENTICATION_ERROR
    assert not is_transient(raised.value)


@pytest.mark.redis
async def test_redis_refusing_a_command_is_a_validation_error(redis_url: str) -> None:
    client = aioredis.Redis.from_url(redis_url)
    await client.set("manda:test:string", "x")
    with pytest.raises(aioredis.ResponseError) as raised:
        await client.lpush("manda:test:string", "y")  # WRONGTYPE
    await client.delete("manda:test:string")
    await client.aclose()
    assert classify(raised.value) is ErrorClass.VALIDATION_ERROR


async def test_aiohttp_refused_connection_is_a_transient_api_error() -> None:
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.ClientConnectionError) as raised:
            await session.get(f"http://127.0.0.1:{closed_port()}/")
    assert classify(raised.value) is ErrorClass.API_ERROR and is_transient(raised.value)
