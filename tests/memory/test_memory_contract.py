"""The contract every ConversationMemory and every lock keeps, on Redis and embedded."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from manda.memory.embedded import SqliteConversationMemory
from manda.memory.locks import (
    EventGate,
    LocalLock,
    LockNotAcquiredError,
    MemoryEventGate,
    RedisLock,
)
from manda.memory.port import (
    MAX_MESSAGES,
    Conversation,
    ConversationMemory,
    Message,
    ResolvedContext,
)
from manda.memory.redis import RedisConversationMemory


@dataclass
class Backend:
    name: str
    make: Callable[..., ConversationMemory]


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.redis), "embedded"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        return Backend("redis", lambda **kw: RedisConversationMemory(url, **kw))
    path = tmp_path / "home" / "memory.db"
    return Backend("embedded", lambda **kw: SqliteConversationMemory(path, **kw))


@pytest.fixture
async def memory(backend: Backend) -> AsyncIterator[ConversationMemory]:
    store = backend.make()
    await store.start()
    yield store
    await store.aclose()


def thread(conversation_id: str = "slack:T1:C1:1700000000.000100") -> Conversation:
    return Conversation(id=conversation_id, deal_id="falcon")


async def test_adapters_satisfy_the_port(memory: ConversationMemory, backend: Backend) -> None:
    assert isinstance(memory, ConversationMemory)
    assert memory.name == backend.name
    assert memory.shared_across_processes is (backend.name == "redis")
    await memory.ping()


async def test_round_trip(memory: ConversationMemory) -> None:
    conversation = thread()
    conversation.remember(Message(role="user", text="What was Q3 revenue?"))
    conversation.remember(Message(role="assistant", text="€12.4m (source: Q3_Report.pdf, p.12)"))
    conversation.context = ResolvedContext(
        subject="revenue", period="Q3 2024", intent="fact_lookup"
    )

    await memory.save(conversation)

    assert await memory.load(conversation.id) == conversation


async def test_unknown_conversation_is_none(memory: ConversationMemory) -> None:
    assert await memory.load("slack:T1:C1:never-seen") is None


async def test_only_the_last_ten_messages_are_kept(memory: ConversationMemory) -> None:
    conversation = thread()
    for n in range(MAX_MESSAGES + 3):
        conversation.remember(Message(role="user", text=f"question {n}"))
    await memory.save(conversation)

    loaded = await memory.load(conversation.id)
    assert loaded is not None
    assert [m.text for m in loaded.messages] == [f"question {n}" for n in range(3, 13)]

    loaded.remember(Message(role="assistant", text="answer 13"))
    await memory.save(loaded)
    again = await memory.load(conversation.id)
    assert again is not None
    assert len(again.messages) == MAX_MESSAGES
    assert [again.messages[0].text, again.messages[-1].text] == ["question 4", "answer 13"]


async def test_resolved_context_is_replaced_on_save(memory: ConversationMemory) -> None:
    conversation = thread()
    conversation.context = ResolvedContext(subject="revenue", period="Q3 2024")
    await memory.save(conversation)

    conversation.context = ResolvedContext(subject="EBITDA", period="Q3 2024", entity="Falcon GmbH")
    await memory.save(conversation)

    loaded = await memory.load(conversation.id)
    assert loaded is not None
    assert loaded.context == ResolvedContext(
        subject="EBITDA", period="Q3 2024", entity="Falcon GmbH"
    )


async def test_the_thread_constraints_are_kept(memory: ConversationMemory) -> None:
    """"Only audited documents, in € millions" holds for the follow-ups of the thread."""
    from manda.agent.constraints import Constraints, parse_constraints

    _, constraints, _ = parse_constraints("Revenue FY2023, only audited documents, in € millions, "
                                          "as of 30 June 2024")
    conversation = thread()
    conversation.context = ResolvedContext(subject="revenue", constraints=constraints.to_json())
    await memory.save(conversation)

    loaded = await memory.load(conversation.id)
    assert loaded is not None
    assert Constraints.from_json(loaded.context.constraints).items == constraints.items


ODD_IDS = [
    "slack:T1:C1:1700000000.000100",
    "slack:T1:C1",
    "slack:T1:C1:1",
    "",
    "with space\nand newline\tand tab",
    "ünïcødé/ディール/🚀",
    "glob*?[chars]{}",
    "quote'\"back\\slash%s%d",
    "nul\x00byte",
    "x" * 2000,
]


async def test_any_conversation_id_is_its_own_key(memory: ConversationMemory) -> None:
    for n, conversation_id in enumerate(ODD_IDS):
        conversation = Conversation(id=conversation_id, deal_id=f"deal-{n}")
        conversation.remember(Message(role="user", text=f"message for {n}"))
        await memory.save(conversation)

    for n, conversation_id in enumerate(ODD_IDS):
        loaded = await memory.load(conversation_id)
        assert loaded is not None, repr(conversation_id)
        assert (loaded.id, loaded.deal_id) == (conversation_id, f"deal-{n}")
        assert [m.text for m in loaded.messages] == [f"message for {n}"]


async def test_seen_event_is_false_once_then_true(memory: ConversationMemory) -> None:
    assert await memory.seen_event("Ev01ABC") is False
    assert await memory.seen_event("Ev01ABC") is True
    assert await memory.seen_event("Ev01ABC", ttl_seconds=60) is True
    assert await memory.seen_event("Ev02DEF") is False
    assert await memory.seen_event("Ev:odd id/🚀") is False
    assert await memory.seen_event("Ev:odd id/🚀") is True


async def test_one_first_sighting_among_concurrent_workers(
    memory: ConversationMemory, backend: Backend
) -> None:
    other = backend.make()  # a second worker: its own connection pool, or its own SQLite handle
    await other.start()
    try:
        results = await asyncio.gather(
            *((memory if n % 2 else other).seen_event("Ev-retried") for n in range(20))
        )
    finally:
        await other.aclose()
    assert sorted(results) == [False] + [True] * 19


async def test_conversations_survive_a_restart(
    memory: ConversationMemory, backend: Backend
) -> None:
    conversation = thread()
    conversation.remember(Message(role="user", text="And EBITDA?"))
    conversation.context = ResolvedContext(period="Q3 2024")
    await memory.save(conversation)
    assert await memory.seen_event("Ev-before-restart") is False
    await memory.aclose()

    successor = backend.make()
    await successor.start()
    try:
        assert await successor.load(conversation.id) == conversation
        assert await successor.seen_event("Ev-before-restart") is True
    finally:
        await successor.aclose()

    await memory.start()  # the same instance opens again after aclose()
    assert await memory.load(conversation.id) == conversation


async def test_calls_before_start_say_what_to_do(backend: Backend) -> None:
    store = backend.make()
    with pytest.raises(RuntimeError, match=r"await start\(\)"):
        await store.load("slack:T1:C1:1")
    await store.aclose()  # closing what never started is harmless


async def test_event_gate_over_memory(memory: ConversationMemory) -> None:
    gate = MemoryEventGate(memory)
    assert isinstance(gate, EventGate)
    assert await gate.first_time("answer:Ev01", 900) is True
    assert await gate.first_time("answer:Ev01", 900) is False
    assert await memory.seen_event("answer:Ev01") is True


# -- expiry ----------------------------------------------------------------------------------


@pytest.mark.redis
async def test_redis_keys_carry_their_ttl(redis_url: str, redis_server) -> None:
    store = RedisConversationMemory(redis_url, ttl_seconds=3600)
    await store.start()
    try:
        conversation = thread()
        await store.save(conversation)
        await store.seen_event("Ev01", ttl_seconds=900)
    finally:
        await store.aclose()

    with redis_server.client() as client:
        conversation_key = f"manda:conv:{conversation.id}"
        assert 0 < client.ttl(conversation_key) <= 3600
        assert 0 < client.ttl("manda:event:Ev01") <= 900

        client.expire(conversation_key, 5)  # nearly expired; the next save renews it
        store = RedisConversationMemory(redis_url, ttl_seconds=3600)
        await store.start()
        try:
            await store.save(conversation)
        finally:
            await store.aclose()
        assert client.ttl(conversation_key) > 5


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_embedded_rows_expire_and_saves_renew_them(tmp_path: Path) -> None:
    clock = Clock()
    store = SqliteConversationMemory(tmp_path / "memory.db", ttl_seconds=3600, clock=clock)
    await store.start()
    try:
        conversation = thread()
        await store.save(conversation)
        assert await store.seen_event("Ev01", ttl_seconds=900) is False

        clock.now += 901
        assert await store.seen_event("Ev01", ttl_seconds=900) is False  # forgotten, so new again
        clock.now += 2000
        await store.save(conversation)  # renews the conversation's TTL
        clock.now += 3000
        assert await store.load(conversation.id) == conversation
        clock.now += 601
        assert await store.load(conversation.id) is None
    finally:
        await store.aclose()


async def test_embedded_purges_expired_rows(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "memory.db"
    store = SqliteConversationMemory(path, ttl_seconds=60, clock=clock)
    await store.start()
    try:
        await store.save(thread("old"))
        await store.seen_event("Ev-old", ttl_seconds=60)
        clock.now += 3600
        await store.save(thread("new"))
    finally:
        await store.aclose()

    with sqlite3.connect(path) as db:
        assert db.execute("SELECT id FROM conversations").fetchall() == [("new",)]
        assert db.execute("SELECT id FROM seen_events").fetchall() == []
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


async def test_embedded_drops_an_unreadable_conversation(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    store = SqliteConversationMemory(path)
    await store.start()
    try:
        with sqlite3.connect(path) as db:
            db.execute(
                "INSERT INTO conversations (id, body, expires_at) VALUES (?, ?, ?)",
                ("c1", '{"no": 1}', 9e12),
            )
        assert await store.load("c1") is None
        await store.save(thread("c1"))
        assert await store.load("c1") == thread("c1")
    finally:
        await store.aclose()


def test_embedded_default_lives_in_manda_home(tmp_path: Path) -> None:
    assert SqliteConversationMemory.in_home(tmp_path).path == tmp_path / "memory.db"


# -- locks -----------------------------------------------------------------------------------


@dataclass
class Workers:
    """Two workers' locks on the same names (for LocalLock: one process, one lock)."""

    a: RedisLock | LocalLock
    b: RedisLock | LocalLock


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.redis), "local"])
async def workers(request: pytest.FixtureRequest) -> AsyncIterator[Workers]:
    if request.param == "local":
        lock = LocalLock()
        yield Workers(lock, lock)
        return
    url = request.getfixturevalue("redis_url")
    first, second = RedisConversationMemory(url), RedisConversationMemory(url)
    await first.start()
    await second.start()
    try:
        yield Workers(RedisLock(first), RedisLock(second))
    finally:
        await first.aclose()
        await second.aclose()


