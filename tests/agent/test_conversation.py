"""Conversations: follow-ups inherit, ambiguity asks, a new topic starts fresh; memory is a port."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from room import DEAL, OTHER, Q3, Room, open_room

from manda.agent.context import AgentContext
from manda.agent.service import AnswerService
from manda.answers import Intent
from manda.memory.embedded import SqliteConversationMemory
from manda.memory.locks import RedisLock
from manda.memory.port import Conversation, ConversationMemory
from manda.memory.redis import RedisConversationMemory


@pytest.fixture(params=["sqlite", "redis"])
async def chat_room(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Room]:
    memory: ConversationMemory
    if request.param == "redis":
        memory = RedisConversationMemory(request.getfixturevalue("redis_url"))
    else:
        memory = SqliteConversationMemory(tmp_path / "memory.db")
    opened = await open_room(tmp_path, memory)
    try:
        yield opened
    finally:
        await opened.memory.aclose()
        await opened.graph.aclose()


async def test_clear_follow_up_inherits_and_states_the_period(chat_room: Room) -> None:
    service = chat_room.service()
    first = await service.ask(DEAL, "What was Q3 revenue?", conversation_id="slack:T:C:1")
    assert "Q3 2024" in first.answer
    follow = await service.ask(DEAL, "And EBITDA?", conversation_id="slack:T:C:1")
    assert follow.answer.startswith(f"For Q3 2024, EBITDA was €1.1M (source: {Q3}, p.1)")
    assert follow.conversation_id == "slack:T:C:1"
    saved = await chat_room.memory.load("slack:T:C:1")
    assert saved is not None and saved.deal_id == DEAL
    assert (saved.context.subject, saved.context.period) == ("ebitda", "Q3 2024")
    assert [m.role for m in saved.messages] == ["user", "assistant"] * 2


async def test_ambiguous_follow_up_asks_then_uses_the_reply(chat_room: Room) -> None:
    service = chat_room.service()
    conv = "slack:T:C:2"
    await service.ask(DEAL, "What was Q3 2024 EBITDA?", conversation_id=conv)
    ask_back = await service.ask(DEAL, "What about last year?", conversation_id=conv)
    assert ask_back.intent is Intent.CLARIFICATION
    assert ask_back.answer == "Do you mean Q3 2023 (same quarter) or FY2023 (full year) for EBITDA?"
    assert ask_back.citations == []
    reply = await service.ask(DEAL, "The full year", conversation_id=conv)
    assert reply.answer.startswith("For FY2023, EBITDA was EUR 2.9 million")
    assert "corrected" in reply.answer


async def test_topic_shift_starts_fresh(chat_room: Room) -> None:
    service = chat_room.service()
    conv = "slack:T:C:3"
    await service.ask(DEAL, "What was Q3 2023 revenue?", conversation_id=conv)
    shifted = await service.ask(DEAL, "What is the headcount?", conversation_id=conv)
    assert not shifted.answer.startswith("For ")
    assert "156" in shifted.answer
    saved = await chat_room.memory.load(conv)
    assert saved is not None and saved.context.subject == "headcount"


async def test_only_the_last_ten_messages_are_kept(chat_room: Room) -> None:
    service = chat_room.service()
    conv = "slack:T:C:4"
    for n in range(6):
        await service.ask(DEAL, f"What was Q{1 + n % 3} 2024 revenue?", conversation_id=conv)
    saved = await chat_room.memory.load(conv)
    assert saved is not None and len(saved.messages) == 10
    assert saved.messages[-2].text == "What was Q3 2024 revenue?"


async def test_a_conversation_never_carries_context_into_another_deal(chat_room: Room) -> None:
    service = chat_room.service()
    conv = "slack:T:C:5"
    await service.ask(DEAL, "What was Q3 2024 revenue?", conversation_id=conv)
    other = await service.ask(OTHER, "And EBITDA?", conversation_id=conv)
    assert "For Q3 2024" not in other.answer and "€" not in other.answer


async def test_context_persists_across_service_instances(tmp_path: Path) -> None:
    room = await open_room(tmp_path)
    try:
        await room.service().ask(DEAL, "What was Q3 revenue?", conversation_id="cli:x")
        again = await room.service().ask(DEAL, "And EBITDA?", conversation_id="cli:x")
        assert again.answer.startswith("For Q3 2024,")
    finally:
        await room.memory.aclose()
        await room.graph.aclose()


class RacingMemory:
    """A memory whose first `racers` loads wait for each other: the answers all read the thread
    before any of them writes it, the interleaving that loses a turn without a lock."""

    def __init__(self, inner: ConversationMemory, barrier: asyncio.Barrier, racers: int) -> None:
        self._inner = inner
        self._barrier = barrier
        self._racers = racers
        self.name = inner.name
        self.shared_across_processes = inner.shared_across_processes

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    async def load(self, conversation_id: str) -> Conversation | None:
        found = await self._inner.load(conversation_id)
        if self._racers > 0:
            self._racers -= 1
            await self._barrier.wait()
        return found


async def test_two_answers_at_once_in_one_thread_keep_both_turns(chat_room: Room,
                                                                 tmp_path: Path) -> None:
    barrier = asyncio.Barrier(2)
    thread = "slack:T1:C1:1700000000.000100"
    if isinstance(chat_room.memory, RedisConversationMemory):
        # two workers: each its own Redis client, and the lock across them is in Redis
        other = RedisConversationMemory(chat_room.memory.url)
        await other.start()
        stores = [chat_room.memory, other]
        services = [AnswerService(AgentContext(
            graph=chat_room.graph, search=chat_room.search,
            memory=RacingMemory(store, barrier, 1), lock=RedisLock(store)))  # type: ignore[arg-type]
            for store in stores]
    else:  # one process: one service, its in-process lock
        other = None
        services = [chat_room.service()] * 2
        services[0].context.memory = RacingMemory(chat_room.memory, barrier, 2)  # type: ignore[assignment]
    questions = ["What was revenue in Q3 2023?", "Who is the CFO?"]
    await asyncio.gather(*(s.ask(DEAL, q, conversation_id=thread)
                           for s, q in zip(services, questions, strict=True)))
    if other is not None:
        await other.aclose()
    stored = await chat_room.memory.load(thread)
    assert stored is not None
    asked = [m.text for m in stored.messages if m.role == "user"]
    assert sorted(asked) == sorted(questions)
    assert len(stored.messages) == 4
