"""A sentence a page break cuts is read on into the next page, as a reader reads it: one chunk
holds it whole, cited at the page it starts on; running heads, footers and page numbers between
the halves never enter it; tables, headings, finished sentences and pageless sections are left
as they are. Invented documents only."""

from __future__ import annotations

from manda.ingest.chunking import chunk_document
from manda.ingest.pagebreaks import MOST_CARRIED, read_on
from manda.models import Chunk, Location, ParsedDocument, Section

PROSE = "Harbor Foods sells chilled meals to grocers across the region and runs four kitchens."


def page(number: int, text: str, *, head: str = "Harbor Foods Annual Report 2023") -> Section:
    return Section(text=f"{head}\n{text}", location=Location.for_page(number))


def doc(*sections: Section) -> ParsedDocument:
    return ParsedDocument(filename="Harbor_Annual_Report.pdf", file_type="pdf",
                          sections=list(sections), units=len(sections), title="Harbor report")


def chunk_at(chunks: list[Chunk], number: int) -> str:
    return "\n".join(c.text for c in chunks if c.location.page == number)


def test_the_cut_sentence_is_one_chunk_at_the_page_it_starts_on_without_what_stands_between(
) -> None:
    parsed = doc(
        page(1, f"{PROSE}\n13"),
        page(2, f"{PROSE}\nThe regulator proposed a larger penalty. We settled the total fee\n"
                "at $4.2\n14"),
        page(3, "million ($80,000 as a penalty and $4.1 million for a hygiene programme), which "
                "the court approved in May 2023. Kitchens reopened in June.\n15"),
        page(4, f"{PROSE}\n16"),
    )

    chunks = chunk_document(parsed, deal_id="d", document_id="doc")

    second = chunk_at(chunks, 2)
    assert ("We settled the total fee\nat $4.2 million ($80,000 as a penalty and $4.1 million for "
            "a hygiene programme), which the court approved in May 2023.") in second
    assert "14 million" not in second and "Kitchens reopened" not in second
    assert second.count("Harbor Foods Annual Report 2023") <= 1  # its own head, not the next's
    # the next page keeps its own text
    assert chunk_at(chunks, 3).split("\n", 1)[1].startswith("Harbor Foods Annual Report 2023\n"
                                                           "million ($80,000")


def test_a_page_number_glued_to_the_last_word_stays_out_of_the_sentence() -> None:
    parsed = doc(
        page(1, f"{PROSE} Its chairman retired.21"),
        page(2, f"{PROSE} In total the group paid $3.822"),
        page(3, "million for the Dunmore site, including fees. Building starts next year.23"),
    )

    [_, second, _] = read_on(parsed.sections)

    assert second.text.endswith("In total the group paid $3.8 million for the Dunmore site, "
                                "including fees.")


def test_a_word_the_break_hyphenated_is_one_word_again() -> None:
    parsed = doc(
        page(1, f"{PROSE}\nThe loan of $12 million is included in other long-\n7"),
        page(2, "term liabilities. Repayment starts in 2026.\n8"),
        page(3, f"{PROSE}\n9"),
    )

    first = read_on(parsed.sections)[0].text

    assert "included in other long-term liabilities.\n7" in first


def test_a_figure_that_opens_the_next_page_goes_on_a_sentence_left_on_a_lowercase_word(
) -> None:
    parsed = doc(
        page(1, f"{PROSE}\nStore impairments for the year came to approximately"),
        page(2, "$1.3 billion, mostly leases. Other charges were small."),
        page(3, PROSE),
    )

    first = read_on(parsed.sections)[0].text

    assert first.endswith("came to approximately $1.3 billion, mostly leases.")


def test_finished_sentences_tables_headings_and_long_runs_are_left_alone() -> None:
    long_run = "and " + "more words follow here " * (MOST_CARRIED // 20) + "until it ends."
    sections = [
        page(1, f"{PROSE}\nThe board met twice."),  # a finished sentence
        page(2, "revenue rose in the north.\nNet sales | 2023: 4,210 | 2022: 3,980"),  # a table row
        page(3, "growth came from new stores.\nOperating costs 1,204 1,180"),  # a row, no gaps
        page(4, "margin was steady. The outlook covers"),  # the next opens with a heading
        page(5, f"Outlook\n{PROSE} We expect that"),  # the sentence runs on too long
        page(6, long_run),
    ]

    assert [s.text for s in read_on(sections)] == [s.text for s in sections]


def test_only_consecutive_pages_are_read_on_never_sections_without_pages() -> None:
    docx = [Section(text="The fee agreed was", location=Location.for_section("Fees")),
            Section(text="paid in two parts. The rest was waived.",
                    location=Location.for_section("Payment"))]
    apart = [page(2, f"{PROSE} The fee agreed was"), page(5, "paid in two parts. Done.")]

    assert [s.text for s in read_on(docx)] == [s.text for s in docx]
    assert [s.text for s in read_on(apart)] == [s.text for s in apart]


def test_a_running_head_of_the_section_at_the_next_page_top_stays_out() -> None:
    # the outlook's head tops three pages of twelve: too few for the whole document's heads
    sections = [page(n, f"{PROSE} Cold-chain costs in {n} regions, and costs rose in",
                     head="OUTLOOK Index to Contents") for n in range(1, 3)]
    sections += [page(3, "the north because of fuel. The rest held.",
                      head="OUTLOOK Index to Contents")]
    sections += [page(n, f"{PROSE}", head=f"Note {n}") for n in range(4, 13)]

    second = read_on(sections)[1].text

    assert second.endswith("and costs rose in the north because of fuel.")


def test_a_heading_at_the_page_end_and_a_word_the_text_layer_left_alone_are_no_sentence(
) -> None:
    heading_last = [page(1, f"{PROSE}\nMarket Conditions"), page(2, "indirectly, sales fell.")]
    # "For" alone atop the next page opens a new sentence: no head to read past
    word_first = [page(1, f"{PROSE} Costs were driven by"), page(2, "For\nadditional detail see "
                                                                    "the notes.")]

    assert [s.text for s in read_on(heading_last)] == [s.text for s in heading_last]
    assert [s.text for s in read_on(word_first)] == [s.text for s in word_first]
