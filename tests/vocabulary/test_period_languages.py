"""One period reader for every language: `find_periods` and `parse_period` read the periods each
language file writes (`periods:`, `months:`), so ingestion, questions and the answer gate agree,
and the English forms read as they always did."""

from __future__ import annotations

import pytest

from manda.finance.periods import find_dates, find_periods, parse_period


def _labels(text: str) -> list[str]:
    return [p for p, _, _ in find_periods(text)]


ENGLISH = [
    ("in Q3 2024", "Q3 2024"),
    ("3Q24 revenue", "Q3 2024"),
    ("in the third quarter of 2024", "Q3 2024"),
    ("the 2nd quarter of fiscal 2024", "Q2 2024"),
    ("first half of 2024", "H1 2024"),
    ("the first half-year 2024", "H1 2024"),
    ("fiscal 2023", "FY2023"),
    ("fiscal year 2023", "FY2023"),
    ("full year 2023", "FY2023"),
    ("fiscal '25", "FY2025"),
    ("FY2023/24", "FY2024"),
    ("year ended 31 December 2023", "FY2023"),
    ("the financial year ending on June 30, 2024", "FY2024"),
    ("the quarter ended 30 September 2024", "Q3 2024"),
    ("the six months ended 30 June 2024", "H1 2024"),
    ("LTM Mar-25", "LTM Mar 2025"),
    ("the last twelve months to March 2025", "LTM Mar 2025"),
    ("December 2023", "Dec 2023"),
    ("as of 30 September 2024", "as of 2024-09-30"),
]
FRENCH = [
    ("Pour le T3 2024, le chiffre d'affaires", "Q3 2024"),
    ("au 1er trimestre 2024", "Q1 2024"),
    ("le troisième trimestre 2024", "Q3 2024"),
    ("au premier semestre 2024", "H1 2024"),
    ("sur l'exercice 2023", "FY2023"),
    ("sur l'exercice 2023/24", "FY2024"),
    ("exercice clos le 31 décembre 2023", "FY2023"),
    ("l'exercice clos au 30 septembre 2025", "FY2025"),
    ("le trimestre clos le 30 juin 2024", "Q2 2024"),
    ("les douze derniers mois au 31 mars 2025", "LTM Mar 2025"),
    ("en décembre 2023", "Dec 2023"),
    ("au 31 décembre 2023", "as of 2023-12-31"),
]
GERMAN = [
    ("im 1. Quartal 2024", "Q1 2024"),
    ("im dritten Quartal 2024", "Q3 2024"),
    ("im 1. Halbjahr 2024", "H1 2024"),
    ("im Geschäftsjahr 2023", "FY2023"),
    ("GJ 2023/24", "FY2024"),
    ("Geschäftsjahr zum 31. Dezember 2023", "FY2023"),
    ("das am 30. September 2023 endende Geschäftsjahr", "FY2023"),
    ("Quartal zum 30. Juni 2024", "Q2 2024"),
    ("zum 31. Dezember 2023", "as of 2023-12-31"),
    ("im März 2024", "Mar 2024"),
]
SPANISH = [
    ("En el T3 de 2024", "Q3 2024"),
    ("en el 3T 2024", "Q3 2024"),
    ("en el primer trimestre de 2024", "Q1 2024"),
    ("en el primer semestre del año 2024", "H1 2024"),
    ("en el ejercicio 2023", "FY2023"),
    ("ejercicio 2023-24", "FY2024"),
    ("el ejercicio terminado el 31 de diciembre de 2023", "FY2023"),
    ("el trimestre terminado el 30 de junio de 2024", "Q2 2024"),
    ("los últimos doce meses a marzo de 2025", "LTM Mar 2025"),
    ("a 31 de diciembre de 2023", "as of 2023-12-31"),
    ("en diciembre de 2023", "Dec 2023"),
]


@pytest.mark.parametrize(("text", "label"), ENGLISH + FRENCH + GERMAN + SPANISH)
def test_a_period_in_any_language_is_read_as_its_label(text: str, label: str) -> None:
    assert _labels(text) == [label]


@pytest.mark.parametrize(("cell", "label"), [
    ("Actual 2023", "FY2023"), ("Budget 2025", "FY2025"), ("Ist 2024", "FY2024"),
    ("Réel 2024", "FY2024"), ("Presupuesto 2025", "FY2025"), ("Dez 24", "Dec 2024"),
    ("T1 2024", "Q1 2024"), ("1. Quartal 2024", "Q1 2024"), ("Exercice 2024/2025", "FY2025"),
])
def test_a_column_header_is_read_in_its_language(cell: str, label: str) -> None:
    assert parse_period(cell) == label


@pytest.mark.parametrize(("text", "year"), [
    ("Revenue in 2023 was", "FY2023"), ("le chiffre d'affaires en 2023", "FY2023"),
    ("Umsatz im Jahr 2023", "FY2023"), ("las ventas durante 2023", "FY2023"),
])
def test_a_bare_year_after_each_language_s_lead_is_the_year(text: str, year: str) -> None:
    assert [p for p, _, _ in find_periods(text, bare_years=True)] == [year]
    assert find_periods(text) == []  # a bare year alone is no period


@pytest.mark.parametrize("text", ["T5 2024", "le cinquième trimestre 2024", "S3 2024",
                                  "third half of 2024", "ratio of 4,0 / 2,9", "Article 3 2024",
                                  "exercice", "Quartal"])
def test_no_period_where_none_is_written(text: str) -> None:
    assert find_periods(text) == []


def test_dates_read_in_every_language() -> None:
    text = "31 December 2023, 31. Dezember 2023, 31 décembre 2023, 31 de diciembre de 2023"
    assert len({d for d, _, _ in find_dates(text)}) == 1
    assert len(find_dates(text)) == 4
