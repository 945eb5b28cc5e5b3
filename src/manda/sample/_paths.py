"""Where a sample room's files go: their VDR folder under the room, created when first used."""

from __future__ import annotations

from pathlib import Path


def room_folder(room: Path, relative: str) -> Path:
    folder = room / relative
    folder.mkdir(parents=True, exist_ok=True)
    return folder
