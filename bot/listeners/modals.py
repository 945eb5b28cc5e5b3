"""Actions that ask first, in a modal: "Add to Q&A…" (which suggested questions, as worded and
classified there), Reject (why) and 👎 (what was wrong). A click opens the modal's loading view
at once with its trigger_id (valid for 3 s), within the ack path, and its content replaces it by
`views.update` when the checks behind it are done (`bot.opened_modal`); the modal's
private_metadata names the deal and the message it came from. A submission is checked before it
is acked — a modal with nothing ticked, or a ticked question left empty, stays open with the
error under the field (`response_action: errors`) — then recorded in a job, as every click is:
the thread says what was added, the decided pair or the 👎 becomes a note.
https://docs.slack.dev/surfaces/modals#handling_submissions
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.web.async_client import AsyncWebClient

from bot import ids
from bot.blocks.answer import figure_line
from bot.blocks.kit import Block, SlackMessage, cut, fallback, mark_done, plural, section, who
from bot.blocks.messages import render_error
from bot.blocks.modals import render_qa_modal, render_reason_modal
from bot.blocks.mrkdwn import escape, plain
from bot.deps import Deps
from bot.listeners.actions import (
    Click,
    belongs_here,
    decide,
    edit_message,
    feedback,
    may_decide,
    modal_listener,
    tell_anywhere,
)
from bot.listeners.home import publish_home
from bot.payloads import (
    Decision,
    Feedback,
    FeedbackModal,
    Origin,
    QAModal,
    RejectModal,
    SuggestedQuestions,
)
from bot.slacktext import from_input
from manda.deals import category_of
from manda.models import QAItem, QAPriority, ReviewDecisionKind

log = logging.getLogger(__name__)

Values = dict[str, dict[str, dict[str, Any]]]


def _origin(click: Click) -> dict[str, str | None]:
    """Where the clicked button was, for the modal's metadata (nothing for the Home tab)."""
    if click.in_home or click.message is None or click.channel is None:
        return {}
    return {"ch": click.channel, "m": click.message.get("ts"), "t": click.thread_ts}


async def _open(deps: Deps, client: AsyncWebClient, click: Click, view: Block) -> None:
    """Fill the modal the click opened (its loading view) with `view`."""
    if click.message is not None and click.channel is not None:
        deps.edits.seen(click.channel, click.message["ts"], click.message.get("blocks", []))
    if click.modal is None:  # a click that did not come through `modal_listener`
        await client.views_open(trigger_id=click.body["trigger_id"], view=view)
        return
    await click.modal.show(view)


def _submitted_click(
    deps: Deps, body: dict[str, Any], origin: Origin, action_id: str, value: str, block_id: str
) -> Click:
    """The click a submission completes, rebuilt from the modal's metadata, so the same code
    records it and edits the message it came from (when this process remembers its blocks)."""
    synthetic: dict[str, Any] = {
        "user": body["user"],
        "team": body.get("team") or {"id": body["user"].get("team_id")},
        "actions": [{"action_id": action_id, "value": value, "block_id": block_id}],
    }
    if origin.channel is None:
        synthetic["container"] = {"type": "view"}
        return Click(synthetic)
    synthetic["channel"] = {"id": origin.channel}
    synthetic["container"] = {"type": "message", "channel_id": origin.channel,
                              "message_ts": origin.message, "thread_ts": origin.thread}
    blocks = deps.edits.known(origin.channel, origin.message or "")
    if origin.message and blocks is not None:
        shown = next((b["text"]["text"] for b in blocks
                      if b.get("type") == "section" and isinstance(b.get("text"), dict)), " ")
        synthetic["message"] = {"ts": origin.message, "thread_ts": origin.thread,
                                "blocks": blocks, "text": fallback(shown)}
    return Click(synthetic)


def _text(values: Values, block_id: str) -> str:
    return str((values.get(block_id, {}).get(block_id) or {}).get("value") or "")


def _chosen(values: Values, block_id: str) -> str | None:
    selected = (values.get(block_id, {}).get(block_id) or {}).get("selected_option") or {}
    return selected.get("value")


def _ticked(values: Values) -> set[str]:
    """The ticked options of every checkbox group of the Add to Q&A modal."""
    ticked: set[str] = set()
    for block_id, actions in values.items():
        if block_id == ids.QA_PICK or block_id.startswith(f"{ids.QA_PICK}."):
            state = actions.get(block_id) or {}
            ticked |= {str(o.get("value")) for o in state.get("selected_options") or []}
    return ticked


# ---------------------------------------------------------------- Add to Q&A…


