"""A question's language does not decide what is found (issue 25): a French, German or Spanish
question on English statements reaches the rows in the document's words, names a computed metric
in its own words, and is answered in its own language with the line item named in it; an English
question on a French room reaches the French rows. Companies, tables and figures are invented."""

from __future__ import annotations

from datetime import date

import pytest
from test_spans import _evidence

from manda.agent.compose import compose
from manda.agent.compose.common import Ask
from manda.agent.frame import read_question
from manda.agent.relevance import content_terms
from manda.agent.spans import rank_spans
from manda.finance.derived import asked_derived
from manda.models import Document, DocumentStatus
from manda.retrieval.query import read_query


def _document(filename: str, dated: date) -> Document:
    """An annual report of a company whose year ends in December."""
    return Document(id=filename[:2], deal_id="d", filename=filename, content_hash="h",
                    file_type="pdf", size_bytes=1, version_family="f",
                    status=DocumentStatus.COMPLETED, doc_date=dated, fiscal_year_end="--12-31")


# an invented English annual report
ENGLISH = _document("Kestrel_Annual_Report.pdf", date(2025, 2, 20))
KESTREL = (
    "KESTREL MARINE PLC\nCONSOLIDATED INCOME STATEMENT\n(in thousands of pounds)\n"
    "| | 2024 | 2023 |\n|---|---|---|\n| Turnover | 64,210 | 58,930 |\n"
    "| Cost of sales | (41,300) | (38,020) |\n| Operating profit | 7,820 | 6,410 |\n"
    "| Profit for the year | 5,140 | 4,380 |",
    "Liquidity: Kestrel held cash of £9.8 million and bank loans of £22.0 million at the "
    "year end, and its revolving facility of £15 million was undrawn.",
    "CONSOLIDATED CASH FLOW STATEMENT\n(in thousands of pounds)\n| | 2024 | 2023 |\n"
    "|---|---|---|\n| Net cash from operating activities | 9,460 | 8,110 |\n"
    "| Purchases of property, plant and equipment | (3,270) | (2,940) |",
    "The Chief Executive leads the sales organisation and the fleet strategy of the group.",
)


def _kestrel():
    return _evidence(*KESTREL, doc=ENGLISH)


def _lead(question: str, evidence) -> str:
    return compose(Ask.of(read_question(question)), evidence).text.splitlines()[0]


@pytest.mark.parametrize("question", [
    "Quel a été le chiffre d'affaires de Kestrel sur l'exercice 2024 ?",
    "Wie hoch war der Umsatz von Kestrel im Geschäftsjahr 2024?",
    "¿Cuáles fueron las ventas de Kestrel en 2024?",
])
def test_revenue_asked_in_another_language_reaches_the_turnover_row(question: str) -> None:
    evidence = _kestrel()
    assert rank_spans(read_question(question), evidence)[0].text.startswith("Turnover")
    assert "64.21 million" in _lead(question, evidence)


@pytest.mark.parametrize(("question", "said"), [
    ("Quel a été le résultat net de Kestrel en 2024 ?", "Résultat net (Profit for the year) "
                                                         "s'élevait à"),
    ("Wie hoch war der Jahresüberschuss von Kestrel 2024?", "Jahresüberschuss (Profit for the "
                                                            "year) betrug"),
    ("¿Cuál fue el resultado neto de Kestrel en 2024?", "(Profit for the year) fue de"),
])
def test_the_fact_line_is_said_in_the_question_s_language(question: str, said: str) -> None:
    lead = _lead(question, _kestrel())
    assert said in lead and "5.14 million" in lead


@pytest.mark.parametrize(("question", "name"), [
    ("¿Cuál fue el flujo de caja libre de Kestrel en 2024?", "Flujo de caja libre fue de"),
    ("Quel a été le flux de trésorerie disponible de Kestrel en 2024 ?",
     "Flux de trésorerie disponible s'élevait à"),
    ("Wie hoch war der Free Cashflow von Kestrel 2024?", "Free Cashflow betrug"),
])
def test_free_cash_flow_asked_in_its_own_words_is_computed(question: str, name: str) -> None:
    lead = _lead(question, _kestrel())
    assert lead.startswith(name)
    assert "6.19 million" in lead  # 9,460 − 3,270 thousand pounds
    assert "Liquidity" not in lead  # never the cash-and-debt overview


