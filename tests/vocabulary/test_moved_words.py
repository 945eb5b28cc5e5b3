"""The last word lists of a language that lived in code, read from the language files once: each
reads one case in English as before, and one in French, German and Spanish."""

from __future__ import annotations

import pytest

from manda.finance.periods import parse_period


@pytest.mark.parametrize(("header", "period"), [
    ("2024 £m", "FY2024"), ("FY24 ($000)", "FY2024"), ("2023 (in millions)", "FY2023"),
    ("Ist 2024 TEUR", "FY2024"), ("2024 in Mio. €", "FY2024"),
    ("2024 (en K€)", "FY2024"), ("2023 en milliers", "FY2023"),
    ("2024 (en miles)", "FY2024"), ("2025 en millones", "FY2025")])
def test_a_column_header_s_unit_beside_its_year(header: str, period: str) -> None:
    assert parse_period(header) == period


def test_a_word_ending_on_a_unit_is_no_unit() -> None:
    assert parse_period("2024 Am") is None  # "m" ends a word here: no "2024 A" in £m
