"""Each search channel alone, per engine: FTS5 vs bm25s vs tantivy (keyword), numpy vs IVF vs HNSW.

Issue 16 asks whether the embedded store's channels should change engine to reach hybrid search
p50 < 40 ms at 100k chunks and < 150 ms at 1M. This times one query of each channel on the same
synthetic corpus `search_bench.py` uses (a few deal terms in a Zipf-like tail), top 40, after a
warm-up. FTS5 (the store's keyword engine before schema version 3) is timed as the store ran it
(external-content table, deal filter, OR of quoted terms); tantivy as `keyword.py` runs it; numpy
as `VectorCache` does (one matrix-vector product, argpartition); faiss IVF as the store builds it
past its crossover (`manda.kg.embedded.ivf`: √n lists, 8-bit codes, candidates re-scored with the
float32 rows for recall@60 against exact). bm25s and usearch are not Manda dependencies:
`pip install bm25s usearch` to include them (each is skipped with a note when missing). Dense
only, 1M, in a few minutes:
`.venv/bin/python bench/channel_bench.py --sizes 100000 1000000 --channels dense
[--vectors structured random] [--hnsw]`.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_bench import QUERIES, passages

from manda.kg.embedded.fulltext import match_expression, query_terms

K = 40
RECALL_AT = 60  # what the hybrid search asks each channel for
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


def structured_vectors(rows: int, seed: int, spread: float = 1.0) -> np.ndarray:
    """Unit vectors with neighbourhoods, like passage embeddings: 200 topics, 10,000 sub-topics
    around them, passages around those (top-1 cosine of a query ≈ 0.6, its 60th ≈ 0.45; with
    `spread` 2.0, 0.34 and 0.25, looser than MiniLM's question-passage cosines).

    I.i.d. Gaussian vectors (`--vectors random`) have no neighbourhoods at all: every point is
    about as far from a query as any other, which defeats every approximate index (IVF and HNSW
    recall@60 well under 0.5 here) and says nothing about real embeddings.
    """
    rng = np.random.default_rng(seed)
    topics = rng.standard_normal((200, DIM), dtype=np.float32)
    subtopics = topics[rng.integers(0, 200, 10_000)]
    subtopics += 0.7 * rng.standard_normal((10_000, DIM), dtype=np.float32)
    out = np.empty((rows, DIM), dtype=np.float32)
    for start in range(0, rows, 100_000):
        stop = min(rows, start + 100_000)
        out[start:stop] = subtopics[rng.integers(0, 10_000, stop - start)]
        out[start:stop] += spread * rng.standard_normal((stop - start, DIM), dtype=np.float32)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out


def dense_vectors(size: int, kind: str, spread: float) -> tuple[np.ndarray, np.ndarray]:
    """(matrix, 8 queries): queries drawn like the rows, never among them."""
    if kind == "random":
        rng = np.random.default_rng(3)
        both = rng.standard_normal((size + 8, DIM), dtype=np.float32)
        both /= np.linalg.norm(both, axis=1, keepdims=True)
    else:
        both = structured_vectors(size + 8, seed=3, spread=spread)
    return both[:size], both[size:]


def peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def dense_channels(size: int, kind: str, with_hnsw: bool, spread: float) -> None:
    """numpy exact, faiss IVF as the store builds it, and (optionally) usearch HNSW."""
    matrix, queries = dense_vectors(size, kind, spread)
    by_text = {q: v for q, v in zip(QUERIES, queries, strict=True)}
    print(f"| dense vectors: {kind} (spread {spread}), {size:,} × {DIM} float32 = "
          f"{matrix.nbytes / 2**20:,.0f} MB (peak RSS so far {peak_mb():,.0f} MB) | | | |",
          flush=True)

    def exact(q: str, k: int = K) -> np.ndarray:
        scores = matrix @ by_text[q]
        top = np.argpartition(scores, size - k)[size - k:]
        return top[np.argsort(-scores[top])]

    timed("dense: numpy exact (as VectorCache)", size, exact, QUERIES)
    truth = {q: set(exact(q, RECALL_AT).tolist()) for q in QUERIES}

    def recall(found: Callable[[str], list[int]]) -> float:
        return statistics.mean(len(truth[q] & set(found(q))) / RECALL_AT for q in QUERIES)

    ivf_channel(size, matrix, by_text, recall)
    if with_hnsw:
        hnsw_channel(size, matrix, by_text, recall)


def ivf_channel(size: int, matrix: np.ndarray, by_text: dict[str, np.ndarray],
                recall: Callable[[Callable[[str], list[int]]], float]) -> None:
    from manda.kg.embedded import ivf

    faiss = ivf.faiss_module()
    faiss.omp_set_num_threads(1)  # as the store builds it
    started = time.perf_counter()
    lists = ivf.list_count(size)
    sample = matrix[:: max(1, size // (lists * ivf.TRAIN_PER_LIST))]
    index = faiss.IndexIVFScalarQuantizer(faiss.IndexFlatIP(DIM), DIM, lists,
                                          faiss.ScalarQuantizer.QT_8bit,
                                          faiss.METRIC_INNER_PRODUCT)
    index.cp.niter = 10
    index.train(np.ascontiguousarray(sample))
    for start in range(0, size, ivf.LOAD_BATCH):
        index.add_with_ids(matrix[start:start + ivf.LOAD_BATCH],
                           np.arange(start, min(size, start + ivf.LOAD_BATCH)))
    build = time.perf_counter() - started
    faiss.omp_set_num_threads(1)
    params = faiss.SearchParametersIVF(nprobe=ivf.probe_count(lists))

    def candidates(q: str) -> np.ndarray:
        keys = index.search(by_text[q][None], ivf.RESCORE * RECALL_AT, params=params)[1][0]
        return keys[keys >= 0]

    def rescored(q: str) -> list[int]:  # as the store does, with the float32 rows
        keys = candidates(q)
        return keys[np.argsort(-(matrix[keys] @ by_text[q]))][:RECALL_AT].tolist()

    found = recall(rescored)
    memory = (index.sa_code_size() * size + 8 * size) / 2**20
    timed(f"dense: faiss IVF {lists} lists, probe {ivf.probe_count(lists)}, 8-bit "
          f"(built in {build:.0f} s, ~{memory:,.0f} MB, recall@{RECALL_AT} {found:.3f})",
          size, candidates, QUERIES)


def hnsw_channel(size: int, matrix: np.ndarray, by_text: dict[str, np.ndarray],
                 recall: Callable[[Callable[[str], list[int]]], float]) -> None:
    try:
        from usearch.index import Index
    except ImportError:
        print(f"| dense: usearch HNSW | {size:,} | not installed (`pip install usearch`) | |")
        return
    started = time.perf_counter()
    index = Index(ndim=DIM, metric="ip", dtype="i8", expansion_search=2 * RECALL_AT)
    index.add(np.arange(size), matrix, threads=2)
    build = time.perf_counter() - started
    found = recall(lambda q: index.search(by_text[q], RECALL_AT).keys.tolist())
    timed(f"dense: usearch HNSW i8 (built in {build:.0f} s, {index.memory_usage / 2**20:,.0f} "
          f"MB, recall@{RECALL_AT} {found:.3f})", size,
          lambda q: index.search(by_text[q], RECALL_AT), QUERIES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    parser.add_argument("--hnsw", action="store_true",
                        help="also build a usearch HNSW index (tens of minutes at 1M on 2 cores)")
    parser.add_argument("--vectors", choices=["structured", "random"], nargs="+",
                        default=["structured"], help="synthetic dense vectors (see below)")
    parser.add_argument("--spread", type=float, default=1.0,
                        help="how far structured vectors lie from their sub-topic (2.0: harder)")
    parser.add_argument("--channels", choices=["keyword", "dense"], nargs="+",
                        default=["keyword", "dense"])
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    print("| channel | chunks | p50 ms | p95 ms |")
    print("|---|---|---|---|")
    for size in args.sizes:
        if "keyword" in args.channels:
            rng = np.random.default_rng(3)
            texts = [t for start in range(0, size, 10_000)
                     for t in passages(rng, min(10_000, size - start))]
            fts5(texts, size)
            bm25s_channel(texts, size)
            tantivy_channel(texts, size)
            del texts
        if "dense" in args.channels:
            for kind in args.vectors:
                dense_channels(size, kind, args.hnsw, args.spread)
    print(f"load average {os.getloadavg()[0]:.1f} at the end; peak RSS {peak_mb():,.0f} MB")


if __name__ == "__main__":
    main()
