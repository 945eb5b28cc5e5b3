"""Column titles a PDF text layer writes without gaps are cut into titles and every figure is
stored under its own: a two-level header (groups over repeated periods), a table of labelled rows
(places, segments) under one-line titles, a table under a line of one date. Every table here is
invented."""

from __future__ import annotations

from pathlib import Path

from fixtures.text_pdfs import write_text_pdf

from manda.ingest.parsers.base import ParseLimits, spaced_statement_rows
from manda.ingest.parsers.pdf import parse_pdf
from manda.ingest.parsers.titles import (
    MAX_TITLE_WORDS,
    _splits,
    dated_tables,
    group_titles,
    titled_rows,
)

GROUPED = "\n".join([
    "Branches and Floor Area Branches Floor Area (a)",
    "June 30, 2025 June 30, 2024 June 30, 2025 June 30, 2024",
    "Large branches 120 118 9,400 9,250",
    "Total 410 402 21,300 20,950",
    "(a) In thousands of square feet.",
])

BY_PLACE = "\n".join([
    "Item 2. Properties",
    "Region Warehouse Space (1) Office Space (1)",
    "Northern 12,400 1,150",
    "Coastal 8,900 2,030",
    "Total 21,300 3,180",
    "(1) In thousands of square feet.",
])

DATED = "\n".join([
    "Our borrowings were as follows (in millions):",
    "March 31, 2025",
    "Term Loans | Revolver | Total",
    "Principal outstanding | Term Loans: 900 | Revolver: 150 | Total: 1,050",
    "March 31, 2026",
    "Term Loans | Revolver | Total",
    "Principal outstanding | Term Loans: 800 | Revolver: 275 | Total: 1,075",
])


def test_periods_repeated_under_group_titles_are_named_with_their_group() -> None:
    lines = spaced_statement_rows(GROUPED).split("\n")
    row = next(line for line in lines if line.startswith("Total |"))
    assert "Branches June 30, 2025: 410" in row, row
    assert "Floor Area (a) June 30, 2025: 21,300" in row, row
    assert "Floor Area (a) June 30, 2024: 20,950" in row, row


def test_group_titles_are_those_the_caption_names_else_bracket_ended() -> None:
    assert group_titles("Branches and Floor Area Branches Floor Area (a)", 2) == [
        "Branches", "Floor Area (a)"]
    assert group_titles("Fleet Owned (1) Leased (2)", 2) == ["Fleet Owned (1)", "Leased (2)"]
    # words that name no groups, and a line of figures, give none
    assert group_titles("Results of operations for the year", 2) is None
    assert group_titles("Revenue 2,100 1,900", 2) is None


def test_a_header_of_periods_without_group_titles_keeps_its_numbered_names() -> None:
    text = "\n".join(["Results for the periods shown",
                      "2025 2024 2025 2024",
                      "Revenue 10 9 20 18"])
    assert "Revenue | 2025: 10 | 2024: 9 | 2025 2: 20 | 2024 2: 18" in \
        spaced_statement_rows(text).split("\n")


def test_rows_by_place_are_written_under_their_column_titles() -> None:
    lines = titled_rows(BY_PLACE).split("\n")
    assert "Region Warehouse Space (1) | Office Space (1)" in lines
    assert "Coastal | Region Warehouse Space (1): 8,900 | Office Space (1): 2,030" in lines
    assert "Total | Region Warehouse Space (1): 21,300 | Office Space (1): 3,180" in lines
    assert lines[0] == "Item 2. Properties" and lines[-1] == "(1) In thousands of square feet."


def test_titles_that_end_alike_and_a_column_of_words_are_cut_apart() -> None:
    """"Leased Area (1) Owned Area Site" over rows ending in a place: "Owned Area" ends as the
    title before it did, and "Site" is a column of words, blank on the total's row."""
    text = "\n".join(["Use Leased Area (1) Owned Area Site",
                      "Offices 3,100 910 North",
                      "Depots (2) 14,800 — South",
                      "Total 17,900 910"])
    lines = titled_rows(text).split("\n")
    assert lines[0] == "Use Leased Area (1) | Owned Area | Site"
    assert "Depots (2) | Use Leased Area (1): 14,800 | Owned Area: — | Site: South" in lines
    assert "Total | Use Leased Area (1): 17,900 | Owned Area: 910" in lines


