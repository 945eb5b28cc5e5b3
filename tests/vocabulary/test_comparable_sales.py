"""A retailer's comparable sales (same stores, as a change) are not its sales, in any language."""

from __future__ import annotations

import pytest

from manda.finance.vocabulary import canonical_subject, metric_spec


@pytest.mark.parametrize("label", [
    "Comparable sales change", "Comparable store sales", "Same-store sales growth",
    "Like-for-like sales", "Flächenbereinigter Umsatz", "Ventes à surface comparable",
    "Ventas comparables",
])
def test_comparable_sales_are_their_own_metric(label: str) -> None:
    assert canonical_subject(label) == "comparable sales"


@pytest.mark.parametrize("label", ["Net sales", "Sales", "Umsatz", "Ventes", "Ventas netas"])
def test_sales_stay_revenue(label: str) -> None:
    assert canonical_subject(label) == "revenue"


def test_comparable_sales_are_a_rate_of_the_revenue_family() -> None:
    spec = metric_spec("comparable sales")
    assert spec is not None and spec.unit_kind == "percent" and spec.family == "revenue"
