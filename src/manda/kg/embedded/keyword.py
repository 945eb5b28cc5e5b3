"""BM25 keyword search for the embedded store: one tantivy index per deal, kept in step with SQLite
by a change log and saved on disk between processes (`keyword_files.py`).

Why tantivy: SQLite FTS5 took 42 of the 59 ms of a hybrid search at 100k chunks (it scores every
matching row through SQLite's virtual-table machinery); tantivy ranks a query's top k in ~0.5 ms
at 100k (`bench/channel_bench.py`; `bench/keyword_bench.py` times it through the store). SQLite
stays the truth:
- triggers on `chunks` (schema.py) log every insert, text change and delete as one row per
  (deal, chunk rowid) in `keyword_changes`, tagged with the deal's `keyword_generations` counter,
  which the same statement bumps inside the writer's transaction;
- before each search the index compares generations (one indexed lookup) and applies the rows
  changed since, read in the search's own read transaction: it only ever reflects what SQLite
  committed, and chunks committed by another process are seen on the next search;
- an index whose update fails is dropped, never trusted: the next search rebuilds it;
- with a folder (the store's `MANDA_HOME/keyword-index`), a process's first search of a deal opens
  the newest saved snapshot no newer than what it reads (memory-mapped: workers share its pages),
  applies the changes since its stamp, and checks it against SQLite (the last changes it applied
  are still SQLite's, and it holds as many chunks);
  a snapshot that is damaged, foreign or does not match is dropped with a warning and the index
  built again (once for all processes: the others wait and load it). Builds, and catch-ups of
  `PUBLISH_AFTER` changes or more, are published as new snapshots;
- hits are joined back to their chunk rows, so only this deal's completed documents are returned.

Meaning as FTS5 `porter unicode61` gave it: words split on anything not a letter or digit,
lower-cased, accents folded, English (Snowball) stems; the question is reduced by `fulltext.py`
(stop words dropped, quoted phrases kept) and the query built term by term, never parsed.
Scores are BM25, higher is better; statistics are the deal's own.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import NoReturn

import tantivy

from manda.kg.embedded.fulltext import query_phrases, query_terms
from manda.kg.embedded.ivf import store_id
from manda.kg.embedded.keyword_files import DealFolder, Stamp, WorkingCopy
from manda.kg.embedded.sql import batched, marks
from manda.kg.port import ScoredId
from manda.kg.word_families import SIBLING_BOOST, english_analyzer, stem_family

log = logging.getLogger(__name__)

ANALYZER = "manda_english"
HEAD = 2
"""How many times k hits are ranked before filtering (more are fetched only when needed)."""
TIE_BREAK = 0.002
"""Each chunk's score is multiplied by log2(2 + w), w in [0, TIE_BREAK) from a hash of its id
(at most +0.14%). tantivy stores a passage's length in one byte, so equal-length passages with
the same counts tie exactly, thousands of them for a common term; unbroken, every process would
order them by its own segment layout, or fetch them all to order them by chunk id (~30 ms at
100k). Broken by the id's hash, every process agrees and the head is fetched alone."""
BUILD_THREADS = 2  # stemming is the build's cost: 2 threads cut it ~30% on 2 cores
BUILD_HEAP_BYTES = 256_000_000  # the writers' arena for a build (split across the threads)
CATCH_UP_HEAP_BYTES = 15_000_000  # a catch-up usually writes a few hundred chunks
PUBLISH_AFTER = 1_000  # chunks changed by catch-ups before a new snapshot is published


def engine_name(folder: Path | None = None) -> str:
    """What `manda doctor` and the logs call the keyword engine."""
    where = f"an index per deal saved in {folder}" if folder else "in memory per deal"
    return f"tantivy {version('tantivy')} BM25, {where}"


@cache
def index_schema() -> tantivy.Schema:
    """A chunk's text (positions kept, for phrases) and its `chunks.rowid` as `key`."""
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("text", stored=False, tokenizer_name=ANALYZER)  # with positions
    builder.add_unsigned_field("key", stored=False, indexed=True, fast=True)  # chunks.rowid
    builder.add_float_field("tie_break", stored=False, indexed=False, fast=True)
    return builder.build()


