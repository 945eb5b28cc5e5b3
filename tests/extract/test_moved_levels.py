"""A rate or amount stated as a change from one level to another is two levels, never a range.

Invented sentences of other companies in four languages: "decreased from 31.2% to 24.8%" gives
the later level for the later year and the earlier one for the year before when the sentence
names both; "decreased $2.3 billion to $41.0 billion" is a change, then the level it reached; a
real range ("between $8 and $10 billion", "€20.0M–€20.5M") is still read as one.
"""

from __future__ import annotations

import pytest
from fixtures.extraction import page_findings

from manda.models import Finding


def _findings(text: str) -> list[Finding]:
    return page_findings(text, page=7)


def _levels(text: str, subject: str) -> dict[str | None, float | None]:
    return {f.period: f.value for f in _findings(text) if f.subject == subject}


def test_a_margin_that_moved_from_one_level_to_another_gives_each_year_its_level() -> None:
    levels = _levels("Gross margin for the marine division decreased from 31.2% to 24.8% in "
                     "the year ended December 31, 2024 as compared to the year ended December "
                     "31, 2023.", "gross margin")
    assert levels == {"FY2024": 24.8, "FY2023": 31.2}, levels


def test_each_level_takes_the_year_written_beside_it() -> None:
    levels = _levels("Our gross margin passed from 12% in 2022 to 15% in 2023.", "gross margin")
    assert levels == {"FY2022": 12.0, "FY2023": 15.0}, levels


def test_the_earlier_level_of_an_undated_comparison_is_not_guessed() -> None:
    levels = _levels("In 2024, gross margin improved from 40.1% to 43.5%.", "gross margin")
    assert levels == {"FY2024": 43.5}, levels


def test_moves_are_read_in_german_spanish_and_french() -> None:
    """Each level once, for its own year: not both for the year the sentence opens with."""
    assert _levels("Im Geschäftsjahr 2024 stieg der Umsatz gegenüber 2023 von 10,0 Mio. € auf "
                   "12,5 Mio. €.", "revenue") == {"FY2023": 10_000_000, "FY2024": 12_500_000}
    assert _levels("En 2024, el margen EBITDA pasó del 10 % al 12 % frente a 2023.",
                   "ebitda margin") == {"FY2023": 10.0, "FY2024": 12.0}
    assert _levels("En 2024, la marge d'EBITDA est passée de 22 % à 25 % par rapport à 2023.",
                   "ebitda margin") == {"FY2023": 22.0, "FY2024": 25.0}


def test_a_change_by_an_amount_to_a_level_is_the_level_not_a_midpoint() -> None:
    found = [f for f in _findings("Cash from operations decreased $2.3 billion to $41.0 "
                                  "billion in fiscal year 2024.") if f.value_text]
    assert not any("to" in (f.value_text or "") for f in found), found
    assert any(f.value == 41_000_000_000 for f in found), [(f.subject, f.value) for f in found]


def test_a_range_is_still_one_value() -> None:
    found = _findings("We expect capital expenditures to be between $8.0 to $10.0 billion "
                      "in 2025.")
    capex = [f for f in found if f.subject == "capex"]
    assert capex and capex[0].attributes.get("range_low") == "8e+09", capex


def test_the_later_level_written_first_is_still_the_later_years() -> None:
    assert _levels("Operating cash flow increased to $5.2 billion from $4.9 billion in 2023, "
                   "driven by higher sales in 2024.", "operating cash flow") == {
        "FY2024": 5_200_000_000, "FY2023": 4_900_000_000}
    assert _levels("En 2024, el margen EBITDA aumentó al 12 % desde el 10 % de 2023.",
                   "ebitda margin") == {"FY2024": 12.0, "FY2023": 10.0}
    assert _levels("En 2024, la marge d'EBITDA a progressé à 25 % contre 22 % en 2023.",
                   "ebitda margin") == {"FY2024": 25.0, "FY2023": 22.0}


def test_a_figure_followed_by_a_change_noun_is_a_change_of_what_follows() -> None:
    """"a €2.0 million decrease in share buybacks and a €1.2 million decrease in repayments of
    borrowings": neither figure is the buybacks' level, nor the level of the line named before."""
    text = ("Cash used in financing activities fell €3.4 million in 2024, mainly due to a €2.0 "
            "million decrease in share buybacks and a €1.2 million decrease in repayments of "
            "borrowings, offset in part by a €0.4 million increase in dividends paid.")
    found = [(f.subject, f.value) for f in _findings(text)]
    assert not any(v in (2_000_000, 1_200_000, 400_000) for _, v in found), found


def test_a_level_beside_a_change_noun_elsewhere_is_still_read() -> None:
    found = _levels("In fiscal 2024 we spent €5.5 million on share buybacks, an increase on the "
                    "year before.", "share repurchases")
    assert 5_500_000 in found.values(), found


@pytest.mark.parametrize("sentence", [
    "Cash capital expenditures were $77.7 billion, and $128.3 billion in 2024 and 2025, which "
    "primarily reflect investments in infrastructure.",
    "Capital expenditures were $77.7 billion and $128.3 billion in 2024 and 2025, respectively.",
])
def test_a_list_of_amounts_takes_its_list_of_periods_in_order(sentence: str) -> None:
    found = {f.period: f.value for f in page_findings(sentence) if f.subject == "capex"}
    assert found == {"FY2024": 77_700_000_000.0, "FY2025": 128_300_000_000.0}


