"""The validation gate on two small corpora: false rejections of right answers (target 0) and the
catch rate of wrong ones (target 1.0), over the agent tests' hand-built deal.

    .venv/bin/python bench/gate_corpus.py
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "agent"))

from gate_corpus import BAD, GOOD, measure
from room import open_room


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        room = await open_room(Path(tmp))
        try:
            scores = await measure(room)
        finally:
            await room.memory.aclose()
            await room.graph.aclose()
    print(f"good answers: {len(GOOD)}  false rejections: {len(scores.false_rejections)}  "
          f"rate {scores.false_rejection_rate:.2f} (target 0)")
    for name, errors in scores.false_rejections.items():
        print(f"  refused: {name}: {errors}")
    print(f"bad answers: {len(BAD)}  caught: {len(BAD) - len(scores.missed)}  "
          f"rate {scores.catch_rate:.2f} (target 1.0)")
    for name in scores.missed:
        print(f"  missed: {name}")


if __name__ == "__main__":
    asyncio.run(main())
