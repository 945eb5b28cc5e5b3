"""Manda's App Home: the deals a person can see, what changed in each since they last asked,
their review queue and their Q&A list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.blocks.changes import change_lines
from bot.blocks.kit import MAX_VIEW_BLOCKS, Block, context, cut, divider, header, section
from bot.blocks.mrkdwn import escape
from bot.blocks.qa import qa_line
from bot.blocks.review import render_finding
from manda.deals import DealChanges
from manda.models import Finding, QAItem

FINDINGS_PER_DEAL = 5
CHANGES_PER_DEAL = 5
QA_PER_DEAL = 5


@dataclass(frozen=True)
class HomeDeal:
    """One deal as its Home section shows it."""

    deal_id: str
    channels: Sequence[str]
    documents: int
    pending: Sequence[Finding] = field(default_factory=list)
    qa_items: Sequence[QAItem] = field(default_factory=list)
    document_names: Mapping[str, str] = field(default_factory=dict)
    changes: DealChanges | None = None  # since the person last asked


def _deal_blocks(deal: HomeDeal) -> list[Block]:
    where = ", ".join(f"<#{c}>" for c in deal.channels) or "no channel"
    blocks: list[Block] = [
        header(f"Deal {deal.deal_id}"),
        context(
            [
                f"Linked to {where}",
                f"{deal.documents} document{'s' if deal.documents != 1 else ''}",
                f"{len(deal.pending)} waiting for review",
                f"{len(deal.qa_items)} on the Q&A list",
            ]
        ),
    ]
    if deal.changes:
        blocks.append(section(f"*What changed* {escape(deal.changes.since_reason)}: "
                              f"{escape(deal.changes.headline())}"[:2900]))
        blocks.append(section(cut(change_lines(deal.changes, CHANGES_PER_DEAL))))
    elif deal.changes is not None:
        blocks.append(context([f"Nothing changed {escape(deal.changes.since_reason)}."]))
    if deal.pending:
        blocks.append(section(f"*Review queue of {escape(deal.deal_id)}*"))
        for finding in deal.pending[:FINDINGS_PER_DEAL]:
            blocks.extend(
                render_finding(deal.deal_id, finding, deal.document_names.get(finding.document_id))
            )
        if len(deal.pending) > FINDINGS_PER_DEAL:
            blocks.append(
                context(
                    [f"{len(deal.pending) - FINDINGS_PER_DEAL} more: `/manda review` in {where}."]
                )
            )
    else:
        blocks.append(context(["Nothing waiting for review."]))
    if deal.qa_items:
        lines = "\n".join(qa_line(i) for i in deal.qa_items[:QA_PER_DEAL])
        blocks.append(section(f"*Q&A list of {escape(deal.deal_id)}*\n{lines}"[:3000]))
        if len(deal.qa_items) > QA_PER_DEAL:
            blocks.append(
                context([f"{len(deal.qa_items) - QA_PER_DEAL} more: `/manda qa` in {where}."])
            )
    else:
        blocks.append(context(["The Q&A list is empty."]))
    blocks.append(divider())
    return blocks


def render_home(deals: Sequence[HomeDeal], *, notice: str | None = None) -> dict[str, Any]:
    """The Home tab view (at most 100 blocks; deals that do not fit are named at the end)."""
    blocks: list[Block] = [section(cut(notice))] if notice else []
    blocks += [
        section(
            "*Manda* — your due-diligence analyst. Ask in a deal channel with `@Manda`, "
            "or run `/manda help` there."
        ),
        divider(),
    ]
    if not deals:
        blocks.append(
            section(
                "No deal is linked to a channel you are in. In a deal channel, run "
                "`/manda deal <id>` to link it, then drop the data-room files there."
            )
        )
    left_out: list[str] = []
    for deal in deals:
        part = _deal_blocks(deal)
        if len(blocks) + len(part) > MAX_VIEW_BLOCKS - 1:
            left_out.append(deal.deal_id)
            continue
        blocks.extend(part)
    if left_out:
        blocks.append(
            context([f"Not shown for lack of room: {', '.join(escape(d) for d in left_out)}."])
        )
    return {"type": "home", "blocks": blocks}
