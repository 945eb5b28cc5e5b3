"""Fixtures for the knowledge graph contract: one `graph` per enabled backend, model factories.

`embedded` always runs (a fresh SQLite file per test). `neo4j` runs only when NEO4J_URI is set
(NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE optional); every test uses fresh deal ids so a shared
live server is never polluted across tests.
"""

from __future__ import annotations

import itertools
import math
import os
import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from manda.kg.embedded import EmbeddedKnowledgeGraph
from manda.kg.port import KnowledgeGraph
from manda.models import (
    AuditEntry,
    Chunk,
    Confidence,
    Deal,
    Document,
    DocumentStatus,
    Finding,
    FindingKind,
    FindingStatus,
    Location,
    QAItem,
    Relation,
    RelationType,
    ReviewDecision,
    ReviewDecisionKind,
)

BACKENDS = ["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)]


# Read once at import: the suite-wide autouse fixture (tests/conftest.py) clears NEO4J_* from
# the environment of every test so nothing else picks up a developer's server by accident.
_NEO4J = {
    name: os.environ.get(name)
    for name in ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE")
}


def _neo4j_graph() -> KnowledgeGraph:
    uri = _NEO4J["NEO4J_URI"]
    if not uri:
        pytest.skip(
            "neo4j backend not enabled: set NEO4J_URI (and NEO4J_USER, NEO4J_PASSWORD, "
            "NEO4J_DATABASE) to run the contract against a live Neo4j 5 server"
        )
    from manda.kg.neo4j import Neo4jKnowledgeGraph  # imported only when the backend is enabled

    return Neo4jKnowledgeGraph(
        uri=uri,
        user=_NEO4J["NEO4J_USER"] or "neo4j",
        password=_NEO4J["NEO4J_PASSWORD"],
        database=_NEO4J["NEO4J_DATABASE"] or "neo4j",
    )


@pytest.fixture(params=BACKENDS)
async def graph(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[KnowledgeGraph]:
    """A started knowledge graph of every enabled backend; closed after the test."""
    if request.param == "embedded":
        store: KnowledgeGraph = EmbeddedKnowledgeGraph(tmp_path / "home" / "manda.db")
    else:
        store = _neo4j_graph()
    await store.start()
    try:
        yield store
    finally:
        await store.aclose()


def fresh_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def deal_id() -> str:
    return fresh_id("deal")


@pytest.fixture
def other_deal_id() -> str:
    return fresh_id("deal")


class ModelFactory:
    """Valid domain models with unique ids and distinct, increasing timestamps."""

    def __init__(self) -> None:
        self._serial = itertools.count(1)
        self._clock = datetime(2024, 10, 1, 9, 0, tzinfo=UTC)

    def _next(self) -> int:
        return next(self._serial)

    def moment(self) -> datetime:
        """Each call is one second after the previous one."""
        self._clock += timedelta(seconds=1)
        return self._clock

    @staticmethod
    def id(prefix: str) -> str:
        return fresh_id(prefix)

    @staticmethod
    def unit(*values: float) -> np.ndarray:
        """A hand-made L2-normalised float32 vector."""
        vector = np.asarray(values, dtype=np.float32)
        return vector / np.float32(math.sqrt(float(vector @ vector)))

    @classmethod
    def vectors(cls, *rows: Sequence[float]) -> np.ndarray:
        """An (n, dim) float32 matrix of unit rows."""
        return np.vstack([cls.unit(*row) for row in rows])

    def deal(self, deal_id: str, name: str = "Project Falcon") -> Deal:
        return Deal(id=deal_id, name=name, created_at=self.moment())

    def document(
        self,
        deal_id: str,
        filename: str = "Q3_Report.pdf",
        content_hash: str | None = None,
        **fields: object,
    ) -> Document:
        content_hash = content_hash or uuid.uuid4().hex
        values: dict[str, object] = {
            "id": Document.make_id(deal_id, content_hash),
            "deal_id": deal_id,
            "filename": filename,
            "content_hash": content_hash,
            "file_type": filename.rsplit(".", 1)[-1],
            "size_bytes": 12_345,
            "doc_date": date(2024, 10, 15),
            "version_family": filename.rsplit(".", 1)[0].lower(),
            "units": 3,
            "ingested_at": self.moment(),
            "status": DocumentStatus.COMPLETED,  # only completed documents are searched
        }
        values.update(fields)
        return Document.model_validate(values)

    def chunk(self, document: Document, text: str, ordinal: int | None = None,
              heading_path: tuple[str, ...] = ()) -> Chunk:
        ordinal = self._next() if ordinal is None else ordinal
        return Chunk(
            id=Chunk.make_id(document.id, ordinal),
            deal_id=document.deal_id,
            document_id=document.id,
            ordinal=ordinal,
            text=text,
            location=Location.for_page(ordinal + 1),
            section=ordinal,
            heading_path=heading_path,
        )

    def chunks(self, document: Document, texts: Sequence[str]) -> list[Chunk]:
        return [self.chunk(document, text, ordinal=i) for i, text in enumerate(texts)]

    def finding(
        self,
        document: Document,
        *,
        chunk: Chunk | None = None,
        subject: str = "revenue",
        period: str | None = "Q3 2024",
        value: float | None = 5_200_000.0,
        status: FindingStatus = FindingStatus.PENDING,
        **fields: object,
    ) -> Finding:
        location = chunk.location if chunk else Location.for_cell("P&L", f"B{self._next()}")
        values: dict[str, object] = {
            "id": Finding.make_id(
                document.deal_id, document.id, location.label, subject, period, value
            )
            + f"_{self._next()}",
            "deal_id": document.deal_id,
            "document_id": document.id,
            "chunk_id": chunk.id if chunk else None,
            "kind": FindingKind.METRIC,
            "subject": subject,
            "label": subject.title(),
            "period": period,
            "value": value,
            "unit": "EUR",
            "value_text": "€5.2M",
            "attributes": {"basis": "reported"},
            "doc_date": date(2024, 10, 15),
            "excerpt": f"{subject} for {period} was €5.2M",
            "location": location,
            "confidence": 0.92,
            "confidence_level": Confidence.HIGH,
            "status": status,
            "created_at": self.moment(),
        }
        values.update(fields)
        return Finding.model_validate(values)

    def relation(
        self,
        deal_id: str,
        type: RelationType,
        source_id: str,
        target_id: str,
        reason: str = "",
        between: str = "finding",
    ) -> Relation:
        return Relation(
            deal_id=deal_id,
            type=type,
            source_id=source_id,
            target_id=target_id,
            between=between,  # type: ignore[arg-type]
            reason=reason or f"{type.value.lower()} by test",
        )

    def decision(
        self,
        finding: Finding,
        decision: ReviewDecisionKind = ReviewDecisionKind.APPROVE,
        by: str = "alice",
    ) -> ReviewDecision:
        return ReviewDecision(
            finding_id=finding.id,
            deal_id=finding.deal_id,
            decision=decision,
            by=by,
            at=self.moment(),
            reason="matches the audited accounts",
        )

    def audit(
        self, deal_id: str, action: str = "finding.approved", at: datetime | None = None
    ) -> AuditEntry:
        return AuditEntry(
            id=fresh_id("a"),
            deal_id=deal_id,
            action=action,
            subject_id=fresh_id("f"),
            by="alice",
            at=at or self.moment(),
            detail="checked against the data room",
        )

    def qa(
        self, deal_id: str, question: str = "Why did Q3 churn rise?", **fields: object
    ) -> QAItem:
        values: dict[str, object] = {
            "id": QAItem.make_id(deal_id, question),
            "deal_id": deal_id,
            "question": question,
            "category": "Commercial",
            "source": "Q3_Report.pdf, p.3",
            "created_by": "alice",
            "created_at": self.moment(),
        }
        values.update(fields)
        return QAItem.model_validate(values)


@pytest.fixture
def make() -> ModelFactory:
    return ModelFactory()
