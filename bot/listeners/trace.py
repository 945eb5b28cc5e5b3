""""How I answered": the answer's overflow menu opens a modal with the answer's trace."""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot import ids
from bot.blocks.trace import render_trace_modal, trace_gone_text
from bot.deps import Deps
from bot.listeners.actions import Click, belongs_here, listener, tell
from bot.payloads import AnswerRef


async def how_i_answered(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    """Open the trace of the answer the menu belongs to, for this channel's deal only."""
    option = click.action.get("selected_option") or {}
    ref = AnswerRef.decode(option.get("value"))
    if not await belongs_here(deps, client, click, ref.deal_id):
        return
    trace = await deps.deals.trace(ref.deal_id, ref.conversation_id, ref.answer_id)
    if trace is None:
        await tell(client, click, trace_gone_text())
        return
    await client.views_open(trigger_id=click.body["trigger_id"], view=render_trace_modal(trace))


def register(app: AsyncApp, deps: Deps) -> None:
    app.action(ids.ANSWER_MENU)(listener(deps, how_i_answered, "show how this answer was reached"))
