"""Offline fact-lookup latency through the whole answering graph on the sample deal (p50/p95)."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from manda.app import Manda
from manda.config import Settings
from manda.sample import generate_sample_rooms

QUESTIONS = (
    "What was Q3 2024 revenue?",
    "What was FY2023 EBITDA?",
    "What was EBITDA in Q2 2024?",
    "How many employees does TargetCo have?",
    "What is the gross margin in Q3 2024?",
    "Who is the CFO?",
    "What was Q1 2024 revenue?",
    "What share of revenue comes from Globex?",
)


async def main(rounds: int = 15) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rooms = generate_sample_rooms(root / "rooms")
        async with Manda(Settings(MANDA_HOME=root / "home")) as app:
            for deal_id, folder in rooms.items():
                await app.ingest.ingest(deal_id, [folder])
            await app.answers.ask("targetco", "warm up")
            timings: list[float] = []
            intents: dict[str, int] = {}
            for _ in range(rounds):
                for question in QUESTIONS:
                    started = time.perf_counter()
                    answer = await app.answers.ask("targetco", question)
                    timings.append((time.perf_counter() - started) * 1000)
                    intents[answer.intent.value] = intents.get(answer.intent.value, 0) + 1
    timings.sort()
    p95 = timings[int(len(timings) * 0.95) - 1]
    print(
        f"{len(timings)} offline answers  p50 {statistics.median(timings):6.1f} ms  "
        f"p95 {p95:6.1f} ms  max {timings[-1]:6.1f} ms   intents {intents}"
    )


if __name__ == "__main__":
    asyncio.run(main())
