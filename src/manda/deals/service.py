"""The deal operations the front ends call (Slack listeners and CLI commands alike): link a
channel, the documents, a page of the review queue, decide, the Q&A list, feedback, ingesting
files. Rules about who may do what live here (`manda.deals.access`), never in a front end, and no
front end reaches the stores behind these operations.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

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
from manda.errors import (
    AlreadyDecidedError,
    FindingNotFoundError,
    MandaError,
    UnknownDealError,
)
from manda.finance.amounts import Amount, find_amounts, format_amount, same_amount
from manda.hitl.priority import PRIORITIES, Priority, Urgency, scale_of, urgency
from manda.hitl.qa import QAService
from manda.hitl.review import ReviewService
from manda.kg.port import ChannelBindings, Corpus, Findings, ReviewLog
from manda.models import (
    AuditEntry,
    Deal,
    Document,
    DocumentRole,
    Finding,
    FindingStatus,
    GridColumn,
    GridRun,
    GridSelection,
    IngestReport,
    QAItem,
    QAPriority,
    Relation,
    RelationType,
    ReviewDecision,
    ReviewDecisionKind,
    stable_id,
    utcnow,
)
from manda.timeline import Timeline, TimelineFilter, timeline_for_deal
from manda.traces import AnswerTrace

if TYPE_CHECKING:  # types only: ingestion and jobs (LangGraph, parsers) load when first used
    from manda.deals.workflows import DealWorkflows
    from manda.grid.service import GridService
    from manda.grid.service import Progress as GridProgress
    from manda.grid.view import Grid
    from manda.ingest.service import IngestService, Progress
    from manda.jobs import IngestJob, JobService

log = logging.getLogger(__name__)

DOCUMENT_LINK = "link"  # Document.metadata key: the file where it was shared (a Slack permalink)

BOUND = "channel.bound"
UNBOUND = "channel.unbound"
FEEDBACK = "answer.feedback"
GRID_STARTED = "grid.started"
GRID_CANCELLED = "grid.cancelled"
GRID_FLAGGED = "grid.flagged"


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
class ReviewFilter:
    """Which pending findings a person wants to work through: a priority, a document (part of
    its name), a subject (part of it or its label)."""

    priority: Priority | None = None
    document: str | None = None
    subject: str | None = None

    def __bool__(self) -> bool:
        return bool(self.priority or self.document or self.subject)

    def describe(self) -> str:
        parts = [f"{self.priority} priority" if self.priority else ""]
        parts += [f"document “{self.document}”" if self.document else ""]
        parts += [f"subject “{self.subject}”" if self.subject else ""]
        return ", ".join(p for p in parts if p)


@dataclass(frozen=True)
class ReviewPage:
    """One page of the findings waiting for a person, with the names of their documents, each
    one's priority (rubric and materiality) and the heading its excerpt sits under."""

    deal_id: str
    findings: list[Finding]
    total: int
    offset: int
    document_names: dict[str, str]
    urgency: dict[str, Urgency] = field(default_factory=dict)
    headings: dict[str, str] = field(default_factory=dict)
    where: ReviewFilter = field(default_factory=ReviewFilter)
    counts: dict[str, int] = field(default_factory=dict)  # pending per priority, unfiltered

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


@dataclass(frozen=True)
class Figure:
    """One figure a document states: what, for when, as written (with its unit), and status."""

    label: str
    period: str | None
    shown: str
    status: FindingStatus


@dataclass(frozen=True)
class Change:
    """A correction or conflict a new document created, with the other side's source."""

    kind: Literal["corrects", "corrected by", "conflicts with"]
    label: str
    period: str | None
    here: str  # the value in the new document
    there: str  # the other document's value
    other_source: str  # "file, location"


@dataclass(frozen=True)
class DocumentChanges:
    """What a newly ingested document brought to the deal, for the person who dropped it."""

    filename: str
    role: str  # in words: "audited statements", "management accounts", "presentation"
    draft: bool
    figures: list[Figure]
    changes: list[Change]
    pending: int
    approved: int


MAIN_FIGURES = 6  # per document in a summary


