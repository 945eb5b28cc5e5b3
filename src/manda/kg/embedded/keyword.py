"""BM25 keyword search for the embedded store: one in-memory tantivy index per deal, kept in step
with SQLite by a change log.

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
- hits are joined back to their chunk rows, so only this deal's completed documents are returned.

Meaning as FTS5 `porter unicode61` gave it: words split on anything not a letter or digit,
lower-cased, accents folded, English (Snowball) stems; the question is reduced by `fulltext.py`
(stop words dropped, quoted phrases kept) and the query built term by term, never parsed.
Scores are BM25, higher is better; statistics are the deal's own.
"""

from __future__ import annotations

import logging
import sqlite3
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version

import tantivy

from manda.kg.embedded.fulltext import query_phrases, query_terms
from manda.kg.embedded.sql import batched, marks
from manda.kg.port import ScoredId

log = logging.getLogger(__name__)

ANALYZER = "manda_english"
MAX_TOKEN_CHARS = 40  # longer "words" (hashes, base64) are dropped, as tantivy's en_stem does
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


def engine_name() -> str:
    """What `manda doctor` and the logs call the keyword engine."""
    return f"tantivy {version('tantivy')} BM25, in memory per deal"


@cache
def english_analyzer() -> tantivy.TextAnalyzer:
    """Letters-and-digits words, lower-cased, accents folded, English stems (for text and query)."""
    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.remove_long(MAX_TOKEN_CHARS))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.ascii_fold())
        .filter(tantivy.Filter.stemmer("english"))
        .build()
    )


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
    clauses = [
        (tantivy.Occur.Should, tantivy.Query.term_query(schema, "text", stem, "freq"))
        for stem in dict.fromkeys(stems)
    ]
    for phrase in query_phrases(question):
        words = analyzer.analyze(phrase)
        if len(words) > 1:
            clauses.append(
                (tantivy.Occur.Should, tantivy.Query.phrase_query(schema, "text", words))
            )
    return tantivy.Query.boolean_query(clauses) if clauses else None


@dataclass
class _DealIndex:
    """One deal's index and the generation of `keyword_generations` it reflects."""

    index: tantivy.Index
    searcher: tantivy.Searcher
    generation: int


class KeywordIndexes:
    """Per-deal tantivy indexes; only ever used from the store's connection thread."""

    def __init__(self) -> None:
        self._deals: dict[str, _DealIndex] = {}

    def clear(self) -> None:
        self._deals.clear()

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
            hits = current.searcher.search(
                query, limit, count=False, weight_by_field="tie_break"
            ).hits
            keys = current.searcher.fast_field_values("key", [address for _, address in hits])
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
            self._deals.pop(deal_id, None)
            return None
        generation = int(row[0])
        current = self._deals.get(deal_id)
        if current is not None and current.generation == generation:
            return current
        self._deals.pop(deal_id, None)  # until brought up to date: a failure leaves no index
        if current is None or current.generation > generation:
            current = _build(conn, deal_id, generation)
        else:
            _catch_up(conn, deal_id, current, generation)
        self._deals[deal_id] = current
        return current


def index_document(key: int, chunk_id: str, text: str) -> tantivy.Document:
    """One chunk as tantivy stores it (`key` is u64: an int keyword argument would be i64)."""
    document = tantivy.Document()
    document.add_unsigned("key", key)
    document.add_float("tie_break", zlib.crc32(chunk_id.encode()) / 2**32 * TIE_BREAK)
    document.add_text("text", text)
    return document


def _build(conn: sqlite3.Connection, deal_id: str, generation: int) -> _DealIndex:
    """Index every chunk of the deal as committed (the first search of a process pays this)."""
    started = time.perf_counter()
    index = tantivy.Index(index_schema())
    index.register_tokenizer(ANALYZER, english_analyzer())
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
             engine_name(), time.perf_counter() - started)
    return _DealIndex(index=index, searcher=index.searcher(), generation=generation)


def _catch_up(
    conn: sqlite3.Connection, deal_id: str, current: _DealIndex, generation: int
) -> None:
    """Apply the chunks inserted, changed or deleted since `current.generation`."""
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
