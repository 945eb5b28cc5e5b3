"""Is reading a text file linear in its size? Parse + chunk + rule-based extraction of 1, 2, 4
and 8 MB of prose (one long section, the worst case that was quadratic), seconds per MB printed.

Goal: seconds per MB stays flat (within ~1.5x) from the smallest size to the largest.
Run: .venv/bin/python bench/extract_scaling.py [SIZES_MB ...]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from manda.ingest.extract.offline import OfflineExtractor
from manda.ingest.parsers import ParseLimits
from manda.ingest.sandbox import read_file
from manda.models import Document

SENTENCES = (
    "The company reported revenue of EUR 5.2 million in Q3 2024, up 12% on the prior year. "
    "Management expects EBITDA of EUR 1.1 million for FY2024 as the Berlin plant ramps up. "
    "The board met on 12 March 2024 and approved the budget. "
)


def measure(size_mb: float, folder: Path) -> tuple[float, int, int]:
    path = folder / f"prose_{size_mb:g}MB.txt"
    path.write_text(SENTENCES * int(size_mb * 2**20 / len(SENTENCES)))
    document = Document(
        id="d_bench", deal_id="bench", filename=path.name, content_hash="bench",
        file_type="txt", size_bytes=path.stat().st_size, version_family="prose",
    )
    limits = ParseLimits(max_characters=64 * 2**20)
    started = time.perf_counter()
    reading = read_file(path, path.name, document, limits, OfflineExtractor())
    return time.perf_counter() - started, len(reading.chunks), len(reading.candidates or [])


def main(argv: list[str]) -> None:
    sizes = [float(a) for a in argv] or [1.0, 2.0, 4.0, 8.0]
    print(f"{'size':>6}  {'seconds':>8}  {'s/MB':>6}  {'chunks':>7}  {'findings':>8}")
    per_mb: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            seconds, chunks, findings = measure(size, Path(tmp))
            per_mb.append(seconds / size)
            print(f"{size:>4g}MB  {seconds:>8.1f}  {per_mb[-1]:>6.2f}  {chunks:>7}  {findings:>8}",
                  flush=True)
    ratio = max(per_mb) / min(per_mb)
    print(f"largest/smallest s/MB ratio: {ratio:.2f} (goal <= 1.5: linear)")


if __name__ == "__main__":
    main(sys.argv[1:])
