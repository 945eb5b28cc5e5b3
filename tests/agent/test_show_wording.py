"""A figure is shown in the document's own wording unless an English reader would misread it:
an amount written the German way ("4.620 TEUR" is 4.62 million, not 4.62 thousand) is shown as
Manda formats amounts, a ratio or percentage with its separators turned (precision kept)."""

from __future__ import annotations

import pytest

from manda.agent.selection import show
from manda.models import Confidence, Finding, FindingKind, Location


def finding(value: float, text: str, unit: str = "EUR") -> Finding:
    return Finding(id="f", deal_id="d", document_id="x", kind=FindingKind.METRIC,
                   subject="ebitda", label="EBITDA", period="FY2025", value=value, unit=unit,
                   value_text=text, excerpt=text, location=Location.for_page(1),
                   confidence=0.9, confidence_level=Confidence.HIGH)


@pytest.mark.parametrize(("value", "unit", "written", "shown"), [
    (4_620_000, "EUR", "4.620 TEUR", "€4.62M"),
    (3_200_000, "EUR", "TEUR 3.200", "€3.2M"),
    # wording whose scale is left out is shown as Manda formats the value
    (500_000, "EUR", "EUR 500.000", "€500k"),
    (1_234_500, "EUR", "€ 1.234,5 Tsd.", "€1.23M"),
    (2.75, "x", "2,75x", "2.75x"),  # a covenant keeps its precision
    (31.6, "%", "31,6 %", "31.6%"),
])
def test_german_wording_is_shown_with_english_separators(
    value: float, unit: str, written: str, shown: str
) -> None:
    assert show(finding(value, written, unit)) == shown


@pytest.mark.parametrize(("value", "unit", "written"), [
    (1_250_000, "EUR", "€1,250,000"),
    (4.125, "%", "4.125%"),
    (4_620_000, "EUR", "€4.62M"),
    (1_234.567, "USD", "$1,234.567"),
])
def test_english_wording_is_shown_as_written(value: float, unit: str, written: str) -> None:
    assert show(finding(value, written, unit)) == written
