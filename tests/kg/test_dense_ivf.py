"""The embedded store's approximate dense path (IVF past a crossover, set low here) keeps the exact
path's guarantees: SQLite is the truth, other processes' writes and deletes are seen on the next
search, unfinished documents are never searched, and a saved index is reused, never trusted blindly.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from manda.kg.embedded import EmbeddedKnowledgeGraph, ivf
from manda.kg.embedded.vectors import DenseOptions
from manda.models import DocumentStatus

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from conftest import ModelFactory

DIM = 16
EMBEDDER = "emb-a"


def options(tmp_path: Path, min_vectors: int = 100) -> DenseOptions:
    return DenseOptions(ann_min_vectors=min_vectors, index_dir=tmp_path / "vector-index")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "home" / "manda.db"


@pytest.fixture
async def store(db_path: Path, tmp_path: Path) -> AsyncIterator[EmbeddedKnowledgeGraph]:
    graph = EmbeddedKnowledgeGraph(db_path, dense=options(tmp_path))
    await graph.start()
    try:
        yield graph
    finally:
        await graph.aclose()


def clustered(rows: int, seed: int) -> np.ndarray:
    """Unit vectors around a few centres, like embeddings of passages on a few topics."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((8, DIM)).astype(np.float32)
    matrix = centres[rng.integers(0, 8, rows)] + 0.5 * rng.standard_normal((rows, DIM))
    matrix = matrix.astype(np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


async def fill(
    graph: EmbeddedKnowledgeGraph,
    make: ModelFactory,
    deal_id: str,
    vectors: np.ndarray,
    status: DocumentStatus = DocumentStatus.COMPLETED,
) -> list[str]:
    """One document whose chunks carry `vectors`; its chunk ids."""
    if await graph.get_deal(deal_id) is None:
        await graph.upsert_deal(make.deal(deal_id))
    document = make.document(deal_id, status=status)
    await graph.upsert_document(document)
    chunks = make.chunks(document, [f"passage {i}" for i in range(len(vectors))])
    await graph.add_chunks(deal_id, chunks)
    await graph.add_vectors(deal_id, EMBEDDER, [c.id for c in chunks], vectors)
    return [c.id for c in chunks]


def engine(graph: EmbeddedKnowledgeGraph, deal_id: str) -> str | None:
    return graph._vectors.engine_of(deal_id, EMBEDDER)


async def test_past_the_crossover_search_uses_ivf_and_finds_what_exact_finds(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str, db_path: Path
) -> None:
    vectors = clustered(600, seed=1)
    ids = await fill(store, make, deal_id, vectors)
    exact = EmbeddedKnowledgeGraph(db_path, dense=DenseOptions(engine="exact"))
    await exact.start()
    try:
        for row in (0, 17, 333, 599):
            approximate = await store.vector_search(deal_id, EMBEDDER, vectors[row], 10)
            truth = await exact.vector_search(deal_id, EMBEDDER, vectors[row], 10)
            assert approximate[0].id == ids[row] and approximate[0].score == pytest.approx(1.0)
            assert len({h.id for h in approximate} & {h.id for h in truth}) >= 9
            # candidates are re-scored with the stored float32 rows: the same cosines as exact
            shared = {h.id: h.score for h in truth}
            for hit in approximate:
                if hit.id in shared:
                    assert hit.score == pytest.approx(shared[hit.id], abs=1e-6)
        assert engine(store, deal_id) == ivf.ENGINE
        assert engine(exact, deal_id) == "numpy exact"
    finally:
        await exact.aclose()


async def test_below_the_crossover_search_stays_exact_until_the_deal_grows(
    db_path: Path, tmp_path: Path, make: ModelFactory, deal_id: str
) -> None:
    graph = EmbeddedKnowledgeGraph(db_path, dense=options(tmp_path, min_vectors=300))
    await graph.start()
    try:
        first = clustered(200, seed=2)
        await fill(graph, make, deal_id, first)
        await graph.vector_search(deal_id, EMBEDDER, first[0], 5)
        assert engine(graph, deal_id) == "numpy exact"
        second = clustered(200, seed=3)
        ids = await fill(graph, make, deal_id, second)
        hits = await graph.vector_search(deal_id, EMBEDDER, second[5], 5)
        assert engine(graph, deal_id) == ivf.ENGINE
        assert hits[0].id == ids[5]
    finally:
        await graph.aclose()


async def test_another_process_adding_replacing_and_deleting_vectors_is_seen_next_search(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str, db_path: Path,
    tmp_path: Path,
) -> None:
    vectors = clustered(400, seed=4)
    ids = await fill(store, make, deal_id, vectors)
    await store.vector_search(deal_id, EMBEDDER, vectors[0], 5)  # the index is built
    writer = EmbeddedKnowledgeGraph(db_path, dense=options(tmp_path))
    await writer.start()
    try:
        extra = clustered(50, seed=5)
        new_ids = await fill(writer, make, deal_id, extra)  # added
        assert (await store.vector_search(deal_id, EMBEDDER, extra[7], 1))[0].id == new_ids[7]
        # replaced: chunk 3 now points where chunk 9 does
        await writer.add_vectors(deal_id, EMBEDDER, [ids[3]], vectors[9:10])
        hits = await store.vector_search(deal_id, EMBEDDER, vectors[3], 3)
        assert ids[3] not in {h.id for h in hits if h.score > 0.999}
        top = await store.vector_search(deal_id, EMBEDDER, vectors[9], 2)
        assert {h.id for h in top} == {ids[3], ids[9]}
    finally:
        await writer.aclose()
    # deleted by any tool, straight in SQLite: it leaves the index
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(
            "DELETE FROM chunk_vectors WHERE deal_id = ? AND chunk_id = ?", (deal_id, ids[11])
        )
    hits = await store.vector_search(deal_id, EMBEDDER, vectors[11], 20)
    assert ids[11] not in {h.id for h in hits}
    assert engine(store, deal_id) == ivf.ENGINE


async def test_chunks_of_unfinished_documents_are_never_searched(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    await fill(store, make, deal_id, clustered(300, seed=6))
    # a document a crash left half ingested: chunks and vectors written, never completed
    half = clustered(40, seed=7)
    half_ids = await fill(store, make, deal_id, half, status=DocumentStatus.RUNNING)
    for row in range(0, 40, 7):
        hits = await store.vector_search(deal_id, EMBEDDER, half[row], 30)
        assert len(hits) == 30 and not set(half_ids) & {h.id for h in hits}
    assert engine(store, deal_id) == ivf.ENGINE
    document_id = (await store.get_chunks(deal_id, half_ids[:1]))[0].document_id
    await store.set_document_status(deal_id, document_id, DocumentStatus.COMPLETED)
    assert (await store.vector_search(deal_id, EMBEDDER, half[3], 1))[0].id == half_ids[3]


async def test_a_refused_write_leaves_the_index_as_it_was(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    vectors = clustered(300, seed=8)
    await fill(store, make, deal_id, vectors)
    before = await store.vector_search(deal_id, EMBEDDER, vectors[1], 5)
    with pytest.raises(ValueError, match="add the chunks before their vectors"):
        await store.add_vectors(deal_id, EMBEDDER, ["no-such-chunk"], vectors[1:2])
    assert await store.vector_search(deal_id, EMBEDDER, vectors[1], 5) == before


async def test_a_saved_index_is_loaded_by_the_next_process_and_caught_up(
    db_path: Path, tmp_path: Path, make: ModelFactory, deal_id: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = EmbeddedKnowledgeGraph(db_path, dense=options(tmp_path))
    await first.start()
    vectors = clustered(500, seed=9)
    await fill(first, make, deal_id, vectors)
    await first.vector_search(deal_id, EMBEDDER, vectors[0], 5)
    saved = list((tmp_path / "vector-index").rglob("*.faiss"))
    assert len(saved) == 1  # a data room's vectors: only their owner may read them
    for path in (saved[0], saved[0].parent, saved[0].parent.parent):
        assert path.stat().st_mode & 0o077 == 0
    later = clustered(30, seed=10)
    later_ids = await fill(first, make, deal_id, later)  # written after the file was saved
    await first.aclose()

    def no_training(*args: object) -> None:
        raise AssertionError("the saved index should have been loaded, not trained again")

    monkeypatch.setattr(ivf, "build", no_training)
    second = EmbeddedKnowledgeGraph(db_path, dense=options(tmp_path))
    await second.start()
    try:
        assert (await second.vector_search(deal_id, EMBEDDER, later[4], 1))[0].id == later_ids[4]
        assert engine(second, deal_id) == ivf.ENGINE
    finally:
        await second.aclose()


async def test_an_index_saved_for_another_database_or_damaged_is_never_used(
    db_path: Path, tmp_path: Path, make: ModelFactory, deal_id: str
) -> None:
    graph = EmbeddedKnowledgeGraph(db_path, dense=options(tmp_path))
    await graph.start()
    await fill(graph, make, deal_id, clustered(300, seed=11))
    await graph.vector_search(deal_id, EMBEDDER, clustered(1, seed=12)[0], 5)
    await graph.aclose()
    for suffix in ("", "-wal", "-shm"):  # the database is re-created at the same path
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    graph = EmbeddedKnowledgeGraph(db_path, dense=options(tmp_path))
    await graph.start()
    try:
        vectors = clustered(300, seed=13)
        ids = await fill(graph, make, deal_id, vectors)
        assert (await graph.vector_search(deal_id, EMBEDDER, vectors[2], 1))[0].id == ids[2]
        for path in (tmp_path / "vector-index").rglob("*.faiss"):
            path.write_bytes(b"not an index")
        graph._vectors.clear()  # as a fresh process would: load the (damaged) file
        assert (await graph.vector_search(deal_id, EMBEDDER, vectors[2], 1))[0].id == ids[2]
    finally:
        await graph.aclose()


async def test_a_saved_index_that_disagrees_with_sqlite_is_rebuilt(
    db_path: Path, tmp_path: Path, make: ModelFactory, deal_id: str
) -> None:
    graph = EmbeddedKnowledgeGraph(db_path, dense=options(tmp_path))
    await graph.start()
    try:
        vectors = clustered(300, seed=15)
        ids = await fill(graph, make, deal_id, vectors)
        await graph.vector_search(deal_id, EMBEDDER, vectors[0], 5)
        saved = next((tmp_path / "vector-index").rglob("*.faiss"))
        # rows deleted behind the generation counter's back (as a restored backup would be)
        with sqlite3.connect(db_path) as conn:
            conn.execute("DROP TRIGGER chunk_vectors_removed")
            conn.execute("DELETE FROM chunk_vectors WHERE chunk_id = ?", (ids[0],))
        graph._vectors.clear()
        hits = await graph.vector_search(deal_id, EMBEDDER, vectors[0], 5)
        assert ids[0] not in {h.id for h in hits} and hits[0].score < 0.999
        assert ivf.faiss_module().read_index(str(saved)).ntotal == 299  # saved again, rebuilt
    finally:
        await graph.aclose()


async def test_each_deal_has_its_own_index(
    store: EmbeddedKnowledgeGraph, make: ModelFactory, deal_id: str
) -> None:
    mine = clustered(300, seed=14)
    await fill(store, make, deal_id, mine)
    theirs = make.id("deal")
    their_ids = await fill(store, make, theirs, mine)  # the very same vectors in another deal
    hits = await store.vector_search(deal_id, EMBEDDER, mine[0], 50)
    assert not set(their_ids) & {h.id for h in hits}
    assert (await store.vector_search(theirs, EMBEDDER, mine[0], 1))[0].id == their_ids[0]
