"""The knowledge graph contract: every adapter of `KnowledgeGraph` must pass all of these.

The `graph` fixture (conftest.py) runs each test once per enabled backend. Each test uses its own
fresh deal ids, and global reads (deals, bindings) are checked by containment, so the suite can
run against a shared live Neo4j.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

import numpy as np
import pytest

from manda.errors import AlreadyDecidedError, FindingNotFoundError, MandaError
from manda.kg.port import ROLES, Capabilities, KnowledgeGraph, ScoredId
from manda.models import (
    CellStatus,
    Chunk,
    Deal,
    Document,
    DocumentStatus,
    Finding,
    FindingStatus,
    GridCell,
    GridColumn,
    GridRun,
    GridRunStatus,
    GridSelection,
    Location,
    RelationType,
    ReviewDecisionKind,
)

if TYPE_CHECKING:
    from conftest import ModelFactory


def dumps(models: list) -> list[dict]:
    return sorted((m.model_dump() for m in models), key=repr)


# ---------------------------------------------------------------- lifecycle


def test_the_adapter_plays_every_role(graph: KnowledgeGraph) -> None:
    """Consumers are typed on narrow roles (corpus, search, findings, review, Q&A, bindings);
    every adapter is each of them, with every method the role names."""
    for role in ROLES:
        assert isinstance(graph, role), role.__name__


async def test_is_a_knowledge_graph_with_capabilities(graph: KnowledgeGraph) -> None:
    assert isinstance(graph, KnowledgeGraph)
    assert isinstance(graph.capabilities, Capabilities)
    assert graph.capabilities.name
    await graph.ping()


# ---------------------------------------------------------------- deals


async def test_deal_round_trip_and_idempotent_upsert(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    deal = make.deal(deal_id, name="Project Falcon")
    await graph.upsert_deal(deal)
    assert (await graph.get_deal(deal_id)).model_dump() == deal.model_dump()

    renamed = deal.model_copy(update={"name": "Project Falcon II"})
    await graph.upsert_deal(renamed)
    await graph.upsert_deal(renamed)
    listed = [d for d in await graph.list_deals() if d.id == deal_id]
    assert [d.model_dump() for d in listed] == [renamed.model_dump()]
    assert await graph.get_deal(make.id("deal")) is None


# ---------------------------------------------------------------- documents


async def test_document_round_trip_by_id_and_hash(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    document = make.document(deal_id, "Q3_Report.pdf", is_irl=False, draft=True, version_rank=2)
    await graph.upsert_document(document)

    assert (await graph.get_document(deal_id, document.id)).model_dump() == document.model_dump()
    found = await graph.find_document_by_hash(deal_id, document.content_hash)
    assert found is not None and found.model_dump() == document.model_dump()
    assert await graph.find_document_by_hash(deal_id, "0" * 64) is None
    assert await graph.get_document(deal_id, Document.make_id(deal_id, "nope")) is None


async def test_a_documents_place_in_the_room_and_its_attachments_round_trip(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    mail = make.document(deal_id, "3.1 Offer.eml").model_copy(update={
        "path": "Falcon/3 Mail/3.1 Offer.eml", "room_index": "3.1",
        "metadata": {"from": "Ann Berg <ann@adviser.example>", "subject": "Offer"},
    })
    sheet = make.document(deal_id, "Term_Sheet.pdf").model_copy(update={
        "path": "Falcon/3 Mail/3.1 Offer.eml/Term_Sheet.pdf", "room_index": "3.1",
    })
    await graph.upsert_document(mail)
    await graph.upsert_document(sheet)
    attached = make.relation(
        deal_id, RelationType.ATTACHED_TO, sheet.id, mail.id, "came attached", between="document"
    )
    await graph.add_relations([attached])

    assert (await graph.get_document(deal_id, mail.id)).model_dump() == mail.model_dump()
    assert dumps(await graph.list_relations(deal_id, type=RelationType.ATTACHED_TO)) == dumps(
        [attached]
    )
    assert await graph.list_relations(deal_id, type=RelationType.SUPERSEDES) == []


async def test_documents_upsert_is_idempotent_and_replaces(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    first = make.document(deal_id, "CIM.pdf")
    second = make.document(deal_id, "Financials.xlsx")
    await graph.upsert_document(first)
    await graph.upsert_document(first)
    await graph.upsert_document(second)
    updated = first.model_copy(update={"units": 42, "authoritative": True})
    await graph.upsert_document(updated)

    assert dumps(await graph.list_documents(deal_id)) == dumps([updated, second])


async def test_document_names_are_the_completed_documents_file_names(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    done = make.document(deal_id, "Q3_Report.pdf")
    reading = make.document(deal_id, "Board_Pack.pdf", status=DocumentStatus.RUNNING)
    for document in (done, reading):
        await graph.upsert_document(document)
    assert await graph.document_names(deal_id) == {done.id: "Q3_Report.pdf"}
    await graph.set_document_status(deal_id, reading.id, DocumentStatus.COMPLETED)
    assert await graph.document_names(deal_id) == {done.id: "Q3_Report.pdf",
                                                   reading.id: "Board_Pack.pdf"}


async def test_document_status_and_error(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    document = make.document(deal_id)
    await graph.upsert_document(document)

    await graph.set_document_status(deal_id, document.id, DocumentStatus.FAILED, "is encrypted")
    failed = await graph.get_document(deal_id, document.id)
    assert (failed.status, failed.error) == (DocumentStatus.FAILED, "is encrypted")

    await graph.set_document_status(deal_id, document.id, DocumentStatus.COMPLETED)
    done = await graph.get_document(deal_id, document.id)
    assert (done.status, done.error) == (DocumentStatus.COMPLETED, None)
    expected = document.model_copy(update={"status": DocumentStatus.COMPLETED})
    assert done.model_dump() == expected.model_dump()
    assert (await graph.list_documents(deal_id))[0].status is DocumentStatus.COMPLETED

    with pytest.raises(MandaError, match="no document"):
        await graph.set_document_status(deal_id, "d_missing", DocumentStatus.COMPLETED)


# ---------------------------------------------------------------- chunks


async def test_chunks_round_trip_in_order(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    document = make.document(deal_id)
    other = make.document(deal_id, "Other.pdf")
    chunks = make.chunks(document, ["first passage", "second passage", "third passage"])
    chunks[1].heading_path = ("3 Legal", "3.2 Litigation — “pending” claims")
    chunks[2].heading_path = ("Consolidated Statements of Operations (in millions)",)
    await graph.add_chunks(deal_id, list(reversed(chunks)))
    await graph.add_chunks(deal_id, make.chunks(other, ["elsewhere"]))

    listed = await graph.list_chunks(deal_id, document.id)
    assert [c.model_dump() for c in listed] == [c.model_dump() for c in chunks]

    got = await graph.get_chunks(deal_id, [chunks[2].id, chunks[0].id, "unknown_c0001"])
    assert dumps(got) == dumps([chunks[2], chunks[0]])
    assert await graph.get_chunks(deal_id, []) == []


async def test_chunks_upsert_is_idempotent_and_replaces_text(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    document = make.document(deal_id)
    chunk = make.chunk(document, "Revenue for Q3 2024 was €5.2M.", ordinal=0)
    await graph.add_chunks(deal_id, [chunk])
    await graph.add_chunks(deal_id, [chunk])
    assert len(await graph.list_chunks(deal_id, document.id)) == 1

    corrected = chunk.model_copy(update={"text": "Headcount at quarter end was 212 people."})
    await graph.add_chunks(deal_id, [corrected])
    listed = await graph.list_chunks(deal_id, document.id)
    assert [c.model_dump() for c in listed] == [corrected.model_dump()]
    # the full-text index follows the new text, not the old one
    assert [h.id for h in await graph.fulltext_search(deal_id, "headcount", 5)] == [chunk.id]
    assert await graph.fulltext_search(deal_id, "revenue", 5) == []


# ---------------------------------------------------------------- full-text search

PASSAGES = [
    "The board approved the annual budget and the hiring plan for the sales team.",
    "Q3 2024 revenue was €5.2M, up 12% on Q3 2023, driven by enterprise renewals.",
    "EBITDA margin for FY2023 was 18%; net debt stood at €3.1M at year end.",
    "Customer churn in 2024 rose slightly; the largest customer renewed for three years.",
]


async def _seed_passages(graph: KnowledgeGraph, make: ModelFactory, deal_id: str) -> list[str]:
    chunks = make.chunks(make.document(deal_id), PASSAGES)
    await graph.add_chunks(deal_id, chunks)
    return [c.id for c in chunks]


async def test_fulltext_ranks_the_passage_with_the_query_terms_first(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    ids = await _seed_passages(graph, make, deal_id)

    hits = await graph.fulltext_search(deal_id, "What was Q3 2024 revenue?", 10)
    assert hits and hits[0].id == ids[1]
    assert all(isinstance(h, ScoredId) for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert hits[0].score > hits[-1].score or len(hits) == 1
    assert {h.id for h in hits} <= set(ids)

    ebitda = await graph.fulltext_search(deal_id, "EBITDA margin", 10)
    assert [h.id for h in ebitda] == [ids[2]]
    assert len(await graph.fulltext_search(deal_id, "2024 revenue churn customer", 1)) == 1


@pytest.mark.parametrize(
    "question",
    [
        'revenue AND NOT "ebitda',
        "NEAR(revenue ebitda, 2)",
        "revenue NEAR ebitda",
        "rev* OR ^Q3 revenue",
        "text:revenue",
        "((revenue",
        "revenue -ebitda +margin",
        "'revenue'; DROP TABLE chunks; --",
        "revenue\u00a0💶 ?!",
        'he said "Q3 revenue" & left',
    ],
)
async def test_fulltext_never_breaks_on_operators_or_punctuation(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str, question: str
) -> None:
    ids = await _seed_passages(graph, make, deal_id)
    hits = await graph.fulltext_search(deal_id, question, 5)
    assert ids[1] in [h.id for h in hits]  # every question above mentions "revenue"
    assert len(await graph.get_chunks(deal_id, ids)) == len(PASSAGES)


@pytest.mark.parametrize("question", ["", "   ", "?!", "*", '""', "AND OR NOT"])
async def test_fulltext_with_nothing_searchable_returns_a_list(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str, question: str
) -> None:
    await _seed_passages(graph, make, deal_id)
    hits = await graph.fulltext_search(deal_id, question, 5)
    assert isinstance(hits, list)
    assert len(hits) <= 5


# ---------------------------------------------------------------- vectors

E1, E2, E3 = (1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0)
E12 = (1.0, 1.0, 0.0, 0.0)
E4 = (0.0, 0.0, 0.0, 1.0)


async def test_vector_search_ranks_by_cosine(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    chunks = make.chunks(make.document(deal_id), ["east", "north", "up", "north-east"])
    await graph.add_chunks(deal_id, chunks)
    ids = [c.id for c in chunks]
    await graph.add_vectors(deal_id, "emb-a", ids, make.vectors(E1, E2, E3, E12))
    assert await graph.embedded_chunk_ids(deal_id, "emb-a") == set(ids)

    hits = await graph.vector_search(deal_id, "emb-a", make.unit(*E1), 2)
    assert [h.id for h in hits] == [ids[0], ids[3]]
    assert hits[0].score == pytest.approx(1.0, abs=1e-3)
    assert hits[1].score == pytest.approx(2**-0.5, abs=1e-3)

    everything = await graph.vector_search(deal_id, "emb-a", make.unit(0.9, 0.1, 0.0, 0.0), 10)
    assert [h.id for h in everything[:2]] == [ids[0], ids[3]]
    assert {h.id for h in everything} <= set(ids)
    assert [h.score for h in everything] == sorted((h.score for h in everything), reverse=True)


async def test_vector_search_sees_vectors_added_later_and_replaced(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    chunks = make.chunks(make.document(deal_id), ["a", "b", "c"])
    await graph.add_chunks(deal_id, chunks)
    a, b, c = (ch.id for ch in chunks)
    await graph.add_vectors(deal_id, "emb-a", [a, b], make.vectors(E1, E2))
    assert (await graph.vector_search(deal_id, "emb-a", make.unit(*E3), 1))[0].id in {a, b}

    await graph.add_vectors(deal_id, "emb-a", [c], make.vectors(E3))
    assert (await graph.vector_search(deal_id, "emb-a", make.unit(*E3), 1))[0].id == c

    await graph.add_vectors(deal_id, "emb-a", [a], make.vectors(E3))  # a now points up too
    await graph.add_vectors(deal_id, "emb-a", [c], make.vectors(E4))
    top = await graph.vector_search(deal_id, "emb-a", make.unit(*E3), 1)
    assert [h.id for h in top] == [a]
    assert await graph.embedded_chunk_ids(deal_id, "emb-a") == {a, b, c}


async def test_two_embedders_never_mix(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    chunks = make.chunks(make.document(deal_id), ["one", "two", "three"])
    await graph.add_chunks(deal_id, chunks)
    one, two, three = (c.id for c in chunks)
    await graph.add_vectors(deal_id, "emb-a", [one, two], make.vectors(E1, E2))
    await graph.add_vectors(deal_id, "emb-b", [two, three], make.vectors(E2, E1))

    assert await graph.embedded_chunk_ids(deal_id, "emb-a") == {one, two}
    assert await graph.embedded_chunk_ids(deal_id, "emb-b") == {two, three}
    assert [h.id for h in await graph.vector_search(deal_id, "emb-a", make.unit(*E1), 1)] == [one]
    b_hits = await graph.vector_search(deal_id, "emb-b", make.unit(*E1), 5)
    assert b_hits[0].id == three
    assert {h.id for h in b_hits} <= {two, three}
    assert await graph.vector_search(deal_id, "emb-none", make.unit(*E1), 5) == []
    assert await graph.embedded_chunk_ids(deal_id, "emb-none") == set()


async def test_a_chunk_s_stored_vector_is_read_back_in_its_embedder_s_space(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    chunks = make.chunks(make.document(deal_id), ["one", "two", "three"])
    await graph.add_chunks(deal_id, chunks)
    one, two, three = (c.id for c in chunks)
    await graph.add_vectors(deal_id, "emb-a", [one, two], make.vectors(E1, E2))
    await graph.add_vectors(deal_id, "emb-b", [two], make.vectors(E1))

    read = await graph.chunk_vectors(deal_id, "emb-a", [one, two, three])
    assert set(read) == {one, two}  # three was never embedded
    assert float(np.dot(read[one], make.unit(*E1))) > 0.99
    assert float(np.dot(read[two], make.unit(*E2))) > 0.99
    assert set(await graph.chunk_vectors(deal_id, "emb-b", [one, two])) == {two}
    assert await graph.chunk_vectors(deal_id, "emb-a", []) == {}


async def test_vectors_of_another_dimension_for_the_same_embedder_are_refused(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    chunks = make.chunks(make.document(deal_id), ["one", "two"])
    await graph.add_chunks(deal_id, chunks)
    await graph.add_vectors(deal_id, "emb-a", [chunks[0].id], make.vectors(E1))
    with pytest.raises(ValueError):
        await graph.add_vectors(deal_id, "emb-a", [chunks[1].id], make.vectors((1.0, 2.0, 3.0)))
    with pytest.raises(ValueError):
        await graph.add_vectors(deal_id, "emb-a", [chunks[1].id], make.vectors(E1, E2))
    assert await graph.embedded_chunk_ids(deal_id, "emb-a") == {chunks[0].id}


# ---------------------------------------------------------------- findings


async def test_finding_round_trip_and_idempotent_add(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    document = make.document(deal_id)
    chunk = make.chunk(document, "Revenue for Q3 2024 was €5.2M.")
    finding = make.finding(document, chunk=chunk, entity="Falcon GmbH",
                           heading_path=("Quarterly report", "Highlights"))
    await graph.add_findings([finding])
    await graph.add_findings([finding])

    got = await graph.get_finding(deal_id, finding.id)
    assert got is not None and got.model_dump() == finding.model_dump()
    assert [f.model_dump() for f in await graph.list_findings(deal_id)] == [finding.model_dump()]
    assert await graph.get_finding(deal_id, make.id("f")) is None


async def test_list_findings_filters(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    report, model = make.document(deal_id), make.document(deal_id, "Model.xlsx")
    revenue = make.finding(report, subject="revenue")
    ebitda = make.finding(report, subject="ebitda", status=FindingStatus.APPROVED)
    forecast = make.finding(model, subject="revenue", period="Q4 2024")
    await graph.add_findings([revenue, ebitda, forecast])

    async def ids(**filters: object) -> set[str]:
        return {f.id for f in await graph.list_findings(deal_id, **filters)}

    assert await ids() == {revenue.id, ebitda.id, forecast.id}
    assert await ids(status=FindingStatus.PENDING) == {revenue.id, forecast.id}
    assert await ids(status=FindingStatus.APPROVED) == {ebitda.id}
    assert await ids(subject="revenue") == {revenue.id, forecast.id}
    assert await ids(document_id=model.id) == {forecast.id}
    assert await ids(subject="revenue", document_id=report.id) == {revenue.id}
    assert await ids(subject="revenue", status=FindingStatus.REJECTED) == set()
    assert await graph.finding_subjects(deal_id) == ["ebitda", "revenue"]


async def test_finding_status_changes_are_read_back_everywhere(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    finding = make.finding(make.document(deal_id))
    await graph.add_findings([finding])

    await graph.set_finding_status(deal_id, finding.id, FindingStatus.SUPERSEDED)
    got = await graph.get_finding(deal_id, finding.id)
    assert got.model_dump() == finding.model_copy(
        update={"status": FindingStatus.SUPERSEDED}
    ).model_dump()
    assert [f.id for f in await graph.list_findings(deal_id, status=FindingStatus.SUPERSEDED)] == [
        finding.id
    ]
    assert await graph.list_findings(deal_id, status=FindingStatus.PENDING) == []

    with pytest.raises(FindingNotFoundError):
        await graph.set_finding_status(deal_id, make.id("f"), FindingStatus.APPROVED)


async def test_heading_paths_are_set_on_chunks_and_their_findings_alone(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    """What a document stored before heading paths were kept gets when it is read again."""
    document = make.document(deal_id)
    claim, other = make.chunks(document, ["A former distributor claims EUR 2.3M.", "Leases"])
    await graph.add_chunks(deal_id, [claim, other])
    decided = make.finding(document, chunk=claim, status=FindingStatus.APPROVED)
    elsewhere = make.finding(document, chunk=other)
    await graph.add_findings([decided, elsewhere])

    path = ("Legal summary", "Litigation")
    await graph.set_heading_paths(deal_id, {claim.id: path, "unknown_c0001": ("x",)})

    [stored, untouched] = await graph.list_chunks(deal_id, document.id)
    assert stored.model_dump() == claim.model_copy(update={"heading_path": path}).model_dump()
    assert untouched.model_dump() == other.model_dump()
    got = await graph.get_finding(deal_id, decided.id)
    assert got is not None
    assert got.model_dump() == decided.model_copy(update={"heading_path": path}).model_dump()
    assert (await graph.get_finding(deal_id, elsewhere.id)) == elsewhere
    assert [h.id for h in await graph.fulltext_search(deal_id, "distributor", 5)] == [claim.id]
    await graph.set_heading_paths(deal_id, {claim.id: ()})
    assert (await graph.get_chunks(deal_id, [claim.id]))[0].heading_path == ()


async def test_findings_for_chunks(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    document = make.document(deal_id)
    first, second, third = make.chunks(document, ["one", "two", "three"])
    await graph.add_chunks(deal_id, [first, second, third])
    on_first = make.finding(document, chunk=first)
    also_first = make.finding(document, chunk=first, subject="ebitda")
    on_second = make.finding(document, chunk=second)
    no_chunk = make.finding(document)
    await graph.add_findings([on_first, also_first, on_second, no_chunk])

    found = await graph.findings_for_chunks(deal_id, [first.id, third.id])
    assert dumps(found) == dumps([on_first, also_first])
    assert {f.id for f in await graph.findings_for_chunks(deal_id, [second.id])} == {on_second.id}
    assert await graph.findings_for_chunks(deal_id, []) == []


async def test_fact_chunks_scores_passages_by_their_best_finding_and_reads_only_a_few(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    """Retrieval's findings channel: every passage the other channels found that holds a
    finding on the subject (and period), and the `limit` strongest of the rest, ties by id."""
    document = make.document(deal_id)
    chunks = make.chunks(document, [f"page {n}" for n in range(6)])
    await graph.add_chunks(deal_id, chunks)
    a, b, c, d, e, f = chunks
    await graph.add_findings([
        make.finding(document, chunk=a, confidence=0.6),
        make.finding(document, chunk=a, confidence=0.9),  # a's best counts
        make.finding(document, chunk=b, confidence=0.8),
        make.finding(document, chunk=c, confidence=0.8),
        make.finding(document, chunk=d, confidence=0.9, status=FindingStatus.SUPERSEDED),
        make.finding(document, chunk=e, confidence=0.95, status=FindingStatus.REJECTED),
        make.finding(document, chunk=f, confidence=0.99, period="Q4 2024"),
        make.finding(document, chunk=f, confidence=0.99, subject="ebitda"),
        make.finding(document, confidence=0.99),  # no passage
    ])

    def scored(found: list[ScoredId]) -> list[tuple[str, float]]:
        return [(h.id, round(h.score, 3)) for h in found]

    got = await graph.fact_chunks(deal_id, ["revenue"], ["Q3 2024"], limit=10)
    assert scored(got) == sorted([(a.id, 0.9), (b.id, 0.8), (c.id, 0.8), (d.id, 0.45)],
                                 key=lambda x: (-x[1], x[0]))
    top = await graph.fact_chunks(deal_id, ["revenue"], ["Q3 2024"], among=[d.id], limit=2)
    assert scored(top) == sorted([(a.id, 0.9), (min(b.id, c.id), 0.8), (d.id, 0.45)],
                                 key=lambda x: (-x[1], x[0]))
    any_period = await graph.fact_chunks(deal_id, ["revenue", "ebitda"], limit=1)
    assert scored(any_period) == [(f.id, 0.99)]
    assert await graph.fact_chunks(deal_id, [], limit=5) == []


# ---------------------------------------------------------------- relations


async def test_relations_by_type_and_ids_and_idempotent(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    document = make.document(deal_id)
    f1, f2, f3, f4 = (make.finding(document, subject=s) for s in ("a", "b", "c", "d"))
    await graph.add_findings([f1, f2, f3, f4])
    newer, older = make.document(deal_id, "Q3_v2.pdf"), make.document(deal_id, "Q3.pdf")
    supersedes = make.relation(deal_id, RelationType.SUPERSEDES, f2.id, f1.id, "corrected")
    contradicts = make.relation(deal_id, RelationType.CONTRADICTS, f3.id, f4.id, "3.1M vs 3.4M")
    supports = make.relation(deal_id, RelationType.SUPPORTS, f4.id, f1.id)
    doc_supersedes = make.relation(
        deal_id, RelationType.SUPERSEDES, newer.id, older.id, "_v2", between="document"
    )
    everything = [supersedes, contradicts, supports, doc_supersedes]
    await graph.add_relations(everything)
    await graph.add_relations([supersedes, contradicts])

    assert dumps(await graph.list_relations(deal_id)) == dumps(everything)
    assert dumps(await graph.list_relations(deal_id, type=RelationType.SUPERSEDES)) == dumps(
        [supersedes, doc_supersedes]
    )
    assert dumps(await graph.list_relations(deal_id, ids=[f1.id])) == dumps(
        [supersedes, supports]
    )
    assert dumps(await graph.list_relations(deal_id, ids=[f3.id, older.id])) == dumps(
        [contradicts, doc_supersedes]
    )
    assert dumps(
        await graph.list_relations(deal_id, type=RelationType.CONTRADICTS, ids=[f4.id])
    ) == dumps([contradicts])
    assert await graph.list_relations(deal_id, ids=[]) == []
    assert await graph.list_relations(deal_id, ids=[make.id("f")]) == []


async def test_a_rejected_findings_relations_do_not_count_until_the_rejection_is_undone(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    document, other = make.document(deal_id), make.document(deal_id, "Board_Pack.pdf")
    wrong, right, agrees = (make.finding(d, subject="revenue") for d in (document, other, other))
    await graph.add_findings([wrong, right, agrees])
    newer, older = make.document(deal_id, "Q3_v2.pdf"), make.document(deal_id, "Q3.pdf")
    conflict = make.relation(deal_id, RelationType.CONTRADICTS, wrong.id, right.id, "5.0M vs 5.2M")
    support = make.relation(deal_id, RelationType.SUPPORTS, agrees.id, right.id)
    doc_supersedes = make.relation(
        deal_id, RelationType.SUPERSEDES, newer.id, older.id, "_v2", between="document"
    )
    await graph.add_relations([conflict, support, doc_supersedes])

    await graph.set_finding_status(deal_id, wrong.id, FindingStatus.REJECTED)
    assert dumps(await graph.list_relations(deal_id)) == dumps([support, doc_supersedes])
    assert await graph.list_relations(deal_id, ids=[wrong.id]) == []
    assert await graph.list_relations(deal_id, type=RelationType.CONTRADICTS) == []

    await graph.set_finding_status(deal_id, wrong.id, FindingStatus.PENDING)  # undone
    assert dumps(await graph.list_relations(deal_id)) == dumps([conflict, support, doc_supersedes])


async def test_replacing_relations_removes_those_no_longer_planned(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    document = make.document(deal_id)
    f1, f2, f3 = (make.finding(document, subject=s) for s in ("a", "b", "c"))
    await graph.add_findings([f1, f2, f3])
    newer, older = make.document(deal_id, "Q3_v2.pdf"), make.document(deal_id, "Q3.pdf")
    stale = make.relation(deal_id, RelationType.CONTRADICTS, f1.id, f2.id, "5.0M vs 5.2M")
    corrected = make.relation(deal_id, RelationType.SUPERSEDES, f3.id, f1.id, "corrected")
    doc_supersedes = make.relation(
        deal_id, RelationType.SUPERSEDES, newer.id, older.id, "_v2", between="document"
    )
    attached = make.relation(
        deal_id, RelationType.ATTACHED_TO, older.id, newer.id, "came attached", between="document"
    )
    await graph.add_relations([stale, corrected, attached])
    derived = (RelationType.SUPERSEDES, RelationType.CONTRADICTS, RelationType.SUPPORTS)
    supports = make.relation(deal_id, RelationType.SUPPORTS, f3.id, f2.id)

    await graph.replace_relations(deal_id, [corrected, doc_supersedes, supports], types=derived)

    # the conflict is gone; the attachment is of another type, so it stays
    assert {(r.type, r.source_id, r.target_id) for r in await graph.list_relations(deal_id)} == {
        (RelationType.SUPERSEDES, f3.id, f1.id), (RelationType.SUPERSEDES, newer.id, older.id),
        (RelationType.SUPPORTS, f3.id, f2.id), (RelationType.ATTACHED_TO, older.id, newer.id),
    }
    with pytest.raises(ValueError, match="ATTACHED_TO"):
        await graph.replace_relations(deal_id, [attached], types=derived)


async def test_removing_findings_removes_their_relations(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    document = make.document(deal_id)
    gone, kept, other = (make.finding(document, subject=s) for s in ("a", "b", "c"))
    await graph.add_findings([gone, kept, other])
    await graph.add_relations([
        make.relation(deal_id, RelationType.CONTRADICTS, gone.id, kept.id, "5.0M vs 5.2M"),
        make.relation(deal_id, RelationType.SUPPORTS, other.id, kept.id),
    ])

    await graph.remove_findings(deal_id, [gone.id, make.id("f")])
    await graph.remove_findings(deal_id, [])

    assert {f.id for f in await graph.list_findings(deal_id)} == {kept.id, other.id}
    assert await graph.get_finding(deal_id, gone.id) is None
    assert [(r.source_id, r.target_id) for r in await graph.list_relations(deal_id)] == [
        (other.id, kept.id)
    ]


# ---------------------------------------------------------------- decisions and audit


async def test_a_finding_is_decided_once(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    finding = make.finding(make.document(deal_id))
    await graph.add_findings([finding])
    assert await graph.get_decision(deal_id, finding.id) is None

    first = make.decision(finding, ReviewDecisionKind.APPROVE, by="alice")
    await graph.record_decision(first)
    assert (await graph.get_decision(deal_id, finding.id)).model_dump() == first.model_dump()

    with pytest.raises(AlreadyDecidedError) as refused:
        await graph.record_decision(make.decision(finding, ReviewDecisionKind.REJECT, by="bob"))
    assert (refused.value.finding_id, refused.value.status, refused.value.by) == (
        finding.id,
        "approved",
        "alice",
    )
    assert (await graph.get_decision(deal_id, finding.id)).model_dump() == first.model_dump()


async def test_a_decision_is_withdrawn_once_and_only_the_one_named(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    finding = make.finding(make.document(deal_id))
    await graph.add_findings([finding])
    first = make.decision(finding, ReviewDecisionKind.REJECT, by="alice")
    await graph.record_decision(first)
    other_time = first.at + timedelta(seconds=1)

    assert await graph.withdraw_decision(deal_id, finding.id, at=other_time) is None
    withdrawn = await graph.withdraw_decision(deal_id, finding.id, at=first.at)
    assert withdrawn is not None and withdrawn.model_dump() == first.model_dump()
    assert await graph.get_decision(deal_id, finding.id) is None
    assert await graph.withdraw_decision(deal_id, finding.id, at=first.at) is None
    again = make.decision(finding, ReviewDecisionKind.APPROVE, by="bob")  # decided anew
    await graph.record_decision(again)
    assert (await graph.get_decision(deal_id, finding.id)).model_dump() == again.model_dump()


async def test_rejection_is_reported_as_rejected(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    finding = make.finding(make.document(deal_id))
    await graph.add_findings([finding])
    await graph.record_decision(make.decision(finding, ReviewDecisionKind.REJECT, by="carol"))
    with pytest.raises(AlreadyDecidedError) as refused:
        await graph.record_decision(make.decision(finding, ReviewDecisionKind.REJECT, by="carol"))
    assert (refused.value.status, refused.value.by) == ("rejected", "carol")


async def test_audit_log_is_in_time_order_and_append_only(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    early, late = make.moment(), make.moment()
    second = make.audit(deal_id, "finding.rejected", at=late)
    first = make.audit(deal_id, "finding.approved", at=early)
    await graph.append_audit(second)
    await graph.append_audit(first)
    await graph.append_audit(first.model_copy(update={"detail": "a retry must not overwrite"}))

    log = await graph.list_audit(deal_id)
    assert [e.model_dump() for e in log] == [first.model_dump(), second.model_dump()]


# ---------------------------------------------------------------- Q&A list and bindings


async def test_qa_item_is_added_once(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    item = make.qa(deal_id, "Why did Q3 churn rise?")
    assert await graph.add_qa_item(item) is True
    again = item.model_copy(update={"category": "Financial", "created_by": "bob"})
    assert await graph.add_qa_item(again) is False
    other = make.qa(deal_id, "Who are the top 5 customers?", finding_id=make.id("f"))
    assert await graph.add_qa_item(other) is True

    assert dumps(await graph.list_qa_items(deal_id)) == dumps([item, other])


async def test_qa_item_is_replaced_and_removed(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    item = make.qa(deal_id, "Why did Q3 churn rise?")
    assert await graph.replace_qa_item(item) is False  # nothing to replace yet
    await graph.add_qa_item(item)
    answered = item.model_copy(update={"status": "answered", "answer": "Two lost customers"})
    assert await graph.replace_qa_item(answered) is True
    assert dumps(await graph.list_qa_items(deal_id)) == dumps([answered])
    assert await graph.remove_qa_item(deal_id, item.id) is True
    assert await graph.remove_qa_item(deal_id, item.id) is False
    assert await graph.list_qa_items(deal_id) == []


async def test_channel_bindings(graph: KnowledgeGraph, make: ModelFactory, deal_id: str) -> None:
    channel, other_channel = make.id("slack:T1:C"), make.id("slack:T1:C")
    assert await graph.channel_deal(channel) is None

    await graph.bind_channel(channel, make.id("deal"))
    await graph.bind_channel(channel, deal_id)  # rebinding moves the channel
    await graph.bind_channel(other_channel, deal_id)

    assert await graph.channel_deal(channel) == deal_id
    bindings = await graph.list_bindings()
    assert bindings[channel] == deal_id and bindings[other_channel] == deal_id

    await graph.unbind_channel(channel)
    await graph.unbind_channel(channel)  # unbinding twice changes nothing
    assert await graph.channel_deal(channel) is None
    bindings = await graph.list_bindings()
    assert channel not in bindings and bindings[other_channel] == deal_id


# ---------------------------------------------------------------- the review grid


def _cell(deal: str, document: str, wording: str, reader: str = "offline-2",
          shown: str = "Yes") -> GridCell:
    return GridCell(deal_id=deal, document_id=document, column=wording, wording=wording,
                    reader=reader, status=CellStatus.STATED, value={"months": 36.0},
                    shown=shown, quote="for an initial term of 36 months",
                    location=Location.for_page(2), clause="2.1")


async def test_grid_cells_are_kept_per_document_wording_and_reader(
    graph: KnowledgeGraph, deal_id: str, other_deal_id: str
) -> None:
    await graph.put_grid_cells([_cell(deal_id, "d1", "term"), _cell(deal_id, "d2", "term"),
                                _cell(deal_id, "d1", "renewal"),
                                _cell(deal_id, "d1", "term", reader="claude:x"),
                                _cell(other_deal_id, "d1", "term")])
    await graph.put_grid_cells([_cell(deal_id, "d1", "term", shown="36 months")])  # replaces

    found = await graph.grid_cells(deal_id, ["d1", "d2"], ["term"], "offline-2")
    assert sorted((c.document_id, c.shown) for c in found) == [("d1", "36 months"),
                                                               ("d2", "Yes")]
    assert found[0].model_dump() in [_cell(deal_id, "d1", "term", shown="36 months").model_dump()
                                     | {"computed_at": c.computed_at} for c in found]
    assert await graph.grid_cells(deal_id, ["d3"], ["term"], "offline-2") == []
    assert [c.reader for c in await graph.grid_cells(deal_id, ["d1"], ["term"], "claude:x")] == [
        "claude:x"]


async def test_grid_runs_round_trip_newest_first(
    graph: KnowledgeGraph, deal_id: str, other_deal_id: str
) -> None:
    columns = [GridColumn(key="term", name="Term", type="term", standard=True)]
    first = GridRun(id="grid-1", deal_id=deal_id, selection=GridSelection(kind="lease"),
                    columns=columns, document_ids=["d1"], reader="offline-2")
    second = first.model_copy(update={"id": "grid-2",
                                      "created_at": first.created_at + timedelta(seconds=1)})
    for run in (first, second, first.model_copy(update={"deal_id": other_deal_id})):
        await graph.put_grid_run(run)
    done = first.model_copy(update={"status": GridRunStatus.COMPLETED, "usage": {"input": 5}})
    await graph.put_grid_run(done)

    assert dumps([await graph.get_grid_run(deal_id, "grid-1")]) == dumps([done])
    assert await graph.get_grid_run(deal_id, "grid-9") is None
    assert [r.id for r in await graph.list_grid_runs(deal_id)] == ["grid-2", "grid-1"]
    assert [r.id for r in await graph.list_grid_runs(deal_id, limit=1)] == ["grid-2"]


# ---------------------------------------------------------------- deal isolation


@dataclass
class _Seeded:
    document: Document
    chunks: list[Chunk]
    finding: Finding


async def _seed_deal(graph: KnowledgeGraph, make: ModelFactory, deal: str) -> _Seeded:
    """A deal with one of everything; the same file (same bytes) is used in every deal."""
    await graph.upsert_deal(make.deal(deal))
    document = make.document(deal, "Q3_Report.pdf", content_hash="same-bytes-in-every-deal")
    await graph.upsert_document(document)
    chunks = make.chunks(document, PASSAGES)
    await graph.add_chunks(deal, chunks)
    await graph.add_vectors(deal, "emb-a", [c.id for c in chunks[:3]], make.vectors(E1, E2, E3))
    finding = make.finding(document, chunk=chunks[1])
    other = make.finding(document, chunk=chunks[2], subject="ebitda")
    await graph.add_findings([finding, other])
    await graph.add_relations([make.relation(deal, RelationType.CONTRADICTS, finding.id, other.id)])
    await graph.record_decision(make.decision(finding))
    await graph.append_audit(make.audit(deal))
    await graph.add_qa_item(make.qa(deal, "Why did Q3 churn rise?"))
    return _Seeded(document=document, chunks=chunks, finding=finding)


async def test_nothing_from_another_deal_is_ever_returned(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str, other_deal_id: str
) -> None:
    """Two deals with the same content: every read for one deal returns only that deal's rows."""
    seeded = {deal: await _seed_deal(graph, make, deal) for deal in (deal_id, other_deal_id)}

    for mine, theirs in ((deal_id, other_deal_id), (other_deal_id, deal_id)):
        own, foreign = seeded[mine], seeded[theirs]
        own_chunks = {c.id for c in own.chunks}
        foreign_chunks = sorted(c.id for c in foreign.chunks)

        assert [d.id for d in await graph.list_documents(mine)] == [own.document.id]
        assert await graph.get_document(mine, foreign.document.id) is None
        same_bytes = await graph.find_document_by_hash(mine, "same-bytes-in-every-deal")
        assert same_bytes is not None and same_bytes.id == own.document.id
        assert await graph.list_chunks(mine, foreign.document.id) == []
        assert await graph.get_chunks(mine, foreign_chunks) == []
        assert await graph.embedded_chunk_ids(mine, "emb-a") == {c.id for c in own.chunks[:3]}

        hits = await graph.fulltext_search(mine, "Q3 2024 revenue churn customer", 20)
        assert hits and {h.id for h in hits} <= own_chunks
        vector_hits = await graph.vector_search(mine, "emb-a", make.unit(*E1), 20)
        assert vector_hits and {h.id for h in vector_hits} <= own_chunks

        assert {f.deal_id for f in await graph.list_findings(mine)} == {mine}
        assert await graph.get_finding(mine, foreign.finding.id) is None
        assert await graph.findings_for_chunks(mine, foreign_chunks) == []
        with pytest.raises(FindingNotFoundError):
            await graph.set_finding_status(mine, foreign.finding.id, FindingStatus.REJECTED)
        relations = await graph.list_relations(mine)
        assert len(relations) == 1 and relations[0].deal_id == mine
        assert await graph.list_relations(mine, ids=[foreign.finding.id]) == []
        assert await graph.get_decision(mine, foreign.finding.id) is None
        assert {e.deal_id for e in await graph.list_audit(mine)} == {mine}
        assert [q.deal_id for q in await graph.list_qa_items(mine)] == [mine]

    # the refused cross-deal status change left the other deal's finding as it was
    untouched = await graph.get_finding(other_deal_id, seeded[other_deal_id].finding.id)
    assert untouched is not None and untouched.status is FindingStatus.PENDING


