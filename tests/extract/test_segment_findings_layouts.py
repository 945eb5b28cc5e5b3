"""A segment's figures wherever its table puts the segment (issue 25): a segment's row under its
line item's heading ("Intelligent" under "Operating Income" in an MD&A), or a segment as a
column head under its year's line (a note's table a year), is that segment's line item for the
column's period, never the company's; the total is the company's. The pages are invented
(tests/fixtures/segment_pages.py) and read as the PDF parser writes them."""

from __future__ import annotations

from fixtures.extraction import page_findings
from fixtures.segment_pages import MDNA, NOTE, parsed

from manda.models import Finding


def _findings(pages: list[str]) -> list[Finding]:
    return [f for n, text in enumerate(parsed(pages)) for f in page_findings(text, page=n + 1)]


def _by(findings: list[Finding], subject: str, period: str) -> dict[str | None, float | None]:
    return {f.attributes.get("segment"): f.value for f in findings
            if f.subject == subject and f.period == period}


def test_segments_rows_under_a_line_items_heading_are_that_line_item_of_each() -> None:
    found = _findings(MDNA)
    assert _by(found, "ebit", "FY2022") == {"Harbor Services": 250.0, "Inland Freight": 150.0,
                                           None: 400.0}
    assert _by(found, "revenue", "FY2023") == {"Harbor Services": 1200.0,
                                              "Inland Freight": 800.0, None: 2000.0}
    freight = next(f for f in found if f.attributes.get("segment") == "Inland Freight"
                   and f.subject == "ebit" and f.period == "FY2023")
    assert freight.entity == "Inland Freight" and "Inland Freight" in freight.excerpt


def test_rows_that_do_not_add_up_to_the_total_are_no_parts_of_the_heading() -> None:
    """"Operating expenses" over rows that are no parts of it: nothing is read as a part."""
    page = "\n".join(["Operating expenses", "2023 | 2022",
                      "Harbor Services | 2023: $300 | 2022: $250",
                      "Inland Freight | 2023: 100 | 2022: 150",
                      "Total | 2023: $900 | 2022: $800"])
    assert not [f for f in page_findings(page) if f.attributes.get("segment")]


def test_each_segments_column_is_its_line_item_for_the_year_above_the_table() -> None:
    found = _findings(NOTE)
    assert _by(found, "ebit", "FY2025") == {
        "North Region": 400e6, "South Coast": 200e6, "Far East": 100e6,
        "Rest of World Markets": 150e6, "Corporate": -50e6, None: 800e6}
    # two segments' equal figures on one page are two findings
    assert _by(found, "revenue", "FY2025") == {
        "North Region": 1000e6, "South Coast": 500e6, "Far East": 250e6,
        "Rest of World Markets": 250e6, None: 2000e6}
    assert _by(found, "revenue", "FY2024")["Far East"] == 200e6


def test_quarters_under_a_years_line_are_no_parts() -> None:
    """"2025" over "Q1 | Q2 | Q3 | Q4": the columns are periods, and no figure is a part's."""
    page = "\n".join(["Quarterly results (in millions)", "2025", "Q1 | Q2 | Q3 | Q4",
                      "Revenue | Q1: 100 | Q2: 110 | Q3: 120 | Q4: 130"])
    assert not [f for f in page_findings(page) if f.attributes.get("segment")]


def test_quarters_under_a_line_items_heading_are_no_parts() -> None:
    page = "\n".join(["Revenue", "2025 | 2024", "Q1 | 2025: 100 | 2024: 90",
                      "Q2 | 2025: 110 | 2024: 95", "Total | 2025: 210 | 2024: 185"])
    assert not [f for f in page_findings(page) if f.attributes.get("segment")]
