"""A question (or gaps / red flags) answered in a Slack thread for the channel's deal.

Only threads of a bound channel get answers; replies without a mention only in threads Manda
answered; any failure becomes a message in the thread, never silence. A slash command's answer
is posted once in the channel when it is ready (`answer_in_channel`), never put in place of a
placeholder: Slack marks a message changed with `chat.update` "(edited)".
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.answer import RenderedAnswer, render_answer
from bot.blocks.kit import SlackMessage
from bot.blocks.messages import render_error, render_help, render_notice, render_unbound
from bot.blocks.told import render_told
from bot.conversations import Thread, conversation_id
from bot.deps import Deps
from bot.replies import ThreadWriter, Working
from bot.told import LazyActions, actions_of
from manda.agent.actions import KnowledgeActions
from manda.agent.service import AnswerService
from manda.answers import Answer
from manda.deals import note_text

log = logging.getLogger(__name__)

OnText = Callable[[str], Awaitable[None]]
Run = Callable[[AnswerService, str, str, str, OnText, KnowledgeActions | None], Awaitable[Answer]]
Tell = Callable[[SlackMessage], Awaitable[None]]

NOT_IN_CHANNEL = (
    "I am not in this channel, so I can't post here. "
    "Invite me with `/invite @Manda`, then try again."
)


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
        run=lambda a, deal, q, conv, on_text, acts: a.ask(
            deal, q, conversation_id=conv, on_text=on_text, actions=acts
        ),
        doing="answer that",
        title="<@{user}> asked: “{question}”",
    ),
    "gaps": AnswerKind(
        run=lambda a, deal, q, conv, on_text, acts: a.gaps(deal, conversation_id=conv),
        doing="check the data room for gaps",
        title="Gaps in the data room of *{deal}*, for <@{user}>",
    ),
    "redflags": AnswerKind(
        run=lambda a, deal, q, conv, on_text, acts: a.red_flags(deal, conversation_id=conv),
        doing="scan the deal for red flags",
        title="Red flags in *{deal}*, for <@{user}>",
    ),
}


async def _rendered(
    deps: Deps, deal_id: str, question: str, kind: Kind, conversation: str, on_text: OnText,
    actions: KnowledgeActions | None = None,
) -> RenderedAnswer:
    """Run the agent (within `answer_timeout`) and lay its answer out for Slack."""
    async with asyncio.timeout(deps.answer_timeout):
        answer = await KINDS[kind].run(deps.answers, deal_id, question, conversation, on_text,
                                       actions)
    evidence = await deps.deals.pending_behind(deal_id, answer)
    return render_answer(
        answer,
        deal_id=deal_id,
        question=question,
        pending=evidence.findings,
        documents=evidence.document_names,
        links=await deps.deals.document_links(deal_id),
    )


async def _no_text(delta: str) -> None:
    return None


async def answer_in_thread(
    deps: Deps,
    client: AsyncWebClient,
    thread: Thread,
    deal_id: str,
    question: str,
    *,
    kind: Kind = "ask",
    actions: KnowledgeActions | None = None,
) -> None:
    """Answer `question` (or run gaps / red flags) for `deal_id` in `thread`, whatever happens.

    A few answers are worked on at a time (`Deps.answer_slots`), in the order asked: the rest
    wait without using the event loop, so acks stay fast and the first answers come first.
    """
    async with deps.answer_slots:
        working = Working(client, thread)
        writer: ThreadWriter | None = None
        try:
            await working.start()
            writer = ThreadWriter(client, thread, placeholder_ts=working.placeholder_ts,
                                  on_first_message=working.hush)
            rendered = await _rendered(
                deps, deal_id, question, kind, thread.conversation_id, writer.on_text, actions
            )
            await writer.finish(rendered)
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


async def answer_in_channel(
    deps: Deps,
    client: AsyncWebClient,
    *,
    team: str,
    channel: str,
    deal_id: str,
    question: str,
    kind: Kind,
    intro: str,
    tell: Tell,
) -> str | None:
    """Work the answer out, then post it in the channel once, headed by `intro`; its thread
    continues the conversation. Returns the message's ts (None when it could not be posted).

    Nothing stands in the channel meanwhile (the person who asked was told, privately, through
    `tell`), so the answer is never a changed message. A failure, or a channel Manda is not in,
    is told to that person only, with the answer when there is one.
    """
    async with deps.answer_slots:
        # The message's ts keys its thread's conversation, and it exists only once posted: the
        # agent works under a key of its own, which the thread's conversation then continues.
        working_key = conversation_id(team, channel, f"command-{uuid.uuid4().hex[:16]}")
        try:
            rendered = await _rendered(deps, deal_id, question, kind, working_key, _no_text)
        except Exception as exc:
            log.exception("answering %s in %s failed", kind, channel)
            await tell(render_error(exc, KINDS[kind].doing))
            return None
        message = rendered.message(intro)
        try:
            posted = await client.chat_postMessage(
                channel=channel, text=message.text, blocks=message.blocks
            )
        except SlackApiError as exc:
            if exc.response.get("error") not in ("not_in_channel", "channel_not_found"):
                log.exception("posting the %s answer in %s failed", kind, channel)
                await tell(render_error(exc, "post the answer here"))
                return None
            await tell(render_notice(NOT_IN_CHANNEL))
            await tell(message)
            return None
        ts = str(posted["ts"])
        await deps.conversations.continue_in(
            working_key, conversation_id(team, channel, ts), deal_id
        )
        return ts


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
        elif note_text(question) is not None:  # "note: …", "FYI …": told, not asked
            await tell_in_thread(deps, client, thread, deal_id, question)
            return
        else:
            actions = LazyActions(deps, client, thread, deal_id, question)
            await answer_in_thread(deps, client, thread, deal_id, question, actions=actions)
            return
        await client.chat_postMessage(
            channel=thread.channel, thread_ts=thread.thread_ts, text=reply.text, blocks=reply.blocks
        )
    except Exception as exc:
        log.exception("handling a question in %s failed", thread.conversation_id)
        await ThreadWriter(client, thread, stream=False).fail(render_error(exc, "answer that"))


async def tell_in_thread(
    deps: Deps, client: AsyncWebClient, thread: Thread, deal_id: str, message: str
) -> None:
    """A message that tells Manda a fact ("@Manda note: …"): kept as a finding sourced to the
    person and the message, waiting for review (or two names linked), said in the thread."""
    actions = await actions_of(deps, client, thread, deal_id, message)
    told = await actions.from_message(message)
    if told is None:
        return
    reply = render_told(told, deal_id, thread.user)
    await client.chat_postMessage(channel=thread.channel, thread_ts=thread.thread_ts,
                                  text=reply.text, blocks=reply.blocks)


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
