""""How I answered": the answer's overflow menu opens a modal with the answer's trace."""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot import ids
from bot.blocks.trace import HOW_I_ANSWERED, render_trace_modal, trace_gone_text
from bot.deps import Deps
from bot.listeners.actions import Click, belongs_here, modal_listener, tell
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
    assert click.modal is not None  # opened by `modal_listener` as the menu was chosen
    await click.modal.show(render_trace_modal(trace))


def register(app: AsyncApp, deps: Deps) -> None:
    app.action(ids.ANSWER_MENU)(modal_listener(deps, how_i_answered,
                                               "show how this answer was reached",
                                               HOW_I_ANSWERED))
