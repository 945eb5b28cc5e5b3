"""The embedded store's keyword channel alone: writing chunks, a fresh store's first search, p50.

    .venv/bin/python bench/keyword_bench.py [--sizes 100000 1000000] [--against main]

Chunks (the synthetic passages of `search_bench.py`, 500 per completed document) are written
through the store as ingestion writes them, so the write figure includes keeping the keyword
index's bookkeeping (FTS5's index before schema version 3, the change log after). Then a fresh
store on the file runs its first `fulltext_search` (what a new `manda search` process pays: the
tantivy index is built from SQLite in memory) and the p50/p95 of the next searches. With
`--against REV` each size also runs on that revision's code (its `src/` exported with `git
archive`) in a fresh process right after, the load average printed beside each figure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_bench import QUERIES, export_revision, passage

from manda.kg.embedded import EmbeddedKnowledgeGraph
from manda.models import Chunk, Deal, Document, DocumentStatus, Location

PER_DOCUMENT = 500
K = 60  # what hybrid search asks each channel for


async def write(graph: EmbeddedKnowledgeGraph, size: int) -> None:
    rng = random.Random(3)
    await graph.upsert_deal(Deal(id="bench"))
    for d in range(size // PER_DOCUMENT):
        document = Document(id=f"d{d}", deal_id="bench", filename=f"doc{d}.pdf",
                            content_hash=f"h{d}", file_type="pdf", size_bytes=1,
                            version_family=f"doc{d}", status=DocumentStatus.COMPLETED)
        await graph.upsert_document(document)
        await graph.add_chunks("bench", [
            Chunk(id=f"d{d}_c{i}", deal_id="bench", document_id=document.id, ordinal=i,
                  text=passage(rng), location=Location.for_page(i + 1))
            for i in range(PER_DOCUMENT)
        ])


async def run(size: int, label: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        graph = EmbeddedKnowledgeGraph(path)
        await graph.start()
        started = time.perf_counter()
        await write(graph, size)
        written = time.perf_counter() - started
        await graph.aclose()
        graph = EmbeddedKnowledgeGraph(path)
        await graph.start()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.perf_counter()
        await graph.fulltext_search("bench", QUERIES[0], K)
        first = time.perf_counter() - started
        grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss) / 1024
        timings = []
        for i in range(80):
            started = time.perf_counter()
            await graph.fulltext_search("bench", QUERIES[i % len(QUERIES)], K)
            timings.append((time.perf_counter() - started) * 1000)
        await graph.aclose()
    timings.sort()
    p50, p95 = statistics.median(timings), timings[int(len(timings) * 0.95) - 1]
    print(f"{label:<10} {size:>9,} chunks  write {size / written:7,.0f} chunks/s  first search "
          f"{first:6.2f} s (+{grown:,.0f} MB peak RSS)  keyword p50 {p50:6.2f} ms  p95 "
          f"{p95:6.2f} ms  load {os.getloadavg()[0]:.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    parser.add_argument("--against", help="a git revision to measure beside this code")
    parser.add_argument("--label", default="this code", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.against:
        for size in args.sizes:
            asyncio.run(run(size, args.label))
        return
    with tempfile.TemporaryDirectory() as tmp:
        old = export_revision(args.against, Path(tmp) / "old")
        for size in args.sizes:
            for label, src in (("this code", None), (args.against, old)):
                env = dict(os.environ)
                if src is not None:
                    env["PYTHONPATH"] = str(src)
                subprocess.run([sys.executable, __file__, "--sizes", str(size), "--label", label],
                               env=env, check=True)


if __name__ == "__main__":
    main()
