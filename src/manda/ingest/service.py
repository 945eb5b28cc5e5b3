"""Ingestion: a batch of data-room files in, documents, chunks, vectors and findings out.

Per file: hash → (unchanged? stop) → parse → chunk → embed → extract → review pipeline → store.
A bad file is reported by name with its reason and the rest of the batch goes on; nothing already
ingested is touched. After the batch, the deal's relations (corrections, conflicts, confirmations)
are recomputed from everything it holds, so upload order never matters.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Protocol

from manda.embed.port import Embedder
from manda.errors import BackendUnavailableError, UnreadableFileError
from manda.ingest.chunking import chunk_document
from manda.ingest.corrections import find_correction_statements
from manda.ingest.extract.profile import DocumentProfile, classify_document
from manda.ingest.parsers import ParseLimits, parse_file
from manda.ingest.relations import plan_relations
from manda.ingest.review_graph import run_review_pipeline
from manda.ingest.versions import version_info
from manda.kg.port import KnowledgeGraph
from manda.models import (
    AuditEntry,
    Chunk,
    Deal,
    Document,
    DocumentRole,
    DocumentStatus,
    Finding,
    FindingStatus,
    IngestReport,
    ParsedDocument,
    RelationType,
    SkippedFile,
    stable_id,
)

log = logging.getLogger(__name__)

Progress = Callable[[int, int, str], Awaitable[None] | None]
"""Called as (files done, files in the batch, current filename)."""

EMBED_BATCH = 64


class Extractor(Protocol):
    """Turns one parsed document into candidate findings (offline rules or Claude)."""

    id: str

    def extract(
        self, document: Document, parsed: ParsedDocument, chunks: Sequence[Chunk]
    ) -> list[Finding] | Awaitable[list[Finding]]: ...


def collect_files(paths: Iterable[Path]) -> tuple[list[Path], list[SkippedFile]]:
    """Expand folders (recursively, sorted, hidden files left out); name missing paths."""
    files: list[Path] = []
    missing: list[SkippedFile] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                p
                for p in sorted(path.rglob("*"))
                if p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
        elif path.is_file():
            files.append(path)
        else:
            missing.append(
                SkippedFile(filename=str(path), reason="does not exist or is not a file")
            )
    return files, missing


def file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()



def held_because(document: Document, profile: DocumentProfile) -> str | None:
    """Why a dropped document's findings wait for a person however sure they are, or None
    when it is authoritative: audited statements, or one that says it is audited, signed or
    final (and is not a draft)."""
    audited = document.role is DocumentRole.AUDITED_STATEMENTS and not document.draft
    if audited or profile.certified:
        return None
    kind = profile.kind.replace("_", " ") if document.role is DocumentRole.OTHER else (
        document.role.value.replace("_", " ")
    )
    draft = "draft " if document.draft else ""
    return (
        f"{document.filename} ({draft}{kind}) was dropped in Slack and does not say it is "
        "audited, signed or final, so its figures wait for a person"
    )

class IngestService:
    """Ingests files into one deal of the knowledge graph; safe to run again on the same files."""

    def __init__(
        self,
        *,
        graph: KnowledgeGraph,
        embedder: Embedder | None,
        extractor: Extractor,
        limits: ParseLimits | None = None,
    ) -> None:
        self._graph = graph
        self._embedder = embedder
        self._extractor = extractor
        self._limits = limits or ParseLimits()
        self._lock = asyncio.Lock()

    async def ingest(
        self,
        deal_id: str,
        paths: Sequence[Path],
        *,
        progress: Progress | None = None,
        display_names: dict[Path, str] | None = None,
        received: bool = False,
    ) -> IngestReport:
        """Ingest files and folders into `deal_id`; bad files are skipped with their reason.

        `received`: files a person dropped (in Slack), whose findings are approved automatically
        only when the document is authoritative (audited, signed or final, not a draft)."""
        started = time.perf_counter()
        files, missing = collect_files(paths)
        report = IngestReport(deal_id=deal_id, skipped=list(missing))
        async with self._lock:
            if await self._graph.get_deal(deal_id) is None:
                await self._graph.upsert_deal(Deal(id=deal_id, name=deal_id))
            for done, path in enumerate(files):
                name = (display_names or {}).get(path, path.name)
                await _notify(progress, done, len(files), name)
                await self._ingest_file(deal_id, path, name, report, received=received)
            await _notify(progress, len(files), len(files), "")
            await self._relate(deal_id, report)
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

    async def _ingest_file(
        self, deal_id: str, path: Path, name: str, report: IngestReport, *, received: bool = False
    ) -> None:
        try:
            content_hash = await asyncio.to_thread(file_hash, path)
        except OSError as exc:
            report.skipped.append(
                SkippedFile(filename=name, reason=f"cannot be read: {exc.strerror}")
            )
            return
        existing = await self._graph.find_document_by_hash(deal_id, content_hash)
        if existing is not None and existing.status is DocumentStatus.COMPLETED:
            report.unchanged.append(name)
            return
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
            status=DocumentStatus.RUNNING,
        )
        await self._graph.upsert_document(document)
        try:
            parsed = await asyncio.to_thread(parse_file, path, limits=self._limits, filename=name)
            await self._store_document(document, parsed, report, received=received)
        except UnreadableFileError as exc:
            await self._fail(document, exc.reason, report)
        except BackendUnavailableError:
            raise  # a service is down, not the file: the batch stops and can be run again
        except Exception as exc:  # a parser bug must not lose the rest of the batch
            log.exception("unexpected failure ingesting %s", name)
            await self._fail(
                document, f"could not be processed ({type(exc).__name__}: {exc})", report
            )

    async def _fail(self, document: Document, reason: str, report: IngestReport) -> None:
        await self._graph.set_document_status(
            document.deal_id, document.id, DocumentStatus.FAILED, reason
        )
        report.skipped.append(SkippedFile(filename=document.filename, reason=reason))

    async def _store_document(
        self,
        document: Document,
        parsed: ParsedDocument,
        report: IngestReport,
        *,
        received: bool = False,
    ) -> None:
        profile = classify_document(document.filename, parsed)
        document = document.model_copy(
            update={
                "doc_date": parsed.doc_date,
                "units": parsed.units,
                "is_irl": profile.is_irl,
                "authoritative": profile.authoritative,
                "draft": document.draft or profile.draft,
                "corrections": find_correction_statements(parsed),
            }
        )
        chunks = chunk_document(parsed, deal_id=document.deal_id, document_id=document.id)
        await self._graph.upsert_document(document)
        await self._graph.add_chunks(document.deal_id, chunks)
        await self._embed(document.deal_id, chunks)
        candidates = self._extractor.extract(document, parsed, chunks)
        if inspect.isawaitable(candidates):
            candidates = await candidates
        outcome = await run_review_pipeline(
            list(candidates),
            deal_id=document.deal_id,
            sources={c.id: c.text for c in chunks},
            hold=held_because(document, profile) if received else None,
        )
        await self._graph.add_findings(outcome.findings)
        for entry in outcome.audit:
            await self._graph.append_audit(entry)
        await self._graph.set_document_status(
            document.deal_id, document.id, DocumentStatus.COMPLETED
        )
        report.ingested.append(document.filename)
        report.pages += parsed.units
        report.findings += len(outcome.findings)
        report.auto_approved += sum(f.status is FindingStatus.APPROVED for f in outcome.findings)
        report.pending_review += sum(f.status is FindingStatus.PENDING for f in outcome.findings)

    async def _embed(self, deal_id: str, chunks: Sequence[Chunk]) -> None:
        if self._embedder is None or not chunks:
            return
        for start in range(0, len(chunks), EMBED_BATCH):
            batch = chunks[start : start + EMBED_BATCH]
            vectors = await self._embedder.embed([c.text for c in batch], "document")
            await self._graph.add_vectors(
                deal_id, self._embedder.id, [c.id for c in batch], vectors
            )

    async def reindex(self, deal_id: str) -> int:
        """Embed the deal's chunks that have no vector for the current embedder; return how many."""
        if self._embedder is None:
            return 0
        have = await self._graph.embedded_chunk_ids(deal_id, self._embedder.id)
        missing: list[Chunk] = []
        for doc in await self._graph.list_documents(deal_id):
            if doc.status is DocumentStatus.COMPLETED:
                missing.extend(
                    c for c in await self._graph.list_chunks(deal_id, doc.id) if c.id not in have
                )
        await self._embed(deal_id, missing)
        return len(missing)

    async def _relate(self, deal_id: str, report: IngestReport) -> None:
        documents = [
            d
            for d in await self._graph.list_documents(deal_id)
            if d.status is DocumentStatus.COMPLETED
        ]
        findings = await self._graph.list_findings(deal_id)
        plan = plan_relations(documents, findings)
        await self._graph.add_relations(plan.relations)
        by_id = {f.id: f for f in findings}
        for finding_id in sorted(plan.superseded):
            if by_id[finding_id].status is FindingStatus.SUPERSEDED:
                continue
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
        report.contradictions = plan.count(RelationType.CONTRADICTS)


async def _notify(progress: Progress | None, done: int, total: int, name: str) -> None:
    if progress is None:
        return
    result = progress(done, total, name)
    if inspect.isawaitable(result):
        await result
