"""Buttons: Add to Q&A, Approve a finding, 👍, and Review after an ingestion (Reject, 👎 and
"Add to Q&A…" ask first in a modal: `bot.listeners.modals`).

Each click is acked at once; the job checks that the button still belongs to this channel's deal
(and, for decisions, that the person may decide), records it in the domain, edits the message in
place and tells the person what happened — a refusal is explained, never silent.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot import ids
from bot.blocks.ingest import recount_review
from bot.blocks.kit import (
    Block,
    SlackMessage,
    blocks_text,
    context,
    cut,
    fallback,
    mark_done,
    mrkdwn,
    replace_block,
    who,
)
from bot.blocks.messages import render_error
from bot.blocks.mrkdwn import escape
from bot.blocks.qa import added_confirmation, added_note
from bot.blocks.review import (
    QUEUE_PAGE,
    already_decided_note,
    decided_block,
    render_review_queue,
    undone_blocks,
)
from bot.conversations import channel_key, conversation_id, workspace_key
from bot.deps import Deps
from bot.listeners.common import team_of
from bot.listeners.home import publish_home
from bot.opened_modal import OpenedModal
from bot.payloads import AddToQA, Decision, Feedback, OpenReview, Undo
from bot.permissions import SlackMembership
from manda.deals import PRIORITIES, ReviewFilter
from manda.errors import AlreadyDecidedError, FindingNotFoundError, NothingToUndoError
from manda.models import ReviewDecisionKind, utcnow

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Click:
    """One button click, wherever the button was (a message or the Home tab)."""

    body: dict[str, Any]
    respond: AsyncRespond | None = None
    modal: OpenedModal | None = None  # the loading modal a button that asks first opened

    @property
    def action(self) -> dict[str, Any]:
        return self.body["actions"][0]

    @property
    def user(self) -> str:
        return str(self.body["user"]["id"])

    @property
    def team(self) -> str:
        return team_of(self.body)

    @property
    def channel(self) -> str | None:
        return (self.body.get("channel") or {}).get("id") or (self.body.get("container") or {}).get(
            "channel_id"
        )

    @property
    def message(self) -> dict[str, Any] | None:
        return self.body.get("message")

    @property
    def in_home(self) -> bool:
        return (self.body.get("container") or {}).get("type") == "view"

    @property
    def thread_ts(self) -> str | None:
        if self.message is None:
            return None
        return self.message.get("thread_ts") or self.message.get("ts")

    @property
    def conversation(self) -> str | None:
        """The conversation of the thread the clicked message is in; None outside a shared
        message. A slash command's answer was worked out under a key of its own before it was
        posted, so its buttons name that key; its thread is where the team sees it."""
        container = self.body.get("container") or {}
        if self.channel is None or self.in_home or container.get("is_ephemeral"):
            return None
        thread = self.thread_ts or container.get("thread_ts") or container.get("message_ts")
        return conversation_id(self.team, self.channel, str(thread)) if thread else None


async def tell(client: AsyncWebClient, click: Click, text: str) -> None:
    """A note only the clicker sees: in the modal the click opened, when it is still loading;
    else through the click's response_url (which also reaches people who are not members of the
    channel), else as an ephemeral message."""
    if click.modal is not None and click.modal.open_ and await click.modal.say(text):
        return
    blocks = [{"type": "section", "text": mrkdwn(cut(text))}]
    if click.respond is not None and click.body.get("response_url"):
        try:
            await click.respond(
                text=text,
                blocks=blocks,
                response_type="ephemeral",
                replace_original=False,
                thread_ts=click.thread_ts,
            )
            return
        except Exception as exc:  # an expired response_url: fall back to chat.postEphemeral
            log.info("response_url failed (%s); posting an ephemeral message", exc)
    if click.channel is None:
        return
    try:
        await client.chat_postEphemeral(
            channel=click.channel,
            user=click.user,
            text=text,
            thread_ts=click.thread_ts,
            blocks=blocks,
        )
    except SlackApiError as exc:
        log.warning("could not tell %s: %s (%s)", click.user, text, exc.response.get("error"))


async def belongs_here(deps: Deps, client: AsyncWebClient, click: Click, deal_id: str) -> bool:
    """The one gate every button passes: a person of the deal.

    A message button acts only on the deal its channel is bound to; a Home button only for
    someone the Home tab would show the deal to (a member of one of its channels, whatever their
    workspace, or an approver): a forged Home payload gets no further.
    """
    if click.channel is None or click.in_home:
        visible = await deps.deals.visible_deals(
            click.user,
            workspace=workspace_key(click.team),
            membership=SlackMembership(client),
        )
        if deal_id in visible:
            return True
        await tell_anywhere(
            deps,
            client,
            click,
            f"Only members of a channel of deal *{escape(deal_id)}* can use its buttons; "
            "nothing was changed.",
        )
        return False
    bound = await deps.deals.deal_of(channel_key(click.team, click.channel))
    if bound == deal_id:
        return True
    where = f"linked to *{escape(bound)}*" if bound else "not linked to a deal any more"
    await tell(
        client,
        click,
        f"This button belongs to deal *{escape(deal_id)}*, but this channel is {where}; "
        "nothing was changed.",
    )
    return False


async def edit_message(
    deps: Deps,
    client: AsyncWebClient,
    click: Click,
    change: Callable[[list[Block]], list[Block]],
    *,
    text: str | None = None,
) -> None:
    """Apply `change(blocks) -> blocks` to the clicked message, one edit at a time (and its
    fallback `text`, when the change makes the old one wrong)."""
    message = click.message
    if message is None or click.channel is None:
        return
    async with deps.edits.editing(
        click.channel, message["ts"], message.get("blocks", [])
    ) as blocks:
        updated: list[Block] = change(blocks)
        try:
            await client.chat_update(
                channel=click.channel,
                ts=message["ts"],
                # Slack wants words for notifications and screen readers: a message without
                # its own says what its blocks say (https://docs.slack.dev/reference/methods/chat.update)
                text=text or (message.get("text") or "").strip() or fallback(blocks_text(updated)),
                blocks=updated,
            )
        except SlackApiError as exc:
            log.warning("could not update the clicked message (%s)", exc.response.get("error"))
            return
        deps.edits.written(click.channel, message["ts"], updated)


# ---------------------------------------------------------------- Add to Q&A


async def add_to_qa(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    payload = AddToQA.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id):
        return
    item, created = await deps.deals.add_question(
        payload.deal_id,
        payload.question,
        by=click.user,
        category=payload.category,
        finding_id=payload.finding_id,
        source=payload.source,
    )
    note = added_note(item, created, click.user)
    await edit_message(
        deps,
        client,
        click,
        lambda blocks: mark_done(
            blocks,
            block_id=click.action["block_id"],
            action_id=click.action["action_id"],
            value=click.action.get("value"),
            note=note,
        ),
    )
    if click.in_home:
        await publish_home(deps, client, click.team, click.user)
    elif created and click.channel:
        confirmation = added_confirmation(item, click.user)
        await client.chat_postMessage(
            channel=click.channel,
            thread_ts=click.thread_ts,
            text=confirmation.text,
            blocks=confirmation.blocks,
        )
    else:
        await tell(client, click, f"{note} — nothing was added twice.")


# ---------------------------------------------------------------- Approve / Reject


async def may_decide(
    deps: Deps, client: AsyncWebClient, click: Click, deal_id: str,
    kind: ReviewDecisionKind | None,
) -> bool:
    """Whether the clicker may decide the deal's findings here; if not, they are told why."""
    where = None if click.in_home or click.channel is None else click.channel
    allowed = await deps.deals.may_decide(
        deal_id,
        click.user,
        membership=SlackMembership(client),
        channel_key=channel_key(click.team, where) if where else None,
    )
    if not allowed:
        verb = {ReviewDecisionKind.APPROVE: "approve", ReviewDecisionKind.REJECT: "reject",
                None: "undo decisions on"}[kind]
        await tell_anywhere(
            deps,
            client,
            click,
            f"Only members of the channel of deal *{escape(deal_id)}* (or its approvers) "
            f"can {verb} its findings, so nothing was recorded. "
            "Ask someone in that channel to decide.",
        )
    return allowed


