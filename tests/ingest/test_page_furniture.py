"""A printed page's number and running footer are never a figure of the page, and a sentence a
page break cuts is read whole on the page it starts on (`manda.ingest.parsers.folios`); a
lower-case word a font change glued to a capitalised one is parted
(`manda.ingest.parsers.textruns.parted_words`). The report is invented, no filing's."""

from __future__ import annotations

from pathlib import Path

from fixtures.text_pdfs import write_text_pdf

from manda.ingest.chunking import chunk_document, shown_text
from manda.ingest.parsers.base import ParseLimits
from manda.ingest.parsers.flowed import flowed_pages, word_pairs
from manda.ingest.parsers.folios import folio_offsets, page_breaks_mended, without_folios
from manda.ingest.parsers.pdf import parse_pdf
from manda.ingest.parsers.sidebyside import side_by_side
from manda.ingest.parsers.textruns import document_words, parted_words

FOOTER = "NORTHWIND LOGISTICS 2024 Annual Report"


def _prose(n: int) -> list[str]:
    return [f"Paragraph {n} of the discussion reads on about the fleet and the depots we run."
            for _ in range(3)]


def _report() -> list[str]:
    """Six pages printed 1-6 at the foot of each; page 3's last sentence runs onto page 4 and
    the text layer glued page 3's number to its last figure ("$4.25" + "3")."""
    pages = []
    for number in range(1, 7):
        lines = ["Management's Discussion", *_prose(number)]
        if number == 3:
            lines.append("The regulator fined us and we agreed the total settlement at $4.25" + "3")
        else:
            lines.append(f"{FOOTER} {number}")
        if number == 4:
            lines.insert(1, "million ($250,000 as a fine and $4 million for safety programs), "
                            "which the board approved in May 2024. Depot rents rose.")
        pages.append("\n".join(lines))
    return pages


def test_page_numbers_and_the_running_footer_are_taken_off_the_pages() -> None:
    pages = _report()
    assert folio_offsets(pages) == [0] * 6
    out = without_folios(pages)
    # the footer's words stay (they name the company), its page number does not
    assert [page.splitlines()[-1] for page in out if FOOTER in page] == [FOOTER] * 5
    assert out[2].endswith("total settlement at $4.25")  # the glued "3" was the page's number


def test_an_exhibit_numbered_from_one_again_keeps_its_own_numbering() -> None:
    report = [f"Body text of the report page {n}.\n{n}" for n in range(1, 6)]
    exhibit = [f"Section {n}. The lender may assign its rights under the agreement.\n{n}"
               for n in range(1, 5)]
    offsets = folio_offsets([*report, *exhibit])
    assert offsets == [0] * 5 + [5] * 4
    out = without_folios([*report, *exhibit])
    assert all(page.splitlines()[-1].endswith(".") for page in out)


def test_unnumbered_pages_are_left_as_they_are() -> None:
    pages = [f"Revenue grew to $12.4 billion in 2024.\nTotal assets 1,204 1,377 {n * 7}"
             for n in range(1, 6)]
    assert without_folios(pages) == pages


def test_a_sentence_cut_by_a_page_break_is_read_whole_on_the_page_it_starts_on() -> None:
    pages = page_breaks_mended(without_folios(_report()))
    assert pages[2].endswith(
        "total settlement at $4.25 million ($250,000 as a fine and $4 million for safety "
        "programs), which the board approved in May 2024.")
    # the next page keeps its running header and the rest of its text, less the carried words
    assert pages[3].splitlines()[:2] == ["Management's Discussion", "Depot rents rose."]


def test_a_page_ending_a_sentence_or_a_table_row_is_not_joined_to_the_next() -> None:
    pages = ["Revenue grew 8% in 2024.", "and this line starts in lower case.",
             "Total revenue | 2024: 1,204 | 2023: 1,377", "net of returns, as restated."]
    assert page_breaks_mended(pages) == pages


def test_a_parsed_pdf_stores_no_page_number_and_the_whole_sentence(tmp_path: Path) -> None:
    path = write_text_pdf(tmp_path / "northwind.pdf", _report())
    parsed = parse_pdf(path, "northwind.pdf", ParseLimits())
    third = parsed.sections[2].text
    assert "$4.25 million ($250,000 as a fine and $4 million for safety programs)" in " ".join(
        third.split())
    assert "$4.253" not in third
    chunks = chunk_document(parsed, deal_id="d", document_id="doc")
    # no passage holds a page's number as if it were its text
    assert not any(shown_text(c).split()[-1].isdigit() for c in chunks)


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
