"""Writes the sample data rooms (TargetCo and Northwind) that ship with Manda, reproducibly."""

from __future__ import annotations

from pathlib import Path

from manda.sample.facts import NORTHWIND, TARGETCO, files_for
from manda.sample.northwind import write_northwind
from manda.sample.targetco_office import write_office_files
from manda.sample.targetco_reports import write_reports
from manda.sample.targetco_sheets import write_sheets
from manda.sample.targetco_text import write_text_files


def generate_sample_rooms(dest: Path) -> dict[str, Path]:
    """Write both deals' files under `dest/<deal_id>/` and return `{deal_id: folder}`.

    Same bytes on every run; existing files of the same name are overwritten, other files in
    those folders are left alone.
    """
    dest = Path(dest)
    rooms = {TARGETCO: dest / TARGETCO, NORTHWIND: dest / NORTHWIND}
    for folder in rooms.values():
        folder.mkdir(parents=True, exist_ok=True)
    target = rooms[TARGETCO]
    written = [
        *write_reports(target),
        *write_sheets(target),
        *write_office_files(target),
        *write_text_files(target),
        *write_northwind(rooms[NORTHWIND]),
    ]
    _check_against_facts(rooms, written)
    return rooms


def _check_against_facts(rooms: dict[str, Path], written: list[Path]) -> None:
    """Keep `facts.FILES` and what the writers produce in step."""
    expected = {rooms[f.deal] / f.name for deal in rooms for f in files_for(deal)}
    if set(written) != expected:
        missing = sorted(p.name for p in expected - set(written))
        extra = sorted(p.name for p in set(written) - expected)
        raise RuntimeError(
            f"sample room out of step with manda.sample.facts.FILES: missing {missing}, "
            f"unlisted {extra}; update facts.FILES or the writers"
        )
