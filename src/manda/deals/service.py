"""The deal operations the front ends call (Slack listeners and CLI commands alike): link a
channel, the documents, a page of the review queue, decide, the Q&A list, feedback, ingesting
files. Rules about who may do what live here (`manda.deals.access`), never in a front end, and no
front end reaches the stores behind these operations.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from manda.answers import Answer
from manda.config import Settings
from manda.deals.access import (
    AccessRules,
    BindingRefusedError,
    Membership,
    Refusal,
    in_workspace,
    workspace_of,
)
from manda.deals.workflows import DealWorkflows
from manda.errors import FindingNotFoundError, UnknownDealError
from manda.exports.qa import write_qa_list
from manda.hitl.qa import QAService
from manda.hitl.review import ReviewService
from manda.ingest.service import IngestService, Progress
from manda.jobs import IngestJob, JobService
from manda.kg.port import ChannelBindings, Corpus, Findings, ReviewLog
from manda.models import (
    AuditEntry,
    Deal,
    Document,
    Finding,
    FindingStatus,
    IngestReport,
    QAItem,
    QAPriority,
    Relation,
    ReviewDecision,
    ReviewDecisionKind,
    stable_id,
    utcnow,
)
from manda.timeline import Timeline, TimelineFilter, timeline_for_deal

log = logging.getLogger(__name__)

BOUND = "channel.bound"
UNBOUND = "channel.unbound"
FEEDBACK = "answer.feedback"


@dataclass(frozen=True)
class Binding:
    """A channel linked to a deal: the deal it was linked to before, whether the deal is new,
    and whether anything changed (linking a channel to its own deal again changes nothing)."""

    channel_key: str
    deal_id: str
    previous: str | None
    created: bool
    changed: bool


@dataclass(frozen=True)
class ReviewPage:
    """One page of the findings waiting for a person, with the names of their documents."""

    deal_id: str
    findings: list[Finding]
    total: int
    offset: int
    document_names: dict[str, str]

    @property
    def has_more(self) -> bool:
        return self.offset + len(self.findings) < self.total


@dataclass(frozen=True)
class DealOverview:
    """What a person sees of a deal at a glance (the Slack Home tab)."""

    deal_id: str
    documents: list[Document]
    pending: list[Finding]
    qa_items: list[QAItem]

    @property
    def document_names(self) -> dict[str, str]:
        return {d.id: d.filename for d in self.documents}


@dataclass(frozen=True)
class PendingEvidence:
    """Findings an answer rests on that still wait for a person, and their documents' names."""

    findings: list[Finding] = field(default_factory=list)
    document_names: dict[str, str] = field(default_factory=dict)


class DealStore(Corpus, Findings, ReviewLog, ChannelBindings, Protocol):
    """The roles the deal operations read directly (search and the Q&A list are reached through
    the services over them)."""


