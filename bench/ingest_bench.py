"""Ingestion throughput (pages per second) and peak memory on the sample room and generated rooms.

    .venv/bin/python bench/ingest_bench.py [--pages 1000] [--pages 10000]

Goals: ≥ 25 pages/s offline on 2 cores on the dense 1,000-page room; a 10,000-page room within
2 GB of memory (peak resident set of this process, which does all the work).
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _rooms import make_room

from manda.app import Manda
from manda.config import Settings
from manda.sample import generate_sample_rooms


async def measure(label: str, deal: str, folder: Path, home: Path) -> None:
    async with Manda(Settings(MANDA_HOME=home)) as app:
        started = time.perf_counter()
        report = await app.ingest.ingest(deal, [folder])
        seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{label:<22} {len(report.ingested):>4} files {report.pages:>5} pages/sheets/slides "
        f"{report.findings:>5} findings {seconds:7.2f} s  {report.pages / seconds:7.1f} pages/s "
        f"(goal ≥ 25)  peak RSS {peak_mb:,.0f} MB (goal ≤ 2,048 at 10,000 pages)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, action="append",
                        help="generated room sizes (default 1000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rooms = generate_sample_rooms(root / "sample")
        await measure("sample room (targetco)", "targetco", rooms["targetco"], root / "home1")
        for pages in args.pages or [1000]:
            big = make_room(root / f"big{pages}", pages=pages)
            await measure(f"generated {pages:,} pages", "big", big, root / f"home{pages}")


if __name__ == "__main__":
    asyncio.run(main())
