"""Messages without a mention: follow-ups in threads Manda answered, and direct messages."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp, AsyncBoltContext
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering import ask_in_thread
from bot.deps import Deps
from bot.listeners.common import from_a_bot, mentions, strip_mention, team_of, thread_of
from bot.listeners.workflows import reply_or_follow_up

ANSWERABLE_SUBTYPES = {None, "thread_broadcast"}


def register(app: AsyncApp, deps: Deps) -> None:
    @app.event("message")
    async def on_message(
        ack: AsyncAck,
        event: dict[str, Any],
        body: dict[str, Any],
        client: AsyncWebClient,
        context: AsyncBoltContext,
    ) -> None:
        await ack()
        if (
            event.get("subtype") not in ANSWERABLE_SUBTYPES
            or from_a_bot(event)
            or not event.get("user")
        ):
            return
        thread = thread_of(event, team_of(body))
        text = event.get("text", "")
        if thread.is_dm:
            question = strip_mention(text, context.bot_user_id)
            deps.jobs.spawn(
                ask_in_thread(deps, client, thread, question), name=f"dm {thread.conversation_id}"
            )
            return
        if mentions(text, context.bot_user_id):
            return  # the app_mention event of the same message is the one answered
        if not event.get("thread_ts") or event.get("thread_ts") == event.get("ts"):
            return  # channel chatter is not addressed to Manda
        deps.jobs.spawn(  # a CIM / IRL thread's workflow first, else a Q&A follow-up
            reply_or_follow_up(deps, client, thread, strip_mention(text, context.bot_user_id)),
            name=f"follow-up {thread.conversation_id}",
        )