async def test_a_held_lock_excludes_another_holder(workers: Workers) -> None:
    async with workers.a("answer:C1:1700000000.000100", timeout=30):
        with pytest.raises(LockNotAcquiredError, match=re.escape("answer:C1:1700000000.000100")):
            async with workers.b("answer:C1:1700000000.000100", timeout=30, wait=0):
                pytest.fail("two holders of one lock")
        async with workers.b("answer:C1:other-thread", timeout=30, wait=0):
            pass  # another name is free

    async with workers.b("answer:C1:1700000000.000100", timeout=30, wait=0):
        pass  # free again once the first holder left


async def test_concurrent_holders_take_turns(workers: Workers) -> None:
    inside = 0
    most_inside = 0
    finished: list[int] = []

    async def work(n: int) -> None:
        nonlocal inside, most_inside
        lock = workers.a if n % 2 else workers.b
        async with lock("ingest:falcon:Q3_Report.pdf", timeout=30, wait=30):
            inside += 1
            most_inside = max(most_inside, inside)
            for _ in range(3):
                await asyncio.sleep(0)
            inside -= 1
            finished.append(n)

    await asyncio.gather(*(work(n) for n in range(6)))

    assert most_inside == 1
    assert sorted(finished) == list(range(6))


async def test_release_by_a_stranger_changes_nothing(workers: Workers) -> None:
    token = await workers.a.acquire("qa:falcon", timeout=30)

    assert await workers.b.release("qa:falcon", "not-the-owners-token") is False
    with pytest.raises(LockNotAcquiredError):
        await workers.b.acquire("qa:falcon", timeout=30, wait=0)

    assert await workers.a.release("qa:falcon", token) is True
    assert await workers.a.release("qa:falcon", token) is False  # twice is a no-op
    second = await workers.b.acquire("qa:falcon", timeout=30, wait=0)
    assert await workers.b.release("qa:falcon", second) is True


async def test_a_failing_block_still_releases(workers: Workers) -> None:
    with pytest.raises(ValueError, match="boom"):
        async with workers.a("review:F1", timeout=30):
            raise ValueError("boom")
    async with workers.b("review:F1", timeout=30, wait=0):
        pass


async def test_a_cancelled_waiter_leaves_the_lock_usable(workers: Workers) -> None:
    entered = asyncio.Event()

    async def waiter() -> None:
        async with workers.b("deal:falcon", timeout=30, wait=30):
            entered.set()

    async with workers.a("deal:falcon", timeout=30):
        task = asyncio.create_task(waiter())
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert not entered.is_set()
    async with workers.b("deal:falcon", timeout=30, wait=0):
        pass
