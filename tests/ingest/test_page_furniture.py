"""A lower-case word a font change glued to a capitalised one is parted
(`manda.ingest.parsers.textruns.parted_words`), and two tables a page sets side by side are read
one after the other (`manda.ingest.parsers.sidebyside`). The pages are invented, no filing's."""

from __future__ import annotations

from pathlib import Path

from fixtures.text_pdfs import write_text_pdf

from manda.ingest.parsers.base import ParseLimits
from manda.ingest.parsers.flowed import flowed_pages, word_pairs
from manda.ingest.parsers.pdf import parse_pdf
from manda.ingest.parsers.sidebyside import side_by_side
from manda.ingest.parsers.textruns import document_words, parted_words


def test_a_word_glued_to_a_capitalised_one_is_parted_and_names_stay_whole() -> None:
    pages = [
        "Stores as ofJanuary 31, 2025 Stores Retail Square Feet",
        "Stores as ofJanuary 31, 2025 Stores Retail Square Feet",
        "We opened stores as of January 31 and closed some as of March 1 this year.",
        "Payments as of January reached the level of March and of April again.",
        "Buyers pay with PayPal at the till and pay by card or pay by PayPal online.",
        "The pal of the buyer pays and we take PayPal there too, like most shops.",
    ]
    words = document_words(pages)
    pairs = word_pairs(pages)
    out = [parted_words(page, words, pairs) for page in pages]
    assert out[0] == "Stores as of January 31, 2025 Stores Retail Square Feet"
    assert out[4] == pages[4]
    assert out[5] == pages[5]


def test_parted_words_needs_both_words_to_stand_in_the_document() -> None:
    pages = ["The fleet ran onSchedule all year long across the depots we run."] * 3
    words = document_words(pages)
    assert parted_words(pages[0], words, word_pairs(pages)) == pages[0]


def test_a_pdf_whose_lines_cut_no_words_has_its_glued_words_parted() -> None:
    pages = [
        "Stores as ofJanuary 31, 2025 Stores Retail Square Feet",
        "Stores as ofJanuary 31, 2025 Stores Retail Square Feet",
        "We opened stores as of January 31 and closed some as of March 1 this year.",
        "Payments as of January reached the level of March and of April again.",
    ]
    assert flowed_pages(pages)[0] == "Stores as of January 31, 2025 Stores Retail Square Feet"


SIDE_BY_SIDE = "\n".join([
    "Item 2. Depots",
    "Region Depots Floor Area(in thousands) Region Depots Floor Area(in thousands)",
    "Alder Vale 12 1,410 Moss Bank 4 388",
    "Brook End 7 902 North Fell 19 2,215",
    "Cinder Hill 3 260 Old Quay 8 1,037",
    "Dune Reach 5 611",
    "Total 58 6,823",
])


def test_two_tables_set_side_by_side_are_read_one_after_the_other() -> None:
    lines = side_by_side(SIDE_BY_SIDE).splitlines()
    assert lines[1] == "Region Depots Floor Area(in thousands)"
    assert lines[2:8] == ["Alder Vale 12 1,410", "Brook End 7 902", "Cinder Hill 3 260",
                          "Moss Bank 4 388", "North Fell 19 2,215", "Old Quay 8 1,037"]
    assert lines[8:] == ["Dune Reach 5 611", "Total 58 6,823"]


def test_rows_of_two_records_without_a_twice_said_header_stay_as_they_are() -> None:
    text = "\n".join(["Region Depots Floor Area", *SIDE_BY_SIDE.splitlines()[2:5]])
    assert side_by_side(text) == text


def test_a_parsed_pdf_stores_each_side_by_side_record_on_its_own_line(tmp_path: Path) -> None:
    path = write_text_pdf(tmp_path / "depots.pdf", [SIDE_BY_SIDE])
    text = parse_pdf(path, "depots.pdf", ParseLimits()).sections[0].text
    assert "North Fell 19 2,215" in text.splitlines()