class DealService:
    """Named deal operations over the stores; one per process, shared by every front end."""

    def __init__(
        self,
        *,
        graph: DealStore,
        review: ReviewService,
        qa: QAService,
        ingest: IngestService,
        jobs: JobService,
        settings: Settings,
        workflows: DealWorkflows | None = None,
    ) -> None:
        self._graph = graph
        self._review = review
        self._qa = qa
        self._ingest = ingest
        self._jobs = jobs
        self._ingest_via_queue = settings.ingest_via_queue
        self.rules = AccessRules.from_settings(settings)
        self._workflows = workflows

    @property
    def workflows(self) -> DealWorkflows:
        """The CIM and IRL workflows of the deal's conversations (`manda.deals.workflows`)."""
        if self._workflows is None:
            raise RuntimeError("this DealService was built without workflows")
        return self._workflows

    # ---------------------------------------------------------------- deals and channels

    async def get(self, deal_id: str) -> Deal | None:
        return await self._graph.get_deal(deal_id)

    async def require(self, deal_id: str) -> Deal:
        """The deal, or `UnknownDealError` saying how to create it."""
        deal = await self._graph.get_deal(deal_id)
        if deal is None:
            raise UnknownDealError(deal_id)
        return deal

    async def list_deals(self) -> list[Deal]:
        """Every deal (for a terminal: Slack never lists deals to a channel)."""
        return await self._graph.list_deals()

    async def deal_of(self, channel_key: str) -> str | None:
        """The deal a channel is linked to; nothing from another deal is ever shown there."""
        return await self._graph.channel_deal(channel_key)

    async def channels_of(self, deal_id: str, workspace: str | None = None) -> list[str]:
        """Keys of the channels linked to `deal_id` (in `workspace` when given)."""
        return sorted(
            key
            for key, deal in (await self._graph.list_bindings()).items()
            if deal == deal_id and (workspace is None or in_workspace(key, workspace))
        )

    async def bind(
        self, channel_key: str, deal_id: str, *, by: str, membership: Membership
    ) -> Binding:
        """Link the channel to `deal_id` (creating an empty deal for a new id), if `by` may.

        Raises `BindingRefusedError` otherwise; a link is audited in the deal's log.
        """
        current = await self._graph.channel_deal(channel_key)
        if current == deal_id:
            return Binding(channel_key, deal_id, current, created=False, changed=False)
        if current is not None:
            raise BindingRefusedError(Refusal.ALREADY_LINKED)
        admins = self.rules.deal_admins
        if admins and by not in admins:
            raise BindingRefusedError(Refusal.NOT_ADMIN)
        created = await self._graph.get_deal(deal_id) is None
        if not created and not admins:
            await self._require_member_elsewhere(channel_key, deal_id, by, membership)
        if created:
            await self._graph.upsert_deal(Deal(id=deal_id, name=deal_id))
        await self._graph.bind_channel(channel_key, deal_id)
        detail = "linked a new deal" if created else "linked"
        await self._audit(deal_id, BOUND, channel_key, by, detail)
        return Binding(channel_key, deal_id, None, created=created, changed=True)

    async def _require_member_elsewhere(
        self, channel_key: str, deal_id: str, by: str, membership: Membership
    ) -> None:
        """The first link of a deal in a workspace is free; later ones need a member of a group
        channel already linked to it."""
        linked = await self.channels_of(deal_id, workspace_of(channel_key))
        if not linked:
            return
        for key in linked:
            if not membership.is_direct(key) and await membership.is_member(key, by):
                return
        raise BindingRefusedError(Refusal.NOT_A_MEMBER)

    async def unbind(self, channel_key: str, *, by: str, membership: Membership) -> str:
        """Unlink the channel from its deal (audited) and return that deal's id."""
        current = await self._graph.channel_deal(channel_key)
        if current is None:
            raise BindingRefusedError(Refusal.NOT_LINKED)
        admins = self.rules.deal_admins
        if admins and by not in admins:
            raise BindingRefusedError(Refusal.NOT_ADMIN)
        # A one-to-one conversation is its person's own: the front end delivers only their commands.
        if (
            not admins
            and not membership.is_direct(channel_key)
            and not await membership.is_member(channel_key, by)
        ):
            raise BindingRefusedError(Refusal.NOT_A_MEMBER)
        await self._graph.unbind_channel(channel_key)
        await self._audit(current, UNBOUND, channel_key, by, "unlinked")
        return current

    async def may_decide(
        self,
        deal_id: str,
        user: str,
        *,
        workspace: str,
        membership: Membership,
        channel_key: str | None = None,
    ) -> bool:
        """Whether `user` may approve or reject the deal's findings from where they clicked."""
        approvers = self.rules.approvers
        if approvers:
            return user in approvers
        linked = [
            key
            for key in await self.channels_of(deal_id, workspace)
            if not membership.is_direct(key)
        ]
        if channel_key is not None and not membership.is_direct(channel_key):
            candidates = [channel_key] if channel_key in linked else []
        else:
            candidates = linked
        for key in candidates:
            if await membership.is_member(key, user):
                return True
        return False

    async def visible_deals(
        self, user: str, *, workspace: str, membership: Membership
    ) -> dict[str, list[str]]:
        """Deal id → keys of its group channels that `user` is in (all of them for approvers)."""
        approver = user in self.rules.approvers
        visible: dict[str, list[str]] = {}
        for key, deal_id in sorted((await self._graph.list_bindings()).items()):
            if not in_workspace(key, workspace) or membership.is_direct(key):
                continue
            if approver or await membership.is_member(key, user):
                visible.setdefault(deal_id, []).append(key)
        return visible

    async def overview(self, deal_id: str) -> DealOverview:
        return DealOverview(
            deal_id=deal_id,
            documents=await self._graph.list_documents(deal_id),
            pending=await self._review.queue(deal_id),
            qa_items=await self._qa.items(deal_id),
        )

    # ---------------------------------------------------------------- documents and findings

    async def documents(self, deal_id: str) -> list[Document]:
        return await self._graph.list_documents(deal_id)

    async def document_names(self, deal_id: str) -> dict[str, str]:
        """Document id → the file name people know it by."""
        return {d.id: d.filename for d in await self._graph.list_documents(deal_id)}

    async def findings(
        self, deal_id: str, *, status: FindingStatus | None = None
    ) -> list[Finding]:
        return await self._graph.list_findings(deal_id, status=status)

    async def relations(self, deal_id: str) -> list[Relation]:
        return await self._graph.list_relations(deal_id)

    async def ingest(
        self,
        deal_id: str,
        paths: Sequence[Path],
        *,
        progress: Progress | None = None,
        display_names: dict[Path, str] | None = None,
    ) -> IngestReport:
        """Ingest files or folders here and now (the CLI, the demo, the playground's samples)."""
        return await self._ingest.ingest(
            deal_id, paths, progress=progress, display_names=display_names
        )

    async def ingest_upload(
        self,
        deal_id: str,
        paths: Sequence[Path],
        *,
        names: dict[Path, str],
        by: str,
        progress: Progress | None = None,
    ) -> IngestReport | IngestJob:
        """Files received from a person: ingested here, or queued for `manda worker` when
        MANDA_INGEST_VIA_QUEUE is set (the job is returned, to be followed with `job_status`)."""
        if not self._ingest_via_queue:
            return await self._ingest.ingest(
                deal_id, paths, progress=progress, display_names=names, received=True
            )
        if not paths:
            return IngestReport(deal_id=deal_id)
        return await self._jobs.submit_uploads(
            deal_id, [(names.get(p, p.name), p) for p in paths], requested_by=by
        )

    async def job_status(self, job_id: str) -> IngestJob | None:
        return await self._jobs.status(job_id)

    async def timeline(self, deal_id: str, *, where: TimelineFilter | None = None) -> Timeline:
        """The deal's dated events from its documents, with sources (see `manda.timeline`)."""
        return await timeline_for_deal(self._graph, deal_id, where=where)

    # ---------------------------------------------------------------- review

    async def review_page(
        self, deal_id: str, *, offset: int = 0, limit: int | None = None
    ) -> ReviewPage:
        """Findings waiting for a person, high priority first; `limit=None` is the whole queue."""
        queue = await self._review.queue(deal_id)
        end = None if limit is None else offset + limit
        return ReviewPage(
            deal_id=deal_id,
            findings=queue[offset:end],
            total=len(queue),
            offset=offset,
            document_names=await self.document_names(deal_id),
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
        """Approve or reject a pending finding once (audited); see `ReviewService.decide`."""
        return await self._review.decide(deal_id, finding_id, decision, by=by, reason=reason)

    async def deal_of_finding(self, finding_id: str) -> str:
        """The deal holding `finding_id` (a terminal may name a finding without its deal)."""
        for deal in await self._graph.list_deals():
            if await self._graph.get_finding(deal.id, finding_id) is not None:
                return deal.id
        raise FindingNotFoundError(finding_id)

    async def pending_behind(self, deal_id: str, answer: Answer) -> PendingEvidence:
        """Findings the answer cites or suggests approving that still wait for a person."""
        wanted = [c.finding_id for c in answer.citations if c.finding_id]
        wanted += [
            a.finding_id
            for a in answer.suggested_actions
            if a.type == "approve_finding" and a.finding_id
        ]
        pending: list[Finding] = []
        for finding_id in dict.fromkeys(wanted):
            finding = await self._graph.get_finding(deal_id, finding_id)
            if finding is not None and finding.status is FindingStatus.PENDING:
                pending.append(finding)
        if not pending:
            return PendingEvidence()
        return PendingEvidence(pending, await self.document_names(deal_id))

    # ---------------------------------------------------------------- Q&A list and feedback

    async def add_question(
        self,
        deal_id: str,
        question: str,
        *,
        by: str,
        category: str = "General",
        priority: QAPriority = QAPriority.MEDIUM,
        finding_id: str | None = None,
        source: str | None = None,
    ) -> tuple[QAItem, bool]:
        """Add a question to the deal's Q&A list once; the item and whether it is new."""
        return await self._qa.add(
            deal_id,
            question,
            by=by,
            category=category,
            priority=priority,
            finding_id=finding_id,
            source=source,
        )

    async def questions(self, deal_id: str) -> list[QAItem]:
        """The deal's Q&A list, high priority first."""
        return await self._qa.items(deal_id)

    async def mark_answered(self, deal_id: str, ref: str, *, by: str, answer: str = "") -> QAItem:
        """Question `ref` (its number or id) was answered by the target (audited)."""
        return await self._qa.mark_answered(deal_id, ref, by=by, answer=answer)

    async def edit_question(
        self,
        deal_id: str,
        ref: str,
        *,
        by: str,
        question: str | None = None,
        category: str | None = None,
        priority: QAPriority | None = None,
    ) -> QAItem:
        """Reword question `ref` or change its category or priority (audited)."""
        return await self._qa.edit(
            deal_id, ref, by=by, question=question, category=category, priority=priority
        )

    async def remove_question(self, deal_id: str, ref: str, *, by: str) -> QAItem:
        """Take question `ref` off the list (audited, with its text)."""
        return await self._qa.remove(deal_id, ref, by=by)

    async def export_questions(
        self, deal_id: str, path: Path, *, people: Mapping[str, str] | None = None
    ) -> tuple[Path, int]:
        """The Q&A list as an XLSX at `path`, in number order; the path and how many rows."""
        await self.require(deal_id)
        items = sorted(await self._qa.items(deal_id), key=lambda i: (i.number, i.created_at))
        return write_qa_list(path, deal_id, items, people=people), len(items)

    async def feedback(
        self, deal_id: str, conversation_id: str, *, by: str, helpful: bool, reason: str = ""
    ) -> AuditEntry:
        """A 👍 / 👎 on an answer, kept in the deal's audit log with who and when."""
        detail = "helpful" if helpful else "not helpful"
        if reason.strip():
            detail += f": {reason.strip()}"
        return await self._audit(deal_id, FEEDBACK, conversation_id, by, detail)

    async def audit_log(self, deal_id: str) -> list[AuditEntry]:
        return await self._graph.list_audit(deal_id)

    async def _audit(
        self, deal_id: str, action: str, subject_id: str, by: str, detail: str
    ) -> AuditEntry:
        at = utcnow()
        entry = AuditEntry(
            id=stable_id("a", deal_id, action, subject_id, by, at.isoformat()),
            deal_id=deal_id,
            action=action,
            subject_id=subject_id,
            by=by,
            at=at,
            detail=detail,
        )
        await self._graph.append_audit(entry)
        return entry
