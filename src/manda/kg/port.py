"""The knowledge graph port: what the domain needs from a store, whichever database backs it.

Two adapters implement it: `manda.kg.embedded` (SQLite + tantivy BM25 + numpy, the default) and
`manda.kg.neo4j` (Neo4j 5 with vector and full-text indexes). One contract suite
(`tests/kg/test_contract.py`) runs against every enabled adapter. Every read takes a `deal_id`:
nothing ever crosses deals.

The port is the union of narrow roles, one per concern (`Corpus`, `Search`, `Findings`,
`ReviewLog`, `QAList`, `GridCells`, `ChannelBindings`): a consumer is typed on the roles it uses,
so what it may touch is visible in its signature and a fake for its tests implements only those.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

import numpy as np

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


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do, so callers branch on ability, never on which backend it is."""

    name: str
    vector_index: bool  # native approximate vector search (else exact numpy scan)
    fulltext_bm25: bool  # BM25-scored full-text search
    shared_across_processes: bool  # safe for several workers at once


@dataclass(frozen=True)
class ScoredId:
    """An id with a backend score (BM25 or cosine); higher is better."""

    id: str
    score: float


def check_replacing(
    deal_id: str, relations: Sequence[Relation], types: Sequence[RelationType]
) -> None:
    """`replace_relations` replaces one deal's relations of `types`: anything else is a bug."""
    for r in relations:
        if r.deal_id != deal_id or r.type not in types:
            raise ValueError(
                f"replace_relations({deal_id!r}, types={[t.value for t in types]}) was given a "
                f"{r.type.value} relation of deal {r.deal_id!r}: pass only the deal's relations "
                "of the types being replaced."
            )


@runtime_checkable
class StoreLifecycle(Protocol):
    """Opening, closing and checking a store (the composition root and `manda doctor` only)."""

    capabilities: Capabilities

    async def start(self) -> None:
        """Open connections and create schema, constraints and indexes idempotently."""

    async def aclose(self) -> None:
        """Release connections; the store may be started again later."""

    async def ping(self) -> None:
        """Raise `BackendUnavailableError` when the backend cannot be reached."""


@runtime_checkable
class Corpus(Protocol):
    """Deals, their documents and chunks, and the chunks' vectors (one vector space per embedder
    id; never mixed): what ingestion writes."""

    async def upsert_deal(self, deal: Deal) -> None: ...
    async def get_deal(self, deal_id: str) -> Deal | None: ...
    async def list_deals(self) -> list[Deal]: ...

    async def upsert_document(self, document: Document) -> None: ...
    async def get_document(self, deal_id: str, document_id: str) -> Document | None: ...
    async def find_document_by_hash(self, deal_id: str, content_hash: str) -> Document | None: ...
    async def list_documents(self, deal_id: str) -> list[Document]: ...
    async def document_names(self, deal_id: str) -> Mapping[str, str]:
        """The file name of each document whose ingestion completed, by its id, read without
        the documents themselves: search reads it on every question (the names a question may
        use, the names its passages are shown with), and a room of thousands of files must not
        be read whole each time. A store may hand out the same (read-only) mapping for as long
        as those documents do not change."""
        ...
    async def set_document_status(
        self, deal_id: str, document_id: str, status: DocumentStatus, error: str | None = None
    ) -> None:
        """Raise `MandaError` when the deal has no such document."""
        ...

    async def add_chunks(self, deal_id: str, chunks: Sequence[Chunk]) -> None: ...
    async def set_heading_paths(self, deal_id: str, paths: Mapping[str, HeadingPath]) -> None:
        """Set each chunk's heading path (by chunk id) and the same on the findings extracted
        from it, changing nothing else; unknown ids are ignored (a document stored before
        heading paths were kept gets them this way)."""
        ...

    async def get_chunks(self, deal_id: str, chunk_ids: Sequence[str]) -> list[Chunk]: ...
    async def list_chunks(self, deal_id: str, document_id: str) -> list[Chunk]: ...
    async def add_vectors(
        self, deal_id: str, embedder_id: str, chunk_ids: Sequence[str], vectors: np.ndarray
    ) -> None:
        """One row per chunk id; `ValueError` if the shape or dimension disagrees with the
        dimension this embedder id already stores."""
        ...

    async def embedded_chunk_ids(self, deal_id: str, embedder_id: str) -> set[str]: ...

    async def chunk_vectors(
        self, deal_id: str, embedder_id: str, chunk_ids: Sequence[str]
    ) -> dict[str, np.ndarray]:
        """The stored vectors of these chunks in one embedder's space (chunks it never embedded
        are left out): what a passage means, read without embedding it again."""
        ...