def keyword_query(question: str) -> tantivy.Query | None:
    """An OR of the question's stemmed terms and quoted phrases; None when nothing is left.

    Terms that stem alike ("renewal", "renewals") count once; a phrase also matches as a phrase
    (its words next to each other), so a passage that has it outranks one with the words apart.
    """
    analyzer, schema = english_analyzer(), index_schema()
    stems: list[str] = []
    for term in query_terms(question):
        stems += analyzer.analyze(term)
    clauses = [(tantivy.Occur.Should, _family_query(schema, stem)) for stem in dict.fromkeys(stems)]
    for phrase in query_phrases(question):
        words = analyzer.analyze(phrase)
        if len(words) > 1:
            clauses.append(
                (tantivy.Occur.Should, tantivy.Query.phrase_query(schema, "text", words))
            )
    return tantivy.Query.boolean_query(clauses) if clauses else None


def _family_query(schema: tantivy.Schema, stem: str) -> tantivy.Query:
    """The stem's term, or, where the word has other forms, the best of them: one term."""
    term = tantivy.Query.term_query(schema, "text", stem, "freq")
    siblings = stem_family(stem)
    if not siblings:
        return term
    return tantivy.Query.disjunction_max_query([term, *(
        tantivy.Query.boost_query(tantivy.Query.term_query(schema, "text", s, "freq"),
                                  SIBLING_BOOST) for s in siblings)])


class _Mismatch(Exception):
    """A saved snapshot, caught up, does not hold what SQLite holds."""


def is_damage(exc: BaseException) -> bool:
    """True for what tantivy raises on a damaged or foreign index directory: ValueError or
    OSError, or a Rust panic (pyo3's `PanicException`, a BaseException) on a cut segment."""
    return isinstance(exc, (ValueError, OSError, _Mismatch)) or (
        type(exc).__name__ == "PanicException"
    )


@dataclass
class _DealIndex:
    """One deal's index and the generation of `keyword_generations` it reflects; on disk, its
    working copy, the generation last published from it and the chunks changed since."""

    index: tantivy.Index
    searcher: tantivy.Searcher
    generation: int
    copy: WorkingCopy | None = None
    published: int = 0
    changed: int = 0

    def discard(self) -> None:
        if self.copy is not None:
            self.copy.remove()
            self.copy = None


