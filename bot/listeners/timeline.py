"""`/manda timeline [from] [to] [category]` and its Show more button."""

from __future__ import annotations

import calendar
import re
from datetime import date

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot import ids
from bot.blocks.kit import SlackMessage
from bot.blocks.messages import render_notice
from bot.blocks.mrkdwn import escape, plain
from bot.blocks.timeline import render_timeline
from bot.deps import Deps
from bot.listeners.actions import Click, belongs_here, listener
from bot.listeners.commands import Command, _bound_deal, _post, _say, handles
from bot.payloads import TimelinePage
from manda.timeline import CATEGORIES, TimelineFilter

_DATE = re.compile(r"^(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?$")
USAGE = ("`/manda timeline [from] [to] [category]`: dates as `2024-06-30`, `2024-06` or `2024`; "
         "categories: " + ", ".join(f"`{c}`" for c in CATEGORIES) + ".")


def _bounds(token: str) -> tuple[date, date] | None:
    """The first and last day a typed date stands for (`2024` is the whole year)."""
    found = _DATE.match(token)
    if not found:
        return None
    year, month, day = (int(g) if g else None for g in found.groups())
    assert year is not None
    try:
        if month is None:
            return date(year, 1, 1), date(year, 12, 31)
        if day is None:
            return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])
        return date(year, month, day), date(year, month, day)
    except ValueError:
        return None


def parse_filter(rest: str) -> TimelinePage | str:
    """The page's filter from the command's words, or what was wrong with them."""
    dates: list[tuple[date, date]] = []
    category: str | None = None
    for token in rest.split():
        low = token.lower()
        if (bounds := _bounds(low)) is not None:
            dates.append(bounds)
        elif low in CATEGORIES or low.rstrip("s") in CATEGORIES:
            category = low if low in CATEGORIES else low.rstrip("s")
        else:
            return f"I can't read `{escape(plain(token, 40))}`. {USAGE}"
    if len(dates) > 2:
        return f"Give at most two dates (from, to). {USAGE}"
    start = dates[0][0] if dates else None
    end = dates[1][1] if len(dates) == 2 else None
    if start and end and end < start:
        return f"The end ({end}) is before the start ({start}). {USAGE}"
    return TimelinePage(deal_id="-", start=start and start.isoformat(),
                        end=end and end.isoformat(), category=category)


def _described(page: TimelinePage) -> str:
    parts = []
    if page.start:
        parts.append(f"from {page.start}")
    if page.end:
        parts.append(f"to {page.end}")
    if page.category:
        parts.append(f"category {page.category}")
    return f" ({', '.join(parts)})" if parts else ""


async def _page(deps: Deps, page: TimelinePage) -> SlackMessage:
    where = TimelineFilter(
        start=date.fromisoformat(page.start) if page.start else None,
        end=date.fromisoformat(page.end) if page.end else None,
        category=page.category,
    )
    timeline = await deps.deals.timeline(page.deal_id, where=where)
    hidden = 0
    if page.category is None:  # a document's own date is kept for when it is asked for
        kept = [e for e in timeline.events if e.category != "document"]
        hidden = len(timeline.events) - len(kept)
        timeline = timeline.model_copy(update={"events": kept})
    return render_timeline(timeline, page, described=escape(_described(page)), hidden=hidden)


@handles("timeline")
async def timeline(
    deps: Deps, client: AsyncWebClient, respond: AsyncRespond, command: Command, rest: str
) -> None:
    parsed = parse_filter(rest)
    if isinstance(parsed, str):
        await _say(respond, render_notice(parsed))
        return
    deal_id = await _bound_deal(deps, respond, command)
    if deal_id is None:
        return
    page = parsed.model_copy(update={"deal_id": deal_id})
    await _post(client, respond, command["channel_id"], await _page(deps, page))


async def show_more(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    """The next page, in the timeline message's thread."""
    page = TimelinePage.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, page.deal_id) or click.channel is None:
        return
    message = await _page(deps, page)
    await client.chat_postMessage(channel=click.channel, thread_ts=click.thread_ts,
                                  text=message.text, blocks=message.blocks)


def register(app: AsyncApp, deps: Deps) -> None:
    app.action(ids.TIMELINE_MORE)(listener(deps, show_more, "show more of the timeline"))
