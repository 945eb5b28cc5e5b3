"""Rates a deal team asks for that another shape used to take over (issue 25): an effective tax
rate is a figure computed from the tax charge and the income before it, not the tax topic's
listing, and a reconciliation that states it on a row named only "Total" is cited; a year
"longer than usual" is read in a filing's words, its extra week. The passages are invented."""

from __future__ import annotations

import pytest
from test_filings_leads import _ask, _evidence

from manda.agent.compose import compose, ranking, topic_shape
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans

OPERATIONS = "\n".join([
    "Consolidated statements of operations (in millions)",
    "Year Ended December 31, | 2025 | 2024",
    "Total net sales | 2025: 52,400 | 2024: 48,100",
    "Operating income | 2025: 6,650 | 2024: 5,450",
    "Income before income taxes | 2025: 6,200 | 2024: 5,000",
    "Provision for income taxes | 2025: (1,240) | 2024: (900)",
    "Net income | 2025: 4,960 | 2024: 4,100",
])
RECONCILIATION = "\n".join([
    "The items accounting for differences between income taxes computed at the federal "
    "statutory rate and the provision recorded are as follows (in millions, except percentages):",
    "Income taxes computed at the federal statutory rate $1,302 21.0% $1,050 21.0%",
    "State taxes, net of federal effect 55 0.9 40 0.8",
    "Tax credits (117) (1.9) (190) (3.8)",
    "Total $1,240 20.0% $900 18.0%",
])
# a row that prints both signs says which year had a benefit; the year's pre-tax loss keeps
# its sign, so the rate on it is negative
LOSS = "\n".join([
    "Consolidated statements of operations (in thousands)",
    "Year Ended December 31, | 2025 | 2024",
    "Loss before income taxes | 2025: (500,000) | 2024: (800,000)",
    "Provision for (benefit from) income taxes | 2025: 5,000 | 2024: (12,000)",
    "Net loss | 2025: (505,000) | 2024: (788,000)",
])


@pytest.mark.parametrize("question", [
    "What was the effective tax rate in 2025?",
    "ETR 2025?",
    "Quel était le taux d'imposition effectif en 2025 ?",
    "Wie hoch war der effektive Steuersatz 2025?",
])
def test_an_effective_tax_rate_is_a_computed_metric_not_the_tax_topic(question: str) -> None:
    ask = _ask(question)
    assert ask.frame.derived is not None and ask.frame.derived.name == "effective tax rate"
    assert topic_shape(ask) is None


def test_why_the_rate_moved_is_still_the_tax_topics_question() -> None:
    ask = _ask("Why did the effective tax rate go up in 2025?")
    assert ask.frame.answer_kind == "reason"


def test_the_rate_is_computed_and_the_reconciliations_total_row_cited() -> None:
    draft = compose(_ask("What was the effective tax rate in 2025?"),
                    _evidence(OPERATIONS, RECONCILIATION))
    first = draft.text.splitlines()[0]
    assert "20.0%" in first and "Tax in the documents" not in draft.text, draft.text
    assert "state 20% (source: Annual.pdf, p.31)" in draft.text, draft.text  # "Total", cited
    assert "(1,240) ÷ 6,200 = 0.200" in draft.text, draft.text


def test_a_sentence_naming_the_rate_without_a_percentage_does_not_state_it() -> None:
    contingency = ("As of December 31, 2025, we had $600 million of tax contingencies which, "
                   "if recognized, would decrease our effective tax rate.")
    draft = compose(_ask("What was the effective tax rate in 2025?"),
                    _evidence(contingency, OPERATIONS))
    assert "20.0%" in draft.text.splitlines()[0], draft.text


def test_a_rate_on_a_pre_tax_loss_is_negative() -> None:
    draft = compose(_ask("What was the effective tax rate in 2025?"), _evidence(LOSS))
    assert "-1.0%" in draft.text.splitlines()[0], draft.text
    assert "a loss" not in draft.text.splitlines()[0]


@pytest.mark.parametrize(("question", "week"), [
    ("Why was fiscal 2023 longer than usual?", "week"),
    ("Was fiscal 2023 longer than a normal year?", "week"),
    ("Pourquoi l'exercice 2023 était-il plus long que d'habitude ?", "semain"),
    ("Warum war das Geschäftsjahr 2023 länger als üblich?", "woch"),
])
def test_a_year_longer_than_usual_is_asked_in_a_filings_words(question: str, week: str) -> None:
    assert any(t.startswith(week) for t in read_question(question).ranking.terms)


def test_the_extra_week_answers_a_year_longer_than_usual() -> None:
    evidence = _evidence(
        "Net sales grew in 2023, driven by higher comparable sales and new stores.",
        "The company's fiscal year 2023 spanned 53 weeks, whereas fiscal 2022 spanned 52 weeks.")
    assert "53 weeks" in rank_spans(_ask("Why was fiscal 2023 longer than usual?").frame,
                                    evidence)[0].text