class KeywordIndexes:
    """Per-deal tantivy indexes, in memory or (with `folder`) saved there between processes;
    only ever used from the store's connection thread."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self._deals: dict[str, _DealIndex] = {}

    def clear(self) -> None:
        for current in self._deals.values():
            current.discard()
        self._deals.clear()

    def warm(self, conn: sqlite3.Connection, deal_id: str) -> int:
        """Bring the deal's index up to date now (before its first question); its chunk count."""
        current = self._current(conn, deal_id)
        return 0 if current is None else int(current.searcher.num_docs)

    def state(self, conn: sqlite3.Connection, deal_id: str) -> tuple[int, int | None]:
        """(the store's generation, the newest saved snapshot's generation or None)."""
        row = conn.execute(
            "SELECT generation FROM keyword_generations WHERE deal_id = ?", (deal_id,)
        ).fetchone()
        saved = None
        if self.folder is not None:
            snapshots = DealFolder(self.folder, store_id(conn), deal_id).snapshots()
            saved = snapshots[0][0] if snapshots else None
        return (int(row[0]) if row else 0), saved

    def search(
        self, conn: sqlite3.Connection, deal_id: str, question: str, k: int
    ) -> list[ScoredId]:
        """BM25 over the chunks of the deal's completed documents, best first (`TIE_BREAK`
        orders equal BM25 scores; scores still equal after it go by chunk id)."""
        query = keyword_query(question)
        if query is None or k <= 0:
            return []
        current = self._current(conn, deal_id)
        if current is None:
            return []
        limit = HEAD * k
        while True:
            try:
                hits = current.searcher.search(
                    query, limit, count=False, weight_by_field="tie_break"
                ).hits
                keys = current.searcher.fast_field_values("key", [a for _, a in hits])
            except BaseException as exc:
                if not is_damage(exc):
                    raise
                self._damaged(conn, deal_id, exc)
            kept = _kept_chunks(conn, deal_id, [(key, score) for (score, _), key in
                                                zip(hits, keys, strict=True)])
            # Every better hit was fetched when the k-th kept one beats the last fetched: a hit
            # tied with it might still be unfetched (and would sort before it by chunk id).
            if len(hits) < limit or (len(kept) >= k and kept[k - 1].score > hits[-1][0]):
                return kept[:k]
            limit *= 4

    def _current(self, conn: sqlite3.Connection, deal_id: str) -> _DealIndex | None:
        """The deal's index brought up to the committed generation; None if it has no chunks."""
        row = conn.execute(
            "SELECT generation FROM keyword_generations WHERE deal_id = ?", (deal_id,)
        ).fetchone()
        if row is None:
            self._forget(deal_id)
            return None
        generation = int(row[0])
        current = self._deals.get(deal_id)
        if current is not None and current.generation == generation:
            return current
        self._deals.pop(deal_id, None)  # until brought up to date: a failure leaves no index
        try:
            if current is None or current.generation > generation:
                if current is not None:
                    current.discard()
                current = None
                current = self._open(conn, deal_id, generation)
            else:
                _catch_up(conn, deal_id, current, generation)
                self._publish(conn, deal_id, current)
        except BaseException:
            if current is not None:
                current.discard()
            raise
        self._deals[deal_id] = current
        return current

    def _damaged(self, conn: sqlite3.Connection, deal_id: str, exc: BaseException) -> NoReturn:
        """Drop an index tantivy failed to read (and the snapshots it came from); say so."""
        self._forget(deal_id)
        if self.folder is not None:
            folder = DealFolder(self.folder, store_id(conn), deal_id)
            for _, path in folder.snapshots():
                folder.drop(path, f"searching it failed ({exc})")
        raise RuntimeError(
            f"The keyword index of deal {deal_id!r} could not be read ({exc}); it was dropped "
            "and is rebuilt from SQLite on the next search. Ask again."
        ) from None

    def _forget(self, deal_id: str) -> None:
        current = self._deals.pop(deal_id, None)
        if current is not None:
            current.discard()

    def _open(self, conn: sqlite3.Connection, deal_id: str, generation: int) -> _DealIndex:
        """The newest good snapshot caught up, else a build (once: other processes wait)."""
        if self.folder is None:
            return _build(conn, deal_id, generation, None)
        folder = DealFolder(self.folder, store_id(conn), deal_id)
        folder.sweep()
        loaded = self._load(conn, folder, generation)
        if loaded is not None:
            return loaded
        with folder.building():
            loaded = self._load(conn, folder, generation)  # published while this one waited?
            if loaded is not None:
                return loaded
            copy = folder.working_copy()
            try:
                built = _build(conn, deal_id, generation, copy)
            except BaseException:
                copy.remove()
                raise
            self._publish(conn, deal_id, built)
            # a snapshot ahead of what SQLite has committed was built from a state this
            # database no longer has (restored from an older copy): drop it before it is reached
            folder.prune(built.generation, ahead_of=_committed_generation(conn, deal_id))
        return built

    def _load(
        self, conn: sqlite3.Connection, folder: DealFolder, generation: int
    ) -> _DealIndex | None:
        """The newest saved snapshot no newer than `generation`, caught up and checked."""
        for saved, path in folder.snapshots():
            if saved > generation:
                continue  # published from a newer state than this read (or dropped on a build)
            started = time.perf_counter()
            try:
                stamp = folder.read_stamp(path)
                if isinstance(stamp, str):
                    folder.drop(path, stamp)
                    continue
                copy = folder.working_copy(path)
            except FileNotFoundError:
                continue  # removed by another process meanwhile
            try:
                current = _open_copy(copy, stamp.generation)
                current.published = stamp.generation
                _check_history(conn, folder.deal_id, stamp)
                _catch_up(conn, folder.deal_id, current, generation)
                _check_count(conn, folder.deal_id, current)
            except BaseException as exc:
                copy.remove()
                if not is_damage(exc):
                    raise
                folder.drop(path, str(exc))
                continue
            log.info("keyword index for deal %s: opened %s (generation %d) and caught up to %d "
                     "(%d chunks changed) in %.2f s", folder.deal_id, path, stamp.generation,
                     generation, current.changed, time.perf_counter() - started)
            self._publish(conn, folder.deal_id, current)
            return current
        return None

    def _publish(self, conn: sqlite3.Connection, deal_id: str, current: _DealIndex) -> None:
        """Save a newly built index, or one that catch-ups changed enough, for other processes."""
        if self.folder is None or current.copy is None:
            return
        if current.published and current.changed < PUBLISH_AFTER:
            return
        folder = DealFolder(self.folder, store_id(conn), deal_id)
        stamp = Stamp(store_id=folder.store_id, deal_id=deal_id, generation=current.generation,
                      chunks=int(current.searcher.num_docs),
                      probe=_last_changes(conn, deal_id, current.generation))
        folder.publish(current.copy, stamp)
        current.published, current.changed = current.generation, 0
        folder.prune(current.generation)


