"""The review queue in Slack: each pending finding with its excerpt, source and Approve / Reject."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot import ids
from bot.blocks.answer import finding_title
from bot.blocks.kit import (
    Block,
    SlackMessage,
    actions,
    button,
    context,
    fallback,
    section,
    when,
    who,
)
from bot.blocks.mrkdwn import escape, plain
from bot.payloads import Decision
from manda.models import Finding, ReviewDecision, ReviewDecisionKind

EXCERPT_LIMIT = 300
QUEUE_PAGE = 10  # findings per message: 3 blocks each, well under 50


def render_finding(deal_id: str, finding: Finding, document: str | None) -> list[Block]:
    where = escape(f"{document}, {finding.location.label}" if document else finding.location.label)
    lines = [finding_title(finding)]
    if finding.review_priority == "high":
        lines[0] += "  🔺 _high priority_"
    lines.append(f"> {escape(plain(finding.excerpt, EXCERPT_LIMIT))}")
    lines.append(f"_Source: {where}_")
    value = Decision(d=deal_id, f=finding.id).encode()
    return [
        section("\n".join(lines)),
        actions(
            ids.decision_block(finding.id),
            [
                button("Approve finding", ids.APPROVE_FINDING, value, style="primary"),
                button("Reject", ids.REJECT_FINDING, value, style="danger"),
            ],
        ),
    ]


def render_review_queue(
    deal_id: str, findings: Sequence[Finding], documents: Mapping[str, str]
) -> SlackMessage:
    """The first page of the queue; how many more wait and where to see them."""
    if not findings:
        text = f"Nothing waiting for review in *{escape(deal_id)}*: every finding has been decided."
        return SlackMessage(text=fallback(text), blocks=[section(text)])
    shown = findings[:QUEUE_PAGE]
    intro = (
        f"*{len(findings)} finding{'s' if len(findings) != 1 else ''} of {escape(deal_id)} "
        f"waiting for review*"
        + (f" — the first {len(shown)}:" if len(findings) > len(shown) else ":")
    )
    blocks: list[Block] = [section(intro)]
    for finding in shown:
        blocks.extend(render_finding(deal_id, finding, documents.get(finding.document_id)))
    if len(findings) > len(shown):
        blocks.append(
            context(
                [
                    f"{len(findings) - len(shown)} more: decide these, "
                    "then run `/manda review` again "
                    "(or open Manda's Home tab)."
                ]
            )
        )
    return SlackMessage(text=fallback(intro), blocks=blocks)


def decision_note(decision: ReviewDecision) -> str:
    verb = "Approved" if decision.decision is ReviewDecisionKind.APPROVE else "Rejected"
    mark = "✅" if decision.decision is ReviewDecisionKind.APPROVE else "❌"
    return f"{mark} {verb} by {who(decision.by)} · {when(decision.at)}"


def already_decided_note(status: str, by: str) -> str:
    return f"ℹ️ Already {escape(status)} by {who(by)}"
