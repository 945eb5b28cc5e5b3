"""The answer evals, offline, on the ingested sample data room: the suite fails below 90%."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from manda.agent.context import AgentContext
from manda.agent.service import AnswerService
from manda.app import Manda
from manda.evals.runner import (
    PASS_THRESHOLD,
    EvalReport,
    load_dataset,
    run_evals,
    write_report,
)
from manda.ingest.service import IngestService

DATASET = Path(__file__).parents[2] / "evals" / "dataset.yaml"


@dataclass
class EvalApp:
    ingest: IngestService
    answers: AnswerService


def answers_for(app: Manda) -> EvalApp:
    service = getattr(app, "answers", None) or AnswerService(
        AgentContext(graph=app.graph, search=app.search, memory=app.memory))
    return EvalApp(ingest=app.ingest, answers=service)


def test_the_dataset_covers_the_behaviour_spec() -> None:
    cases = load_dataset(DATASET)
    assert len(cases) >= 30
    ids = {c.id for c in cases}
    assert {f"EVAL-{n:03d}" for n in range(1, 11)} <= ids
    intents = {t.checks.get("intent") for c in cases for t in c.turns}
    assert {"fact_lookup", "deep_dive", "due_diligence", "comparison", "synthesis",
            "gap_identification", "exploration", "clarification"} <= intents
    assert any(len(c.turns) > 1 for c in cases)
    assert {c.deal for c in cases} == {"targetco", "northwind"}


def test_a_broken_dataset_says_which_case(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("cases:\n  - id: X-1\n    title: no question\n", encoding="utf-8")
    with pytest.raises(ValueError, match="case X-1 has neither `ask` nor `turns`"):
        load_dataset(bad)


async def test_offline_evals_pass(app: Manda, tmp_path: Path) -> None:
    report = await run_evals(answers_for(app), DATASET)
    markdown, as_json = write_report(report, tmp_path / "report.md")
    failures = [(c.id, [(x.name, x.detail) for t in c.turns for x in t.checks if not x.passed])
                for c in report.cases if not c.passed]
    assert report.score >= PASS_THRESHOLD, failures
    assert report.mode == "offline" and report.input_tokens == 0
    text = markdown.read_text(encoding="utf-8")
    assert f"**{report.score:.1%} of checks passed**" in text
    assert '"score"' in as_json.read_text(encoding="utf-8")


async def test_live_runs_stop_at_the_token_budget(app: Manda) -> None:
    report: EvalReport = await run_evals(answers_for(app), DATASET, live=True, budget_tokens=0,
                                         only=["EVAL-001", "EVAL-002"])
    assert [c.skipped for c in report.cases] == ["token budget of 0 reached"] * 2
    assert report.to_json()["cases_skipped"] == 2
