"""A balance asked at a date against a year earlier (issue 25, item 5): a liability named as the
balance asked is its figure, not a risk; the comparison's words of when ("a year earlier") say
when, not what a passage must state. The questions are written for the tests."""

from __future__ import annotations

import pytest

from manda.agent.frame import read_question
from manda.agent.relevance import period_words
from manda.answers import Intent


@pytest.mark.parametrize("question", [
    "What was the deferred compensation liability at January 31, 2026, compared with a year "
    "earlier?",
    "How did accrued liabilities at June 30, 2023 compare with a year earlier?",
])
def test_a_liability_asked_at_a_date_is_its_balance_not_a_risk(question: str) -> None:
    frame = read_question(question)
    assert frame.intent is Intent.COMPARISON, frame.intent


def test_a_liability_asked_with_no_period_is_still_a_diligence_question() -> None:
    assert read_question("What hidden liabilities should we worry about?").intent is \
        Intent.DUE_DILIGENCE
    assert read_question("Which liabilities look unusual?").intent is Intent.DUE_DILIGENCE


def test_a_period_named_from_another_says_when() -> None:
    words = period_words("How did inventories compare with a year earlier?")
    assert {"year", "earli"} <= words, words
    assert "inventori" not in words


def test_last_year_alone_is_the_period_asked_not_one_to_compare_with() -> None:
    """"compared with a year earlier" names the period compared with, which a passage need not
    write; "revenue last year" asks that year itself, whose full-year figure a passage must
    state (a quarter's is no answer)."""
    assert "year" in period_words("What were accrued liabilities compared with a year earlier?")
    assert not period_words("What was revenue last year?")
