"""Faults over real HTTP: Slack's Web API refusing calls, Redis killed mid-run, the model failing.

Circuit breakers run on a clock the test moves, so "60 s later" needs no waiting; everything
else (retries, reconnects, fallbacks) is the bot's real code against real local servers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from fixtures.redis_server import RedisServer
from pydantic import SecretStr
from slackworld import SlackWorld, running_world

from bot.conversations import channel_key, conversation_id
from bot.deps import ANSWER_CONCURRENCY, SLACK_BREAKER
from bot.fakeslack import Channel, Message
from bot.fakeslack.faults import ApiFault, FaultySlack, rate_limited, server_error
from manda.agent.degraded import MEMORY_NOTICE
from manda.agent.graph import UNAVAILABLE_NOTICE
from manda.app import Manda
from manda.config import Settings
from manda.errors import BackendUnavailableError
from manda.observability.logging import ContextFilter
from manda.resilience.breaker import BreakerRegistry, BreakerState
from manda.testing import anthropic_server as model_api
from manda.testing.anthropic_server import (
    FakeAnthropicServer,
    RecordedRequest,
    Reply,
    Response,
    overloaded,
    text_reply,
)

QUESTION = "What was Q3 2024 revenue?"
BREAKER_RESET = 60.0
# mentions at once before and during the outage: twice the answer slots, so answers queue on
# both sides of the stop, and more than the Redis breaker's 5 failures, so it opens during the
# outage (`bench/slack_load.py` kills Redis in a 50-mention run and times the recovery)
WAVE = 2 * ANSWER_CONCURRENCY


class Clock:
    """Monotonic seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def faulty() -> AsyncIterator[FaultySlack]:
    async with FaultySlack() as server:
        yield server


def manda_with(settings: Settings, clock: Clock) -> Manda:
    return Manda(settings, breakers=BreakerRegistry(reset_timeout=BREAKER_RESET, clock=clock))


@pytest.fixture
async def faulty_world(
    home_copy: Path, faulty: FaultySlack, clock: Clock
) -> AsyncIterator[SlackWorld]:
    manda = manda_with(Settings(MANDA_HOME=home_copy), clock)
    async with manda, running_world(manda, faulty) as world:
        yield world
        await world.settle()


def only_reply(world: SlackWorld, question: Message) -> Message:
    [reply] = world.replies(world.fake.channel(question.channel), question.ts)
    return reply


async def ask(world: SlackWorld, channel: Channel | None = None, text: str = QUESTION) -> Message:
    question = await world.fake.mention(world.alice, channel or world.deal, text)
    await world.settle()
    return question


# ---------------------------------------------------------------- Slack's Web API


async def test_rate_limits_and_server_errors_are_retried(faulty_world: SlackWorld) -> None:
    fake: FaultySlack = faulty_world.fake  # type: ignore[assignment]
    fake.faults.script("chat.startStream", rate_limited(retry_after=0), server_error(503))
    question = await ask(faulty_world)

    answer = only_reply(faulty_world, question)
    assert "€5.2M" in answer.all_text()
    assert [f.status for f in fake.faults.refused("chat.startStream")] == [429, 503]
    # the third attempt went through: streamed, not the whole-message fallback
    assert len(faulty_world.ws.calls_to("chat.startStream", ok=True)) == 1


async def test_slack_refusing_past_the_retries_is_said_in_the_thread(
    faulty_world: SlackWorld,
) -> None:
    fake: FaultySlack = faulty_world.fake  # type: ignore[assignment]
    fake.features.streaming = False  # the answer goes out with chat.postMessage
    fake.faults.script("chat.postMessage", *[rate_limited(retry_after=0)] * 4)  # 1 + 3 retries
    question = await ask(faulty_world)

    reply = only_reply(faulty_world, question)
    text = reply.all_text()
    assert "could not answer that" in text and "rate-limiting" in text and "again" in text
    assert len(fake.faults.refused("chat.postMessage")) == 4


