"""An answer's "How I answered" menu, and the modal that shows its trace within Slack's limits."""

from __future__ import annotations

import logging
from typing import Any

from bot import ids
from bot.blocks.kit import Block, context, divider, section
from bot.blocks.mrkdwn import SECTION_LIMIT, escape, plain
from bot.payloads import AnswerRef
from manda.answers import Answer
from manda.traces import AnswerTrace, trace_sections

log = logging.getLogger(__name__)

HOW_I_ANSWERED = "How I answered"
MAX_MODAL_BLOCKS = 100  # https://docs.slack.dev/reference/views/modal-views
MODAL_TITLE_LIMIT = 24
LINE_LIMIT = 400  # one line of the trace, in the modal


def answer_menu(answer: Answer, *, deal_id: str) -> list[Block]:
    """The answer's overflow menu (one actions block of its own), or nothing when the answer's
    reference would not fit an option value (a conversation id of extraordinary length)."""
    ref = AnswerRef(d=deal_id, c=answer.conversation_id, a=answer.answer_id)
    if not ref.fits_option():
        log.warning("answer %s gets no %r menu: its reference is too long for Slack",
                    answer.answer_id, HOW_I_ANSWERED)
        return []
    option = {"text": {"type": "plain_text", "text": f"🔎 {HOW_I_ANSWERED}", "emoji": True},
              "value": ref.encode()}
    menu = {"type": "overflow", "action_id": ids.ANSWER_MENU, "options": [option]}
    return [{"type": "actions", "block_id": ids.ANSWER_MENU_BLOCK, "elements": [menu]}]


def _fitted(title: str, lines: list[str]) -> tuple[str, int]:
    """A section's text, as many lines as fit one section block; and how many were left out."""
    text = f"*{escape(title)}*"
    for n, line in enumerate(lines):
        bullet = f"\n• {escape(plain(line, LINE_LIMIT))}"
        cut = f"\n_… {len(lines) - n} more not shown (Slack limits a modal's size)_"
        if len(text) + len(bullet) + len(cut) > SECTION_LIMIT:
            return text + cut, len(lines) - n
        text += bullet
    return text, 0


def render_trace_modal(trace: AnswerTrace) -> dict[str, Any]:
    """The "How I answered" modal: what was asked, then each part of the trace in order."""
    blocks: list[Block] = [
        section(f"*Question:* {escape(plain(trace.question, 1500))}"),
        context([f"Answered by {escape(trace.answered_by)} · {escape(trace.at[:19])} UTC · "
                 f"answer `{escape(trace.answer_id)}`"]),
    ]
    left_out = 0
    sections = trace_sections(trace)
    for n, (title, lines) in enumerate(sections):
        if len(blocks) + 3 > MAX_MODAL_BLOCKS:
            left_out += sum(len(rest) for _, rest in sections[n:])
            break
        text, missing = _fitted(title, lines)
        left_out += missing
        blocks += [divider(), section(text)]
    if left_out or trace.truncated:
        note = "Shortened to fit"
        if left_out:
            note += f" Slack: {left_out} line(s) are not shown here"
        if trace.truncated:
            note += "; " if left_out else ": "
            note += "the stored trace was already cut to its size cap"
        blocks.append(context([f"✂️ {note}."]))
    return {
        "type": "modal",
        "callback_id": ids.TRACE_VIEW,
        "title": {"type": "plain_text", "text": HOW_I_ANSWERED[:MODAL_TITLE_LIMIT]},
        "close": {"type": "plain_text", "text": "Close"},
        "blocks": blocks[:MAX_MODAL_BLOCKS],
    }


def trace_gone_text() -> str:
    """What a person reads when the trace is no longer kept."""
    return (f"The *{HOW_I_ANSWERED}* details of this answer are no longer kept: they expire "
            "with the conversation, only a thread's latest answers keep theirs, and none is kept "
            "while the conversation memory is unreachable. Ask the question again to see how it "
            "is answered now.")
