"""What only the embedded adapter promises: a WAL SQLite file shared by processes, that survives
restarts, refuses bad vectors, keeps its tantivy keyword index in step with what SQLite committed,
and turns any question into a valid query."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import string
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from manda.errors import BackendUnavailableError
from manda.kg.embedded import EmbeddedKnowledgeGraph, keyword, schema
from manda.kg.embedded.fulltext import match_expression
from manda.kg.embedded.schema import SCHEMA_VERSION, apply_schema
from manda.kg.port import Capabilities
from manda.kg.word_families import stem_family
from manda.models import DocumentStatus, FindingStatus, ReviewDecisionKind

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from conftest import ModelFactory

E1, E2, E3 = (1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "home" / "manda.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[EmbeddedKnowledgeGraph]:
    graph = EmbeddedKnowledgeGraph(db_path)
    await graph.start()
    try:
        yield graph
    finally:
        await graph.aclose()


# ---------------------------------------------------------------- lifecycle and the file


async def test_constructor_does_no_io_and_start_creates_the_home(db_path: Path) -> None:
    graph = EmbeddedKnowledgeGraph(db_path)
    assert not db_path.parent.exists()
    assert graph.capabilities == Capabilities(
        name="embedded", vector_index=False, fulltext_bm25=True, shared_across_processes=False
    )
    await graph.start()
    await graph.start()  # a second start is harmless
    try:
        assert db_path.is_file()
        await graph.ping()
    finally:
        await graph.aclose()
    await graph.aclose()  # and so is a second close


async def test_the_file_is_in_wal_mode_with_the_schema(
    store: EmbeddedKnowledgeGraph, db_path: Path
) -> None:
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    assert {
        "deals", "documents", "chunks", "keyword_generations", "keyword_changes",
        "chunk_vectors", "vector_spaces", "findings", "relations", "decisions", "audit",
        "qa_items", "channel_bindings",
    } <= tables
    assert "chunks_fts" not in tables  # FTS5 is gone since schema version 2


async def test_use_before_start_or_after_close_says_the_store_is_not_open(
    db_path: Path, deal_id: str
) -> None:
    graph = EmbeddedKnowledgeGraph(db_path)
    with pytest.raises(BackendUnavailableError, match="not open"):
        await graph.ping()
    with pytest.raises(BackendUnavailableError, match=str(db_path)):
        await graph.list_documents(deal_id)
    await graph.start()
    await graph.aclose()
    with pytest.raises(BackendUnavailableError, match="start"):
        await graph.ping()


async def test_a_damaged_file_is_reported_with_its_path(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"this is not a SQLite database\n" * 200)
    graph = EmbeddedKnowledgeGraph(db_path)
    with pytest.raises(BackendUnavailableError) as failure:
        await graph.start()
    assert str(db_path) in str(failure.value)
    assert "manda ingest" in failure.value.hint
    with pytest.raises(BackendUnavailableError):
        await graph.ping()


async def test_everything_survives_a_restart(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str, db_path: Path
) -> None:
    await store.upsert_deal(make.deal(deal_id))
    document = make.document(deal_id)
    await store.upsert_document(document)
    chunks = make.chunks(document, ["Q3 2024 revenue was €5.2M.", "Headcount was 212."])
    await store.add_chunks(deal_id, chunks)
    await store.add_vectors(deal_id, "emb-a", [c.id for c in chunks], make.vectors(E1, E2))
    finding = make.finding(document, chunk=chunks[0])
    await store.add_findings([finding])
    await store.set_finding_status(deal_id, finding.id, FindingStatus.APPROVED)
    decision = make.decision(finding, ReviewDecisionKind.APPROVE, by="alice")
    await store.record_decision(decision)
    entry = make.audit(deal_id)
    await store.append_audit(entry)
    item = make.qa(deal_id)
    await store.add_qa_item(item)
    await store.bind_channel("slack:T1:C1", deal_id)
    assert [h.id for h in await store.vector_search(deal_id, "emb-a", make.unit(*E2), 1)] == [
        chunks[1].id
    ]

    await store.aclose()
    await store.start()
    reopened = EmbeddedKnowledgeGraph(db_path)  # and a brand new instance on the same file
    await reopened.start()
    try:
        for graph in (store, reopened):
            assert [d.id for d in await graph.list_deals()] == [deal_id]
            assert (await graph.get_document(deal_id, document.id)) == document
            assert await graph.list_chunks(deal_id, document.id) == chunks
            hits = await graph.vector_search(deal_id, "emb-a", make.unit(*E2), 1)
            assert [h.id for h in hits] == [chunks[1].id]
            assert [h.id for h in await graph.fulltext_search(deal_id, "revenue", 5)] == [
                chunks[0].id
            ]
            assert (await graph.get_finding(deal_id, finding.id)).status is FindingStatus.APPROVED
            assert await graph.get_decision(deal_id, finding.id) == decision
            assert await graph.list_audit(deal_id) == [entry]
            assert await graph.list_qa_items(deal_id) == [item]
            assert await graph.channel_deal("slack:T1:C1") == deal_id
    finally:
        await reopened.aclose()


# ---------------------------------------------------------------- sharing one file


async def test_a_second_instance_sees_vectors_added_by_the_first(
    db_path: Path, make: ModelFactory, deal_id: str
) -> None:
    reader, writer = EmbeddedKnowledgeGraph(db_path), EmbeddedKnowledgeGraph(db_path)
    await reader.start()
    await writer.start()
    try:
        document = make.document(deal_id)
        a, b, c = make.chunks(document, ["a", "b", "c"])
        await writer.add_chunks(deal_id, [a, b, c])
        await writer.add_vectors(deal_id, "emb-a", [a.id, b.id], make.vectors(E1, E2))
        # the reader builds and caches its matrix
        assert [h.id for h in await reader.vector_search(deal_id, "emb-a", make.unit(*E1), 1)] == [
            a.id
        ]

        await writer.add_vectors(deal_id, "emb-a", [c.id], make.vectors(E3))  # a new vector
        hits = await reader.vector_search(deal_id, "emb-a", make.unit(*E3), 3)
        assert hits[0].id == c.id and len(hits) == 3

        await writer.add_vectors(deal_id, "emb-a", [b.id], make.vectors(E1))  # a replaced one
        hits = await reader.vector_search(deal_id, "emb-a", make.unit(*E1), 2)
        assert {h.id for h in hits} == {a.id, b.id}
        assert all(h.score == pytest.approx(1.0, abs=1e-5) for h in hits)
        assert await reader.embedded_chunk_ids(deal_id, "emb-a") == {a.id, b.id, c.id}
    finally:
        await reader.aclose()
        await writer.aclose()


CHILD_WRITER = textwrap.dedent(
    """
    import asyncio, sys
    import numpy as np
    from pathlib import Path
    from manda.kg.embedded import EmbeddedKnowledgeGraph
    from manda.models import Chunk, Location

    async def main(path, deal_id, document_id):
        graph = EmbeddedKnowledgeGraph(Path(path))
        await graph.start()
        chunk = Chunk(id=document_id + "_child", deal_id=deal_id, document_id=document_id,
                      ordinal=99, text="written by another process", location=Location.for_page(9))
        await graph.add_chunks(deal_id, [chunk])
        await graph.add_vectors(deal_id, "emb-a", [chunk.id],
                                np.array([[0.0, 0.0, 1.0, 0.0]], dtype=np.float32))
        await graph.aclose()

    asyncio.run(main(*sys.argv[1:]))
    """
)


async def test_another_process_adding_vectors_invalidates_the_cache(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str, db_path: Path
) -> None:
    document = make.document(deal_id)
    chunks = make.chunks(document, ["a", "b"])
    await store.add_chunks(deal_id, chunks)
    await store.add_vectors(deal_id, "emb-a", [c.id for c in chunks], make.vectors(E1, E2))
    before = await store.vector_search(deal_id, "emb-a", make.unit(*E3), 5)
    assert {h.id for h in before} == {c.id for c in chunks}

    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD_WRITER, str(db_path), deal_id, document.id,
        stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await child.communicate()
    assert child.returncode == 0, stderr.decode()

    after = await store.vector_search(deal_id, "emb-a", make.unit(*E3), 5)
    assert after[0].id == f"{document.id}_child"
    assert after[0].score == pytest.approx(1.0, abs=1e-5)
    assert [h.id for h in await store.fulltext_search(deal_id, "another process", 5)] == [
        f"{document.id}_child"
    ]


async def test_two_instances_writing_at_once_both_succeed(
    db_path: Path, make: ModelFactory, deal_id: str
) -> None:
    first, second = EmbeddedKnowledgeGraph(db_path), EmbeddedKnowledgeGraph(db_path)
    await first.start()
    await second.start()
    try:
        document = make.document(deal_id)
        chunks = make.chunks(document, [f"passage number {i}" for i in range(60)])
        rng = np.random.default_rng(7)

        async def write(graph: EmbeddedKnowledgeGraph, part: list) -> None:
            for chunk in part:
                await graph.add_chunks(deal_id, [chunk])
                await graph.add_vectors(
                    deal_id, "emb-a", [chunk.id], rng.normal(size=(1, 4)).astype(np.float32)
                )
                await graph.append_audit(make.audit(deal_id))

        await asyncio.gather(write(first, chunks[::2]), write(second, chunks[1::2]))

        assert len(await first.list_chunks(deal_id, document.id)) == 60
        assert len(await second.embedded_chunk_ids(deal_id, "emb-a")) == 60
        assert len(await first.list_audit(deal_id)) == 60
        assert len(await first.vector_search(deal_id, "emb-a", make.unit(*E1), 100)) == 60
    finally:
        await first.aclose()
        await second.aclose()


# ---------------------------------------------------------------- vectors


async def test_vectors_for_chunks_the_deal_does_not_have_are_refused(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str, other_deal_id: str
) -> None:
    theirs = make.chunks(make.document(other_deal_id), ["theirs"])
    await store.add_chunks(other_deal_id, theirs)
    with pytest.raises(ValueError, match="add the chunks before their vectors"):
        await store.add_vectors(deal_id, "emb-a", [theirs[0].id], make.vectors(E1))
    assert await store.embedded_chunk_ids(deal_id, "emb-a") == set()
    assert await store.vector_search(deal_id, "emb-a", make.unit(*E1), 5) == []


async def test_chunks_must_belong_to_the_deal_they_are_added_to(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str, other_deal_id: str
) -> None:
    theirs = make.chunks(make.document(other_deal_id), ["theirs"])
    with pytest.raises(ValueError, match="another deal"):
        await store.add_chunks(deal_id, theirs)
    assert await store.get_chunks(other_deal_id, [theirs[0].id]) == []


async def test_an_embedder_keeps_one_dimension_across_deals(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str, other_deal_id: str
) -> None:
    mine = make.chunks(make.document(deal_id), ["mine"])
    theirs = make.chunks(make.document(other_deal_id), ["theirs"])
    await store.add_chunks(deal_id, mine)
    await store.add_chunks(other_deal_id, theirs)
    await store.add_vectors(deal_id, "minilm-384", [mine[0].id], make.vectors(E1))
    with pytest.raises(ValueError, match="'minilm-384' stores 4-dimensional vectors, not 3"):
        await store.add_vectors(
            other_deal_id, "minilm-384", [theirs[0].id], make.vectors((1.0, 0.0, 0.0))
        )
    with pytest.raises(ValueError, match="same embedder"):
        await store.vector_search(deal_id, "minilm-384", make.unit(1.0, 0.0, 0.0), 1)


async def test_vectors_are_normalised_so_scores_are_cosines(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    chunks = make.chunks(make.document(deal_id), ["long", "short"])
    await store.add_chunks(deal_id, chunks)
    raw = np.array([[3.0, 0.0, 0.0, 0.0], [0.0, 0.5, 0.5, 0.0]], dtype=np.float64)
    await store.add_vectors(deal_id, "emb-a", [c.id for c in chunks], raw)
    hits = await store.vector_search(deal_id, "emb-a", np.array([10.0, 0.0, 0.0, 0.0]), 2)
    assert [h.id for h in hits] == [chunks[0].id, chunks[1].id]
    assert hits[0].score == pytest.approx(1.0, abs=1e-6)
    assert hits[1].score == pytest.approx(0.0, abs=1e-6)


async def test_batches_larger_than_one_transaction(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    document = make.document(deal_id)
    texts = [f"row {i} of the customer ledger" for i in range(2_500)]
    texts[2_222] = "the only passage that mentions a zebra"
    chunks = make.chunks(document, texts)
    vectors = np.random.default_rng(11).normal(size=(2_500, 8)).astype(np.float32)
    await store.add_chunks(deal_id, chunks)
    await store.add_vectors(deal_id, "emb-a", [c.id for c in chunks], vectors)

    assert len(await store.embedded_chunk_ids(deal_id, "emb-a")) == 2_500
    top = await store.vector_search(deal_id, "emb-a", vectors[1_777], 3)
    assert top[0].id == chunks[1_777].id and len(top) == 3
    assert [h.id for h in await store.fulltext_search(deal_id, "zebra?", 3)] == [chunks[2_222].id]


# ---------------------------------------------------------------- full text


async def test_fulltext_stems_words(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    chunks = make.chunks(
        make.document(deal_id),
        [
            "The board approved the hiring plan.",
            "Revenue grew on enterprise renewals.",
            "The largest customer renewed for three years.",
        ],
    )
    await store.add_chunks(deal_id, chunks)
    hits = await store.fulltext_search(deal_id, "renewal of customers", 10)
    assert [h.id for h in hits] == [chunks[2].id, chunks[1].id]
    assert all(h.score > 0 for h in hits)


async def test_fulltext_finds_a_words_other_form_as_one_term(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    chunks = make.chunks(
        make.document(deal_id),
        [
            "The company completed two acquisitions in the second half.",
            "The board approved the hiring plan for the company.",
            "Costs fell after the reduction of the warehouse network.",
            "In May we acquired Halden Logistics for cash.",
        ],
    )
    await store.add_chunks(deal_id, chunks)
    acquired = await store.fulltext_search(deal_id, "which businesses did the company acquire", 10)
    assert acquired[0].id == chunks[0].id  # "acquire" finds "acquisitions"
    reduced = await store.fulltext_search(deal_id, "how did they reduce costs", 10)
    assert reduced[0].id == chunks[2].id  # "reduce" finds "reduction"
    bought = await store.fulltext_search(deal_id, "what did they buy", 10)
    assert bought[0].id == chunks[3].id  # "buy" finds "acquired" (a word form of it)
    assert stem_family("acquir")[0] == "acquisit"
    assert "acquir" in stem_family("acquisit")
    assert stem_family("paid") == []  # too short a root to be a family's


async def test_fulltext_top_k_is_the_head_of_the_full_ranking(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str, other_deal_id: str
) -> None:
    """The fast path (rank 2k hits, then filter) gives exactly the head of ranking every match:
    with rows tied at the k-th score (ties by chunk id), and with an unfinished document's
    better rows crowding the head; another deal's rows never count."""
    ours = make.document(deal_id)
    tied = [f"zebra ledger row {n}" for n in range(40)]  # equal lengths and counts: all tie
    varied = ["zebra " * (1 + n % 3) + "filler " * (n % 5) for n in range(30)]
    await store.add_chunks(deal_id, make.chunks(ours, tied + varied))
    unfinished = make.document(deal_id, status=DocumentStatus.RUNNING)
    await store.upsert_document(unfinished)
    await store.add_chunks(deal_id, make.chunks(unfinished, ["zebra zebra zebra"] * 50))
    theirs = make.document(other_deal_id)
    await store.add_chunks(other_deal_id, make.chunks(theirs, ["zebra zebra zebra"] * 200))

    cases = (("zebra", 1), ("zebra", 5), ("zebra ledger", 12), ("zebra", 60), ("filler", 1),
             ("zebra filler", 3))
    for question, k in cases:
        everything = await store.fulltext_search(deal_id, question, 10_000)
        assert len(everything) <= 70 and not any(h.id.startswith(unfinished.id)
                                                 for h in everything)
        assert [(h.id, h.score) for h in everything] == sorted(
            ((h.id, h.score) for h in everything), key=lambda pair: (-pair[1], pair[0]))
        assert await store.fulltext_search(deal_id, question, k) == everything[:k]
        assert len(everything) >= k


