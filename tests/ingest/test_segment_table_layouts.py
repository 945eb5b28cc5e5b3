"""Segment tables whose PDF text lost its column gaps, put back into rows (issue 25): a line of
years at a page's foot (its change column's title cut over the break) heads the rows at the top
of the next page; a row stating one figure a year under a header with change columns is read;
a table of parts by column, under its year's line, is cut into the names the document writes
elsewhere. The pages are invented (tests/fixtures/segment_pages.py)."""

from __future__ import annotations

from fixtures.segment_pages import GROSS, MDNA, NOTE, parsed

from manda.ingest.parsers.parts import part_columns


def test_a_line_of_years_at_a_pages_foot_heads_the_rows_on_the_next() -> None:
    _, second = parsed(MDNA)
    lines = second.splitlines()
    assert "Inland Freight | 2023: 100 | 2022: 150 | change %: (33)%" in lines
    # the header is written again under each line item's heading, as on one page
    at = lines.index("Operating Income")
    assert lines[at + 1] == "2023 | 2022 | change %"


def test_a_row_with_one_figure_a_year_leaves_the_change_columns_blank() -> None:
    lines = parsed(GROSS)[0].splitlines()
    assert "Gross profit storage segment | 2023: $1,141 | 2022: $288 | 2021: $(129)" in lines
    assert "Gross margin storage segment | 2023: 18.9% | 2022: 7.4% | 2021: (4.6)%" in lines


def test_columns_of_parts_under_their_years_line_are_cut_into_the_documents_names() -> None:
    lines = parsed(NOTE)[0].splitlines()
    at = lines.index("2025")
    assert lines[at + 1] == ("North Region | South Coast | Far East | Rest of World Markets | "
                             "Corporate | Total")
    assert lines[at + 4] == (
        "Operating income/(loss) | North Region: $400 | South Coast: $200 | Far East: $100 | "
        "Rest of World Markets: $150 | Corporate: $(50) | Total: $800")


def test_a_line_of_names_the_document_never_writes_apart_is_left_as_it_was() -> None:
    """Four figures a row, five words: "Alpha Beta" or "Beta Gamma" could each be one name,
    and the document writes neither; the table is not guessed."""
    page = "\n".join(["2025", "Alpha Beta Gamma Delta Total", "Net sales $10 $20 $30 $60",
                      "Operating income $1 $2 $3 $6"])
    assert part_columns([page]) == [page]


def test_a_sentence_over_figures_is_no_line_of_names() -> None:
    page = "\n".join(["2025", "Sales rose in every region.", "Net sales $10 $20 $30",
                      "Operating income $1 $2 $3"])
    assert part_columns([page]) == [page]
