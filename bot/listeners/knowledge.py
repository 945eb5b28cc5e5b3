"""`/manda changes`, `/manda digest`, `/manda link` and `/manda analyse`: what changed in the
deal, its daily post, and what the team tells Manda about it (each a deal operation, refused
where the person may not act on the deal)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.changes import render_changes
from bot.blocks.kit import who
from bot.blocks.messages import render_notice
from bot.blocks.mrkdwn import escape, plain
from bot.conversations import workspace_key
from bot.deps import Deps
from bot.listeners.commands import Command, _bound_deal, _channel_key, _post, _say, handles
from bot.permissions import SlackMembership
from manda.deals import linked_names
from manda.finance.periods import find_dates

log = logging.getLogger(__name__)

DIGEST_USAGE = ("`/manda digest on 08:30` posts what changed here every day at 08:30 (your "
                "time zone), only when something did; `/manda digest off` stops it.")
LINK_USAGE = ("`/manda link Globex AG = Globex Holding` (or “… is the same company as …”): "
              "a question naming one then finds the others; `/manda link remove Globex AG`.")


async def _may_act(deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command,
                   deal_id: str) -> bool:
    allowed = await deps.deals.may_act(
        deal_id, command["user_id"], workspace=workspace_key(command["team_id"]),
        membership=SlackMembership(client),
        channel_key=_channel_key(command))
    if not allowed:
        await _say(respond, render_notice(
            f"Only members of this channel can change what Manda knows about "
            f"*{escape(deal_id)}*; nothing was changed."))
    return allowed


def since_of(text: str) -> datetime | None:
    """`2024-11-01`, `1 Nov 2024`, `01.11.2024` → the start of that day (UTC); None: no date."""
    found = find_dates(text)
    if not found:
        return None
    day = found[0][0]
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


@handles("changes")
async def changes(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is None:
        return
    since = since_of(rest) if rest else None
    if rest and since is None:
        await _say(respond, render_notice(
            f"“{escape(plain(rest, 60))}” is not a date: try `/manda changes 2024-11-01`, or "
            "`/manda changes` for what changed since you last asked."))
        return
    result = await deps.deals.changes(deal_id, since=since, viewer=command["user_id"])
    await _say(respond, render_changes(result))


async def _zone(client: AsyncWebClient, user: str) -> str:
    """The person's time zone as Slack knows it (users.info `tz`), else UTC."""
    try:
        found = (await client.users_info(user=user))["user"]
    except SlackApiError:
        return "UTC"
    return str(found.get("tz") or "UTC")


@handles("digest")
async def digest(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is None:
        return
    key, user = _channel_key(command), command["user_id"]
    verb, _, at = rest.strip().partition(" ")
    if not verb:
        setting = await deps.deals.digest_setting(deal_id, key)
        state = (f"on, every day at {setting.shown}" if setting else "off")
        await _say(respond, render_notice(f"The daily digest here is {state}. {DIGEST_USAGE}"))
        return
    if verb.lower() not in ("on", "off") or (verb.lower() == "on" and not at.strip()):
        await _say(respond, render_notice(DIGEST_USAGE))
        return
    if not await _may_act(deps, client, respond, command, deal_id):
        return
    if verb.lower() == "off":
        await deps.deals.set_digest(deal_id, key, None, by=user)
        text = f"☀️ {who(user)} turned the daily digest of *{escape(deal_id)}* off here."
    else:
        setting = await deps.deals.set_digest(deal_id, key, at.strip(), by=user,
                                              zone=await _zone(client, user))
        shown = setting.shown if setting else at
        text = (f"☀️ {who(user)} turned the daily digest of *{escape(deal_id)}* on: every day "
                f"at {escape(shown)}, what changed is posted here — only when something did.")
    await _post(client, respond, command["channel_id"], render_notice(text))


@handles("link")
async def link(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is None or not await _may_act(deps, client, respond, command, deal_id):
        return
    user = command["user_id"]
    verb, _, name = rest.partition(" ")
    if verb.lower() in ("remove", "undo", "unlink") and name.strip():
        result = await deps.deals.unlink_entity(deal_id, name.strip(), by=user)
        said = ("no longer linked to another name" if result.changed
                else "was not linked to another name")
        text = f"🔗 *{escape(plain(name.strip(), 120))}* {said} ({who(user)})."
        await _post(client, respond, command["channel_id"], render_notice(text))
        return
    names = linked_names(rest)
    if not names:
        await _say(respond, render_notice(LINK_USAGE))
        return
    result = await deps.deals.link_entities(deal_id, names, by=user)
    shown = " = ".join(f"*{escape(plain(n, 120))}*" for n in result.names)
    text = (f"🔗 {shown}: one entity, as {who(user)} said. A question naming one now finds the "
            "others." if result.changed else f"🔗 Already one entity: {shown}.")
    await _post(client, respond, command["channel_id"], render_notice(text))


@handles("analyse")
async def analyse(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is None or not await _may_act(deps, client, respond, command, deal_id):
        return
    result = await deps.deals.reanalyse(deal_id, by=command["user_id"],
                                        document=rest.strip() or None)
    text = f"🔎 {who(command['user_id'])}: {escape(result.summary())}."
    await _post(client, respond, command["channel_id"], render_notice(text))