async def decide(
    deps: Deps,
    client: AsyncWebClient,
    click: Click,
    kind: ReviewDecisionKind,
    reason: str = "",
) -> None:
    """Record the decision (with its reason) and show it in place of the clicked pair."""
    payload = Decision.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id):
        return
    if not await may_decide(deps, client, click, payload.deal_id, kind):
        return
    verb = "approve" if kind is ReviewDecisionKind.APPROVE else "reject"
    block_id = ids.decision_block(payload.finding_id)
    try:
        decision = await deps.deals.decide(
            payload.deal_id, payload.finding_id, kind, by=click.user, reason=reason
        )
    except AlreadyDecidedError as exc:
        note = already_decided_note(exc.status, exc.by)
        await edit_message(
            deps,
            client,
            click,
            lambda blocks: replace_block(blocks, block_id, context([note], block_id=block_id)),
        )
        await tell_anywhere(
            deps,
            client,
            click,
            f"This finding was already {escape(exc.status)} by {who(exc.by)}, "
            f"so your {verb} was not recorded. Nothing changed.",
        )
        return
    except FindingNotFoundError:
        await tell_anywhere(
            deps,
            client,
            click,
            "This finding no longer exists (its document may have been re-ingested); "
            "nothing was recorded.",
        )
        return
    decided = decided_block(payload.deal_id, decision)
    await edit_message(
        deps, client, click, lambda blocks: recount_review(
            replace_block(blocks, block_id, decided), payload.deal_id, -1)
    )
    if click.in_home:
        await publish_home(deps, client, click.team, click.user)


