"""The deal operations the front ends call (Slack listeners and CLI commands alike): link a
channel, the documents, a page of the review queue, decide, the Q&A list, feedback, ingesting
files. Rules about who may do what live here (`manda.deals.access`), never in a front end, and no
front end reaches the stores behind these operations.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
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
)
from manda.deals.changes import DealChanges, changes_since
from manda.deals.digest import (
    DEFAULT_WINDOW,
    DIGEST_DONE,
    DIGEST_OFF,
    DIGEST_ON,
    VIEWED,
    DigestSetting,
    done_on,
    last_posted,
    last_viewed,
    parse_time,
    setting_of,
)
from manda.deals.entities import (
    LINKED as ENTITY_LINKED,
)
from manda.deals.entities import (
    UNLINKED as ENTITY_UNLINKED,
)
from manda.deals.entities import (
    EntityLink,
    EntityLinkError,
    merged,
    without,
)
from manda.deals.grid_ops import GridOperations
from manda.deals.notes import NOTED, NoteResult, Teller, note_statement, told_name
from manda.deals.qa_import import IMPORTED, NEW, QAImport, QAImporter, may_be_qa_file
from manda.deals.records import (
    Binding,
    Change,
    DealOverview,
    DocumentChanges,
    Figure,
    PendingEvidence,
    Reanalysis,
    ReviewFilter,
    ReviewPage,
)
from manda.errors import (
    FindingNotFoundError,
    MandaError,
    UnknownDealError,
)
from manda.finance.amounts import format_amount, same_amount
from manda.hitl.priority import PRIORITIES, scale_of, urgency
from manda.hitl.qa import QAService, category_of
from manda.hitl.qa_log import QALog
from manda.hitl.review import ReviewService
from manda.kg.port import ChannelBindings, Corpus, Findings, QAList, ReviewLog
from manda.models import (
    AuditEntry,
    Deal,
    Document,
    DocumentRole,
    DocumentStatus,
    Finding,
    FindingStatus,
    IngestReport,
    QAItem,
    QAPriority,
    Relation,
    RelationType,
    ReviewDecision,
    ReviewDecisionKind,
    SearchHit,
    stable_id,
    utcnow,
)
from manda.text import count_of
from manda.timeline import Timeline, TimelineFilter, timeline_for_deal
from manda.traces import AnswerTrace

if TYPE_CHECKING:  # types only: ingestion and jobs (LangGraph, parsers) load when first used
    from manda.deals.actions import DealActions
    from manda.deals.workflows import DealWorkflows, WorkflowStep
    from manda.grid.service import GridService
    from manda.ingest.service import IngestService, Progress
    from manda.jobs import IngestJob, JobService
    from manda.memory.locks import EventGate

log = logging.getLogger(__name__)

DOCUMENT_LINK = "link"  # Document.metadata key: the file where it was shared (a Slack permalink)

BOUND = "channel.bound"
UNBOUND = "channel.unbound"
LINK_REFUSED = "channel.link_refused"  # someone outside the deal's channels tried to link one
CREATE_REFUSED = "deal.create_refused"  # `/manda deal new` with this deal's id
FEEDBACK = "answer.feedback"
ANALYSED = "analysis.run"
IRL_DRAFTED = "irl.drafted"


MAIN_FIGURES = 6  # per document in a summary


class DealStore(Corpus, Findings, ReviewLog, QAList, ChannelBindings, Protocol):
    """The roles the deal operations read directly (search and the Q&A list are reached through
    the services over them)."""


class TraceStore(Protocol):
    """Where answers' traces are kept: the conversation memory (`manda.memory`)."""

    async def load_trace(self, conversation_id: str, answer_id: str) -> AnswerTrace | None: ...


