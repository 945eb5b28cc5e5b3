"""`@Manda <question>` in a channel: answered in the thread of the mention."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp, AsyncBoltContext
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering import ask_in_thread
from bot.deps import Deps
from bot.listeners.common import from_a_bot, strip_mention, team_of, thread_of


def register(app: AsyncApp, deps: Deps) -> None:
    @app.event("app_mention")
    async def on_mention(
        ack: AsyncAck,
        event: dict[str, Any],
        body: dict[str, Any],
        client: AsyncWebClient,
        context: AsyncBoltContext,
    ) -> None:
        await ack()
        if from_a_bot(event):
            return
        thread = thread_of(event, team_of(body))
        question = strip_mention(event.get("text", ""), context.bot_user_id)
        deps.jobs.spawn(
            ask_in_thread(deps, client, thread, question), name=f"mention {thread.conversation_id}"
        )
