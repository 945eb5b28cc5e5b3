"""Where hybrid search time goes at 100k chunks: wall time per store call and the embedder.

    .venv/bin/python bench/search_profile.py [--chunks 100000|1000000] [--queries 60]
                                             [--keep DIR] [--against main]

The store runs its default dense engine (past 50k chunks the IVF index, built before timing).
With `--against REV` the same profile also runs on that revision's code (its `src/` first on the
PYTHONPATH of a fresh process, as `ingest_bench.py --against` does), one after the other.

The store's calls run on its SQLite thread, which cProfile (bound to the main thread) does not
see; here each call of the search path is timed from the caller, so the costliest shows first.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from ingest_bench import export_revision
from ingest_profile import StageClock
from search_bench import QUERIES, build

from manda.embed.offline import OfflineEmbedder
from manda.kg.embedded import EmbeddedKnowledgeGraph
from manda.retrieval.hybrid import HybridSearch

CALLS = ("fulltext_search", "vector_search", "list_findings", "findings_for_chunks",
         "list_relations", "get_chunks", "list_documents", "get_document", "get_finding")


async def main(chunks: int, queries: int, keep: Path | None, label: str = "this code") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = (keep / str(chunks) if keep else Path(tmp)) / "bench.db"
        fresh = not path.exists()
        graph = EmbeddedKnowledgeGraph(path)
        embedder = OfflineEmbedder()
        await graph.start()
        await embedder.start()
        if fresh:
            await build(graph, chunks, embedder)
        search = HybridSearch(graph=graph, embedder=embedder, expand_graph=True)
        await search.search("bench", "warm up", k=5)
        clock = StageClock()
        for name in CALLS:
            clock.wrap(graph, name, name)
        clock.wrap(embedder, "embed", "embed query")
        timings = []
        for i in range(queries):
            started = time.perf_counter()
            await search.search("bench", QUERIES[i % len(QUERIES)], k=5)
            timings.append((time.perf_counter() - started) * 1000)
        total = sum(timings) / 1000
        goal = {100_000: 40, 1_000_000: 150}.get(chunks)
        print(f"{label}: {chunks:,} chunks, {queries} searches: p50 "
              f"{statistics.median(timings):.1f} ms" + (f" (goal < {goal} ms)" if goal else "")
              + f", load {os.getloadavg()[0]:.1f}\n")
        print("call                      ms/search  share")
        for stage, spent in sorted(clock.seconds.items(), key=lambda kv: -kv[1]):
            print(f"{stage:<24} {spent * 1000 / queries:9.1f}  {spent / total:5.0%}")
        await embedder.aclose()
        await graph.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--keep", type=Path,
                        help="reuse the store `search_bench.py --keep` built in this folder")
    parser.add_argument("--against", help="a git revision to profile after this code")
    parser.add_argument("--label", default="this code", help=argparse.SUPPRESS)
    args = parser.parse_args()
    asyncio.run(main(args.chunks, args.queries, args.keep, args.label))
    if args.against:
        with tempfile.TemporaryDirectory() as tmp:
            old = export_revision(args.against, Path(tmp) / "old")
            env = {**os.environ, "PYTHONPATH": str(old)}
            print(flush=True)
            command = [sys.executable, __file__, "--chunks", str(args.chunks), "--queries",
                       str(args.queries), "--label", args.against]
            if args.keep:
                command += ["--keep", str(args.keep)]
            subprocess.run(command, env=env, check=True)