class DealStore(Corpus, Findings, ReviewLog, ChannelBindings, Protocol):
    """The roles the deal operations read directly (search and the Q&A list are reached through
    the services over them)."""


class TraceStore(Protocol):
    """Where answers' traces are kept: the conversation memory (`manda.memory`)."""

    async def load_trace(self, conversation_id: str, answer_id: str) -> AnswerTrace | None: ...


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
        workflows: Callable[[], DealWorkflows] | None = None,
        traces: TraceStore | None = None,
        grid: Callable[[], GridService] | None = None,
    ) -> None:
        self._graph = graph
        self._build_grid = grid
        self._traces = traces
        self._review = review
        self._qa = qa
        self._ingest = ingest
        self._jobs = jobs
        self._ingest_via_queue = settings.ingest_via_queue
        self.rules = AccessRules.from_settings(settings)
        self._build_workflows = workflows
        self._workflows: DealWorkflows | None = None

    @property
    def workflows(self) -> DealWorkflows:
        """The CIM and IRL workflows of the deal's conversations (`manda.deals.workflows`),
        built on first use: they load LangGraph, which read-only commands never need."""
        if self._workflows is None:
            if self._build_workflows is None:
                raise RuntimeError("this DealService was built without workflows")
            self._workflows = self._build_workflows()
        return self._workflows

    @property
    def grids(self) -> GridService:
        """The review grid (`manda.grid`), built on first use."""
        if self._build_grid is None:
            raise RuntimeError("this DealService was built without the review grid")
        return self._build_grid()

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

    async def linked_deals(self) -> list[str]:
        """The deals some channel is linked to (the ones questions will come for)."""
        return sorted(set((await self._graph.list_bindings()).values()))

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

    async def document_links(self, deal_id: str) -> dict[str, str]:
        """File name (and room path) → where people open the file in the chat tool it was
        shared in (`metadata["link"]`, kept at upload), so an answer's footnote links to it."""
        links: dict[str, str] = {}
        for d in await self._graph.list_documents(deal_id):
            if link := d.metadata.get(DOCUMENT_LINK):
                links[d.filename] = link
                if d.path:
                    links[d.path] = link
        return links

    async def link_documents(self, deal_id: str, links: Mapping[str, str]) -> int:
        """Keep where each named file (as shared) can be opened; returns how many were linked."""
        linked = 0
        for d in await self._graph.list_documents(deal_id):
            link = links.get(d.filename) or (links.get(d.path) if d.path else None)
            if link and d.metadata.get(DOCUMENT_LINK) != link:
                await self._graph.upsert_document(
                    d.model_copy(update={"metadata": {**d.metadata, DOCUMENT_LINK: link}}))
                linked += 1
        return linked

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

    async def recover_interrupted(self) -> list[Document]:
        """Documents a crashed process left half-ingested, marked failed with the reason (a
        front end calls it when it starts)."""
        return await self._ingest.recover_interrupted()

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

    async def what_changed(self, deal_id: str, filenames: Sequence[str]) -> list[DocumentChanges]:
        """For each named document: its role, main figures, the corrections and conflicts it
        created (with the other side's source) and how many of its findings wait for review."""
        every = await self.documents(deal_id)
        documents = {d.filename: d for d in every} | {d.path: d for d in every if d.path}
        by_doc = {d.id: d for d in every}
        findings = {f.id: f for f in await self._graph.list_findings(deal_id)}
        relations = [
            r
            for r in await self._graph.list_relations(deal_id)
            if r.between == "finding"
            and r.type in (RelationType.SUPERSEDES, RelationType.CONTRADICTS)
        ]
        result = []
        for name in filenames:
            document = documents.get(name)
            if document is None:
                continue
            own = [f for f in findings.values() if f.document_id == document.id]
            result.append(
                DocumentChanges(
                    filename=document.filename,
                    role=_role_words(document),
                    draft=document.draft,
                    figures=_main_figures(own),
                    changes=_changes(document.id, relations, findings, by_doc),
                    pending=sum(f.status is FindingStatus.PENDING for f in own),
                    approved=sum(f.status is FindingStatus.APPROVED for f in own),
                )
            )
        return result

    async def job_status(self, job_id: str) -> IngestJob | None:
        return await self._jobs.status(job_id)

    async def timeline(self, deal_id: str, *, where: TimelineFilter | None = None) -> Timeline:
        """The deal's dated events from its documents, with sources (see `manda.timeline`)."""
        return await timeline_for_deal(self._graph, deal_id, where=where)

    # ---------------------------------------------------------------- review

    async def trace(self, deal_id: str, conversation_id: str, answer_id: str
                    ) -> AnswerTrace | None:
        """How an answer about this deal was reached ("How I answered"), while its
        conversation is kept; None when it expired, was never kept, or is another deal's."""
        if self._traces is None:
            return None
        found = await self._traces.load_trace(conversation_id, answer_id)
        return found if found is not None and found.deal_id == deal_id else None

    async def review_page(
        self,
        deal_id: str,
        *,
        offset: int = 0,
        limit: int | None = None,
        where: ReviewFilter | None = None,
    ) -> ReviewPage:
        """Findings waiting for a person, most urgent first (rubric and materiality, see
        `manda.hitl.priority`), filtered by `where`; `limit=None` is the whole queue."""
        where = where or ReviewFilter()
        queue = await self._review.queue(deal_id)
        names = await self.document_names(deal_id)
        scale = scale_of(await self._graph.list_findings(deal_id))
        urgencies = {f.id: urgency(f, scale) for f in queue}
        rank = {p: i for i, p in enumerate(PRIORITIES)}
        queue.sort(key=lambda f: rank[urgencies[f.id].priority])  # stable: keeps the old order
        counts = {p: sum(u.priority == p for u in urgencies.values()) for p in PRIORITIES}
        doc, subject = (where.document or "").lower(), (where.subject or "").lower()
        queue = [
            f
            for f in queue
            if (where.priority is None or urgencies[f.id].priority == where.priority)
            and doc in names.get(f.document_id, "").lower()
            and (subject in f.subject.lower() or subject in f.label.lower())
        ]
        end = None if limit is None else offset + limit
        shown = queue[offset:end]
        return ReviewPage(
            deal_id=deal_id,
            findings=shown,
            total=len(queue),
            offset=offset,
            document_names=names,
            urgency={f.id: urgencies[f.id] for f in shown},
            headings=await self._headings(deal_id, shown),
            where=where,
            counts=counts,
        )

    async def _headings(self, deal_id: str, findings: Sequence[Finding]) -> dict[str, str]:
        """The title line of each finding's passage (a slide's title, a section's heading)."""
        wanted = [f.chunk_id for f in findings if f.chunk_id]
        if not wanted:
            return {}
        first_lines = {
            c.id: next((ln for ln in map(_heading_line, c.text.splitlines()) if ln), "")
            for c in await self._graph.get_chunks(deal_id, wanted)
        }
        headings = {}
        for f in findings:
            line = first_lines.get(f.chunk_id or "", "")
            if (
                line
                and len(line) <= 90
                and line not in f.excerpt[: len(line) + 5]
                and line.lower() != f.location.label.lower()
            ):
                headings[f.id] = line
        return headings

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

    async def undo(
        self, deal_id: str, finding_id: str, *, at: datetime, by: str
    ) -> ReviewDecision:
        """Withdraw the decision made at `at`, carried over or not (audited); see
        `ReviewService.undo`."""
        return await self._review.undo(deal_id, finding_id, at=at, by=by)

    async def deal_of_finding(self, finding_id: str) -> str:
        """The deal holding `finding_id` (a terminal may name a finding without its deal)."""
        for deal in await self._graph.list_deals():
            if await self._graph.get_finding(deal.id, finding_id) is not None:
                return deal.id
        raise FindingNotFoundError(finding_id)

    async def pending_behind(self, deal_id: str, answer: Answer) -> PendingEvidence:
        """Findings the answer relies on that still wait for a person: cited by it (or proposed
        for approval) and their figure stated in its text. A finding that merely sits on a cited
        page or slide ("Revenue Q1 2024" on the slide an EBITDA answer cites) is not offered."""
        wanted = [c.finding_id for c in answer.citations if c.finding_id]
        wanted += [
            a.finding_id
            for a in answer.suggested_actions
            if a.type == "approve_finding" and a.finding_id
        ]
        stated = find_amounts(answer.answer)
        pending: list[Finding] = []
        for finding_id in dict.fromkeys(wanted):
            finding = await self._graph.get_finding(deal_id, finding_id)
            if (
                finding is not None
                and finding.status is FindingStatus.PENDING
                and _stated_in(finding, answer.answer, stated)
            ):
                pending.append(finding)
        if not pending:
            return PendingEvidence()
        return PendingEvidence(pending, await self.document_names(deal_id))

    async def finding(self, deal_id: str, finding_id: str) -> Finding | None:
        """One finding of the deal (what a Reject modal shows before the person decides)."""
        return await self._graph.get_finding(deal_id, finding_id)

    # ---------------------------------------------------------------- the review grid

    def grid_columns(self, words: str | Sequence[str]) -> list[GridColumn]:
        """The columns a person's words ask for (standard columns, saved sets, questions)."""
        from manda.grid.columns import parse_columns

        return parse_columns(words)

    async def grid_folders(self, deal_id: str) -> list[str]:
        """The room's folders that hold documents (what a grid may be asked of)."""
        folders: set[str] = set()
        for document in await self._graph.list_documents(deal_id):
            parts = (document.path or "").split("/")[:-1]
            folders.update("/".join(parts[: n + 1]) for n in range(len(parts)))
        return sorted(folders)

    async def start_grid(
        self, deal_id: str, columns: Sequence[GridColumn], *, by: str,
        kind: str | None = None, folder: str | None = None, pattern: str | None = None,
        queue: bool | None = None,
    ) -> GridRun:
        """A new grid over the deal's documents of `kind` (a contract kind or a document role),
        in `folder`, whose names match `pattern`; audited. With the job queue (`queue`, else
        MANDA_INGEST_VIA_QUEUE) each document not read before becomes a job a worker reads;
        else the caller reads them here with `run_grid`."""
        await self.require(deal_id)
        selection = GridSelection(kind=kind, folder=folder, pattern=pattern)
        run = await self.grids.start(deal_id, selection, columns, by=by)
        await self._audit(deal_id, GRID_STARTED, run.id, by or "someone",
                          f"{run.title}: {len(run.document_ids)} documents, "
                          f"{len(columns)} columns")
        if queue if queue is not None else self._ingest_via_queue:
            names = {d.id: d.path or d.filename for d in await self.documents(deal_id)}
            wanted = {d: names.get(d, d) for d in run.document_ids
                      if await self.grids.missing(run, d)}
            jobs = await self._jobs.submit_grid(deal_id, run.id, wanted, requested_by=by)
            run = run.model_copy(update={"jobs": jobs})
            await self._graph.put_grid_run(run)
        return run

    async def run_grid(self, run: GridRun, *, progress: GridProgress | None = None) -> Grid:
        """Read the run's documents here (not through the job queue); the grid once done."""
        return await self.grids.run(run, progress=progress)

    async def grid(self, deal_id: str, run_id: str) -> Grid:
        """The grid as far as it has come; a queued document its worker gave up on is shown
        unreadable with the job's reason; a grid whose documents are all read is completed."""
        grid = await self.grids.grid(deal_id, run_id)
        if grid.run.jobs and not grid.finished:
            for row in grid.rows:
                job_id = grid.run.jobs.get(row.document.id)
                if job_id is None or len(row.cells) >= len(grid.columns):
                    continue
                job = await self._jobs.status(job_id)
                if job is not None and job.status.value == "failed":
                    await self.grids.mark_unreadable(grid.run, row.document.id,
                                                     job.error or "its job failed")
            grid = await self.grids.grid(deal_id, run_id)
        if grid.finished and grid.run.status.value == "running":
            grid = await self.grids.finish(deal_id, run_id)
        return grid

    async def grid_runs(self, deal_id: str, *, limit: int = 20) -> list[GridRun]:
        return await self._graph.list_grid_runs(deal_id, limit=limit)

    async def cancel_grid(self, deal_id: str, run_id: str, *, by: str) -> GridRun:
        """Stop a grid between documents, here and in every worker (audited)."""
        run = await self.grids.cancel(deal_id, run_id, by=by)
        await self._audit(deal_id, GRID_CANCELLED, run_id, by, run.title)
        return run

    async def decide_grid_cells(
        self, deal_id: str, run_id: str, decision: ReviewDecisionKind, *, by: str,
        column: str | None = None, document: str | None = None, reason: str = "",
    ) -> CellDecisions:
        """Approve or reject a grid's stated cells: one (`column` and `document`), a whole
        column, or a document's row; each cell once (decided cells are named, not changed)."""
        grid = await self.grid(deal_id, run_id)
        keys = _column_keys(grid, column)
        done = CellDecisions()
        for row in grid.rows:
            if document and document not in (row.document.id, row.name, row.document.filename):
                continue
            for key in keys:
                cell = row.cells.get(key)
                if cell is None or cell.finding_id is None:
                    done.not_stated += 1
                    continue
                try:
                    done.decided.append(await self._review.decide(
                        deal_id, cell.finding_id, decision, by=by, reason=reason))
                except AlreadyDecidedError:
                    done.already += 1
        return done

    async def grid_red_flags(self, deal_id: str, run_id: str, column: str, *,
                             by: str) -> list[Finding]:
        """The column's "yes" cells become red flags of its topic (`/manda redflags` lists
        them with their quotes); audited."""
        grid = await self.grid(deal_id, run_id)
        [key] = _column_keys(grid, column)
        spec_topic = _column_topic(key)
        flagged: list[Finding] = []
        for row in grid.rows:
            cell = row.cells.get(key)
            if cell is None or cell.finding_id is None or not _says_yes(cell.value):
                continue
            finding = await self._graph.get_finding(deal_id, cell.finding_id)
            if finding is None:
                continue
            marked = finding.model_copy(update={"attributes": {
                **finding.attributes, "red_flag": spec_topic or key}})
            await self._graph.add_findings([marked])
            flagged.append(marked)
        await self._audit(deal_id, GRID_FLAGGED, run_id, by,
                          f"{len(flagged)} cells of {column} taken as red flags")
        return flagged

    async def grid_questions(self, deal_id: str, run_id: str, column: str, *,
                             by: str) -> list[tuple[QAItem, bool]]:
        """A question to the seller for each document the column's cell says is silent
        ("not stated"), in the column's topic's category; each added once."""
        from manda.vocabulary import topic as topic_of

        grid = await self.grid(deal_id, run_id)
        [key] = _column_keys(grid, column)
        asked = next(c for c in grid.columns if c.key == key)
        topic_key = _column_topic(key)
        category = topic_of(topic_key).category if topic_key else "Legal"
        added: list[tuple[QAItem, bool]] = []
        for row in grid.rows:
            cell = row.cells.get(key)
            if cell is None or cell.status.value != "not_stated":
                continue
            question = _seller_question(asked, row.document.filename)
            added.append(await self._qa.add(deal_id, question, by=by, category=category,
                                            source=f"{row.name}, grid {run_id}"))
        return added

    async def export_grid(self, deal_id: str, run_id: str, path: Path) -> Path:
        """The grid as an XLSX at `path`: a row per document, a column per question, and each
        cell's quote and place beside it (see `manda.exports.grid`)."""
        from manda.exports.grid import write_grid

        return write_grid(path, await self.grid(deal_id, run_id))

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
        from manda.exports.qa import write_qa_list  # openpyxl loads only when exporting

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


