"""A question (or gaps / red flags) answered in a Slack thread for the channel's deal.

Only threads of a bound channel get answers; replies without a mention only in threads Manda
answered; any failure becomes a message in the thread, never silence.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.answer import render_answer
from bot.blocks.messages import render_error, render_help, render_unbound
from bot.conversations import Thread
from bot.deps import Deps
from bot.replies import ThreadWriter, Working
from manda.agent.service import AnswerService
from manda.answers import Answer

log = logging.getLogger(__name__)

OnText = Callable[[str], Awaitable[None]]
Run = Callable[[AnswerService, str, str, str, OnText], Awaitable[Answer]]


@dataclass(frozen=True)
class AnswerKind:
    """One kind of answer the agent gives in a thread: how it is run, what a failure says it was
    doing, and the line that opens it when a slash command asked for it."""

    run: Run
    doing: str
    title: str  # formatted with `user`, `deal` and `question` (escaped mrkdwn)


Kind = Literal["ask", "gaps", "redflags"]
KINDS: dict[Kind, AnswerKind] = {
    "ask": AnswerKind(
        run=lambda a, deal, q, conv, on_text: a.ask(
            deal, q, conversation_id=conv, on_text=on_text
        ),
        doing="answer that",
        title="<@{user}> asked: “{question}”",
    ),
    "gaps": AnswerKind(
        run=lambda a, deal, q, conv, on_text: a.gaps(deal, conversation_id=conv),
        doing="check the data room for gaps",
        title="Gaps in the data room of *{deal}*, for <@{user}>",
    ),
    "redflags": AnswerKind(
        run=lambda a, deal, q, conv, on_text: a.red_flags(deal, conversation_id=conv),
        doing="scan the deal for red flags",
        title="Red flags in *{deal}*, for <@{user}>",
    ),
}


async def answer_in_thread(
    deps: Deps,
    client: AsyncWebClient,
    thread: Thread,
    deal_id: str,
    question: str,
    *,
    kind: Kind = "ask",
    placeholder_ts: str | None = None,
    intro: str | None = None,
) -> None:
    """Answer `question` (or run gaps / red flags) for `deal_id` in `thread`, whatever happens.

    A few answers are worked on at a time (`Deps.answer_slots`), in the order asked: the rest
    wait without using the event loop, so acks stay fast and the first answers come first.
    """
    async with deps.answer_slots:
        working = Working(client, thread, placeholder_ts=placeholder_ts)
        writer: ThreadWriter | None = None
        try:
            await working.start()
            writer = ThreadWriter(client, thread, placeholder_ts=working.placeholder_ts)
            async with asyncio.timeout(deps.answer_timeout):
                answer = await KINDS[kind].run(
                    deps.answers, deal_id, question, thread.conversation_id, writer.on_text
                )
            evidence = await deps.deals.pending_behind(deal_id, answer)
            rendered = render_answer(
                answer,
                deal_id=deal_id,
                question=question,
                pending=evidence.findings,
                documents=evidence.document_names,
                links=await deps.deals.document_links(deal_id),
            )
            await writer.finish(rendered, intro=intro)
            await deps.conversations.remember(thread.conversation_id, deal_id)
        except Exception as exc:
            log.exception("answering in %s failed", thread.conversation_id)
            error = render_error(exc, KINDS[kind].doing)
            if writer is None:
                writer = ThreadWriter(
                    client, thread, placeholder_ts=working.placeholder_ts, stream=False
                )
            await writer.fail(error)
        finally:
            await working.stop()


async def ask_in_thread(deps: Deps, client: AsyncWebClient, thread: Thread, question: str) -> None:
    """A question addressed to Manda: answered if the channel has a deal, else how to bind it."""
    try:
        deal_id = await deps.deals.deal_of(thread.channel_key)
        if deal_id is None:
            reply = render_unbound("This conversation" if thread.is_dm else "This channel")
        elif not question.strip():
            reply = render_help(
                "Ask me a question about the deal, e.g. `@Manda What was Q3 revenue?`"
            )
        else:
            await answer_in_thread(deps, client, thread, deal_id, question)
            return
        await client.chat_postMessage(
            channel=thread.channel, thread_ts=thread.thread_ts, text=reply.text, blocks=reply.blocks
        )
    except Exception as exc:
        log.exception("handling a question in %s failed", thread.conversation_id)
        await ThreadWriter(client, thread, stream=False).fail(render_error(exc, "answer that"))


async def follow_up(deps: Deps, client: AsyncWebClient, thread: Thread, question: str) -> None:
    """A reply without a mention: answered only in threads where Manda already answered."""
    try:
        if not await deps.conversations.answered_before(thread.conversation_id):
            return
    except Exception as exc:
        log.exception("could not look up conversation %s", thread.conversation_id)
        await ThreadWriter(client, thread, stream=False).fail(
            render_error(exc, "continue this conversation")
        )
        return
    await ask_in_thread(deps, client, thread, question)
