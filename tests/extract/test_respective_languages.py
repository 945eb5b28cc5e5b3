"""A respective list and a year named before the verb, read alike in English, French, German and
Spanish.

Invented sentences of other companies: German writes "bzw." BETWEEN the items of each list
("2025 bzw. 2024 … 12,4 Mio. € bzw. 10,1 Mio. €"), where English and French put "respectively"
after them; every language may name the year with its subject, before the verb ("Los ingresos de
2024 fueron de …", "Der Umsatz des Jahres 2024 betrug …").
"""

from __future__ import annotations

import pytest
from fixtures.extraction import page_findings

from manda.finance.label_heads import label_line_item


def _levels(text: str, subject: str) -> dict[str | None, float | None]:
    return {f.period: f.value for f in page_findings(text, page=3) if f.subject == subject}


@pytest.mark.parametrize("sentence", [
    "Die Umsatzerlöse beliefen sich 2025 bzw. 2024 auf 12,4 Mio. € bzw. 10,1 Mio. €.",
    "Die Gesellschaft erzielte Umsatzerlöse von 12,4 Mio. € bzw. 10,1 Mio. € in 2025 bzw. 2024.",
    "Die Umsatzerlöse betrugen im Geschäftsjahr 2025 beziehungsweise 2024 12,4 Mio. € "
    "beziehungsweise 10,1 Mio. €.",
    "Revenues were $12.4 million and $10.1 million in 2025 and 2024, respectively.",
    "In 2025 and 2024, revenues were $12.4 million and $10.1 million, respectively.",
    "En 2025 et 2024, le chiffre d'affaires s'est élevé à 12,4 M€ et 10,1 M€ respectivement.",
    "En 2025 y 2024, los ingresos fueron de 12,4 millones de euros y 10,1 millones de euros, "
    "respectivamente.",
    "Le chiffre d'affaires s'est élevé à 12,4 M€ et 10,1 M€ en 2025 et 2024, respectivement.",
    "Las ventas netas ascendieron a 12,4 millones de euros y 10,1 millones de euros en 2025 y "
    "2024, respectivamente.",
    "Der Umsatz betrug 12,4 Mio. € bzw. 10,1 Mio. € in den Geschäftsjahren 2025 bzw. 2024.",
])
def test_a_respective_list_gives_each_year_its_own_amount(sentence: str) -> None:
    """"2025 bzw. 2024 … A bzw. B": A is 2025's and B 2024's, never both the nearest year's
    nor one left without its year."""
    assert _levels(sentence, "revenue") == {"FY2025": 12_400_000.0, "FY2024": 10_100_000.0}


@pytest.mark.parametrize("sentence", [
    "Revenues for 2024 were $12.4 million.",
    "Le chiffre d'affaires de 2024 s'est élevé à 12,4 M€.",
    "Le chiffre d'affaires de l'exercice 2024 s'élève à 12,4 millions d'euros.",
    "Der Umsatz des Jahres 2024 betrug 12,4 Mio. €.",
    "Die Umsatzerlöse des Geschäftsjahres 2024 betrugen 12,4 Mio. €.",
    "Los ingresos de 2024 fueron de 12,4 millones de euros.",
    "Los ingresos del ejercicio 2024 ascendieron a 12,4 millones de euros.",
    # the year right after its line item, no word between
    "Der Umsatz 2024 betrug 12,4 Mio. €.",
    "Umsatzerlöse 2024: 12,4 Mio. €",
    "Revenue 2024 was $12.4 million.",
    "Le chiffre d'affaires 2024 s'est élevé à 12,4 M€.",
    "Los ingresos 2024 fueron de 12,4 millones de euros.",
])
def test_a_year_named_with_the_subject_before_the_verb_dates_the_amount(sentence: str) -> None:
    """"Los ingresos de 2024 fueron de 12,4 millones de euros": the revenue of 2024."""
    assert _levels(sentence, "revenue") == {"FY2024": 12_400_000.0}


@pytest.mark.parametrize("sentence", [
    "Los ingresos financieros de 2024 fueron de 0,3 millones de euros.",
    "Die Umsatzerlöse betrugen 12,4 Mio. € bzw. 10,1 Mio. € nach Abzug der Rabatte.",
])
def test_what_is_not_revenue_or_no_list_of_years_is_not_read_as_one(sentence: str) -> None:
    """Finance income is no revenue; "A bzw. B" without years to pair them with dates neither
    amount with a year it does not name."""
    levels = _levels(sentence, "revenue")
    assert all(p is None for p in levels), levels
    if "financieros" in sentence:
        assert levels == {}


@pytest.mark.parametrize(("sentence", "label"), [
    ("Otros ingresos de explotación fueron de 0,3 millones de euros en 2024.",
     "Otros ingresos de explotación"),
    ("Les autres produits d'exploitation se sont élevés à 0,3 M€ en 2024.",
     "Autres produits d'exploitation"),
    ("Die sonstigen betrieblichen Erträge beliefen sich 2024 auf 0,3 Mio. €.",
     "Sonstige betriebliche Erträge"),
    ("Other operating income was $0.3 million in 2024.", "Other operating income"),
])
def test_other_operating_income_is_no_revenue(sentence: str, label: str) -> None:
    """"Otros ingresos", "autres produits": what a P&L books beside its revenue, neither in a
    sentence nor as a row label, though "ingresos" and "produits d'exploitation" alone are."""
    assert _levels(sentence, "revenue") == {}
    assert label_line_item(label) == "other operating income"


@pytest.mark.parametrize("sentence", [
    "Die Umsatzerlöse beliefen sich im Geschäftsjahr 2025 auf 12,4 Mio. € (Vorjahr: 10,1 Mio. €).",
    "Die Umsatzerlöse beliefen sich im Geschäftsjahr 2025 auf 12,4 Mio. € nach 10,1 Mio. € im "
    "Vorjahr.",
    "Le chiffre d'affaires de l'exercice 2025 s'élève à 12,4 M€, contre 10,1 M€ l'exercice "
    "précédent.",
    "Le chiffre d'affaires 2025 s'élève à 12,4 M€ en 2025, contre 10,1 M€ en 2024.",
    "Los ingresos de 2025 fueron de 12,4 millones de euros, frente a 10,1 millones de euros el "
    "año anterior.",
    "Los ingresos de 2025 fueron de 12,4 millones de euros, frente a 10,1 millones de euros en "
    "2024.",
    "Revenue for 2025 was $12.4 million compared with $10.1 million in the prior year.",
])
def test_the_year_before_s_amount_is_the_year_before_s(sentence: str) -> None:
    """"12,4 Mio. € (Vorjahr: 10,1 Mio. €)", "contre 10,1 M€ en 2024": the comparative is the
    year before's, never the sentence's own year's (a wrong figure for it)."""
    assert _levels(sentence, "revenue") == {"FY2025": 12_400_000.0, "FY2024": 10_100_000.0}


def test_a_prior_year_amount_without_a_year_to_count_from_is_not_read() -> None:
    """"(Vorjahr: 10,1 Mio. €)" in a sentence that names no year: which year is unknown, and the
    amount is never given as the current one."""
    levels = _levels("Die Umsatzerlöse betrugen 12,4 Mio. € (Vorjahr: 10,1 Mio. €).", "revenue")
    assert 10_100_000.0 not in levels.values(), levels
