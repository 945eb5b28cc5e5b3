"""Recall of the evidence page on the real-filings probe, dev and held-out halves side by side.

Ingests the eight SEC filings of evals/retrieval/ (seven companies) into one deal in a temporary
MANDA_HOME, stores a second vector index of the same chunks made by the windowed offline embedder,
then asks every probe question under each search setting: the baselines (plain BM25 over whole
pages, BM25 over chunks, dense only), the previous default (no location merging, no vocabulary,
routing or sub-queries), each change added alone, issue 17's first-round default and each
second-round change added to it alone (line-item rows, the implied-statement bonus, the pool),
and the new default. Recall counts distinct
locations (document and page): "top 5" is the first five distinct pages a person is shown. The
previous default is also shown as it returned raw chunks, duplicates included. Tune on dev; the
README quotes held-out. Run: `.venv/bin/python bench/filings_probe.py [--misses] [--grid]`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _probe import (
    FILINGS_DEAL,
    Probe,
    Recall,
    SearchSetting,
    filings_present,
    filings_probe,
    ingest_probe,
    measure,
    page_bm25,
)

from manda.app import Manda
from manda.config import Settings
from manda.embed.offline import OfflineEmbedder
from manda.models import DocumentStatus
from manda.retrieval.hybrid import FusionWeights, Routing

GOALS = {5: 0.85, 10: 0.95}
WINDOWS = 4

PREVIOUS = SearchSetting("previous default (0.5/0.5/0.4, graph)", expand_graph=True,
                         expand_vocabulary=False, routing=None, split_compound=False, pool=40)
# issue 17's first round: vocabulary, routing (0.3 named / 0.1 implied), sub-queries, 40 passages
ROUND1 = SearchSetting("round 1 default", expand_graph=True, pool=40,
                       routing=Routing(implied=0.1, line_item=0.0))
NEW = SearchSetting("new default", expand_graph=True)


def settings() -> list[tuple[SearchSetting, bool, str]]:
    """(setting, merge locations in the search, which vectors) in the order printed."""
    plain = dict(expand_vocabulary=False, routing=None, split_compound=False)
    return [
        (SearchSetting("BM25 only (chunks)", dense=False,
                       weights=FusionWeights(dense=0.0, bm25=1.0, facts=0.0), **plain),
         True, "truncated"),
        (SearchSetting("dense only, 128 pieces (truncated)",
                       weights=FusionWeights(dense=1.0, bm25=0.0, facts=0.0), **plain),
         True, "truncated"),
        (SearchSetting(f"dense only, {WINDOWS} windows pooled",
                       weights=FusionWeights(dense=1.0, bm25=0.0, facts=0.0), **plain),
         True, "windows"),
        (PREVIOUS, False, "truncated"),
        (replace(PREVIOUS, name="+ distinct locations"), True, "truncated"),
        (replace(PREVIOUS, name="+ distinct + vocabulary", expand_vocabulary=True), True,
         "truncated"),
        (replace(PREVIOUS, name="+ distinct + statement routing", routing=Routing()), True,
         "truncated"),
        (replace(PREVIOUS, name="+ distinct + compound sub-queries", split_compound=True), True,
         "truncated"),
        (ROUND1, True, "truncated"),
        (replace(ROUND1, name="round 1 + line-item rows (0.1)",
                 routing=Routing(implied=0.1, line_item=0.1)), True, "truncated"),
        (replace(ROUND1, name="round 1 + implied statement 0.2",
                 routing=Routing(implied=0.2, line_item=0.0)), True, "truncated"),
        (replace(ROUND1, name="round 1 + pool of 60", pool=60), True, "truncated"),
        (NEW, True, "truncated"),
        (replace(NEW, name="new default, siblings add 0.1 of their score", sibling_weight=0.1),
         True, "truncated"),
        (replace(NEW, name=f"new default, {WINDOWS} windows pooled"), True, "windows"),
    ]


def grid() -> list[tuple[SearchSetting, bool, str]]:
    """Fusion weights and routing bonuses around the default: chosen on dev only."""
    out = []
    for facts in (0.2, 0.4):
        for dense in (0.4, 0.5):
            weights = FusionWeights(dense=dense, bm25=round(1 - dense, 2), facts=facts)
            out.append((replace(NEW, name=f"weights {dense:.2f}/{1 - dense:.2f}/{facts:.1f}",
                                weights=weights), True, "truncated"))
    for named, implied, document in ((0.3, 0.1, 0.0), (0.3, 0.1, 0.3), (0.3, 0.1, 0.5),
                                     (0.3, 0.1, 0.7), (0.3, 0.1, 1.0), (0.5, 0.3, 0.5),
                                     (0.5, 0.3, 0.7), (0.3, 0.2, 0.5)):
        out.append((replace(NEW, name=f"routing {named}/{implied}/document {document}",
                            routing=Routing(named=named, implied=implied, document=document)),
                    True, "truncated"))
    return out


async def add_windowed_vectors(app: Manda, embedder: OfflineEmbedder) -> float:
    """Embed every chunk of the probe deal again with the windowed embedder (its own index)."""
    started = time.perf_counter()
    have = await app.graph.embedded_chunk_ids(FILINGS_DEAL, embedder.id)
    chunks = []
    for doc in await app.graph.list_documents(FILINGS_DEAL):
        if doc.status is DocumentStatus.COMPLETED:
            chunks += [c for c in await app.graph.list_chunks(FILINGS_DEAL, doc.id)
                       if c.id not in have]
    for start in range(0, len(chunks), 64):
        batch = chunks[start : start + 64]
        vectors = await embedder.embed([c.text for c in batch], "document")
        await app.graph.add_vectors(FILINGS_DEAL, embedder.id, [c.id for c in batch], vectors)
    return time.perf_counter() - started


async def run(show_misses: bool, with_grid: bool, keep: Path | None, quick: bool) -> None:
    if not filings_present():
        raise SystemExit("evals/retrieval/filings is missing: see evals/retrieval/PROVENANCE.md")
    with tempfile.TemporaryDirectory(prefix="manda-filings-") as tmp:
        root = keep or Path(tmp)  # --keep: ingest once, re-run searches (re-ingesting is a no-op)
        probe = filings_probe(root / "filings")
        halves = [probe.half("dev"), probe.half("heldout")]
        windowed = OfflineEmbedder(max_windows=WINDOWS)
        async with Manda(Settings(MANDA_HOME=root / "home")) as app:
            started = time.perf_counter()
            await ingest_probe(app, probe)
            ingest_s = time.perf_counter() - started
            windows_s = await add_windowed_vectors(app, windowed)
            chunks = 0
            for doc in await app.graph.list_documents(FILINGS_DEAL):
                chunks += len(await app.graph.list_chunks(FILINGS_DEAL, doc.id))
            print(f"{len(probe.files[FILINGS_DEAL])} filings, {chunks} chunks, "
                  f"{len(probe.questions)} questions ({len(halves[0].questions)} dev, "
                  f"{len(halves[1].questions)} held-out); ingest {ingest_s:.0f} s, "
                  f"{WINDOWS}-window vectors {windows_s:.0f} s")
            rows: list[tuple[str, list[Recall]]] = [
                ("BM25 over whole pages (baseline)", [page_bm25(h) for h in halves])]
            raw = [await measure(PREVIOUS.build(app), h, distinct=False, merge=False)
                   for h in halves]
            rows.append(("previous default, raw chunks as shown (duplicates count)", raw))
            chosen = settings()
            if quick:
                chosen = [c for c in chosen
                          if c[0].name.startswith(("previous", "round 1 default", "new"))]
            if with_grid:
                chosen = [c for c in chosen if c[0].name.startswith("new")] + grid()
            for setting, merge, vectors in chosen:
                embedder = windowed if vectors == "windows" else None
                search = setting.build(app, embedder)
                started = time.perf_counter()
                results = [await measure(search, h, merge=merge) for h in halves]
                per_q = (time.perf_counter() - started) / len(probe.questions) * 1000
                rows.append((f"{setting.name} ({per_q:.0f} ms/q)", results))
            await windowed.aclose()
    _print(halves, rows, show_misses)


def _print(halves: list[Probe], rows: list[tuple[str, list[Recall]]], show_misses: bool) -> None:
    print()
    print("| setting | dev R@1 | dev R@5 | dev R@10 "
          "| held-out R@1 | held-out R@5 | held-out R@10 |")
    print("|---|---|---|---|---|---|---|")
    for name, (dev, held) in rows:
        print(f"| {name} | {dev.at(1):.3f} | {dev.at(5):.3f} | {dev.at(10):.3f} "
              f"| {held.at(1):.3f} | **{held.at(5):.3f}** | **{held.at(10):.3f}** |")
    print(f"\ngoals on held-out (distinct locations): R@5 ≥ {GOALS[5]}, R@10 ≥ {GOALS[10]}")
    if show_misses:
        for name, results in rows:
            for half, result in zip(halves, results, strict=True):
                missed = result.misses(5)
                if missed:
                    print(f"{name} / {half.name}: not in top 5: {', '.join(missed)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list questions missed at k=5")
    parser.add_argument("--grid", action="store_true", help="also the weight grid (tune on dev)")
    parser.add_argument("--keep", type=Path, help="a folder to keep the ingested home in")
    parser.add_argument("--quick", action="store_true", help="previous and new defaults only")
    args = parser.parse_args()
    asyncio.run(run(args.misses, args.grid, args.keep, args.quick))


if __name__ == "__main__":
    main()
