"""A deal of a few documents written by a test, ingested for real, and one question asked."""

from __future__ import annotations

from pathlib import Path

from manda.app import Manda
from manda.config import Settings


async def answer_from(tmp_path: Path, files: dict[str, str], question: str,
                      deal: str = "deal") -> str:
    """Write `files` (name -> text) as a room, ingest it as deal `deal`, answer `question`."""
    room = tmp_path / "room"
    room.mkdir(parents=True)
    for name, text in files.items():
        (room / name).write_text(text)
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest(deal, [room])
        return (await app.answers.ask(deal, question)).answer
