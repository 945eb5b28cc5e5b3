"""Who is telling Manda something in Slack, as the deal operations need it: their name, the
message's link and their `DealActions` (refused where they may not act on the deal). Built only
when needed: an ordinary question costs no extra Slack call."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.conversations import Thread, workspace_key
from bot.deps import Deps
from bot.people import people_names
from bot.permissions import SlackMembership
from manda.agent.actions import Acted
from manda.deals import Teller
from manda.deals.actions import DealActions
from manda.models import utcnow

log = logging.getLogger(__name__)


def said_at(thread: Thread) -> datetime:
    """When the message was sent, from its ts (seconds since the epoch, as Slack keeps it)."""
    try:
        return datetime.fromtimestamp(float(thread.message_ts or ""), tz=utcnow().tzinfo)
    except ValueError:
        return utcnow()


async def teller_of(client: AsyncWebClient, thread: Thread) -> Teller:
    name = (await people_names(client, {thread.user})).get(thread.user, thread.user)
    link = None
    if thread.message_ts:
        try:
            found = await client.chat_getPermalink(channel=thread.channel,
                                                   message_ts=thread.message_ts)
            link = str(found["permalink"])
        except SlackApiError as exc:
            log.info("no permalink for %s (%s)", thread.message_ts, exc.response.get("error"))
    return Teller(user=thread.user, name=name, at=said_at(thread), link=link,
                  where=thread.conversation_id)


async def actions_of(deps: Deps, client: AsyncWebClient, thread: Thread, deal_id: str,
                     said: str) -> DealActions:
    return await deps.deals.actions_for(
        deal_id, await teller_of(client, thread), said=said,
        workspace=workspace_key(thread.team),
        membership=SlackMembership(client), channel_key=thread.channel_key,
        owner=thread.channel, conversation=thread.conversation_id)


class LazyActions:
    """The person's `KnowledgeActions`, built on Claude's first call of one of those tools."""

    def __init__(self, deps: Deps, client: AsyncWebClient, thread: Thread, deal_id: str,
                 said: str) -> None:
        self._args = (deps, client, thread, deal_id, said)
        self._built: DealActions | None = None

    async def _actions(self) -> DealActions:
        if self._built is None:
            self._built = await actions_of(*self._args)
        return self._built

    async def note(self, fact: str) -> Acted:
        return await (await self._actions()).note(fact)

    async def draft_irl(self, requests: Sequence[tuple[str, str]]) -> Acted:
        return await (await self._actions()).draft_irl(requests)

    async def reanalyse(self, document: str | None) -> Acted:
        return await (await self._actions()).reanalyse(document)

    async def link_entities(self, names: Sequence[str]) -> Acted:
        return await (await self._actions()).link_entities(names)
