"""Modals that ask before acting: which suggested questions go on the Q&A list (reworded and
classified), why a finding is rejected, what was wrong with an answer.

Views, as Slack defines them: https://docs.slack.dev/reference/views and the input block
https://docs.slack.dev/reference/block-kit/blocks/input-block (checkboxes, static_select and
plain_text_input elements, whose values come back in `view.state.values` on submission).
"""

from __future__ import annotations

from typing import Any

from bot import ids
from bot.blocks.kit import Block, context, cut
from bot.blocks.mrkdwn import escape
from bot.payloads import QAModal
from manda.deals import QA_CATEGORIES, category_of
from manda.models import QAPriority

OPTION_TEXT = 75  # Slack's limit on an option's text
GROUP_OPTIONS = 10  # a checkbox group's options, at most
TITLE = 24  # on a view's title, submit and close texts
QUESTION_MAX = 3000  # plain_text_input's max_length
REASON_MAX = 500


def _plain(text: str) -> dict[str, Any]:
    return {"type": "plain_text", "text": text, "emoji": True}


def option(text: str, value: str) -> dict[str, Any]:
    return {"text": _plain(cut(" ".join(text.split()), OPTION_TEXT)), "value": value}


def _modal(
    callback_id: str, title: str, submit: str, metadata: str, blocks: list[Block]
) -> Block:
    return {
        "type": "modal",
        "callback_id": callback_id,
        "private_metadata": metadata,
        "title": _plain(cut(title, TITLE)),
        "submit": _plain(cut(submit, TITLE)),
        "close": _plain("Cancel"),
        "blocks": blocks,
    }


def _select(block_id: str, label: str, choices: list[tuple[str, str]], chosen: str) -> Block:
    options = [option(text, value) for text, value in choices]
    initial = next((o for o in options if o["value"] == chosen), options[0])
    return {
        "type": "input",
        "block_id": block_id,
        "label": _plain(label),
        "element": {
            "type": "static_select",
            "action_id": block_id,
            "options": options,
            "initial_option": initial,
        },
    }


def _pick_groups(questions: list[str]) -> list[Block]:
    """The ticks: "All" and one per question, in checkbox groups of at most 10 options (Slack's
    limit), each optional so any one of them may be ticked alone; the app checks that some are.
    https://docs.slack.dev/reference/block-kit/block-elements/checkboxes-element"""
    single = len(questions) == 1
    numbered = [option(f"{i}. {q}", str(i)) for i, q in enumerate(questions, 1)]
    options = numbered if single else [option(f"All {len(questions)} questions", ids.QA_ALL),
                                       *numbered]
    blocks: list[Block] = []
    for group, start in enumerate(range(0, len(options), GROUP_OPTIONS), 1):
        chunk = options[start : start + GROUP_OPTIONS]
        numbers = [o["value"] for o in chunk if o["value"] != ids.QA_ALL]
        label = ("Add to the Q&A list" if group == 1
                 else f"Questions {numbers[0]}–{numbers[-1]}" if len(numbers) > 1
                 else f"Question {numbers[0]}")
        pick: dict[str, Any] = {"type": "checkboxes", "action_id": ids.qa_pick(group),
                                "options": chunk}
        if single:
            pick["initial_options"] = chunk
        blocks.append({"type": "input", "block_id": ids.qa_pick(group), "optional": True,
                       "label": _plain(label), "element": pick})
    return blocks


def render_qa_modal(meta: QAModal) -> Block:
    """The suggested questions with a tick each (and "All"), each editable with its category
    and priority; submitting adds exactly the ticked ones, as worded here."""
    questions = meta.questions
    intro = (
        f"Open questions for the target in deal *{escape(meta.deal_id)}*. Tick the ones to add; "
        "reword them and set their category and priority below first if you like."
    )
    if meta.source:
        intro += f" Raised by _{escape(meta.source)}_."
    blocks: list[Block] = [context([intro]), *_pick_groups([s.question for s in questions])]
    categories = [(c, c) for c in QA_CATEGORIES]
    priorities = [(f"{p.value.title()} priority", p.value) for p in QAPriority]
    for i, s in enumerate(questions, 1):
        blocks += [
            {
                "type": "input",
                "block_id": ids.qa_field("text", i),
                "label": _plain(f"Question {i}"),
                "element": {
                    "type": "plain_text_input",
                    "action_id": ids.qa_field("text", i),
                    "multiline": True,
                    "max_length": QUESTION_MAX,
                    "initial_value": s.question[:QUESTION_MAX],
                },
            },
            _select(ids.qa_field("category", i), f"Category of question {i}", categories,
                    category_of(s.category)),
            _select(ids.qa_field("priority", i), f"Priority of question {i}", priorities,
                    QAPriority.MEDIUM.value),
        ]
    return _modal(ids.QA_VIEW, "Add to Q&A", "Add to Q&A", meta.encode(), blocks)


def render_reason_modal(
    callback_id: str,
    *,
    title: str,
    submit: str,
    metadata: str,
    intro: str,
    label: str,
    hint: str,
    optional: bool,
) -> Block:
    """A short reason before a Reject or a 👎, kept in the deal's audit log."""
    return _modal(
        callback_id,
        title,
        submit,
        metadata,
        [
            context([intro]),
            {
                "type": "input",
                "block_id": ids.REASON_INPUT,
                "optional": optional,
                "label": _plain(label),
                "hint": _plain(hint),
                "element": {
                    "type": "plain_text_input",
                    "action_id": ids.REASON_INPUT,
                    "multiline": True,
                    "max_length": REASON_MAX,
                },
            },
        ],
    )


def render_loading_modal(title: str) -> Block:
    """What opens the moment a button that asks first is clicked: the trigger_id lives 3 s, so
    the modal is opened at once and its content follows by `views.update`."""
    return {
        "type": "modal",
        "title": _plain(cut(title, TITLE)),
        "close": _plain("Cancel"),
        "blocks": [context(["⏳ Loading…"])],
    }


def render_notice_modal(title: str, text: str) -> Block:
    """An opened modal that cannot go on (not allowed, gone, failed): what happened, and Close."""
    return {
        "type": "modal",
        "title": _plain(cut(title, TITLE)),
        "close": _plain("Close"),
        "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": cut(text, 3000)}}],
    }
