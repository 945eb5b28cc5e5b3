"""Each search channel alone, per engine: FTS5 vs bm25s vs tantivy (keyword), numpy vs HNSW (dense).

Issue 16 asks whether the embedded store's channels should change engine to reach hybrid search
p50 < 40 ms at 100k chunks and < 150 ms at 1M. This times one query of each channel on the same
synthetic corpus `search_bench.py` uses (a few deal terms in a Zipf-like tail), top 40, after a
warm-up. FTS5 (the store's keyword engine until schema version 2) is timed as the store ran it
(external-content table, deal filter, OR of quoted terms); tantivy as `keyword.py` runs it; numpy
as `VectorCache` does (one matrix-vector product, argpartition). bm25s and usearch are not Manda
dependencies: `pip install bm25s usearch` to include them (each is skipped with a note when
missing). Run: `.venv/bin/python bench/channel_bench.py [--sizes 100000 1000000]`.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_bench import QUERIES, passage

from manda.kg.embedded.fulltext import match_expression, query_terms

K = 40
DIM = 384
RUNS = 40


def timed(label: str, size: int, search: Callable[[str], object], queries: list[str]) -> None:
    search(queries[0])
    times = []
    for i in range(RUNS):
        started = time.perf_counter()
        search(queries[i % len(queries)])
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    p50, p95 = statistics.median(times), times[int(len(times) * 0.95) - 1]
    print(f"| {label} | {size:,} | {p50:.1f} | {p95:.1f} |", flush=True)


def fts5(texts: list[str], size: int) -> None:
    db = sqlite3.connect(":memory:")
    db.executescript(
        "CREATE TABLE chunks (deal_id TEXT, id TEXT, text TEXT);"
        "CREATE VIRTUAL TABLE chunks_fts USING fts5 (text, deal_id UNINDEXED, content='chunks',"
        " content_rowid='rowid', tokenize='porter unicode61');"
    )
    db.executemany("INSERT INTO chunks VALUES ('bench', ?, ?)",
                   ((f"c{i}", t) for i, t in enumerate(texts)))
    db.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('rebuild')")
    db.commit()
    sql = ("SELECT c.id, bm25(chunks_fts) AS rank FROM chunks_fts "
           "JOIN chunks AS c ON c.rowid = chunks_fts.rowid "
           "WHERE chunks_fts MATCH ? AND c.deal_id = ? ORDER BY rank, c.id LIMIT ?")
    timed("keyword: SQLite FTS5 (join, then rank)", size,
          lambda q: db.execute(sql, (match_expression(q), "bench", K)).fetchall(), QUERIES)
    ranked_first = (
        "SELECT c.id, f.rank FROM (SELECT rowid, rank FROM chunks_fts "
        "WHERE chunks_fts MATCH ? AND deal_id = ? ORDER BY rank LIMIT ?) AS f "
        "JOIN chunks AS c ON c.rowid = f.rowid ORDER BY f.rank, c.id")
    timed("keyword: SQLite FTS5 (rank inside FTS5, join the top k)", size,
          lambda q: db.execute(ranked_first, (match_expression(q), "bench", K)).fetchall(),
          QUERIES)


def bm25s_channel(texts: list[str], size: int) -> None:
    try:
        import bm25s
    except ImportError:
        print(f"| keyword: bm25s | {size:,} | not installed | |")
        return
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, stopwords="en", show_progress=False),
                    show_progress=False)

    def search(q: str) -> object:
        tokens = bm25s.tokenize([" ".join(query_terms(q))], stopwords="en", show_progress=False)
        return retriever.retrieve(tokens, k=K, show_progress=False, n_threads=1)

    timed("keyword: bm25s (in memory)", size, search, QUERIES)


def tantivy_channel(texts: list[str], size: int) -> None:
    """tantivy as the store runs it (`keyword.py`): its schema, analyzer and query, the hits'
    chunk keys read from the fast field."""
    import tantivy

    from manda.kg.embedded.keyword import (
        ANALYZER,
        english_analyzer,
        index_document,
        index_schema,
        keyword_query,
    )

    index = tantivy.Index(index_schema())
    index.register_tokenizer(ANALYZER, english_analyzer())
    writer = index.writer(128_000_000, 1)
    for i, text in enumerate(texts):
        writer.add_document(index_document(i, f"c{i}", text))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    searcher = index.searcher()

    def search(q: str) -> object:
        hits = searcher.search(keyword_query(q), K, count=False, weight_by_field="tie_break").hits
        return searcher.fast_field_values("key", [address for _, address in hits])

    timed("keyword: tantivy (in memory, as the store)", size, search, QUERIES)


def dense_channels(size: int, with_hnsw: bool) -> None:
    rng = np.random.default_rng(3)
    matrix = rng.standard_normal((size, DIM), dtype=np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    queries = [v / np.linalg.norm(v) for v in rng.standard_normal((8, DIM), dtype=np.float32)]
    by_text = {q: v for q, v in zip(QUERIES, queries, strict=True)}

    def exact(q: str) -> object:
        scores = matrix @ by_text[q]
        top = np.argpartition(scores, size - K)[size - K:]
        return top[np.argsort(-scores[top])]

    timed("dense: numpy exact (as VectorCache)", size, exact, QUERIES)
    if not with_hnsw:
        return
    try:
        from usearch.index import Index
    except ImportError:
        print(f"| dense: usearch HNSW | {size:,} | not installed | |")
        return
    started = time.perf_counter()
    index = Index(ndim=DIM, metric="ip", dtype="f32")
    index.add(np.arange(size), matrix, threads=2)
    build = time.perf_counter() - started
    truth = {q: set(exact(q).tolist()) for q in QUERIES}
    recall = statistics.mean(
        len(truth[q] & set(index.search(by_text[q], K).keys.tolist())) / K for q in QUERIES)
    timed(f"dense: usearch HNSW (built in {build:.0f} s, recall@40 {recall:.2f})", size,
          lambda q: index.search(by_text[q], K), QUERIES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    parser.add_argument("--no-hnsw", action="store_true", help="skip building the HNSW index")
    args = parser.parse_args()
    print("| channel | chunks | p50 ms | p95 ms |")
    print("|---|---|---|---|")
    for size in args.sizes:
        rng = random.Random(3)
        texts = [passage(rng) for _ in range(size)]
        fts5(texts, size)
        bm25s_channel(texts, size)
        tantivy_channel(texts, size)
        del texts
        dense_channels(size, not args.no_hnsw)


if __name__ == "__main__":
    main()
