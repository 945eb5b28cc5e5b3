"""Writes the sample data rooms (TargetCo, Northwind, Pennine) shipped with Manda, and the
evaluation-only rooms (Tidewater, Rheintal, Halyard, Sorelle, Segura), reproducibly."""

from __future__ import annotations

from pathlib import Path

from manda.sample import (
    halyard_facts,
    pennine,
    pennine_facts,
    pennine_text,
    rheintal_facts,
    segura_facts,
    sorelle_facts,
    tidewater_facts,
)
from manda.sample.facts import (
    FILES,
    NORTHWIND,
    NORTHWIND_COMPANY,
    TARGETCO,
    TARGETCO_COMPANY,
    SampleFile,
)
from manda.sample.halyard import write_halyard
from manda.sample.halyard_facts import HALYARD
from manda.sample.northwind import write_northwind
from manda.sample.pennine_facts import PENNINE
from manda.sample.rheintal import write_rheintal
from manda.sample.rheintal_facts import RHEINTAL
from manda.sample.segura import write_segura
from manda.sample.segura_facts import SEGURA
from manda.sample.sorelle import write_sorelle
from manda.sample.sorelle_facts import SORELLE
from manda.sample.targetco_office import write_office_files
from manda.sample.targetco_reports import write_reports
from manda.sample.targetco_sheets import write_sheets
from manda.sample.targetco_text import write_text_files
from manda.sample.tidewater import write_tidewater
from manda.sample.tidewater_facts import TIDEWATER

SAMPLE_DEALS = (TARGETCO, NORTHWIND, PENNINE)
# Rooms the evals read but the demo does not ship: written in a style the answering code was not
# tuned on, so held-out cases on them measure generalisation (see evals/dataset.yaml).
EVAL_ONLY_DEALS = (TIDEWATER, RHEINTAL, HALYARD, SORELLE, SEGURA)
DEMO_DEAL = TARGETCO  # the deal `manda demo` asks about
# The company each room is about, as its documents name it. Product code names none of these
# rooms (a test keeps it so): what it needs of them it takes from here.
COMPANIES: dict[str, str] = {
    TARGETCO: TARGETCO_COMPANY, NORTHWIND: NORTHWIND_COMPANY, PENNINE: pennine_facts.COMPANY,
    TIDEWATER: tidewater_facts.COMPANY, RHEINTAL: rheintal_facts.COMPANY,
    HALYARD: halyard_facts.COMPANY, SORELLE: sorelle_facts.COMPANY, SEGURA: segura_facts.COMPANY,
}
ALL_FILES: tuple[SampleFile, ...] = (*FILES, *pennine_facts.FILES)
EVAL_ONLY_FILES: tuple[SampleFile, ...] = (
    *tidewater_facts.FILES, *rheintal_facts.FILES, *halyard_facts.FILES, *sorelle_facts.FILES,
    *segura_facts.FILES,
)


def generate_sample_rooms(dest: Path) -> dict[str, Path]:
    """Write every deal's files under `dest/<deal_id>/` and return `{deal_id: folder}`.

    Same bytes on every run; existing files of the same name are overwritten, other files in
    those folders are left alone.
    """
    dest = Path(dest)
    rooms = {deal: dest / deal for deal in SAMPLE_DEALS}
    for folder in rooms.values():
        folder.mkdir(parents=True, exist_ok=True)
    target = rooms[TARGETCO]
    written = [
        *write_reports(target),
        *write_sheets(target),
        *write_office_files(target),
        *write_text_files(target),
        *write_northwind(rooms[NORTHWIND]),
        *pennine.write_financial_files(rooms[PENNINE]),
        *pennine_text.write_text_files(rooms[PENNINE]),
    ]
    _check_against_facts(rooms, written, ALL_FILES)
    return rooms


def generate_eval_rooms(dest: Path) -> dict[str, Path]:
    """Write the sample rooms and the evaluation-only rooms under `dest/<deal_id>/`."""
    dest = Path(dest)
    rooms = generate_sample_rooms(dest)
    extra = {deal: dest / deal for deal in EVAL_ONLY_DEALS}
    for folder in extra.values():
        folder.mkdir(parents=True, exist_ok=True)
    written = [*write_tidewater(extra[TIDEWATER]), *write_rheintal(extra[RHEINTAL]),
               *write_halyard(extra[HALYARD]), *write_sorelle(extra[SORELLE]),
               *write_segura(extra[SEGURA])]
    _check_against_facts(extra, written, EVAL_ONLY_FILES)
    return rooms | extra


def _check_against_facts(rooms: dict[str, Path], written: list[Path],
                         files: tuple[SampleFile, ...]) -> None:
    """Keep the ground truth's file lists and what the writers produce in step."""
    expected = {rooms[f.deal] / f.path for f in files}
    if set(written) != expected:
        missing = sorted(p.name for p in expected - set(written))
        extra = sorted(p.name for p in set(written) - expected)
        raise RuntimeError(
            "sample room out of step with the ground truth (the FILES of manda.sample.facts "
            "and of each room's *_facts module): missing "
            f"{missing}, unlisted {extra}; update the file lists or the writers"
        )
