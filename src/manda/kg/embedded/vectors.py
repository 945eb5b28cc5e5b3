"""Cosine search over one deal's vectors: an exact numpy matrix, or past a crossover an IVF index.

SQLite keeps the vectors (float32 blobs, one row per chunk and embedder) and is the truth. Search
keeps, per (deal, embedder), either an (n, dim) matrix of L2-normalised rows and its id list,
scored with one matrix-vector product and `argpartition` (exact), or, from `ann_min_vectors`
rows on, an approximate index (`ivf.py`) whose candidates are re-scored exactly. Each write of
vectors bumps the `generation` of its (deal, embedder) row in the same transaction, and tags the
rows it wrote with that number (a deleted row leaves a `vector_removals` row with it); before
every search the cache compares generations (one indexed lookup) and applies only what changed
since, so vectors written or removed by another process are seen on the next search.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from manda.kg.embedded import exact_files, ivf
from manda.kg.embedded.records import existing_chunk_ids
from manda.kg.embedded.sql import batched, marks
from manda.kg.port import ScoredId

log = logging.getLogger(__name__)

DenseEngine = Literal["auto", "exact", "ivf"]

# Below this many vectors in a space, exact numpy is at least as fast as the approximate index
# and needs no training (measured: `bench/channel_bench.py`, README "Performance").
ANN_MIN_VECTORS = 50_000


@dataclass(frozen=True)
class DenseOptions:
    """How the dense channel searches: `auto` (exact below `ann_min_vectors`, IVF above),
    `exact` always, or `ivf` always; IVF index files are saved in `index_dir` when given."""

    engine: DenseEngine = "auto"
    ann_min_vectors: int = ANN_MIN_VECTORS
    index_dir: Path | None = None

    def describe(self) -> tuple[str, str, str]:
        """(engine, detail, problem) for `manda doctor`: what searches, from when, what is wrong."""
        version = ivf.engine_version()
        if self.engine == "exact":
            return "numpy exact", "every deal scanned exactly (MANDA_DENSE_ENGINE=exact)", ""
        missing = "" if version else "faiss-cpu is not installed: `pip install faiss-cpu`"
        above = "every deal" if self.engine == "ivf" else (
            f"numpy exact below {self.ann_min_vectors:,} vectors a deal, {ivf.ENGINE} from there"
        )
        where = f"; index files in {self.index_dir}" if self.index_dir else ""
        engine = f"faiss {version}" if version else "faiss (missing)"
        label = engine if self.engine == "ivf" else f"numpy exact + {engine}"
        return label, f"{above}{where}", missing


@functools.cache
def _one_blas_thread() -> None:
    """The exact product on one BLAS thread, process-wide, once: OpenBLAS's threads spin on a
    busy 2-core machine (20,000 × 384 at load 14: 71 ms on its threads, 16.5 ms on one), as
    faiss's do (`ivf.py`); one query's product is too small to share."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def unfinished_chunks(conn: sqlite3.Connection, deal_id: str) -> dict[int, str]:
    """{rowid: chunk id} of the chunks of documents whose ingestion has not completed: never
    searched (usually none)."""
    # Documents first (CROSS JOIN fixes the order): the few unfinished ones, then their chunks
    # by index. Scanning the deal's chunks instead cost ~50 ms a search at 100k chunks.
    rows = conn.execute(
        "SELECT c.rowid, c.id FROM documents AS d CROSS JOIN chunks AS c "
        "ON c.deal_id = d.deal_id AND c.document_id = d.id "
        "WHERE d.deal_id = ? AND d.status != 'completed'",
        (deal_id,),
    ).fetchall()
    return {rowid: chunk_id for rowid, chunk_id in rows}


@dataclass
class _Space:
    """The cached matrix of one (deal, embedder): rows in `ids` order, up to `generation`."""

    dim: int
    generation: int = 0
    ids: list[str] = field(default_factory=list)
    row_of: dict[str, int] = field(default_factory=dict)
    matrix: np.ndarray = field(default_factory=lambda: np.empty((0, 0), dtype=np.float32))
    saved_generation: int = 0  # of the snapshot on disk it matches (`exact_files`), 0: none
    changed_since_save: int = 0  # rows read from SQLite since that snapshot


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