@pytest.mark.parametrize(("question", "metric"), [
    ("Quelle est la marge d'EBITDA de la cible ?", "EBITDA margin"),
    ("Wie hoch ist die EBITDA-Marge?", "EBITDA margin"),
    ("¿Cuál es el margen EBITDA?", "EBITDA margin"),
    ("Quelle est la marge brute en pourcentage ?", "gross margin"),
    ("¿Cuál fue el margen bruto?", "gross margin"),
    ("Wie hoch ist die Bruttomarge?", "gross margin"),
    ("Quel est le BFR à fin 2024 ?", "working capital"),
    ("¿Cuál es el capital circulante?", "working capital"),
    ("Wie hoch ist das Working Capital?", "working capital"),
    ("Quel est le délai de paiement clients ?", "DSO"),
    ("What is the DSO?", "DSO"),
    ("What was free cash flow?", "free cash flow"),
])
def test_a_computed_metric_is_named_in_every_language(question: str, metric: str) -> None:
    found = asked_derived(question)
    assert found is not None and found.name == metric


@pytest.mark.parametrize("question", [
    "What was adjusted EBITDA in 2024?", "Quel est l'EBITDA ajusté 2024 ?",
    "Wie hoch war das bereinigte EBITDA 2024?",
])
def test_adjusted_ebitda_is_never_computed_in_any_language(question: str) -> None:
    assert asked_derived(question) is None


def test_the_search_carries_the_document_s_words_for_a_line_item_asked_in_french() -> None:
    reading = read_query("Quel a été le chiffre d'affaires de Kestrel en 2024 ?")
    assert {"net sales", "turnover", "revenue"} <= set(reading.expansions)
    assert "revenue" in reading.expanded_subjects
    english = read_query("What was Kestrel's revenue in 2024?")
    assert "chiffre d'affaires" not in english.expansions  # an English question's own search


def test_an_elided_article_is_no_part_of_the_word() -> None:
    assert content_terms("le chiffre d'affaires de l'exercice") == \
        content_terms("chiffre affaires exercice")


# an invented French room: a company's annual accounts
FRENCH = _document("Comptes_annuels_2024.pdf", date(2025, 3, 31))
LUMIERE = (
    "LUMIÈRE SAS\nCompte de résultat (en milliers d'euros)\n| | 2024 | 2023 |\n|---|---|---|\n"
    "| Chiffre d'affaires | 12 450 | 11 020 |\n| Achats consommés | (6 300) | (5 900) |\n"
    "| Résultat d'exploitation | 1 870 | 1 540 |\n| Résultat net | 1 120 | 960 |",
    "La société emploie 85 salariés à fin 2024 et son siège est à Lyon.",
)


@pytest.mark.parametrize(("question", "figure"), [
    ("How did Lumière's turnover develop in 2024?", "12.45 million"),
    ("What was Lumière's revenue in 2024?", "12.45 million"),
    ("What was Lumière's headcount at the end of 2024?", "85"),
])
def test_an_english_question_on_a_french_room_reaches_its_rows(question: str,
                                                               figure: str) -> None:
    evidence = _evidence(*LUMIERE, doc=FRENCH)
    assert figure in _lead(question, evidence)


RESULTS = (
    "KESTREL MARINE PLC\nOPERATING EXPENSES\n(in thousands of pounds)\n| | 2024 | 2023 |\n"
    "|---|---|---|\n| Research and development | 4,930 | 4,410 |\n"
    "| Selling, general and administrative | 8,120 | 7,760 |",
    "Kestrel's effective tax rate was 23.4% in 2024, against 22.1% in 2023, reflecting the "
    "higher UK statutory rate.",
    "Kestrel held cash of £9.8 million at the year end.",
)


@pytest.mark.parametrize(("question", "figure"), [
    ("Combien Kestrel a-t-elle dépensé en recherche et développement en 2024 ?", "4.93 million"),
    ("Wie viel hat Kestrel 2024 für Forschung und Entwicklung ausgegeben?", "4.93 million"),
    ("¿Cuál fue el tipo impositivo efectivo de Kestrel en 2024?", "23.4%"),
    ("Quel a été le taux d'imposition effectif de Kestrel en 2024 ?", "23.4%"),
    ("Wie hoch war der effektive Steuersatz von Kestrel 2024?", "23.4%"),
])
def test_a_line_item_no_vocabulary_row_names_is_found_by_its_equivalents(question: str,
                                                                          figure: str) -> None:
    """R&D and the tax rate are named in each language's `equivalents:`; "efectivo" in "tipo
    impositivo efectivo" is no cash asked, "Steuersatz" no company."""
    lead = _lead(question, _evidence(*RESULTS, doc=ENGLISH))
    assert figure in lead and "9.8 million" not in lead