STATEMENT = "\n".join([
    "Consolidated statements of operations (in millions)",
    "Year Ended December 31, | 2025 | 2024",
    "Net product sales | 2025: 300,000 | 2024: 280,000",
    "Net service sales | 2025: 420,000 | 2024: 360,000",
    "Total net sales | 2025: 720,000 | 2024: 640,000",
])
# the note's breakdown of the same whole, and the countries' right under it, each ending on
# the same total row
NOTE = "\n".join([
    "Net sales by groups of similar products and services are as follows (in millions):",
    "Year Ended December 31, | 2025 | 2024",
    "Online stores | 2025: 270,000 | 2024: 250,000",
    "Seller services | 2025: 172,000 | 2024: 156,000",
    "Cloud services | 2025: 129,000 | 2024: 108,000",
    "Advertising services | 2025: 99,000 | 2024: 80,000",
    "Subscription services | 2025: 50,000 | 2024: 46,000",
    "Consolidated | 2025: 720,000 | 2024: 640,000",
    "Net sales attributed to countries are as follows (in millions):",
    "United States | 2025: 490,000 | 2024: 440,000",
    "Germany | 2025: 130,000 | 2024: 110,000",
    "Rest of world | 2025: 100,000 | 2024: 90,000",
    "Consolidated | 2025: 720,000 | 2024: 640,000",
])


@pytest.mark.parametrize("question", [
    "Which product or service group generated the most net sales in 2025?",
    "Biggest product group by net sales in 2025?",
])
def test_a_ranking_reads_the_finest_breakdown_of_the_whole(question: str) -> None:
    ask = _ask(question)
    assert ask.frame.answer_kind == "ranking"
    draft = ranking.answer(ask, _evidence(STATEMENT, NOTE))
    assert draft is not None
    first = draft.text.splitlines()[0]
    assert first.startswith("Online stores") and "Net service sales" not in draft.text, first
    assert "Germany" not in draft.text  # the countries are another breakdown


def test_a_terse_ranking_needs_the_kind_of_part_named() -> None:
    assert read_question("What are the biggest risks for the segment?").answer_kind != "ranking"


@pytest.mark.parametrize(("question", "share", "part"), [
    ("What percentage of 2025 net sales came from the U.K.?", "10.0%", "United Kingdom"),
    ("What share of 2025 net sales came from the UK?", "10.0%", "United Kingdom"),
    ("What share of 2025 net sales came from the United States?", "60.0%", "U.S."),
])
def test_a_countrys_share_is_read_by_its_name_or_its_initials(question: str, share: str,
                                                              part: str) -> None:
    countries = "\n".join([
        "Net sales by operating expense line are as follows (in millions):",
        "Year Ended December 31, | 2025 | 2024",
        "Fulfillment (Percent of Net Sales) | 2025: 15.2% | 2024: 15.4%",
        "Net sales attributed to countries are as follows (in millions):",
        "U.S. | 2025: 432,000 | 2024: 400,000",
        "United Kingdom | 2025: 72,000 | 2024: 60,000",
        "Germany | 2025: 126,000 | 2024: 110,000",
        "Rest of world | 2025: 90,000 | 2024: 70,000",
        "Consolidated | 2025: 720,000 | 2024: 640,000",
    ])
    draft = compose(_ask(question), _evidence(STATEMENT, countries))
    first = draft.text.splitlines()[0]
    assert share in first and first.startswith(part), draft.text


def test_initials_are_no_words_of_their_own_in_lower_case() -> None:
    from manda.agent.relevance import content_terms
    assert content_terms("Tell us about the EU and U.K. sales") == content_terms(
        "Tell us about the European Union and United Kingdom sales")
    assert not content_terms("tell us")


@pytest.mark.parametrize(("question", "country"), [
    ("Quelles sont les ventes aux États-Unis ?", "U.S."),
    ("Wie hoch ist der Umsatz in den Vereinigten Staaten?", "US"),
    ("¿Cuánto vendió en EE. UU.?", "United States"),
    ("Quel est le chiffre d'affaires dans l'UE ?", "European Union"),
    ("Wie hoch ist der Umsatz im Vereinigten Königreich?", "U.K."),
])
def test_a_country_asked_in_another_language_is_the_filings_word(question: str,
                                                                 country: str) -> None:
    """A country named in any language's words or initials is one word with the English
    filing's ("États-Unis" finds "U.S. net sales")."""
    from manda.agent.relevance import content_terms
    assert set(content_terms(f"{country} sales")) - {"sale"} <= set(content_terms(question))


@pytest.mark.parametrize(("question", "subjects"), [
    ("How much income tax did the company actually pay in cash in 2025?", ("income taxes paid",)),
    ("How much did the company hold in cash at the end of 2025?", ("cash",)),
])
def test_paid_in_cash_says_how_it_was_paid_not_a_cash_balance(question: str,
                                                               subjects: tuple[str, ...]) -> None:
    assert read_question(question).subjects == subjects
