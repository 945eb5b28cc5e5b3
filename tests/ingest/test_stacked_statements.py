"""Statements a PDF prints one cell per line are put back in rows under their column headers.

Every statement here is invented (a Dutch ferry operator reporting in euros, a 52/53-week
fiscal year ending on the last Saturday of October): raw figures in units with no scale caption,
sub-headings, a row short of its columns, a statement continued over the next page.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from fixtures.text_pdfs import write_text_pdf

from manda.app import Manda
from manda.config import Settings
from manda.finance.fiscal import FiscalYearEnd, fiscal_period_of_column
from manda.ingest.parsers.base import ParseLimits
from manda.ingest.parsers.pdf import parse_pdf
from manda.ingest.parsers.stacked import stacked_pages, stacked_rows

OPERATIONS = """Consolidated Statements of Income
2023-10-28
2022-10-29
2021-10-30
Revenues:
Ticket Revenue
4120500000.0
3877100000.0
3012000000.0
Freight Revenue
1033000000.0
998400000.0
870300000.0
Total Revenues
5153500000.0
4875500000.0
3882300000.0
Vessel Impairment
212000000.0
Operating Income
902300000.0
811900000.0
544000000.0
Net Income
610700000.0
577300000.0
351200000.0"""

# the statement goes on over the next page, under no header of its own
CASH_FLOWS = """Consolidated Statements of Cash Flows
2023-10-28
2022-10-29
2021-10-30
Net Cash from Operating Activities
1301000000.0
1190500000.0
960000000.0
Payments for Vessels and Terminals
-455000000.0
-610200000.0
-388000000.0"""
CONTINUED = """Proceeds from Sale of Vessels
41000000.0
0.0
12500000.0
Net Cash from Investing Activities
-414000000.0
-610200000.0
-375500000.0"""

BALANCE = """Consolidated Balance Sheets
2023-10-28
2022-10-29
Cash and Cash Equivalents
388000000.0
295500000.0
Total Assets
7710000000.0
7422000000.0"""

PROSE = """Waddenveer N.V. annual report for the fiscal year ended October 28, 2023.
Our fiscal year ends on the last Saturday of October. Revenue grew to EUR 5.2 billion,
as ticket sales on the island routes recovered and freight held up.
The following dates matter to shareholders:
2024-03-15
2024-06-14"""


def _row(text: str, label: str) -> str:
    return next(line for line in text.split("\n") if line.startswith(f"{label} |"))


def test_each_label_and_its_figures_become_one_row_under_the_column_headers() -> None:
    text, header, rows = stacked_rows(OPERATIONS)
    assert header == ["2023-10-28", "2022-10-29", "2021-10-30"] and rows == 5
    assert _row(text, "Ticket Revenue") == (
        "Ticket Revenue | 2023-10-28: 4120500000.0 | 2022-10-29: 3877100000.0"
        " | 2021-10-30: 3012000000.0")
    # the header line stands right above the rows it heads, after each sub-heading
    lines = text.split("\n")
    at = lines.index("Revenues:")
    assert lines[at + 1] == "2023-10-28 | 2022-10-29 | 2021-10-30"
    # a row with one figure for three columns cannot be placed: left as it was
    assert "Vessel Impairment\n212000000.0" in text
    assert _row(text, "Net Income").endswith("2021-10-30: 351200000.0")


def test_a_statement_continued_on_the_next_page_keeps_its_headers() -> None:
    pages = stacked_pages([PROSE, OPERATIONS, CASH_FLOWS, CONTINUED, PROSE])
    assert _row(pages[3], "Net Cash from Investing Activities").startswith(
        "Net Cash from Investing Activities | 2023-10-28: -414000000.0")
    # prose with a list of dates is no statement, before or after one
    assert pages[0] == PROSE and pages[4] == PROSE


def test_a_document_that_stacks_few_rows_is_left_as_it_is() -> None:
    two_rows = "Summary\n2023\n2022\nSales\n10\n9\nCosts\n7\n6"
    assert stacked_pages([PROSE, two_rows]) == [PROSE, two_rows]


def test_a_52_53_week_year_end_is_the_fiscal_year_it_closes() -> None:
    october = FiscalYearEnd(10, 28)  # learned from "the fiscal year ended October 28, 2023"
    assert fiscal_period_of_column("2022-10-29", october, flow=True) == "FY2022"
    assert fiscal_period_of_column("2021-10-30", october, flow=True) == "FY2021"
    assert fiscal_period_of_column("2022-10-29", october, flow=False) == "as of 2022-10-29"
    january = FiscalYearEnd(1, 31)  # a retailer's year ended February 3, 2024
    assert january.nominal_end_near(date(2024, 2, 3)) == date(2024, 1, 31)
    assert january.nominal_end_near(date(2024, 2, 20)) is None
    # a quarter's end is no year end
    assert fiscal_period_of_column("2023-07-29", october, flow=True) == "as of 2023-07-29"


def _write_pdf(path: Path, pages: list[str]) -> Path:
    return write_text_pdf(path, pages)


def test_a_stacked_pdf_is_parsed_into_rows(tmp_path: Path) -> None:
    path = _write_pdf(tmp_path / "waddenveer.pdf", [PROSE, OPERATIONS, CASH_FLOWS, CONTINUED])
    doc = parse_pdf(path, "waddenveer.pdf", ParseLimits())
    assert "Freight Revenue | 2023-10-28: 1033000000.0 | 2022-10-29: 998400000.0" \
        in doc.sections[1].text


async def test_a_question_on_a_stacked_statement_is_answered_from_its_row(tmp_path: Path
                                                                          ) -> None:
    room = tmp_path / "room"
    room.mkdir()
    _write_pdf(room / "Waddenveer annual report.pdf",
               [PROSE, OPERATIONS, CASH_FLOWS, CONTINUED, BALANCE])
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("deal", [room])
        income = (await app.answers.ask(
            "deal", "What was Waddenveer's net income in fiscal 2022?")).answer
        cash = (await app.answers.ask(
            "deal", "How much cash did Waddenveer hold at the end of fiscal 2022?")).answer
        findings = await app.graph.list_findings("deal")
    first = income.split("\n")[0]
    assert "577.3" in first and "€" in first, income
    # a balance stands at its column's own date, the last day of a 52/53-week year
    assert {f.period for f in findings if f.subject == "cash"} == {
        "as of 2023-10-28", "as of 2022-10-29"}
    assert "295.5" in cash.split("\n")[0], cash
