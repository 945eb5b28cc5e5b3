"""The review queue in Slack: each pending finding with its excerpt, source and Approve / Reject."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot import ids
from bot.blocks.answer import APPROVAL_MEANS, decision_pair, finding_title
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
from bot.payloads import OpenReview, Undo
from manda.deals import ReviewPage, Urgency
from manda.models import CarriedDecision, Finding, ReviewDecision, ReviewDecisionKind

EXCERPT_LIMIT = 300
QUEUE_PAGE = 10  # findings per message: 2 blocks each, well under 50
PRIORITY_MARK = {
    "high": "🔺 high priority",
    "medium": "🔸 medium priority",
    "low": "▫️ low priority",
}


def excerpt_lines(finding: Finding, heading: str | None) -> list[str]:
    """The quoted passage under its heading, its lines kept apart (slide text does not run on)."""
    pieces = [" ".join(line.split()) for line in finding.excerpt.splitlines() if line.strip()]
    quote = escape(plain(" · ".join(pieces), EXCERPT_LIMIT))
    head = f"> *{escape(plain(heading, 90))}*\n" if heading else ""
    return [f"{head}> {quote}"]


def render_finding(
    deal_id: str,
    finding: Finding,
    document: str | None,
    urgency: Urgency | None = None,
    heading: str | None = None,
) -> list[Block]:
    where = escape(f"{document}, {finding.location.label}" if document else finding.location.label)
    lines = [finding_title(finding)]
    if urgency is not None:
        why = f" — {escape('; '.join(urgency.reasons[:2]))}" if urgency.reasons else ""
        lines[0] += f"  _{PRIORITY_MARK[urgency.priority]}{why}_"
    elif finding.review_priority == "high":
        lines[0] += "  🔺 _high priority_"
    lines += excerpt_lines(finding, heading)
    lines.append(f"_Source: {where}_")
    return [section("\n".join(lines)), decision_pair(deal_id, finding.id)]


def _page_button(page: ReviewPage, text: str, offset: int, action_id: str) -> Block:
    where = page.where
    value = OpenReview(
        d=page.deal_id, o=offset, p=where.priority, doc=where.document, s=where.subject
    ).encode()
    return button(text, action_id, value)


def render_review_queue(page: ReviewPage, *, size: int = QUEUE_PAGE) -> SlackMessage:
    """One page of the queue, most urgent first, with Previous / Next and how to filter."""
    deal = escape(page.deal_id)
    filtered = f" ({escape(page.where.describe())})" if page.where else ""
    if not page.total:
        text = f"Nothing{filtered} waiting for review in *{deal}*" + (
            ": every finding has been decided." if not page.where else "."
        )
        return SlackMessage(text=fallback(text), blocks=[section(text)])
    shown = page.findings[:size]
    first, last = page.offset + 1, page.offset + len(shown)
    intro = f"*{plural(page.total, 'finding')} of {deal} waiting for review*{filtered}" + (
        f" — {first}–{last}, most urgent first:" if page.total > len(shown) else ":"
    )
    counts = " · ".join(f"{n} {p}" for p, n in page.counts.items() if n)
    blocks: list[Block] = [section(intro)]
    if counts:
        blocks.append(context([f"By priority (rubric and materiality): {counts}"]))
    for finding in shown:
        blocks.extend(
            render_finding(
                page.deal_id,
                finding,
                page.document_names.get(finding.document_id),
                page.urgency.get(finding.id),
                page.headings.get(finding.id),
            )
        )
    paging = []
    if page.offset > 0:
        paging.append(
            _page_button(page, "← Previous", max(0, page.offset - size), ids.REVIEW_PREVIOUS)
        )
    if page.offset + len(shown) < page.total:
        more = min(size, page.total - last)
        paging.append(_page_button(page, f"Next {more} →", last, ids.REVIEW_PAGE))
    if paging:
        blocks.append(actions(ids.REVIEW_PAGING, paging))
    blocks.append(context([APPROVAL_MEANS]))
    blocks.append(
        context(
            [
                "Filter: `/manda review high`, `/manda review doc:<file name>`, "
                "`/manda review subject:<subject>` (they combine)."
            ]
        )
    )
    return SlackMessage(text=fallback(intro), blocks=blocks)


def decision_note(decision: ReviewDecision) -> str:
    verb = "Approved" if decision.decision is ReviewDecisionKind.APPROVE else "Rejected"
    mark = "✅" if decision.decision is ReviewDecisionKind.APPROVE else "❌"
    carried = " in the earlier version, carried over" if decision.carried_from else ""
    return f"{mark} {verb} by {who(decision.by)}{carried} · {when(decision.at)}"


def with_undo(text: str, deal_id: str, finding_id: str, at: datetime) -> Block:
    """A decision, said in `text`, with the Undo button that withdraws it (in its finding's
    decision block, so the message shows one state of the finding at a time)."""
    value = Undo(d=deal_id, f=finding_id, t=at).encode()
    return {**section(text), "block_id": ids.decision_block(finding_id),
            "accessory": button("Undo", ids.UNDO_DECISION, value)}


def decided_block(deal_id: str, decision: ReviewDecision) -> Block:
    """What replaces a finding's Approve / Reject pair once decided: who, when, and Undo."""
    return with_undo(decision_note(decision), deal_id, decision.finding_id, decision.at)


def undone_blocks(
    deal_id: str, withdrawn: ReviewDecision, said: str, by: str, at: datetime
) -> list[Block]:
    """What replaces a decision once undone: the decision as it was shown (`said`, struck
    through, so the figure it named stays in view), who undid it, and the pair again."""
    struck = " ".join(f"~{line.strip()}~" for line in said.splitlines() if line.strip())
    what = "Approval" if withdrawn.decision is ReviewDecisionKind.APPROVE else "Rejection"
    note = (f"↩️ {what} undone by {who(by)} · {when(at)} — the finding waits for review "
            "again")
    return [context([struck, note] if struck else [note],
                    block_id=ids.undone_block(withdrawn.finding_id)),
            decision_pair(deal_id, withdrawn.finding_id)]


def carried_blocks(deal_id: str, carried: Sequence[CarriedDecision], limit: int) -> list[Block]:
    """The decisions an ingestion carried to new versions' unchanged figures, each with Undo."""
    if not carried:
        return []
    head = (f"↪️ *{plural(len(carried), 'decision')} carried over* to new versions that restate "
            "the figure unchanged:")
    blocks: list[Block] = [section(head)]
    for c in carried[:limit]:
        verb = "approved" if c.decision is ReviewDecisionKind.APPROVE else "rejected"
        text = (f"{escape(plain(c.figure, 200))} in `{escape(plain(c.document, 150))}` — "
                f"{verb} by {who(c.by)} in the earlier version")
        blocks.append(with_undo(text, deal_id, c.finding_id, c.at))
    if len(carried) > limit:
        blocks.append(context([f"… and {len(carried) - limit} more (the audit log lists "
                               "every one)."]))
    return blocks


def already_decided_note(status: str, by: str) -> str:
    return f"ℹ️ Already {escape(status)} by {who(by)}"
