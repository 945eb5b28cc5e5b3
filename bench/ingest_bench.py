"""Ingestion throughput (pages per second) on the sample room and on a 1,000-page room."""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _rooms import make_room

from manda.app import Manda
from manda.config import Settings
from manda.sample import generate_sample_rooms


async def measure(label: str, deal: str, folder: Path, home: Path) -> None:
    async with Manda(Settings(MANDA_HOME=home)) as app:
        started = time.perf_counter()
        report = await app.ingest.ingest(deal, [folder])
        seconds = time.perf_counter() - started
    print(
        f"{label:<22} {len(report.ingested):>4} files {report.pages:>5} pages/sheets/slides "
        f"{report.findings:>5} findings {seconds:7.2f} s  {report.pages / seconds:7.1f} pages/s"
    )


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rooms = generate_sample_rooms(root / "sample")
        big = make_room(root / "big", pages=1000)
        await measure("sample room (targetco)", "targetco", rooms["targetco"], root / "home1")
        await measure("generated 1,000 pages", "big", big, root / "home2")


if __name__ == "__main__":
    asyncio.run(main())