def test_lines_that_are_no_titled_table_are_left_as_written() -> None:
    # a line of figures is no header; a bracket alone is no title; one row is no table
    for text in ["Unamortized discount (360) (440)\nLong-term debt 52,623 65,648",
                 "(millions) Measurement Level\nCash Level 1 $6",
                 "Region Warehouse Space (1) Office Space (1)\nNorthern 12,400 1,150\nIt grew.",
                 # prose lines ending in figures and words, under a line of prose
                 "Note: Amounts may not foot due to rounding.\n(b)Note 7 to the statements.\n"
                 "(c)Note 6 to the statements.",
                 "Fair value of shares\nreceived $ 1,277 Derecognition of the\n"
                 "interests 1,057 Liability recognized"]:
        assert titled_rows(text) == text


def test_a_table_under_a_line_of_one_date_carries_the_date() -> None:
    lines = dated_tables(DATED).split("\n")
    assert ("Principal outstanding | March 31, 2026 Term Loans: 800 | March 31, 2026 Revolver: 275"
            " | March 31, 2026 Total: 1,075") in lines
    assert "March 31, 2025 Term Loans | March 31, 2025 Revolver | March 31, 2025 Total" in lines
    # a date over a line of cells that no row follows (a signature page's foot) is left alone
    foot = "October 31, 2025\nHarbor Inc. | 2025 Annual Report | 50"
    assert dated_tables(foot) == foot


def test_a_date_under_a_line_of_dates_is_no_row_of_figures() -> None:
    text = "\n".join(["December 31, 2024 December 31, 2025",
                      "Discount rate 3.5% 3.7%",
                      "December 31, 2024",
                      "Gross liabilities 95 107"])
    lines = spaced_statement_rows(text).split("\n")
    assert "December 31, 2024" in lines
    assert not any(line.startswith("December |") for line in lines), lines


def test_the_pdf_parser_stores_the_titled_rows(tmp_path: Path) -> None:
    path = write_text_pdf(tmp_path / "properties.pdf", [BY_PLACE, GROUPED])
    sections = parse_pdf(path, "properties.pdf", ParseLimits()).sections
    assert "Northern | Region Warehouse Space (1): 12,400 | Office Space (1): 1,150" in \
        sections[0].text.splitlines()
    assert "Floor Area (a) June 30, 2025: 9,400" in sections[1].text


def test_a_headers_cuts_are_bounded_by_the_longest_title() -> None:
    """The ways of cutting a header into group titles never hold a title longer than one can
    be, so a long line of words costs no more than its titles allow."""
    assert list(_splits(["Number", "of", "Stores", "Retail", "Square", "Feet"], 2))[:2] == [
        ["Number", "of Stores Retail Square Feet"], ["Number of", "Stores Retail Square Feet"]]
    words = ["Word"] * (6 * MAX_TITLE_WORDS)
    assert list(_splits(words, 6)) == [[" ".join(["Word"] * MAX_TITLE_WORDS)] * 6]
    assert list(_splits([*words, "More"], 6)) == []


def test_segments_as_columns_of_a_roll_forward_with_dated_balances() -> None:
    """A header of words no bracket or date ends ("Inland Region Coastal Online Total") over
    a roll-forward whose balances' labels end in their dates: the header is cut into as many
    titles as the rows' figures, a title of two words one the page names elsewhere."""
    text = "\n".join([
        "Goodwill is allocated to our Inland Region segment and the others as follows:",
        "Inland Region Coastal Online Total",
        "Balance - January 1, 2025 $1,200 $340 $95 $1,635",
        "Acquisitions 40 12 — 52",
        "Currency effects (1) (6) (2) (1) (9)",
        "Balance - December 31, 2025 1,234 350 94 1,678",
        "(1) Changes in exchange rates.",
    ])
    lines = titled_rows(text).split("\n")
    assert "Inland Region | Coastal | Online | Total" in lines
    assert ("Balance - December 31, 2025 | Inland Region: 1,234 | Coastal: 350 | Online: 94 | "
            "Total: 1,678") in lines
    assert "Currency effects (1) | Inland Region: (6) | Coastal: (2) | Online: (1) | Total: (9)" \
        in lines
    # a header whose cut the page does not name is left as written
    unnamed = text.replace("our Inland Region segment", "our segments")
    assert titled_rows(unnamed) == unnamed


def test_a_column_of_words_no_row_fills_ends_the_title_before_it() -> None:
    text = "\n".join(["Number of Awards(in thousands) Average Fair Value Per Award",
                      "Balance as of March 31, 2025 4,120 $31.40",
                      "Granted 1,050 $36.10",
                      "Balance as of March 31, 2026 4,730 $33.05"])
    lines = titled_rows(text).split("\n")
    assert lines[0] == "Number of Awards(in thousands) | Average Fair Value Per Award"
    assert ("Balance as of March 31, 2026 | Number of Awards(in thousands): 4,730 | Average Fair "
            "Value Per Award: $33.05") in lines
