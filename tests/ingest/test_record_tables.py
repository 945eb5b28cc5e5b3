"""A table of records (debt issues, one a line) written without column gaps is stored as labelled
rows under its column titles, as the PDF parser reads the page. Every table here is invented."""

from __future__ import annotations

from pathlib import Path

from fixtures.text_pdfs import write_text_pdf

from manda.ingest.parsers.base import ParseLimits
from manda.ingest.parsers.pdf import parse_pdf
from manda.ingest.parsers.records import recorded_text

ISSUES = "\n".join([
    "Debt Issuances (dollars in millions)",
    "Issuance Date Maturity Date Principal Amount Interest Rate (Fixed)",
    "February 2025 March 2032 $750 4.80%",
    "August 2025 August 2030 400 4.10",
    "August 15, 2025 September 1, 2045 600 5.60 %",
    "We also have a committed $2.0 billion revolving credit facility.",
])


def test_each_record_is_written_under_its_column_titles() -> None:
    lines = recorded_text(ISSUES).split("\n")
    assert "Issuance Date | Maturity Date | Principal Amount | Interest Rate (Fixed)" in lines
    assert ("Issuance Date: February 2025 | Maturity Date: March 2032 | Principal Amount: $750 | "
            "Interest Rate (Fixed): 4.80%") in lines
    assert ("Issuance Date: August 15, 2025 | Maturity Date: September 1, 2045 | "
            "Principal Amount: 600 | Interest Rate (Fixed): 5.60%") in lines
    # the prose under the table, and the caption above it, stay as written
    assert lines[0] == "Debt Issuances (dollars in millions)"
    assert lines[-1] == "We also have a committed $2.0 billion revolving credit facility."


def test_lines_that_are_no_records_are_left_as_written() -> None:
    # a header whose rows hold words, or fewer cells than it has titles, is no record table
    worded = "\n".join(["Grant Date Exercise Price Fair Value",
                        "Options granted to officers in 2025 vested ratably",
                        "March 2025 $41.20"])
    assert recorded_text(worded) == worded
    # a line of words that does not end in a column's title is no header
    prose = "\n".join(["The interest rate on the notes is fixed until maturity",
                       "March 2025 April 2035 $1,000 5.00%"])
    assert recorded_text(prose) == prose


def test_the_pdf_parser_stores_the_records(tmp_path: Path) -> None:
    path = write_text_pdf(tmp_path / "issues.pdf", [ISSUES])
    text = parse_pdf(path, "issues.pdf", ParseLimits()).sections[0].text
    assert ("Issuance Date: August 2025 | Maturity Date: August 2030 | Principal Amount: 400 | "
            "Interest Rate (Fixed): 4.10") in text.splitlines()
