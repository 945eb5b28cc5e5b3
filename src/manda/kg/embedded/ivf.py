"""An approximate dense index (faiss IVF, 8-bit scalar-quantised) for deals too large to scan.

Exact numpy scans every row: ~10 ms a query at 100k vectors and ~10× that at 1M, with the matrix
(1.5 GB at 1M × 384 float32) held by every process. Past a measured crossover the cache keeps
this instead (see `bench/channel_bench.py` for the engines measured and why IVF won on a 2-core
machine: an HNSW graph of 1M vectors took tens of minutes to build here, IVF about a minute).

- Keys are the chunks' SQLite rowids (stable: the FTS5 index relies on them too), so the index
  holds no chunk ids and a hit is resolved by primary key.
- Vectors are stored as 8 bits a dimension (a quarter of float32); candidates (twice what is
  asked) are re-scored with the float32 vectors from SQLite, so scores are exact cosines and the
  order among candidates is exact.
- The index reflects SQLite up to a `generation`; it is written to a file stamped with that
  generation and the store's id, so another process (a second `manda serve` worker) or the next
  start loads it and catches up from SQLite instead of training again.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from manda.errors import MandaError
from manda.kg.embedded.sql import batched, marks
from manda.private import private_dir

log = logging.getLogger(__name__)

ENGINE = "faiss IVF (8-bit scalar quantiser)"
LOAD_BATCH = 50_000  # rows read from SQLite and added to the index at a time
TRAIN_PER_LIST = 40  # training vectors per inverted list (k-means sample size)
RESCORE = 2  # candidates fetched per asked-for result, re-scored exactly
REBUILD_GROWTH = 4  # retrain when the space has grown this many times since training
SAVE_SHARE = 0.05  # save the file again once this share of rows changed since it was saved


def faiss_module() -> Any:
    """faiss, imported only when a deal is large enough to need it (it takes ~0.5 s)."""
    try:
        import faiss
    except ImportError as exc:
        raise MandaError(
            "A deal has grown past the size where its dense search needs faiss, which is not "
            f"installed ({exc}).",
            hint="Install it (`pip install faiss-cpu`, a Manda dependency), or set "
            "MANDA_DENSE_ENGINE=exact to scan every deal exactly (slower past ~50k chunks).",
        ) from exc
    return faiss


def engine_version() -> str | None:
    """The installed faiss version, or None when it is not installed."""
    try:
        return str(faiss_module().__version__)
    except MandaError:
        return None


def list_count(rows: int) -> int:
    """Inverted lists for `rows` vectors: ~√n (so a probe of a few percent scans ~√n·probe rows),
    and at least 8 training vectors a list in tiny spaces."""
    return max(1, min(round(math.sqrt(rows)), rows // 8))


def probe_count(lists: int) -> int:
    """Lists visited per query: 1/16 of them, at least 16 (recall@60 ≥ 0.99 on the bench)."""
    return min(lists, max(16, lists // 16))


@dataclass
class IvfSpace:
    """The index of one (deal, embedder), reflecting SQLite up to `generation`."""

    dim: int
    index: Any
    generation: int
    trained_rows: int
    saved_generation: int = 0
    changed_since_save: int = 0

    @property
    def size(self) -> int:
        return int(self.index.ntotal)

    def search(self, query: np.ndarray, want: int, hidden_keys: list[int]) -> list[int]:
        """Keys of about `RESCORE * want` nearest candidates, hidden keys never among them."""
        faiss = faiss_module()
        faiss.omp_set_num_threads(1)  # one query: threads only add spinning on a shared machine
        nprobe = probe_count(int(self.index.nlist))
        params = faiss.SearchParametersIVF(nprobe=nprobe)
        if hidden_keys:  # `hidden` stays referenced until the search returns
            hidden = faiss.IDSelectorBatch(np.asarray(hidden_keys, dtype=np.int64))
            params = faiss.SearchParametersIVF(nprobe=nprobe, sel=faiss.IDSelectorNot(hidden))
        _, keys = self.index.search(query.reshape(1, -1), RESCORE * want, params=params)
        return [int(key) for key in keys[0] if key >= 0]

    def remove(self, keys: np.ndarray) -> None:
        if len(keys):
            faiss = faiss_module()
            self.index.remove_ids(faiss.IDSelectorBatch(keys.astype(np.int64)))

    def add(self, keys: np.ndarray, vectors: np.ndarray) -> None:
        self.index.add_with_ids(vectors, keys.astype(np.int64))

    def stale(self) -> bool:
        """True when the space outgrew its training (lists too long): build it again."""
        return self.size > REBUILD_GROWTH * max(self.trained_rows, 1)


def vector_rows(
    conn: sqlite3.Connection, deal_id: str, embedder_id: str, since: int, dim: int
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(chunk rowids, float32 vectors) written after generation `since`, in batches."""
    cursor = conn.execute(
        "SELECT c.rowid, v.vector FROM chunk_vectors AS v "
        "JOIN chunks AS c ON c.deal_id = v.deal_id AND c.id = v.chunk_id "
        "WHERE v.deal_id = ? AND v.embedder_id = ? AND v.generation > ?",
        (deal_id, embedder_id, since),
    )
    while rows := cursor.fetchmany(LOAD_BATCH):
        keys = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        vectors = np.frombuffer(b"".join(row[1] for row in rows), dtype=np.float32)
        yield keys, vectors.reshape(len(rows), dim)


def removed_keys(
    conn: sqlite3.Connection, deal_id: str, embedder_id: str, since: int
) -> np.ndarray:
    rows = conn.execute(
        "SELECT chunk_rowid FROM vector_removals "
        "WHERE deal_id = ? AND embedder_id = ? AND generation > ?",
        (deal_id, embedder_id, since),
    ).fetchall()
    return np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))