@dataclass
class CellDecisions:
    """What deciding a grid's cells did: the decisions made, cells decided before, cells with
    nothing to decide (not stated, unreadable)."""

    decided: list[ReviewDecision] = field(default_factory=list)
    already: int = 0
    not_stated: int = 0


def _column_keys(grid: Grid, column: str | None) -> list[str]:
    """The grid's column keys `column` names (its key or name; every column when None)."""
    if column is None:
        return [c.key for c in grid.columns]
    from manda.grid.columns import parse_columns

    wanted = " ".join(column.lower().split())
    named = {c.key for c in parse_columns(column)}  # any of its names, in any language
    for c in grid.columns:
        if wanted in (c.key.lower(), c.name.lower(), c.wording) or c.key in named:
            return [c.key]
    raise MandaError(f"The grid has no column “{column}”.",
                     hint="Its columns: " + ", ".join(c.name for c in grid.columns) + ".")


def _column_topic(key: str) -> str | None:
    from manda.vocabulary.grid import grid_vocabulary

    try:
        return grid_vocabulary().column(key).topic
    except KeyError:
        return None


def _says_yes(value: object) -> bool:
    return value is True or (isinstance(value, dict) and bool(value.get("terminable")))


def _seller_question(column: GridColumn, filename: str) -> str:
    if column.standard:
        from manda.vocabulary.grid import grid_vocabulary

        return grid_vocabulary().column(column.key).question_for(filename)
    asked = column.name.rstrip(" ?")
    return f"{filename} does not say: {asked}? Please confirm."


