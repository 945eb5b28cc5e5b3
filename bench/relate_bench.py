"""Memory and time of the deal-wide passes after ingestion (relations above all) on a large room.

    .venv/bin/python bench/relate_bench.py [--pages 10000] [--against REV] [--rounds 2]

The generated room is ingested once without embeddings (they do not change these passes), then
ingested again in fresh processes: every file is unchanged, so only the deal-wide passes run, on
a copy of the same store each time. With `--against REV` that revision's code (its `src/`,
exported with `git archive`) runs them too, alternating, so both figures come from one run of a
shared machine. Goal: a 10,000-page room within 2 GB (`bench/ingest_bench.py` measures the
whole ingestion).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from embed_bench import resident_mb
from ingest_bench import export_revision


async def ingest(room: Path, home: Path, label: str) -> None:
    import manda
    import manda.ingest.review_graph  # loaded by any ingestion: not part of this pass
    from manda.app import Manda
    from manda.config import Settings
    from manda.ingest.parsers import ParseLimits
    from manda.ingest.service import IngestService

    async with Manda(Settings(MANDA_HOME=home)) as app:
        service = IngestService(graph=app.graph, embedder=None, extractor=app.extractor,
                                limits=ParseLimits.from_settings(app.settings))
        before, started = resident_mb(), time.perf_counter()
        report = await service.ingest("big", [room])
        seconds = time.perf_counter() - started
    if not label:
        print(f"room ingested: {report.pages:,} pages, {report.findings:,} findings in "
              f"{seconds:.0f} s", flush=True)
        return
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{label:<12} {len(report.unchanged)} files unchanged, {report.contradictions} "
          f"conflicts, {report.superseded} superseded: {seconds:6.1f} s, resident {before:,.0f} MB "
          f"before, peak {peak:,.0f} MB (goal ≤ 2,048 for the whole ingestion)  load "
          f"{os.getloadavg()[0]:.1f}  [{Path(manda.__file__).parent.parent}]", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--against", help="a git revision to measure beside this code")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--room", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--home", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--label", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.room is not None:  # one pass, in this process
        asyncio.run(ingest(args.room, args.home, args.label))
        return

    from _rooms import make_room

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        codes: dict[str, Path | None] = {"this code": None}
        if args.against:
            codes[args.against] = export_revision(args.against, root / "old")
        room = make_room(root / "room", pages=args.pages)
        first = root / "home"

        def run(home: Path, label: str, src: Path | None) -> None:
            env = dict(os.environ)
            if src is not None:
                env["PYTHONPATH"] = str(src)
            subprocess.run([sys.executable, __file__, "--room", str(room), "--home", str(home),
                            "--label", label], env=env, check=True)

        run(first, "", None)
        for _ in range(args.rounds):
            for label, src in codes.items():
                home = root / "again"
                shutil.rmtree(home, ignore_errors=True)
                shutil.copytree(first, home)
                run(home, label, src)


if __name__ == "__main__":
    main()