class DealService(GridOperations):
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
        gate: EventGate | None = None,
    ) -> None:
        self._graph = graph
        self._build_grid = grid
        self._gate = gate  # one worker of several posts a channel's digest of a day
        self._traces = traces
        self._review = review
        self._qa = qa
        self._ingest = ingest
        self._jobs = jobs
        self._ingest_via_queue = settings.ingest_via_queue
        self._home = settings.home_dir
        self.rules = AccessRules.from_settings(settings)
        self._qa_files = QAImporter(qa=qa, ingest=ingest, graph=graph, home=settings.home_dir)
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
        self, channel_key: str, deal_id: str, *, by: str, membership: Membership,
        create: bool = False,
    ) -> Binding:
        """Link the channel to the existing deal `deal_id`, or with `create` to a new, empty deal
        of that id, if `by` may (`manda.deals.access`).

        Raises `BindingRefusedError` otherwise, saying the same whether or not the deal exists;
        a link is audited in the deal's log, and so is a refused attempt on an existing deal.
        """
        current = await self._graph.channel_deal(channel_key)
        if current == deal_id:
            return Binding(channel_key, deal_id, current, created=False, changed=False)
        if current is not None:
            raise BindingRefusedError(Refusal.ALREADY_LINKED)
        admins = self.rules.deal_admins
        if admins and by not in admins:
            raise BindingRefusedError(Refusal.NOT_ADMIN)
        exists = await self._graph.get_deal(deal_id) is not None
        direct = membership.is_direct(channel_key)
        if create:
            if exists:
                await self._audit(deal_id, CREATE_REFUSED, channel_key, by,
                                  "asked to create a deal by this id, which exists")
                raise BindingRefusedError(Refusal.NAME_TAKEN)
            if direct and not admins:
                raise BindingRefusedError(Refusal.NEW_IN_DIRECT)
            await self._graph.upsert_deal(Deal(id=deal_id, name=deal_id))
        elif not exists:
            raise BindingRefusedError(Refusal.NOT_LINKABLE)
        elif not admins and not await self._may_link(channel_key, deal_id, by, membership):
            await self._audit(deal_id, LINK_REFUSED, channel_key, by,
                              "is in none of the deal's channels")
            raise BindingRefusedError(Refusal.NOT_LINKABLE)
        await self._graph.bind_channel(channel_key, deal_id)
        detail = "linked a new deal" if create else "linked"
        await self._audit(deal_id, BOUND, channel_key, by, detail)
        return Binding(channel_key, deal_id, None, created=create, changed=True)

    async def _may_link(
        self, channel_key: str, deal_id: str, by: str, membership: Membership
    ) -> bool:
        """Without deal admins: a group channel may be the deal's first, else its linker must be
        in one of the deal's group channels (of any workspace); a one-to-one conversation always
        needs that, so it never claims a deal nor blocks a deal channel."""
        linked = await self.group_channels_of(deal_id, membership)
        if not linked:
            return not membership.is_direct(channel_key)
        return await _member_of_any(linked, by, membership)

    async def group_channels_of(self, deal_id: str, membership: Membership) -> list[str]:
        """The deal's linked channels that can vouch for their people: group channels of every
        workspace, never a one-to-one conversation."""
        return [k for k in await self.channels_of(deal_id) if not membership.is_direct(k)]

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

    async def unlink_gone(self, channel_key: str, *, by: str, why: str) -> str | None:
        """Unlink a channel whose workspace no longer exists (a finished local playground run),
        audited with `why`; the deal it was linked to, or None."""
        current = await self._graph.channel_deal(channel_key)
        if current is None:
            return None
        await self._graph.unbind_channel(channel_key)
        await self._audit(current, UNBOUND, channel_key, by, f"unlinked: {why}")
        return current

    async def may_decide(
        self,
        deal_id: str,
        user: str,
        *,
        membership: Membership,
        channel_key: str | None = None,
    ) -> bool:
        """Whether `user` may approve or reject the deal's findings from where they clicked:
        an approver, else a member of the group channel clicked in if it is the deal's, else
        (a direct conversation, the Home tab) of any group channel of the deal, whatever its
        workspace."""
        approvers = self.rules.approvers
        if approvers:
            return user in approvers
        linked = await self.group_channels_of(deal_id, membership)
        if channel_key is not None and not membership.is_direct(channel_key):
            linked = [channel_key] if channel_key in linked else []
        return await _member_of_any(linked, user, membership)

    async def visible_deals(
        self, user: str, *, workspace: str, membership: Membership
    ) -> dict[str, list[str]]:
        """Deal id → keys of its group channels that `user` is in, whatever their workspace
        (an approver: every group channel of this workspace)."""
        approver = user in self.rules.approvers
        visible: dict[str, list[str]] = {}
        for key, deal_id in sorted((await self._graph.list_bindings()).items()):
            if membership.is_direct(key):
                continue
            if (approver and in_workspace(key, workspace)) or await membership.is_member(key, user):
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
        shared in (`metadata["link"]`, kept at upload), so an answer's footnote links to it;
        only documents that were ingested (completed) are linked."""
        links: dict[str, str] = {}
        for d in await self._graph.list_documents(deal_id):
            if d.status is DocumentStatus.COMPLETED and (link := d.metadata.get(DOCUMENT_LINK)):
                links[d.filename] = link
                if d.path:
                    links[d.path] = link
        return links

    async def link_documents(self, deal_id: str, links: Mapping[str, str]) -> int:
        """Keep where each shared file can be opened, keyed by its content (sha256): only the
        document whose content it is, once ingested, is linked — a refused file named like a
        real report links nothing. Returns how many documents were linked."""
        linked = 0
        for d in await self._graph.list_documents(deal_id):
            link = links.get(d.content_hash)
            if (link and d.status is DocumentStatus.COMPLETED
                    and d.metadata.get(DOCUMENT_LINK) != link):
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
        pending: list[Finding] = []
        for finding_id in dict.fromkeys(wanted):
            finding = await self._graph.get_finding(deal_id, finding_id)
            if (
                finding is not None
                and finding.status is FindingStatus.PENDING
                and _stated_in(finding, answer)
            ):
                pending.append(finding)
        if not pending:
            return PendingEvidence()
        return PendingEvidence(pending, await self.document_names(deal_id))

    async def finding(self, deal_id: str, finding_id: str) -> Finding | None:
        """One finding of the deal (what a Reject modal shows before the person decides)."""
        return await self._graph.get_finding(deal_id, finding_id)

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

    # ---------------------------------------------------------------- what the team tells Manda

    async def may_act(
        self,
        deal_id: str,
        user: str,
        *,
        workspace: str,
        membership: Membership,
        channel_key: str | None = None,
    ) -> bool:
        """Whether `user` may change what the deal knows (note a fact, link entities, read a
        document again, draft the IRL) from where they asked: a member of the deal's channel
        they asked in (or of any of its channels, asked elsewhere), a deal admin or approver."""
        if user in self.rules.approvers or user in self.rules.deal_admins:
            return True
        linked = [k for k in await self.channels_of(deal_id, workspace)
                  if not membership.is_direct(k)]
        if channel_key is not None and not membership.is_direct(channel_key):
            linked = [channel_key] if channel_key in linked else []
        for key in linked:
            if await membership.is_member(key, user):
                return True
        return False

    async def actions_for(
        self, deal_id: str, teller: Teller, *, said: str, workspace: str,
        membership: Membership, channel_key: str | None = None, owner: str | None = None,
        conversation: str | None = None,
    ) -> DealActions:
        """The deal operations `teller` may run from where they asked (for Claude's tools and a
        "note:" mention), refusing each with the reason when they may not act on the deal."""
        allowed = await self.may_act(deal_id, teller.user, workspace=workspace,
                                     membership=membership, channel_key=channel_key)
        from manda.deals.actions import DealActions

        refusal = None if allowed else (
            f"{teller.name} may not change what Manda knows about {deal_id} from here: only "
            "members of the deal's channel can (or the people in MANDA_APPROVERS).")
        return DealActions(self, deal_id, teller, said, owner=owner, conversation=conversation,
                           refusal=refusal)

    def terminal_actions(self, deal_id: str, teller: Teller, *, said: str,
                         conversation: str | None = None) -> DealActions:
        """The same operations for the person at a terminal (`manda ask`, `manda chat`): they
        run Manda on the deal's own machine, as `manda review` trusts them to."""
        from manda.deals.actions import DealActions

        return DealActions(self, deal_id, teller, said, owner=teller.user,
                           conversation=conversation)

    async def note(self, deal_id: str, text: str, *, teller: Teller) -> NoteResult:
        """Keep a fact told in a thread (`update_knowledge_base`): a finding whose source is the
        conversation (who, when, the message's link), waiting for review, compared with the
        room like any figure (audited)."""
        await self.require(deal_id)
        told = " ".join(text.split())
        if not told:
            raise MandaError("There is nothing to note.", hint="Say the fact after the cue, e.g. "
                             "`@Manda note: management said Q4 revenue will land at €5.5M`.")
        notes = {d.filename: d for d in await self.documents(deal_id)
                 if d.role is DocumentRole.THREAD_NOTE}
        statement = note_statement(told, teller, told_name(teller, set()))
        same = notes.get(statement.name)
        if same is not None and same.content_hash != statement.content_hash:
            statement = note_statement(told, teller, told_name(teller, set(notes)))
        report = await self._ingest.ingest_statements(deal_id, [statement])
        document = await self._graph.find_document_by_hash(deal_id, statement.content_hash)
        findings = ([] if document is None else
                    await self._graph.list_findings(deal_id, document_id=document.id))
        conflicts = [f"{c.label} {c.period or ''}: {c.there} in {c.other_source}".replace(" :", ":")
                     for change in await self.what_changed(deal_id, report.ingested)
                     for c in change.changes if c.kind == "conflicts with"]
        if report.ingested and document is not None:
            await self._audit(deal_id, NOTED, document.id, teller.user,
                              f"{statement.name}: {told}")
        return NoteResult(name=statement.name, text=told, findings=findings,
                          conflicts=conflicts, unchanged=not report.ingested)

    async def passages(self, deal_id: str, name: str) -> list[SearchHit]:
        """The passages of the document called `name`, as a search would return them (what an
        answer may cite after a note was kept)."""
        from manda.retrieval.hits import chunk_hit  # the parsers load only when used

        hits: list[SearchHit] = []
        for doc in await self.documents(deal_id):
            if doc.filename == name and doc.status is DocumentStatus.COMPLETED:
                hits += [chunk_hit(c, doc.filename, via=["told"], score=1.0)
                         for c in await self._graph.list_chunks(deal_id, doc.id)]
        return hits

    async def link_entities(self, deal_id: str, names: Sequence[str], *, by: str) -> EntityLink:
        """The team says these names are one entity (`update_knowledge_graph`): a question
        naming one searches for all (audited)."""
        deal = await self.require(deal_id)
        wanted = [" ".join(n.split()) for n in names if n and n.strip()]
        if len({n.lower() for n in wanted}) < 2:
            raise EntityLinkError(" = ".join(wanted))
        groups = merged(deal.entity_links, wanted)
        changed = groups != deal.entity_links
        if changed:
            await self._graph.upsert_deal(deal.model_copy(update={"entity_links": groups}))
            await self._audit(deal_id, ENTITY_LINKED, wanted[0], by, " ≡ ".join(wanted))
        group = next(g for g in groups if wanted[0].lower() in {n.lower() for n in g})
        return EntityLink(names=group, changed=changed)

    async def unlink_entity(self, deal_id: str, name: str, *, by: str) -> EntityLink:
        """Take `name` out of the entity it was linked to (audited)."""
        deal = await self.require(deal_id)
        groups = without(deal.entity_links, name)
        changed = groups != deal.entity_links
        if changed:
            await self._graph.upsert_deal(deal.model_copy(update={"entity_links": groups}))
            await self._audit(deal_id, ENTITY_UNLINKED, name, by, name)
        return EntityLink(names=[name], changed=changed)

    async def entity_links(self, deal_id: str) -> list[list[str]]:
        return list((await self.require(deal_id)).entity_links)

    async def reanalyse(self, deal_id: str, *, by: str, document: str | None = None
                        ) -> Reanalysis:
        """`trigger_analysis`: read a document again from its passages (when named), then run
        the deal's correction and contradiction checks again; what changed (audited)."""
        await self.require(deal_id)
        target = await self._document_named(deal_id, document) if document else None
        before = await self._conflict_pairs(deal_id)
        report = await self._ingest.recheck(deal_id, target.id if target else None)
        after = await self._conflict_pairs(deal_id)
        result = Reanalysis(
            document=target.filename if target else None, new_findings=report.findings,
            conflicts=report.contradictions, new_conflicts=len(after - before),
            resolved=len(before - after), superseded=report.superseded)
        await self._audit(deal_id, ANALYSED, target.id if target else deal_id, by,
                          result.summary())
        return result

    async def _document_named(self, deal_id: str, name: str) -> Document:
        documents = await self.documents(deal_id)
        wanted = name.strip().lower()
        for match in (lambda d: d.filename.lower() == wanted or d.id == name.strip(),
                      lambda d: wanted in d.filename.lower() or wanted in (d.path or "").lower()):
            found = [d for d in documents if match(d)]
            if len(found) == 1:
                return found[0]
            if found:
                raise MandaError(f"“{name}” names {len(found)} documents of {deal_id}: "
                                 + ", ".join(d.filename for d in found[:6]),
                                 hint="Give the file's full name (`/manda docs` lists them).")
        raise MandaError(f"No document of {deal_id} is called “{name}”.",
                         hint="`/manda docs` (or `manda docs --deal D`) lists the documents.")

    async def _conflict_pairs(self, deal_id: str) -> set[frozenset[str]]:
        return {frozenset((r.source_id, r.target_id)) for r in await self._graph.list_relations(
            deal_id, type=RelationType.CONTRADICTS) if r.between == "finding"}

    async def draft_irl(
        self, deal_id: str, *, by: str, owner: str, conversation: str,
        requests: Sequence[tuple[str, str]] = (),
    ) -> WorkflowStep:
        """`create_irl`: the IRL of this conversation, started from the room's gaps when there
        is none yet, with the requests the conversation raised added (request, category)."""
        await self.require(deal_id)
        flows = self.workflows
        step = await flows.current(deal_id, owner=owner, conversation=conversation)
        if step is None or step.mode != "irl":
            step = await flows.start("irl", deal_id, owner=owner, conversation=conversation)
        for request, category in requests:
            wording = " ".join(request.split()).replace("(", "[").replace(")", "]")
            if wording:
                step = await flows.send(step.workflow,
                                        f"add: {wording} ({category_of(category)})")
        await self._audit(deal_id, IRL_DRAFTED, conversation, by,
                          f"{count_of(len(requests), 'request')} from the conversation")
        return step

    # ---------------------------------------------------------------- what changed

    async def changes(
        self, deal_id: str, *, since: datetime | None = None, viewer: str | None = None,
        now: datetime | None = None, remember: bool = True, coverage: bool = True,
    ) -> DealChanges:
        """What changed since `since`, else since `viewer` last asked (else the last 7 days),
        most serious first; the ask is remembered for the next one."""
        await self.require(deal_id)
        now = now or utcnow()
        audit = await self._graph.list_audit(deal_id)
        reason = f"since {since:%-d %b %Y}" if since else ""
        if since is None and viewer is not None and (seen := last_viewed(audit, viewer)):
            since, reason = seen, f"since you last asked ({seen:%-d %b %Y %H:%M} UTC)"
        if since is None:
            since, reason = now - DEFAULT_WINDOW, "in the last 7 days"
        result = await changes_since(self._graph, deal_id, since, now,
                                     coverage=coverage)
        result.since_reason = reason
        if remember and viewer is not None:
            await self._audit(deal_id, VIEWED, viewer, viewer, result.headline())
        return result

    async def set_digest(
        self, deal_id: str, channel_key: str, at: str | None, *, by: str, zone: str = "UTC"
    ) -> DigestSetting | None:
        """Turn the channel's daily digest on at `at` ("08:30", in `zone`) or off (None)."""
        await self.require(deal_id)
        if at is None:
            await self._audit(deal_id, DIGEST_OFF, channel_key, by, "off")
            return None
        when = parse_time(at)
        await self._audit(deal_id, DIGEST_ON, channel_key, by, f"{when:%H:%M} {zone}")
        return await self.digest_setting(deal_id, channel_key)

    async def digest_setting(self, deal_id: str, channel_key: str) -> DigestSetting | None:
        return setting_of(await self._graph.list_audit(deal_id), deal_id, channel_key)

    async def due_digests(self, now: datetime) -> list[tuple[DigestSetting, date]]:
        """Every linked channel whose digest is due at `now` and was not done that day."""
        due: list[tuple[DigestSetting, date]] = []
        for key, deal_id in sorted((await self._graph.list_bindings()).items()):
            audit = await self._graph.list_audit(deal_id)
            setting = setting_of(audit, deal_id, key)
            day = setting.due(now) if setting else None
            if setting is not None and day is not None and not done_on(audit, key, day):
                due.append((setting, day))
        return due

    async def digest(self, setting: DigestSetting, now: datetime) -> DealChanges:
        """What the channel's next digest reports: changes since its last post."""
        since = last_posted(await self._graph.list_audit(setting.deal_id), setting)
        result = await changes_since(self._graph, setting.deal_id, since, now)
        result.since_reason = f"since {since:%-d %b %Y %H:%M} UTC"
        return result

    async def claim_digest(self, setting: DigestSetting, day: date) -> bool:
        """True for the one caller (of every worker) who posts this channel's digest of `day`."""
        if self._gate is None:
            return True
        key = f"digest:{setting.channel_key}:{day.isoformat()}"
        return await self._gate.first_time(key, 3 * 24 * 3600)

    async def digest_done(self, setting: DigestSetting, day: date, *, posted: str | None,
                          until: datetime | None = None) -> None:
        """The day's digest is done: posted (with its headline) or nothing changed. It is
        recorded at `until`, the end of what it reported (the `now` given to `digest`), so a
        change made while it was being posted is in the next one."""
        detail = f"{day.isoformat()} " + (f"posted: {posted}" if posted else "nothing changed")
        await self._graph.append_audit(AuditEntry(
            id=stable_id("a", setting.deal_id, DIGEST_DONE, setting.channel_key, day),
            deal_id=setting.deal_id, action=DIGEST_DONE, subject_id=setting.channel_key,
            by="digest", at=until or utcnow(), detail=detail))

    # ---------------------------------------------------------------- the Q&A round trip

    async def import_answers(
        self, deal_id: str, path: Path, *, by: str, name: str | None = None,
        log: QALog | None = None, placed: Mapping[int, int] | None = None,
    ) -> QAImport:
        """Read the seller's answered Q&A file (XLSX or CSV, any layout) into the deal: answers
        placed on their questions (unsure ones left for a person), kept as `qa_response`
        documents whose figures wait for review and are compared with the room, answered
        questions closed, answers that put a question off followed up; the IRL coverage and
        the open questions before and after. The same file twice changes nothing."""
        await self.require(deal_id)
        name = name or path.name
        if placed:  # rows a person placed before the import (`--match 7=12`), kept as choices
            file_id = await self._qa_files.file_id(path)
            for row, number in placed.items():
                if number != NEW:
                    await self._qa.find(deal_id, str(number))
                await self._qa_files.place(deal_id, file_id, row, number, by=by)
        coverage_before, open_before = await self._coverage(deal_id)
        result, statements = await self._qa_files.run(deal_id, path, name=name, by=by, log=log)
        report = (await self._ingest.ingest_statements(deal_id, statements) if statements
                  else IngestReport(deal_id=deal_id))
        result.report = report
        authority = {d.filename: (not d.authoritative, d.draft, d.role is DocumentRole.OTHER)
                     for d in await self.documents(deal_id)}
        for change in await self.what_changed(deal_id, report.ingested):
            conflicts = [c for c in change.changes if c.kind == "conflicts with"]
            number = change.filename.removeprefix("Q&A #")
            if conflicts and number.isdigit():  # the most authoritative document named first
                result.conflicts[int(number)] = sorted(conflicts, key=lambda c: authority.get(
                    c.other_source.rsplit(", ", 1)[0], (True, True, True)))
        coverage_after, open_after = await self._coverage(deal_id)
        result.coverage = (coverage_before, coverage_after)
        result.open_questions = (open_before, open_after)
        if result.changed or result.added:
            await self._audit(deal_id, IMPORTED, result.file_id, by,
                              f"{name}: {result.headline()}")
        return result

    async def place_answer(
        self, deal_id: str, file_id: str, row: int, number: int, *, by: str
    ) -> QAImport:
        """A person's choice for an answer Manda could not place: question `number` of the list
        (or `NEW`, a question of its own); the file is read again with it (audited)."""
        if number != NEW:
            await self._qa.find(deal_id, str(number))  # a number that is not on the list fails
        await self._qa_files.place(deal_id, file_id, row, number, by=by)
        path = self._qa_files.kept(deal_id, file_id)
        return await self.import_answers(deal_id, path, by=by,
                                         name=self._qa_files.name_of(deal_id, file_id))

    async def qa_file(self, path: Path, name: str) -> QALog | None:
        """The Q&A rows of a dropped spreadsheet, or None when it is a document of the room."""
        if not may_be_qa_file(path, name):
            return None
        try:
            return await self._qa_files.read(path, name)
        except Exception:  # unreadable here: ingestion reports it with its reason
            log.debug("%s was not read as a Q&A file", name, exc_info=True)
            return None

    async def _coverage(self, deal_id: str) -> tuple[tuple[int, int], int]:
        """(IRL items covered, items) and how many questions of the Q&A list are open."""
        from manda.agent.evidence import Evidence  # the coverage rules live with the agent
        from manda.agent.gaps import assess_coverage

        coverage = await assess_coverage(self._graph, deal_id, Evidence())  # type: ignore[arg-type]
        questions = await self._qa.items(deal_id)
        return (coverage.covered, coverage.total), sum(
            q.status in ("draft", "sent") for q in questions)

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


async def _member_of_any(channel_keys: Sequence[str], user: str, membership: Membership) -> bool:
    for key in channel_keys:
        if await membership.is_member(key, user):
            return True
    return False


def _role_words(document: Document) -> str:
    if document.role is not DocumentRole.OTHER:
        return document.role.value.replace("_", " ")
    return "document" if not document.authoritative else "financial report"


def _stated_in(finding: Finding, answer: Answer) -> bool:
    """Whether an answer states this finding: its figure among the answer's numbers (however
    written, `Answer.numbers`), or its words."""
    if finding.value is not None:
        value = finding.value
        return any(same_amount(n.value, value) or (n.source and n.source.finding_id == finding.id)
                   for n in answer.numbers)
    said = (finding.value_text or finding.entity or "").strip().lower()
    return bool(said) and said in answer.answer.lower()


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