async def open_qa(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    offer = SuggestedQuestions.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, offer.deal_id):
        return
    meta = QAModal(**offer.model_dump(by_alias=True), **_origin(click))
    await _open(deps, client, click, render_qa_modal(meta))


def qa_choices(meta: QAModal, values: Values) -> tuple[list[tuple[int, str]], dict[str, str]]:
    """The ticked questions (number, text as edited), or the errors to show in the modal."""
    ticked = _ticked(values)
    if not ticked:
        return [], {ids.QA_PICK: "Tick the questions to add (or All)."}
    every = ids.QA_ALL in ticked
    chosen: list[tuple[int, str]] = []
    errors: dict[str, str] = {}
    for i in range(1, len(meta.questions) + 1):
        if not every and str(i) not in ticked:
            continue
        text = from_input(_text(values, ids.qa_field("text", i)))
        if not text:
            errors[ids.qa_field("text", i)] = "Write the question, or untick it."
        chosen.append((i, text))
    return chosen, errors


def added_summary(items: list[tuple[QAItem, bool]], user: str, deal_id: str) -> SlackMessage:
    """What the thread is told: each question added (numbered) and any already on the list."""
    added = [item for item, created in items if created]
    lines = [
        f"• Q{item.number} “{escape(plain(item.question, 400))}” ({escape(item.category)}, "
        f"{item.priority.value} priority)"
        for item in added
    ]
    head = (
        f"📝 {who(user)} added {plural(len(added), 'question')} to the Q&A list of "
        f"*{escape(deal_id)}*:"
        if added
        else f"📝 Nothing new for the Q&A list of *{escape(deal_id)}*:"
    )
    already = [item for item, created in items if not created]
    if already:
        numbers = ", ".join(f"Q{i.number}" for i in already)
        lines.append(f"Already on the list: {numbers}.")
    text = "\n".join([head, *lines])
    return SlackMessage(text=fallback(text), blocks=[section(cut(text))])


async def add_chosen(
    deps: Deps, client: AsyncWebClient, click: Click, meta: QAModal,
    chosen: list[tuple[int, str]], values: Values,
) -> None:
    """Add the ticked questions as worded in the modal, once each; say so in the thread."""
    user = click.user
    if not await belongs_here(deps, client, click, meta.deal_id):
        return
    results: list[tuple[QAItem, bool]] = []
    for i, text in chosen:
        suggestion = meta.questions[i - 1]
        priority = _chosen(values, ids.qa_field("priority", i)) or QAPriority.MEDIUM.value
        results.append(
            await deps.deals.add_question(
                meta.deal_id,
                text,
                by=user,
                category=category_of(
                    _chosen(values, ids.qa_field("category", i)) or suggestion.category
                ),
                priority=QAPriority(priority),
                finding_id=suggestion.finding_id,
                source=meta.source,
            )
        )
    summary = added_summary(results, user, meta.deal_id)
    created = sum(c for _, c in results)
    note = (
        f"📝 {who(user)} added {plural(created, 'question')} to the Q&A list"
        + (f" ({', '.join(f'Q{i.number}' for i, c in results if c)})" if created else "")
    )
    await edit_message(
        deps,
        client,
        click,
        lambda blocks: mark_done(
            blocks, block_id=ids.QA_ACTIONS, action_id=ids.QA_OPEN, note=note
        ),
    )
    if click.in_home:
        await publish_home(deps, client, click.team, user)
    elif click.channel:
        await client.chat_postMessage(
            channel=click.channel, thread_ts=meta.thread, text=summary.text, blocks=summary.blocks
        )


# ---------------------------------------------------------------- Reject and 👎


async def ask_reject(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    payload = Decision.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id):
        return
    if not await may_decide(deps, client, click, payload.deal_id, ReviewDecisionKind.REJECT):
        return
    finding = await deps.deals.finding(payload.deal_id, payload.finding_id)
    if finding is None:
        await tell_anywhere(
            deps, client, click,
            "This finding no longer exists (its document may have been re-ingested); "
            "nothing was recorded.",
        )
        return
    names = await deps.deals.document_names(payload.deal_id)
    meta = RejectModal(d=payload.deal_id, f=payload.finding_id, **_origin(click))
    await _open(deps, client, click, render_reason_modal(
        ids.REJECT_VIEW,
        title="Reject finding",
        submit="Reject",
        metadata=meta.model_dump_json(by_alias=True, exclude_none=True),
        intro=(
            f"{figure_line(finding, names.get(finding.document_id))}\n"
            "Rejected, Manda stops using it in answers. Your reason is kept with your name in "
            "the deal's audit log."
        ),
        label="Why reject it?",
        hint="e.g. “preliminary figure, superseded by the Q3 report” or “misread cell”",
        optional=False,
    ))