async def undo(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    """Withdraw the decision the button names (a person's, or one carried over to a new
    version): the finding waits for review again and its Approve / Reject pair is offered."""
    payload = Undo.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id):
        return
    if not await may_decide(deps, client, click, payload.deal_id, None):
        return
    block_id = ids.decision_block(payload.finding_id)
    try:
        withdrawn = await deps.deals.undo(
            payload.deal_id, payload.finding_id, at=payload.at, by=click.user
        )
    except NothingToUndoError:
        await tell_anywhere(deps, client, click, "That decision was already undone (or the "
                            "finding decided again since), so nothing changed.")
        return
    except FindingNotFoundError:
        await tell_anywhere(deps, client, click, "This finding no longer exists (its document "
                            "may have been re-ingested); nothing was undone.")
        return
    at = utcnow()

    def undone(blocks: list[Block]) -> list[Block]:
        out: list[Block] = []
        for b in blocks:
            if b.get("block_id") != block_id:
                out.append(b)
                continue
            said = str((b.get("text") or {}).get("text", ""))
            out += undone_blocks(payload.deal_id, withdrawn, said, click.user, at)
        return recount_review(out, payload.deal_id, +1)  # it waits for review again

    await edit_message(deps, client, click, undone)
    if click.in_home:
        await publish_home(deps, client, click.team, click.user)


async def tell_anywhere(deps: Deps, client: AsyncWebClient, click: Click, text: str) -> None:
    if click.modal is not None and click.modal.open_ and await click.modal.say(text):
        return
    if click.in_home:
        await publish_home(deps, client, click.team, click.user, notice=text)
    else:
        await tell(client, click, text)


# ---------------------------------------------------------------- feedback and Review


async def feedback(
    deps: Deps, client: AsyncWebClient, click: Click, positive: bool, reason: str = ""
) -> None:
    payload = Feedback.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id):
        return
    await deps.deals.feedback(
        payload.deal_id, click.conversation or payload.conversation_id, by=click.user,
        helpful=positive, reason=reason,
    )
    note = f"{'👍' if positive else '👎'} Thanks {who(click.user)} — your feedback was recorded"
    note += f": “{escape(cut(reason, 300))}”" if reason.strip() else "."
    await edit_message(
        deps,
        client,
        click,
        lambda blocks: replace_block(
            blocks, ids.ANSWER_ACTIONS, context([note], block_id=ids.ANSWER_ACTIONS)
        ),
    )


