"""Redis down: answers still come, without thread memory, and each thread is told once.

The sample deals are answered with conversation memory on a real redis-server; the server is
stopped mid-conversation and started again. The "Redis" breaker runs on a clock the test moves.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fixtures.redis_server import RedisServer
from fixtures.resilience import Clock, external_call_errors

from manda.agent.context import AgentContext
from manda.agent.degraded import MEMORY_NOTICE
from manda.agent.service import AnswerService
from manda.app import Manda
from manda.config import Settings
from manda.errors import BackendUnavailableError
from manda.memory.embedded import SqliteConversationMemory
from manda.memory.port import Conversation
from manda.resilience import BreakerRegistry, BreakerState

DEAL = "targetco"
THREAD = "slack:T1:C1:1730000000.000100"
OTHER_THREAD = "slack:T1:C1:1730000000.000200"
THIRD_THREAD = "slack:T1:C2:1730000000.000300"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def app(home_copy: Path, redis_url: str, redis_server: RedisServer,
              clock: Clock) -> AsyncIterator[Manda]:
    settings = Settings(MANDA_HOME=home_copy, REDIS_URL=redis_url)
    async with Manda(settings, breakers=BreakerRegistry(clock=clock)) as manda:
        yield manda
    redis_server.start()  # for the tests after this one


def errors_counted(app: Manda, service: str) -> float:
    return sum(external_call_errors(app.metrics, service).values())


@pytest.mark.redis
async def test_answers_go_on_without_memory_and_each_thread_is_told_once(
    app: Manda, redis_server: RedisServer, clock: Clock
) -> None:
    before = await app.answers.ask(DEAL, "What was Q3 2024 revenue?", conversation_id=THREAD)
    assert before.notices == [] and "€5.2M" in before.answer

    redis_server.stop()
    down = await app.answers.ask(DEAL, "What was Q3 2024 EBITDA?", conversation_id=THREAD)
    assert down.notices == [MEMORY_NOTICE]
    assert down.answer.startswith("EBITDA was €1.1M in Q3 2024")
    assert down.citations and down.conversation_id == THREAD

    again = await app.answers.ask(DEAL, "How many employees are there?", conversation_id=THREAD)
    assert again.notices == []  # told once per thread
    assert "156" in again.answer
    other = await app.answers.ask(DEAL, "Who is the CEO?", conversation_id=OTHER_THREAD)
    assert other.notices == [MEMORY_NOTICE]
    assert "Anna Schmidt" in other.answer

    # each question's read failed; after five in a row the breaker opens and reads fail fast
    redis = app.breakers.get("Redis")
    for thread in (OTHER_THREAD, THIRD_THREAD):
        assert redis.state is BreakerState.CLOSED
        later = await app.answers.ask(DEAL, "What was Q3 2024 revenue?", conversation_id=thread)
        assert later.notices == ([MEMORY_NOTICE] if thread == THIRD_THREAD else [])
    assert redis.state is BreakerState.OPEN
    assert errors_counted(app, "Redis") == redis.failure_threshold
    refused = await app.answers.ask(DEAL, "Who is the CFO?", conversation_id=THIRD_THREAD)
    assert refused.notices == [] and "Thomas Müller" in refused.answer
    assert errors_counted(app, "Redis") == redis.failure_threshold  # not even tried

    redis_server.start()  # back, and empty: this server keeps nothing on disk
    clock.now += redis.reset_timeout  # the breaker lets a trial call through
    fresh = await app.answers.ask(DEAL, "What was Q3 2024 revenue?", conversation_id=THREAD)
    assert fresh.notices == [] and redis.state is BreakerState.CLOSED
    follow = await app.answers.ask(DEAL, "And EBITDA?", conversation_id=THREAD)
    assert follow.notices == []
    assert follow.answer.startswith("For Q3 2024, EBITDA was €1.1M")  # memory works again



class ForgetfulMemory(SqliteConversationMemory):
    """The embedded memory, except that reads fail while `down` (as a Redis timing out does)."""

    down = False

    async def load(self, conversation_id: str) -> Conversation | None:
        if self.down:
            raise BackendUnavailableError("Redis at redis://127.0.0.1:6379/0 timed out.")
        return await super().load(conversation_id)


async def test_an_unreadable_thread_is_not_overwritten_by_a_blank_one(
    home_copy: Path, tmp_path: Path
) -> None:
    memory = ForgetfulMemory(tmp_path / "memory.db")
    async with Manda(Settings(MANDA_HOME=home_copy)) as app:
        await memory.start()
        context = AgentContext(graph=app.graph, search=app.search, memory=memory)
        answers = AnswerService(context)
        await answers.ask(DEAL, "What was Q3 2024 revenue?", conversation_id=THREAD)
        kept = await memory.load(THREAD)

        memory.down = True
        blind = await answers.ask(DEAL, "Who is the CEO?", conversation_id=THREAD)
        assert blind.notices == [MEMORY_NOTICE]
        memory.down = False
        assert await memory.load(THREAD) == kept  # the thread's context survived the outage
        follow = await answers.ask(DEAL, "And EBITDA?", conversation_id=THREAD)
        assert follow.answer.startswith("For Q3 2024, EBITDA was €1.1M")
        await memory.aclose()
