"""The gate reads a stated amount to the precision it shows, and prefers the figure it equals."""

from __future__ import annotations

import pytest

from manda.agent.evidence import Evidence
from manda.agent.validate import Requirements, check_disclosures, close_to_shown, half_unit
from manda.finance.amounts import Amount, find_amounts
from manda.models import (
    Confidence,
    Document,
    Finding,
    FindingKind,
    Location,
    LocationKind,
    Nature,
)


def _amount(text: str) -> Amount:
    return find_amounts(text)[0]


@pytest.mark.parametrize(("text", "half"), [
    ("£1.3M", 50_000), ("£1.29M", 5_000), ("£700k", 500), ("$0.27m", 5_000),
    ("EUR 5.2 million", 50_000), ("$1,300,000", 0.5), ("35.0%", 0.05),
])
def test_the_tolerance_is_half_a_unit_of_the_last_digit_shown(text: str, half: float) -> None:
    assert half_unit(_amount(text)) == pytest.approx(half)


def test_a_figure_reads_as_an_amount_only_within_the_digits_shown() -> None:
    assert close_to_shown(_amount("£1.3M"), 1_320_000)
    assert not close_to_shown(_amount("£1.3M"), 1_360_000)
    assert close_to_shown(_amount("£1.29M"), 1_294_000)
    assert not close_to_shown(_amount("£1.29M"), 1_340_000)  # a 1-decimal width would take it
    assert close_to_shown(_amount("$46.7 million"), 46_700_000)


def _finding(fid: str, period: str, value: float, nature: Nature, doc: str) -> Finding:
    return Finding(id=fid, deal_id="d", document_id=doc, kind=FindingKind.METRIC,
                   subject="gross profit", label="Gross profit", period=period, value=value,
                   unit="GBP", nature=nature, excerpt=f"Gross profit {value:,.0f}",
                   location=Location(kind=LocationKind.CELL, label="Sheet!B2"),
                   confidence=0.9, confidence_level=Confidence.HIGH)


def test_a_rounded_actual_is_not_taken_for_a_nearby_budget_figure() -> None:
    docs = {i: Document(id=i, deal_id="d", filename=f"{i}.xlsx", content_hash=i, file_type="xlsx",
                        size_bytes=1, version_family=i) for i in ("actuals", "budget")}
    evidence = Evidence(documents=docs, findings={f.id: f for f in [
        _finding("a1", "Q1 2025", 1_290_000, Nature.ACTUAL, "actuals"),
        _finding("a2", "Q2 2025", 1_300_000, Nature.ACTUAL, "actuals"),
        _finding("b1", "Q1 2025", 1_350_000, Nature.FORECAST, "budget"),
    ]})
    text = "Gross profit was £1.29M in Q1 2025 and £1.3M in Q2 2025."
    assert check_disclosures(text, evidence, Requirements()) == []
    # Stated without an actual it equals, the budget figure must still be labelled.
    unlabelled = "Gross profit was £1.35M in Q1 2025."
    assert any("forecast" in e for e in check_disclosures(unlabelled, evidence, Requirements()))
