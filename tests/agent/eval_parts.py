"""The offline evals in parts, a few rooms each, so that pytest-xdist asks them on parallel workers.

Each part asks its rooms' cases of `evals/dataset.yaml`, in the dataset's order, on a copy of
the suite's ingested home (the sample deals) with its evaluation-only rooms ingested. A part is
asked once per run, by whichever worker reaches it first (`built_once`, tests/fixtures/shared.py):
its test file (`test_evals_<part>.py`, made by `part_tests`) checks what a part alone can say,
and `test_evals.py` joins every part into the one report the suite's floors are checked on.
Cases of one deal only read and write that deal (a case's `told` steps go to its own deal), so
asking the rooms apart gives each case the answer it gets in one run of every room.
"""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fixtures.shared import built_once

from manda.agent.context import AgentContext
from manda.agent.service import AnswerService
from manda.app import Manda
from manda.config import Settings
from manda.deals import DealService
from manda.evals.runner import EvalReport, load_dataset, new_room_floor, run_evals
from manda.ingest.service import IngestService
from manda.sample.generate import EVAL_ONLY_DEALS, generate_eval_rooms

DATASET = Path(__file__).parents[2] / "evals" / "dataset.yaml"

# {part: its deals}, sized from `--durations` so that no part is much longer than another
# (TargetCo and Pennine hold most cases); each deal of the dataset is in exactly one part.
PARTS: dict[str, tuple[str, ...]] = {
    "targetco": ("targetco",),
    "pennine": ("pennine",),
    "northwind_rheintal": ("northwind", "rheintal"),
    "tidewater_segura": ("tidewater", "segura"),
    "halyard_sorelle": ("halyard", "sorelle"),
}


@dataclass
class EvalApp:
    ingest: IngestService
    answers: AnswerService
    deals: DealService  # what a case's `told` steps go through (Q&A files, notes)


def answers_for(app: Manda) -> EvalApp:
    service = getattr(app, "answers", None) or AnswerService(
        AgentContext(graph=app.graph, search=app.search, memory=app.memory))
    return EvalApp(ingest=app.ingest, answers=service, deals=app.deals)


def eval_rooms(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """{deal: folder} of the sample and evaluation-only rooms, written once per run."""
    return built_once(tmp_path_factory, "eval-rooms", generate_eval_rooms)[1]


async def _ask_part(home: Path, rooms: dict[str, Path], deals: tuple[str, ...]
                    ) -> EvalReport:
    ids = [c.id for c in load_dataset(DATASET) if c.deal in deals]
    async with Manda(Settings(MANDA_HOME=home)) as app:
        for deal in deals:
            if deal in EVAL_ONLY_DEALS:  # the sample deals are in the ingested home already
                await app.ingest.ingest(deal, [rooms[deal]])
        return await run_evals(answers_for(app), DATASET, only=ids)


def part_report(tmp_path_factory: pytest.TempPathFactory, ingested_home: Path,
                part: str) -> EvalReport:
    """The report of one part's cases, asked once per run."""
    rooms = eval_rooms(tmp_path_factory)

    def ask(folder: Path) -> EvalReport:
        home = folder / "home"
        shutil.copytree(ingested_home, home)
        try:
            return asyncio.run(_ask_part(home, rooms, PARTS[part]))
        finally:
            shutil.rmtree(home, ignore_errors=True)  # only the results are kept

    return built_once(tmp_path_factory, f"evals-{part}", ask)[1]


def joined_report(tmp_path_factory: pytest.TempPathFactory, ingested_home: Path) -> EvalReport:
    """Every part's results in the dataset's order: the report of one offline run."""
    parts = [part_report(tmp_path_factory, ingested_home, part) for part in PARTS]
    by_id = {c.id: c for report in parts for c in report.cases}
    return EvalReport(dataset=str(DATASET), mode="offline",
                      cases=[by_id[c.id] for c in load_dataset(DATASET)],
                      seconds=sum(report.seconds for report in parts))


def part_tests(part: str) -> Any:
    """One part's test: assign it at a test module's top level."""
    deals = PARTS[part]

    def test_every_case_is_asked_and_new_rooms_hold_their_floor(
            tmp_path_factory: pytest.TempPathFactory, ingested_home: Path) -> None:
        report = part_report(tmp_path_factory, ingested_home, part)
        assert [c.id for c in report.cases] == [
            c.id for c in load_dataset(DATASET) if c.deal in deals]
        assert all(c.turns and c.skipped is None for c in report.cases)
        for deal, room in report.new_rooms.items():
            failed = [(c.id, [(x.name, x.detail) for t in c.turns for x in t.checks
                              if not x.passed]) for c in room.cases if not c.passed]
            assert room.score >= new_room_floor(deal), (deal, failed)

    return test_every_case_is_asked_and_new_rooms_hold_their_floor
