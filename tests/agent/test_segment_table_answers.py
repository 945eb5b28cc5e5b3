"""A segment's margin, change and ranking from tables that put the segment under its line item's
heading or in a column under the year's line (issue 25), and a segment the question names whose
rows were not read said to be missing, never answered with the company's figure. The pages are
invented (tests/fixtures/segment_pages.py) and read as the PDF parser writes them."""

from __future__ import annotations

from fixtures.extraction import page_findings
from fixtures.segment_pages import MDNA, NOTE, parsed
from test_filings_leads import DOC, _ask, _evidence

from manda.agent.compose.comparison import compose as compare
from manda.agent.compose.fact_lookup import compose

COMPANY = "\n".join(["Consolidated results (in millions)", "2023 | 2022",
                     "Operating income | 2023: $400 | 2022: $400",
                     "Revenue | 2023: $2,000 | 2022: $1,900"])
MENTIONS = ("Operating income increased driven by growth in Harbor Services, offset in part by "
            "a decline in Gamma Works. Gamma Works revenue decreased on lower volumes.")


def _answer(question: str, *texts: str) -> str:
    return compose(_ask(question), _evidence(*texts)).text


def test_a_segments_margin_from_its_rows_under_each_line_items_heading() -> None:
    text = _answer("What operating margin did the Inland Freight segment earn in 2023?",
                   *parsed(MDNA))
    assert text.startswith("Inland Freight operating margin was 12.5% in 2023"), text
    assert "Inland Freight operating income $100.0 million" in text, text


def test_a_segments_change_and_the_top_segment_from_rows_under_headings() -> None:
    question = "How did operating income of the Inland Freight segment change from 2022 to 2023?"
    for text in (_answer(question, *parsed(MDNA)),
                 compare(_ask(question), _evidence(*parsed(MDNA))).text):
        assert text.startswith("Inland Freight operating income fell 33.3% in 2023, to $100.0 "
                               "million from $150.0 million in 2022"), text
    top = _answer("Which segment earned the most operating income in 2023?", *parsed(MDNA))
    assert top.startswith("Harbor Services $300.0 million ranks first by size in 2023"), top


def test_a_segments_margin_change_and_rank_from_its_columns_in_each_years_table() -> None:
    note = parsed(NOTE)
    margin = _answer("What was the operating margin of the Far East segment in 2025?", *note)
    assert margin.startswith("Far East operating margin was 40.0% in 2025"), margin
    moved = _answer("How did operating income of the South Coast segment change from 2024 to "
                    "2025?", *note)
    assert moved.startswith("South Coast operating income/(loss) rose 33.3% in 2025, to $200.0 "
                            "million from $150.0 million in 2024"), moved
    fastest = _answer("Which segment grew its operating income fastest in 2025?", *note)
    assert fastest.startswith("South Coast +33.3%"), fastest
    assert "4. North Region +14.3% ($400.0 million against $350.0 million)" in fastest, fastest


def test_a_segment_named_but_not_read_is_said_missing_never_the_companys_figure() -> None:
    question = "How did operating income of the Gamma Works segment change from 2022 to 2023?"
    for text in (_answer(question, COMPANY, MENTIONS),
                 compare(_ask(question), _evidence(COMPANY, MENTIONS)).text):
        assert text.startswith("The passages read state no operating income for Gamma Works"), \
            text
        assert "$400" not in text
    margin = _answer("What operating margin did the Gamma Works segment earn in 2023?",
                     COMPANY, MENTIONS)
    assert margin.startswith("The Gamma Works figures read do not state"), margin
    assert "20.0%" not in margin


def test_a_segments_share_is_over_the_grand_total_in_a_table_with_change_columns() -> None:
    """Rows with change columns beside their years are statement rows; among the totals under
    the segments' rows ("Total freight revenues", "Total revenues") the whole is the largest."""
    table = "\n".join([
        "Revenues (Dollars in millions)",
        "2023 | 2022 | 2021 | change | change % | change 2 | change % 2",
        *(f"{label} | 2023: {a} | 2022: {b} | 2021: {c} | change: {d} | change %: {e} | "
          f"change 2: {f} | change % 2: {g}" for label, a, b, c, d, e, f, g in [
              ("Freight sales", "$800", "$700", "$600", "$100", "14%", "$100", "17%"),
              ("Freight leasing", "200", "150", "100", "50", "33%", "50", "50%"),
              ("Total freight revenues", "1,000", "850", "700", "150", "18%", "150", "21%"),
              ("Storage segment revenue", "250", "150", "100", "100", "67%", "50", "50%"),
              ("Total revenues", "$1,250", "$1,000", "$800", "$250", "25%", "$200", "25%")]),
    ])
    text = _answer("What share of total revenues in 2023 came from the storage segment?", table)
    assert text.startswith("Storage's share of total revenues was 20.0% in 2023"), text


def test_the_companys_margin_never_reads_a_segments_column() -> None:
    page = "\n".join([
        "Our reportable segments are Upland and Coastal.",
        "The following table shows information by reportable segment (in millions):",
        "2025", "Upland Coastal Corporate Total",
        "Net sales $1,000 $600 $— $1,600",
        "Operating income/(loss) $300 $100 $(80) $320",
        "2024", "Upland Coastal Corporate Total",
        "Net sales $900 $500 $— $1,400",
        "Operating income/(loss) $250 $90 $(70) $270",
    ])
    text = _answer("What was the operating margin in 2025?", *parsed([page]))
    assert text.startswith("Operating margin was 20.0% in 2025"), text


def test_segments_named_side_by_side_are_each_answered_not_the_first_alone() -> None:
    """The first segment's finding alone does not answer for both: the rows of each do."""
    pages = parsed(MDNA)
    evidence = _evidence(*pages)
    for n, text in enumerate(pages):
        for finding in page_findings(text, page=30 + n, document=DOC):
            evidence.findings[finding.id] = finding
    question = "What were Harbor Services and Inland Freight segment revenues in 2023?"
    found = compose(_ask(question), evidence).text
    assert "$1.2 billion" in found and "$800.0 million" in found, found


def test_a_causes_effect_on_a_line_item_leads_over_the_line_items_row() -> None:
    """"How much did the change in useful lives boost operating income?": the sentence that
    states the effect, not the row of operating income with its change column."""
    rows = "\n".join(["SUMMARY RESULTS (In millions, except percentages)",
                      "2025 | 2024 | change %",
                      "Operating income | 2025: 900 | 2024: 800 | change %: 13%"])
    said = ("Based on the carrying amount of the equipment, the effect of this change in "
            "estimate for fiscal year 2025 was an increase in operating income of $120 million.")
    text = _answer("How much did the change in equipment useful lives boost operating income?",
                   rows, said)
    assert "$120 million" in text.splitlines()[0], text


def test_a_segments_revenue_growth_is_the_change_of_its_revenue() -> None:
    text = _answer("What was the Inland Freight segment's revenue growth in 2023?", *parsed(MDNA))
    assert text.startswith("Inland Freight revenue fell 11.1% in 2023"), text
