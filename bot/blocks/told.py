"""What a person told Manda in a thread, as the thread's reply: the fact kept (with its figures
waiting for review, Approve / Reject under each) or the names linked, or why not."""

from __future__ import annotations

from bot.blocks.answer import APPROVAL_MEANS, render_decision_blocks
from bot.blocks.kit import Block, SlackMessage, context, cut, fallback, section, who
from bot.blocks.mrkdwn import escape, plain
from manda.deals.actions import Told

MAX_FIGURES = 6


def render_told(told: Told, deal_id: str, user: str) -> SlackMessage:
    if told.kind == "linked" and told.link is not None:
        names = " = ".join(f"*{escape(plain(n, 120))}*" for n in told.link.names)
        head = (f"🔗 {names}: one entity, as {who(user)} said. A question naming one now "
                "finds the others." if told.link.changed else f"🔗 Already one entity: {names}.")
        return SlackMessage(text=fallback(head), blocks=[section(cut(head))])
    if told.kind == "refused" or told.note is None:
        text = f"⛔ {escape(plain(told.acted.text, 600))}"
        return SlackMessage(text=fallback(text), blocks=[section(cut(text))])
    note = told.note
    source = f"{escape(note.name)} (not in a document)"
    if note.unchanged:
        head = f"📝 Already noted, as {source}: “{escape(plain(note.text, 600))}”"
        return SlackMessage(text=fallback(head), blocks=[section(cut(head))])
    head = f"📝 Noted, as {source}: “{escape(plain(note.text, 900))}”"
    blocks: list[Block] = [section(cut(head))]
    for line in note.conflicts[:MAX_FIGURES]:
        blocks.append(section(cut(f"⚠️ It disagrees with the room: {escape(plain(line, 400))}")))
    for finding in note.findings[:MAX_FIGURES]:
        blocks.extend(render_decision_blocks(deal_id, finding, note.name))
    if note.findings:
        blocks.append(context([
            "Figures told in a thread wait for review and are never approved automatically; "
            f"answers cite them after the documents, as “{escape(note.name)} (not in a "
            "document)”.", APPROVAL_MEANS]))
    else:
        blocks.append(context(["No figure in it to review: searches and answers will find it, "
                               "cited after the documents."]))
    return SlackMessage(text=fallback(head), blocks=blocks)