def _role_words(document: Document) -> str:
    if document.role is not DocumentRole.OTHER:
        return document.role.value.replace("_", " ")
    return "document" if not document.authoritative else "financial report"


def _stated_in(finding: Finding, text: str, amounts: Sequence[Amount]) -> bool:
    """Whether an answer states this finding: its amount (however written), or its words."""
    if finding.value is not None:
        return any(same_amount(a.value, finding.value) for a in amounts)
    said = (finding.value_text or finding.entity or "").strip().lower()
    return bool(said) and said in text.lower()


def _shown(finding: Finding) -> str:
    if finding.value is not None and finding.unit:
        return format_amount(finding.value, finding.unit)
    return finding.value_text or ""


def _main_figures(findings: Sequence[Finding]) -> list[Figure]:
    """Stated amounts first (currency, then rates and counts), actuals before forecasts."""
    with_value = [f for f in findings if f.value is not None and f.unit]
    ranked = sorted(
        with_value,
        key=lambda f: (
            f.unit in ("%", "x", "people", "shares"),
            f.nature.value != "actual",
            f.location.page or 0,
        ),
    )
    figures: list[Figure] = []
    seen: set[tuple[str, str | None]] = set()
    for f in ranked:
        if (f.subject, f.period) in seen:
            continue
        seen.add((f.subject, f.period))
        figures.append(Figure(f.label, f.period, _shown(f), f.status))
        if len(figures) == MAIN_FIGURES:
            break
    return figures


