"""Hybrid search latency (p50/p95) on the embedded store at 10k and 100k chunks (`--sizes`).

Goals (issue 16): p50 < 40 ms at 100k chunks and < 150 ms at 1M; each figure is printed beside
its goal, with the first search of a fresh store on the built file (what a new `manda search`
process pays to load its caches). `channel_bench.py` times each channel per engine (FTS5, bm25s,
tantivy, numpy, HNSW). With `--against REV` each size is also measured on that revision's code
(its `src/` exported with `git archive`, on this environment's packages), one after the other in
fresh processes, so both figures come from one run; the load average is printed beside each.

    .venv/bin/python bench/search_bench.py [--sizes 10000 100000] [--against main]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from manda.embed.offline import OfflineEmbedder
from manda.kg.embedded import EmbeddedKnowledgeGraph
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
]


def passage(rng: random.Random, length: int = 120) -> str:
    """Text with a realistic word distribution: a few deal terms among a Zipf-like long tail.

    (An earlier version drew every word from the 30 deal terms, so every query term matched every
    chunk and BM25 scored all 100k; real data rooms have selective terms.)
    """
    words = []
    for _ in range(length):
        if rng.random() < 0.08:
            words.append(rng.choice(WORDS))
        else:
            words.append(f"w{int(rng.paretovariate(1.1)) % 20_000}")
    return " ".join(words)


async def build(graph: EmbeddedKnowledgeGraph, chunks: int, dim: int, seed: int = 3) -> None:
    rng = random.Random(seed)
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
                text=passage(rng),
                location=Location.for_page(i + 1),
            )
            for i in range(per_doc)
        ]
        await graph.add_chunks("bench", batch)
        vectors = nrng.standard_normal((per_doc, dim)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        await graph.add_vectors("bench", "minilm-l6-v2-int8", [c.id for c in batch], vectors)


async def run(chunks: int, label: str = "") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        graph = EmbeddedKnowledgeGraph(Path(tmp) / "bench.db")
        embedder = OfflineEmbedder()
        await graph.start()
        await embedder.start()
        started = time.perf_counter()
        await build(graph, chunks, embedder.dimension)
        built = time.perf_counter() - started
        await graph.aclose()
        graph = EmbeddedKnowledgeGraph(Path(tmp) / "bench.db")  # a fresh process's caches
        await graph.start()
        search = HybridSearch(graph=graph, embedder=embedder, expand_graph=True)
        started = time.perf_counter()
        await search.search("bench", "warm up", k=5)
        first = time.perf_counter() - started
        timings = []
        for i in range(120):
            t = time.perf_counter()
            await search.search("bench", QUERIES[i % len(QUERIES)], k=5)
            timings.append((time.perf_counter() - t) * 1000)
        timings.sort()
        p50 = statistics.median(timings)
        p95 = timings[int(len(timings) * 0.95) - 1]
        goal = GOALS.get(chunks)
        print(
            f"{label}{chunks:>7} chunks  build {built:6.1f} s  first search {first:5.2f} s  "
            f"hybrid search p50 {p50:6.1f} ms  p95 {p95:6.1f} ms"
            + (f"   (goal p50 < {goal} ms)" if goal else "")
            + f"  load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        await embedder.aclose()
        await graph.aclose()


GOALS = {100_000: 40, 1_000_000: 150}


def export_revision(rev: str, dest: Path) -> Path:
    """`rev`'s `src/` under `dest`, to put first on a subprocess's PYTHONPATH."""
    root = Path(__file__).resolve().parent.parent
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(root), "archive", rev, "src"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest / "src"


def against(rev: str, sizes: list[int]) -> None:
    """Each size on this code, then on `rev`'s, each in a fresh process."""
    with tempfile.TemporaryDirectory() as tmp:
        old = export_revision(rev, Path(tmp) / "old")
        for size in sizes:
            for label, src in (("this code", None), (rev, old)):
                env = dict(os.environ)
                if src is not None:
                    env["PYTHONPATH"] = str(src)
                subprocess.run([sys.executable, __file__, "--sizes", str(size), "--label",
                                f"{label:<10}"], env=env, check=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--against", help="a git revision to measure beside this code")
    parser.add_argument("--label", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.against:
        against(args.against, args.sizes)
    else:
        for size in args.sizes:
            asyncio.run(run(size, f"{args.label}  " if args.label else ""))