async def test_a_slack_outage_opens_the_breaker_logs_each_loss_and_recovers(
    faulty_world: SlackWorld, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    world = faulty_world
    fake: FaultySlack = world.fake  # type: ignore[assignment]
    caplog.handler.addFilter(ContextFilter())
    await ask(world)  # healthy first: Bolt has checked its token
    breaker = world.bot.deps.breakers.get(SLACK_BREAKER)

    # Slack answers every call with a transient error (not retried by the SDK: a 200 body)
    fake.faults.outage(ApiFault(status=200, error="internal_error"))
    lost = [await ask(world, text=f"{QUESTION} #{n}") for n in range(3)]
    assert breaker.state is BreakerState.OPEN
    refused_while_open = len(fake.faults.injected)
    last = await ask(world, text=f"{QUESTION} #3")
    assert len(fake.faults.injected) == refused_while_open  # nothing sent while it is open
    lost.append(last)

    # nobody could be told in Slack, so each loss is an error line naming its conversation
    for question in lost:
        assert world.replies(world.deal, question.ts) == []
        conversation = conversation_id(world.ws.team_id, world.deal.id, question.ts)
        said = [
            r for r in caplog.records
            if r.levelno >= logging.ERROR and r.context.get("conversation_id") == conversation
        ]
        assert said, f"no error logged for {conversation}"
    assert any("Slack" in r.getMessage() and "not called" in r.getMessage()
               for r in caplog.records)

    fake.faults.clear()
    clock.advance(BREAKER_RESET)
    recovered = await ask(world, text=f"{QUESTION} again")
    assert "€5.2M" in only_reply(world, recovered).all_text()
    assert breaker.state is BreakerState.CLOSED


# ---------------------------------------------------------------- Redis killed mid-run


async def test_redis_killed_and_restarted_mid_run_loses_nothing(
    home_copy: Path, redis_server: RedisServer, redis_url: str, clock: Clock
) -> None:
    settings = Settings(MANDA_HOME=home_copy, REDIS_URL=redis_url)
    manda = manda_with(settings, clock)
    async with manda, FaultySlack() as fake, running_world(manda, fake) as world:
        channels = [world.deal, *[
            world.ws.add_channel(f"deal-targetco-{n}", members=[world.alice.id])
            for n in range(4)
        ]]
        for channel in channels[1:]:
            await manda.graph.bind_channel(channel_key(world.ws.team_id, channel.id),
                                           "targetco")

        async def wave(count: int, label: str) -> list[Message]:
            questions = await asyncio.gather(*(
                world.fake.mention(world.alice, channels[n % len(channels)],
                                   f"{QUESTION} ({label} {n})")
                for n in range(count)
            ))
            await world.settle()
            return list(questions)

        try:
            before = await wave(WAVE, "before")
            await asyncio.to_thread(redis_server.stop)
            during = await wave(WAVE, "during")
            await asyncio.to_thread(redis_server.start)
            clock.advance(BREAKER_RESET)  # the Redis breaker lets a trial call through
            after = [await ask(world, text=f"{QUESTION} (after 0)"),
                     *await wave(WAVE // 2, "after")]
            follow_up_in = world.fake.channel(after[0].channel)
            await world.fake.say(world.alice, follow_up_in, "And EBITDA?",
                                 thread_ts=after[0].ts)
            await world.settle()
        finally:
            await asyncio.to_thread(redis_server.start)

        threads = {q.ts: world.replies(world.fake.channel(q.channel), q.ts)
                   for q in [*before, *during, *after]}
        asked = len(threads)
        assert asked == 2 * WAVE + 1 + WAVE // 2
        assert sorted(len(r) for r in threads.values()) == [1] * (asked - 1) + [2]  # + follow-up
        assert all("€5.2M" in replies[0].all_text() for replies in threads.values())
        told = [q for q in [*before, *during, *after]
                if MEMORY_NOTICE in threads[q.ts][0].all_text()]
        assert told == during  # each thread answered while Redis was down, told once
        # memory is back by itself: the follow-up continues the thread's conversation
        follow_up = threads[after[0].ts][1]
        assert "EBITDA" in follow_up.all_text() and "Q3 2024" in follow_up.all_text()
        assert len(world.ws.bot_messages()) == asked + 1
        assert manda.breakers.get("Redis").state is BreakerState.CLOSED


async def test_a_mention_while_the_redis_trial_is_in_flight_is_not_told_memory_is_down(
    home_copy: Path, redis_server: RedisServer, redis_url: str, clock: Clock
) -> None:
    """One mention is two events (app_mention and message), dispatched at once, and other
    threads ask at the same moment: when Redis is back and another call holds the half-open
    breaker's trial, this thread's memory calls wait for its verdict instead of being refused
    (they used to be, so the thread was told memory was down although Redis was back)."""
    manda = manda_with(Settings(MANDA_HOME=home_copy, REDIS_URL=redis_url), clock)
    async with manda, FaultySlack() as fake, running_world(manda, fake) as world:
        breaker = manda.breakers.get("Redis")
        try:
            await asyncio.to_thread(redis_server.stop)
            while breaker.state is not BreakerState.OPEN:
                with pytest.raises(BackendUnavailableError):
                    await manda.memory.ping()
        finally:
            await asyncio.to_thread(redis_server.start)
        clock.advance(BREAKER_RESET)
        verdict: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        trial = asyncio.create_task(breaker.call(lambda: verdict))  # another call's trial
        await asyncio.sleep(0)
        assert breaker.state is BreakerState.HALF_OPEN
        question = await world.fake.mention(world.alice, world.deal, QUESTION)
        await asyncio.sleep(0.5)  # its events' memory calls come while the trial is in flight
        verdict.set_result(None)  # Redis answered the trial
        await trial
        await world.settle()
        reply = only_reply(world, question).all_text()
        assert "€5.2M" in reply and MEMORY_NOTICE not in reply
        assert breaker.state is BreakerState.CLOSED


# ---------------------------------------------------------------- the model


def in_turn(*responses: Response) -> Callable[[RecordedRequest], Response]:
    """A model server handler answering with `responses` in turn, forever."""
    queue = list(responses)

    def handler(request: RecordedRequest) -> Response:
        response = queue.pop(0)
        queue.append(response)
        return response

    return handler


def model_settings(home: Path, server: FakeAnthropicServer) -> Settings:
    return Settings(
        MANDA_HOME=home,
        ANTHROPIC_API_KEY=SecretStr("test-key"),
        ANTHROPIC_BASE_URL=server.base_url,
        MANDA_MODEL_MAX_RETRIES=2,
        MANDA_MODEL_TIMEOUT=0.5,
    )


async def test_a_failing_model_is_retried_then_the_thread_gets_the_offline_answer(
    home_copy: Path, faulty: FaultySlack, clock: Clock
) -> None:
    failing = in_turn(  # 429, 529 and a timeout, in turn
        model_api.rate_limited(retry_after=0.001),
        overloaded(retry_after_ms=1),
        Reply(content=[{"type": "text", "text": "too late"}], delay=2.0),
    )
    async with FakeAnthropicServer(api_key="test-key", handler=failing) as model_server:
        manda = manda_with(model_settings(home_copy, model_server), clock)
        async with manda, running_world(manda, faulty) as world:
            questions = [await ask(world, text=f"{QUESTION} #{n}") for n in range(6)]
            claude = world.bot.deps.breakers.get("Claude")

    # each of the first five questions: the request and its two retries, then the offline answer
    assert len(model_server.requests) == 5 * 3
    assert claude.state is BreakerState.OPEN  # the sixth did not call the model at all
    for question in questions:
        text = only_reply(world, question).all_text()
        assert "€5.2M" in text and UNAVAILABLE_NOTICE in text


async def test_a_model_that_recovers_within_the_retries_answers_as_usual(
    home_copy: Path, faulty: FaultySlack, clock: Clock
) -> None:
    def answer(request: RecordedRequest) -> Response:
        return text_reply("Q3 2024 revenue was €5.2M (source: TargetCo_Q3_2024_Report.pdf, p.1).")

    async with FakeAnthropicServer(api_key="test-key", handler=answer) as model_server:
        model_server.script(model_api.rate_limited(retry_after=0.001), overloaded(retry_after_ms=1))
        manda = manda_with(model_settings(home_copy, model_server), clock)
        async with manda, running_world(manda, faulty) as world:
            question = await ask(world)
            claude = world.bot.deps.breakers.get("Claude")
    text = only_reply(world, question).all_text()
    assert model_server.pending == 0 and len(model_server.requests) >= 3
    assert "€5.2M" in text and UNAVAILABLE_NOTICE not in text
    assert claude.state is BreakerState.CLOSED
