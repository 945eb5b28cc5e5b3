"""A fresh process's first search of a deal, with the keyword index saved on disk or built in
memory, and the memory two processes hold; the steady-state p50 beside it.

    .venv/bin/python bench/keyword_bench.py [--sizes 100000 1000000] [--keep DIR] [--rounds 2]
                                            [--against REV]

The store is `search_bench.py`'s (synthetic passages, 500 a completed document, random vectors;
`--keep DIR` builds it once and reuses it). Its IVF index is trained and saved first, so every
process loads it and the figures differ by the keyword index alone. Then fresh processes, one at
a time, alternating: `saved` (this code: the first one ever builds and saves the index, the next
ones open it), `memory` (this code with `keyword_on_disk=False`: each process builds its own, as
before) or, with `--against REV`, that revision's code. Each reports its first keyword search,
its first hybrid search (which also loads the dense index), then the p50/p95 of 60 hybrid searches
and its memory. Two processes of each mode are then kept alive together and their resident (RSS)
and proportional (PSS: shared pages counted once in all) memory summed. Last, one process times
both modes' steady state, hybrid and keyword alone, alternating (ABBA: the fairest p50 comparison on
a busy machine; `--steady-only` runs just that).
The load average is printed beside every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ingest_bench import export_revision
from search_bench import QUERIES, build

GOALS = {100_000: 17.5, 1_000_000: 59.4}  # steady-state hybrid p50 before this change (ms)
SEARCHES = 60


def memory(pid: int | str = "self") -> dict[str, float]:
    """RSS, PSS and private memory of a process in MB (Linux `smaps_rollup`)."""
    fields: dict[str, float] = {}
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            name, _, rest = line.partition(":")
            if rest.strip().endswith("kB"):
                fields[name] = int(rest.split()[0]) / 1024
    return {"rss": fields["Rss"], "pss": fields["Pss"],
            "private": fields["Private_Clean"] + fields["Private_Dirty"]}


async def child(db: Path, mode: str) -> None:
    """One fresh process: its first searches timed, then steady state, then wait on stdin."""
    from manda.embed.offline import OfflineEmbedder
    from manda.kg.embedded import EmbeddedKnowledgeGraph
    from manda.kg.embedded.vectors import DenseOptions
    from manda.retrieval.hybrid import HybridSearch

    embedder = OfflineEmbedder()
    await embedder.start()
    await embedder.embed(["warm the embedder"], "query")
    dense = DenseOptions(engine="auto", index_dir=db.parent / "vector-index")
    options = {} if mode not in ("saved", "memory") else {"keyword_on_disk": mode == "saved"}
    graph = EmbeddedKnowledgeGraph(db, dense=dense, **options)  # type: ignore[arg-type]
    await graph.start()
    search = HybridSearch(graph=graph, embedder=embedder, expand_graph=True)
    started = time.perf_counter()
    await graph.fulltext_search("bench", QUERIES[0], 60)
    keyword_first = time.perf_counter() - started
    started = time.perf_counter()
    await search.search("bench", QUERIES[1], k=5)
    hybrid_first = time.perf_counter() - started
    timings = []
    for i in range(SEARCHES):
        started = time.perf_counter()
        await search.search("bench", QUERIES[i % len(QUERIES)], k=5)
        timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    print(json.dumps({
        "keyword_first": keyword_first, "hybrid_first": hybrid_first,
        "p50": statistics.median(timings), "p95": timings[int(len(timings) * 0.95) - 1],
        "memory": memory(), "load": os.getloadavg()[0],
    }), flush=True)
    sys.stdin.read()  # alive until the parent is done measuring
    await graph.aclose()
    await embedder.aclose()


class Child:
    def __init__(self, db: Path, mode: str, src: Path | None) -> None:
        env = dict(os.environ)
        if src is not None:
            env["PYTHONPATH"] = str(src)
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--child", str(db), "--mode", mode],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True,
        )
        assert self.process.stdout is not None
        self.report = json.loads(self.process.stdout.readline())

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def line(label: str, report: dict[str, float | dict[str, float]]) -> str:
    mem = report["memory"]
    assert isinstance(mem, dict)
    return (f"  {label:<34} first keyword search {report['keyword_first']:6.2f} s, first hybrid "
            f"search {report['hybrid_first']:6.2f} s; then p50 {report['p50']:6.1f} ms, p95 "
            f"{report['p95']:6.1f} ms; RSS {mem['rss']:,.0f} MB (private {mem['private']:,.0f})"
            f"   load {report['load']:.1f}")


async def prepare(folder: Path, size: int) -> Path:
    """The store (built or reused) with its IVF index saved and no saved keyword index."""
    from manda.embed.offline import OfflineEmbedder
    from manda.kg.embedded import EmbeddedKnowledgeGraph

    path = folder / "bench.db"
    graph = EmbeddedKnowledgeGraph(path, keyword_on_disk=False)
    await graph.start()
    embedder = OfflineEmbedder()  # its id and dimension only: no model is loaded
    if not (await graph.list_deals()):
        started = time.perf_counter()
        await build(graph, size, embedder)
        print(f"{size:>9,} chunks: store built in {time.perf_counter() - started:6.1f} s "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)
    query = np.ones(OfflineEmbedder.dimension, dtype=np.float32)
    await graph.vector_search("bench", embedder.id, query, 5)  # the IVF index trained and saved
    await graph.aclose()
    shutil.rmtree(folder / "keyword-index", ignore_errors=True)
    return path


async def steady(db: Path) -> None:
    """The steady-state p50 of both modes in this one process, searches alternating."""
    from manda.embed.offline import OfflineEmbedder
    from manda.kg.embedded import EmbeddedKnowledgeGraph
    from manda.retrieval.hybrid import HybridSearch

    embedder = OfflineEmbedder()
    await embedder.start()
    graphs = {mode: EmbeddedKnowledgeGraph(db, keyword_on_disk=mode == "saved")
              for mode in ("saved", "memory")}
    searches = {}
    for mode, graph in graphs.items():
        await graph.start()
        searches[mode] = HybridSearch(graph=graph, embedder=embedder, expand_graph=True)
        await searches[mode].search("bench", "warm up", k=5)
    timings: dict[tuple[str, str], list[float]] = {}
    order = list(searches)
    for i in range(4 * SEARCHES):
        question = QUERIES[i % len(QUERIES)]
        for mode in order if i % 2 else order[::-1]:  # ABBA: neither mode always goes first
            started = time.perf_counter()
            await searches[mode].search("bench", question, k=5)
            middle = time.perf_counter()
            await graphs[mode].fulltext_search("bench", question, 60)
            ended = time.perf_counter()
            timings.setdefault(("hybrid", mode), []).append((middle - started) * 1000)
            timings.setdefault(("keyword", mode), []).append((ended - middle) * 1000)
    for (what, mode), times in timings.items():
        times.sort()
        print(f"  steady state, one process alternating, {mode:>6}: {what} p50 "
              f"{statistics.median(times):6.1f} ms, p95 {times[int(len(times) * 0.95) - 1]:6.1f}"
              f" ms   load {os.getloadavg()[0]:.1f}", flush=True)
    for graph in graphs.values():
        await graph.aclose()
    await embedder.aclose()


def run(
    size: int, keep: Path | None, rounds: int, against: str | None, src: Path | None,
    steady_only: bool = False,
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep / str(size) if keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        db = asyncio.run(prepare(folder, size))
        if steady_only:
            asyncio.run(steady(db))
            return
        before = against or "memory"
        old_src = src if against else None
        print(f"{size:>9,} chunks (steady-state hybrid p50 before: {GOALS.get(size, '?')} ms on "
              "a quiet machine)", flush=True)
        first = Child(db, "saved", None)
        first.close()
        print(line("saved, first process ever (builds)", first.report), flush=True)
        for _ in range(rounds):
            for mode, label, code in ((before, f"{before}, fresh process", old_src),
                                      ("saved", "saved, fresh process (opens it)", None)):
                fresh = Child(db, mode, code)
                fresh.close()
                print(line(label, fresh.report), flush=True)
        for mode, code in (("saved", None), (before, old_src)):
            pair = [Child(db, mode, code), Child(db, mode, code)]
            held = [memory(c.process.pid) for c in pair]
            for c in pair:
                c.close()
            print(f"  two {mode} processes alive together: RSS {sum(m['rss'] for m in held):,.0f}"
                  f" MB, PSS {sum(m['pss'] for m in held):,.0f} MB (shared pages counted once), "
                  f"private {sum(m['private'] for m in held):,.0f} MB   load "
                  f"{os.getloadavg()[0]:.1f}", flush=True)
        asyncio.run(steady(db))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    parser.add_argument("--keep", type=Path, help="build each store once in this folder and "
                        "reuse it on later runs (the 1M store takes minutes to build)")
    parser.add_argument("--rounds", type=int, default=2, help="fresh processes of each mode")
    parser.add_argument("--against", help="a git revision whose code is the 'before' (default: "
                        "this code with the keyword index in memory)")
    parser.add_argument("--steady-only", action="store_true",
                        help="only the steady-state comparison, in one process")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--mode", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(child(args.child, args.mode))
        return
    with tempfile.TemporaryDirectory() as tmp:
        src = export_revision(args.against, Path(tmp) / "old") if args.against else None
        for size in args.sizes:
            run(size, args.keep, args.rounds, args.against, src, args.steady_only)


if __name__ == "__main__":
    main()
