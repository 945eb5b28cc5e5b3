"""Answers on the real SEC filings, checked against an answer key written before any was run.

Ingests the eight 10-K filings of evals/retrieval/ into one deal (as bench/filings_probe.py does),
asks every question through the real answering path (`AnswerService.ask`, as `manda ask` does; the
offline composer unless keys are set) and checks each answer against
evals/retrieval/filings_answers.json: (a) the key facts are in the answer, (b) the first one is in
its first line, (c) the evidence document is cited (and the evidence page), (d) it does not say
"not found" — every question's evidence page is in the room. Dev and held-out are printed apart;
tune on dev, quote held-out. Run: `.venv/bin/python bench/filings_answers.py [--misses]`
(`--keep DIR` ingests once into DIR and reuses it; `--save PATH` writes every answer's score,
`--against PATH` lists what changed since a saved run).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _answer_key import Score, load_key, score
from _probe import FILINGS_DEAL, filing_questions, filings_present, filings_probe, ingest_probe

from manda.app import Manda
from manda.config import Settings

GOALS = {"right": 0.6, "in_answer": 0.8, "not_found": 0.05, "wrong_figure": 0.0}  # held-out
COLUMNS = (
    ("in_answer", "key fact in answer"),
    ("in_first_line", "in first line"),
    ("cites_document", "cites evidence doc"),
    ("cites_page", "cites evidence page"),
    ("not_found", "says not found"),
    ("wrong_figure", "states a wrong figure for the metric asked"),
    ("right", "right (first line + page)"),
)
# a column where fewer is better: listed among a miss's failures when it is true
_BAD = {"not_found", "wrong_figure"}


def _machine() -> str:
    """The CPU the run's embeddings were computed on, and its int8 dot-product instructions."""
    import platform

    flags: set[str] = set()
    name = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name":
                name = value.strip()
            elif key.strip() == "flags":
                flags = set(value.split())
                break
    except OSError:
        pass
    int8 = [f for f in ("avx512_vnni", "avx_vnni", "avx512bw", "avx2") if f in flags]
    try:
        from importlib.metadata import PackageNotFoundError, version

        runtime = f"onnxruntime {version('onnxruntime')}"
    except PackageNotFoundError:
        runtime = "no onnxruntime"
    return f"{name}; {', '.join(int8) or 'no AVX2'}; {runtime}"


async def run_answers(root: Path, only: set[str] | None, split: str | None) -> tuple[
        list[Score], float, float, str]:
    probe = filings_probe(root / "filings")
    key = load_key()
    questions = [q for q in filing_questions()
                 if (only is None or q["id"] in only) and (split is None or q["split"] == split)]
    async with Manda(Settings(MANDA_HOME=root / "home")) as app:
        # what was measured: the adapters that served each port (as `manda doctor` says them)
        engines = ", ".join(f"{c.port} {c.adapter}" for c in app.choices)
        # the offline embedder's int8 products differ between CPUs (VNNI or not): near-ties in
        # retrieval fall differently, so a run names the model and the machine it ran on
        engines += "".join(f"\n  {c.port}: {c.reason}" for c in app.choices
                           if c.port == "embeddings") + f"\n  machine: {_machine()}"
        started = time.perf_counter()
        skipped = await ingest_probe(app, probe)
        ingest_s = time.perf_counter() - started
        if skipped:
            print("skipped: " + "; ".join(skipped))
        scores = []
        started = time.perf_counter()
        for q in questions:
            answer = await app.answers.ask(FILINGS_DEAL, q["question"])
            scores.append(score(key[q["id"]], q["split"], answer))
        ask_s = time.perf_counter() - started
    return scores, ingest_s, ask_s, engines


def _share(scores: list[Score], column: str) -> str:
    if not scores:
        return "-"
    hits = sum(1 for s in scores if getattr(s, column))
    return f"{hits / len(scores):.3f} ({hits}/{len(scores)})"


def report(scores: list[Score], show_misses: bool) -> None:
    halves = [("dev", [s for s in scores if s.split == "dev"]),
              ("held-out", [s for s in scores if s.split == "heldout"])]
    print("\n| check | " + " | ".join(name for name, _ in halves) + " |")
    print("|---|" + "---|" * len(halves))
    for column, label in COLUMNS:
        print(f"| {label} | " + " | ".join(_share(h, column) for _, h in halves) + " |")
    print("\ngoals on held-out: right ≥ {right}, key fact in answer ≥ {in_answer}, "
          "says not found ≤ {not_found}, states a wrong figure = {wrong_figure}".format(**GOALS))
    if not show_misses:
        return
    key = load_key()
    questions = {q["id"]: q["question"] for q in filing_questions()}
    for name, half in halves:
        wrong = [s for s in half if not s.right or s.wrong_figure]
        if wrong:
            print(f"\n{name}: {len(wrong)} not right")
        for s in wrong:
            failed = [label for column, label in COLUMNS
                      if column != "right" and (getattr(s, column) == (column in _BAD))]
            facts = " and ".join("/".join(alts) for alts in key[s.id].facts)
            print(f"- {s.id}: {questions[s.id]}\n    first line: {s.first[:220]}\n"
                  f"    expected: {facts} ({key[s.id].document} p.{key[s.id].pages})\n"
                  f"    failed: {', '.join(failed)}")


def compare(scores: list[Score], path: Path) -> None:
    before = {row["id"]: row for row in json.loads(path.read_text(encoding="utf-8"))}
    print(f"\nchanged since {path}:")
    for s in scores:
        old = before.get(s.id)
        if old is None:
            continue
        was = bool(old["in_first_line"] and old["in_answer"] and old["cites_page"])
        if was != s.right:
            print(f"  {'now right' if s.right else 'NO LONGER right'}: {s.id} ({s.split})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list the answers not right")
    parser.add_argument("--keep", type=Path, help="a folder to keep the ingested home in")
    parser.add_argument("--only", nargs="*", help="question ids to ask (default: all)")
    parser.add_argument("--split", choices=("dev", "heldout"), help="one split only")
    parser.add_argument("--save", type=Path, help="write every answer's score to this JSON")
    parser.add_argument("--against", type=Path, help="a JSON written by --save to compare with")
    args = parser.parse_args()
    if not filings_present():
        raise SystemExit("evals/retrieval/filings is missing: see evals/retrieval/PROVENANCE.md")
    with tempfile.TemporaryDirectory(prefix="manda-answers-") as tmp:
        root = args.keep or Path(tmp)
        scores, ingest_s, ask_s, engines = asyncio.run(
            run_answers(root, set(args.only) if args.only else None, args.split))
    load = os.getloadavg()[0]
    print(f"{len(scores)} questions; ingest {ingest_s:.0f} s, answers {ask_s:.0f} s "
          f"({ask_s / max(1, len(scores)) * 1000:.0f} ms each), load average {load:.1f}")
    print(f"engines: {engines}")
    report(scores, args.misses)
    if args.save:
        args.save.write_text(json.dumps([asdict(s) for s in scores], indent=1), encoding="utf-8")
    if args.against:
        compare(scores, args.against)


if __name__ == "__main__":
    main()
