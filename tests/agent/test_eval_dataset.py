"""The evals' dataset and runner, apart from asking the offline evals (tests/agent/test_evals.py,
which holds that one long test alone, so that the suite's scheduler can start it last): the
dataset covers the behaviour spec and the analyst topics, says which case is broken, and a live
run stops at its token budget."""

from __future__ import annotations

from pathlib import Path

import pytest
from eval_parts import DATASET, PARTS, answers_for

from manda.app import Manda
from manda.evals.runner import (
    NEW_ROOM_FLOOR,
    NEW_ROOM_FLOORS,
    EvalReport,
    load_dataset,
    new_room_floor,
    run_evals,
)
from manda.sample.generate import EVAL_ONLY_DEALS


def test_the_dataset_covers_the_behaviour_spec() -> None:
    cases = load_dataset(DATASET)
    assert len(cases) >= 30
    ids = {c.id for c in cases}
    assert {f"EVAL-{n:03d}" for n in range(1, 11)} <= ids
    intents = {t.checks.get("intent") for c in cases for t in c.turns}
    assert {"fact_lookup", "deep_dive", "due_diligence", "comparison", "synthesis",
            "gap_identification", "exploration", "clarification"} <= intents
    assert any(len(c.turns) > 1 for c in cases)
    assert {c.deal for c in cases} == {"targetco", "northwind", "pennine", "tidewater", "rheintal",
                                       "halyard", "sorelle", "segura"}


def test_every_constraint_kind_is_evaluated_end_to_end() -> None:
    """Each instruction a question may carry has a dev case through the whole answer path, and
    those that can fail on the sample rooms a case where the answer must say why."""
    from manda.agent.constraints import ConstraintKind

    cases = load_dataset(DATASET)
    wanted = [(kind, want) for c in cases if not c.held_out for t in c.turns
              for kind, want in (t.checks.get("constraints") or {}).items()]
    assert {k.value for k in ConstraintKind} <= {kind for kind, _ in wanted}
    assert {"min_sources", "authoritative_only", "exclude_forecasts", "units"} <= {
        kind for kind, want in wanted if want == "not_met"}
    assert any(len(c.turns) > 2 and c.turns[-1].checks.get("not_contains") == "Still applying"
               for c in cases)


def test_a_third_of_the_cases_are_held_out_and_cover_the_analyst_topics() -> None:
    cases = load_dataset(DATASET)
    held_out = [c for c in cases if c.held_out]
    assert len(cases) >= 80 and len(held_out) * 3 >= len(cases)
    assert {"targetco", "pennine"} <= {c.deal for c in held_out}  # both house styles
    topics = {"OWNERS", "MGMT-TEAM", "PAY", "NAMED-ROLE", "OVERVIEW", "PNL", "NET-DEBT",
              "LITIGATION", "CHANGE-OF-CONTROL", "CONCENTRATION", "COVENANTS", "KEY-PERSON",
              "BUDGET-VS-ACTUAL", "SCALE", "MONTH", "FY-END", "REVENUE-FY23", "QOE",
              "NOT-IN-ROOM", "PRICE", "CORRECTION"}
    assert topics <= {c.id.split("-", 2)[2] for c in held_out}


def test_a_room_with_a_floor_of_its_own_is_a_new_room_below_the_common_floor() -> None:
    """Rooms whose mechanisms are being built ratchet on their own floor until they reach the
    common one, then leave the table."""
    assert set(NEW_ROOM_FLOORS) <= set(EVAL_ONLY_DEALS)
    assert all(0.0 <= floor < NEW_ROOM_FLOOR for floor in NEW_ROOM_FLOORS.values())
    assert new_room_floor("tidewater") == NEW_ROOM_FLOOR


def test_a_broken_dataset_says_which_case(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("cases:\n  - id: X-1\n    title: no question\n", encoding="utf-8")
    with pytest.raises(ValueError, match="case X-1 has neither `ask` nor `turns`"):
        load_dataset(bad)


def test_the_parts_ask_every_room_once() -> None:
    """The offline evals are asked in parts (`eval_parts.py`), each with a test file of its own."""
    deals = [deal for part in PARTS.values() for deal in part]
    assert sorted(deals) == sorted({c.deal for c in load_dataset(DATASET)})
    here = Path(__file__).parent
    assert {p.name for p in here.glob("test_evals_*.py")} == {f"test_evals_{part}.py"
                                                              for part in PARTS}


async def test_live_runs_stop_at_the_token_budget(app: Manda) -> None:
    report: EvalReport = await run_evals(answers_for(app), DATASET, live=True, budget_tokens=0,
                                         only=["EVAL-001", "EVAL-002"])
    assert [c.skipped for c in report.cases] == ["token budget of 0 reached"] * 2
    assert report.to_json()["cases_skipped"] == 2
