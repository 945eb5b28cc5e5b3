"""Ingestion throughput (pages per second) and peak memory on the sample room and generated rooms.

    .venv/bin/python bench/ingest_bench.py [--pages 1000] [--pages 10000] [--fiscal]
                                           [--against REV]

Goals: ≥ 25 pages/s offline on 2 cores on the dense 1,000-page room; a 10,000-page room within
2 GB of memory (peak resident set of the process that ingests, the sandboxed reader apart). With
`--against REV` each room is also ingested by that revision's code (its `src/` exported with
`git archive`, on this environment's packages), alternating, so both figures come from one run
of a shared machine; the load average is printed beside each figure. `--fiscal` adds the two
rooms whose year does not end on 31 December (Pennine, Tidewater): their first ingestion reads
again, with the learned year end, the files read before it was known.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

ROOT = Path(__file__).resolve().parent.parent


async def measure(label: str, deal: str, folder: Path, home: Path) -> None:
    from manda.app import Manda
    from manda.config import Settings

    async with Manda(Settings(MANDA_HOME=home)) as app:
        await app.embedder.start()  # loading the model is not ingestion
        started = time.perf_counter()
        report = await app.ingest.ingest(deal, [folder])
        seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    load = os.getloadavg()[0]
    print(
        f"{label:<34} {len(report.ingested):>5} files {report.pages:>6} pages "
        f"{report.findings:>6} findings {seconds:7.1f} s {report.pages / seconds:6.1f} pages/s "
        f"(goal ≥ 25)  peak RSS {peak_mb:,.0f} MB (goal ≤ 2,048 at 10,000 pages)  load {load:.1f}",
        flush=True,
    )


def in_subprocess(label: str, folder: Path, home: Path, src: Path | None) -> None:
    """One measurement in a fresh process (its own peak RSS), on `src` when given."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    subprocess.run(
        [sys.executable, __file__, "--room", str(folder), "--home", str(home), "--label", label],
        env=env, check=True,
    )


def export_revision(rev: str, dest: Path) -> Path:
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest / "src"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, action="append",
                        help="generated room sizes (default 1000)")
    parser.add_argument("--against", help="a git revision to measure beside this code")
    parser.add_argument("--fiscal", action="store_true",
                        help="also the rooms with a 31 March and a 30 June year end")
    parser.add_argument("--room", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--home", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--label", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.room is not None:  # one measurement, in this process
        deal = "targetco" if "sample" in args.label else "big"
        asyncio.run(measure(args.label, deal, args.room, args.home))
        return

    from _rooms import make_room

    from manda.sample import generate_sample_rooms

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        codes: dict[str, Path | None] = {"this code": None}
        if args.against:
            codes[args.against] = export_revision(args.against, root / "old")
        rooms = [("sample room (targetco)", generate_sample_rooms(root / "sample")["targetco"])]
        if args.fiscal:
            from manda.sample.generate import generate_eval_rooms

            fiscal = generate_eval_rooms(root / "fiscal")
            rooms += [("pennine (year to 31 March)", fiscal["pennine"]),
                      ("tidewater (year to 30 June)", fiscal["tidewater"])]
        for pages in args.pages or [1000]:
            rooms.append((f"generated {pages:,} pages", make_room(root / f"big{pages}",
                                                                  pages=pages)))
        for name, folder in rooms:
            for n, (code, src) in enumerate(codes.items()):
                in_subprocess(f"{name}, {code}", folder, root / f"home-{name}-{n}", src)


if __name__ == "__main__":
    main()
