"""A whole CIM on the sample deal, extractive and with "Claude" through the real SDK: figures.

The Claude run talks to the local Messages API (`manda.testing.anthropic_server`) answered by a
deterministic slide writer that invents one number on every first attempt, so the figures show
the grounding gate at work: turns per section, lines sent back, lines removed, numbers on the
slides re-checked against their cited sources, and the time Manda itself spends per section
(retrieval, gate, rendering; the fake model answers at once). It says nothing about a real
model's prose: that is an eval with a key (`manda eval --live`), not a benchmark.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from manda.app import Manda
from manda.cim.model import CimProject
from manda.config import Settings
from manda.finance.amounts import find_amounts, same_amount, scale_from_text
from manda.sample import generate_sample_rooms
from manda.testing.anthropic_server import FakeAnthropicServer
from manda.testing.slide_writer import INVENTED, SlideWriter
from manda.workflows.ids import WorkflowId

GOAL_MS_PER_SECTION = 1500  # Manda's own work per slide, model time aside


async def build(app: Manda, tag: str) -> tuple[CimProject, list[float]]:
    wid = WorkflowId("cim", "targetco", "bench", f"bench:{tag}")
    await app.cim.start(wid, "strategic buyer")
    timings: list[float] = []
    started = time.perf_counter()
    reply = await app.cim.send(wid, "go")
    timings.append((time.perf_counter() - started) * 1000)
    while reply.project.phase == "sections":
        draft = reply.project.drafts[reply.project.outline[reply.project.current].id]
        started = time.perf_counter()
        reply = await app.cim.send(wid, "approve" if draft.bullets else "next")
        timings.append((time.perf_counter() - started) * 1000)
    await app.cim.export(wid, Path(tempfile.mkdtemp()) / f"{tag}.pptx")
    project = await app.cim.project(wid)
    assert project is not None
    return project, timings[:-1] or timings


def checked_numbers(project: CimProject) -> tuple[int, int]:
    """(numbers on approved slides, of which found in a cited excerpt or finding value)."""
    total = found = 0
    for draft in project.approved():
        for item in [*draft.bullets, *draft.figures]:
            texts = [item.text] if hasattr(item, "text") else list(item.values.values())
            values = [c.value for c in item.citations if c.value is not None]
            for c in item.citations:
                for scale in {1.0, scale_from_text(c.excerpt)}:
                    values += [a.value for a in find_amounts(c.excerpt, scale=scale)]
            for text in texts:
                for amount in find_amounts(text):
                    total += 1
                    found += any(same_amount(amount.value, v) for v in values) or (
                        amount.unit == "%" and "grew" in text)
    return total, found


def report(label: str, project: CimProject, timings: list[float], extra: str = "") -> None:
    total, found = checked_numbers(project)
    removed = sum(n.startswith("Removed from Claude") for d in project.drafts.values()
                  for n in d.notes)
    print(f"{label:12s} {len(project.approved()):2d}/{len(project.outline)} sections approved  "
          f"per section p50 {statistics.median(timings):6.0f} ms  max {max(timings):6.0f} ms "
          f"(goal < {GOAL_MS_PER_SECTION} ms)  numbers in sources {found}/{total} (goal all)  "
          f"lines removed {removed}{extra}")


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rooms = generate_sample_rooms(root / "rooms")
        home = root / "home"
        async with Manda(Settings(MANDA_HOME=home)) as app:
            await app.ingest.ingest("targetco", [rooms["targetco"]])
            project, timings = await build(app, "extractive")
        report("extractive", project, timings)
        writer = SlideWriter(invent=True)
        async with FakeAnthropicServer(api_key="bench", handler=writer) as server:
            settings = Settings(MANDA_HOME=home, ANTHROPIC_API_KEY="bench",
                                ANTHROPIC_BASE_URL=server.base_url, MANDA_MODEL_MAX_RETRIES=0)
            async with Manda(settings) as app:
                project, timings = await build(app, "claude")
        on_slides = " ".join(b.text for d in project.drafts.values() for b in d.bullets)
        report("claude(fake)", project, timings,
               f"  turns {writer.requests} ({len(writer.sent_back)} sent back)  invented number "
               f"on a slide: {'YES' if INVENTED in on_slides else 'no'} (goal no)")


if __name__ == "__main__":
    asyncio.run(main())
