"""Block Kit building blocks that respect Slack's limits, plus paging and in-place message edits."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.blocks.mrkdwn import CONTEXT_LIMIT, SECTION_LIMIT, escape, plain, split_mrkdwn
from manda.text import count_of

Block = dict[str, Any]

MAX_BLOCKS = 50  # per message
MAX_VIEW_BLOCKS = 100  # per App Home view
MAX_CONTEXT_ELEMENTS = 10
MAX_ACTION_ELEMENTS = 25
BUTTON_TEXT_LIMIT = 75
HEADER_LIMIT = 150
FALLBACK_LIMIT = 3000

_SLACK_USER = re.compile(r"^[UW][A-Z0-9]{2,}$")


@dataclass(frozen=True)
class SlackMessage:
    """What one chat.postMessage / chat.update carries: fallback text and blocks."""

    text: str
    blocks: list[Block] = field(default_factory=list)


def who(by: str) -> str:
    """A Slack user id as a mention; any other name (CLI user, pipeline) as escaped text."""
    return f"<@{by}>" if _SLACK_USER.match(by) else escape(by)


def plural(count: int, noun: str) -> str:
    """`1 file`, `3 files`."""
    return count_of(count, noun)


def when(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC")


def mrkdwn(text: str) -> dict[str, Any]:
    """A mrkdwn text object Slack renders as written: no URL, channel or mention is auto-linked
    (`verbatim`), so only the `<…>` sequences Manda itself writes become links or mentions.
    https://docs.slack.dev/reference/block-kit/composition-objects/text-object
    """
    return {"type": "mrkdwn", "text": text, "verbatim": True}


def section(text: str) -> Block:
    if len(text) > SECTION_LIMIT:
        raise ValueError(f"section text is {len(text)} characters; split it first")
    return {"type": "section", "text": mrkdwn(text or " ")}


def sections(mrkdwn: str) -> list[Block]:
    return [section(piece) for piece in split_mrkdwn(mrkdwn) if piece.strip()]


def header(text: str) -> Block:
    return {"type": "header", "text": {"type": "plain_text", "text": plain(text, HEADER_LIMIT)}}


def divider() -> Block:
    return {"type": "divider"}


def context(texts: Iterable[str], block_id: str | None = None) -> Block:
    elements = [mrkdwn(cut(t, CONTEXT_LIMIT)) for t in texts if t.strip()][
        :MAX_CONTEXT_ELEMENTS
    ]
    block: Block = {"type": "context", "elements": elements or [mrkdwn(" ")]}
    if block_id:
        block["block_id"] = block_id
    return block


def contexts(texts: Sequence[str], block_id: str | None = None) -> list[Block]:
    """As many context blocks as the texts need (ten elements each)."""
    blocks = []
    for start in range(0, len(texts), MAX_CONTEXT_ELEMENTS):
        bid = None if block_id is None else (block_id if start == 0 else f"{block_id}.{start}")
        blocks.append(context(texts[start : start + MAX_CONTEXT_ELEMENTS], bid))
    return blocks


def button(text: str, action_id: str, value: str, style: str | None = None) -> Block:
    element: Block = {
        "type": "button",
        "text": {"type": "plain_text", "text": plain(text, BUTTON_TEXT_LIMIT), "emoji": True},
        "action_id": action_id,
        "value": value,
    }
    if style:
        element["style"] = style
    return element


def actions(block_id: str, buttons: Sequence[Block]) -> Block:
    if not 0 < len(buttons) <= MAX_ACTION_ELEMENTS:
        raise ValueError(f"an actions block holds 1 to {MAX_ACTION_ELEMENTS} elements")
    return {"type": "actions", "block_id": block_id, "elements": list(buttons)}


def cut(text: str, limit: int = SECTION_LIMIT) -> str:
    """`text` shortened to `limit` characters (line breaks kept), with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fallback(text: str) -> str:
    """The notification text of a message (Slack shows it where blocks cannot be shown)."""
    return cut(text.strip() or " ", FALLBACK_LIMIT)


def blocks_text(blocks: Sequence[Block]) -> str:
    """What the blocks say in words (headers, sections, markdown, context), one line a block:
    a message's notification text when it has none of its own."""
    lines: list[str] = []
    for block in blocks:
        text = block.get("text")
        if isinstance(text, dict):
            text = text.get("text")
        if isinstance(text, str) and text.strip():
            lines.append(text.strip())
        elif block.get("type") == "context":
            lines += [e["text"] for e in block.get("elements", [])
                      if isinstance(e, dict) and isinstance(e.get("text"), str)]
    return "\n".join(lines)


def paginate(
    body: Sequence[Block], footer: Sequence[Block] = (), limit: int = MAX_BLOCKS
) -> list[list[Block]]:
    """Split blocks over messages of at most `limit` blocks; the footer stays whole, at the end."""
    if len(footer) > limit:
        raise ValueError(f"a footer of {len(footer)} blocks cannot fit one message")
    pages: list[list[Block]] = []
    current: list[Block] = []
    for block in body:
        if len(current) == limit:
            pages.append(current)
            current = []
        current.append(block)
    if len(current) + len(footer) > limit:
        pages.append(current)
        current = []
    current.extend(footer)
    pages.append(current)
    return [p for p in pages if p] or [[]]


def mark_done(
    blocks: Sequence[Block],
    *,
    block_id: str,
    action_id: str,
    note: str,
    value: str | None = None,
) -> list[Block]:
    """Take the clicked button out of its actions block and put `note` under it.

    When the block had no other element, the note replaces it. Blocks Slack added on its side
    (and all other blocks) are kept as they were.
    """
    result: list[Block] = []
    for block in blocks:
        if block.get("type") != "actions" or block.get("block_id") != block_id:
            result.append(block)
            continue
        elements = block.get("elements", [])
        rest = [
            e
            for e in elements
            if not (e.get("action_id") == action_id and (value is None or e.get("value") == value))
        ]
        if len(rest) == len(elements):  # already taken out by an earlier click
            result.append(block)
            continue
        if rest:
            result.append({**block, "elements": rest})
        done = sum(str(b.get("block_id", "")).startswith(f"{block_id}.done.") for b in blocks)
        result.append(context([note], block_id=f"{block_id}.done.{done}"))
    if len(result) > MAX_BLOCKS:
        # no room for one more block: the note takes the place of the actions block
        result = [b for b in result if b.get("type") != "actions" or b.get("block_id") != block_id]
    return result[:MAX_BLOCKS]


def replace_block(blocks: Sequence[Block], block_id: str, replacement: Block) -> list[Block]:
    """The same blocks with the one whose id is `block_id` replaced."""
    return [replacement if b.get("block_id") == block_id else b for b in blocks]