async def half_and_done(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> tuple[Document, Document, Chunk, Chunk]:
    """A document left `running` by a crash and a completed one, a chunk each."""
    await graph.upsert_deal(Deal(id=deal_id, name=deal_id))
    half = make.document(deal_id, "Half.pdf", status=DocumentStatus.RUNNING)
    done = make.document(deal_id, "Done.pdf")
    for document in (half, done):
        await graph.upsert_document(document)
    [half_chunk] = make.chunks(half, ["zorblax revenue was 999"])
    [done_chunk] = make.chunks(done, ["zorblax revenue was 5"])
    await graph.add_chunks(deal_id, [half_chunk, done_chunk])
    return half, done, half_chunk, done_chunk


async def test_a_document_is_searched_only_once_its_ingestion_completed(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    """A crash mid-ingestion leaves chunks of a `running` document: never an answer's source."""
    half, _, half_chunk, done_chunk = await half_and_done(graph, make, deal_id)
    await graph.add_vectors(deal_id, "emb-a", [half_chunk.id, done_chunk.id], make.vectors(E1, E12))

    async def found() -> tuple[set[str], set[str]]:
        text = {h.id for h in await graph.fulltext_search(deal_id, "zorblax revenue", 5)}
        vector = {h.id for h in await graph.vector_search(deal_id, "emb-a", make.unit(*E1), 5)}
        return text, vector

    assert await found() == ({done_chunk.id}, {done_chunk.id})
    await graph.set_document_status(deal_id, half.id, DocumentStatus.FAILED, "interrupted")
    assert await found() == ({done_chunk.id}, {done_chunk.id})
    await graph.set_document_status(deal_id, half.id, DocumentStatus.COMPLETED)
    both = {half_chunk.id, done_chunk.id}
    assert await found() == (both, both)


async def test_findings_of_an_unfinished_document_are_never_read(
    graph: KnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    """Issue 26, item 15: a crash after a document's findings were stored, before it was
    `completed`, left them cited and queued for review, even once marked failed."""
    half, done, half_chunk, done_chunk = await half_and_done(graph, make, deal_id)
    stray = make.finding(half, chunk=half_chunk, subject="zorblax")
    kept = make.finding(done, chunk=done_chunk, subject="revenue")
    await graph.add_findings([stray, kept])
    conflict = make.relation(deal_id, RelationType.CONTRADICTS, stray.id, kept.id, "999 vs 5")
    await graph.add_relations([conflict])

    async def read() -> tuple[object, ...]:
        return (
            {f.id for f in await graph.list_findings(deal_id)},
            {f.id for f in await graph.list_findings(deal_id, status=FindingStatus.PENDING)},
            await graph.get_finding(deal_id, stray.id) is not None,
            await graph.finding_subjects(deal_id),
            {f.id for f in await graph.findings_for_chunks(deal_id, [half_chunk.id,
                                                                     done_chunk.id])},
            len(await graph.list_relations(deal_id)),
        )

    hidden = ({kept.id}, {kept.id}, False, ["revenue"], {kept.id}, 0)
    assert await read() == hidden
    await graph.set_document_status(deal_id, half.id, DocumentStatus.FAILED, "interrupted")
    assert await read() == hidden
    # ingestion, reading the document again, still sees its earlier findings
    assert {f.id for f in await graph.list_findings(deal_id, document_id=half.id,
                                                    unfinished=True)} == {stray.id}
    await graph.set_document_status(deal_id, half.id, DocumentStatus.COMPLETED)
    assert await read() == ({stray.id, kept.id}, {stray.id, kept.id}, True,
                            ["revenue", "zorblax"], {stray.id, kept.id}, 1)
