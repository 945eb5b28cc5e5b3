"""A quarter asked where the passages state only the year (issue 25): the year's row is said as
the year's, and the lead says the passages read state none for the quarter alone. Invented."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.evidence_first import answer as evidence_answer

ANNUAL = "\n".join([
    "CONSOLIDATED STATEMENTS OF OPERATIONS",
    "(in millions)",
    "2024 | 2025",
    "Net income | 2024: $1,210 | 2025: $1,480",
])


def test_a_quarter_asked_of_a_years_row_is_said_to_be_the_year() -> None:
    first = evidence_answer(_ask("What was net income in the fourth quarter of 2025?"),
                            _evidence(ANNUAL)).text.splitlines()[0]
    assert "$1.48 billion in 2025" in first, first
    assert first.endswith("That is the full year's figure: the passages read state none for "
                          "Q4 2025 alone."), first
    year = evidence_answer(_ask("What was net income in 2025?"), _evidence(ANNUAL)).text
    assert "full year's figure" not in year, year