@runtime_checkable
class Search(Protocol):
    """Ranked chunk ids of a deal, by meaning or by words: what retrieval asks."""

    capabilities: Capabilities

    async def vector_search(
        self, deal_id: str, embedder_id: str, query: np.ndarray, k: int
    ) -> list[ScoredId]:
        """Top k chunks of the deal by cosine similarity, best first; only this embedder's space."""
        ...

    async def fulltext_search(self, deal_id: str, query: str, k: int) -> list[ScoredId]:
        """Top k chunks by BM25, best first; `query` is any text a person typed (punctuation,
        quotes and words like AND / NEAR are searched as words, never raise)."""
        ...

    async def warm_search(self, deal_id: str, embedder_id: str) -> None:
        """Make the deal's first search fast: open (or build) what it reads now. A store whose
        indexes live in a server has nothing to do."""
        ...


@runtime_checkable
class Findings(Protocol):
    """Findings extracted from documents and the relations between them (supersedes,
    contradicts, supports)."""

    async def add_findings(self, findings: Sequence[Finding]) -> None: ...
    async def get_finding(self, deal_id: str, finding_id: str) -> Finding | None:
        """The finding, unless its document's ingestion has not completed (every read of
        findings and their relations leaves those out: they are never evidence)."""
        ...

    async def list_findings(
        self,
        deal_id: str,
        *,
        status: FindingStatus | None = None,
        subject: str | None = None,
        document_id: str | None = None,
        unfinished: bool = False,
    ) -> list[Finding]:
        """Findings of completed documents; `unfinished` also those of documents still being
        ingested or failed (for ingestion, which keeps decisions on a document read again)."""
        ...
    async def finding_subjects(self, deal_id: str) -> list[str]:
        """The distinct subjects of the deal's findings, sorted: work that relates findings
        of one subject at a time holds one subject's findings, not the deal's."""
        ...
    async def findings_for_chunks(
        self, deal_id: str, chunk_ids: Sequence[str]
    ) -> list[Finding]: ...
    async def fact_chunks(
        self,
        deal_id: str,
        subjects: Sequence[str],
        periods: Sequence[str] = (),
        *,
        among: Sequence[str] = (),
        limit: int = 60,
    ) -> list[ScoredId]:
        """The passages holding a finding on one of `subjects` (of one of `periods`, when
        given), each scored by its best such finding's confidence — half for a superseded one, a
        rejected one never — for retrieval's findings channel: every passage of `among` (those
        the other channels found) that holds one, and the `limit` best of the rest, ties by
        passage id. Never the whole subject: a line item restated on every page of a large room
        holds hundreds of thousands of findings."""
        ...
    async def set_finding_status(
        self, deal_id: str, finding_id: str, status: FindingStatus
    ) -> None:
        """Raise `FindingNotFoundError` when the deal has no such finding."""
        ...

    async def remove_findings(self, deal_id: str, finding_ids: Sequence[str]) -> None:
        """Delete these findings and every relation that names one of them (a document read
        again no longer states them); unknown ids are ignored. Decisions stay in the log."""
        ...

    async def add_relations(self, relations: Sequence[Relation]) -> None: ...
    async def replace_relations(
        self, deal_id: str, relations: Sequence[Relation], *, types: Sequence[RelationType]
    ) -> None:
        """Make `relations` the deal's whole set of relations of `types`: they are added and
        every other relation of those types is removed (a conflict an earlier ingestion saw
        between figures since corrected). Relations of other types are left alone."""
        ...

    async def list_relations(
        self,
        deal_id: str,
        *,
        type: RelationType | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Relation]:
        """The deal's relations, of `type` if given, whose source or target is in `ids` if given;
        one with a rejected finding at either end is left out while it stays rejected (a
        rejection counts at once, an undone one counts again)."""
        ...


