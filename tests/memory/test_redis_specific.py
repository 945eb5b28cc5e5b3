"""What only the Redis memory does: fail clearly when Redis is gone, recover when it is back."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import pytest
from fixtures.redis_server import RedisServer, free_port

from manda.errors import BackendUnavailableError, MandaError
from manda.memory.locks import RedisLock
from manda.memory.port import Conversation, Message
from manda.memory.redis import RedisConversationMemory, redacted

pytestmark = pytest.mark.redis


@pytest.fixture
async def memory(redis_url: str) -> AsyncIterator[RedisConversationMemory]:
    store = RedisConversationMemory(redis_url, socket_timeout=0.5)
    await store.start()
    yield store
    await store.aclose()


def thread() -> Conversation:
    conversation = Conversation(id="slack:T1:C1:1700000000.000100", deal_id="falcon")
    conversation.remember(
        Message(role="user", text="What was Q3 revenue?", at="2024-11-04T09:00:00+00:00")
    )
    return conversation


async def test_stopped_server_fails_clearly_and_the_client_recovers(
    memory: RedisConversationMemory, redis_server: RedisServer
) -> None:
    await memory.save(thread())

    redis_server.stop()
    for call in (memory.load(thread().id), memory.save(thread()), memory.seen_event("Ev1")):
        with pytest.raises(BackendUnavailableError) as failure:
            await call
        message = str(failure.value)
        assert redis_server.url in message
        assert "REDIS_URL" in message
        assert "cannot be reached" in message

    redis_server.start()  # same port, empty: the server keeps nothing on disk
    assert await memory.load(thread().id) is None
    await memory.save(thread())
    assert await memory.load(thread().id) == thread()
    assert await memory.seen_event("Ev1") is False


async def test_hung_server_times_out_and_the_client_recovers(
    memory: RedisConversationMemory, redis_server: RedisServer
) -> None:
    await memory.save(thread())

    redis_server.pause()
    try:
        with pytest.raises(BackendUnavailableError, match="REDIS_URL"):
            await memory.load(thread().id)
        with pytest.raises(BackendUnavailableError, match="REDIS_URL"):
            await memory.ping()
    finally:
        redis_server.resume()

    assert await memory.load(thread().id) == thread()


async def test_a_cancelled_call_stays_cancelled(memory: RedisConversationMemory) -> None:
    # Python 3.11's wait_for inside redis-py can swallow this cancel; the memory re-raises it.
    calls = 0

    async def handler() -> None:
        nonlocal calls
        for _ in range(5):
            await memory.save(thread())
            calls += 1

    task = asyncio.create_task(handler())
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert calls == 0


async def test_start_fails_clearly_when_nothing_listens() -> None:
    store = RedisConversationMemory(f"redis://127.0.0.1:{free_port()}/0", socket_timeout=0.5)
    with pytest.raises(BackendUnavailableError, match="REDIS_URL"):
        await store.start()
    with pytest.raises(RuntimeError, match="not started"):
        _ = store.client  # nothing half-open is left behind


async def test_errors_never_show_the_password() -> None:
    url = f"redis://worker:s3cret-pw@127.0.0.1:{free_port()}/0"
    store = RedisConversationMemory(url, socket_timeout=0.5)
    with pytest.raises(BackendUnavailableError) as failure:
        await store.start()
    assert "s3cret-pw" not in str(failure.value)
    assert "worker:***@127.0.0.1" in str(failure.value)
    assert redacted("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"


async def test_a_url_that_is_not_redis_names_redis_url() -> None:
    store = RedisConversationMemory("http://127.0.0.1:6379")
    expected = re.escape("REDIS_URL 'http://127.0.0.1:6379' is not a Redis URL")
    with pytest.raises(MandaError, match=expected):
        await store.start()


async def test_keys_use_the_prefix(redis_url: str, redis_server: RedisServer) -> None:
    store = RedisConversationMemory(redis_url, key_prefix="team-a:")
    await store.start()
    try:
        await store.save(thread())
        await store.seen_event("Ev1")
    finally:
        await store.aclose()
    with redis_server.client() as client:
        assert sorted(client.keys("*")) == [
            "team-a:conv:slack:T1:C1:1700000000.000100",
            "team-a:event:Ev1",
        ]


async def test_an_unreadable_conversation_starts_afresh(
    memory: RedisConversationMemory, redis_server: RedisServer
) -> None:
    with redis_server.client() as client:
        client.set("manda:conv:c1", "not json", ex=60)
    assert await memory.load("c1") is None


async def test_a_retried_claim_is_still_ours(memory: RedisConversationMemory) -> None:
    # The client retries a SET whose reply was lost; the retry must not read as "someone else".
    assert await memory.claim("manda:event:Ev9", "token-1", px=60_000) is True
    assert await memory.claim("manda:event:Ev9", "token-1", px=60_000) is True
    assert await memory.claim("manda:event:Ev9", "token-2", px=60_000) is False


async def test_lock_lease_is_set_in_redis(
    memory: RedisConversationMemory, redis_server: RedisServer
) -> None:
    lock = RedisLock(memory)
    async with lock("answer:Ev1", timeout=2.5):
        with redis_server.client() as client:
            assert 0 < client.pttl("manda:lock:answer:Ev1") <= 2500
    with redis_server.client() as client:
        assert client.exists("manda:lock:answer:Ev1") == 0


async def test_an_expired_holder_does_not_release_the_next_one(
    memory: RedisConversationMemory, redis_server: RedisServer
) -> None:
    lock = RedisLock(memory)
    first = await lock.acquire("ingest:falcon", timeout=30)
    with redis_server.client() as client:
        client.delete("manda:lock:ingest:falcon")  # what the lease's expiry does
    second = await lock.acquire("ingest:falcon", timeout=30, wait=0)

    assert await lock.release("ingest:falcon", first) is False
    with redis_server.client() as client:
        assert client.get("manda:lock:ingest:falcon") == second
    assert await lock.release("ingest:falcon", second) is True


async def test_lock_release_survives_a_lost_server(
    memory: RedisConversationMemory, redis_server: RedisServer
) -> None:
    lock = RedisLock(memory)
    with pytest.raises(ValueError, match="the block's own error"):
        async with lock("review:F1", timeout=30):
            redis_server.stop()
            raise ValueError("the block's own error")
    redis_server.start()
    async with lock("review:F1", timeout=30, wait=0):
        pass
