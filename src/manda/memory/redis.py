"""Conversation memory in Redis, so every worker behind a load balancer sees the same threads."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar
from urllib.parse import urlsplit

import redis.asyncio as aioredis
from pydantic import ValidationError
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import AuthenticationError, RedisError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from manda.errors import BackendUnavailableError, MandaError
from manda.memory.port import Conversation
from manda.resilience.breaker import CircuitBreaker
from manda.traces import MAX_TRACE_BYTES, MAX_TRACES, AnswerTrace

T = TypeVar("T")

log = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS = 7 * 24 * 3600
HEALTH_CHECK_INTERVAL_SECONDS = 30

# KEYS: traces hash, their order (newest first). ARGV: answer id, body, how many to keep, the
# conversation's TTL in seconds (`save` renews both keys with the conversation). One script, so a
# trace, the trim and the expiry are never seen half-done by another worker.
_SAVE_TRACE = """
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('LREM', KEYS[2], 0, ARGV[1])
redis.call('LPUSH', KEYS[2], ARGV[1])
local keep = tonumber(ARGV[3])
for _, old in ipairs(redis.call('LRANGE', KEYS[2], keep, -1)) do
  redis.call('HDEL', KEYS[1], old)
end
redis.call('LTRIM', KEYS[2], 0, keep - 1)
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
"""


def redacted(url: str) -> str:
    """The URL without its password, fit for an error message or a log line."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = f"{parts.username}:***@" if parts.username else ":***@"
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return parts._replace(netloc=f"{user}{host}{port}").geturl()


@contextmanager
def redis_errors(url: str, doing: str) -> Iterator[None]:
    """Turn the client's network errors into one `BackendUnavailableError` a person can act on.

    Also hands back a cancellation the client swallowed: on Python 3.11 redis-py sends through
    `asyncio.wait_for`, which drops a cancel that lands as the send completes (CPython gh-86296,
    fixed in 3.12). A call that returns while a cancel arrived during it raises it again.
    """
    where = redacted(url)
    task = asyncio.current_task()
    cancels_before = task.cancelling() if task is not None else 0
    try:
        yield
    except AuthenticationError as exc:
        raise BackendUnavailableError(
            f"Redis at {where} refused the credentials while {doing}: {exc}.",
            hint="Fix the user and password in REDIS_URL, or unset REDIS_URL to use the "
            "embedded store.",
        ) from exc
    except (RedisConnectionError, RedisTimeoutError) as exc:
        raise BackendUnavailableError(
            f"Redis at {where} cannot be reached while {doing}: {exc}.",
            hint="Check that Redis is running and that REDIS_URL points to it, or unset "
            "REDIS_URL to keep conversations in the embedded store under MANDA_HOME.",
        ) from exc
    except RedisError as exc:
        raise BackendUnavailableError(
            f"Redis at {where} failed while {doing}: {exc}.",
            hint="Check the server's log; REDIS_URL must point to a Redis 6.2+ server.",
        ) from exc
    if task is not None and task.cancelling() > cancels_before:
        raise asyncio.CancelledError