async def open_review(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    payload = OpenReview.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id):
        return
    message = await _queue_page(deps, payload)
    if click.channel is None:
        return
    await client.chat_postMessage(
        channel=click.channel, thread_ts=click.thread_ts, text=message.text, blocks=message.blocks
    )


async def turn_review_page(deps: Deps, client: AsyncWebClient, click: Click) -> None:
    """Previous / Next: the same message shows the other page (no new message per page)."""
    payload = OpenReview.decode(click.action.get("value"))
    if not await belongs_here(deps, client, click, payload.deal_id):
        return
    message = await _queue_page(deps, payload)
    await edit_message(deps, client, click, lambda _blocks: message.blocks, text=message.text)


async def _queue_page(deps: Deps, payload: OpenReview) -> SlackMessage:
    priority = payload.priority if payload.priority in PRIORITIES else None
    where = ReviewFilter(
        priority=priority,  # type: ignore[arg-type]
        document=payload.document,
        subject=payload.subject,
    )
    page = await deps.deals.review_page(
        payload.deal_id, offset=payload.offset, limit=QUEUE_PAGE, where=where
    )
    return render_review_queue(page)


# ---------------------------------------------------------------- wiring


async def _run(
    deps: Deps, client: AsyncWebClient, click: Click, work: Awaitable[None], doing: str
) -> None:
    """Run one click's work; if it fails, the person who clicked is told what went wrong."""
    try:
        await work
    except Exception as exc:
        log.exception("button %s failed", click.action.get("action_id"))
        await tell_anywhere(deps, client, click, render_error(exc, doing).text)


Work = Callable[[Deps, AsyncWebClient, Click], Awaitable[None]]

BUTTONS: list[tuple[str | re.Pattern[str], Work, str]] = [
    (ids.ADD_TO_QA_ANY, add_to_qa, "add this to the Q&A list"),
    (
        ids.APPROVE_FINDING,
        lambda d, c, k: decide(d, c, k, ReviewDecisionKind.APPROVE),
        "approve this finding",
    ),
    (ids.UNDO_DECISION, undo, "undo this decision"),
    (ids.FEEDBACK_UP, lambda d, c, k: feedback(d, c, k, True), "record your feedback"),
    (ids.OPEN_REVIEW, open_review, "show the review queue"),
    (ids.REVIEW_PAGE, turn_review_page, "show that page of the review queue"),
    (ids.REVIEW_PREVIOUS, turn_review_page, "show that page of the review queue"),
]


def listener(deps: Deps, work: Work, doing: str) -> Callable[..., Awaitable[None]]:
    """A Bolt action listener: ack, then run `work` as a job that reports its failure."""

    async def on_click(
        ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient, respond: AsyncRespond
    ) -> None:
        await ack()
        click = Click(body, respond)
        deps.jobs.spawn(
            _run(deps, client, click, work(deps, client, click), doing),
            name=f"click {click.action.get('action_id')}",
        )

    return on_click


def modal_listener(deps: Deps, work: Work, doing: str, title: str
                   ) -> Callable[..., Awaitable[None]]:
    """A Bolt action listener for a button that asks first: ack, open the modal's loading view
    with the click's trigger_id at once (it lives 3 s), then fill it in from a job
    (`bot.opened_modal`)."""

    async def on_click(
        ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient, respond: AsyncRespond
    ) -> None:
        await ack()
        modal = await OpenedModal.open(client, body.get("trigger_id"), title)
        click = Click(body, respond, modal=modal)
        deps.jobs.spawn(
            _run(deps, client, click, work(deps, client, click), doing),
            name=f"click {click.action.get('action_id')}",
        )

    return on_click


def register(app: AsyncApp, deps: Deps) -> None:
    for matcher, work, doing in BUTTONS:
        app.action(matcher)(listener(deps, work, doing))
