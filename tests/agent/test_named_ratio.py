"""A ratio a question names in its own words ("revenue as a percentage of gross bookings") is
computed from the two lines' rows, each input cited and the formula in one line, as a margin is;
never one of the two figures alone (issue 25). The passages are written for the tests."""

from __future__ import annotations

import pytest
from test_filings_leads import _ask, _evidence

from manda.agent.compose.computed import answer as computed_answer
from manda.agent.frame import read_question

METRICS = "\n".join([
    "Key Metrics",
    "(in millions)",
    "Year Ended December 31, | 2024 | 2025",
    "Gross Bookings | 2024: $41,200 | 2025: $48,900",
    "Revenue | 2024: $8,240 | 2025: $10,270",
])


@pytest.mark.parametrize(("question", "line", "over"), [
    ("What was revenue as a percentage of Gross Bookings in 2025?", "revenue", "bookings"),
    ("What was net income as a % of revenue?", "net income", "revenue"),
    ("Quel était le résultat net en pourcentage du chiffre d'affaires ?", "net income",
     "revenue"),
    ("¿Cuál fue el beneficio neto como porcentaje de las ventas?", "net income", "revenue"),
])
def test_a_ratio_named_in_the_questions_words_divides_its_two_lines(question: str, line: str,
                                                                    over: str) -> None:
    derived = read_question(question).derived
    assert derived is not None and derived.plus == (line,) and derived.over == over, derived
    assert derived.unit == "percent"


def test_a_share_of_a_total_is_no_ratio_of_two_lines() -> None:
    assert read_question("What share of revenue came from Services?").derived is None


def test_the_ratio_is_computed_with_its_inputs_cited_and_its_formula() -> None:
    draft = computed_answer(_ask("What was revenue as a percentage of Gross Bookings in 2025?"),
                            _evidence(METRICS))
    assert draft is not None
    first, working = draft.text.splitlines()[:2]
    assert "21.0%" in first and "computed" in first, first
    assert "$10.3 billion" in first and "$48.9 billion" in first, first
    assert "(10,270) ÷ 48,900 = 0.210" in working, working
