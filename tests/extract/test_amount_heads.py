"""A figure is stored as a line item's value only when no other noun takes it.

Invented sentences of other companies: the noun the figure is of ("charges of", "liabilities for
… were", "a reduction in net income of", "a … unrealized gain"), or the words that narrow the line
item to a part ("debt subject to fair value hedges"), give no fact of the line item; the line
item's own nouns ("compensation expense", "development expenses") and the nouns an exclusion sets
aside ("excluding the impact of …") take nothing from it.
"""

from __future__ import annotations

import pytest
from fixtures.extraction import page_findings

from manda.finance.amount_heads import of_another


def _values(sentence: str, subject: str) -> list[float]:
    return sorted(f.value for f in page_findings(sentence, page=3) if f.subject == subject)


@pytest.mark.parametrize(("sentence", "subject"), [
    ("Operating income for 2025 includes charges of $1.8 billion related to a legal settlement.",
     "ebit"),
    ("As of June 30, 2024 and 2025, our liabilities for employee related expenses were $2.1 "
     "billion and $2.6 billion.", "personnel costs"),
    ("The change in estimate resulted in a reduction in net income of $310 million for 2025.",
     "net income"),
    ("Issuance costs related to the 2029 Notes totaled $9.7 million.", "debt"),
    ("Net loss for 2024 included a $640 million unrealized gain on our equity stake in Northwind.",
     "net income"),
    ("As of June 30, 2025, the carrying amount of our term debt subject to fair value hedges "
     "was $4.2 billion.", "debt"),
    ("Sales and marketing expenses rose due to an increase in promotions, referral credits and "
     "refunds of $120 million.", "sales and marketing"),
    ("Total depreciation, including depreciation expense included in cost of revenue, was $905 "
     "million in 2025.", "cost of sales"),
])
def test_a_figure_of_another_noun_is_no_fact_of_the_line_item(sentence: str,
                                                               subject: str) -> None:
    assert _values(sentence, subject) == []


@pytest.mark.parametrize(("sentence", "subject", "kept"), [
    ("Research and development expenses were $3.1 billion in 2025.", "research and development",
     [3_100_000_000.0]),
    ("Revenue for 2025, excluding the impact of foreign exchange, was $5.2 billion.", "revenue",
     [5_200_000_000.0]),
    ("Cost of revenue was $4.0 billion in 2025.", "cost of sales", [4_000_000_000.0]),
    ("Net income was $3.0 billion in 2025, including a gain of $1.0 billion on a divestiture.",
     "net income", [3_000_000_000.0]),
    ("Our long-term debt was $6.1 billion as of December 31, 2025.", "debt", [6_100_000_000.0]),
])
def test_the_line_items_own_figure_is_still_read(sentence: str, subject: str,
                                                  kept: list[float]) -> None:
    assert _values(sentence, subject) == kept


@pytest.mark.parametrize(("sentence", "subject", "kept"), [
    ("Le résultat d'exploitation 2024 s'élève à 8,0 millions d'euros et inclut des charges de "
     "1,2 million d'euros liées à une restructuration.", "ebit", [8_000_000.0]),
    ("Das EBIT 2024 betrug 8,0 Mio. € und enthält Aufwendungen von 1,2 Mio. € für eine "
     "Restrukturierung.", "ebit", [8_000_000.0]),
    ("El EBIT de 2024 fue de 8,0 millones de euros e incluye cargos de 1,2 millones de euros por "
     "una reestructuración.", "ebit", [8_000_000.0]),
])
def test_another_nouns_figure_in_french_german_and_spanish(sentence: str, subject: str,
                                                           kept: list[float]) -> None:
    assert _values(sentence, subject) == kept


def test_a_list_of_figures_is_the_noun_before_its_first() -> None:
    """"liabilities for X were A and B": both are the liabilities', the second as the first."""
    text = "Our liabilities for unpaid claims were $1.5 billion and $1.9 billion."
    second = text.index("$1.9")
    first = text.index("$1.5")
    assert of_another(text, 0, (first, second + len("$1.9 billion")), [])


@pytest.mark.parametrize(("sentence", "subject", "kept"), [
    ("As of June 30, 2025, the deferred revenue liability of $61.5 million relates to annual "
     "plans.", "deferred revenue", [61_500_000.0]),
    ("Adjusted EBITDA loss was $212 million in 2025.", "adjusted ebitda", [-212_000_000.0]),
    ("Debt issuance costs related to the notes totaled $9.7 million.", "debt", []),
    ("Segment adjusted EBITDA loss improved $97 million, or 43%.", "adjusted ebitda", []),
    ("In the third quarter of 2025 the Company recorded a one-time income tax charge of $2.2 "
     "billion.", "one-time charges", [2_200_000_000.0]),
])
def test_a_line_items_own_noun_a_few_words_after_it(sentence: str, subject: str,
                                                    kept: list[float]) -> None:
    """"deferred revenue liability", "EBITDA loss", "one-time income tax charge": the noun is
    the line item's own, its figure the line item's."""
    assert _values(sentence, subject) == kept
