"""Calibrates the "not found" threshold of evidence-first answers on a labelled dev set.

Each question of `not_found_dev.yaml` is labelled answerable (the sample room states it) or not.
For each, the passages the agent retrieves are ranked at sentence/row level and the retrieval
confidence is computed (`manda.agent.spans`, as evidence-first answers gate on it); the script
sweeps thresholds, prints accuracy,
recall of answerable questions and precision of "not found" per threshold, marks the best one and
the one in use (`NOT_FOUND_BELOW`), and then asks every question end to end to count how the
answers came out. Questions about the held-out room of `evals/` are never used here.

`--filings` calibrates on real documents instead: the filings DEV split (answerable, the evidence
page is in the room) against `not_found_filings_dev.yaml` (questions no 10-K answers), by the
span confidence evidence-first answers use (`manda.agent.spans`); `--keep DIR` reuses an
ingested filings home (as bench/filings_answers.py leaves it).
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import yaml

from manda.agent.compose.evidence_first import span_confidence
from manda.agent.evidence import Evidence
from manda.agent.intents import read_question
from manda.agent.relevance import NOT_FOUND_BELOW
from manda.agent.spans import rank_spans
from manda.app import Manda
from manda.config import Settings
from manda.sample import generate_sample_rooms

DATASET = Path(__file__).with_name("not_found_dev.yaml")
FILINGS_NOT_FOUND = Path(__file__).with_name("not_found_filings_dev.yaml")
THRESHOLDS = [round(0.2 + 0.05 * i, 2) for i in range(13)]


def _metrics(scored: list[tuple[float, bool]], threshold: float) -> tuple[float, float, float]:
    answered = [(c >= threshold, label) for c, label in scored]
    correct = sum(1 for said, label in answered if said == label)
    answerable = [said for said, label in answered if label]
    not_found = [label for said, label in answered if not said]
    recall = sum(answerable) / len(answerable) if answerable else 1.0
    precision = sum(1 for label in not_found if not label) / len(not_found) if not_found else 1.0
    return correct / len(scored), recall, precision


def _sweep(scored: list[tuple[float, bool]]) -> None:
    """One line per threshold: accuracy, recall of answerable, precision of "not found"."""
    print("threshold | accuracy | recall of answerable | precision of not-found")
    best = max(THRESHOLDS, key=lambda t: (_metrics(scored, t)[0], _metrics(scored, t)[1]))
    for t in THRESHOLDS:
        acc, recall, precision = _metrics(scored, t)
        mark = (" <- best" if t == best else "") + (" <- in use" if t == NOT_FOUND_BELOW else "")
        print(f"{t:9.2f} | {acc:8.0%} | {recall:20.0%} | {precision:22.0%}{mark}")


async def main() -> None:
    cases = yaml.safe_load(DATASET.read_text(encoding="utf-8"))["cases"]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rooms = generate_sample_rooms(root / "rooms")
        async with Manda(Settings(MANDA_HOME=root / "home")) as app:
            for deal_id, folder in rooms.items():
                await app.ingest.ingest(deal_id, [folder])
            scored: list[tuple[float, bool]] = []
            outcomes = {"answered": 0, "not found": 0}
            wrong: list[str] = []
            for case in cases:
                deal = case.get("deal", "targetco")
                docs = {d.id: d for d in await app.graph.list_documents(deal)}
                hits = await app.search.search(deal, case["ask"], 8)
                value = span_confidence(rank_spans(read_question(case["ask"]),
                                                   Evidence(hits=hits, documents=docs)))
                scored.append((value, bool(case["answerable"])))
                answer = await app.answers.ask(deal, case["ask"])
                said = "found nothing that answers this" not in answer.answer
                outcomes["answered" if said else "not found"] += 1
                if said != bool(case["answerable"]):
                    wrong.append(f"  {case['ask']} (confidence {value:.2f}, "
                                 f"{'answerable' if case['answerable'] else 'not in the room'})")
    print(f"{len(cases)} labelled questions "
          f"({sum(1 for _, label in scored if label)} answerable)")
    _sweep(scored)
    print(f"end to end: {outcomes['answered']} answered, {outcomes['not found']} not found; "
          f"{len(wrong)} against the label")
    print("\n".join(wrong))


async def filings(keep: Path | None) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _probe import FILINGS_DEAL, filing_questions, filings_probe, ingest_probe

    from manda.agent.graph import company_documents, name_words

    unanswerable = yaml.safe_load(FILINGS_NOT_FOUND.read_text(encoding="utf-8"))["unanswerable"]
    asks = [(q["question"], True) for q in filing_questions() if q["split"] == "dev"]
    asks += [(q, False) for q in unanswerable]
    with tempfile.TemporaryDirectory() as tmp:
        root = keep or Path(tmp)
        async with Manda(Settings(MANDA_HOME=root / "home")) as app:
            await ingest_probe(app, filings_probe(root / "filings"))
            docs = {d.id: d for d in await app.graph.list_documents(FILINGS_DEAL)}
            scored = []
            for ask, label in asks:
                frame = read_question(ask)
                evidence = Evidence(documents=docs)
                if frame.entity and (scope := company_documents(frame.entity, evidence)):
                    evidence.scope = scope
                    evidence.scope_words = frozenset(name_words(frame.entity))
                evidence.add_hits(await app.search.search(FILINGS_DEAL, ask, 8))
                scored.append((span_confidence(rank_spans(frame, evidence)), label))
    print(f"filings: {len(asks)} labelled questions ({sum(1 for _, a in asks if a)} answerable,"
          " the dev split)")
    _sweep(scored)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--filings", action="store_true", help="calibrate on the filings dev split")
    parser.add_argument("--keep", type=Path, help="an ingested filings home folder to reuse")
    args = parser.parse_args()
    asyncio.run(filings(args.keep) if args.filings else main())
