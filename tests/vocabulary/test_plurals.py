"""A topic's term matches in the plural by its language's rule (the head noun takes it), not by
each plural written into the files."""

from __future__ import annotations

import pytest

from manda.vocabulary import topic, vocabulary
from manda.vocabulary.cues import cues
from manda.vocabulary.plurals import with_plurals


@pytest.mark.parametrize(("language", "term", "plural"), [
    ("en", "credit line", "credit lines"), ("en", "change of control", "changes of control"),
    ("en", "facility", "facilities"),
    ("fr", "ligne de crédit", "lignes de crédit"), ("fr", "contrat de travail",
                                                   "contrats de travail"),
    ("fr", "dette financière", "dettes financières"), ("fr", "litige commercial",
                                                      "litiges commerciaux"),
    ("de", "Kreditlinie", "Kreditlinien"), ("de", "Vereinbarung", "Vereinbarungen"),
    ("es", "línea de crédito", "líneas de crédito"), ("es", "contrato de trabajo",
                                                      "contratos de trabajo")])
def test_a_term_s_head_noun_takes_the_plural(language: str, term: str, plural: str) -> None:
    rule = vocabulary().languages[language].plural
    assert cues([with_plurals(term, rule)]).fullmatch(plural)
    assert cues([with_plurals(term, rule)]).fullmatch(term)


@pytest.mark.parametrize(("language", "term"), [
    ("fr", "prix"), ("de", "Darlehen"), ("en", "losses"), ("es", "crédito|créditos")])
def test_a_word_whose_plural_is_itself_is_kept(language: str, term: str) -> None:
    assert with_plurals(term, vocabulary().languages[language].plural) == term


@pytest.mark.parametrize("question", [
    "What credit lines does the company have?", "Quelles sont les lignes de crédit ?",
    "Welche Kreditlinien bestehen?", "¿Qué líneas de crédito tiene la sociedad?"])
def test_a_question_naming_credit_lines_in_the_plural_asks_about_debt(question: str) -> None:
    assert topic("debt").asked.found(question)
