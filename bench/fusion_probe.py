"""Recall of the evidence page for BM25, dense, RRF and weighted fusion: the figures behind
FusionWeights' defaults.

Ingests the sample deals (always) and the 10-K filings probe (when evals/retrieval/ has it) into
a temporary MANDA_HOME with the embedded defaults, then asks every probe question under each
search setting, with and without graph expansion, and prints recall@1/5/10 of the page (or
location) that holds the evidence. The last row is the issue's baseline: plain BM25 over whole
pages. Run: `.venv/bin/python bench/fusion_probe.py [--misses]`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _probe import (
    Probe,
    Recall,
    filings_present,
    filings_probe,
    ingest_probe,
    measure,
    page_bm25,
    sample_probe,
    search_settings,
)

from manda.app import Manda
from manda.config import Settings


async def run(show_misses: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="manda-fusion-") as tmp:
        root = Path(tmp)
        probes: list[Probe] = [sample_probe(root / "sample")]
        if filings_present():
            probes.append(filings_probe(root / "filings"))
        else:
            print("(evals/retrieval/filings not found: sample deals only)")
        async with Manda(Settings(MANDA_HOME=root / "home")) as app:
            for probe in probes:
                started = time.perf_counter()
                skipped = await ingest_probe(app, probe)
                note = f"; skipped as expected: {'; '.join(skipped)}" if skipped else ""
                files = sum(len(list(p.rglob("*"))) if p.is_dir() else 1
                            for paths in probe.files.values() for p in paths)
                print(f"ingested {probe.name}: {files} files, {len(probe.questions)} questions "
                      f"in {time.perf_counter() - started:.1f}s{note}")
            rows: list[tuple[str, str, list[Recall]]] = []
            for expand in (False, True):
                for setting in search_settings(expand):
                    search = setting.build(app)
                    rows.append((setting.name, "yes" if expand else "no",
                                 [await measure(search, probe) for probe in probes]))
        rows.append(("BM25 over whole pages (baseline)", "-", [page_bm25(p) for p in probes]))
    _print_table(probes, rows, show_misses)
    print()
    print("Sample-deal questions are generated from the ground-truth facts' subjects and periods, "
          "so they favour BM25 and the facts channel; the 10-K questions are written as an "
          "analyst would ask them.")


def _print_table(probes: list[Probe], rows: list[tuple[str, str, list[Recall]]],
                 show_misses: bool) -> None:
    head = "| setting | graph |" + "".join(
        f" {p.name} R@1 | R@5 | R@10 |" for p in probes
    )
    print()
    print(head)
    print("|" + "---|" * (2 + 3 * len(probes)))
    for name, expand, results in rows:
        cells = "".join(
            f" {r.at(1):.3f} | **{r.at(5):.3f}** | {r.at(10):.3f} |" for r in results
        )
        print(f"| {name} | {expand} |{cells}")
    if show_misses:
        print()
        for name, expand, results in rows:
            for probe, result in zip(probes, results, strict=True):
                missed = result.misses(5)
                if missed:
                    print(f"{name} (graph {expand}) / {probe.name}: not in top 5: "
                          + ", ".join(missed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list questions missed at k=5")
    args = parser.parse_args()
    asyncio.run(run(args.misses))


if __name__ == "__main__":
    main()
