"""A question's words find a passage's, however either is worded: a verb's irregular form, a
deal team's word for the filing's ("job cuts" for "role eliminations", "stake" for
"investments"), and the words that only give the question its form count for nothing."""

from __future__ import annotations

import pytest

from manda.agent.relevance import content_terms, stems_of, term_in


@pytest.mark.parametrize(("asked", "said"), [
    ("hold", "$2.6 billion held in escrow and restricted from general use"),
    ("job", "severance costs primarily related to planned role eliminations"),
    ("cuts", "severance costs primarily related to planned role eliminations"),
    ("stake", "Equity investments in private companies, primarily nonvoting preferred stock"),
    ("grow", "Services net sales grew 14% in 2025"),
])
def test_a_question_word_finds_the_filings_word_for_it(asked: str, said: str) -> None:
    term = content_terms(asked)[0]
    assert term_in(term, stems_of(said)), (asked, said)


def test_a_word_is_its_own_concepts_before_one_it_merely_begins_like() -> None:
    """"investments" is an investment (a stake), not an investor ("inves…": a buyer)."""
    assert not term_in(content_terms("bidder")[0], stems_of("Equity investments in Anthropic"))
    assert term_in(content_terms("stake")[0], stems_of("Equity investments in Anthropic"))


def test_the_words_of_a_questions_form_are_no_topic() -> None:
    assert content_terms("What is Northbeam doing about tariffs?") == ["northbeam", "tariff"]


def test_the_document_a_question_names_says_where_not_what() -> None:
    """"Was the BWA's EBITDA corrected?": the BWA (German management accounts) is where the
    figure was stated, as "the presentation" is; a correction that does not name it still
    answers (with the possessive read, "BWA" had become a word the e-mail must say)."""
    assert "bwa" not in content_terms("Was the BWA's EBITDA for 2024/25 corrected?")
    assert "presentation" not in content_terms("What was revenue according to the presentation?")
    assert "azure" in content_terms("What was Azure's revenue growth rate?")