def index_document(key: int, chunk_id: str, text: str) -> tantivy.Document:
    """One chunk as tantivy stores it (`key` is u64: an int keyword argument would be i64)."""
    document = tantivy.Document()
    document.add_unsigned("key", key)
    document.add_float("tie_break", zlib.crc32(chunk_id.encode()) / 2**32 * TIE_BREAK)
    document.add_text("text", text)
    return document


def _new_index(copy: WorkingCopy | None) -> tantivy.Index:
    """An index in memory, or in (or opened from) a working copy's directory."""
    if copy is None:
        index = tantivy.Index(index_schema())
    else:  # opens what the copy holds; a schema other than ours raises ValueError
        index = tantivy.Index(index_schema(), path=str(copy.path), reuse=True)
        index.config_reader("manual")  # reloaded after each catch-up, never by a file watcher
    index.register_tokenizer(ANALYZER, english_analyzer())
    return index


def _open_copy(copy: WorkingCopy, generation: int) -> _DealIndex:
    index = _new_index(copy)
    return _DealIndex(index=index, searcher=index.searcher(), generation=generation, copy=copy)


def _build(
    conn: sqlite3.Connection, deal_id: str, generation: int, copy: WorkingCopy | None
) -> _DealIndex:
    """Index every chunk of the deal as committed (in memory, or in a working copy to publish)."""
    started = time.perf_counter()
    index = _new_index(copy)
    writer = index.writer(BUILD_HEAP_BYTES, BUILD_THREADS)
    count = 0
    rows = conn.execute("SELECT rowid, id, text FROM chunks WHERE deal_id = ?", (deal_id,))
    for rowid, chunk_id, text in rows:
        writer.add_document(index_document(rowid, chunk_id, text))
        count += 1
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    log.info("keyword index for deal %s: %d chunks indexed by %s in %.2f s", deal_id, count,
             engine_name(copy.path.parent if copy else None), time.perf_counter() - started)
    return _DealIndex(index=index, searcher=index.searcher(), generation=generation, copy=copy)


def _catch_up(
    conn: sqlite3.Connection, deal_id: str, current: _DealIndex, generation: int
) -> None:
    """Apply the chunks inserted, changed or deleted since `current.generation`."""
    if current.generation == generation:
        return
    changed = conn.execute(
        "SELECT k.chunk_rowid, c.id, c.text FROM keyword_changes AS k "
        "LEFT JOIN chunks AS c ON c.rowid = k.chunk_rowid AND c.deal_id = k.deal_id "
        "WHERE k.deal_id = ? AND k.generation > ?",
        (deal_id, current.generation),
    ).fetchall()
    schema = index_schema()
    writer = current.index.writer(CATCH_UP_HEAP_BYTES, 1)
    for rowid, chunk_id, text in changed:
        # by query: `delete_documents_by_term` takes a Python int as i64 and misses a u64 field
        writer.delete_documents_by_query(tantivy.Query.term_query(schema, "key", rowid))
        if text is not None:  # None: deleted (or its rowid now belongs to another deal)
            writer.add_document(index_document(rowid, chunk_id, text))
    writer.commit()
    writer.wait_merging_threads()
    current.index.reload()
    current.searcher = current.index.searcher()
    current.generation = generation
    current.changed += len(changed)


