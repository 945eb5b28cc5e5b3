"""Answers' traces kept with their conversation, on Redis and embedded: by answer id, the last N,
each within a size cap, and gone when the conversation expires."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from manda.memory.embedded import SqliteConversationMemory
from manda.memory.port import Conversation, ConversationMemory
from manda.memory.redis import RedisConversationMemory
from manda.traces import AnswerTrace, TracePassage

THREAD = "slack:T1:C1:1700000000.000100"


def trace(answer_id: str, conversation_id: str = THREAD, **extra: object) -> AnswerTrace:
    return AnswerTrace(answer_id=answer_id, conversation_id=conversation_id, deal_id="falcon",
                       question="What was Q3 revenue?", at="2024-11-01T10:00:00+00:00",
                       intent="fact_lookup", **extra)  # type: ignore[arg-type]


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.redis), "embedded"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., ConversationMemory]:
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        return lambda **kw: RedisConversationMemory(url, key_prefix=f"t{id(tmp_path)}:", **kw)
    return lambda **kw: SqliteConversationMemory(tmp_path / "memory.db", **kw)


async def test_a_trace_is_found_by_its_answer_and_conversation(
        make: Callable[..., ConversationMemory]) -> None:
    memory = make()
    await memory.start()
    try:
        await memory.save(Conversation(id=THREAD, deal_id="falcon"))
        kept = trace("a1", plan=["offline plan: find_gaps()"])
        await memory.save_trace(kept)
        assert await memory.load_trace(THREAD, "a1") == kept
        assert await memory.load_trace(THREAD, "nope") is None
        assert await memory.load_trace("slack:T1:C1:other", "a1") is None
    finally:
        await memory.aclose()


async def test_only_the_latest_answers_keep_their_trace(
        make: Callable[..., ConversationMemory]) -> None:
    memory = make(max_traces=3)
    await memory.start()
    try:
        for n in range(5):
            await memory.save_trace(trace(f"a{n}"))
        await memory.save_trace(trace("other", conversation_id="slack:T1:C2:1"))
        found = [await memory.load_trace(THREAD, f"a{n}") for n in range(5)]
        assert [t is not None for t in found] == [False, False, True, True, True]
        assert await memory.load_trace("slack:T1:C2:1", "other") is not None
    finally:
        await memory.aclose()


async def test_a_large_trace_is_cut_to_the_cap_and_says_so(
        make: Callable[..., ConversationMemory]) -> None:
    memory = make(max_trace_bytes=6_000)
    await memory.start()
    try:
        passages = [TracePassage(document=f"doc{n}.pdf", location=f"p.{n}", score=0.5,
                                 channels=["vector", "bm25"], excerpt="x" * 150)
                    for n in range(200)]
        await memory.save_trace(trace("big", passages=passages))
        kept = await memory.load_trace(THREAD, "big")
        assert kept is not None and kept.size() <= 6_000
        assert kept.passages and len(kept.passages) < 200
        assert any(cut.startswith("passages: first") for cut in kept.truncated)
    finally:
        await memory.aclose()


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_embedded_traces_expire_with_their_conversation(tmp_path: Path) -> None:
    clock = Clock()
    memory = SqliteConversationMemory(tmp_path / "memory.db", ttl_seconds=3600, clock=clock)
    await memory.start()
    try:
        await memory.save(Conversation(id=THREAD, deal_id="falcon"))
        await memory.save_trace(trace("a1"))
        clock.now += 3000
        await memory.save(Conversation(id=THREAD, deal_id="falcon"))  # the thread goes on
        clock.now += 3000
        assert await memory.load_trace(THREAD, "a1") is not None  # renewed with it
        clock.now += 601
        assert await memory.load(THREAD) is None
        assert await memory.load_trace(THREAD, "a1") is None
    finally:
        await memory.aclose()


@pytest.mark.redis
async def test_redis_traces_carry_the_conversation_ttl(redis_url: str, redis_server) -> None:
    memory = RedisConversationMemory(redis_url, ttl_seconds=3600, key_prefix="ttl:")
    await memory.start()
    try:
        await memory.save(Conversation(id=THREAD, deal_id="falcon"))
        await memory.save_trace(trace("a1"))
    finally:
        await memory.aclose()
    with redis_server.client() as client:
        keys = [k.decode() if isinstance(k, bytes) else k for k in client.keys("ttl:trace*")]
        assert len(keys) == 2  # the traces and their order, under one hash tag
        for key in keys:
            assert 3500 < client.ttl(key) <= 3600
            assert "{" + THREAD + "}" in key
