"""The offline embedder alone: texts per second and per CPU-second for its precisions and settings.

Ingestion spends most of its time here (`bench/ingest_profile.py`). The texts are the chunks of
the generated dense room, so lengths are realistic. CPU-seconds per text is the figure that holds
on a shared machine (wall time moves with the neighbours' load). Each variant runs in its own
process, so the memory it adds once the model is loaded (ONNX Runtime's arena keeps the largest
batch's activations) is its own; variants alternate over `--rounds`.

    .venv/bin/python bench/embed_bench.py [--texts 1500] [--rounds 2] [--model minilm]
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _rooms import make_room

from manda.embed.offline import DEFAULT_MODEL, MODELS, OfflineEmbedder
from manda.ingest.chunking import chunk_document
from manda.ingest.parsers import parse_file

VARIANTS: dict[str, dict[str, object]] = {
    "fp32, 2 threads, batch 32": {"precision": "fp32", "intra_op_threads": 2, "batch_size": 32,
                                  "parallel_runs": 1},
    "fp32, 1 thread x 2 runs, batch 8 (before)": {"precision": "fp32", "intra_op_threads": 1,
                                                  "batch_size": 8, "parallel_runs": 2},
    "q8, 2 threads, one text a run": {"precision": "q8", "intra_op_threads": 2,
                                      "parallel_runs": 1},
    "q8, 1 thread x 2 runs (default)": {"precision": "q8", "intra_op_threads": 1,
                                        "parallel_runs": 2},
    "q8, 1 thread x 2 runs, spinning": {"precision": "q8", "intra_op_threads": 1,
                                        "parallel_runs": 2, "spinning": True},
}


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def chunk_texts(count: int) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        room = make_room(Path(tmp), pages=max(20, count // 2))
        texts: list[str] = []
        for pdf in sorted(room.glob("*.pdf")):
            parsed = parse_file(pdf)
            texts += [c.text for c in chunk_document(parsed, deal_id="d", document_id="x")]
            if len(texts) >= count:
                break
    return texts[:count]


def resident_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def measure(texts: list[str], options: dict[str, object], model: str) -> dict[str, float]:
    embedder = OfflineEmbedder(**options, model=model)  # type: ignore[arg-type]
    await embedder.start()
    loaded = resident_mb()
    wall, used = time.perf_counter(), cpu()
    for start in range(0, len(texts), 64):  # as ingestion calls it (service.EMBED_BATCH)
        await embedder.embed(texts[start : start + 64], "document")
    return {
        "per_second": len(texts) / (time.perf_counter() - wall),
        "per_cpu": len(texts) / (cpu() - used),
        "added_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - loaded,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--texts", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--model", choices=sorted(MODELS), default=DEFAULT_MODEL)
    parser.add_argument("--variant", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.variant is not None:  # one measurement, in this process
        texts = chunk_texts(args.texts)
        print(json.dumps(asyncio.run(measure(texts, VARIANTS[args.variant], args.model))))
        return
    texts = chunk_texts(args.texts)
    print(f"{len(texts)} chunks of the dense room, mean {sum(map(len, texts)) / len(texts):.0f} "
          "characters\n")
    print(f"{'variant':44} {'texts/s':>8} {'texts/CPU-s':>12} {'memory added':>13}  load")
    for _ in range(args.rounds):
        for name in VARIANTS:
            out = subprocess.run(
                [sys.executable, __file__, "--texts", str(args.texts), "--variant", name,
                 "--model", args.model],
                check=True, capture_output=True, text=True,
            ).stdout
            got = json.loads(out.strip().splitlines()[-1])
            print(f"{name:44} {got['per_second']:8.1f} {got['per_cpu']:12.1f} "
                  f"{got['added_mb']:10,.0f} MB  {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