def build(
    conn: sqlite3.Connection, deal_id: str, embedder_id: str, dim: int, generation: int, rows: int
) -> IvfSpace:
    """Train on an even sample of the space's vectors and add every one of them."""
    faiss = faiss_module()
    faiss.omp_set_num_threads(1)  # OpenMP threads spin on a busy 2-core machine: 3× slower
    lists = list_count(rows)
    sample = _training_sample(conn, deal_id, embedder_id, dim, lists * TRAIN_PER_LIST, rows)
    quantiser = faiss.IndexFlatIP(dim)
    index = faiss.IndexIVFScalarQuantizer(
        quantiser, dim, lists, faiss.ScalarQuantizer.QT_8bit, faiss.METRIC_INNER_PRODUCT
    )
    index.cp.niter = 10  # k-means iterations: recall on the bench is unchanged from 25
    index.train(sample)
    space = IvfSpace(dim=dim, index=index, generation=0, trained_rows=rows)
    for keys, vectors in vector_rows(conn, deal_id, embedder_id, 0, dim):
        space.add(keys, vectors)
    space.generation = generation
    return space


def _training_sample(
    conn: sqlite3.Connection, deal_id: str, embedder_id: str, dim: int, want: int, rows: int
) -> np.ndarray:
    """About `want` vectors spread over the whole space: every n-th row, read by rowid."""
    rowids = [
        row[0]
        for row in conn.execute(
            "SELECT rowid FROM chunk_vectors WHERE deal_id = ? AND embedder_id = ?",
            (deal_id, embedder_id),
        )
    ]
    picked = rowids[:: max(1, rows // max(want, 1))]
    blobs: list[bytes] = []
    for batch in batched(picked):
        blobs += [
            row[0]
            for row in conn.execute(
                f"SELECT vector FROM chunk_vectors WHERE rowid IN ({marks(len(batch))})", batch
            )
        ]
    return np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), dim).copy()


def catch_up(
    conn: sqlite3.Connection, space: IvfSpace, deal_id: str, embedder_id: str, generation: int
) -> None:
    """Apply what SQLite holds after the space's generation: removals, then (re)written rows."""
    changed = 0
    gone = removed_keys(conn, deal_id, embedder_id, space.generation)
    space.remove(gone)
    changed += len(gone)
    for keys, vectors in vector_rows(conn, deal_id, embedder_id, space.generation, space.dim):
        space.remove(keys)  # a rewritten vector replaces its old row (IVF keeps duplicates)
        space.add(keys, vectors)
        changed += len(keys)
    space.generation = generation
    space.changed_since_save += changed


# ---------------------------------------------------------------- the file beside the database


def store_id(conn: sqlite3.Connection) -> str:
    """The id this database file was created with: index files of another database never match."""
    row = conn.execute("SELECT value FROM store_meta WHERE key = 'store_id'").fetchone()
    return str(row[0]) if row else "unknown"


def _stem(deal_id: str, embedder_id: str) -> str:
    return hashlib.sha256(f"{deal_id}\0{embedder_id}".encode()).hexdigest()[:24]


def _files(folder: Path, deal_id: str, embedder_id: str) -> list[tuple[int, Path]]:
    """(generation, path) of this space's saved index files, newest first."""
    found: list[tuple[int, Path]] = []
    stem = _stem(deal_id, embedder_id)
    if not folder.is_dir():
        return found
    for path in folder.glob(f"{stem}.g*.faiss"):
        with contextlib.suppress(ValueError):
            found.append((int(path.name[len(stem) + 2 : -len(".faiss")]), path))
    return sorted(found, reverse=True)


def load(
    folder: Path, deal_id: str, embedder_id: str, dim: int, generation: int
) -> IvfSpace | None:
    """The newest saved index no newer than `generation`, or None (a damaged file is logged)."""
    for saved, path in _files(folder, deal_id, embedder_id):
        if saved > generation:
            continue  # written against a newer state than this snapshot
        try:
            index = faiss_module().read_index(str(path))
        except RuntimeError as exc:
            log.warning("Ignoring the damaged vector index %s (%s); building it again.", path, exc)
            continue
        if index.d != dim:
            continue
        return IvfSpace(
            dim=dim,
            index=index,
            generation=saved,
            trained_rows=int(index.ntotal),
            saved_generation=saved,
        )
    return None


def save(folder: Path, deal_id: str, embedder_id: str, space: IvfSpace) -> None:
    """Write the index stamped with its generation (atomically), then drop older files."""
    private_dir(folder.parent)  # MANDA_HOME/vector-index, then this database's folder in it
    private_dir(folder)
    stem = _stem(deal_id, embedder_id)
    path = folder / f"{stem}.g{space.generation}.faiss"
    partial = folder / f".{stem}.{os.getpid()}.partial"
    try:
        faiss_module().write_index(space.index, str(partial))
        os.chmod(partial, 0o600)
        os.replace(partial, path)
    except (OSError, RuntimeError) as exc:
        log.warning(
            "Could not save the vector index to %s (%s); this process keeps it in memory and "
            "others build their own. Check that the folder is writable.", path, exc,
        )
        with contextlib.suppress(OSError):
            partial.unlink()
        return
    space.saved_generation = space.generation
    space.changed_since_save = 0
    for saved, old in _files(folder, deal_id, embedder_id):
        if saved < space.generation:
            with contextlib.suppress(OSError):
                old.unlink()


def worth_saving(space: IvfSpace) -> bool:
    return space.saved_generation == 0 or space.changed_since_save >= SAVE_SHARE * max(
        space.size, 1
    )
