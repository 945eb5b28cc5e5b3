"""The deal timeline in Slack: a compact dated list (date · event · source), a page at a time."""

from __future__ import annotations

from collections.abc import Sequence

from bot import ids
from bot.blocks.kit import Block, SlackMessage, actions, button, context, fallback, sections
from bot.blocks.mrkdwn import escape, plain
from bot.payloads import TimelinePage
from manda.timeline import Timeline, TimelineEvent

PAGE = 20  # events per message: one line each, a few sections
UPCOMING_SHOWN = 5  # upcoming events repeated at the top of the first page


def event_line(event: TimelineEvent) -> str:
    """`*2024-05-14* · Claim filed — Vertex … · _Legal_Summary.docx, Litigation_` with marks."""
    marks = ("⏳ " if event.upcoming else "") + ("⚠️ " if event.conflict else "")
    source = event.citations[0] if event.citations else None
    where = f" · _{escape(source.document)}, {escape(source.location)}_" if source else ""
    more = f" (+{len(event.citations) - 1})" if len(event.citations) > 1 else ""
    line = f"{marks}*{escape(event.label)}* · {escape(plain(event.title, 160))}{where}{more}"
    if event.conflict and event.conflict_note:
        line += f"\n      ⚠️ _{escape(plain(event.conflict_note, 200))}_"
    return line


def render_timeline(
    timeline: Timeline, page: TimelinePage, *, described: str = "", hidden: int = 0
) -> SlackMessage:
    """One page of the timeline from `page.offset`, with Show more when events are left."""
    events: Sequence[TimelineEvent] = timeline.events[page.offset : page.offset + PAGE]
    total = len(timeline.events)
    deal = escape(timeline.deal_id)
    if not total:
        text = (f"No dated events found in the documents of *{deal}*{described}. "
                "Try a wider range, or `/manda timeline` with no filter.")
        return SlackMessage(text=fallback(text), blocks=sections(text))
    upcoming = sum(e.upcoming for e in timeline.events)
    conflicts = sum(e.conflict for e in timeline.events)
    head = (f"🗓 *Timeline of {deal}*{described}: events {page.offset + 1}–"
            f"{page.offset + len(events)} of {total}")
    blocks: list[Block] = []
    soon = [e for e in timeline.events if e.upcoming][:UPCOMING_SHOWN]
    if page.offset == 0 and soon:  # what falls due first: the reason a banker opens this
        blocks += sections("*Coming up*\n" + "\n".join(event_line(e) for e in soon))
    blocks += sections(head + "\n" + "\n".join(event_line(e) for e in events))
    legend = []
    if timeline.as_of:
        legend.append(f"⏳ upcoming within 12 months of {timeline.as_of:%-d %b %Y} ({upcoming})")
    if conflicts:
        legend.append(f"⚠️ sources give different dates ({conflicts})")
    if hidden:
        legend.append(f"{hidden} documents' own dates not listed: `/manda timeline document`")
    if legend:
        blocks.append(context([" · ".join(legend)]))
    if page.offset + PAGE < total:
        following = page.model_copy(update={"offset": page.offset + PAGE})
        blocks.append(actions(ids.TIMELINE_ACTIONS, [
            button(f"Show more ({total - page.offset - PAGE} left)", ids.TIMELINE_MORE,
                   following.encode())]))
    return SlackMessage(text=fallback(f"Timeline of {timeline.deal_id}: {total} events"),
                        blocks=blocks)
