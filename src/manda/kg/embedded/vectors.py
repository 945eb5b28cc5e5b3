"""Exact cosine search over one deal's vectors, cached in memory as one numpy matrix per embedder.

SQLite keeps the vectors (float32 blobs, one row per chunk and embedder); search keeps, per
(deal, embedder), an (n, dim) matrix of L2-normalised rows and its id list, and scores a query
with one matrix-vector product and `argpartition` for the top k. Each write of vectors bumps the
`generation` of its (deal, embedder) row in the same transaction, and tags the rows it wrote with
that number; before every search the cache compares generations (one indexed lookup) and loads
only the rows written since, so vectors added by another process are seen on the next search.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from manda.kg.embedded.records import existing_chunk_ids
from manda.kg.port import ScoredId


def unfinished_chunk_ids(conn: sqlite3.Connection, deal_id: str) -> set[str]:
    """Chunks of documents whose ingestion has not completed: never searched (usually none)."""
    # Documents first (CROSS JOIN fixes the order): the few unfinished ones, then their chunks
    # by index. Scanning the deal's chunks instead cost ~50 ms a search at 100k chunks.
    rows = conn.execute(
        "SELECT c.id FROM documents AS d CROSS JOIN chunks AS c "
        "ON c.deal_id = d.deal_id AND c.document_id = d.id "
        "WHERE d.deal_id = ? AND d.status != 'completed'",
        (deal_id,),
    ).fetchall()
    return {row[0] for row in rows}


@dataclass
class _Space:
    """The cached matrix of one (deal, embedder): rows in `ids` order, up to `generation`."""

    dim: int
    generation: int = 0
    ids: list[str] = field(default_factory=list)
    row_of: dict[str, int] = field(default_factory=dict)
    matrix: np.ndarray = field(default_factory=lambda: np.empty((0, 0), dtype=np.float32))


def as_matrix(chunk_ids: Sequence[str], vectors: np.ndarray) -> np.ndarray:
    """Check shape and values, and return float32 rows scaled to unit length."""
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[0] != len(chunk_ids):
        raise ValueError(
            f"Expected one vector per chunk id ({len(chunk_ids)} ids), "
            f"got an array of shape {matrix.shape}."
        )
    if matrix.shape[1] == 0 or not np.isfinite(matrix).all():
        raise ValueError("Vectors must be non-empty and contain only finite numbers.")
    return normalised(matrix)


def normalised(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


def space_dim(conn: sqlite3.Connection, embedder_id: str) -> int | None:
    """The dimension this embedder id was first stored with (in any deal), if any."""
    row = conn.execute(
        "SELECT dim FROM vector_spaces WHERE embedder_id = ? LIMIT 1", (embedder_id,)
    ).fetchone()
    return int(row[0]) if row else None


def write_vectors(
    conn: sqlite3.Connection,
    deal_id: str,
    embedder_id: str,
    chunk_ids: Sequence[str],
    matrix: np.ndarray,
) -> None:
    """Store one batch (already checked by `as_matrix`) and bump the space's generation."""
    dim = int(matrix.shape[1])
    known_dim = space_dim(conn, embedder_id)
    if known_dim is not None and known_dim != dim:
        raise ValueError(
            f"Embedder '{embedder_id}' stores {known_dim}-dimensional vectors, not {dim}. "
            "A different model or dimension needs its own embedder id."
        )
    missing = set(chunk_ids) - existing_chunk_ids(conn, deal_id, chunk_ids)
    if missing:
        raise ValueError(
            f"Deal '{deal_id}' has no chunks {sorted(missing)[:5]} "
            f"({len(missing)} missing); add the chunks before their vectors."
        )
    (generation,) = conn.execute(
        "INSERT INTO vector_spaces (deal_id, embedder_id, dim, generation) VALUES (?, ?, ?, 1) "
        "ON CONFLICT (deal_id, embedder_id) DO UPDATE SET generation = generation + 1 "
        "RETURNING generation",
        (deal_id, embedder_id, dim),
    ).fetchone()
    conn.executemany(
        "INSERT INTO chunk_vectors (deal_id, embedder_id, chunk_id, dim, generation, vector) "
        "VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (deal_id, embedder_id, chunk_id) DO UPDATE SET dim = excluded.dim, "
        "generation = excluded.generation, vector = excluded.vector",
        [
            (deal_id, embedder_id, chunk_id, dim, generation, row.tobytes())
            for chunk_id, row in zip(chunk_ids, matrix, strict=True)
        ],
    )


