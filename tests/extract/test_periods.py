"""Periods normalise to one spelling, and follow-ups can step back a quarter or a year."""

from __future__ import annotations

import pytest

from manda.finance.periods import (
    find_periods,
    parse_period,
    period_end,
    period_sort_key,
    previous_period,
    same_quarter_last_year,
    year_of,
)


@pytest.mark.parametrize(
    ("text", "period"),
    [
        ("Q3 2024", "Q3 2024"),
        ("third quarter of 2024", "Q3 2024"),
        ("3Q24", "Q3 2024"),
        ("Q3'24", "Q3 2024"),
        ("Q3 FY24", "Q3 2024"),
        ("2024-Q3", "Q3 2024"),
        ("for the three months ended September 30, 2024", "Q3 2024"),
        ("FY2023", "FY2023"),
        ("FY 23", "FY2023"),
        ("fiscal year 2023", "FY2023"),
        ("full year 2023", "FY2023"),
        ("year ended 31 December 2023", "FY2023"),
        ("2023", "FY2023"),
        ("2025E", "FY2025"),
        ("H1 2024", "H1 2024"),
        ("first half of 2024", "H1 2024"),
        ("1H24", "H1 2024"),
        ("as of 30 September 2024", "as of 2024-09-30"),
        ("30.09.2024", "as of 2024-09-30"),
        ("September 30, 2024", "as of 2024-09-30"),
        ("fiscal '25", "FY2025"),
        ("financial year ’24", "FY2024"),
        ("LTM Mar-25", "LTM Mar 2025"),
        ("TTM to March 31, 2025", "LTM Mar 2025"),
        ("last twelve months ended 31 March 2025", "LTM Mar 2025"),
    ],
)
def test_parse_period(text: str, period: str) -> None:
    assert parse_period(text) == period


@pytest.mark.parametrize("text", ["founded in 2015", "Q3 12% growth", "the quarter", ""])
def test_not_a_period(text: str) -> None:
    assert parse_period(text) is None


def test_find_periods_gives_spans_in_reading_order() -> None:
    text = "Revenue for Q3 2024 was €5.2M (Q3 2023: €4.7M); 156 employees as of 30 September 2024."
    found = find_periods(text)
    assert [p for p, _, _ in found] == ["Q3 2024", "Q3 2023", "as of 2024-09-30"]
    assert [text[s:e] for _, s, e in found] == ["Q3 2024", "Q3 2023", "as of 30 September 2024"]


def test_a_bare_year_is_annual_only_in_an_annual_context() -> None:
    assert find_periods("Annual revenue in 2023 was €18.4M")[0][0] == "FY2023"
    assert find_periods("The company was founded in 2015") == []


def test_a_list_of_bare_years_after_one_lead_is_each_a_year() -> None:
    text = "Capital expenditures were $77.7 billion and $128.3 billion in 2024 and 2025."
    assert [p for p, _, _ in find_periods(text, bare_years=True)] == ["FY2024", "FY2025"]
    assert [p for p, _, _ in find_periods("in 2023, 2024 and 2025", bare_years=True)] == [
        "FY2023", "FY2024", "FY2025"]
    # a year beside a figure is no year of the list
    assert [p for p, _, _ in find_periods("in 2024 2,345 units", bare_years=True)] == ["FY2024"]


def test_previous_period() -> None:
    assert previous_period("Q3 2024") == "Q2 2024"
    assert previous_period("Q1 2024") == "Q4 2023"
    assert previous_period("H1 2024") == "H2 2023"
    assert previous_period("FY2024") == "FY2023"
    assert previous_period("as of 2024-09-30") == "as of 2024-06-30"
    assert previous_period("as of 2024-09-15") is None


def test_same_quarter_last_year() -> None:
    assert same_quarter_last_year("Q3 2024") == "Q3 2023"
    assert same_quarter_last_year("H2 2024") == "H2 2023"
    assert same_quarter_last_year("FY2024") == "FY2023"
    assert same_quarter_last_year("as of 2024-02-29") == "as of 2023-02-28"


def test_year_and_order() -> None:
    assert year_of("Q3 2024") == 2024
    assert year_of("as of 2023-12-31") == 2023
    assert year_of(None) is None
    assert period_end("H1 2024").isoformat() == "2024-06-30"  # type: ignore[union-attr]
    periods = ["FY2023", "Q3 2024", "H1 2024", "Q2 2024", "Q4 2023", None]
    assert sorted(periods, key=period_sort_key) == [
        None, "Q4 2023", "FY2023", "Q2 2024", "H1 2024", "Q3 2024",
    ]


def test_an_ltm_period_ends_with_its_month() -> None:
    assert period_end("LTM Mar 2025") == period_end("Mar 2025")
    order = ["Apr 2025", "LTM Mar 2025", "Dec 2024"]
    assert sorted(order, key=period_sort_key) == ["Dec 2024", "LTM Mar 2025", "Apr 2025"]


def test_months_are_one_kind_of_period_whatever_their_names() -> None:
    """A series compares like with like: every month with months (was: "May" and "Mar" one kind,
    "Jan" another, by their first letters), quarters with quarters, years with years."""
    from manda.finance.periods import period_kind

    assert {period_kind(p) for p in ("Apr 2024", "May 2024", "Jan 2025", "Mar 2025")} == {"month"}
    assert [period_kind(p) for p in ("FY2025", "Q1 FY2025", "Q3 2024", "H1 2024",
                                     "LTM Mar 2025")] == ["FY", "Q", "Q", "H", "LTM"]


@pytest.mark.parametrize(("text", "expected"), [
    ("As of December 31, 2025 and 2024, total debt was", ["as of 2025-12-31", "as of 2024-12-31"]),
    ("at June 30, 2023, 2022 and 2021", ["as of 2023-06-30", "as of 2022-06-30",
                                         "as of 2021-06-30"]),
    ("au 31 décembre 2025 et 2024", ["as of 2025-12-31", "as of 2024-12-31"]),
])
def test_years_listed_after_a_date_are_that_day_in_each(text: str, expected: list[str]) -> None:
    assert [p for p, _, _ in find_periods(text)] == expected
