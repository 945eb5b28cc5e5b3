"""Periods written in each language the vocabulary knows read into Manda's labels."""

from __future__ import annotations

import pytest

from manda.finance.period_words import periods_in


@pytest.mark.parametrize(("text", "label"), [
    ("Pour le T3 2024, le chiffre d'affaires", "Q3 2024"),
    ("au 3e trimestre 2024", "Q3 2024"),
    ("le troisième trimestre 2024", "Q3 2024"),
    ("au premier semestre 2024", "H1 2024"),
    ("sur l'exercice 2023", "FY2023"),
    ("En el T3 de 2024", "Q3 2024"),
    ("en el 3T 2024", "Q3 2024"),
    ("en el tercer trimestre de 2024", "Q3 2024"),
    ("en el primer semestre del año 2024", "H1 2024"),
    ("en el ejercicio 2023", "FY2023"),
    ("im 3. Quartal 2024", "Q3 2024"),
    ("im dritten Quartal 2024", "Q3 2024"),
    ("im Geschäftsjahr 2023", "FY2023"),
    ("in the third quarter of 2024", "Q3 2024"),
    ("in Q3 2024", "Q3 2024"),
])
def test_a_period_in_any_language_is_read_as_its_label(text: str, label: str) -> None:
    assert [p for p, _, _ in periods_in(text)] == [label]


@pytest.mark.parametrize("text", ["T5 2024", "le cinquième trimestre 2024", "S3 2024",
                                  "ratio of 4,0 / 2,9", "Article 3 2024"])
def test_no_period_where_none_is_written(text: str) -> None:
    assert periods_in(text) == []
