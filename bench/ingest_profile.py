"""Where ingestion time goes: cProfile over the generated dense room, grouped by pipeline stage.

    .venv/bin/python bench/ingest_profile.py [--pages 1000] [--top 25]

Prints the stages (parse, chunk, embed, extract, review, store) as a share of the run, then the
functions with the most cumulative time. Measure here before changing the pipeline for speed.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _rooms import make_room

from manda.app import Manda
from manda.config import Settings


class StageClock:
    """Wall time per pipeline stage, by wrapping the stage functions (threads included, which
    cProfile, bound to the main thread, does not see)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def wrap(self, owner: object, name: str, stage: str) -> None:
        original = getattr(owner, name)
        clock = self

        if asyncio.iscoroutinefunction(original):
            async def timed_async(*args: object, **kwargs: object) -> object:
                started = time.perf_counter()
                try:
                    return await original(*args, **kwargs)
                finally:
                    clock.add(stage, time.perf_counter() - started)

            setattr(owner, name, timed_async)
        else:
            def timed(*args: object, **kwargs: object) -> object:
                started = time.perf_counter()
                try:
                    return original(*args, **kwargs)
                finally:
                    clock.add(stage, time.perf_counter() - started)

            setattr(owner, name, timed)

    def add(self, stage: str, seconds: float) -> None:
        self.seconds[stage] = self.seconds.get(stage, 0.0) + seconds


async def ingest(folder: Path, home: Path, clock: StageClock) -> tuple[int, float]:
    from manda.ingest import review_graph

    async with Manda(Settings(MANDA_HOME=home)) as app:
        await app.embedder.start()  # the model load is not ingestion
        # parse, profile, chunk and rule extraction run in the reader process: timed as one
        clock.wrap(app.ingest._sandbox, "read", "read: parse+chunk+rules (sandbox)")
        clock.wrap(app.embedder, "_embed_batch", "embed: model (thread)")
        clock.wrap(app.embedder, "embed", "embed: all")
        if not getattr(app.extractor, "sandboxed", False):  # else it is pickled to the reader
            clock.wrap(app.extractor, "extract", "extract (in the caller)")
        clock.wrap(review_graph, "run_review_pipeline", "review pipeline")
        clock.wrap(app.graph, "add_chunks", "store chunks")
        clock.wrap(app.graph, "add_vectors", "store vectors")
        clock.wrap(app.graph, "add_findings", "store findings")
        clock.wrap(app.ingest, "_relate", "relations")
        clock.wrap(app.ingest, "_store_document", "store document (all of it)")
        started = time.perf_counter()
        report = await app.ingest.ingest("big", [folder])
        return report.pages, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    clock = StageClock()
    with tempfile.TemporaryDirectory() as tmp:
        room = make_room(Path(tmp) / "room", pages=args.pages)
        profile = cProfile.Profile()
        profile.enable()
        pages, seconds = asyncio.run(ingest(room, Path(tmp) / "home", clock))
        profile.disable()
    print(f"{pages} pages in {seconds:.1f} s: {pages / seconds:.1f} pages/s (timed per stage)\n")
    print("stage                     seconds  share")
    for stage, spent in sorted(clock.seconds.items(), key=lambda kv: -kv[1]):
        print(f"{stage:<24} {spent:8.1f}  {spent / seconds:5.0%}")
    print("\nmain thread, by cumulative time:")
    pstats.Stats(profile).sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