async def ask_feedback(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    payload = Feedback.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id):
        return
    meta = FeedbackModal(d=payload.deal_id, c=payload.conversation_id, **_origin(click))
    await _open(deps, client, click, render_reason_modal(
        ids.FEEDBACK_VIEW,
        title="What was wrong?",
        submit="Send 👎",
        metadata=meta.model_dump_json(by_alias=True, exclude_none=True),
        intro=(
            "Tell the team what was wrong with this answer. It is kept with your name in the "
            "deal's audit log."
        ),
        label="What was wrong?",
        hint="e.g. “wrong period”, “missed the audited figure”, “too long”",
        optional=True,
    ))


# ---------------------------------------------------------------- submissions

async def _report(deps: Deps, client: AsyncWebClient, click: Click, work: Awaitable[None],
                  doing: str) -> None:
    try:
        await work
    except Exception as exc:
        log.exception("modal submission failed (%s)", doing)
        await tell_anywhere(deps, client, click, render_error(exc, doing).text)


Errors = dict[str, str]
Job = tuple[Click, Awaitable[None], str]  # the completed click, its work, what it is doing


def _qa_submitted(deps: Deps, client: AsyncWebClient, body: dict[str, Any],
                  values: Values) -> Errors | Job:
    meta = QAModal.decode(body["view"].get("private_metadata"))
    chosen, errors = qa_choices(meta, values)
    if errors:
        return errors
    click = _submitted_click(deps, body, meta, ids.QA_OPEN, "", ids.QA_ACTIONS)
    work = add_chosen(deps, client, click, meta, chosen, values)
    return click, work, "add those questions to the Q&A list"


def _reject_submitted(deps: Deps, client: AsyncWebClient, body: dict[str, Any],
                      values: Values) -> Errors | Job:
    meta = RejectModal.decode(body["view"].get("private_metadata"))
    reason = from_input(_text(values, ids.REASON_INPUT))
    if not reason:
        return {ids.REASON_INPUT: "Say briefly why, for the audit log."}
    value = Decision(d=meta.deal_id, f=meta.finding_id).encode()
    click = _submitted_click(deps, body, meta, ids.REJECT_FINDING, value,
                             ids.decision_block(meta.finding_id))
    return click, decide(deps, client, click, ReviewDecisionKind.REJECT, reason), (
        "reject this finding")


def _feedback_submitted(deps: Deps, client: AsyncWebClient, body: dict[str, Any],
                        values: Values) -> Errors | Job:
    meta = FeedbackModal.decode(body["view"].get("private_metadata"))
    value = Feedback(d=meta.deal_id, c=meta.conversation_id).encode()
    click = _submitted_click(deps, body, meta, ids.FEEDBACK_DOWN, value, ids.ANSWER_ACTIONS)
    reason = from_input(_text(values, ids.REASON_INPUT))
    return click, feedback(deps, client, click, False, reason), "record your feedback"


Submission = Callable[[Deps, AsyncWebClient, dict[str, Any], Values], Errors | Job]
SUBMISSIONS: dict[str, Submission] = {
    ids.QA_VIEW: _qa_submitted,
    ids.REJECT_VIEW: _reject_submitted,
    ids.FEEDBACK_VIEW: _feedback_submitted,
}


def _on_submit(deps: Deps, submission: Submission) -> Callable[..., Awaitable[None]]:
    """A Bolt view listener: errors keep the modal open; else ack (closing it) and run the job."""

    async def on_submit(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        values: Values = body["view"].get("state", {}).get("values", {})
        outcome = submission(deps, client, body, values)
        if isinstance(outcome, dict):
            await ack(response_action="errors", errors=outcome)
            return
        await ack()
        click, work, doing = outcome
        deps.jobs.spawn(_report(deps, client, click, work, doing),
                        name=f"view {body['view'].get('callback_id')}")

    return on_submit


def register(app: AsyncApp, deps: Deps) -> None:
    app.action(ids.QA_OPEN)(modal_listener(deps, open_qa, "open the Add to Q&A form",
                                           "Add to Q&A"))
    app.action(ids.REJECT_FINDING)(modal_listener(deps, ask_reject,
                                                  "ask why to reject this finding",
                                                  "Reject finding"))
    app.action(ids.FEEDBACK_DOWN)(modal_listener(deps, ask_feedback, "ask what was wrong",
                                                 "What was wrong?"))
    for callback_id, submission in SUBMISSIONS.items():
        app.view(callback_id)(_on_submit(deps, submission))
