"""Block Kit of the CIM and IRL threads: each step's reply with the buttons its phase offers."""

from __future__ import annotations

from bot import ids
from bot.blocks.kit import (
    Block,
    SlackMessage,
    actions,
    button,
    context,
    fallback,
    sections,
    who,
)
from bot.blocks.mrkdwn import escape
from bot.payloads import WorkflowAction
from manda.deals.workflows import WorkflowStep

MAX_STEP_BLOCKS = 45  # leaves room for the buttons and the hint under a 50-block message
TITLES = {"cim": "CIM", "irl": "information request list"}

_HINTS = {
    ("cim", "persona"): "Pick a buyer, or reply with one (“financial buyer, mid-market, cares "
    "about cash conversion”).",
    ("cim", "outline"): "Reply to edit the outline (“drop 7”, “merge 3 and 4”, “add a section on "
    "IP”, “move 9 to 2”), or say *go* to draft section 1.",
    ("cim", "sections"): "Approve, regenerate or edit this slide; reply “section N” to jump, "
    "*export* to build the deck, *cancel* to stop.",
    ("cim", "export"): "Say *export* (or press Export) to build the deck from the approved "
    "sections.",
    ("irl", "editing"): "Reply to edit (“drop F-03”, “priority 4 high”, “add Legal: board minutes "
    "2023”), “attach Q&A” for the deal’s questions, *export* for the Excel file, *cancel* to "
    "stop.",
}


def _value(step: WorkflowStep, message: str = "") -> str:
    return WorkflowAction(deal_id=step.workflow.deal_id, workflow=str(step.workflow),
                          message=message).encode()


def _buttons(step: WorkflowStep) -> list[Block]:
    phase = step.phase
    if step.mode == "cim" and phase == "persona":
        return [button(f"{kind.title()} buyer", f"{ids.WF_PERSONA}.{kind}",
                       _value(step, f"{kind} buyer")) for kind in ("strategic", "financial")]
    if step.mode == "cim" and phase == "outline":
        return [button("Draft section 1", ids.WF_APPROVE, _value(step, "go"), style="primary")]
    if step.mode == "cim" and phase == "sections":
        return [button("Approve", ids.WF_APPROVE, _value(step, "approve"), style="primary"),
                button("Regenerate", ids.WF_REGENERATE, _value(step, "regenerate")),
                button("Edit", ids.WF_EDIT, _value(step)),
                button("Export deck", ids.WF_EXPORT, _value(step, "export"))]
    if step.mode == "cim" and phase == "export":
        return [button("Export deck", ids.WF_EXPORT, _value(step, "export"), style="primary")]
    if step.mode == "irl" and phase == "editing":
        return [button("Attach Q&A", ids.WF_ATTACH_QA, _value(step, "attach Q&A")),
                button("Export to Excel", ids.WF_EXPORT, _value(step, "export"),
                       style="primary")]
    return []


def render_step(step: WorkflowStep) -> SlackMessage:
    """A step's reply (outline, slide draft, list) with the buttons that move it on."""
    body = sections(escape(step.text))[:MAX_STEP_BLOCKS]
    blocks: list[Block] = list(body)
    if buttons := _buttons(step):
        blocks.append(actions(ids.WF_ACTIONS, buttons))
    if hint := _HINTS.get((step.mode, step.phase)):
        blocks.append(context([hint]))
    return SlackMessage(text=fallback(step.text), blocks=blocks)


def render_started(mode: str, deal_id: str, user: str) -> SlackMessage:
    """The thread's parent: what is being built, for which deal, by whom; replies go to it."""
    text = (f"📑 *Building the {TITLES[mode]} of {escape(deal_id)}* — started by {who(user)}. "
            "Replies in this thread go to this workflow until it is exported or cancelled.")
    return SlackMessage(text=fallback(text), blocks=sections(text))


def render_exported(step: WorkflowStep, user: str) -> str:
    kind = "deck" if step.mode == "cim" else "request list"
    return f"⬇️ The {kind} of *{escape(step.workflow.deal_id)}*, exported by {who(user)}."


def render_edit_modal(step_value: str, title: str) -> Block:
    """The Edit modal of a slide: one instruction (“drop bullet 2”, “title: …”)."""
    return {
        "type": "modal",
        "callback_id": ids.WF_EDIT_VIEW,
        "private_metadata": step_value,
        "title": {"type": "plain_text", "text": "Edit slide"},
        "submit": {"type": "plain_text", "text": "Apply"},
        "close": {"type": "plain_text", "text": "Cancel"},
        "blocks": [
            context([f"Editing *{escape(title)}*"]),
            {
                "type": "input",
                "block_id": ids.WF_EDIT_INPUT,
                "label": {"type": "plain_text", "text": "What to change"},
                "hint": {"type": "plain_text",
                         "text": "“drop bullet 2” or “title: Recurring revenue at 82%”"},
                "element": {"type": "plain_text_input", "action_id": ids.WF_EDIT_INPUT,
                            "multiline": False},
            },
        ],
    }