def embedded_chunk_ids(conn: sqlite3.Connection, deal_id: str, embedder_id: str) -> set[str]:
    rows = conn.execute(
        "SELECT chunk_id FROM chunk_vectors WHERE deal_id = ? AND embedder_id = ?",
        (deal_id, embedder_id),
    ).fetchall()
    return {chunk_id for (chunk_id,) in rows}


class VectorCache:
    """Per-(deal, embedder) matrices; only ever used from the store's connection thread."""

    def __init__(self) -> None:
        self._spaces: dict[tuple[str, str], _Space] = {}

    def clear(self) -> None:
        self._spaces.clear()

    def search(
        self,
        conn: sqlite3.Connection,
        deal_id: str,
        embedder_id: str,
        query: np.ndarray,
        k: int,
    ) -> list[ScoredId]:
        space = self._current(conn, deal_id, embedder_id)
        if space is None or k <= 0 or not space.ids:
            return []
        vector = np.asarray(query, dtype=np.float32).reshape(-1)
        if vector.shape[0] != space.dim:
            raise ValueError(
                f"The query vector has {vector.shape[0]} dimensions but embedder "
                f"'{embedder_id}' stores {space.dim}; embed the query with the same embedder."
            )
        scores = space.matrix @ normalised(vector)
        hidden = unfinished_chunk_ids(conn, deal_id)
        n = len(space.ids)
        want = min(k + len(hidden), n)
        top = np.argpartition(scores, n - want)[n - want :] if want < n else np.arange(n)
        top = top[np.argsort(-scores[top], kind="stable")]
        found = [ScoredId(id=space.ids[i], score=float(scores[i])) for i in top]
        return [s for s in found if s.id not in hidden][:k]

    def _current(self, conn: sqlite3.Connection, deal_id: str, embedder_id: str) -> _Space | None:
        """The cached space brought up to the stored generation, or None if it has no vectors."""
        row = conn.execute(
            "SELECT dim, generation FROM vector_spaces WHERE deal_id = ? AND embedder_id = ?",
            (deal_id, embedder_id),
        ).fetchone()
        key = (deal_id, embedder_id)
        if row is None:
            self._spaces.pop(key, None)
            return None
        dim, generation = int(row[0]), int(row[1])
        space = self._spaces.get(key)
        if space is None or space.dim != dim or space.generation > generation:
            space = _Space(dim=dim, matrix=np.empty((0, dim), dtype=np.float32))
            self._spaces[key] = space
        if space.generation < generation:
            self._load_since(conn, deal_id, embedder_id, space)
            space.generation = generation
        return space

    @staticmethod
    def _load_since(
        conn: sqlite3.Connection, deal_id: str, embedder_id: str, space: _Space
    ) -> None:
        rows = conn.execute(
            "SELECT chunk_id, vector FROM chunk_vectors "
            "WHERE deal_id = ? AND embedder_id = ? AND generation > ?",
            (deal_id, embedder_id, space.generation),
        ).fetchall()
        if not rows:
            return
        loaded = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32)
        loaded = loaded.reshape(len(rows), space.dim)
        fresh: list[int] = []
        for position, (chunk_id, _) in enumerate(rows):
            existing = space.row_of.get(chunk_id)
            if existing is None:
                space.row_of[chunk_id] = len(space.ids)
                space.ids.append(chunk_id)
                fresh.append(position)
            else:
                space.matrix[existing] = loaded[position]
        if fresh:
            space.matrix = np.concatenate([space.matrix, loaded[fresh]])
