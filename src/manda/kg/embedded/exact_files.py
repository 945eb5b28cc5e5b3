"""The exact dense space of a deal saved beside the database, so a restarted process skips the read.

Below `MANDA_ANN_MIN_VECTORS` a deal's vectors are searched exactly, from one float32 matrix
read out of SQLite on the process's first search: ~30 MB and most of a second for a 10,000-page
room (20,000 vectors) on this project's machine. The matrix is saved as an `.npy` file (and its
row ids beside it) stamped with the generation it reflects, in the folder of the IVF files
(`MANDA_HOME/vector-index/<database id>/`); a process loads the newest one no newer than what it
reads — memory-mapped, so workers share its pages — and reads from SQLite only the rows written
since. The ids are published first and the matrix last, each renamed into place whole, so a
half-written snapshot is never found; one whose files disagree is ignored (and rebuilt).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
from pathlib import Path

import numpy as np

from manda.private import private_dir

log = logging.getLogger(__name__)

MIN_ROWS = 2_000  # a smaller matrix is read from SQLite in a blink: not worth a file
SAVE_SHARE = 0.1  # saved again once this share of its rows changed since the last save


def _stem(deal_id: str, embedder_id: str) -> str:
    return hashlib.sha256(f"exact\0{deal_id}\0{embedder_id}".encode()).hexdigest()[:24]


def _snapshots(folder: Path, deal_id: str, embedder_id: str) -> list[tuple[int, Path]]:
    """(generation, matrix path) of this space's saved snapshots, newest first."""
    stem = _stem(deal_id, embedder_id)
    found: list[tuple[int, Path]] = []
    if not folder.is_dir():
        return found
    for path in folder.glob(f"{stem}.g*.npy"):
        with contextlib.suppress(ValueError):
            found.append((int(path.name[len(stem) + 2 : -len(".npy")]), path))
    return sorted(found, reverse=True)


def load(folder: Path, deal_id: str, embedder_id: str, dim: int, generation: int
         ) -> tuple[int, list[str], np.ndarray] | None:
    """(its generation, row ids, memory-mapped matrix) of the newest snapshot no newer than
    `generation`, or None."""
    for saved, path in _snapshots(folder, deal_id, embedder_id):
        if saved > generation:
            continue  # written against a newer state than the one this process reads
        try:
            matrix = np.load(path, mmap_mode="r")
            ids = path.with_suffix(".ids").read_text(encoding="utf-8").split("\n")
        except (OSError, ValueError) as exc:
            log.warning("Ignoring the damaged saved vectors %s (%s).", path, exc)
            continue
        if matrix.dtype != np.float32 or matrix.ndim != 2 or matrix.shape != (len(ids), dim):
            log.warning("Ignoring the saved vectors %s: they do not match their row ids.", path)
            continue
        return saved, ids, matrix
    return None


def save(folder: Path, deal_id: str, embedder_id: str, generation: int, ids: list[str],
         matrix: np.ndarray) -> bool:
    """Publish the space as it stands at `generation` (ids, then matrix), drop older ones."""
    private_dir(folder.parent)
    private_dir(folder)
    stem = _stem(deal_id, embedder_id)
    target = folder / f"{stem}.g{generation}.npy"
    partial = folder / f".{stem}.{os.getpid()}"
    try:
        partial.with_suffix(".ids").write_text("\n".join(ids), encoding="utf-8")
        os.chmod(partial.with_suffix(".ids"), 0o600)
        os.replace(partial.with_suffix(".ids"), target.with_suffix(".ids"))
        with open(partial.with_suffix(".npy"), "wb") as out:
            np.save(out, np.ascontiguousarray(matrix, dtype=np.float32))
        os.chmod(partial.with_suffix(".npy"), 0o600)
        os.replace(partial.with_suffix(".npy"), target)
    except OSError as exc:
        log.warning("Could not save the vectors of deal %s to %s (%s); each process reads them "
                    "from the database instead. Check that the folder is writable.",
                    deal_id, folder, exc)
        for leftover in (partial.with_suffix(".ids"), partial.with_suffix(".npy")):
            with contextlib.suppress(OSError):
                leftover.unlink()
        return False
    for saved, old in _snapshots(folder, deal_id, embedder_id):
        if saved < generation:
            for path in (old, old.with_suffix(".ids")):
                with contextlib.suppress(OSError):
                    path.unlink()
    return True
