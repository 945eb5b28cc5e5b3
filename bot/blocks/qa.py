"""The deal's Q&A list (numbered, with Mark answered / Remove / Export) and its confirmations."""

from __future__ import annotations

from collections.abc import Sequence

from bot import ids
from bot.blocks.kit import (
    Block,
    SlackMessage,
    actions,
    button,
    context,
    fallback,
    plural,
    section,
    when,
    who,
)
from bot.blocks.mrkdwn import escape, plain
from bot.payloads import QAChange, QAExport
from manda.models import QAItem

LIST_PAGE = 15  # items per message: a section and an actions block each, under 50 blocks
STATUS_MARK = {"answered": "✅", "closed": "☑️", "sent": "📨", "draft": "📝"}


def qa_line(item: QAItem) -> str:
    meta = [
        escape(item.category),
        f"{item.priority.value} priority",
        item.status,
        f"asked by {who(item.created_by)}",
    ]
    if item.source:
        meta.append(f"source: {escape(item.source)}")
    number = f"Q{item.number} " if item.number else ""
    line = f"{STATUS_MARK.get(item.status, '•')} *{number}{escape(plain(item.question, 1500))}*"
    if item.answer:
        line += f"\n>{escape(plain(item.answer, 800))}"
    return f"{line}\n_{' · '.join(meta)}_"


def item_actions(item: QAItem) -> Block:
    change = QAChange(d=item.deal_id, i=item.id).encode()
    buttons = (
        []
        if item.status == "answered"
        else [button("✅ Mark answered", ids.QA_ANSWERED, change, style="primary")]
    )
    buttons.append(button("🗑 Remove", ids.QA_REMOVE, change))
    return actions(ids.qa_item_block(item.id), buttons)


def render_qa_list(deal_id: str, items: Sequence[QAItem], notice: str = "") -> SlackMessage:
    if not items:
        text = (
            f"The Q&A list of *{escape(deal_id)}* is empty. Click *Add to Q&A…* under an answer, "
            "a gap or a red flag to add an open question for the target."
        )
        return SlackMessage(text=fallback(text), blocks=[section(text)])
    answered = sum(i.status == "answered" for i in items)
    title = (
        f"*Q&A list of {escape(deal_id)}* — {plural(len(items), 'question')}, {answered} answered"
    )
    blocks: list[Block] = []
    if notice:
        blocks.append(context([notice]))
    blocks += [
        section(title),
        actions(
            ids.QA_LIST_ACTIONS,
            [button("⬇️ Export to Excel", ids.QA_EXPORT, QAExport(d=deal_id).encode())],
        ),
    ]
    for item in items[:LIST_PAGE]:
        blocks += [section(qa_line(item)), item_actions(item)]
    more = len(items) - LIST_PAGE
    blocks.append(
        context(
            [
                (f"… and {more} more: *Export to Excel* has them all. " if more > 0 else "")
                + "Also: `/manda qa answered N <answer>`, `/manda qa edit N <new wording>`, "
                "`/manda qa edit N priority high`, `/manda qa remove N`."
            ]
        )
    )
    return SlackMessage(text=fallback(title), blocks=blocks)


def added_note(item: QAItem, created: bool, user: str) -> str:
    number = f" as Q{item.number}" if item.number else ""
    if created:
        return f"📝 Added to the Q&A list by {who(user)}{number}"
    return (
        f"📝 Already on the Q&A list{number} (added by {who(item.created_by)} · "
        f"{when(item.created_at)})"
    )


def added_confirmation(item: QAItem, user: str) -> SlackMessage:
    number = f" as Q{item.number}" if item.number else ""
    text = (
        f"📝 {who(user)} added to the Q&A list of *{escape(item.deal_id)}*{number}: "
        f"“{escape(plain(item.question, 1500))}” ({escape(item.category)}, {item.priority.value} "
        f"priority, {item.status})"
    )
    return SlackMessage(text=fallback(text), blocks=[section(text)])


def export_comment(deal_id: str, count: int, user: str) -> str:
    """The message that introduces the shared spreadsheet (plain text: it is initial_comment)."""
    return f"Q&A list of {deal_id}: {plural(count, 'question')}, exported for <@{user}>."