def _changes(
    document_id: str,
    relations: Sequence[Relation],
    findings: Mapping[str, Finding],
    by_doc: Mapping[str, Document],
) -> list[Change]:
    changes: list[Change] = []
    seen: set[tuple[str, str, str | None, str, str]] = set()
    for r in relations:
        source, target = findings.get(r.source_id), findings.get(r.target_id)
        if source is None or target is None:
            continue
        if document_id not in (source.document_id, target.document_id):
            continue
        mine, other = (source, target) if source.document_id == document_id else (target, source)
        if other.document_id == document_id:
            continue
        if r.type is RelationType.SUPERSEDES:
            if same_amount(mine.value or 0.0, other.value or 0.0):
                continue  # restated unchanged: nothing for a person to look at
            kind: Literal["corrects", "corrected by", "conflicts with"] = (
                "corrects" if mine is source else "corrected by"
            )
        else:
            kind = "conflicts with"
        where = by_doc.get(other.document_id)
        seen_key = (kind, mine.label, mine.period, _shown(other), other.document_id)
        if seen_key in seen:
            continue  # the same value again elsewhere in that file: named once
        seen.add(seen_key)
        changes.append(
            Change(
                kind=kind,
                label=mine.label,
                period=mine.period,
                here=_shown(mine),
                there=_shown(other),
                other_source=f"{where.filename if where else '?'}, {other.location.label}",
            )
        )
    return changes


def _heading_line(line: str) -> str:
    """A passage's line as a heading; "" for blank lines and the `[file location]` label that
    opens each chunk (the source is shown beside the excerpt already)."""
    text = line.strip()
    if text.startswith("[") and text.endswith("]"):
        return ""
    return text.strip(" #*")
