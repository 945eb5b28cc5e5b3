"""An answer's framing words are the language asked's: a German question about the team, a
French one about the credit lines, are answered in their own words around the documents'."""

from __future__ import annotations

import pytest

from manda.vocabulary import vocabulary

_VALUES = {"count": 3, "what": "CFO", "first": "CEO", "last": "CFO", "role": "CFO",
           "since": "2021"}


@pytest.mark.parametrize("language", ["de", "fr", "es"])
@pytest.mark.parametrize("key", ["team_count", "key_roles_missing", "key_role_question",
                                 "listed_or", "holds_role", "holds_role_since", "role_none",
                                 "role_question", "balance_sheet_lead", "cash_debt_lead",
                                 "cash_debt_heading", "covenants_ask"])
def test_a_framing_is_written_in_the_language_asked(language: str, key: str) -> None:
    words = vocabulary()
    assert key in words.languages[language].answers
    assert words.answer(key, language, **_VALUES) != words.answer(key, "en", **_VALUES)
