"""A deal's exact dense space, saved beside the database by the process that read it, is what the
next process starts from (memory-mapped), caught up from SQLite — never trusted past a deletion,
a damaged file or another database's."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).parent))

from test_dense_ivf import DIM, EMBEDDER, clustered, fill

from manda.kg.embedded import EmbeddedKnowledgeGraph, exact_files
from manda.kg.embedded.vectors import DenseOptions

if TYPE_CHECKING:
    from conftest import ModelFactory

ROWS = exact_files.MIN_ROWS + 100  # exact (below the IVF crossover) and worth a file


def options(tmp_path: Path) -> DenseOptions:
    return DenseOptions(ann_min_vectors=100_000, index_dir=tmp_path / "vector-index")


def saved_at(graph: EmbeddedKnowledgeGraph, deal_id: str) -> int:
    """The generation of the snapshot the process's space matches (0: read from SQLite only)."""
    return graph._vectors._spaces[(deal_id, EMBEDDER)].saved_generation  # type: ignore[union-attr]


async def test_the_next_process_starts_from_the_saved_space_and_catches_up(
    tmp_path: Path, make: ModelFactory, deal_id: str
) -> None:
    path = tmp_path / "home" / "manda.db"
    first = EmbeddedKnowledgeGraph(path, dense=options(tmp_path))
    await first.start()
    vectors = clustered(ROWS, seed=21)
    ids = await fill(first, make, deal_id, vectors)
    await first.vector_search(deal_id, EMBEDDER, vectors[0], 5)
    [saved] = list((tmp_path / "vector-index").rglob("*.npy"))
    assert saved.stat().st_mode & 0o077 == 0  # a data room's vectors: only their owner reads them
    snapshot = saved_at(first, deal_id)
    later = clustered(30, seed=22)
    later_ids = await fill(first, make, deal_id, later)  # written after the snapshot
    await first.aclose()

    second = EmbeddedKnowledgeGraph(path, dense=options(tmp_path))
    await second.start()
    try:
        assert (await second.vector_search(deal_id, EMBEDDER, later[3], 1))[0].id == later_ids[3]
        assert (await second.vector_search(deal_id, EMBEDDER, vectors[7], 1))[0].id == ids[7]
        assert saved_at(second, deal_id) == snapshot  # started from the file, caught up
    finally:
        await second.aclose()


async def test_a_deletion_after_the_snapshot_or_a_damaged_file_is_read_from_sqlite(
    tmp_path: Path, make: ModelFactory, deal_id: str
) -> None:
    path = tmp_path / "home" / "manda.db"
    graph = EmbeddedKnowledgeGraph(path, dense=options(tmp_path))
    await graph.start()
    vectors = clustered(ROWS, seed=23)
    ids = await fill(graph, make, deal_id, vectors)
    await graph.vector_search(deal_id, EMBEDDER, vectors[0], 5)
    await graph.aclose()
    with sqlite3.connect(path) as conn:  # a row leaves after the save (another process, a tool)
        conn.execute("DELETE FROM chunk_vectors WHERE deal_id = ? AND chunk_id = ?",
                     (deal_id, ids[5]))

    again = EmbeddedKnowledgeGraph(path, dense=options(tmp_path))
    await again.start()
    try:
        found = await again.vector_search(deal_id, EMBEDDER, vectors[5], 3)
        assert ids[5] not in [h.id for h in found]
        for saved in (tmp_path / "vector-index").rglob("*.npy"):
            saved.write_bytes(b"not a matrix")
        again._vectors.clear()  # as a fresh process would: meet the damaged file
        assert (await again.vector_search(deal_id, EMBEDDER, vectors[9], 1))[0].id == ids[9]
        assert again._vectors._spaces[(deal_id, EMBEDDER)].matrix.shape == (ROWS - 1, DIM)
    finally:
        await again.aclose()
