"""Really ingested rooms for the search benches: the generated room ingested through Manda, and
larger rooms made from it.

`ingested_home(keep, 10_000)` generates the 10,000-page room of `ingest_bench.py` and ingests it
with the configured embedder into `keep/ingested-10000/home` (deal `room`; about half an hour on
a quiet 2-core machine, an hour or more on a busy one), once. A larger multiple of it
(`ingested_home(keep, 100_000)`) is not ingested again — ten times that ingestion is impractical
here — but copied: its documents, chunks, findings, relations and vectors, each copy under ids of
its own (`…r1` … `…r9`) and its documents under names of their own, written straight into a copy
of the database, so the store holds 10× the passages and findings exactly as ingestion wrote them.
The keyword and IVF indexes are then built on the first search, as for any store.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

DEAL = "room"
BASE_PAGES = 10_000


def home_of(keep: Path, pages: int) -> Path:
    return keep / f"ingested-{pages}" / "home"


def ingested_home(keep: Path, pages: int) -> Path:
    """The home of a room of `pages` pages (a multiple of 10,000), built once and reused."""
    if pages % BASE_PAGES:
        raise SystemExit(f"--rooms takes multiples of {BASE_PAGES:,} pages, not {pages:,}")
    home = home_of(keep, pages)
    if (home / "manda.db").exists():
        return home
    base = home_of(keep, BASE_PAGES)
    if not (base / "manda.db").exists():
        asyncio.run(_ingest(keep, base))
    if pages > BASE_PAGES:
        replicate(base, home, pages // BASE_PAGES)
    return home


async def _ingest(keep: Path, home: Path) -> None:
    from _rooms import make_room

    from manda.app import Manda
    from manda.config import Settings

    room = make_room(keep / f"ingested-{BASE_PAGES}" / "room", pages=BASE_PAGES)
    async with Manda(Settings(MANDA_HOME=home)) as app:
        await app.embedder.start()
        started = time.perf_counter()
        report = await app.ingest.ingest(DEAL, [room])
    print(f"ingested {report.pages:,} pages ({report.findings:,} findings) in "
          f"{time.perf_counter() - started:,.0f} s, load {os.getloadavg()[0]:.1f}", flush=True)


def replicate(source: Path, dest: Path, copies: int) -> None:
    """`dest` holds `copies` copies of the deal in `source` (the original and `copies - 1`
    more), written in SQL into a copy of its database."""
    started = time.perf_counter()
    dest.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(source / "manda.db") as src, sqlite3.connect(dest / "manda.db") as out:
        src.backup(out)
    conn = sqlite3.connect(dest / "manda.db")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TEMP TABLE originals AS SELECT id FROM documents WHERE deal_id = ?",
                 (DEAL,))
    for n in range(1, copies):
        tag = f"r{n}"
        conn.execute(
            "INSERT INTO documents SELECT deal_id, id || :t, content_hash || :t, "
            "replace(filename, '.pdf', '_' || :t || '.pdf'), status, ingested_at, "
            "json_set(data, '$.id', id || :t, '$.filename', "
            "replace(filename, '.pdf', '_' || :t || '.pdf'), '$.path', "
            "replace(filename, '.pdf', '_' || :t || '.pdf'), '$.content_hash', "
            "content_hash || :t, '$.version_family', "
            "json_extract(data, '$.version_family') || '_' || :t) "
            "FROM documents WHERE deal_id = :d AND id IN (SELECT id FROM originals)",
            {"t": tag, "d": DEAL})
        conn.execute(
            "INSERT INTO chunks (deal_id, id, document_id, ordinal, section, location, text) "
            "SELECT deal_id, id || :t, document_id || :t, ordinal, section, location, text "
            "FROM chunks WHERE deal_id = :d AND document_id IN (SELECT id FROM originals)",
            {"t": tag, "d": DEAL})
        conn.execute(
            "INSERT INTO findings SELECT deal_id, id || :t, status, subject, period, "
            "document_id || :t, chunk_id || :t, created_at, json_set(data, '$.id', id || :t, "
            "'$.document_id', document_id || :t, '$.chunk_id', chunk_id || :t) "
            "FROM findings WHERE deal_id = :d AND document_id IN (SELECT id FROM originals)",
            {"t": tag, "d": DEAL})
        conn.execute(
            "INSERT OR IGNORE INTO relations SELECT r.deal_id, r.type, r.source_id || :t, "
            "r.target_id || :t, r.ends, r.reason FROM relations r JOIN findings f "
            "ON f.deal_id = r.deal_id AND f.id = r.source_id WHERE r.deal_id = :d "
            "AND f.document_id IN (SELECT id FROM originals)",
            {"t": tag, "d": DEAL})
        conn.execute(
            "INSERT INTO chunk_vectors SELECT v.deal_id, v.embedder_id, v.chunk_id || :t, v.dim, "
            "v.generation, v.vector FROM chunk_vectors v JOIN chunks c "
            "ON c.deal_id = v.deal_id AND c.id = v.chunk_id WHERE v.deal_id = :d "
            "AND c.document_id IN (SELECT id FROM originals)",
            {"t": tag, "d": DEAL})
        conn.commit()
        print(f"  copy {n} of {copies - 1} written ({time.perf_counter() - started:,.0f} s)",
              flush=True)
    # the vectors' generation moves on, so no index saved for the smaller room is taken for it
    conn.execute("UPDATE vector_spaces SET generation = generation + 1 WHERE deal_id = ?",
                 (DEAL,))
    conn.commit()
    conn.execute("VACUUM")
    conn.close()
    for folder in ("keyword-index", "vector-index"):
        shutil.rmtree(dest / folder, ignore_errors=True)
    print(f"{copies}× room written in {time.perf_counter() - started:,.0f} s", flush=True)


def embedder_ids(home: Path) -> list[str]:
    """The embedders whose vectors the room in `home` holds."""
    conn = sqlite3.connect(home / "manda.db")
    try:
        return [row[0] for row in conn.execute(
            "SELECT DISTINCT embedder_id FROM chunk_vectors WHERE deal_id = ?", (DEAL,))]
    finally:
        conn.close()


def counts(home: Path) -> dict[str, int]:
    """Pages, chunks, findings and vectors of the room in `home`."""
    conn = sqlite3.connect(home / "manda.db")
    try:
        pages = conn.execute("SELECT COALESCE(SUM(json_extract(data, '$.units')), 0) "
                             "FROM documents WHERE deal_id = ?", (DEAL,)).fetchone()[0]
        return {
            "pages": int(pages),
            "chunks": conn.execute("SELECT COUNT(*) FROM chunks WHERE deal_id = ?",
                                   (DEAL,)).fetchone()[0],
            "findings": conn.execute("SELECT COUNT(*) FROM findings WHERE deal_id = ?",
                                     (DEAL,)).fetchone()[0],
            "vectors": conn.execute("SELECT COUNT(*) FROM chunk_vectors WHERE deal_id = ?",
                                    (DEAL,)).fetchone()[0],
        }
    finally:
        conn.close()
