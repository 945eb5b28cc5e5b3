"""The review queue: people approve or reject the findings the pipeline did not promote itself."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from manda.errors import AlreadyDecidedError, FindingNotFoundError, MandaError, NothingToUndoError
from manda.kg.port import Findings, ReviewLog
from manda.models import (
    AuditEntry,
    Finding,
    FindingStatus,
    ReviewDecision,
    ReviewDecisionKind,
    stable_id,
)

_STATUS_OF = {
    ReviewDecisionKind.APPROVE: FindingStatus.APPROVED,
    ReviewDecisionKind.REJECT: FindingStatus.REJECTED,
}


class ReviewStore(Findings, ReviewLog, Protocol):
    """The roles the review queue needs: findings and the decisions and audit log about them."""


class ReviewService:
    """Records each decision once, with who and when, in the decision table and the audit log."""

    def __init__(self, *, graph: ReviewStore) -> None:
        self._graph = graph

    async def queue(self, deal_id: str) -> list[Finding]:
        """Findings waiting for a human, high priority first, then by document and place."""
        pending = await self._graph.list_findings(deal_id, status=FindingStatus.PENDING)
        return sorted(
            pending,
            key=lambda f: (f.review_priority != "high", f.document_id, f.location.label, f.id),
        )

    async def decide(
        self,
        deal_id: str,
        finding_id: str,
        decision: ReviewDecisionKind,
        *,
        by: str,
        reason: str = "",
    ) -> ReviewDecision:
        """Approve or reject a pending finding; a second decision is refused, not applied."""
        if not by.strip():
            raise MandaError(
                "A review decision needs the name of who made it.", hint="Use --by NAME."
            )
        finding = await self._graph.get_finding(deal_id, finding_id)
        if finding is None:
            raise FindingNotFoundError(finding_id)
        previous = await self._graph.get_decision(deal_id, finding_id)
        if previous is not None:
            raise AlreadyDecidedError(finding_id, _STATUS_OF[previous.decision].value, previous.by)
        if finding.status is not FindingStatus.PENDING:
            raise AlreadyDecidedError(finding_id, finding.status.value, "the pipeline")
        record = ReviewDecision(
            finding_id=finding_id, deal_id=deal_id, decision=decision, by=by, reason=reason
        )
        await self._graph.record_decision(record)
        await self._graph.set_finding_status(deal_id, finding_id, _STATUS_OF[decision])
        await self._graph.append_audit(
            AuditEntry(
                id=stable_id("a", deal_id, finding_id, decision.value, record.at.isoformat()),
                deal_id=deal_id,
                action=f"finding.{_STATUS_OF[decision].value}",
                subject_id=finding_id,
                by=by,
                at=record.at,
                detail=reason,
            )
        )
        return record

    async def undo(
        self, deal_id: str, finding_id: str, *, at: datetime, by: str
    ) -> ReviewDecision:
        """Withdraw the decision made at `at` (a person's, or one carried over to a new version
        of its document): the finding waits for review again, and the undo is audited. A second
        undo of the same decision raises `NothingToUndoError` and changes nothing."""
        if not by.strip():
            raise MandaError("An undo needs the name of who made it.", hint="Use --by NAME.")
        finding = await self._graph.get_finding(deal_id, finding_id)
        if finding is None:
            raise FindingNotFoundError(finding_id)
        withdrawn = await self._graph.withdraw_decision(deal_id, finding_id, at=at)
        if withdrawn is None:
            raise NothingToUndoError(finding_id)
        if finding.status is _STATUS_OF[withdrawn.decision]:  # not superseded since
            await self._graph.set_finding_status(deal_id, finding_id, FindingStatus.PENDING)
        what = "approval" if withdrawn.decision is ReviewDecisionKind.APPROVE else "rejection"
        carried = " (carried over from the earlier version)" if withdrawn.carried_from else ""
        await self._graph.append_audit(AuditEntry(
            id=stable_id("a", deal_id, finding_id, "undone", withdrawn.at.isoformat()),
            deal_id=deal_id, action="finding.undone", subject_id=finding_id, by=by,
            detail=f"undid the {what} by {withdrawn.by}{carried}; it waits for review again",
        ))
        return withdrawn

