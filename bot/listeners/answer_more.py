""""Show more" under a long answer: the rest of it, in place, read from the stored answer.

The rest is laid out again from the answer's text kept in the conversation's memory (found by
the digest the button carries), never from this process's memory, so the button works after a
restart and on any worker.
"""

from __future__ import annotations

import logging

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot import ids
from bot.blocks.answer import expand_in_place
from bot.blocks.layout import digest, lay_out, rest_pieces
from bot.deps import Deps
from bot.listeners.actions import Click, belongs_here, listener, tell
from bot.payloads import ShowMore

log = logging.getLogger(__name__)

GONE = (
    "I no longer have the rest of this answer: a thread's memory keeps its last 10 messages "
    "for 7 days. Ask the question again (`@Manda …`) to see it whole."
)


async def show_more(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    """Replace the button by the rest of the answer and list every footnote."""
    wanted = ShowMore.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, wanted.deal_id):
        return
    message = click.message
    if click.channel is None or message is None:
        return
    text = await deps.conversations.answer_text(wanted.conversation_id, digest, wanted.answer)
    if text is None:
        await tell(client, click, GONE)
        return
    documents = await deps.deals.documents(wanted.deal_id)
    known = [d.filename for d in documents] + [d.path for d in documents if d.path]
    layout = lay_out(text, known_files=known,
                     links=await deps.deals.document_links(wanted.deal_id))
    pieces = rest_pieces(layout)
    if not pieces:
        return
    blocks = expand_in_place(message.get("blocks") or [], layout, pieces[0])
    await client.chat_update(channel=click.channel, ts=message["ts"],
                             text=message.get("text") or layout.shown[:200], blocks=blocks)
    for piece in pieces[1:]:  # longer than one message can hold: the rest in the thread
        await client.chat_postMessage(channel=click.channel, thread_ts=click.thread_ts,
                                      text=piece[:200],
                                      blocks=[{"type": "markdown", "text": piece}])


def register(app: AsyncApp, deps: Deps) -> None:
    app.action(ids.ANSWER_SHOW_MORE)(listener(deps, show_more, "show the rest of the answer"))
