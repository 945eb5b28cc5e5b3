"""Hybrid search latency (p50/p95) on the embedded store at 10k and 100k chunks (`--sizes`).

Goals (issue 16): p50 < 40 ms at 100k chunks and < 150 ms at 1M; each figure is printed beside
its goal. The dense engines (`--engines auto exact`) are timed alternately on one store, with each
one's cold start (first search of a fresh store) and the peak RSS. `--sizes 1000000` builds a
~3 GB store in /tmp (TMPDIR elsewhere). `channel_bench.py` times each channel per engine (FTS5,
bm25s, tantivy; numpy, faiss IVF, usearch HNSW) with recall.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from manda.embed.offline import OfflineEmbedder
from manda.kg.embedded import EmbeddedKnowledgeGraph
from manda.kg.embedded.vectors import DenseOptions
from manda.models import Chunk, Deal, Document, DocumentStatus, Location
from manda.retrieval.hybrid import HybridSearch

WORDS = [
    "revenue",
    "ebitda",
    "margin",
    "customer",
    "contract",
    "churn",
    "pipeline",
    "headcount",
    "litigation",
    "claim",
    "covenant",
    "forecast",
    "budget",
    "quarter",
    "annual",
    "audit",
    "cash",
    "debt",
    "supplier",
    "warranty",
    "pricing",
    "renewal",
    "licence",
    "subsidiary",
    "shareholder",
    "option",
    "dividend",
    "tax",
    "provision",
    "lease",
    "capex",
    "inventory",
    "receivable",
]
EMBEDDER_ID = "minilm-l6-v2-int8"  # the offline embedder's id: its queries search these vectors
QUERIES = [
    "What was Q3 2024 revenue?",
    "pending litigation",
    "customer concentration",
    "EBITDA margin",
    "change of control clause",
    "headcount by department",
    "net debt covenant",
    "forecast 2025",
]


def passages(rng: np.random.Generator, count: int, length: int = 120) -> list[str]:
    """Text with a realistic word distribution: a few deal terms (8%) among a Zipf-like long tail.

    (An earlier version drew every word from the 30 deal terms, so every query term matched every
    chunk and BM25 scored all 100k; real data rooms have selective terms. Drawn with numpy: the
    1M build spent ~9 minutes of a loaded machine in `random.paretovariate`.)
    """
    vocabulary = np.array([f"w{i}" for i in range(20_000)] + WORDS, dtype=object)
    tail = (rng.pareto(1.1, (count, length)) + 1).astype(np.int64) % 20_000
    term = 20_000 + rng.integers(0, len(WORDS), (count, length))
    words = vocabulary[np.where(rng.random((count, length)) < 0.08, term, tail)]
    return [" ".join(row) for row in words]


async def build(graph: EmbeddedKnowledgeGraph, chunks: int, dim: int, seed: int = 3) -> None:
    nrng = np.random.default_rng(seed)
    await graph.upsert_deal(Deal(id="bench"))
    per_doc = 500
    for d in range(chunks // per_doc):
        doc = Document(
            id=f"d{d}",
            deal_id="bench",
            filename=f"doc{d}.pdf",
            content_hash=f"h{d}",
            file_type="pdf",
            size_bytes=1,
            version_family=f"doc{d}",
            # searched like an ingested document: only completed documents are searched (before
            # this the bench timed a store that hid every chunk)
            status=DocumentStatus.COMPLETED,
        )
        await graph.upsert_document(doc)
        batch = [
            Chunk(
                id=f"d{d}_c{i}",
                deal_id="bench",
                document_id=doc.id,
                ordinal=i,
                text=text,
                location=Location.for_page(i + 1),
            )
            for i, text in enumerate(passages(nrng, per_doc))
        ]
        await graph.add_chunks("bench", batch)
        vectors = nrng.standard_normal((per_doc, dim)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        await graph.add_vectors("bench", EMBEDDER_ID, [c.id for c in batch], vectors)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def open_search(
    path: Path, engine: str, embedder: OfflineEmbedder
) -> tuple[EmbeddedKnowledgeGraph, HybridSearch, float]:
    """A fresh store with this dense engine and the seconds of its first search (the cold start:
    the exact matrix read from SQLite, or the IVF index loaded from its file or built)."""
    graph = EmbeddedKnowledgeGraph(
        path, dense=DenseOptions(engine=engine, index_dir=path.parent / "vector-index")
    )
    await graph.start()
    search = HybridSearch(graph=graph, embedder=embedder, expand_graph=True)
    started = time.perf_counter()
    await search.search("bench", "warm up", k=5)
    return graph, search, time.perf_counter() - started


async def run(chunks: int, engines: list[str], keep: Path | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep / str(chunks) if keep else Path(tmp)
        path = folder / "bench.db"
        embedder = OfflineEmbedder()
        await embedder.start()
        if path.exists():
            print(f"{chunks:>9,} chunks  store reused from {path}")
        else:
            graph = EmbeddedKnowledgeGraph(path)
            await graph.start()
            started = time.perf_counter()
            await build(graph, chunks, embedder.dimension)
            await graph.aclose()
            print(f"{chunks:>9,} chunks  store built in {time.perf_counter() - started:6.1f} s "
                  f"(load {os.getloadavg()[0]:.1f})", flush=True)
        for index in (folder / "vector-index").rglob("*.faiss"):
            index.unlink()  # every run times building the index
        searches: dict[str, HybridSearch] = {}
        graphs = []
        for engine in engines:
            graph, search, cold = await open_search(path, engine, embedder)
            used = graph._vectors.engine_of("bench", embedder.id)
            print(f"  {engine:>5}: dense engine {used}; first search {cold:6.1f} s; "
                  f"peak RSS so far {peak_rss_mb():,.0f} MB", flush=True)
            if used and used != "numpy exact":  # a second process: loads the saved index
                again, _, warm = await open_search(path, engine, embedder)
                print(f"  {engine:>5}: a second process's first search {warm:6.1f} s "
                      "(loads the saved index file)", flush=True)
                await again.aclose()
            searches[engine] = search
            graphs.append(graph)
        timings: dict[str, list[float]] = {engine: [] for engine in engines}
        for i in range(120):  # alternating, so the machine's load weighs on each engine alike
            for engine, search in searches.items():
                t = time.perf_counter()
                await search.search("bench", QUERIES[i % len(QUERIES)], k=5)
                timings[engine].append((time.perf_counter() - t) * 1000)
        goal = GOALS.get(chunks)
        for engine, times in timings.items():
            times.sort()
            p50 = statistics.median(times)
            p95 = times[int(len(times) * 0.95) - 1]
            print(
                f"  {engine:>5}: hybrid search p50 {p50:6.1f} ms  p95 {p95:6.1f} ms"
                + (f"   (goal p50 < {goal} ms)" if goal else "")
                + f"   load {os.getloadavg()[0]:.1f}"
            )
        for graph in graphs:
            await graph.aclose()
        await embedder.aclose()


GOALS = {100_000: 40, 1_000_000: 150}


async def main(sizes: list[int], engines: list[str], keep: Path | None) -> None:
    for size in sizes:
        await run(size, engines, keep)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--engines", nargs="+", choices=["auto", "exact", "ivf"],
                        default=["auto", "exact"],
                        help="dense engines timed alternately on the same store (auto: exact "
                        "below MANDA_ANN_MIN_VECTORS, IVF above)")
    parser.add_argument("--keep", type=Path, help="build each store once in this folder and "
                        "reuse it on later runs (the 1M store takes minutes to build)")
    args = parser.parse_args()
    asyncio.run(main(args.sizes, args.engines, args.keep))
