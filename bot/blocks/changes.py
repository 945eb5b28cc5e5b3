"""What changed in a deal (`/manda changes`, the daily digest, the App Home): most serious first,
each change on one line with its source."""

from __future__ import annotations

from bot.blocks.kit import Block, SlackMessage, context, fallback, section, sections, who
from bot.blocks.mrkdwn import escape, plain
from manda.deals import ChangeItem, DealChanges, counted

MAX_ITEMS = 25  # listed one by one; the rest are counted
MARK = {"conflict": "⚠️", "restated": "✏️", "red_flag": "🚩", "resolved": "✅", "replaced": "🔁",
        "answered": "💬", "document": "📄", "told": "📝", "rejected": "✗", "approved": "✓",
        "irl": "📋"}
LEAD = {"conflict": "New conflict", "restated": "Restated", "red_flag": "New red flag",
        "resolved": "Resolved", "replaced": "Replaced", "answered": "Q&A answered",
        "document": "New document", "told": "Told in a thread", "rejected": "Rejected",
        "approved": "Approved", "irl": "IRL"}


def change_line(item: ChangeItem) -> str:
    by = f" by {who(item.by)}" if item.by and item.kind in ("approved", "rejected") else ""
    return (f"{MARK[item.kind]} *{LEAD[item.kind]}*{by}: {escape(plain(item.text, 500))} — "
            f"_{escape(plain(item.source, 300))}_")


def change_lines(changes: DealChanges, limit: int = MAX_ITEMS) -> str:
    lines = [change_line(i) for i in changes.items[:limit]]
    rest = changes.items[limit:]
    if rest:  # the least serious, counted: a shorter window lists them one by one
        lines.append(f"… and {len(rest)} more: {escape(counted(rest)) or 'IRL coverage'} "
                     "(`/manda changes 2024-11-01` lists the changes since a date)")
    return "\n".join(lines)


def render_changes(changes: DealChanges, *, title: str | None = None) -> SlackMessage:
    """What changed, headed by a line naming how much and since when."""
    deal = escape(changes.deal_id)
    lead = title or f"*What changed in {deal}*"
    if not changes:
        text = f"{lead} {escape(changes.since_reason)}: nothing."
        return SlackMessage(text=fallback(text), blocks=[section(text)])
    head = f"{lead} {escape(changes.since_reason)}: {escape(changes.headline())}"
    blocks: list[Block] = [section(head[:2900]), *sections(change_lines(changes))]
    blocks.append(context(["Most serious first. `/manda changes 2024-11-01` for changes since "
                           "a date; `/manda digest on 08:30` posts them here every morning."]))
    return SlackMessage(text=fallback(head), blocks=blocks)


def render_digest(changes: DealChanges) -> SlackMessage:
    return render_changes(changes, title=f"☀️ *Daily digest of {escape(changes.deal_id)}* — "
                                         "what changed")
