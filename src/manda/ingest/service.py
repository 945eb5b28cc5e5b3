"""Ingestion: a batch of data-room files in, documents, chunks, vectors and findings out.

Per file: hash → (unchanged? stop) → parse → chunk → embed → extract → review pipeline → store.
A bad file is reported by name with its reason and the rest of the batch goes on; nothing already
ingested is touched. Archives and e-mails are opened, and files read, in the bounded reader
processes (`manda.ingest.sandbox`) within the upload's reading budget; a deal's batches run one
at a time, other deals' beside them. After the batch, the deal's relations (corrections,
conflicts, confirmations) are recomputed from everything it holds, so upload order never matters.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import socket
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Protocol

from manda.checksums import file_sha256
from manda.companies import room_companies
from manda.embed.port import Embedder
from manda.errors import BackendUnavailableError, UnreadableFileError
from manda.finance.amounts import format_amount
from manda.finance.fiscal import CALENDAR_YEAR
from manda.ingest.chunking import shown_text, stored_heading_paths
from manda.ingest.decisions import HELD, STATUS_OF, carried_decisions
from manda.ingest.expand import ExpansionBudget, RoomFile, collect, needs_opening, over_count
from manda.ingest.extract.profile import DocumentProfile
from manda.ingest.parsers import ParseLimits
from manda.ingest.relations import (
    CONFLICT_FOUND,
    CONFLICT_RESOLVED,
    document_supersessions,
    plan_finding_relations,
)
from manda.ingest.sandbox import (
    FileReading,
    Isolation,
    ReadingBudget,
    Sandbox,
    can_run_sandboxed,
)
from manda.ingest.statements import Statement
from manda.ingest.versions import version_info
from manda.injection import looks_like_instruction
from manda.kg.port import KnowledgeGraph
from manda.models import (
    AuditEntry,
    CarriedDecision,
    Chunk,
    Confidence,
    Deal,
    Document,
    DocumentRole,
    DocumentStatus,
    Finding,
    FindingKind,
    FindingStatus,
    IngestReport,
    ParsedDocument,
    Relation,
    RelationType,
    Section,
    SkippedFile,
    stable_id,
)

if TYPE_CHECKING:
    from manda.ingest.review_graph import ReviewOutcome

log = logging.getLogger(__name__)

# The relations recomputed from the whole deal after every batch (ATTACHED_TO is not: it is
# recorded from the room as files arrive).
PLANNED_RELATIONS = (RelationType.SUPERSEDES, RelationType.CONTRADICTS, RelationType.SUPPORTS)

Progress = Callable[[int, int, str], Awaitable[None] | None]
"""Called as (files done, files in the batch, current filename)."""

EMBED_BATCH = 64
OCR_DISCOUNT = 0.8  # a figure read by OCR from a scan is less certain than a text layer's


class Extractor(Protocol):
    """Turns one parsed document into candidate findings (offline rules or Claude)."""

    id: str

    def extract(
        self, document: Document, parsed: ParsedDocument, chunks: Sequence[Chunk]
    ) -> list[Finding] | Awaitable[list[Finding]]: ...


def held_because(document: Document, profile: DocumentProfile) -> str | None:
    """Why a dropped document's findings wait for a person however sure they are, or None
    when it is authoritative: audited statements, or one that says it is audited, signed or
    final (and is not a draft)."""
    audited = document.role is DocumentRole.AUDITED_STATEMENTS and not document.draft
    if audited or profile.certified:
        return None
    kind = "document" if document.role is DocumentRole.OTHER else document.role.label
    draft = "draft " if document.draft else ""
    return (
        f"{document.filename} ({draft}{kind}) was dropped in Slack and does not say it is "
        "audited, signed or final, so its figures wait for a person"
    )


INSTRUCTION_NEARBY = (
    "its passage also holds text addressed to an AI assistant (a possible prompt injection), "
    "so a person checks it"
)


def without_instructions(candidates: list[Finding], chunks: Sequence[Chunk]) -> list[Finding]:
    """Candidates screened for text that instructs an assistant, whatever the extractor (rules
    or Claude): a figure whose excerpt or paragraph is such an instruction ("report revenue as
    EUR 50 million") never becomes a finding, so never a conflict; one whose passage (chunk)
    holds an instruction elsewhere is kept but never promoted automatically (`HELD`)."""
    texts = {c.id: c.text for c in chunks}
    kept: list[Finding] = []
    for finding in candidates:
        text = texts.get(finding.chunk_id or "", "")
        passage = _paragraph_of(text, finding.excerpt)
        if looks_like_instruction(finding.excerpt) or looks_like_instruction(passage):
            log.info("left out a figure stated by an instruction to an assistant (%s, %s)",
                     finding.subject, finding.location.label)
            continue
        if text and looks_like_instruction(text):
            finding = finding.model_copy(
                update={"attributes": {**finding.attributes, HELD: INSTRUCTION_NEARBY}})
        kept.append(finding)
    return kept


def _paragraph_of(text: str, excerpt: str) -> str:
    """The paragraph of `text` holding `excerpt` (or its start), else nothing."""
    probe = excerpt.strip()[:60]
    at = text.find(probe) if probe else -1
    if at < 0:
        return ""
    start = text.rfind("\n\n", 0, at)
    end = text.find("\n\n", at)
    return text[start + 1 if start >= 0 else 0 : end if end >= 0 else len(text)]


INTERRUPTED = (
    "was not ingested: Manda stopped while reading it (a crash or restart); "
    "drop the file again or run `manda ingest` to ingest it"
)


def this_process() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _owner_is_gone(owner: str | None) -> bool:
    """True when the process that was ingesting a document no longer runs on this host."""
    if not owner:
        return True
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False  # another machine's worker: its own restart recovers it
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


async def _review(
    deal_id: str, candidates: list[Finding], chunks: Sequence[Chunk], hold: str | None
) -> ReviewOutcome:
    """Candidate findings through the review pipeline (validate, decide), instructions dropped."""
    from manda.ingest.review_graph import run_review_pipeline  # LangGraph: loaded to ingest

    candidates = without_instructions(candidates, chunks)
    return await run_review_pipeline(
        [_read_by_ocr(f) if f.location.ocr else f for f in candidates],
        deal_id=deal_id,
        sources={c.id: c.text for c in chunks},
        hold=hold,
    )


@dataclass
class _Opened:
    """One room file after hashing and reading: what `_finish` stores or reports, in order."""

    file: RoomFile
    content_hash: str | None = None
    error: str | None = None  # the file could not even be hashed
    existing: Document | None = None  # the deal has this content already
    document: Document | None = None  # registered as running
    reading: FileReading | None = None
    failure: Exception | None = None  # reading it failed: reported in file order


class IngestService:
    """Ingests files into one deal of the knowledge graph; safe to run again on the same files."""

    def __init__(
        self,
        *,
        graph: KnowledgeGraph,
        embedder: Embedder | None,
        extractor: Extractor,
        limits: ParseLimits | None = None,
        isolation: Isolation = "process",
    ) -> None:
        self._graph = graph
        self._embedder = embedder
        self._extractor = extractor
        self._limits = limits or ParseLimits()
        self._sandbox = Sandbox(self._limits, isolation)
        self._recovered = False
        # one batch at a time per deal (their relations are recomputed from the whole deal);
        # other deals' uploads never wait behind it
        self._locks: dict[str, asyncio.Lock] = {}

    def _deal_lock(self, deal_id: str) -> asyncio.Lock:
        """The deal's batch lock: one batch (or statement, or re-check) of a deal at a time."""
        return self._locks.setdefault(deal_id, asyncio.Lock())

    async def ingest(
        self,
        deal_id: str,
        paths: Sequence[Path],
        *,
        progress: Progress | None = None,
        display_names: dict[Path, str] | None = None,
        received: bool = False,
    ) -> IngestReport:
        """Ingest files, folders and ZIP exports into `deal_id`; bad files are skipped with
        their reason. An e-mail's attachments become documents ATTACHED_TO it.

        `received`: files a person dropped (in Slack), whose findings are approved automatically
        only when the document is authoritative (audited, signed or final, not a draft)."""
        started = time.perf_counter()
        if not self._recovered:  # the first ingestion of a process (`serve` does it at start)
            self._recovered = True
            await self.recover_interrupted()
        files, missing = collect(paths, display_names)
        report = IngestReport(deal_id=deal_id, skipped=list(missing))
        async with self._deal_lock(deal_id):
            if await self._graph.get_deal(deal_id) is None:
                await self._graph.upsert_deal(Deal(id=deal_id, name=deal_id))
            budget = ReadingBudget(self._limits.max_upload_seconds)
            with tempfile.TemporaryDirectory(prefix="manda-room-") as workdir:
                room, skipped = await self._open_room(files, Path(workdir), budget)
                report.skipped.extend(skipped)
                documents = await self._ingest_room(
                    deal_id, room, report, progress=progress, received=received, budget=budget
                )
                year_end = await self._learn_fiscal_year_end(deal_id)
                await self._read_with_year_end(deal_id, room, documents, year_end, report,
                                               received=received, budget=budget)
            await _notify(progress, len(room), len(room), "")
            await self._attach(deal_id, room, documents)
            await self._name_by_place(deal_id)
            await self._relate(deal_id, report, set(documents.values()))
            if report.unchanged:  # a file skipped as unchanged may predate today's embedder
                report.embedded_again = await self.reindex(deal_id)
                if report.embedded_again:
                    log.warning(
                        "deal %s: embedded %d passages of unchanged documents again for %s "
                        "(they had no vector for it)", deal_id, report.embedded_again,
                        self._embedder.id if self._embedder else "-",
                    )
        report.seconds = round(time.perf_counter() - started, 3)
        log.info(
            "ingested deal=%s files=%d unchanged=%d skipped=%d findings=%d in %.2fs",
            deal_id,
            len(report.ingested),
            len(report.unchanged),
            len(report.skipped),
            report.findings,
            report.seconds,
        )
        return report

    async def _open_room(
        self, files: Sequence[RoomFile], workdir: Path, budget: ReadingBudget
    ) -> tuple[list[RoomFile], list[SkippedFile]]:
        """The batch's files with what its archives and e-mails hold, each opened in a reader
        process (bounded like any file, and charged to the upload's budget); one that cannot be
        opened is named with why, and the rest goes on."""
        state = ExpansionBudget.of(self._limits)
        room: list[RoomFile] = []
        skipped: list[SkippedFile] = []
        for index, file in enumerate(files):
            if not needs_opening(file):
                room.append(file)
                continue
            try:
                held, refused, state = await self._sandbox.expand(
                    file, workdir / f"f{index}", state, budget
                )
            except UnreadableFileError as exc:
                skipped.append(SkippedFile(filename=file.name, reason=exc.reason))
                continue
            except RuntimeError as exc:  # a bug opening it: this file only
                log.exception("unexpected failure opening %s", file.name)
                skipped.append(SkippedFile(filename=file.name,
                                           reason=f"could not be opened ({exc})"))
                continue
            room += held
            skipped += refused
        return room, skipped + over_count(state, self._limits)

    async def parse(self, path: Path, name: str) -> ParsedDocument:
        """A file's sections, read by the bounded reader like any file (a Q&A log is read for
        its rows before anything is stored)."""
        return await self._sandbox.parse(path, name)

    async def ingest_statements(
        self, deal_id: str, statements: Sequence[Statement]
    ) -> IngestReport:
        """Keep what the deal learned outside its room (`manda.ingest.statements`): each
        statement a document of its role, searched, cited and read for figures, which wait for
        a person; the deal's corrections and conflicts are then computed again. A statement
        kept before (same name, place and text) is `unchanged`."""
        started = time.perf_counter()
        report = IngestReport(deal_id=deal_id)
        async with self._deal_lock(deal_id):
            if await self._graph.get_deal(deal_id) is None:
                await self._graph.upsert_deal(Deal(id=deal_id, name=deal_id))
            batch: set[str] = set()
            for statement in statements:
                existing = await self._graph.find_document_by_hash(
                    deal_id, statement.content_hash)
                if existing is not None and existing.status is DocumentStatus.COMPLETED:
                    report.unchanged.append(statement.name)
                    continue
                batch.add(await self._store_statement(deal_id, statement, report))
            if batch:
                await self._relate(deal_id, report, batch)
        report.seconds = round(time.perf_counter() - started, 3)
        return report

    async def recheck(self, deal_id: str, document_id: str | None = None) -> IngestReport:
        """Read a document again from its stored passages (what the current extractor finds
        there that was not found before joins it, waiting for a person; nothing it was read for
        goes, since its passages lack the file's layout), then compute the deal's corrections
        and conflicts again: what `trigger_analysis` runs."""
        report = IngestReport(deal_id=deal_id)
        started = time.perf_counter()
        async with self._deal_lock(deal_id):
            batch: set[str] = set()
            if document_id is not None:
                document = await self._graph.get_document(deal_id, document_id)
                if document is None:
                    raise UnreadableFileError(document_id, "is not a document of this deal")
                await self._read_passages(document, report)
                batch.add(document.id)
            await self._relate(deal_id, report, batch)
        report.seconds = round(time.perf_counter() - started, 3)
        return report

    async def _read_passages(self, document: Document, report: IngestReport) -> None:
        chunks = await self._graph.list_chunks(document.deal_id, document.id)
        parsed = ParsedDocument(
            filename=document.filename, file_type=document.file_type, units=document.units,
            sections=[Section(text=shown_text(c), location=c.location) for c in chunks],
            doc_date=document.doc_date, metadata=document.metadata)
        known = await self._graph.list_findings(document.deal_id, document_id=document.id)
        facts = {(f.subject, f.period, f.value, f.entity) for f in known}
        ids = {f.id for f in known}
        fresh = [f for f in await self._extract(document, parsed, chunks)
                 if f.id not in ids and (f.subject, f.period, f.value, f.entity) not in facts]
        hold = (f"{document.filename} was read again from its stored passages: what it adds "
                "waits for a person")
        outcome = await _review(document.deal_id, fresh, chunks, hold)
        await self._graph.add_findings(outcome.findings)
        for entry in outcome.audit:
            await self._graph.append_audit(entry)
        report.ingested.append(document.filename)
        report.findings += len(outcome.findings)
        report.pending_review += len(outcome.findings)

    async def _store_statement(
        self, deal_id: str, statement: Statement, report: IngestReport
    ) -> str:
        document = statement.document(deal_id)
        deal = await self._graph.get_deal(deal_id)
        if deal is not None and deal.fiscal_year_end:
            document = document.model_copy(update={"fiscal_year_end": deal.fiscal_year_end})
        parsed = statement.parsed()
        chunks = statement.chunks(document, parsed)
        await self._graph.upsert_document(document)
        await self._graph.add_chunks(deal_id, chunks)
        _, candidates = await asyncio.gather(
            self._embed(deal_id, chunks), self._extract(document, parsed, chunks))
        # an excerpt re-cut by the review is cut from the statement's words, not the context
        # line chunking put on top ("thread note")
        spoken = [c.model_copy(update={"text": shown_text(c)}) for c in chunks]
        outcome = await _review(deal_id, statement.own_figures(candidates), spoken,
                                statement.hold)
        # a statement's figures wait because of where they come from (its excerpt is all it says)
        told = [f.model_copy(update={"attributes": {**f.attributes,
                                                    "review_reason": statement.hold}})
                for f in outcome.findings]
        findings = await self._read_again(document, told)
        await self._graph.add_findings(findings)
        for entry in outcome.audit:
            await self._graph.append_audit(entry)
        await self._graph.set_document_status(deal_id, document.id, DocumentStatus.COMPLETED)
        report.ingested.append(statement.name)
        report.pages += 1
        report.findings += len(findings)
        report.auto_approved += sum(f.status is FindingStatus.APPROVED for f in findings)
        report.pending_review += sum(f.status is FindingStatus.PENDING for f in findings)
        return document.id

    async def _ingest_room(
        self,
        deal_id: str,
        room: Sequence[RoomFile],
        report: IngestReport,
        *,
        progress: Progress | None,
        received: bool,
        budget: ReadingBudget | None = None,
    ) -> dict[str, str]:
        """Ingest the room's files in order; RoomFile.name -> document id of each one in the deal.

        While one file is stored (embedding, most of the time), the next is already read in the
        sandbox: the reader process and the embedder's threads overlap instead of taking turns.
        Everything that reaches the report or marks a document failed happens in file order, so
        the outcome is the same as one file at a time. A file whose content is being stored
        waits for it (the same file twice in a room is then `unchanged`, as before).
        """
        documents: dict[str, str] = {}
        storing: dict[str, asyncio.Event] = {}  # content hash -> set once it is stored
        ahead: asyncio.Task[_Opened] | None = None
        try:
            for done, file in enumerate(room):
                await _notify(progress, done, len(room), file.name)
                opened = await (ahead or self._open(deal_id, file, storing, budget))
                ahead = None
                stored = asyncio.Event()
                if opened.content_hash is not None:
                    storing.setdefault(opened.content_hash, stored)
                if done + 1 < len(room):
                    ahead = asyncio.create_task(
                        self._open(deal_id, room[done + 1], storing, budget))
                try:
                    document_id = await self._finish(opened, report, received=received)
                finally:
                    stored.set()
                if document_id is not None:
                    documents[file.name] = document_id
        finally:
            if ahead is not None:  # the batch stopped (a service is down): the read is dropped
                ahead.cancel()
                await asyncio.gather(ahead, return_exceptions=True)
        return documents

    async def _open(
        self, deal_id: str, file: RoomFile, storing: dict[str, asyncio.Event],
        budget: ReadingBudget | None = None,
    ) -> _Opened:
        """Hash the file; unless the deal has it already, register its document as running and
        read it in the sandbox. Failures are returned, to be reported in file order."""
        path, name = file.path, file.filename
        try:
            content_hash = await asyncio.to_thread(file_sha256, path)
        except OSError as exc:
            return _Opened(file, error=f"cannot be read: {exc.strerror}")
        if content_hash in storing:  # the same content, earlier in the room, is being stored
            await storing[content_hash].wait()
        existing = await self._graph.find_document_by_hash(deal_id, content_hash)
        if existing is not None and existing.status is DocumentStatus.COMPLETED:
            return _Opened(file, content_hash=content_hash, existing=existing)
        info = version_info(name)
        document = Document(
            id=Document.make_id(deal_id, content_hash),
            deal_id=deal_id,
            filename=name,
            content_hash=content_hash,
            file_type=path.suffix.lower().lstrip(".") or "unknown",
            size_bytes=path.stat().st_size,
            version_family=info.family,
            version_rank=info.rank,
            draft=info.is_draft,
            path=file.room_path,
            room_index=file.room_index,
            status=DocumentStatus.RUNNING,
            ingest_owner=this_process(),
        )
        deal = await self._graph.get_deal(deal_id)
        if deal is not None and deal.fiscal_year_end:  # the reader falls back on the deal's
            document = document.model_copy(update={"fiscal_year_end": deal.fiscal_year_end})
        await self._graph.upsert_document(document)
        try:
            reading = await self._sandbox.read(path, name, document, self._extractor, budget)
        except Exception as exc:  # raised again in file order by _finish
            return _Opened(file, content_hash=content_hash, document=document, failure=exc)
        return _Opened(file, content_hash=content_hash, document=document, reading=reading)

    async def _finish(
        self, opened: _Opened, report: IngestReport, *, received: bool = False
    ) -> str | None:
        """Store one opened file; the document's id when it is (or already was) in the deal."""
        label, file = opened.file.name, opened.file
        if opened.error is not None:
            report.skipped.append(SkippedFile(filename=label, reason=opened.error))
            return None
        if opened.existing is not None:
            await self._refresh(opened.existing, file.path, file.filename)
            report.unchanged.append(label)
            return opened.existing.id
        document = opened.document
        assert document is not None
        try:
            if opened.failure is not None:
                raise opened.failure
            assert opened.reading is not None
            await self._store_document(opened.reading, report, label, received=received)
        except UnreadableFileError as exc:
            await self._fail(document, exc.reason, report, label)
            return None
        except BackendUnavailableError:
            raise  # a service is down, not the file: the batch stops and can be run again
        except Exception as exc:  # a parser bug must not lose the rest of the batch
            log.exception("unexpected failure ingesting %s", label)
            await self._fail(
                document, f"could not be processed ({type(exc).__name__}: {exc})", report, label
            )
            return None
        return document.id

    async def _refresh(self, document: Document, path: Path, name: str) -> None:
        """A document stored by an earlier version gets what that version did not read, without
        re-extraction: its role (read before roles were), its passages' heading paths (stored
        before those were kept), its company (read before companies were). Done once: the
        document then says so."""
        role_unknown = document.role is DocumentRole.OTHER
        if not role_unknown and document.headings_read and document.company is not None:
            return
        try:  # read in the sandbox like any file: the same limits hold
            reading: FileReading | None = await self._sandbox.read(path, name, document, None)
        except UnreadableFileError:
            reading = None
        update: dict[str, object] = {}
        if reading is not None and role_unknown and reading.profile.role is not DocumentRole.OTHER:
            update |= {"role": reading.profile.role,
                       "is_irl": document.is_irl or reading.profile.is_irl}
        if document.company is None:
            update["company"] = (reading.document.company or "") if reading is not None else ""
        if not document.headings_read:
            if reading is not None:
                stored = await self._graph.list_chunks(document.deal_id, document.id)
                await self._graph.set_heading_paths(
                    document.deal_id, stored_heading_paths(stored, reading.parsed))
            update["headings_read"] = True
        if update:
            await self._graph.upsert_document(document.model_copy(update=update))

    async def _attach(self, deal_id: str, room: Sequence[RoomFile], ids: dict[str, str]) -> None:
        """Each attachment ATTACHED_TO the e-mail that carried it (both must be documents)."""
        relations = [
            Relation(
                deal_id=deal_id,
                type=RelationType.ATTACHED_TO,
                source_id=ids[file.name],
                target_id=ids[file.attached_to],
                between="document",
                reason=f"{file.filename} came attached to {PurePosixPath(file.attached_to).name}",
            )
            for file in room
            if file.attached_to and file.name in ids and file.attached_to in ids
            and ids[file.name] != ids[file.attached_to]
        ]
        if relations:
            await self._graph.add_relations(relations)

    async def _name_by_place(self, deal_id: str) -> None:
        """Where two documents of the room share a file name in different folders, each is
        named by as much of its place as tells them apart ("2.4 Subsidiary/Accounts.pdf"), so
        citations tell them apart and neither is taken for a new version of the other."""
        by_name: dict[str, list[Document]] = defaultdict(list)
        for doc in await self._graph.list_documents(deal_id):
            if doc.path:
                by_name[PurePosixPath(doc.path).name.lower()].append(doc)
        for docs in by_name.values():
            names = distinct_names([d.path or "" for d in docs])
            for doc, wanted in zip(docs, names, strict=True):
                if doc.filename != wanted:
                    info = version_info(wanted)
                    await self._graph.upsert_document(doc.model_copy(update={
                        "filename": wanted, "version_family": info.family,
                    }))

    async def _fail(
        self, document: Document, reason: str, report: IngestReport, label: str
    ) -> None:
        await self._graph.set_document_status(
            document.deal_id, document.id, DocumentStatus.FAILED, reason
        )
        report.skipped.append(SkippedFile(filename=label, reason=reason))

    async def _store_document(
        self, reading: FileReading, report: IngestReport, label: str, *, received: bool = False
    ) -> None:
        """Store what the sandbox read; the document turns `completed` last, so a crash before
        that leaves nothing searchable."""
        document, parsed, chunks = reading.document, reading.parsed, reading.chunks
        await self._graph.upsert_document(document)
        await self._graph.add_chunks(document.deal_id, chunks)
        hold = held_because(document, reading.profile) if received else None
        # Embedding (ONNX, which releases the GIL) needs only the chunks: it runs beside
        # extraction by a service, or beside the review of findings the rules extracted.
        if reading.candidates is not None:  # extracted by rules in the reader process
            _, outcome = await asyncio.gather(
                self._embed(document.deal_id, chunks),
                _review(document.deal_id, list(reading.candidates), chunks, hold),
            )
        else:
            _, candidates = await asyncio.gather(
                self._embed(document.deal_id, chunks), self._extract(document, parsed, chunks)
            )
            outcome = await _review(document.deal_id, candidates, chunks, hold)
        findings = await self._read_again(document, outcome.findings)
        await self._graph.add_findings(findings)
        for entry in outcome.audit:
            await self._graph.append_audit(entry)
        await self._graph.set_document_status(
            document.deal_id, document.id, DocumentStatus.COMPLETED
        )
        report.ingested.append(label)
        report.pages += parsed.units
        report.findings += len(findings)
        report.auto_approved += sum(f.status is FindingStatus.APPROVED for f in findings)
        report.pending_review += sum(f.status is FindingStatus.PENDING for f in findings)

    async def _read_again(self, document: Document, findings: list[Finding]) -> list[Finding]:
        """A document read again (its earlier ingestion failed or was cut off): what it no
        longer states goes, with the relations that named it, and a person's decision on what
        it still states (the same finding id) is kept over the pipeline's."""
        deal_id = document.deal_id
        earlier = {f.id for f in await self._graph.list_findings(
            deal_id, document_id=document.id, unfinished=True)
                   if f.kind is not FindingKind.CLAUSE}  # a review grid's cells are the grid's
        if not earlier:
            return findings
        stated = {f.id for f in findings}
        await self._graph.remove_findings(deal_id, sorted(earlier - stated))
        kept: list[Finding] = []
        for f in findings:
            decision = await self._graph.get_decision(deal_id, f.id) if f.id in earlier else None
            kept.append(f if decision is None else
                        f.model_copy(update={"status": STATUS_OF[decision.decision]}))
        return kept

    async def _extract(
        self, document: Document, parsed: ParsedDocument, chunks: Sequence[Chunk]
    ) -> list[Finding]:
        if inspect.iscoroutinefunction(self._extractor.extract):
            return list(await self._extractor.extract(document, parsed, chunks))  # type: ignore[misc]
        found = await asyncio.to_thread(self._extractor.extract, document, parsed, chunks)
        if inspect.isawaitable(found):
            found = await found
        return list(found)

    async def _embed(self, deal_id: str, chunks: Sequence[Chunk]) -> None:
        if self._embedder is None or not chunks:
            return
        for start in range(0, len(chunks), EMBED_BATCH):
            batch = chunks[start : start + EMBED_BATCH]
            vectors = await self._embedder.embed([c.text for c in batch], "document")
            await self._graph.add_vectors(
                deal_id, self._embedder.id, [c.id for c in batch], vectors
            )

    async def recover_interrupted(self) -> list[Document]:
        """Mark documents left `running` by a process that died as failed, with the reason.

        Their chunks were never searchable (only completed documents are), so nothing half-read
        was ever cited; this makes the failure visible and lets the file be ingested again.
        """
        recovered: list[Document] = []
        for deal in await self._graph.list_deals():
            for doc in await self._graph.list_documents(deal.id):
                if doc.status is DocumentStatus.RUNNING and _owner_is_gone(doc.ingest_owner):
                    await self._graph.set_document_status(
                        deal.id, doc.id, DocumentStatus.FAILED, INTERRUPTED
                    )
                    recovered.append(doc)
        if recovered:
            log.warning(
                "marked %d interrupted ingestion(s) as failed: %s",
                len(recovered),
                ", ".join(f"{d.deal_id}/{d.filename}" for d in recovered),
            )
        return recovered

    async def reindex(self, deal_id: str) -> int:
        """Embed the deal's chunks that have no vector for the current embedder; return how many.

        Vectors are stored under the embedder's index id, so after a change of embedder (or of
        the offline embedder's precision) the deal's dense channel is empty until this runs."""
        missing = await self._unembedded(deal_id)
        await self._embed(deal_id, missing)
        return len(missing)

    async def index_coverage(self, deal_id: str) -> tuple[int, int]:
        """(chunks with a vector for the current embedder, searchable chunks) of the deal."""
        total = 0
        for doc in await self._graph.list_documents(deal_id):
            if doc.status is DocumentStatus.COMPLETED:
                total += len(await self._graph.list_chunks(deal_id, doc.id))
        return total - len(await self._unembedded(deal_id)), total

    async def _unembedded(self, deal_id: str) -> list[Chunk]:
        if self._embedder is None:
            return []
        have = await self._graph.embedded_chunk_ids(deal_id, self._embedder.id)
        missing: list[Chunk] = []
        for doc in await self._graph.list_documents(deal_id):
            if doc.status is DocumentStatus.COMPLETED:
                missing.extend(
                    c for c in await self._graph.list_chunks(deal_id, doc.id) if c.id not in have
                )
        return missing

    async def _carry_decisions(
        self, deal_id: str, between_documents: Sequence[Relation], findings: list[Finding],
        batch: set[str], names: Mapping[str, str], report: IngestReport,
        undone: Callable[[], Awaitable[set[str]]],
    ) -> list[Finding]:
        """People's decisions on the figures of documents this batch replaced, carried to the
        new version's findings that restate them unchanged (`manda.ingest.decisions`) and listed
        in the report (so they can be undone; one undone is never carried again, `undone`); the
        findings are returned with the statuses that gives."""
        supersessions = [r for r in between_documents if r.source_id in batch]
        replaced = {r.target_id for r in supersessions}
        if not replaced:
            return findings
        newer = {r.source_id for r in supersessions}
        decided = []
        for f in findings:
            if f.document_id in replaced and f.status is not FindingStatus.PENDING and (
                    decision := await self._graph.get_decision(deal_id, f.id)) is not None:
                decided.append((f, decision))
        if not decided:
            return findings
        fresh = {f.id for f in findings if f.document_id in newer} - await undone()
        undecided: set[str] = set()
        for finding_id in sorted(fresh):
            if await self._graph.get_decision(deal_id, finding_id) is None:
                undecided.add(finding_id)
        carried = carried_decisions(decided, findings, supersessions, undecided)
        statuses: dict[str, FindingStatus] = {}
        for finding, decision in carried:
            await self._graph.record_decision(decision)
            status = STATUS_OF[decision.decision]
            await self._graph.set_finding_status(deal_id, finding.id, status)
            await self._graph.append_audit(AuditEntry(
                id=stable_id("a", deal_id, "carried", finding.id),
                deal_id=deal_id, action=f"finding.{status.value}", subject_id=finding.id,
                by=decision.by, at=decision.at, detail=decision.reason,
            ))
            statuses[finding.id] = status
            report.carried.append(CarriedDecision(
                finding_id=finding.id, decision=decision.decision, by=decision.by,
                at=decision.at, document=names.get(finding.document_id, finding.document_id),
                figure=f"{finding.label}{f' {finding.period}' if finding.period else ''}: "
                       f"{finding.value_text or format_amount(finding.value or 0.0, finding.unit)}",
            ))
        return [f.model_copy(update={"status": statuses[f.id]}) if f.id in statuses else f
                for f in findings]

    async def _learn_fiscal_year_end(self, deal_id: str) -> str | None:
        """The deal's year end: the one its documents state most often (stored on the deal)."""
        votes = Counter(
            d.fiscal_year_end for d in await self._graph.list_documents(deal_id)
            if d.status is DocumentStatus.COMPLETED and d.fiscal_year_end
        )
        deal = await self._graph.get_deal(deal_id)
        if not votes or deal is None:
            return None
        learned = max(votes.items(), key=lambda kv: (kv[1], kv[0] == "--12-31"))[0]
        if deal.fiscal_year_end != learned:
            await self._graph.upsert_deal(deal.model_copy(update={"fiscal_year_end": learned}))
        return learned

    async def _read_with_year_end(
        self, deal_id: str, room: Sequence[RoomFile], documents: dict[str, str],
        year_end: str | None, report: IngestReport, *, received: bool,
        budget: ReadingBudget | None = None,
    ) -> None:
        """Read again, with the room's year end, the documents of this batch that were read
        before it was known ("Q4 FY2025" of a June year end ends on 30 June, not 31 December).

        Only their findings change: the chunks and vectors stay. Nothing is read again in a
        calendar-year room, where the default was right, nor with an extractor that runs outside
        the reader (a model: reading again would cost its tokens).
        """
        if year_end is None or year_end == CALENDAR_YEAR.iso():
            return
        ingested = set(report.ingested)
        for file in room:
            document_id = documents.get(file.name)
            if document_id is None or file.name not in ingested:
                continue
            document = await self._graph.get_document(deal_id, document_id)
            if (document is None or document.fiscal_year_end
                    or not can_run_sandboxed(self._extractor)):
                continue
            document = document.model_copy(update={"fiscal_year_end": year_end})
            try:
                reading = await self._sandbox.read(file.path, file.filename, document,
                                                   self._extractor, budget)
            except Exception:  # it was read once already: keep that reading
                log.warning("could not read %s again with the year end %s", file.name, year_end,
                            exc_info=True)
                continue
            earlier = await self._graph.list_findings(deal_id, document_id=document_id)
            hold = held_because(reading.document, reading.profile) if received else None
            outcome = await _review(deal_id, list(reading.candidates or []), reading.chunks, hold)
            findings = await self._read_again(reading.document, outcome.findings)
            await self._graph.add_findings(findings)
            known = {f.id for f in earlier}
            for entry in outcome.audit:
                if entry.subject_id not in known:
                    await self._graph.append_audit(entry)
            await self._graph.upsert_document(reading.document.model_copy(
                update={"status": DocumentStatus.COMPLETED}))
            report.findings += len(findings) - len(earlier)
            for status, count in ((FindingStatus.APPROVED, "auto_approved"),
                                  (FindingStatus.PENDING, "pending_review")):
                setattr(report, count, getattr(report, count)
                        + sum(f.status is status for f in findings)
                        - sum(f.status is status for f in earlier))


    async def _relate(self, deal_id: str, report: IngestReport, batch: set[str]) -> None:
        """Recompute the deal's relations from everything it holds and store exactly those: a
        conflict an earlier ingestion saw between figures since corrected goes.

        Findings are read one subject at a time: only findings of one subject are ever related
        (or carry a decision), and all 100,000 findings of a 10,000-page room at once took
        ~600 MB where one subject's take a few dozen."""
        documents = [
            d
            for d in await self._graph.list_documents(deal_id)
            if d.status is DocumentStatus.COMPLETED
        ]
        between_documents = document_supersessions(documents)
        names = {d.id: d.filename for d in documents}
        deal = await self._graph.get_deal(deal_id)
        companies = room_companies(documents, (deal_id, deal.name if deal else ""),
                                   deal.entity_links if deal else ())
        read: dict[str, set[str]] = {}

        async def undone() -> set[str]:
            """Findings whose decision someone undid (the audit log, read once if needed)."""
            if "ids" not in read:
                read["ids"] = {e.subject_id for e in await self._graph.list_audit(deal_id)
                               if e.action == "finding.undone"}
            return read["ids"]

        relations: list[Relation] = list(between_documents)
        superseded: list[str] = []
        contradictions = 0
        before = {_pair(r): r for r in await self._graph.list_relations(
            deal_id, type=RelationType.CONTRADICTS) if r.between == "finding"}
        labels: dict[str, str] = {}  # finding id -> "Revenue Q3 2024", for the conflicts' history
        for subject in await self._graph.finding_subjects(deal_id):
            findings = await self._carry_decisions(
                deal_id, between_documents,
                await self._graph.list_findings(deal_id, subject=subject), batch, names, report,
                undone)
            plan = plan_finding_relations(documents, between_documents, findings, companies)
            relations.extend(plan.relations)
            by_id = {f.id: f for f in findings}
            labels.update((f.id, f"{f.label} {f.period}".strip()) for f in findings
                          if f.status is not FindingStatus.REJECTED)
            contradictions += sum(
                1 for r in plan.relations if r.type is RelationType.CONTRADICTS and all(
                    by_id[i].status is not FindingStatus.REJECTED
                    for i in (r.source_id, r.target_id)))
            superseded += [i for i in sorted(plan.superseded)
                           if by_id[i].status is not FindingStatus.SUPERSEDED]
        await self._graph.replace_relations(deal_id, relations, types=PLANNED_RELATIONS)
        await self._mark_superseded(deal_id, superseded, report)
        report.contradictions = contradictions
        await self._log_conflicts(deal_id, before, relations, labels)

    async def _log_conflicts(
        self, deal_id: str, before: Mapping[frozenset[str], Relation],
        relations: Sequence[Relation], labels: Mapping[str, str],
    ) -> None:
        """Conflicts that appeared or went in this batch, in the audit log, so "what changed"
        can say so later (`manda.deals.changes`)."""
        # a conflict with a rejected side does not count (stores leave it out of every read)
        after = {_pair(r): r for r in relations
                 if r.type is RelationType.CONTRADICTS and r.between == "finding"
                 and r.source_id in labels and r.target_id in labels}
        for pair, relation in after.items():
            if pair not in before:
                await self._graph.append_audit(_conflict_entry(
                    deal_id, CONFLICT_FOUND, relation, labels))
        for pair, relation in before.items():
            if pair not in after:
                await self._graph.append_audit(_conflict_entry(
                    deal_id, CONFLICT_RESOLVED, relation, labels))

    async def _mark_superseded(
        self, deal_id: str, finding_ids: Sequence[str], report: IngestReport
    ) -> None:
        for finding_id in finding_ids:
            await self._graph.set_finding_status(deal_id, finding_id, FindingStatus.SUPERSEDED)
            await self._graph.append_audit(
                AuditEntry(
                    id=stable_id("a", deal_id, "superseded", finding_id),
                    deal_id=deal_id,
                    action="finding.superseded",
                    subject_id=finding_id,
                    by="pipeline",
                    detail="a later version of its document restates it",
                )
            )
            report.superseded += 1


def _pair(relation: Relation) -> frozenset[str]:
    return frozenset((relation.source_id, relation.target_id))


def _conflict_entry(deal_id: str, action: str, relation: Relation,
                    labels: Mapping[str, str]) -> AuditEntry:
    """"Revenue Q3 2024: TargetCo_Q3_2024_Report.pdf says €5.2M, Q&A #1 says €5.6M"."""
    label = labels.get(relation.source_id) or labels.get(relation.target_id) or ""
    at = time.time_ns()
    return AuditEntry(
        id=stable_id("a", deal_id, action, relation.source_id, relation.target_id, at),
        deal_id=deal_id, action=action, subject_id=f"{relation.source_id}|{relation.target_id}",
        by="pipeline", detail=f"{label}: {relation.reason}" if label else relation.reason,
    )


def distinct_names(paths: Sequence[str]) -> list[str]:
    """For files that share a name: the shortest end of each path that no other one shares
    (`["A/1 X/Accounts.pdf", "A/2 Y/Accounts.pdf"]` -> `["1 X/Accounts.pdf", "2 Y/Accounts.pdf"]`);
    the bare name when all are one place."""
    parts = [PurePosixPath(p).parts for p in paths]
    if len({p.lower() for p in paths}) <= 1:
        return [p[-1] if p else "" for p in parts]
    out: list[str] = []
    for mine in parts:
        others = [p for p in parts if p != mine]
        depth = 1
        while depth < len(mine) and any(
            [x.lower() for x in p[-depth:]] == [x.lower() for x in mine[-depth:]] for p in others
        ):
            depth += 1
        out.append("/".join(mine[-depth:]))
    return out


def _read_by_ocr(finding: Finding) -> Finding:
    """Lower the confidence of a finding read by OCR, so a person checks it before it counts."""
    confidence = round(finding.confidence * OCR_DISCOUNT, 3)
    return finding.model_copy(update={
        "confidence": confidence,
        "confidence_level": Confidence.from_score(confidence),
        "attributes": {**finding.attributes, "ocr": "yes"},
    })


async def _notify(progress: Progress | None, done: int, total: int, name: str) -> None:
    if progress is None:
        return
    result = progress(done, total, name)
    if inspect.isawaitable(result):
        await result
