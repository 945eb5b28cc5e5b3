"""The Neo4j adapter without a server: the Cypher it sends, the models it reads back, its errors.

A recording `QueryExecutor` stands in for the database (the adapter's own seam): it checks that
every `$parameter` of a statement is supplied and nothing else, records each call, and answers
with rows the test queued. `ping()` and `start()` are also run with the real driver against
127.0.0.1 ports where no Neo4j listens.
"""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

import numpy as np
import pytest
from neo4j import AsyncGraphDatabase
from neo4j.time import Date, DateTime

from manda.errors import (
    AlreadyDecidedError,
    BackendUnavailableError,
    FindingNotFoundError,
    MandaError,
)
from manda.kg.neo4j import Neo4jKnowledgeGraph, cypher, schema
from manda.kg.neo4j.executor import DriverExecutor
from manda.kg.neo4j.fulltext import lucene_query
from manda.kg.neo4j.records import from_props, to_props
from manda.kg.port import KnowledgeGraph, ScoredId
from manda.kg.word_families import SIBLING_BOOST
from manda.models import (
    Chunk,
    Confidence,
    Deal,
    Document,
    Finding,
    FindingKind,
    FindingStatus,
    Location,
    QAItem,
    Relation,
    RelationType,
    ReviewDecision,
)

PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
STATEMENTS = {
    value for name, value in vars(cypher).items() if name.isupper() and isinstance(value, str)
}
# Reads that are not about one deal.
GLOBAL_READS = {cypher.LIST_DEALS, cypher.CHANNEL_DEAL, cypher.LIST_BINDINGS, cypher.SHOW_INDEX}
DEAL = "deal-falcon"
AT = datetime(2024, 10, 1, 9, 30, tzinfo=UTC)


@dataclass
class Call:
    query: str
    params: dict[str, Any]
    write: bool


