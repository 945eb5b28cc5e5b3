"""What keeping each answer's trace costs: its size as stored and the time to build and store it,
over questions of several intents and a follow-up, on the sample deal (embedded, offline)."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from manda.app import Manda
from manda.config import Settings
from manda.sample import generate_sample_rooms
from manda.traces import MAX_TRACE_BYTES

QUESTIONS = (
    "What was Q3 2024 revenue?",
    "And EBITDA?",
    "What was FY2023 EBITDA?",
    "Compare revenue Q3 2024 to Q3 2023",
    "Who is the CFO?",
    "What are the red flags in this deal?",
    "What is missing from the data room against the IRL?",
)
GOAL_MS = 10.0


async def main(rounds: int = 5) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rooms = generate_sample_rooms(root / "rooms")
        async with Manda(Settings(MANDA_HOME=root / "home")) as app:
            for deal_id, folder in rooms.items():
                await app.ingest.ingest(deal_id, [folder])
            service = app.answers
            keep = service._keep_trace  # the step being measured, timed where it runs
            spent: list[float] = []

            async def timed_keep(*args: object) -> None:
                started = time.perf_counter()
                await keep(*args)  # type: ignore[arg-type]
                spent.append((time.perf_counter() - started) * 1000)

            service._keep_trace = timed_keep  # type: ignore[method-assign]
            sizes: list[int] = []
            for n in range(rounds):
                for question in QUESTIONS:
                    answer = await service.ask("targetco", question, conversation_id=f"b:{n}")
                    trace = await service.trace(answer.conversation_id, answer.answer_id)
                    assert trace is not None, question
                    sizes.append(trace.size())
    spent.sort()
    print(f"{len(sizes)} answers  trace size median {statistics.median(sizes):,.0f} B, "
          f"max {max(sizes):,} B (cap {MAX_TRACE_BYTES:,})  build + store median "
          f"{statistics.median(spent):.1f} ms, p95 {spent[int(len(spent) * 0.95) - 1]:.1f} ms  "
          f"(goal < {GOAL_MS:.0f} ms)")


if __name__ == "__main__":
    asyncio.run(main())