def _committed_generation(conn: sqlite3.Connection, deal_id: str) -> int:
    """The deal's generation as last committed, read outside this connection's transaction
    (which may have begun before a later commit)."""
    (path,) = [row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main"]
    if not path:  # an in-memory database has no other connection: its snapshot is the latest
        row = conn.execute(
            "SELECT generation FROM keyword_generations WHERE deal_id = ?", (deal_id,)
        ).fetchone()
        return int(row[0]) if row else 0
    with contextlib.closing(sqlite3.connect(path, timeout=5)) as fresh:
        row = fresh.execute(
            "SELECT generation FROM keyword_generations WHERE deal_id = ?", (deal_id,)
        ).fetchone()
    return int(row[0]) if row else 0


PROBE = 8  # changes a stamp records


def _last_changes(
    conn: sqlite3.Connection, deal_id: str, generation: int
) -> list[tuple[int, int, str | None]]:
    """The deal's last `PROBE` changes up to `generation`: (chunk rowid, generation, chunk id or
    None for a deletion). Another history (a restored database) does not share them."""
    return [
        (int(rowid), int(changed), chunk_id)
        for rowid, changed, chunk_id in conn.execute(
            "SELECT k.chunk_rowid, k.generation, c.id FROM keyword_changes AS k "
            "LEFT JOIN chunks AS c ON c.rowid = k.chunk_rowid AND c.deal_id = k.deal_id "
            "WHERE k.deal_id = ? AND k.generation <= ? ORDER BY k.generation DESC LIMIT ?",
            (deal_id, generation, PROBE),
        )
    ]


def _check_history(conn: sqlite3.Connection, deal_id: str, stamp: Stamp) -> None:
    """Raise `_Mismatch` unless each change the snapshot recorded is still SQLite's (or was
    changed again since, which the catch-up applies)."""
    for rowid, changed, chunk_id in stamp.probe:
        row = conn.execute(
            "SELECT k.generation, c.id FROM keyword_changes AS k "
            "LEFT JOIN chunks AS c ON c.rowid = k.chunk_rowid AND c.deal_id = k.deal_id "
            "WHERE k.deal_id = ? AND k.chunk_rowid = ?",
            (deal_id, rowid),
        ).fetchone()
        if row is not None and row[0] > stamp.generation:
            continue
        if row is None or (row[0], row[1]) != (changed, chunk_id):
            raise _Mismatch(
                f"its change {changed} (chunk {chunk_id or 'deleted'}) is not in SQLite's log: "
                "it was built from another copy of the database"
            )


def _check_count(conn: sqlite3.Connection, deal_id: str, current: _DealIndex) -> None:
    """Raise `_Mismatch` unless the caught-up index holds as many chunks as SQLite."""
    (chunks,) = conn.execute(
        "SELECT count(*) FROM chunks WHERE deal_id = ?", (deal_id,)
    ).fetchone()
    indexed = int(current.searcher.num_docs)
    if indexed != chunks:
        raise _Mismatch(f"caught up, it holds {indexed:,} chunks and SQLite {chunks:,}")


def _kept_chunks(
    conn: sqlite3.Connection, deal_id: str, ranked: Sequence[tuple[int, float]]
) -> list[ScoredId]:
    """The hits (chunk rowid, score) that are chunks of this deal's completed documents, as
    chunk ids best first, ties by chunk id."""
    score_of = dict(ranked)
    kept: list[ScoredId] = []
    for batch in batched(list(score_of)):
        kept += [
            ScoredId(id=chunk_id, score=float(score_of[rowid]))
            for rowid, chunk_id in conn.execute(
                "SELECT c.rowid, c.id FROM chunks AS c "
                "LEFT JOIN documents AS d ON d.deal_id = c.deal_id AND d.id = c.document_id "
                # `+c.deal_id`: rows looked up by rowid, never by scanning the deal's index
                f"WHERE c.rowid IN ({marks(len(batch))}) AND +c.deal_id = ? "
                "AND coalesce(d.status, 'completed') = 'completed'",
                (*batch, deal_id),
            )
        ]
    kept.sort(key=lambda hit: (-hit.score, hit.id))
    return kept