@pytest.mark.parametrize(("sentence", "expected"), [
    ("Revenue and gross profit were $5.0 million and $2.1 million, respectively.",
     {"revenue": 5_000_000.0, "gross profit": 2_100_000.0}),
    ("Net sales and operating income were $12.0 million and $1.5 million in 2024.",
     {"revenue": 12_000_000.0, "ebit": 1_500_000.0}),
])
def test_a_list_of_line_items_takes_its_list_of_amounts_in_order(sentence: str,
                                                                 expected: dict) -> None:
    assert {f.subject: f.value for f in page_findings(sentence)} == expected


@pytest.mark.parametrize("sentence", [
    "We held $3.0 million and $1.1 million in revenue and gross profit, respectively.",
    "Nous avons réalisé 3,0 millions d'euros et 1,1 million d'euros de chiffre d'affaires et "
    "marge brute, respectivement.",
])
def test_a_list_of_amounts_before_its_list_of_line_items_takes_them_in_order(
        sentence: str) -> None:
    assert {f.subject: f.value for f in page_findings(sentence)} == {
        "revenue": 3_000_000.0, "gross profit": 1_100_000.0}


@pytest.mark.parametrize(("sentence", "cash"), [
    ("As of December 31, 2025, we had $7.20 billion and $5.10 billion of cash and cash "
     "equivalents and short-term investments, respectively.", 7_200_000_000.0),
    ("As of December 31, 2025, we had $7.20 billion and $5.10 billion of cash, cash "
     "equivalents and short-term investments, respectively.", 7_200_000_000.0),
    ("Au 31 décembre 2025, nous disposions de 7,2 millions d'euros et 5,1 millions d'euros de "
     "trésorerie et placements à court terme, respectivement.", 7_200_000.0),
])
def test_a_respective_list_whose_items_are_not_all_line_items(sentence: str,
                                                              cash: float) -> None:
    """Each amount is its own item's: the cash's is cash; the investments' is no line item,
    neither cash nor the sum of both."""
    assert [(f.subject, f.value) for f in page_findings(sentence)] == [("cash", cash)]


def test_a_list_of_one_wordings_totals_by_period_is_the_sum_each_time() -> None:
    sentence = ("We had $7.20 billion and $5.10 billion of cash and cash equivalents and "
                "short-term investments in 2025 and 2024, respectively.")
    found = {f.subject for f in page_findings(sentence)}
    assert found == {"cash and investments"}


@pytest.mark.parametrize(("sentence", "expected"), [
    ("As of September 30, 2025 and September 30, 2024, the carrying amount of the company's "
     "term debt was $12.6 billion and $13.5 billion, respectively.",
     {"as of 2025-09-30": 12_600_000_000.0, "as of 2024-09-30": 13_500_000_000.0}),
    ("As of December 31, 2025 and 2024, total debt was $4.2 billion and $3.9 billion, "
     "respectively.",
     {"as of 2025-12-31": 4_200_000_000.0, "as of 2024-12-31": 3_900_000_000.0}),
    ("In 2025 and 2024, revenue was $5.0 million and $4.1 million, respectively.",
     {"FY2025": 5_000_000.0, "FY2024": 4_100_000.0}),
    ("En 2025 et 2024, le chiffre d'affaires s'est élevé à 5,0 millions d'euros et 4,1 millions "
     "d'euros, respectivement.", {"FY2025": 5_000_000.0, "FY2024": 4_100_000.0}),
])
def test_a_list_of_periods_before_its_list_of_amounts_takes_them_in_order(
        sentence: str, expected: dict) -> None:
    """"As of <day> and <day>, … was A and B, respectively": A is the first day's, B the
    second's; never both the nearest day's."""
    found = {f.period: f.value for f in page_findings(sentence)}
    assert found == expected


@pytest.mark.parametrize(("sentence", "subject", "kept"), [
    ("Software revenue decreased $3.2 billion or 13% driven by lower licence sales.", "revenue",
     []),
    ("In 2025, we recognized total revenues of $96.8 billion, representing an increase of $15.3 "
     "billion compared to the prior year.", "revenue", [96_800_000_000.0]),
    ("Der Umsatz 2024 betrug 12,0 Mio. €, ein Anstieg um 2,0 Mio. €.", "revenue", [12_000_000.0]),
    ("Le chiffre d'affaires 2024 s'élève à 12,0 millions d'euros, soit une hausse de 2,0 "
     "millions d'euros.", "revenue", [12_000_000.0]),
])
def test_an_amount_a_change_names_is_no_level(sentence: str, subject: str,
                                               kept: list[float]) -> None:
    """"decreased $3.2 billion", "an increase of $15.3 billion": the change, never the line
    item's level; the level the sentence states is still read."""
    assert [f.value for f in page_findings(sentence) if f.subject == subject] == kept


def test_periods_listed_before_are_read_only_by_the_amounts_right_after_them() -> None:
    """"For the years ended <2025> and <2024>, includes tax effects of A and B, respectively,
    related to EBIT, and C and D, respectively, related to lease interest": the list after the
    periods' own amounts is no EBIT of the first period (its line item is another's)."""
    sentence = ("For the trailing twelve months ended January 31, 2026, and February 1, 2025, "
                "includes tax effect of $1.2 billion and $1.3 billion, respectively, related to "
                "EBIT, and $38 million and $35 million, respectively, related to operating lease "
                "interest.")
    firsts = [f.value for f in page_findings(sentence) if f.period == "LTM Jan 2026"]
    assert 38_000_000.0 not in firsts, firsts
