"""The deal's Q&A list and the confirmations shown when someone adds to it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.blocks.kit import Block, SlackMessage, context, fallback, section, when, who
from bot.blocks.mrkdwn import escape, plain
from manda.models import QAItem

LIST_PAGE = 40  # items per message


def qa_line(item: QAItem) -> str:
    meta = [
        escape(item.category),
        item.priority.value,
        item.status,
        f"added by {who(item.created_by)}",
    ]
    if item.source:
        meta.append(f"source: {escape(item.source)}")
    return f"• *{escape(plain(item.question, 500))}*\n    _{' · '.join(meta)}_"


def render_qa_list(deal_id: str, items: Sequence[QAItem]) -> SlackMessage:
    if not items:
        text = (
            f"The Q&A list of *{escape(deal_id)}* is empty. Click *Add to Q&A* under an answer, "
            "a gap or a red flag to add an open question for the target."
        )
        return SlackMessage(text=fallback(text), blocks=[section(text)])
    title = (
        f"*Q&A list of {escape(deal_id)}* — {len(items)} question{'s' if len(items) != 1 else ''}"
    )
    blocks: list[Block] = [section(title)]
    lines = [qa_line(i) for i in items[:LIST_PAGE]]
    chunk: list[str] = []
    for line in lines:
        if sum(len(x) + 1 for x in chunk) + len(line) > 2900:
            blocks.append(section("\n".join(chunk)))
            chunk = []
        chunk.append(line)
    if chunk:
        blocks.append(section("\n".join(chunk)))
    if len(items) > LIST_PAGE:
        blocks.append(
            context([f"… and {len(items) - LIST_PAGE} more. `manda` on the server lists all."])
        )
    return SlackMessage(text=fallback(title), blocks=blocks)


def added_note(item: QAItem, created: bool, user: str) -> str:
    if created:
        return f"📝 Added to the Q&A list by {who(user)}"
    return f"📝 Already on the Q&A list (added by {who(item.created_by)} · {when(item.created_at)})"


def added_confirmation(item: QAItem, user: str) -> SlackMessage:
    text = (
        f"📝 {who(user)} added to the Q&A list of *{escape(item.deal_id)}*: "
        f"“{escape(plain(item.question, 1500))}” ({escape(item.category)}, {item.priority.value} "
        f"priority, {item.status})"
    )
    return SlackMessage(text=fallback(text), blocks=[section(text)])
