"""The default knowledge graph: one SQLite file (WAL), tantivy BM25 and vectors per deal.

Two processes (the bot and the CLI) may open the same file at once: WAL lets readers run while
one writer writes, the busy timeout makes a writer wait for the other, and writes are cut into
short transactions. All SQLite work runs on one worker thread per store (see `runner.py`), never
on the event loop.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

import numpy as np

from manda.kg.embedded import findings as finding_sql
from manda.kg.embedded import grid, hitl, keyword_files, records
from manda.kg.embedded.keyword import KeywordIndexes
from manda.kg.embedded.runner import SqliteRunner
from manda.kg.embedded.vectors import (
    DenseOptions,
    VectorCache,
    as_matrix,
    embedded_chunk_ids,
    read_vectors,
    write_vectors,
)
from manda.kg.port import Capabilities, ScoredId, check_replacing
from manda.models import (
    AuditEntry,
    Chunk,
    Deal,
    Document,
    DocumentStatus,
    Finding,
    FindingStatus,
    GridCell,
    GridRun,
    HeadingPath,
    QAItem,
    Relation,
    RelationType,
    ReviewDecision,
)

# Rows per write transaction: large batches are split so another process never waits long.
WRITE_BATCH = 1_000

log = logging.getLogger(__name__)


class EmbeddedKnowledgeGraph:
    """`KnowledgeGraph` on the SQLite file at `path` (the app passes MANDA_HOME/manda.db);
    `dense` chooses the dense engine (IVF index files go beside the database by default);
    keyword indexes are saved in `keyword_dir` (beside the database by default), or with
    `keyword_on_disk=False` kept in memory and built by each process."""

    capabilities = Capabilities(
        name="embedded",
        vector_index=False,  # exact numpy below a crossover, IVF (re-scored exactly) above it
        fulltext_bm25=True,  # tantivy BM25, an index per deal saved on disk (keyword.py)
        shared_across_processes=False,  # one machine only: a file, not a server
    )

    def __init__(
        self,
        path: Path,
        *,
        dense: DenseOptions | None = None,
        keyword_dir: Path | None = None,
        keyword_on_disk: bool = True,
    ) -> None:
        self.path = Path(path)
        self._db = SqliteRunner(self.path)
        self.dense = dense or DenseOptions(index_dir=self.path.parent / "vector-index")
        self._vectors = VectorCache(self.dense)
        self.keyword_dir = (keyword_dir or self.path.parent / "keyword-index") if (
            keyword_on_disk and keyword_files.SUPPORTED
        ) else None
        self._keywords = KeywordIndexes(self.keyword_dir)
        self._names = records.DocumentNames()

    async def start(self) -> None:
        await self._db.open()
        await self._db.write(grid.create_tables)

    async def aclose(self) -> None:
        await self._db.close()
        self._vectors.clear()
        self._keywords.clear()

    async def ping(self) -> None:
        await self._db.check()

    # ---------------------------------------------------------------- deals

    async def upsert_deal(self, deal: Deal) -> None:
        await self._db.write(records.upsert_deal, deal)

    async def get_deal(self, deal_id: str) -> Deal | None:
        return await self._db.read(records.get_deal, deal_id)

    async def list_deals(self) -> list[Deal]:
        return await self._db.read(records.list_deals)

    # ---------------------------------------------------------------- documents

    async def upsert_document(self, document: Document) -> None:
        await self._db.write(records.upsert_document, document)

    async def get_document(self, deal_id: str, document_id: str) -> Document | None:
        return await self._db.read(records.get_document, deal_id, document_id)

    async def find_document_by_hash(self, deal_id: str, content_hash: str) -> Document | None:
        return await self._db.read(records.find_document_by_hash, deal_id, content_hash)

    async def list_documents(self, deal_id: str) -> list[Document]:
        return await self._db.read(records.list_documents, deal_id)

    async def document_names(self, deal_id: str) -> Mapping[str, str]:
        return await self._db.read(self._names.read, deal_id)

    async def set_document_status(
        self, deal_id: str, document_id: str, status: DocumentStatus, error: str | None = None
    ) -> None:
        await self._db.write(records.set_document_status, deal_id, document_id, status, error)

    # ---------------------------------------------------------------- chunks and vectors

    async def add_chunks(self, deal_id: str, chunks: Sequence[Chunk]) -> None:
        strangers = [c.id for c in chunks if c.deal_id != deal_id]
        if strangers:
            raise ValueError(f"Chunks {strangers[:5]} belong to another deal than '{deal_id}'.")
        for start in range(0, len(chunks), WRITE_BATCH):
            await self._db.write(records.add_chunks, chunks[start : start + WRITE_BATCH])

    async def set_heading_paths(self, deal_id: str, paths: Mapping[str, HeadingPath]) -> None:
        items = list(paths.items())
        for start in range(0, len(items), WRITE_BATCH):
            await self._db.write(records.set_heading_paths, deal_id,
                                 dict(items[start : start + WRITE_BATCH]))

    async def get_chunks(self, deal_id: str, chunk_ids: Sequence[str]) -> list[Chunk]:
        return await self._db.read(records.get_chunks, deal_id, chunk_ids)

    async def list_chunks(self, deal_id: str, document_id: str) -> list[Chunk]:
        return await self._db.read(records.list_chunks, deal_id, document_id)

    async def add_vectors(
        self, deal_id: str, embedder_id: str, chunk_ids: Sequence[str], vectors: np.ndarray
    ) -> None:
        if len(chunk_ids) == 0:
            return
        matrix = as_matrix(chunk_ids, vectors)
        for start in range(0, len(chunk_ids), WRITE_BATCH):
            stop = start + WRITE_BATCH
            await self._db.write(
                write_vectors, deal_id, embedder_id, chunk_ids[start:stop], matrix[start:stop]
            )

    async def embedded_chunk_ids(self, deal_id: str, embedder_id: str) -> set[str]:
        return await self._db.read(embedded_chunk_ids, deal_id, embedder_id)

    async def chunk_vectors(
        self, deal_id: str, embedder_id: str, chunk_ids: Sequence[str]
    ) -> dict[str, np.ndarray]:
        if not chunk_ids:
            return {}
        return await self._db.read(read_vectors, deal_id, embedder_id, chunk_ids)

    async def vector_search(
        self, deal_id: str, embedder_id: str, query: np.ndarray, k: int
    ) -> list[ScoredId]:
        return await self._db.read(self._vectors.search, deal_id, embedder_id, query, k)

    async def fulltext_search(self, deal_id: str, query: str, k: int) -> list[ScoredId]:
        return await self._db.read(self._keywords.search, deal_id, query, k)

    async def warm_search(self, deal_id: str, embedder_id: str) -> None:
        """Open (or build) the deal's keyword index and dense space now, so its first question
        does not wait for them (each in its own read: other work runs in between)."""
        started = time.perf_counter()
        chunks = await self._db.read(self._keywords.warm, deal_id)
        vectors = await self._db.read(self._vectors.warm, deal_id, embedder_id)
        log.info("search of deal %s ready: %d chunks in its keyword index, %d vectors (%s), in "
                 "%.2f s", deal_id, chunks, vectors,
                 self._vectors.engine_of(deal_id, embedder_id) or "none",
                 time.perf_counter() - started)

    async def keyword_state(self, deal_id: str) -> tuple[int, int | None]:
        """(the deal's change-log generation, its newest saved keyword snapshot's or None)."""
        return await self._db.read(self._keywords.state, deal_id)

    # ---------------------------------------------------------------- findings and relations

    async def add_findings(self, findings: Sequence[Finding]) -> None:
        for start in range(0, len(findings), WRITE_BATCH):
            await self._db.write(finding_sql.add_findings, findings[start : start + WRITE_BATCH])

    async def get_finding(self, deal_id: str, finding_id: str) -> Finding | None:
        return await self._db.read(finding_sql.get_finding, deal_id, finding_id)

    async def list_findings(
        self,
        deal_id: str,
        *,
        status: FindingStatus | None = None,
        subject: str | None = None,
        document_id: str | None = None,
        unfinished: bool = False,
    ) -> list[Finding]:
        return await self._db.read(
            finding_sql.list_findings, deal_id, status, subject, document_id, unfinished
        )

    async def finding_subjects(self, deal_id: str) -> list[str]:
        return await self._db.read(finding_sql.finding_subjects, deal_id)

    async def findings_for_chunks(self, deal_id: str, chunk_ids: Sequence[str]) -> list[Finding]:
        return await self._db.read(finding_sql.findings_for_chunks, deal_id, chunk_ids)

    async def fact_chunks(
        self,
        deal_id: str,
        subjects: Sequence[str],
        periods: Sequence[str] = (),
        *,
        among: Sequence[str] = (),
        limit: int = 60,
    ) -> list[ScoredId]:
        rows = await self._db.read(finding_sql.fact_chunks, deal_id, list(subjects),
                                   list(periods), list(among), limit)
        return [ScoredId(chunk_id, score) for chunk_id, score in rows]

    async def set_finding_status(
        self, deal_id: str, finding_id: str, status: FindingStatus
    ) -> None:
        await self._db.write(finding_sql.set_finding_status, deal_id, finding_id, status)

    async def add_relations(self, relations: Sequence[Relation]) -> None:
        for start in range(0, len(relations), WRITE_BATCH):
            await self._db.write(
                finding_sql.add_relations, relations[start : start + WRITE_BATCH]
            )

    async def remove_findings(self, deal_id: str, finding_ids: Sequence[str]) -> None:
        if finding_ids:
            await self._db.write(finding_sql.remove_findings, deal_id, finding_ids)

    async def replace_relations(
        self, deal_id: str, relations: Sequence[Relation], *, types: Sequence[RelationType]
    ) -> None:
        check_replacing(deal_id, relations, types)
        await self._db.write(finding_sql.remove_relations_except, deal_id, relations, list(types))
        await self.add_relations(relations)

    async def list_relations(
        self,
        deal_id: str,
        *,
        type: RelationType | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Relation]:
        return await self._db.read(finding_sql.list_relations, deal_id, type, ids)

    # ---------------------------------------------------------------- human in the loop

    async def record_decision(self, decision: ReviewDecision) -> None:
        await self._db.write(hitl.record_decision, decision)

    async def get_decision(self, deal_id: str, finding_id: str) -> ReviewDecision | None:
        return await self._db.read(hitl.get_decision, deal_id, finding_id)

    async def withdraw_decision(
        self, deal_id: str, finding_id: str, *, at: datetime
    ) -> ReviewDecision | None:
        return await self._db.write(hitl.withdraw_decision, deal_id, finding_id, at)

    async def append_audit(self, entry: AuditEntry) -> None:
        await self._db.write(hitl.append_audit, entry)

    async def list_audit(self, deal_id: str) -> list[AuditEntry]:
        return await self._db.read(hitl.list_audit, deal_id)

    async def add_qa_item(self, item: QAItem) -> bool:
        return await self._db.write(hitl.add_qa_item, item)

    async def list_qa_items(self, deal_id: str) -> list[QAItem]:
        return await self._db.read(hitl.list_qa_items, deal_id)

    async def replace_qa_item(self, item: QAItem) -> bool:
        return await self._db.write(hitl.replace_qa_item, item)

    async def remove_qa_item(self, deal_id: str, item_id: str) -> bool:
        return await self._db.write(hitl.remove_qa_item, deal_id, item_id)

    # ---------------------------------------------------------------- the review grid

    async def put_grid_cells(self, cells: Sequence[GridCell]) -> None:
        for start in range(0, len(cells), WRITE_BATCH):
            await self._db.write(grid.put_cells, cells[start:start + WRITE_BATCH])

    async def grid_cells(
        self, deal_id: str, document_ids: Sequence[str], wordings: Sequence[str], reader: str
    ) -> list[GridCell]:
        return await self._db.read(grid.cells, deal_id, document_ids, wordings, reader)

    async def put_grid_run(self, run: GridRun) -> None:
        await self._db.write(grid.put_run, run)

    async def get_grid_run(self, deal_id: str, run_id: str) -> GridRun | None:
        return await self._db.read(grid.get_run, deal_id, run_id)

    async def list_grid_runs(self, deal_id: str, *, limit: int = 20) -> list[GridRun]:
        return await self._db.read(grid.list_runs, deal_id, limit)

    # ---------------------------------------------------------------- channels

    async def bind_channel(self, channel_key: str, deal_id: str) -> None:
        await self._db.write(hitl.bind_channel, channel_key, deal_id)

    async def unbind_channel(self, channel_key: str) -> None:
        await self._db.write(hitl.unbind_channel, channel_key)

    async def channel_deal(self, channel_key: str) -> str | None:
        return await self._db.read(hitl.channel_deal, channel_key)

    async def list_bindings(self) -> dict[str, str]:
        return await self._db.read(hitl.list_bindings)
