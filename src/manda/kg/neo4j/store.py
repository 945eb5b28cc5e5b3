"""The knowledge graph on Neo4j 5: the production adapter of `manda.kg.port.KnowledgeGraph`.

All Cypher lives in `cypher.py` (statements) and `schema.py` (constraints and indexes); this module
only chooses a statement, builds its parameters and turns rows back into domain models. Every
statement goes through one `QueryExecutor`, so tests can record what would be sent to a server.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

import numpy as np
from neo4j import AsyncDriver, AsyncGraphDatabase
from neo4j.exceptions import ConfigurationError

from manda.errors import (
    AlreadyDecidedError,
    BackendUnavailableError,
    FindingNotFoundError,
    MandaError,
)
from manda.kg.neo4j import cypher
from manda.kg.neo4j.executor import (
    UNREACHABLE_ERRORS,
    DriverExecutor,
    QueryExecutor,
    Row,
    describe,
    display_uri,
    unavailable,
)
from manda.kg.neo4j.fulltext import lucene_query
from manda.kg.neo4j.records import from_props, to_props
from manda.kg.neo4j.schema import FULLTEXT_INDEX, INDEX_WAIT_SECONDS, apply_schema
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
    ReviewDecisionKind,
)
from manda.resilience.breaker import CircuitBreaker, CircuitOpenError

T = TypeVar("T")

BATCH_SIZE = 500  # rows per UNWIND: keeps each transaction small
# Vector search asks the (all-deals) index for this many times k neighbours, at least
# MIN_CANDIDATES, and four times more on each retry while the deal is short of k hits.
OVERSAMPLE = 10
MIN_CANDIDATES = 100
MAX_CANDIDATES = 100_000

_DECIDED = {ReviewDecisionKind.APPROVE: "approved", ReviewDecisionKind.REJECT: "rejected"}


class Neo4jKnowledgeGraph:
    """Deals, documents, chunks, vectors, findings and the review log in one Neo4j database."""

    capabilities = Capabilities(
        name="neo4j", vector_index=True, fulltext_bm25=True, shared_across_processes=True
    )

    def __init__(
        self,
        *,
        uri: str,
        user: str = "neo4j",
        password: str | None = None,
        database: str = "neo4j",
        connection_timeout: float = 5.0,
        max_transaction_retry_time: float = 15.0,
        query_timeout: float | None = 120.0,
        index_wait_seconds: int = INDEX_WAIT_SECONDS,
        executor: QueryExecutor | None = None,
        breaker: CircuitBreaker | None = None,
        on_error: Callable[[BaseException], object] | None = None,
    ) -> None:
        """Keep the settings only; `start()` connects. `executor` replaces the driver (tests).

        `breaker` (the app's "Neo4j" breaker) guards every statement: the driver has already
        retried transient errors inside its managed transaction, so a failure that reaches it
        counts once; while it is open, statements fail at once. `on_error` sees each failure.
        """
        self.uri = uri
        self.user = user
        self.database = database
        self._password = password
        self._connection_timeout = connection_timeout
        self._max_retry_time = max_transaction_retry_time
        self._query_timeout = query_timeout
        self._index_wait_seconds = index_wait_seconds
        self._injected = executor
        self._breaker = breaker
        self._on_error = on_error
        self._driver: AsyncDriver | None = None
        self._executor: QueryExecutor | None = None
        self._vector_dimensions: dict[str, int] = {}  # index name -> dimensions, once known

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        if self._executor is not None:
            return
        if self._injected is not None:
            executor: QueryExecutor = self._injected
        else:
            driver = self._new_driver()
            try:
                await driver.verify_connectivity()
            except BaseException as exc:
                await driver.close()
                if isinstance(exc, UNREACHABLE_ERRORS):
                    raise unavailable(self.uri, exc) from exc
                raise
            self._driver = driver
            executor = DriverExecutor(
                driver, uri=self.uri, database=self.database, timeout=self._query_timeout
            )
        self._executor = executor
        try:
            await apply_schema(executor, wait_seconds=self._index_wait_seconds)
        except BaseException:
            await self.aclose()
            raise

    async def aclose(self) -> None:
        driver, self._driver, self._executor = self._driver, None, None
        self._vector_dimensions.clear()
        if driver is not None:
            await driver.close()

    async def ping(self) -> None:
        if self._driver is None and self._injected is not None:
            await self._injected.run(cypher.PING, {}, write=False)
            return
        driver = self._driver or self._new_driver()
        try:
            await driver.verify_connectivity()
        except UNREACHABLE_ERRORS as exc:
            raise unavailable(self.uri, exc) from exc
        finally:
            if driver is not self._driver:
                await driver.close()

    def _new_driver(self) -> AsyncDriver:
        auth = (self.user, self._password) if self._password is not None else None
        try:
            return AsyncGraphDatabase.driver(
                self.uri,
                auth=auth,
                connection_timeout=self._connection_timeout,
                connection_acquisition_timeout=2 * self._connection_timeout,
                max_transaction_retry_time=self._max_retry_time,
            )
        except (ConfigurationError, ValueError) as exc:
            raise BackendUnavailableError(
                f"NEO4J_URI {display_uri(self.uri)} is not a Neo4j address: "
                f"{describe(exc, self.uri)};",
                hint="use bolt://HOST:7687 or neo4j://HOST:7687 (neo4j+s:// for Aura) with the "
                "credentials in NEO4J_USER/NEO4J_PASSWORD, or unset NEO4J_URI to use the "
                "embedded store.",
            ) from exc

    async def _run(self, query: str, params: Mapping[str, Any], *, write: bool) -> list[Row]:
        if self._executor is None:
            raise RuntimeError("The Neo4j knowledge graph is not started: await start() first.")
        try:
            if self._breaker is None:
                return await self._executor.run(query, params, write=write)
            return await self._breaker.call(self._executor.run, query, params, write=write)
        except CircuitOpenError:
            raise
        except Exception as exc:
            if self._on_error is not None:
                self._on_error(exc)
            raise

    # ---------------------------------------------------------------- deals

    async def upsert_deal(self, deal: Deal) -> None:
        params = {"deal_id": deal.id, "props": to_props(deal)}
        await self._run(cypher.UPSERT_DEAL, params, write=True)

    async def get_deal(self, deal_id: str) -> Deal | None:
        rows = await self._run(cypher.GET_DEAL, {"deal_id": deal_id}, write=False)
        return from_props(Deal, rows[0]["props"]) if rows else None

    async def list_deals(self) -> list[Deal]:
        rows = await self._run(cypher.LIST_DEALS, {}, write=False)
        return [from_props(Deal, row["props"]) for row in rows]

    # ---------------------------------------------------------------- documents

    async def upsert_document(self, document: Document) -> None:
        params = {
            "deal_id": document.deal_id,
            "document_id": document.id,
            "props": to_props(document),
        }
        await self._run(cypher.UPSERT_DOCUMENT, params, write=True)

    async def get_document(self, deal_id: str, document_id: str) -> Document | None:
        params = {"deal_id": deal_id, "document_id": document_id}
        rows = await self._run(cypher.GET_DOCUMENT, params, write=False)
        return from_props(Document, rows[0]["props"]) if rows else None

    async def find_document_by_hash(self, deal_id: str, content_hash: str) -> Document | None:
        params = {"deal_id": deal_id, "content_hash": content_hash}
        rows = await self._run(cypher.FIND_DOCUMENT_BY_HASH, params, write=False)
        return from_props(Document, rows[0]["props"]) if rows else None

    async def list_documents(self, deal_id: str) -> list[Document]:
        rows = await self._run(cypher.LIST_DOCUMENTS, {"deal_id": deal_id}, write=False)
        return [from_props(Document, row["props"]) for row in rows]

    async def document_names(self, deal_id: str) -> Mapping[str, str]:
        rows = await self._run(cypher.DOCUMENT_NAMES, {"deal_id": deal_id}, write=False)
        return {row["id"]: row["filename"] for row in rows}

    async def set_document_status(
        self, deal_id: str, document_id: str, status: DocumentStatus, error: str | None = None
    ) -> None:
        params = {
            "deal_id": deal_id,
            "document_id": document_id,
            "status": DocumentStatus(status).value,
            "error": error,
        }
        if not await self._run(cypher.SET_DOCUMENT_STATUS, params, write=True):
            raise MandaError(
                f"There is no document '{document_id}' in deal '{deal_id}'.",
                hint=f"List the deal's documents with `manda docs --deal {deal_id}`.",
            )

    # ---------------------------------------------------------------- chunks and vectors

    async def add_chunks(self, deal_id: str, chunks: Sequence[Chunk]) -> None:
        _same_deal(deal_id, (chunk.deal_id for chunk in chunks), "chunk")
        rows = [
            {"id": chunk.id, "document_id": chunk.document_id, "props": to_props(chunk)}
            for chunk in chunks
        ]
        for batch in _batches(rows):
            await self._run(cypher.ADD_CHUNKS, {"deal_id": deal_id, "rows": batch}, write=True)

    async def set_heading_paths(self, deal_id: str, paths: Mapping[str, HeadingPath]) -> None:
        rows = [{"chunk_id": chunk_id, "heading_path": list(path)}
                for chunk_id, path in paths.items()]
        for batch in _batches(rows):
            await self._run(cypher.SET_HEADING_PATHS, {"deal_id": deal_id, "rows": batch},
                            write=True)

    async def get_chunks(self, deal_id: str, chunk_ids: Sequence[str]) -> list[Chunk]:
        wanted = list(dict.fromkeys(chunk_ids))
        if not wanted:
            return []
        params = {"deal_id": deal_id, "chunk_ids": wanted}
        rows = await self._run(cypher.GET_CHUNKS, params, write=False)
        return [from_props(Chunk, row["props"]) for row in rows]

    async def list_chunks(self, deal_id: str, document_id: str) -> list[Chunk]:
        params = {"deal_id": deal_id, "document_id": document_id}
        rows = await self._run(cypher.LIST_CHUNKS, params, write=False)
        return [from_props(Chunk, row["props"]) for row in rows]

    async def add_vectors(
        self, deal_id: str, embedder_id: str, chunk_ids: Sequence[str], vectors: np.ndarray
    ) -> None:
        matrix = np.asarray(vectors, dtype=np.float64)
        if not chunk_ids and matrix.size == 0:
            return
        if matrix.ndim != 2 or matrix.shape[0] != len(chunk_ids) or matrix.shape[1] == 0:
            raise ValueError(
                f"add_vectors needs one row per chunk: {len(chunk_ids)} chunk ids but vectors "
                f"of shape {matrix.shape}."
            )
        if not np.isfinite(matrix).all():
            raise ValueError(f"Vectors of embedder {embedder_id!r} contain NaN or infinity.")
        space = cypher.vector_space(embedder_id)
        await self._ensure_vector_index(space, int(matrix.shape[1]))
        rows = [
            {"chunk_id": chunk_id, "vector": vector}
            for chunk_id, vector in zip(chunk_ids, matrix.tolist(), strict=True)
        ]
        stored: set[str] = set()
        for batch in _batches(rows):
            params = {
                "deal_id": deal_id,
                "embedder_id": embedder_id,
                "property": space.property_key,
                "rows": batch,
            }
            linked = await self._run(cypher.ADD_VECTORS, params, write=True)
            stored.update(row["chunk_id"] for row in linked)
        missing = [chunk_id for chunk_id in dict.fromkeys(chunk_ids) if chunk_id not in stored]
        if missing:
            raise MandaError(
                f"No vector was stored for {len(missing)} chunk(s) of deal '{deal_id}' that do "
                f"not exist: {', '.join(missing[:5])}.",
                hint="Add the chunks (add_chunks) before their vectors.",
            )

    async def embedded_chunk_ids(self, deal_id: str, embedder_id: str) -> set[str]:
        params = {"deal_id": deal_id, "embedder_id": embedder_id}
        rows = await self._run(cypher.EMBEDDED_CHUNK_IDS, params, write=False)
        return {row["chunk_id"] for row in rows}

    async def chunk_vectors(
        self, deal_id: str, embedder_id: str, chunk_ids: Sequence[str]
    ) -> dict[str, np.ndarray]:
        if not chunk_ids:
            return {}
        params = {"deal_id": deal_id, "embedder_id": embedder_id,
                  "chunk_ids": list(dict.fromkeys(chunk_ids)),
                  "property": cypher.vector_space(embedder_id).property_key}
        rows = await self._run(cypher.CHUNK_VECTORS, params, write=False)
        return {row["chunk_id"]: np.asarray(row["vector"], dtype=np.float32)
                for row in rows if row["vector"] is not None}

    async def vector_search(
        self, deal_id: str, embedder_id: str, query: np.ndarray, k: int
    ) -> list[ScoredId]:
        """Cosine nearest chunks of one deal, scored in [-1, 1] like the embedded store.

        Neo4j's cosine index scores `(1 + cos) / 2`; the score is mapped back to the cosine.
        """
        if k <= 0:
            return []
        space = cypher.vector_space(embedder_id)
        dimensions = await self._index_dimensions(space)
        if dimensions is None:  # this embedder never stored a vector
            return []
        vector = np.asarray(query, dtype=np.float64).reshape(-1)
        if vector.shape[0] != dimensions:
            raise ValueError(
                f"The query vector has {vector.shape[0]} dimensions but embedder "
                f"{embedder_id!r} stored vectors of {dimensions}."
            )
        candidates = max(k * OVERSAMPLE, MIN_CANDIDATES)
        available: int | None = None  # the deal's vector count, asked only when short of k
        while True:
            params = {
                "index": space.index_name,
                "candidates": candidates,
                "vector": vector.tolist(),
                "deal_id": deal_id,
                "embedder_id": embedder_id,
                "k": k,
            }
            rows = await self._run(cypher.VECTOR_SEARCH, params, write=False)
            returned = rows[0]["returned"] if rows else 0
            matches = rows[0]["matches"] if rows else []
            if len(matches) >= k or returned < candidates or candidates >= MAX_CANDIDATES:
                break
            if available is None:
                count = {"deal_id": deal_id, "embedder_id": embedder_id}
                counted = await self._run(cypher.COUNT_VECTORS, count, write=False)
                available = counted[0]["available"] if counted else 0
            if len(matches) >= available:
                break
            candidates = min(candidates * 4, MAX_CANDIDATES)
        return [ScoredId(id=m["id"], score=2.0 * float(m["score"]) - 1.0) for m in matches[:k]]

    async def fulltext_search(self, deal_id: str, query: str, k: int) -> list[ScoredId]:
        lucene = lucene_query(query)
        if lucene is None or k <= 0:
            return []
        params = {"index": FULLTEXT_INDEX, "query": lucene, "deal_id": deal_id, "k": k}
        rows = await self._run(cypher.FULLTEXT_SEARCH, params, write=False)
        return [ScoredId(id=row["id"], score=float(row["score"])) for row in rows]

    async def warm_search(self, deal_id: str, embedder_id: str) -> None:
        """Nothing to open: the vector and full-text indexes live in the Neo4j server."""

    async def _index_dimensions(self, space: cypher.VectorSpace) -> int | None:
        """The dimensions of the embedder's vector index, or None when it does not exist yet."""
        known = self._vector_dimensions.get(space.index_name)
        if known is not None:
            return known
        rows = await self._run(cypher.SHOW_INDEX, {"name": space.index_name}, write=False)
        if not rows:
            return None
        row = rows[0]
        config = (row.get("options") or {}).get("indexConfig") or {}
        dimensions = config.get("vector.dimensions")
        if row.get("type") != "VECTOR" or dimensions is None:
            raise MandaError(
                f"Neo4j index '{space.index_name}' exists but is not a vector index "
                f"(type {row.get('type')}).",
                hint=f"Drop it (DROP INDEX {space.index_name}) and store the vectors again.",
            )
        if row.get("state") != "ONLINE":
            await self._await_index(space.index_name)
        self._vector_dimensions[space.index_name] = int(dimensions)
        return int(dimensions)

    async def _ensure_vector_index(self, space: cypher.VectorSpace, dimensions: int) -> None:
        existing = await self._index_dimensions(space)
        if existing is None:
            statement = cypher.vector_index_statement(space, dimensions)
            await self._run(statement, {}, write=True)
            await self._await_index(space.index_name)
            self._vector_dimensions[space.index_name] = dimensions
        elif existing != dimensions:
            raise ValueError(
                f"Embedder {space.embedder_id!r} produced vectors of {dimensions} dimensions "
                f"but its Neo4j index {space.index_name} holds {existing}; an embedder id must "
                "name one vector size (for example 'voyage-3.5-1024')."
            )

    async def _await_index(self, name: str) -> None:
        params = {"name": name, "timeout_seconds": self._index_wait_seconds}
        await self._run(cypher.AWAIT_INDEX, params, write=True)

    # ---------------------------------------------------------------- findings and relations

    async def add_findings(self, findings: Sequence[Finding]) -> None:
        rows = [
            {
                "deal_id": finding.deal_id,
                "id": finding.id,
                "chunk_id": finding.chunk_id,
                "props": to_props(finding),
            }
            for finding in findings
        ]
        for batch in _batches(rows):
            await self._run(cypher.ADD_FINDINGS, {"rows": batch}, write=True)

    async def get_finding(self, deal_id: str, finding_id: str) -> Finding | None:
        params = {"deal_id": deal_id, "finding_id": finding_id}
        rows = await self._run(cypher.GET_FINDING, params, write=False)
        return from_props(Finding, rows[0]["props"]) if rows else None

    async def list_findings(
        self,
        deal_id: str,
        *,
        status: FindingStatus | None = None,
        subject: str | None = None,
        document_id: str | None = None,
        unfinished: bool = False,
    ) -> list[Finding]:
        params = {
            "deal_id": deal_id,
            "status": FindingStatus(status).value if status is not None else None,
            "subject": subject,
            "document_id": document_id,
            "unfinished": unfinished,
        }
        rows = await self._run(cypher.LIST_FINDINGS, params, write=False)
        return [from_props(Finding, row["props"]) for row in rows]

    async def finding_subjects(self, deal_id: str) -> list[str]:
        rows = await self._run(cypher.FINDING_SUBJECTS, {"deal_id": deal_id}, write=False)
        return [row["subject"] for row in rows]

    async def findings_for_chunks(self, deal_id: str, chunk_ids: Sequence[str]) -> list[Finding]:
        wanted = list(dict.fromkeys(chunk_ids))
        if not wanted:
            return []
        params = {"deal_id": deal_id, "chunk_ids": wanted}
        rows = await self._run(cypher.FINDINGS_FOR_CHUNKS, params, write=False)
        return [from_props(Finding, row["props"]) for row in rows]

    async def fact_chunks(
        self,
        deal_id: str,
        subjects: Sequence[str],
        periods: Sequence[str] = (),
        *,
        among: Sequence[str] = (),
        limit: int = 60,
    ) -> list[ScoredId]:
        if not subjects:
            return []
        wanted = list(dict.fromkeys(among))
        params: dict[str, Any] = {"deal_id": deal_id, "subjects": list(dict.fromkeys(subjects)),
                                  "periods": list(periods)}
        best: dict[str, float] = {}
        if wanted:
            rows = await self._run(cypher.FACT_CHUNKS,
                                   {**params, "among": wanted, "limit": len(wanted)},
                                   write=False)
            best = {row["chunk_id"]: float(row["score"]) for row in rows}
        rows = await self._run(cypher.FACT_CHUNKS,
                               {**params, "among": None, "limit": limit + len(best)},
                               write=False)
        rest = [(row["chunk_id"], float(row["score"])) for row in rows
                if row["chunk_id"] not in best][:limit]
        ranked = sorted([*best.items(), *rest], key=lambda kv: (-kv[1], kv[0]))
        return [ScoredId(chunk_id, score) for chunk_id, score in ranked]

    async def set_finding_status(
        self, deal_id: str, finding_id: str, status: FindingStatus
    ) -> None:
        params = {
            "deal_id": deal_id,
            "finding_id": finding_id,
            "status": FindingStatus(status).value,
        }
        if not await self._run(cypher.SET_FINDING_STATUS, params, write=True):
            raise FindingNotFoundError(finding_id)

    async def add_relations(self, relations: Sequence[Relation]) -> None:
        groups: dict[tuple[str, str, RelationType], list[dict[str, str]]] = defaultdict(list)
        for relation in relations:
            if (relation.between, relation.type) not in cypher.RELATION_STATEMENTS:
                raise ValueError(
                    f"Two {relation.between}s cannot be related by {relation.type.value}: "
                    "documents are related only by SUPERSEDES and ATTACHED_TO, findings never "
                    "by ATTACHED_TO."
                )
            groups[(relation.deal_id, relation.between, relation.type)].append(
                {
                    "source_id": relation.source_id,
                    "target_id": relation.target_id,
                    "reason": relation.reason,
                }
            )
        for (deal_id, between, type_), rows in groups.items():
            statement = cypher.RELATION_STATEMENTS[(between, type_)]
            for batch in _batches(rows):
                await self._run(statement, {"deal_id": deal_id, "rows": batch}, write=True)

    async def remove_findings(self, deal_id: str, finding_ids: Sequence[str]) -> None:
        wanted = list(dict.fromkeys(finding_ids))
        for batch in _batches(wanted):
            params = {"deal_id": deal_id, "ids": batch}
            await self._run(cypher.REMOVE_FINDINGS, params, write=True)

    async def replace_relations(
        self, deal_id: str, relations: Sequence[Relation], *, types: Sequence[RelationType]
    ) -> None:
        check_replacing(deal_id, relations, types)
        params = {
            "deal_id": deal_id,
            "types": [RelationType(t).value for t in types],
            "keep": [f"{r.type.value}|{r.source_id}|{r.target_id}" for r in relations],
        }
        await self._run(cypher.REMOVE_RELATIONS_EXCEPT, params, write=True)
        await self.add_relations(relations)

    async def list_relations(
        self,
        deal_id: str,
        *,
        type: RelationType | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Relation]:
        params = {
            "deal_id": deal_id,
            "type": RelationType(type).value if type is not None else None,
            "ids": list(ids) if ids is not None else None,
        }
        rows = await self._run(cypher.LIST_RELATIONS, params, write=False)
        return [
            Relation(
                deal_id=deal_id,
                type=RelationType(row["type"]),
                source_id=row["source_id"],
                target_id=row["target_id"],
                between=row["between"],
                reason=row["reason"],
            )
            for row in rows
        ]

    # ---------------------------------------------------------------- human in the loop

    async def record_decision(self, decision: ReviewDecision) -> None:
        params = {
            "deal_id": decision.deal_id,
            "finding_id": decision.finding_id,
            "props": to_props(decision),
        }
        rows = await self._run(cypher.RECORD_DECISION, params, write=True)
        if rows and not rows[0]["created"]:
            earlier = from_props(ReviewDecision, rows[0]["props"])
            raise AlreadyDecidedError(decision.finding_id, _DECIDED[earlier.decision], earlier.by)

    async def get_decision(self, deal_id: str, finding_id: str) -> ReviewDecision | None:
        params = {"deal_id": deal_id, "finding_id": finding_id}
        rows = await self._run(cypher.GET_DECISION, params, write=False)
        return from_props(ReviewDecision, rows[0]["props"]) if rows else None

    async def withdraw_decision(
        self, deal_id: str, finding_id: str, *, at: datetime
    ) -> ReviewDecision | None:
        params = {"deal_id": deal_id, "finding_id": finding_id, "at": at}
        rows = await self._run(cypher.WITHDRAW_DECISION, params, write=True)
        return from_props(ReviewDecision, rows[0]["props"]) if rows else None

    async def append_audit(self, entry: AuditEntry) -> None:
        params = {"deal_id": entry.deal_id, "entry_id": entry.id, "props": to_props(entry)}
        await self._run(cypher.APPEND_AUDIT, params, write=True)

    async def list_audit(self, deal_id: str) -> list[AuditEntry]:
        rows = await self._run(cypher.LIST_AUDIT, {"deal_id": deal_id}, write=False)
        return [from_props(AuditEntry, row["props"]) for row in rows]

    async def add_qa_item(self, item: QAItem) -> bool:
        params = {"deal_id": item.deal_id, "item_id": item.id, "props": to_props(item)}
        rows = await self._run(cypher.ADD_QA_ITEM, params, write=True)
        return bool(rows and rows[0]["created"])

    async def list_qa_items(self, deal_id: str) -> list[QAItem]:
        rows = await self._run(cypher.LIST_QA_ITEMS, {"deal_id": deal_id}, write=False)
        return [from_props(QAItem, row["props"]) for row in rows]

    async def replace_qa_item(self, item: QAItem) -> bool:
        params = {"deal_id": item.deal_id, "item_id": item.id, "props": to_props(item)}
        rows = await self._run(cypher.REPLACE_QA_ITEM, params, write=True)
        return bool(rows and rows[0]["replaced"])

    async def remove_qa_item(self, deal_id: str, item_id: str) -> bool:
        params = {"deal_id": deal_id, "item_id": item_id}
        rows = await self._run(cypher.REMOVE_QA_ITEM, params, write=True)
        return bool(rows and rows[0]["removed"])

    async def put_grid_cells(self, cells: Sequence[GridCell]) -> None:
        rows = [{"deal_id": c.deal_id, "document_id": c.document_id, "wording": c.wording,
                 "reader": c.reader, "data": c.model_dump_json()} for c in cells]
        for start in range(0, len(rows), 1000):
            await self._run(cypher.PUT_GRID_CELLS, {"rows": rows[start:start + 1000]},
                            write=True)

    async def grid_cells(
        self, deal_id: str, document_ids: Sequence[str], wordings: Sequence[str], reader: str
    ) -> list[GridCell]:
        params = {"deal_id": deal_id, "document_ids": list(document_ids),
                  "wordings": list(wordings), "reader": reader}
        rows = await self._run(cypher.GRID_CELLS, params, write=False)
        return [GridCell.model_validate_json(row["data"]) for row in rows]

    async def put_grid_run(self, run: GridRun) -> None:
        params = {"deal_id": run.deal_id, "run_id": run.id,
                  "created_at": run.created_at.isoformat(), "data": run.model_dump_json()}
        await self._run(cypher.PUT_GRID_RUN, params, write=True)

    async def get_grid_run(self, deal_id: str, run_id: str) -> GridRun | None:
        rows = await self._run(cypher.GET_GRID_RUN, {"deal_id": deal_id, "run_id": run_id},
                               write=False)
        return GridRun.model_validate_json(rows[0]["data"]) if rows else None

    async def list_grid_runs(self, deal_id: str, *, limit: int = 20) -> list[GridRun]:
        rows = await self._run(cypher.LIST_GRID_RUNS, {"deal_id": deal_id, "limit": limit},
                               write=False)
        return [GridRun.model_validate_json(row["data"]) for row in rows]

    async def bind_channel(self, channel_key: str, deal_id: str) -> None:
        params = {"channel_key": channel_key, "deal_id": deal_id}
        await self._run(cypher.BIND_CHANNEL, params, write=True)

    async def unbind_channel(self, channel_key: str) -> None:
        await self._run(cypher.UNBIND_CHANNEL, {"channel_key": channel_key}, write=True)

    async def channel_deal(self, channel_key: str) -> str | None:
        rows = await self._run(cypher.CHANNEL_DEAL, {"channel_key": channel_key}, write=False)
        return rows[0]["deal_id"] if rows else None

    async def list_bindings(self) -> dict[str, str]:
        rows = await self._run(cypher.LIST_BINDINGS, {}, write=False)
        return {row["channel_key"]: row["deal_id"] for row in rows}


def _batches(rows: list[T]) -> Iterator[list[T]]:
    for start in range(0, len(rows), BATCH_SIZE):
        yield rows[start : start + BATCH_SIZE]


def _same_deal(deal_id: str, deal_ids: Iterable[str], what: str) -> None:
    strays = sorted({other for other in deal_ids if other != deal_id})
    if strays:
        raise ValueError(
            f"Every {what} added to deal '{deal_id}' must belong to it; got {what}s of "
            f"{', '.join(strays)}."
        )
