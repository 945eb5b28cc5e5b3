"""The offline embedder alone: texts per second and per CPU-second for ONNX Runtime settings.

Ingestion spends most of its time here (`bench/ingest_profile.py`). The texts are the chunks of
the generated dense room, so lengths are realistic. CPU-seconds per text is the figure that holds
on a shared machine (wall time moves with the neighbours' load).

    .venv/bin/python bench/embed_bench.py [--texts 1500]
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

from manda.embed.offline import OfflineEmbedder
from manda.ingest.chunking import chunk_document
from manda.ingest.parsers import parse_file

VARIANTS: dict[str, dict[str, object]] = {
    "before: 2 threads, batch 32, spinning": {"intra_op_threads": 2, "batch_size": 32,
                                              "spinning": True},
    "2 threads, batch 32, no spinning": {"intra_op_threads": 2, "batch_size": 32,
                                         "spinning": False},
    "2 threads, batch 64, no spinning": {"intra_op_threads": 2, "batch_size": 64,
                                         "spinning": False},
    "1 thread, batch 32, no spinning": {"intra_op_threads": 1, "batch_size": 32,
                                        "spinning": False},
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


async def measure(texts: list[str], options: dict[str, object]) -> tuple[float, float]:
    embedder = OfflineEmbedder(**options)  # type: ignore[arg-type]
    await embedder.start()
    await embedder.embed(texts[:64], "document")  # warm
    wall, used = time.perf_counter(), cpu()
    for start in range(0, len(texts), 256):
        await embedder.embed(texts[start : start + 256], "document")
    return len(texts) / (time.perf_counter() - wall), len(texts) / (cpu() - used)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--texts", type=int, default=1500)
    args = parser.parse_args()
    texts = chunk_texts(args.texts)
    print(f"{len(texts)} chunks of the dense room, mean {sum(map(len, texts)) / len(texts):.0f} "
          "characters\n")
    print(f"{'variant':42} {'texts/s':>8} {'texts/CPU-s':>12}")
    for name, options in VARIANTS.items():
        per_second, per_cpu = await measure(texts, options)
        print(f"{name:42} {per_second:8.1f} {per_cpu:12.1f}")


if __name__ == "__main__":
    asyncio.run(main())