# ---------------------------------------------------------------- the keyword index follows SQLite


async def test_a_crash_between_the_sqlite_commit_and_the_index_update_is_repaired(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The index is derived: when bringing it up to date fails after SQLite committed, that
    search fails loudly and the next one rebuilds it from SQLite, with nothing lost."""
    document = make.document(deal_id)
    first, second = make.chunks(document, ["zebra in the ledger", "zebra in the annex"])
    await store.add_chunks(deal_id, [first])
    assert [h.id for h in await store.fulltext_search(deal_id, "zebra", 5)] == [first.id]

    await store.add_chunks(deal_id, [second])  # committed; the index has not seen it yet

    def crash(*_: object) -> None:
        raise RuntimeError("killed while indexing")

    monkeypatch.setattr(keyword, "_catch_up", crash)
    with pytest.raises(RuntimeError, match="killed while indexing"):
        await store.fulltext_search(deal_id, "zebra", 5)
    monkeypatch.undo()
    assert {h.id for h in await store.fulltext_search(deal_id, "zebra", 5)} == {
        first.id, second.id
    }


async def test_a_write_rolled_back_never_reaches_the_index(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str, db_path: Path
) -> None:
    """A process that dies mid-transaction leaves nothing: neither chunks nor their change log."""
    [chunk] = make.chunks(make.document(deal_id), ["the committed zebra"])
    await store.add_chunks(deal_id, [chunk])
    assert len(await store.fulltext_search(deal_id, "zebra", 5)) == 1
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute(
        "INSERT INTO chunks (deal_id, id, document_id, ordinal, section, location, text) "
        "SELECT deal_id, id || '_half', document_id, 1, section, location, "
        "'a half written zebra' FROM chunks WHERE id = ?", (chunk.id,))
    assert [h.id for h in await store.fulltext_search(deal_id, "zebra half", 5)] == [chunk.id]
    other.execute("ROLLBACK")
    other.close()
    assert [h.id for h in await store.fulltext_search(deal_id, "zebra half", 5)] == [chunk.id]


async def test_updates_and_deletes_by_another_process_reach_a_cached_index(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str, other_deal_id: str,
    db_path: Path,
) -> None:
    document = make.document(deal_id)
    kept, replaced, deleted = make.chunks(
        document, ["zebra count", "the old wording", "a passage about to go"])
    await store.add_chunks(deal_id, [kept, replaced, deleted])
    assert len(await store.fulltext_search(deal_id, "zebra wording passage", 5)) == 3

    writer = EmbeddedKnowledgeGraph(db_path)  # another process's store on the same file
    await writer.start()
    try:
        await writer.add_chunks(deal_id, [replaced.model_copy(update={"text": "new zebra text"})])
    finally:
        await writer.aclose()
    with sqlite3.connect(db_path) as other:  # removing a document's chunk
        other.execute("DELETE FROM chunks WHERE deal_id = ? AND id = ?", (deal_id, deleted.id))
    # a rowid freed in this deal and reused by another must not bring the text back here
    [theirs] = make.chunks(make.document(other_deal_id), ["a passage about to go"])
    await store.add_chunks(other_deal_id, [theirs])

    assert await store.fulltext_search(deal_id, "wording", 5) == []
    assert await store.fulltext_search(deal_id, "passage", 5) == []
    assert {h.id for h in await store.fulltext_search(deal_id, "zebra", 5)} == {
        kept.id, replaced.id
    }
    assert [h.id for h in await store.fulltext_search(other_deal_id, "passage", 5)] == [theirs.id]


async def test_each_deal_is_ranked_by_its_own_statistics(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str, other_deal_id: str
) -> None:
    """Another deal's documents never change a deal's scores (FTS5 shared one index)."""
    texts = ["revenue grew in the quarter", "churn fell", "revenue and churn"]
    await store.add_chunks(deal_id, make.chunks(make.document(deal_id), texts))
    before = await store.fulltext_search(deal_id, "revenue churn", 5)
    theirs = make.chunks(make.document(other_deal_id), ["revenue " * 5] * 300)
    await store.add_chunks(other_deal_id, theirs)
    assert await store.fulltext_search(deal_id, "revenue churn", 5) == before


async def test_a_quoted_phrase_outranks_its_words_apart(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    apart, together = make.chunks(make.document(deal_id), [
        "sales of the property rose; the plant was sold with its equipment",
        "purchases of property, plant and equipment were 4.1",
    ])
    await store.add_chunks(deal_id, [apart, together])
    hits = await store.fulltext_search(deal_id, 'capex "property, plant and equipment"', 5)
    assert [h.id for h in hits] == [together.id, apart.id]
    assert hits[0].score > hits[1].score


async def test_an_existing_version_1_home_moves_from_fts5_to_the_keyword_index(
    db_path: Path, make: ModelFactory, deal_id: str
) -> None:
    db_path.parent.mkdir(parents=True)
    [chunk] = make.chunks(make.document(deal_id), ["written before the migration"])
    with sqlite3.connect(db_path) as old:  # the version 1 layout: FTS5 kept by triggers
        old.executescript(
            "CREATE TABLE chunks (deal_id TEXT NOT NULL, id TEXT NOT NULL, document_id TEXT "
            "NOT NULL, ordinal INTEGER NOT NULL, section INTEGER NOT NULL, location TEXT NOT "
            "NULL, text TEXT NOT NULL, UNIQUE (deal_id, id));"
            "CREATE VIRTUAL TABLE chunks_fts USING fts5 (text, deal_id UNINDEXED, "
            "content = 'chunks', content_rowid = 'rowid', tokenize = 'porter unicode61');"
            "CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN INSERT INTO "
            "chunks_fts (rowid, text, deal_id) VALUES (new.rowid, new.text, new.deal_id); END;"
            "PRAGMA user_version = 1;"
        )
        old.execute(
            "INSERT INTO chunks VALUES (?, ?, ?, 0, 0, ?, ?)",
            (deal_id, chunk.id, chunk.document_id, chunk.location.model_dump_json(), chunk.text),
        )
    graph = EmbeddedKnowledgeGraph(db_path)
    await graph.start()
    try:
        assert [h.id for h in await graph.fulltext_search(deal_id, "migration", 5)] == [chunk.id]
        later = make.chunk(make.document(deal_id), "written after the migration", ordinal=1)
        await graph.add_chunks(deal_id, [later])
        assert len(await graph.fulltext_search(deal_id, "migration", 5)) == 2
    finally:
        await graph.aclose()
    with sqlite3.connect(db_path) as conn:
        names = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert not {"chunks_fts", "chunks_fts_insert"} & names


async def test_a_version_3_home_gains_heading_paths_and_keeps_everything_it_held(
    db_path: Path, make: ModelFactory, deal_id: str
) -> None:
    """A home written before heading paths were kept (schema 3: the chunks table without the
    column, findings' JSON without the field) opens, reads and searches as before."""
    db_path.parent.mkdir(parents=True)
    document = make.document(deal_id)
    [chunk] = make.chunks(document, ["Vertex Distribution claims EUR 2.3M in damages."])
    finding = make.finding(document, chunk=chunk, status=FindingStatus.APPROVED)
    version_3 = schema.DDL.replace(
        "    heading_path TEXT NOT NULL DEFAULT '[]',  -- JSON list, outermost heading first\n", "")
    assert version_3 != schema.DDL
    with sqlite3.connect(db_path) as old:
        for statement in schema.statements(version_3):
            old.execute(statement)
        old.execute("PRAGMA user_version = 3")
        old.execute(
            "INSERT INTO chunks (deal_id, id, document_id, ordinal, section, location, text) "
            "VALUES (?, ?, ?, 0, 0, ?, ?)",
            (deal_id, chunk.id, document.id, chunk.location.model_dump_json(), chunk.text))
        old_json = finding.model_dump(mode="json", exclude={"heading_path"})
        old.execute(
            "INSERT INTO findings (deal_id, id, status, subject, period, document_id, chunk_id, "
            "created_at, data) VALUES (?, ?, 'approved', 'revenue', 'Q3 2024', ?, ?, ?, ?)",
            (deal_id, finding.id, document.id, chunk.id, "2024-10-01", json.dumps(old_json)))
    graph = EmbeddedKnowledgeGraph(db_path)
    await graph.start()
    try:
        assert (await graph.get_chunks(deal_id, [chunk.id]))[0].model_dump() == chunk.model_dump()
        assert await graph.get_finding(deal_id, finding.id) == finding
        assert [h.id for h in await graph.fulltext_search(deal_id, "damages", 5)] == [chunk.id]
        await graph.set_heading_paths(deal_id, {chunk.id: ("Legal summary", "Litigation")})
        [got] = await graph.findings_for_chunks(deal_id, [chunk.id])
        assert got.heading_path == ("Legal summary", "Litigation")
        assert got.status is FindingStatus.APPROVED
        later = make.chunk(document, "written after", ordinal=1, heading_path=("Leases",))
        await graph.add_chunks(deal_id, [later])
        assert [c.heading_path for c in await graph.list_chunks(deal_id, document.id)] == [
            ("Legal summary", "Litigation"), ("Leases",)]
    finally:
        await graph.aclose()
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5


def test_every_question_builds_a_query_tantivy_runs() -> None:
    """No user text is parsed as query syntax: operators are words or separators."""
    rng = random.Random(5)
    alphabet = string.printable + "€ü—“”«»😀\u00a0"
    questions = ['"AND OR NOT ( * : ^', 'text:revenue^3 -"net" [a TO z] ~2'] + [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(300)
    ]
    indexes = keyword.KeywordIndexes()
    conn = sqlite3.connect(":memory:")
    apply_schema(conn)
    conn.execute(
        "INSERT INTO chunks (deal_id, id, document_id, ordinal, section, location, text) "
        "VALUES ('d', 'c', 'doc', 0, 0, '{}', 'revenue and not the quarter')"
    )
    for question in questions:
        assert isinstance(indexes.search(conn, "d", question, 3), list)
    assert [h.id for h in indexes.search(conn, "d", '"AND OR NOT ( * : ^', 3)] == ["c"]
    assert indexes.search(conn, "d", "( * : ^", 3) == []


@pytest.mark.parametrize(
    ("question", "expression"),
    [
        ("What was Q3 2024 revenue?", '"q3" OR "2024" OR "revenue"'),
        ('NEAR("ebitda" AND margin*)', '"ebitda" OR "margin"'),
        ("Revenue, revenue & REVENUE", '"revenue"'),
        ("IT?", '"it"'),  # only stop words: search them rather than nothing
        ("Umsatz für Q3 (Mio. €)", '"umsatz" OR "für" OR "q3" OR "mio"'),
        ("?! * ^ :", None),
        ("", None),
    ],
)
def test_questions_become_quoted_or_expressions(question: str, expression: str | None) -> None:
    assert match_expression(question) == expression


def test_every_expression_is_valid_fts5() -> None:
    rng = random.Random(5)
    alphabet = string.printable + "€ü—“”«»😀\u00a0"
    questions = [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(300)
    ]
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5 (text, tokenize = 'porter unicode61')")
    conn.execute("INSERT INTO t (text) VALUES ('revenue of the quarter')")
    checked = 0
    for question in questions:
        expression = match_expression(question)
        if expression is not None:  # FTS5 raises OperationalError on an invalid expression
            rows = conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (expression,)).fetchall()
            assert all(isinstance(row[0], int) for row in rows)
            checked += 1
    assert checked > 100, "most random questions still yield a searchable expression"
    assert conn.execute(
        "SELECT count(*) FROM t WHERE t MATCH ?", (match_expression("Revenue, quarter?"),)
    ).fetchone() == (1,)