class RedisConversationMemory:
    """Conversations as JSON strings with a sliding TTL; event ids as `SET NX` keys.

    Network errors are retried (3 times, exponential backoff) only when they are connection
    errors, which fail fast; a read that times out is not retried, so an operation on a hung
    server fails after about `socket_timeout` seconds instead of four times that. With a
    `breaker` (the app's "Redis" breaker), a Redis that keeps failing is not called at all until
    it may be back: callers get `CircuitOpenError` at once instead of waiting on timeouts.
    """

    name = "redis"
    shared_across_processes = True

    def __init__(
        self,
        url: str,
        *,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        key_prefix: str = "manda:",
        socket_timeout: float = 2.0,
        breaker: CircuitBreaker | None = None,
        on_error: Callable[[BaseException], object] | None = None,
        max_traces: int = MAX_TRACES,
        max_trace_bytes: int = MAX_TRACE_BYTES,
    ) -> None:
        if ttl_seconds < 1:
            raise ValueError("ttl_seconds must be at least 1 second")
        self.url = url
        self.ttl_seconds = ttl_seconds
        self.max_traces = max_traces
        self.max_trace_bytes = max_trace_bytes
        self.key_prefix = key_prefix
        self.socket_timeout = socket_timeout
        self._client: aioredis.Redis | None = None
        self._breaker = breaker
        self._on_error = on_error

    @property
    def client(self) -> aioredis.Redis:
        """The started client, shared with `RedisLock` so one pool serves both."""
        if self._client is None:
            raise RuntimeError("RedisConversationMemory is not started; call `await start()` first")
        return self._client

    def key(self, kind: str, ident: str) -> str:
        # Redis keys are binary-safe: any id (colons, spaces, emoji) is used as is.
        return f"{self.key_prefix}{kind}:{ident}"

    def errors(self, doing: str) -> AbstractContextManager[None]:
        return redis_errors(self.url, doing)

    async def start(self) -> None:
        if self._client is not None:
            return
        try:
            client = aioredis.from_url(
                self.url,
                socket_timeout=self.socket_timeout,
                socket_connect_timeout=self.socket_timeout,
                health_check_interval=HEALTH_CHECK_INTERVAL_SECONDS,
                retry=Retry(ExponentialBackoff(), 3, supported_errors=(RedisConnectionError,)),
                decode_responses=True,
            )
        except ValueError as exc:
            raise MandaError(
                f"REDIS_URL {redacted(self.url)!r} is not a Redis URL: {exc}.",
                hint="Use redis://host:6379/0 (or rediss:// for TLS), or unset REDIS_URL.",
            ) from exc
        self._client = client
        try:
            await self.ping()
        except BaseException:
            self._client = None
            await client.aclose()
            raise

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    async def guarded(
        self, doing: str, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any
    ) -> T:
        """`await fn(...)` inside the breaker, with its errors said as `errors(doing)` says them."""
        with self.errors(doing):
            try:
                if self._breaker is None:
                    return await fn(*args, **kwargs)
                return await self._breaker.call(fn, *args, **kwargs)
            except RedisError as exc:
                if self._on_error is not None:
                    self._on_error(exc)
                raise

    async def ping(self) -> None:
        await self.guarded("checking the connection", self.client.ping)

    async def load(self, conversation_id: str) -> Conversation | None:
        key = self.key("conv", conversation_id)
        raw = await self.guarded(f"loading conversation {conversation_id}", self.client.get, key)
        if raw is None:
            return None
        try:
            return Conversation.model_validate_json(raw)
        except ValidationError as exc:
            # Short-term context is disposable: a stale shape starts the conversation afresh.
            log.warning("Dropping unreadable conversation %s from Redis: %s", conversation_id, exc)
            return None

    async def save(self, conversation: Conversation) -> None:
        body = conversation.model_dump_json()
        key = self.key("conv", conversation.id)
        traces, order = self._trace_keys(conversation.id)

        async def save() -> None:
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.set(key, body, ex=self.ttl_seconds)
                pipe.expire(traces, self.ttl_seconds)  # its answers' traces live as long
                pipe.expire(order, self.ttl_seconds)
                await pipe.execute()

        await self.guarded(f"saving conversation {conversation.id}", save)

    def _trace_keys(self, conversation_id: str) -> tuple[str, str]:
        # one hash tag: both keys in the same slot of a Redis Cluster, as the script needs
        tag = "{" + conversation_id.replace("{", "(").replace("}", ")") + "}"
        return self.key("traces", tag), self.key("trace-order", tag)

    async def save_trace(self, trace: AnswerTrace) -> None:
        """Keep the trace beside its conversation: the newest `max_traces`, the same expiry."""
        body = trace.fitted(self.max_trace_bytes).model_dump_json()
        traces, order = self._trace_keys(trace.conversation_id)
        await self.guarded(
            f"saving the trace of answer {trace.answer_id}", self.client.eval, _SAVE_TRACE, 2,
            traces, order, trace.answer_id, body, self.max_traces, self.ttl_seconds,
        )

    async def load_trace(self, conversation_id: str, answer_id: str) -> AnswerTrace | None:
        traces, _ = self._trace_keys(conversation_id)
        raw = await self.guarded(f"loading the trace of answer {answer_id}", self.client.hget,
                                 traces, answer_id)
        if raw is None:
            return None
        try:
            return AnswerTrace.model_validate_json(raw)
        except ValidationError as exc:
            log.warning("Dropping unreadable trace %s from Redis: %s", answer_id, exc)
            return None

    async def seen_event(self, event_id: str, ttl_seconds: int = 900) -> bool:
        """True when the event was recorded before (by any worker), else record it now."""
        key = self.key("event", event_id)
        return not await self.claim(key, secrets.token_hex(16), px=max(1, ttl_seconds) * 1000)

    async def claim(self, key: str, token: str, *, px: int) -> bool:
        """`SET key token NX PX`; True when this token holds the key.

        A connection error after the server applied the SET makes the client retry it; the retry
        then finds the key taken. Reading the token back tells our own earlier attempt apart from
        another worker's, so a retried claim is still ours and no event is dropped.
        """

        async def claim() -> bool:
            if await self.client.set(key, token, nx=True, px=px):
                return True
            return await self.client.get(key) == token

        return await self.guarded(f"claiming {key}", claim)
