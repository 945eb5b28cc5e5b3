"""One live run against the real services, after installing: what the local fakes cannot show.

Run through `scripts/live-check.sh`. With ANTHROPIC_API_KEY set (and REDIS_URL, VOYAGE_API_KEY,
SLACK_BOT_TOKEN when configured) it: retrieves the configured model by id; runs one Claude
extraction on a short deal note; asks one question, streamed, then a follow-up in the same
conversation; and prints tokens, prompt-cache reads and writes, and latency for each step.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

from manda.app import Manda
from manda.config import Settings

NOTE = """# Falcon deal notes (live check)

Revenue for Q3 2024 was EUR 5.2 million, up 10.6% year on year.
EBITDA for Q3 2024 was EUR 1.1 million.
Headcount was 180 employees as of 30 September 2024.
Thomas Müller is the Chief Financial Officer.
"""
DEAL = "live-check"


def line(label: str, **figures: object) -> None:
    shown = ", ".join(f"{k}={v}" for k, v in figures.items())
    print(f"{label:<24} {shown}", flush=True)


async def main() -> int:
    if not os.environ.get("ANTHROPIC_API_KEY"):
        print("ANTHROPIC_API_KEY is not set: the live check talks to the real Claude API. "
              "Export a key (and any other service's settings) and run it again.",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="manda-live-") as home:
        settings = Settings(MANDA_HOME=Path(home))
        note = Path(home) / "Falcon_Deal_Notes.md"
        note.write_text(NOTE, encoding="utf-8")
        async with Manda(settings) as app:
            for choice in app.choices:
                line(f"{choice.port}:", adapter=choice.adapter, why=choice.reason)
            assert app.anthropic is not None
            began = time.perf_counter()
            info = await app.anthropic.models.retrieve(settings.claude_model)
            line("model:", id=info.id, lifecycle=getattr(info, "lifecycle", "?"),
                 ms=round((time.perf_counter() - began) * 1000))

            began = time.perf_counter()
            report = await app.ingest.ingest(DEAL, [note])
            usage = getattr(app.extractor, "usage", None)
            line("extraction:", findings=report.findings,
                 input=getattr(usage, "input_tokens", "?"),
                 output=getattr(usage, "output_tokens", "?"),
                 cache_read=getattr(usage, "cache_read_tokens", "?"),
                 cache_write=getattr(usage, "cache_write_tokens", "?"),
                 ms=round((time.perf_counter() - began) * 1000))

            conversation = "live-check:1"
            for question in ("What was Q3 2024 revenue?", "And EBITDA?"):
                print(f"\n> {question}\n", flush=True)
                first_text: list[float] = []
                began = time.perf_counter()

                async def stream(delta: str, began: float = began,
                                 first_text: list[float] = first_text) -> None:
                    if not first_text:
                        first_text.append(time.perf_counter() - began)
                    print(delta, end="", flush=True)

                answer = await app.answers.ask(DEAL, question, conversation_id=conversation,
                                               on_text=stream)
                print(flush=True)
                u = answer.usage
                line("answer:", by=answer.model, grounded=answer.grounded,
                     input=u.input_tokens, output=u.output_tokens,
                     cache_read=u.cache_read_tokens, cache_write=u.cache_write_tokens,
                     first_text_ms=round(first_text[0] * 1000) if first_text else None,
                     ms=u.latency_ms)
                if answer.notices:
                    line("notices:", notes=" | ".join(answer.notices))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
