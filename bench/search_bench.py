"""Hybrid search latency (p50/p95 for each question) on really ingested rooms, as Manda runs it.

    .venv/bin/python bench/search_bench.py [--rooms 10000 100000] [--keep DIR] [--rounds N]
    .venv/bin/python bench/search_bench.py --sizes 100000 1000000 [--engines auto exact]

`--rooms` (the default, 10,000 and 100,000 pages): the generated room of `ingest_bench.py`
ingested through Manda with the configured embedder (its vectors, its findings: ~100k at 10,000
pages), and a 100,000-page room of ten copies of it (~1M findings; copied in SQL, since
ingesting it here would take most of a day: `_ingested.py`). Each room is searched through the
app's own `HybridSearch` in three fresh processes one after the other — the first builds and
saves the deal's keyword index and its vectors (IVF index or exact matrix), the second is a
restarted process that loads them (as `manda search` would), the third also warms the deal first
as `manda serve` does at start — each timing its first search with where the time went (store
calls, the query embedding), then every question `--rounds` times. Every search checks that each
channel took part: no vectors for the configured embedder, or a metric question without the
findings channel, stops the bench with an error instead of timing a search that left a channel
out.

Goals (issue 27): p95 < 150 ms at 100k findings and < 300 ms at 1M, for every question; the
first search of a restarted worker < 300 ms at 100k. The load average is printed beside each
figure: the machine is shared.

`--sizes`: the older generated store of bare chunks (no findings, random vectors stored under the
configured embedder's id) at those sizes, with the dense engines (`--engines auto exact`) timed
alternately, each one's cold start and the peak RSS (issue 16). `channel_bench.py` times each
channel per engine with recall.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
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
QUERIES = [
    "What was Q3 2024 revenue?",
    "pending litigation",
    "customer concentration",
    "EBITDA margin",
    "change of control clause",
    "headcount by department",
    "net debt covenant",
    "forecast 2025",
    "gross margin trend",
]
# the generated room states these line items: their questions must reach the findings channel
METRIC_QUERIES = frozenset({"What was Q3 2024 revenue?", "gross margin trend"})
ROOM_GOALS = {10_000: 150.0, 100_000: 300.0}  # p95 ms by pages (100k and 1M findings)


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


async def build(graph: EmbeddedKnowledgeGraph, chunks: int, embedder: OfflineEmbedder,
                seed: int = 3) -> None:
    """A store of `chunks` bare chunks, with random vectors under `embedder`'s id (the one its
    queries search: vectors under another id would leave the dense channel out)."""
    dim = embedder.dimension
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
        await graph.add_vectors("bench", embedder.id, [c.id for c in batch], vectors)


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
            await build(graph, chunks, embedder)
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
                channels_took_part(search, QUERIES[i % len(QUERIES)], findings=False)
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


class ChannelMissing(SystemExit):
    """A search left a channel out: its figure would not measure hybrid search."""


def channels_took_part(search: HybridSearch, query: str, *, findings: bool = True) -> None:
    """Stop the bench, loudly, when the last search ran without one of its channels."""
    stats = search.last
    if not stats.dense:
        raise ChannelMissing(f"search_bench: the dense channel took no part in {query!r} "
                             f"({'; '.join(stats.notices) or 'no vectors searched'}): build "
                             "vectors for the configured embedder (`manda reindex`) first")
    if findings and query in METRIC_QUERIES and not stats.facts:
        raise ChannelMissing(f"search_bench: the findings channel took no part in {query!r}, "
                             "a line item the room states")


CALLS = ("fulltext_search", "vector_search", "list_findings", "fact_chunks",
         "findings_for_chunks", "list_relations", "get_chunks", "list_documents",
         "get_document", "get_finding", "warm_search")


async def measure_room(home: Path, label: str, rounds: int, warm: bool = False) -> None:
    """One process's searches of the room in `home`: its first (where the time went), then
    every question `rounds` times, p50/p95 each."""
    sys.path.insert(0, str(Path(__file__).parent))
    from _ingested import DEAL
    from ingest_profile import StageClock

    from manda.app import Manda
    from manda.config import Settings

    began = time.perf_counter()
    async with Manda(Settings(MANDA_HOME=home), workflows=False) as app:
        opened = time.perf_counter() - began
        clock = StageClock()
        for name in CALLS:
            if hasattr(app.graph, name):
                clock.wrap(app.graph, name, name)
        clock.wrap(app.embedder, "embed", "embed query")
        if warm:  # as `manda serve` does for every linked deal when it starts
            started = time.perf_counter()
            await app.search.warm(DEAL)
            print(f"  {label}: warmed in {time.perf_counter() - started:.2f} s (as `manda "
                  "serve` does at start)", flush=True)
            clock.seconds.clear()
        started = time.perf_counter()
        await app.search.search(DEAL, QUERIES[0], k=8)
        first = time.perf_counter() - started
        channels_took_part(app.search, QUERIES[0])
        where = ", ".join(f"{stage} {spent * 1000:,.0f}" for stage, spent in
                          sorted(clock.seconds.items(), key=lambda kv: -kv[1]) if spent > 0.001)
        print(f"  {label}: app started in {opened:.2f} s; first search {first * 1000:,.0f} ms "
              f"({where} ms), load {os.getloadavg()[0]:.1f}", flush=True)
        clock.seconds.clear()
        timings: dict[str, list[float]] = {q: [] for q in QUERIES}
        for _ in range(rounds):
            for query in QUERIES:
                t = time.perf_counter()
                await app.search.search(DEAL, query, k=8)
                timings[query].append((time.perf_counter() - t) * 1000)
                channels_took_part(app.search, query)
        searches = rounds * len(QUERIES)
        for query, times in timings.items():
            times.sort()
            p95 = times[max(0, int(len(times) * 0.95) - 1)]
            print(f"    {query:<28} p50 {statistics.median(times):7.1f} ms  p95 {p95:7.1f} ms")
        every = sorted(t for times in timings.values() for t in times)
        print(f"    all questions: p50 {statistics.median(every):.1f} ms, p95 "
              f"{every[int(len(every) * 0.95) - 1]:.1f} ms over {searches} searches; per search "
              + ", ".join(f"{stage} {spent * 1000 / searches:.1f}" for stage, spent in
                          sorted(clock.seconds.items(), key=lambda kv: -kv[1]))
              + f" ms; peak RSS {peak_rss_mb():,.0f} MB, load {os.getloadavg()[0]:.1f}",
              flush=True)


def rooms(pages: list[int], keep: Path, rounds: int) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from _ingested import counts, embedder_ids, ingested_home

    from manda.app import choose_embeddings
    from manda.config import Settings

    configured = choose_embeddings(Settings())[0].id
    for size in pages:
        home = ingested_home(keep, size)
        held = embedder_ids(home)
        if configured not in held:
            raise ChannelMissing(
                f"search_bench: {home} holds vectors under {', '.join(held) or 'no embedder'}, "
                f"not under the configured {configured}: its searches would run without the "
                "dense channel. Set the embedder it was ingested with (MANDA_OFFLINE_MODEL, "
                "MANDA_OFFLINE_EMBEDDER) or give a fresh --keep")
        n = counts(home)
        goal = ROOM_GOALS.get(size)
        print(f"{n['pages']:,} pages: {n['chunks']:,} chunks, {n['findings']:,} findings, "
              f"{n['vectors']:,} vectors" + (f" (goal p95 < {goal:.0f} ms)" if goal else ""),
              flush=True)
        for label, extra in (("first process", []), ("restarted process", []),
                             ("restarted, warmed", ["--warm"])):
            subprocess.run([sys.executable, __file__, "--measure", str(home), "--label", label,
                            "--rounds", str(rounds), *extra], check=True)


async def main(sizes: list[int], engines: list[str], keep: Path | None) -> None:
    for size in sizes:
        await run(size, engines, keep)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[10_000, 100_000],
                        help="ingested rooms of these many pages (multiples of 10,000)")
    parser.add_argument("--rounds", type=int, default=15, help="searches of each question")
    parser.add_argument("--sizes", type=int, nargs="+",
                        help="the generated store of bare chunks instead, at these sizes")
    parser.add_argument("--engines", nargs="+", choices=["auto", "exact", "ivf"],
                        default=["auto", "exact"],
                        help="dense engines timed alternately on the same store (auto: exact "
                        "below MANDA_ANN_MIN_VECTORS, IVF above)")
    parser.add_argument("--keep", type=Path, help="build each store or room once in this folder "
                        "and reuse it on later runs (rooms default to /tmp/manda-search-bench)")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--label", default="", help=argparse.SUPPRESS)
    parser.add_argument("--warm", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:
        asyncio.run(measure_room(args.measure, args.label, args.rounds, args.warm))
    elif args.sizes:
        asyncio.run(main(args.sizes, args.engines, args.keep))
    else:
        rooms(args.rooms, args.keep or Path(tempfile.gettempdir()) / "manda-search-bench",
              args.rounds)
