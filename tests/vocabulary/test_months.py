"""Month names and the words that join a day, its month and its year are vocabulary: every
language file's months are read by the period, date and amount readers alike."""

from __future__ import annotations

from datetime import date

import pytest

from manda.finance.amounts import find_amounts
from manda.finance.dates import find_date_mentions
from manda.finance.periods import find_periods
from manda.vocabulary import vocabulary


@pytest.mark.parametrize(("word", "month"), [
    ("Sept", 9), ("März", 3), ("juillet", 7), ("dic", 12), ("setiembre", 9), ("ago", 8),
])
def test_every_language_names_its_months(word: str, month: int) -> None:
    assert vocabulary().month(word) == month


@pytest.mark.parametrize(("text", "period"), [
    ("dic-25", "Dec 2025"),
    ("ene-25", "Jan 2025"),
    ("marzo de 2025", "Mar 2025"),
    ("31 de diciembre de 2025", "as of 2025-12-31"),
    ("30 juin 2025", "as of 2025-06-30"),
    ("30th of June 2024", "as of 2024-06-30"),
])
def test_month_headers_and_dates_in_any_language(text: str, period: str) -> None:
    assert [p for p, _, _ in find_periods(text)] == [period]


def test_a_spanish_date_in_prose_is_a_date_and_no_amount() -> None:
    text = "La audiencia previa se celebró el 12 de febrero de 2026 en Murcia."
    (mention,) = find_date_mentions(text)
    assert mention.span.start == date(2026, 2, 12)
    assert find_amounts("vence el 31 de diciembre") == []