def read_vectors(conn: sqlite3.Connection, deal_id: str, embedder_id: str,
                 chunk_ids: Sequence[str]) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    ids = list(dict.fromkeys(chunk_ids))
    for start in range(0, len(ids), 500):  # SQLite's bound-parameter limit
        batch = ids[start:start + 500]
        marks = ",".join("?" * len(batch))
        rows = conn.execute(
            f"SELECT chunk_id, vector FROM chunk_vectors WHERE deal_id = ? AND embedder_id = ? "
            f"AND chunk_id IN ({marks})", (deal_id, embedder_id, *batch))
        for chunk_id, blob in rows:
            out[chunk_id] = np.frombuffer(blob, dtype=np.float32)
    return out


def embedded_chunk_ids(conn: sqlite3.Connection, deal_id: str, embedder_id: str) -> set[str]:
    rows = conn.execute(
        "SELECT chunk_id FROM chunk_vectors WHERE deal_id = ? AND embedder_id = ?",
        (deal_id, embedder_id),
    ).fetchall()
    return {chunk_id for (chunk_id,) in rows}


class VectorCache:
    """Per-(deal, embedder) exact matrices or IVF indexes; only used from the store's thread."""

    def __init__(self, options: DenseOptions | None = None) -> None:
        self.options = options or DenseOptions()
        self._spaces: dict[tuple[str, str], _Space | ivf.IvfSpace] = {}

    def clear(self) -> None:
        self._spaces.clear()

    def engine_of(self, deal_id: str, embedder_id: str) -> str | None:
        """Which engine serves this space in this process (None before its first search)."""
        space = self._spaces.get((deal_id, embedder_id))
        if space is None:
            return None
        return ivf.ENGINE if isinstance(space, ivf.IvfSpace) else "numpy exact"

    def warm(self, conn: sqlite3.Connection, deal_id: str, embedder_id: str) -> int:
        """Load (or build) the space now, before its first query; how many vectors it holds."""
        space = self._current(conn, deal_id, embedder_id)
        if space is None:
            return 0
        return space.size if isinstance(space, ivf.IvfSpace) else len(space.ids)

    def search(
        self,
        conn: sqlite3.Connection,
        deal_id: str,
        embedder_id: str,
        query: np.ndarray,
        k: int,
    ) -> list[ScoredId]:
        space = self._current(conn, deal_id, embedder_id)
        if space is None or k <= 0:
            return []
        vector = np.asarray(query, dtype=np.float32).reshape(-1)
        if vector.shape[0] != space.dim:
            raise ValueError(
                f"The query vector has {vector.shape[0]} dimensions but embedder "
                f"'{embedder_id}' stores {space.dim}; embed the query with the same embedder."
            )
        hidden = unfinished_chunks(conn, deal_id)
        if isinstance(space, ivf.IvfSpace):
            return self._approximate(conn, deal_id, embedder_id, space, normalised(vector), k,
                                     hidden)
        if not space.ids:
            return []
        _one_blas_thread()
        scores = space.matrix @ normalised(vector)
        hidden_ids = set(hidden.values())
        n = len(space.ids)
        want = min(k + len(hidden_ids), n)
        top = np.argpartition(scores, n - want)[n - want :] if want < n else np.arange(n)
        top = top[np.argsort(-scores[top], kind="stable")]
        found = [ScoredId(id=space.ids[i], score=float(scores[i])) for i in top]
        return [s for s in found if s.id not in hidden_ids][:k]

    @staticmethod
    def _approximate(
        conn: sqlite3.Connection,
        deal_id: str,
        embedder_id: str,
        space: ivf.IvfSpace,
        vector: np.ndarray,
        k: int,
        hidden: dict[int, str],
    ) -> list[ScoredId]:
        """IVF candidates (never hidden ones), re-scored with their float32 rows from SQLite."""
        keys = space.search(vector, k, list(hidden))
        hidden_ids = set(hidden.values())
        scored: list[ScoredId] = []
        for batch in batched(keys):
            rows = conn.execute(
                "SELECT c.id, v.vector FROM chunks AS c JOIN chunk_vectors AS v "
                "ON v.deal_id = c.deal_id AND v.chunk_id = c.id AND v.embedder_id = ? "
                # `+c.deal_id`: rows looked up by rowid, never by scanning the deal's index
                f"WHERE c.rowid IN ({marks(len(batch))}) AND +c.deal_id = ?",
                (embedder_id, *batch, deal_id),
            ).fetchall()
            if not rows:
                continue
            matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
            scores = normalised(matrix.reshape(len(rows), space.dim)) @ vector
            scored += [
                ScoredId(id=chunk_id, score=float(score))
                for (chunk_id, _), score in zip(rows, scores, strict=True)
                if chunk_id not in hidden_ids
            ]
        scored.sort(key=lambda s: (-s.score, s.id))
        return scored[:k]

    def _current(
        self, conn: sqlite3.Connection, deal_id: str, embedder_id: str
    ) -> _Space | ivf.IvfSpace | None:
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
        if space is not None and (space.dim != dim or space.generation > generation):
            space = None  # another database state (restored file, new dimension): start over
        if isinstance(space, ivf.IvfSpace):
            if space.generation < generation:
                ivf.catch_up(conn, space, deal_id, embedder_id, generation)
                if space.stale():
                    space = ivf.build(conn, deal_id, embedder_id, dim, generation,
                                      _row_count(conn, deal_id, embedder_id))
                self._maybe_save(conn, deal_id, embedder_id, space)
        elif space is None or space.generation < generation:
            space = self._exact_or_approximate(conn, deal_id, embedder_id, dim, generation, space)
        self._spaces[key] = space
        return space

    def _exact_or_approximate(
        self,
        conn: sqlite3.Connection,
        deal_id: str,
        embedder_id: str,
        dim: int,
        generation: int,
        space: _Space | None,
    ) -> _Space | ivf.IvfSpace:
        """Catch an exact space up, or switch to (load or build) the IVF index when it is large."""
        engine, threshold = self.options.engine, self.options.ann_min_vectors
        if space is not None and _has_removals(conn, deal_id, embedder_id, space.generation):
            space = None  # rows left the space: reload the matrix (removals are rare)
        if engine == "ivf" or (engine == "auto" and space is None):
            rows = _row_count(conn, deal_id, embedder_id)
            if rows > 0 and (engine == "ivf" or rows >= threshold):
                return self._approximate_space(conn, deal_id, embedder_id, dim, generation, rows)
        if space is None:
            space = self._saved_exact(conn, deal_id, embedder_id, dim, generation)
        if space is None:
            space = _Space(dim=dim, matrix=np.empty((0, dim), dtype=np.float32))
        self._load_since(conn, deal_id, embedder_id, space)
        space.generation = generation
        grown = engine == "ivf" or (engine == "auto" and len(space.ids) >= threshold)
        if space.ids and grown:  # past the crossover now (or IVF asked for and rows arrived)
            return self._approximate_space(
                conn, deal_id, embedder_id, dim, generation, len(space.ids)
            )
        self._maybe_save_exact(conn, deal_id, embedder_id, space)
        return space

    def _saved_exact(
        self, conn: sqlite3.Connection, deal_id: str, embedder_id: str, dim: int, generation: int
    ) -> _Space | None:
        """The space as saved by a process before (memory-mapped), unless rows left it since."""
        folder = self._folder(conn)
        found = exact_files.load(folder, deal_id, embedder_id, dim, generation) if folder else None
        if found is None:
            return None
        saved, ids, matrix = found
        if _has_removals(conn, deal_id, embedder_id, saved):
            return None  # rows left the space after it was saved: read it whole
        return _Space(dim=dim, generation=saved, ids=ids, matrix=matrix,
                      row_of={chunk_id: row for row, chunk_id in enumerate(ids)},
                      saved_generation=saved)

    def _maybe_save_exact(
        self, conn: sqlite3.Connection, deal_id: str, embedder_id: str, space: _Space
    ) -> None:
        folder = self._folder(conn)
        rows = len(space.ids)
        if folder is None or rows < exact_files.MIN_ROWS:
            return
        if space.saved_generation and space.changed_since_save < exact_files.SAVE_SHARE * rows:
            return
        if exact_files.save(folder, deal_id, embedder_id, space.generation, space.ids,
                            space.matrix):
            space.saved_generation = space.generation
            space.changed_since_save = 0

    def _approximate_space(
        self,
        conn: sqlite3.Connection,
        deal_id: str,
        embedder_id: str,
        dim: int,
        generation: int,
        rows: int,
    ) -> ivf.IvfSpace:
        """The saved index caught up from SQLite, or one built now (and saved for others)."""
        folder = self._folder(conn)
        space = ivf.load(folder, deal_id, embedder_id, dim, generation) if folder else None
        if space is not None and space.generation < generation:
            ivf.catch_up(conn, space, deal_id, embedder_id, generation)
        if space is not None and space.size != rows:  # e.g. a database restored from a backup
            log.warning("The saved vector index of deal %s holds %d vectors, SQLite %d; "
                        "building it again.", deal_id, space.size, rows)
            space = None
        if space is None or space.stale():
            log.info("Building the %s of deal %s (%s, %d vectors).", ivf.ENGINE, deal_id,
                     embedder_id, rows)
            space = ivf.build(conn, deal_id, embedder_id, dim, generation, rows)
        self._maybe_save(conn, deal_id, embedder_id, space)
        return space

    def _folder(self, conn: sqlite3.Connection) -> Path | None:
        """This database's folder of index files (its store id keeps other databases' apart)."""
        if self.options.index_dir is None:
            return None
        return self.options.index_dir / ivf.store_id(conn)

    def _maybe_save(
        self, conn: sqlite3.Connection, deal_id: str, embedder_id: str, space: ivf.IvfSpace
    ) -> None:
        folder = self._folder(conn)
        if folder is not None and ivf.worth_saving(space):
            ivf.save(folder, deal_id, embedder_id, space)

    @staticmethod
    def _load_since(
        conn: sqlite3.Connection, deal_id: str, embedder_id: str, space: _Space
    ) -> None:
        """Append new rows and overwrite rewritten ones, reading SQLite in batches (a 1M-row
        space as one `fetchall` held its blobs three times over: ~4.5 GB)."""
        cursor = conn.execute(
            "SELECT chunk_id, vector FROM chunk_vectors "
            "WHERE deal_id = ? AND embedder_id = ? AND generation > ?",
            (deal_id, embedder_id, space.generation),
        )
        parts: list[np.ndarray] = []
        while rows := cursor.fetchmany(ivf.LOAD_BATCH):
            loaded = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32)
            loaded = loaded.reshape(len(rows), space.dim)
            space.changed_since_save += len(rows)
            fresh: list[int] = []
            for position, (chunk_id, _) in enumerate(rows):
                existing = space.row_of.get(chunk_id)
                if existing is None:
                    space.row_of[chunk_id] = len(space.ids)
                    space.ids.append(chunk_id)
                    fresh.append(position)
                else:  # rewritten (a chunk id appears once per load: it is the primary key)
                    if not space.matrix.flags.writeable:  # the saved snapshot, mapped
                        space.matrix = np.array(space.matrix)
                    space.matrix[existing] = loaded[position]
            if fresh:
                parts.append(loaded[fresh] if len(fresh) < len(rows) else loaded.copy())
        if parts:
            space.matrix = np.concatenate([space.matrix, *parts])


def _row_count(conn: sqlite3.Connection, deal_id: str, embedder_id: str) -> int:
    (count,) = conn.execute(
        "SELECT count(*) FROM chunk_vectors WHERE deal_id = ? AND embedder_id = ?",
        (deal_id, embedder_id),
    ).fetchone()
    return int(count)


def _has_removals(conn: sqlite3.Connection, deal_id: str, embedder_id: str, since: int) -> bool:
    return conn.execute(
        "SELECT 1 FROM vector_removals WHERE deal_id = ? AND embedder_id = ? AND generation > ? "
        "LIMIT 1",
        (deal_id, embedder_id, since),
    ).fetchone() is not None