class RecordingExecutor:
    """A `QueryExecutor` that records statements and answers with queued rows."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self._replies: dict[str, list[list[dict[str, Any]]]] = {}

    def reply(self, query: str, *results: list[dict[str, Any]]) -> None:
        self._replies.setdefault(query, []).extend(results)

    async def run(
        self, query: str, params: Mapping[str, Any], *, write: bool
    ) -> list[dict[str, Any]]:
        used = set(PARAMETER.findall(query))
        assert used == set(params), f"parameters {sorted(params)} for a statement using {used}"
        self.calls.append(Call(query, dict(params), write))
        queued = self._replies.get(query)
        return queued.pop(0) if queued else []

    def sent(self, query: str) -> list[Call]:
        return [call for call in self.calls if call.query == query]


@pytest.fixture
def executor() -> RecordingExecutor:
    return RecordingExecutor()


@pytest.fixture
async def store(executor: RecordingExecutor) -> AsyncIterator[Neo4jKnowledgeGraph]:
    """A started store on the recording executor (named apart from the contract's `graph`)."""
    started = Neo4jKnowledgeGraph(uri="bolt://unused.invalid:7687", executor=executor)
    await started.start()
    executor.calls.clear()  # the schema statements are checked in their own test
    yield started
    await started.aclose()


def document(**fields: Any) -> Document:
    values: dict[str, Any] = {
        "id": "d_1",
        "deal_id": DEAL,
        "filename": "Q3_Report.pdf",
        "content_hash": "abc",
        "file_type": "pdf",
        "size_bytes": 1234,
        "doc_date": date(2024, 10, 15),
        "version_family": "q3_report",
        "ingested_at": AT,
    }
    return Document.model_validate(values | fields)


def chunk(ordinal: int = 0, text: str = "Q3 2024 revenue was €5.2M.") -> Chunk:
    return Chunk(
        id=Chunk.make_id("d_1", ordinal),
        deal_id=DEAL,
        document_id="d_1",
        ordinal=ordinal,
        text=text,
        location=Location.for_page(ordinal + 1),
        heading_path=("Annual report", "Litigation"),
    )


def finding(**fields: Any) -> Finding:
    values: dict[str, Any] = {
        "id": "f_1",
        "deal_id": DEAL,
        "document_id": "d_1",
        "chunk_id": chunk().id,
        "kind": FindingKind.METRIC,
        "subject": "revenue",
        "label": "Revenue",
        "period": "Q3 2024",
        "value": 5_200_000.0,
        "unit": "EUR",
        "value_text": "€5.2M",
        "attributes": {"basis": "reported", "note": 'quoted "text"'},
        "doc_date": date(2024, 10, 15),
        "excerpt": "Q3 2024 revenue was €5.2M",
        "location": Location.for_cell("P&L", "B7"),
        "heading_path": ("Annual report", "Litigation"),
        "confidence": 0.92,
        "confidence_level": Confidence.HIGH,
        "created_at": AT,
    }
    return Finding.model_validate(values | fields)


def as_driver_returns(props: dict[str, Any]) -> dict[str, Any]:
    """What `properties(n)` looks like through the driver: temporal values as `neo4j.time`."""
    converted: dict[str, Any] = {}
    for key, value in props.items():
        if value is None:
            continue  # `SET n += {k: null}` stores nothing
        if isinstance(value, datetime):
            converted[key] = DateTime.from_native(value)
        elif isinstance(value, date):
            converted[key] = Date.from_native(value)
        else:
            converted[key] = value
    return converted


# ---------------------------------------------------------------- lifecycle and schema


def test_is_a_knowledge_graph_with_native_indexes() -> None:
    store = Neo4jKnowledgeGraph(uri="bolt://127.0.0.1:7687", user="neo4j", password="secret")
    assert isinstance(store, KnowledgeGraph)
    assert store.capabilities.name == "neo4j"
    assert store.capabilities.vector_index and store.capabilities.fulltext_bm25
    assert store.capabilities.shared_across_processes


async def test_start_creates_every_constraint_and_index_then_waits_for_them(
    executor: RecordingExecutor,
) -> None:
    store = Neo4jKnowledgeGraph(uri="bolt://unused.invalid:7687", executor=executor)
    await store.start()
    sent = [call.query for call in executor.calls]
    assert sent == [*schema.SCHEMA_STATEMENTS, cypher.AWAIT_INDEXES]
    assert all(call.write for call in executor.calls)
    assert all("IF NOT EXISTS" in query for query in schema.SCHEMA_STATEMENTS)
    assert any(f"FULLTEXT INDEX {schema.FULLTEXT_INDEX} " in q for q in schema.SCHEMA_STATEMENTS)
    await store.aclose()


async def test_an_unstarted_store_says_so() -> None:
    store = Neo4jKnowledgeGraph(uri="bolt://unused.invalid:7687", executor=RecordingExecutor())
    with pytest.raises(RuntimeError, match="start"):
        await store.list_documents(DEAL)


# ---------------------------------------------------------------- what is sent


async def test_every_read_is_scoped_to_the_deal_and_sends_only_known_statements(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    executor.reply(
        cypher.SHOW_INDEX,
        [
            {
                "name": "x",
                "type": "VECTOR",
                "state": "ONLINE",
                "options": {"indexConfig": {"vector.dimensions": 3}},
            }
        ],
    )
    await store.get_document(DEAL, "d_1")
    await store.find_document_by_hash(DEAL, "abc")
    await store.list_documents(DEAL)
    await store.get_chunks(DEAL, ["c1", "c2", "c1"])
    await store.list_chunks(DEAL, "d_1")
    await store.embedded_chunk_ids(DEAL, "minilm-l6-v2-int8")
    await store.vector_search(DEAL, "minilm-l6-v2-int8", np.ones(3, dtype=np.float32), 5)
    await store.fulltext_search(DEAL, "What was Q3 revenue?", 5)
    await store.get_finding(DEAL, "f_1")
    await store.list_findings(DEAL, status=FindingStatus.PENDING, subject="revenue")
    await store.findings_for_chunks(DEAL, ["c1"])
    await store.list_relations(DEAL, type=RelationType.CONTRADICTS, ids=["f_1"])
    await store.get_decision(DEAL, "f_1")
    await store.list_audit(DEAL)
    await store.list_qa_items(DEAL)
    await store.get_deal(DEAL)

    reads = [call for call in executor.calls if call.query not in GLOBAL_READS]
    assert len(reads) >= 16
    assert all(not call.write for call in executor.calls)
    assert all(call.params["deal_id"] == DEAL for call in reads)
    assert all(call.query in STATEMENTS for call in executor.calls)
    assert executor.sent(cypher.GET_CHUNKS)[0].params["chunk_ids"] == ["c1", "c2"]
    listed = executor.sent(cypher.LIST_FINDINGS)[0].params
    assert (listed["status"], listed["subject"], listed["document_id"]) == (
        "pending",
        "revenue",
        None,
    )


async def test_values_never_reach_the_statement_text(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    hostile = "x'}) DETACH DELETE (n) //"
    await store.upsert_deal(Deal(id=hostile, name=hostile, created_at=AT))
    await store.upsert_document(document(deal_id=hostile, filename=hostile))
    await store.add_findings([finding(deal_id=hostile, subject=hostile)])
    await store.bind_channel(f"slack:T:{hostile}", hostile)
    await store.fulltext_search(hostile, hostile, 3)
    await store.list_findings(hostile, subject=hostile)

    assert executor.calls
    for call in executor.calls:
        assert call.query in STATEMENTS
        assert "DETACH" not in call.query
    assert executor.sent(cypher.UPSERT_DEAL)[0].params["props"]["name"] == hostile
    assert executor.sent(cypher.FULLTEXT_SEARCH)[0].params["query"] == (
        "x OR detach OR delete OR n"
    )


async def test_writes_send_neo4j_storable_properties(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    await store.upsert_document(document())
    await store.add_chunks(DEAL, [chunk(0), chunk(1)])
    await store.add_findings([finding()])

    doc_call = executor.sent(cypher.UPSERT_DOCUMENT)[0]
    assert doc_call.write and doc_call.params["deal_id"] == DEAL
    assert doc_call.params["props"]["status"] == "pending"
    rows = executor.sent(cypher.ADD_CHUNKS)[0].params["rows"]
    assert [row["id"] for row in rows] == [chunk(0).id, chunk(1).id]
    assert rows[0]["props"]["location"] == '{"kind": "page", "label": "p.1", "page": 1}'
    finding_row = executor.sent(cypher.ADD_FINDINGS)[0].params["rows"][0]
    assert (finding_row["deal_id"], finding_row["chunk_id"]) == (DEAL, chunk().id)
    storable = (str, int, float, bool, datetime, date, type(None))
    for props in (doc_call.params["props"], rows[0]["props"], finding_row["props"]):
        assert all(isinstance(value, storable) or (  # or a homogeneous list of strings
            isinstance(value, list) and all(isinstance(v, str) for v in value))
            for value in props.values()), props
    assert rows[0]["props"]["heading_path"] == ["Annual report", "Litigation"]
    assert finding_row["props"]["heading_path"] == ["Annual report", "Litigation"]


async def test_heading_paths_are_set_on_chunks_and_their_findings(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    await store.set_heading_paths(DEAL, {chunk(0).id: ("Legal", "Litigation"), chunk(1).id: ()})

    [call] = executor.sent(cypher.SET_HEADING_PATHS)
    assert call.write and call.params["deal_id"] == DEAL
    assert call.params["rows"] == [
        {"chunk_id": chunk(0).id, "heading_path": ["Legal", "Litigation"]},
        {"chunk_id": chunk(1).id, "heading_path": []},
    ]


async def test_chunks_of_another_deal_are_refused(store: Neo4jKnowledgeGraph) -> None:
    stray = chunk().model_copy(update={"deal_id": "deal-other"})
    with pytest.raises(ValueError, match="deal-other"):
        await store.add_chunks(DEAL, [stray])


# ---------------------------------------------------------------- vectors


async def test_first_vectors_of_an_embedder_create_its_index(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    executor.reply(
        cypher.ADD_VECTORS, [{"chunk_id": "c1"}, {"chunk_id": "c2"}], [{"chunk_id": "c3"}]
    )
    space = cypher.vector_space("voyage-3.5-1024")
    vectors = np.arange(6, dtype=np.float32).reshape(2, 3)

    await store.add_vectors(DEAL, "voyage-3.5-1024", ["c1", "c2"], vectors)
    await store.add_vectors(DEAL, "voyage-3.5-1024", ["c3"], vectors[:1])

    sent = [call.query for call in executor.calls]
    create = cypher.vector_index_statement(space, 3)
    assert sent == [
        cypher.SHOW_INDEX,
        create,
        cypher.AWAIT_INDEX,
        cypher.ADD_VECTORS,
        cypher.ADD_VECTORS,  # the index is known now: nothing but the write
    ]
    assert executor.calls[0].params == {"name": space.index_name}
    write = executor.sent(cypher.ADD_VECTORS)[0].params
    assert write["property"] == space.property_key
    assert write["embedder_id"] == "voyage-3.5-1024"
    assert write["rows"] == [
        {"chunk_id": "c1", "vector": [0.0, 1.0, 2.0]},
        {"chunk_id": "c2", "vector": [3.0, 4.0, 5.0]},
    ]


async def test_vectors_of_the_wrong_size_are_refused_before_anything_is_written(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    executor.reply(
        cypher.SHOW_INDEX,
        [
            {
                "name": "x",
                "type": "VECTOR",
                "state": "ONLINE",
                "options": {"indexConfig": {"vector.dimensions": 384}},
            }
        ],
    )
    with pytest.raises(ValueError, match="384"):
        await store.add_vectors(DEAL, "minilm-l6-v2-int8", ["c1"], np.ones((1, 5)))
    with pytest.raises(ValueError, match="one row per chunk"):
        await store.add_vectors(DEAL, "minilm-l6-v2-int8", ["c1"], np.ones((2, 384)))
    with pytest.raises(ValueError, match="NaN"):
        await store.add_vectors(DEAL, "minilm-l6-v2-int8", ["c1"], np.full((1, 384), np.nan))
    assert not [call for call in executor.calls if call.write]


async def test_vectors_for_missing_chunks_are_reported(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    executor.reply(cypher.ADD_VECTORS, [{"chunk_id": "c1"}])
    with pytest.raises(MandaError, match="c2"):
        await store.add_vectors(DEAL, "emb", ["c1", "c2"], np.ones((2, 2)))


async def test_vector_search_oversamples_until_the_deal_has_k_hits(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    executor.reply(
        cypher.SHOW_INDEX,
        [
            {
                "name": "x",
                "type": "VECTOR",
                "state": "ONLINE",
                "options": {"indexConfig": {"vector.dimensions": 2}},
            }
        ],
    )
    # 1st round: the index's 100 nearest hold one chunk of the deal; the deal has 3 vectors.
    executor.reply(
        cypher.VECTOR_SEARCH,
        [{"returned": 100, "matches": [{"id": "c1", "score": 1.0}]}],
        [
            {
                "returned": 400,
                "matches": [
                    {"id": "c1", "score": 1.0},
                    {"id": "c2", "score": 0.75},
                    {"id": "c3", "score": 0.5},
                ],
            }
        ],
    )
    executor.reply(cypher.COUNT_VECTORS, [{"available": 3}])

    hits = await store.vector_search(DEAL, "emb", np.array([1.0, 0.0]), 5)

    # Neo4j scores cosine as (1 + cos) / 2; the port speaks cosine.
    assert hits == [ScoredId("c1", 1.0), ScoredId("c2", 0.5), ScoredId("c3", 0.0)]
    rounds = executor.sent(cypher.VECTOR_SEARCH)
    assert [call.params["candidates"] for call in rounds] == [100, 400]
    assert all(call.params["deal_id"] == DEAL and call.params["k"] == 5 for call in rounds)
    assert rounds[0].params["index"] == cypher.vector_space("emb").index_name


async def test_vector_search_of_an_unknown_embedder_finds_nothing(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    assert await store.vector_search(DEAL, "never-used", np.ones(3), 5) == []
    assert [call.query for call in executor.calls] == [cypher.SHOW_INDEX]


def test_embedder_ids_map_to_safe_distinct_names() -> None:
    names = {
        cypher.vector_space(e) for e in ("voyage-3.5-1024", "voyage_3_5_1024", "VOYAGE-3.5-1024")
    }
    assert len({space.index_name for space in names}) == 3
    assert len({space.property_key for space in names}) == 3
    for space in names:
        assert cypher.IDENTIFIER.fullmatch(space.index_name)
        assert cypher.IDENTIFIER.fullmatch(space.property_key)
    with pytest.raises(ValueError, match="printable"):
        cypher.vector_space("bad id with spaces")


def test_the_index_composer_refuses_anything_but_identifiers_and_ints() -> None:
    space = cypher.vector_space("minilm-l6-v2-int8")
    statement = cypher.vector_index_statement(space, 384)
    assert f"`{space.index_name}`" in statement and "`vector.dimensions`: 384" in statement
    for dimensions in (0, 4097, True, 384.0, "384"):
        with pytest.raises(ValueError, match="dimensions"):
            cypher.vector_index_statement(space, dimensions)  # type: ignore[arg-type]
    evil = cypher.VectorSpace("x", "idx`) DETACH DELETE (n", space.property_key)
    with pytest.raises(ValueError, match="identifier"):
        cypher.vector_index_statement(evil, 384)


# ---------------------------------------------------------------- full text


async def test_fulltext_sends_an_escaped_lucene_query(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    executor.reply(cypher.FULLTEXT_SEARCH, [{"id": "c1", "score": 2.5}, {"id": "c2", "score": 1.0}])
    hits = await store.fulltext_search(DEAL, 'revenue -ebitda "Q3" text:margin', 2)
    assert hits == [ScoredId("c1", 2.5), ScoredId("c2", 1.0)]
    call = executor.sent(cypher.FULLTEXT_SEARCH)[0]
    assert call.params == {
        "index": schema.FULLTEXT_INDEX,
        "query": "revenue OR ebitda OR q3 OR text OR margin",
        "deal_id": DEAL,
        "k": 2,
    }
    assert await store.fulltext_search(DEAL, ' ?! * "" ', 5) == []
    assert len(executor.calls) == 1


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What was Q3 2024 revenue?", "what OR was OR q3 OR 2024 OR revenue"),
        ('revenue AND NOT "ebitda', "revenue OR and OR not OR ebitda"),
        ("rev* OR ^Q3 && x || !y", "rev OR or OR q3 OR x OR y"),
        ("NEAR(revenue~2)[a TO b]{c}", "near OR revenue OR 2 OR a OR to OR b OR c"),
        ("€5.2M for O'Neil / path\\x", "5.2m OR for OR o'neil OR path OR x"),
        ("", None),
        ("?! * ~ :", None),
    ],
)
def test_lucene_query_keeps_words_and_drops_syntax(question: str, expected: str | None) -> None:
    assert lucene_query(question) == expected


def test_lucene_query_finds_a_words_other_forms_as_the_embedded_store_does() -> None:
    """"acquire" also searches "acquisition"'s stem, weighed less (`manda.kg.word_families`,
    the vocabulary's stem families), so the Neo4j adapter ranks a passage about acquisitions
    for "which companies did it acquire?" as the embedded store's keyword query does."""
    query = lucene_query("Which companies did it acquire?")
    assert query is not None
    assert f"acquisit^{SIBLING_BOOST}" in query.split(" OR ")
    assert "acquire" in query.split(" OR ")
    # a verb's word forms (`word_forms:`) too: "buy" finds "acquired" and "bought"
    bought = lucene_query("What did it buy?")
    assert bought is not None and f"acquir^{SIBLING_BOOST}" in bought.split(" OR ")
    assert lucene_query("What was Q3 2024 revenue?") == "what OR was OR q3 OR 2024 OR revenue"


# ---------------------------------------------------------------- findings, relations, review


async def test_findings_read_back_exactly(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    original = finding(status=FindingStatus.APPROVED, nature="forecast")
    executor.reply(cypher.GET_FINDING, [{"props": as_driver_returns(to_props(original))}])
    assert await store.get_finding(DEAL, original.id) == original


def test_records_round_trip_every_model() -> None:
    models = [
        Deal(id=DEAL, name="Project Falcon", created_at=AT),
        document(error="is encrypted", status="failed"),
        document(path="3 Mail/Offer.eml", room_index="3", metadata={"from": "Ann <a@x.example>"}),
        chunk(),
        finding(chunk_id=None, period=None, value=None),
        ReviewDecision(finding_id="f_1", deal_id=DEAL, decision="reject", by="bob", at=AT),
        QAItem(id="q_1", deal_id=DEAL, question="Why?", category="Legal", created_by="ann"),
    ]
    for model in models:
        stored = as_driver_returns(to_props(model)) | {"just_created": True}  # a stray marker
        assert from_props(type(model), stored) == model


async def test_missing_findings_and_documents_are_reported(store: Neo4jKnowledgeGraph) -> None:
    with pytest.raises(FindingNotFoundError):
        await store.set_finding_status(DEAL, "f_missing", FindingStatus.APPROVED)
    with pytest.raises(MandaError, match="no document 'd_missing'"):
        await store.set_document_status(DEAL, "d_missing", "completed")


async def test_relations_use_one_statement_per_type(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    relations = [
        Relation(deal_id=DEAL, type="SUPERSEDES", source_id="f2", target_id="f1", reason="v2"),
        Relation(deal_id=DEAL, type="CONTRADICTS", source_id="f3", target_id="f4"),
        Relation(
            deal_id=DEAL, type="SUPERSEDES", source_id="d2", target_id="d1", between="document"
        ),
        Relation(deal_id=DEAL, type="SUPERSEDES", source_id="f5", target_id="f4"),
        Relation(
            deal_id=DEAL, type="ATTACHED_TO", source_id="d3", target_id="d4", between="document"
        ),
    ]
    await store.add_relations(relations)
    sent = {call.query: call.params for call in executor.calls}
    assert set(sent) == {
        cypher.ADD_FINDING_SUPERSEDES,
        cypher.ADD_FINDING_CONTRADICTS,
        cypher.ADD_DOCUMENT_SUPERSEDES,
        cypher.ADD_DOCUMENT_ATTACHED_TO,
    }
    assert sent[cypher.ADD_DOCUMENT_ATTACHED_TO]["rows"] == [
        {"source_id": "d3", "target_id": "d4", "reason": ""}
    ]
    assert sent[cypher.ADD_FINDING_SUPERSEDES]["rows"] == [
        {"source_id": "f2", "target_id": "f1", "reason": "v2"},
        {"source_id": "f5", "target_id": "f4", "reason": ""},
    ]
    executor.calls.clear()
    bad = Relation(
        deal_id=DEAL, type="CONTRADICTS", source_id="d1", target_id="d2", between="document"
    )
    with pytest.raises(ValueError, match="SUPERSEDES"):
        await store.add_relations([relations[0], bad])
    assert executor.calls == []


async def test_replacing_relations_deletes_only_the_unplanned_ones_of_those_types(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    kept = Relation(deal_id=DEAL, type="SUPERSEDES", source_id="f2", target_id="f1")
    types = [RelationType.SUPERSEDES, RelationType.CONTRADICTS, RelationType.SUPPORTS]
    await store.replace_relations(DEAL, [kept], types=types)
    assert [call.query for call in executor.calls] == [
        cypher.REMOVE_RELATIONS_EXCEPT, cypher.ADD_FINDING_SUPERSEDES]
    assert executor.calls[0].params == {
        "deal_id": DEAL, "types": ["SUPERSEDES", "CONTRADICTS", "SUPPORTS"],
        "keep": ["SUPERSEDES|f2|f1"]}
    executor.calls.clear()
    other_deal = Relation(deal_id="deal-other", type="SUPPORTS", source_id="f3", target_id="f4")
    with pytest.raises(ValueError, match="deal-other"):
        await store.replace_relations(DEAL, [other_deal], types=types)
    assert executor.calls == []


async def test_removing_findings_detaches_them(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    await store.remove_findings(DEAL, ["f_1", "f_2", "f_1"])
    assert [(c.query, c.params) for c in executor.calls] == [
        (cypher.REMOVE_FINDINGS, {"deal_id": DEAL, "ids": ["f_1", "f_2"]})]


async def test_relations_read_back(store: Neo4jKnowledgeGraph, executor: RecordingExecutor) -> None:
    executor.reply(
        cypher.LIST_RELATIONS,
        [
            {
                "type": "SUPERSEDES",
                "source_id": "d2",
                "target_id": "d1",
                "between": "document",
                "reason": "v2",
            },
        ],
    )
    assert await store.list_relations(DEAL, ids=[]) == [
        Relation(
            deal_id=DEAL,
            type="SUPERSEDES",
            source_id="d2",
            target_id="d1",
            between="document",
            reason="v2",
        ),
    ]
    assert executor.calls[0].params == {"deal_id": DEAL, "type": None, "ids": []}


async def test_a_second_decision_is_refused_with_the_first_one(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    first = ReviewDecision(finding_id="f_1", deal_id=DEAL, decision="approve", by="alice", at=AT)
    second = ReviewDecision(finding_id="f_1", deal_id=DEAL, decision="reject", by="bob")
    stored = as_driver_returns(to_props(first))
    executor.reply(
        cypher.RECORD_DECISION,
        [{"created": True, "props": stored}],
        [{"created": False, "props": stored}],
    )
    await store.record_decision(first)
    with pytest.raises(AlreadyDecidedError) as refused:
        await store.record_decision(second)
    assert (refused.value.finding_id, refused.value.status, refused.value.by) == (
        "f_1",
        "approved",
        "alice",
    )
    calls = executor.sent(cypher.RECORD_DECISION)
    assert [call.params["props"]["decision"] for call in calls] == ["approve", "reject"]
    assert all(call.write and call.params["finding_id"] == "f_1" for call in calls)


async def test_a_qa_item_reports_whether_it_was_new(
    store: Neo4jKnowledgeGraph, executor: RecordingExecutor
) -> None:
    item = QAItem(id="q_1", deal_id=DEAL, question="Why?", category="Legal", created_by="ann")
    executor.reply(cypher.ADD_QA_ITEM, [{"created": True}], [{"created": False}])
    assert await store.add_qa_item(item) is True
    assert await store.add_qa_item(item) is False
    assert executor.sent(cypher.ADD_QA_ITEM)[0].params["item_id"] == "q_1"


async def test_channel_bindings(store: Neo4jKnowledgeGraph, executor: RecordingExecutor) -> None:
    executor.reply(cypher.CHANNEL_DEAL, [{"deal_id": DEAL}])
    executor.reply(cypher.LIST_BINDINGS, [{"channel_key": "slack:T:C", "deal_id": DEAL}])
    await store.bind_channel("slack:T:C", DEAL)
    assert await store.channel_deal("slack:T:C") == DEAL
    assert await store.channel_deal("slack:T:other") is None
    assert await store.list_bindings() == {"slack:T:C": DEAL}
    assert executor.sent(cypher.BIND_CHANNEL)[0].params == {
        "channel_key": "slack:T:C",
        "deal_id": DEAL,
    }
    await store.unbind_channel("slack:T:C")
    [unbind] = executor.sent(cypher.UNBIND_CHANNEL)
    assert unbind.params == {"channel_key": "slack:T:C"} and unbind.write


# ---------------------------------------------------------------- an unreachable server


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_ping_on_a_closed_port_says_what_to_do() -> None:
    port = free_port()
    store = Neo4jKnowledgeGraph(
        uri=f"bolt://127.0.0.1:{port}", password="s3cret", connection_timeout=1.0
    )
    with pytest.raises(BackendUnavailableError) as failure:
        await store.ping()
    message = str(failure.value)
    assert f"Neo4j at bolt://127.0.0.1:{port} is unreachable" in message
    assert "check NEO4J_URI/NEO4J_PASSWORD, or unset NEO4J_URI" in message
    assert "s3cret" not in message


async def test_a_password_in_the_uri_is_explained_and_never_shown() -> None:
    store = Neo4jKnowledgeGraph(uri=f"bolt://neo4j:s3cret@127.0.0.1:{free_port()}")
    with pytest.raises(BackendUnavailableError) as failure:
        await store.ping()
    message = str(failure.value)
    assert "not a Neo4j address" in message and "NEO4J_URI" in message
    assert "s3cret" not in message


async def test_start_on_a_silent_server_fails_and_leaves_the_store_closed() -> None:
    connections: list[asyncio.StreamWriter] = []

    async def accept_and_say_nothing(
        reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        connections.append(writer)
        await reader.read()  # until the driver gives up and hangs up

    server = await asyncio.start_server(accept_and_say_nothing, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    store = Neo4jKnowledgeGraph(uri=f"neo4j://127.0.0.1:{port}", connection_timeout=0.5)
    try:
        with pytest.raises(BackendUnavailableError, match="unreachable"):
            await store.start()
        with pytest.raises(RuntimeError, match="not started"):
            await store.list_deals()
    finally:
        for writer in connections:
            writer.close()
        server.close()
        await server.wait_closed()
    assert connections  # the driver did knock


async def test_a_uri_that_is_not_neo4j_is_explained() -> None:
    store = Neo4jKnowledgeGraph(uri="mysql://127.0.0.1:3306")
    with pytest.raises(BackendUnavailableError, match="bolt://"):
        await store.ping()


async def test_a_statement_on_a_lost_server_becomes_backend_unavailable() -> None:
    uri = f"bolt://127.0.0.1:{free_port()}"
    driver = AsyncGraphDatabase.driver(
        uri, auth=None, connection_timeout=0.5, max_transaction_retry_time=0.2
    )
    executor = DriverExecutor(driver, uri=uri, database="neo4j", timeout=5.0)
    try:
        with pytest.raises(BackendUnavailableError, match=f"Neo4j at {uri} is unreachable"):
            await executor.run(cypher.PING, {}, write=False)
    finally:
        await driver.close()
