"""A question (or gaps / red flags) answered in a Slack thread for the channel's deal.

Only threads of a bound channel get answers; replies without a mention only in threads Manda
answered; any failure becomes a message in the thread, never silence.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Literal

from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.answer import render_answer
from bot.blocks.kit import SlackMessage, context
from bot.blocks.messages import render_error, render_help, render_unbound
from bot.conversations import Thread, deal_for, manda_answered, remember_thread
from bot.deps import Deps
from bot.replies import ThreadWriter, Working
from manda.answers import Answer
from manda.models import Finding, FindingStatus

log = logging.getLogger(__name__)

Kind = Literal["ask", "gaps", "redflags"]


async def pending_findings(
    deps: Deps, deal_id: str, answer: Answer
) -> tuple[list[Finding], dict[str, str]]:
    """Findings the answer rests on that still wait for a human, and their documents' names."""
    wanted = [c.finding_id for c in answer.citations if c.finding_id]
    wanted += [
        a.finding_id
        for a in answer.suggested_actions
        if a.type == "approve_finding" and a.finding_id
    ]
    pending: list[Finding] = []
    for finding_id in dict.fromkeys(wanted):
        finding = await deps.manda.graph.get_finding(deal_id, finding_id)
        if finding is not None and finding.status is FindingStatus.PENDING:
            pending.append(finding)
    if not pending:
        return [], {}
    documents = {d.id: d.filename for d in await deps.manda.graph.list_documents(deal_id)}
    return pending, documents


async def run_agent(
    deps: Deps,
    kind: Kind,
    deal_id: str,
    question: str,
    thread: Thread,
    on_text: Callable[[str], Awaitable[None]],
) -> Answer:
    answers = deps.answers
    if kind == "gaps":
        return await answers.gaps(deal_id, conversation_id=thread.conversation_id)
    if kind == "redflags":
        return await answers.red_flags(deal_id, conversation_id=thread.conversation_id)
    return await answers.ask(
        deal_id, question, conversation_id=thread.conversation_id, on_text=on_text
    )


DOING = {
    "ask": "answer that",
    "gaps": "check the data room for gaps",
    "redflags": "scan the deal for red flags",
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
                answer = await run_agent(deps, kind, deal_id, question, thread, writer.on_text)
            pending, documents = await pending_findings(deps, deal_id, answer)
            messages = render_answer(
                answer, deal_id=deal_id, question=question, pending=pending, documents=documents
            )
            if intro and len(messages[0].blocks) < 50:
                messages[0] = SlackMessage(
                    text=messages[0].text, blocks=[context([intro]), *messages[0].blocks]
                )
            await writer.finish(messages)
            await remember_thread(deps.manda.memory, thread, deal_id)
        except Exception as exc:
            log.exception("answering in %s failed", thread.conversation_id)
            error = render_error(exc, DOING[kind])
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
        deal_id = await deal_for(deps.manda.graph, thread.team, thread.channel)
        if deal_id is None:
            deals = await deps.manda.graph.list_deals()
            where = "This conversation" if thread.is_dm else "This channel"
            reply = render_unbound(deals, where)
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
        if not await manda_answered(deps.manda.memory, thread):
            return
    except Exception as exc:
        log.exception("could not look up conversation %s", thread.conversation_id)
        await ThreadWriter(client, thread, stream=False).fail(
            render_error(exc, "continue this conversation")
        )
        return
    await ask_in_thread(deps, client, thread, question)