@runtime_checkable
class ReviewLog(Protocol):
    """People's decisions on findings and the deal's audit log of who did what, when."""

    async def record_decision(self, decision: ReviewDecision) -> None:
        """One decision per (deal, finding): a second raises `AlreadyDecidedError` with the
        first one's status ("approved" / "rejected") and `by`, and changes nothing."""
        ...

    async def get_decision(self, deal_id: str, finding_id: str) -> ReviewDecision | None: ...

    async def withdraw_decision(
        self, deal_id: str, finding_id: str, *, at: datetime
    ) -> ReviewDecision | None:
        """Remove the finding's decision made at `at` (an undo) and return it; None, changing
        nothing, when there is no such decision (undone already, or another made since)."""
        ...

    async def append_audit(self, entry: AuditEntry) -> None: ...
    async def list_audit(self, deal_id: str) -> list[AuditEntry]: ...


@runtime_checkable
class QAList(Protocol):
    """The deal's Q&A list: open questions for the target."""

    async def add_qa_item(self, item: QAItem) -> bool:
        """Insert once; return False (and change nothing) when the same item already exists."""
        ...

    async def list_qa_items(self, deal_id: str) -> list[QAItem]: ...

    async def replace_qa_item(self, item: QAItem) -> bool:
        """Store `item` over the one with its (deal, id); False when there is none."""
        ...

    async def remove_qa_item(self, deal_id: str, item_id: str) -> bool:
        """Delete one item; False when there was none."""
        ...


@runtime_checkable
class GridCells(Protocol):
    """The review grid's cells, kept per (document version, column wording, reader) so a grid
    asked again reads only new documents, and its runs (what was asked, how far it came)."""

    async def put_grid_cells(self, cells: Sequence[GridCell]) -> None:
        """Store each cell over the one with its (deal, document, wording, reader)."""
        ...

    async def grid_cells(
        self, deal_id: str, document_ids: Sequence[str], wordings: Sequence[str], reader: str
    ) -> list[GridCell]:
        """The kept cells of these documents for these column wordings, read by `reader`."""
        ...

    async def put_grid_run(self, run: GridRun) -> None:
        """Store `run` over the one with its (deal, id)."""
        ...

    async def get_grid_run(self, deal_id: str, run_id: str) -> GridRun | None: ...

    async def list_grid_runs(self, deal_id: str, *, limit: int = 20) -> list[GridRun]:
        """The deal's grid runs, newest first."""
        ...


@runtime_checkable
class ChannelBindings(Protocol):
    """Which deal a front end's channel is linked to (`slack:T1:C2` → `falcon`)."""

    async def bind_channel(self, channel_key: str, deal_id: str) -> None: ...
    async def unbind_channel(self, channel_key: str) -> None:
        """Forget the channel's deal (nothing happens when it had none)."""
        ...

    async def channel_deal(self, channel_key: str) -> str | None: ...
    async def list_bindings(self) -> dict[str, str]: ...


@runtime_checkable
class KnowledgeGraph(
    StoreLifecycle, Corpus, Search, Findings, ReviewLog, QAList, GridCells, ChannelBindings,
    Protocol,
):
    """Every role at once: what an adapter implements and the contract suite checks."""


ROLES: tuple[type, ...] = (
    StoreLifecycle,
    Corpus,
    Search,
    Findings,
    ReviewLog,
    QAList,
    GridCells,
    ChannelBindings,
)
