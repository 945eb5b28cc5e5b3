"""`manda demo`, the README's main job: the sample room ingested and asked, with sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from manda.cli import main


def test_demo_ingests_the_sample_room_and_answers_with_sources(
    home_copy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MANDA_HOME", str(home_copy))
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["demo"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "corrected: EBITDA FY2023 — corrected from €3.1M to €2.9M" in out
    assert "conflict: Revenue Q3 2024" in out
    assert "Revenue was €5.2M in Q3 2024" in out
    assert "For Q3 2024, EBITDA was €1.1M" in out  # the follow-up states the inherited period
    assert "source: TargetCo_Q3_2024_Report.pdf, p.1" in out
    assert "IRL coverage" in out
