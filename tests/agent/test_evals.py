"""The answer evals, offline, on the ingested sample data rooms and the evaluation-only ones: the
suite fails when the dev score is below 90% or a held-out score (the established rooms', the
newest room's) falls below its measured floor (a ratchet)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from eval_parts import joined_report

from manda.evals.runner import (
    HELD_OUT_FLOOR,
    NEW_ROOM_FLOOR,
    PASS_THRESHOLD,
    EvalReport,
    new_room_floor,
    write_report,
)
from manda.sample.generate import EVAL_ONLY_DEALS


def test_offline_evals_pass(tmp_path_factory: pytest.TempPathFactory, ingested_home: Path,
                            tmp_path: Path) -> None:
    # the sample and evaluation-only rooms, asked part by part (each part once per run)
    report = joined_report(tmp_path_factory, ingested_home)
    markdown, as_json = write_report(report, tmp_path / "report.md")

    def failures(part: EvalReport) -> list[tuple[str, list[tuple[str, str]]]]:
        return [(c.id, [(x.name, x.detail) for t in c.turns for x in t.checks if not x.passed])
                for c in part.cases if not c.passed]

    assert report.dev.score >= PASS_THRESHOLD, failures(report.dev)
    assert report.held_out.score >= HELD_OUT_FLOOR, failures(report.held_out)
    assert report.new_room.cases and all(c.held_out for c in report.new_room.cases)
    settled = report.settled_new_rooms
    assert settled.cases and settled.score >= NEW_ROOM_FLOOR, failures(settled)
    assert set(report.new_rooms) == set(EVAL_ONLY_DEALS)  # each new room scored apart
    for deal, room in report.new_rooms.items():
        assert room.score >= new_room_floor(deal), (deal, failures(room))
    assert report.passes_new_room_floor()
    assert report.mode == "offline" and report.input_tokens == 0
    text = markdown.read_text(encoding="utf-8")
    assert f"**{report.score:.1%} of checks passed**" in text
    assert f"- Dev: **{report.dev.score:.1%}**" in text
    assert f"- Held-out: **{report.held_out.score:.1%}**" in text
    assert f"- Held-out, new room: **{report.new_room.score:.1%}**" in text
    for deal, room in report.new_rooms.items():
        assert f"- Held-out, new room {deal}: **{room.score:.1%}**" in text
    summary = json.loads(as_json.read_text(encoding="utf-8"))
    assert set(summary["held_out_new_room_by_deal"]) == set(EVAL_ONLY_DEALS)
    assert summary["dev"]["checks_total"] + summary["held_out"]["checks_total"] + summary[
        "held_out_new_room"]["checks_total"] == len(report.checks)
    assert summary["held_out"]["cases_total"] + summary["held_out_new_room"]["cases_total"] == sum(
        1 for c in report.cases if c.held_out)
