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


SITES = "\n".join([
    "Item 2. Sites",
    "As of December 31, 2025, we operated the following sites (in thousands):",
    "Use of Site Rented Floor Area (1) Freehold Floor Area Region",
    "Workshops 12,410 3,150 Northern",
    "Workshops (2) 8,075 — Southern",
    "Depots and yards 41,902 17,330 Northern",
    "Total 62,387 20,480",
    "(1)Rented space excludes sub-let space.",
    "Division Rented Floor Area (1) Freehold Floor Area (1)",
    "Parcels 30,100 9,940",
    "Freight 22,815 11,006",
])


def test_records_with_a_label_are_written_under_their_titles() -> None:
    lines = recorded_text(SITES).split("\n")
    assert "Use of Site | Rented Floor Area (1) | Freehold Floor Area | Region" in lines
    assert ("Workshops (2) | Rented Floor Area (1): 8,075 | Freehold Floor Area: — | "
            "Region: Southern") in lines
    assert "Total | Rented Floor Area (1): 62,387 | Freehold Floor Area: 20,480" in lines
    assert "Freight | Rented Floor Area (1): 22,815 | Freehold Floor Area (1): 11,006" in lines
    assert "(1)Rented space excludes sub-let space." in lines


def test_a_header_of_one_title_or_rows_of_prose_stay_as_they_are() -> None:
    text = "\n".join(["Division Floor Area", "Parcels 30,100", "Freight 22,815"])
    assert recorded_text(text) == text
    prose = "\n".join(["Rented Floor Area Freehold Floor Area",
                       "We rent most of our space and own 40% of it."])
    assert recorded_text(prose) == prose


def test_a_parsed_pdf_stores_labelled_records_with_their_titles(tmp_path: Path) -> None:
    path = write_text_pdf(tmp_path / "sites.pdf", [SITES])
    text = parse_pdf(path, "sites.pdf", ParseLimits()).sections[0].text
    assert "Parcels | Rented Floor Area (1): 30,100 | Freehold Floor Area (1): 9,940" in text
