"""Statements a PDF prints as flowing text are put back in rows; cut and glued words are mended.

Every table and sentence here is invented (a logistics company, a toll-road operator, a grocer):
other labels, other units, years ascending and descending, change columns, em dashes,
parentheses, labels cut mid-word.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from fixtures.text_pdfs import write_text_pdf

from manda.app import Manda
from manda.config import Settings
from manda.finance.figures import read_figure, statement_scale
from manda.ingest.parsers.base import ParseLimits
from manda.ingest.parsers.flowed import flowed_pages, flowed_rows
from manda.ingest.parsers.pdf import parse_pdf
from manda.ingest.parsers.textruns import cuts_words, document_words, mend_words

# A statement of operations, years descending, in thousands; each label ends its line and its
# figures start the next one, followed by the next label.
OPERATIONS = """CORVANE LOGISTICS, INC.
The following table summarizes our results of operations:Fiscal Year Ended June 30,
2024
2023 2022 (in thousands)
Freight revenue
$ 1,204,551 $ 998,120 $ 870,004 Operating costs
Linehaul and fuel
612,300 540,118 498,771 Terminal operations
201,442 188,903 — Total operating costs
813,742 729,021 498,771 Operating income (loss)
390,809 269,099 (12,115) Net income (loss)
$ 301,220 $ 198,005 $ (40,310) The accompanying notes are an integral part of these statements."""

# A balance sheet, dates ascending, with a label cut mid-word and one glued to the next.
BALANCE = """CORVANE LOGISTICS, INC.
(In millions, except share amounts which are reflected in thousands)As of March 31, 2023
As of March 31, 2024 Assets
Cash and cash equivalents
$ 410 $ 385 Trade receivables
1,020 — Long-term borrowings, net of cur
rent portion2,240 2,105 Deferred charges
(15) (22) Total liabilities and equityCommon stock
— — The accompanying notes are an integral part of these statements."""

# A segment table with a change column after the two periods (older year first).
SEGMENTS = """Segment Revenue
Year Ended December 31,
2022 to 2023 % Change
(Dollars in millions)2022 2023 Tolls
$ 312 $ 355 14 % Parking
120 98 (18) % Total
$ 432 $ 453 5 % Tolls grew on higher traffic."""

# The first row's label names a year of its own.
INTEREST = """Year Ended September 30,
2024
2023 2022 Coupon interest on the 2029 Debentures
$ 8,100 $ 7,950 $ — Amortization of issuance costs
1,200 1,150 — Interest expense
$ 9,300 $ 9,100 $ — Interest rose on the new debentures."""

# A label wrapped before a name the document writes as one, and a note reference after the table.
ATTRIBUTABLE = """Year Ended December 31,
(In millions)
2022 2023 Net income attributable to Corvane
Holdings, Inc.$ (1,200) $ (900) Depreciation
310 295 Adjusted EBITDA
$ 410 $ 520 For more, refer to Note 4 – Leases in the notes."""

# A key-metrics table of counts by quarter that ends its page: the page's number is printed
# right after its last row's figures.
MEMBERS = """Paying Members
2023
2022 2022 to 2023 %
Change
(in thousands)
Three Months Ended March 31
4,210 3,905 7.8% Three Months Ended June 30
4,388 3,950 11.1% Three Months Ended September 30
4,502 4,020 12.0% Three Months Ended December 31
4,655 4,101 13.5% 41"""

LAID_OUT = """ACME GROCERS
(in millions)
Year Ended December 31,
2023 2024 2025
Net sales $1,000 $1,100 $1,250
Cost of sales 600 640 700
Gross profit 400 460 550
See Note 6 — Debt and Note 7 — Leases for more."""


def _row(text: str, label: str) -> str:
    return next(line for line in text.split("\n") if line.startswith(label + " |"))


def test_a_flowed_statement_is_written_as_rows_under_its_years() -> None:
    rows = flowed_rows(OPERATIONS)
    assert _row(rows, "Freight revenue") == (
        "Freight revenue | 2024: $1,204,551 | 2023: $998,120 | 2022: $870,004")
    assert _row(rows, "Terminal operations") == (
        "Terminal operations | 2024: 201,442 | 2023: 188,903 | 2022: —")
    assert _row(rows, "Net income (loss)") == (
        "Net income (loss) | 2024: $301,220 | 2023: $198,005 | 2022: $(40,310)")
    lines = rows.split("\n")
    header = lines.index("2024 | 2023 | 2022")
    assert lines[header - 2] == "(in thousands)"  # the caption right above the table
    assert "Operating costs" in lines  # a sub-heading with no figures stands as a line
    assert lines[-1] == "The accompanying notes are an integral part of these statements."


def test_a_flowed_balance_sheet_keeps_ascending_dates_and_reads_its_scale() -> None:
    words = Counter({"current": 5, "cur": 0, "rent": 0, "equity": 4, "common": 3,
                     "borrowings": 3, "portion": 3})
    rows = flowed_rows(mend_words(BALANCE, words))
    assert _row(rows, "Long-term borrowings, net of current portion") == (
        "Long-term borrowings, net of current portion | March 31, 2023: 2,240 | "
        "March 31, 2024: 2,105")
    assert _row(rows, "Trade receivables") == (
        "Trade receivables | March 31, 2023: 1,020 | March 31, 2024: —")
    assert _row(rows, "Common stock") == "Common stock | March 31, 2023: — | March 31, 2024: —"
    assert "Total liabilities and equity" in rows.split("\n")  # parted from "Common stock"
    lines = rows.split("\n")
    above = lines[: lines.index(_row(rows, "Cash and cash equivalents"))]
    scale = statement_scale([line for line in above if "|" not in line])
    cell = _row(rows, "Deferred charges").split(" | ")[1].split(": ")[1]
    figure = read_figure(cell, "March 31, 2023", "Deferred charges", scale)
    assert figure is not None and figure.value == -15e6  # millions, parentheses negative
    dash = read_figure("—", "March 31, 2024", "Trade receivables", scale)
    assert dash is not None and dash.none  # an em dash is none, not zero


def test_a_change_column_is_named_a_change_not_a_period() -> None:
    rows = flowed_rows(SEGMENTS)
    assert "2022 | 2023 | % change" in rows.split("\n")
    assert _row(rows, "Parking") == "Parking | 2022: 120 | 2023: 98 | % change: (18)%"
    assert _row(rows, "Total") == "Total | 2022: $432 | 2023: $453 | % change: 5%"


def test_a_page_number_after_the_last_row_is_no_cell_of_it() -> None:
    rows = flowed_rows(MEMBERS)
    assert _row(rows, "Three Months Ended December 31") == (
        "Three Months Ended December 31 | 2023: 4,655 | 2022: 4,101 | % change: 13.5%")
    assert _row(rows, "Three Months Ended March 31") == (
        "Three Months Ended March 31 | 2023: 4,210 | 2022: 3,905 | % change: 7.8%")
    assert "(in thousands)" in rows.split("\n")


def test_a_year_in_a_label_is_not_a_column() -> None:
    rows = flowed_rows(INTEREST)
    assert _row(rows, "Coupon interest on the 2029 Debentures") == (
        "Coupon interest on the 2029 Debentures | 2024: $8,100 | 2023: $7,950 | 2022: —")
    assert _row(rows, "Interest expense") == (
        "Interest expense | 2024: $9,300 | 2023: $9,100 | 2022: —")


def test_a_label_wrapped_before_a_name_stays_one_label_and_an_en_dash_is_prose() -> None:
    pairs = Counter({("corvane", "holdings,"): 4})
    rows = flowed_rows(ATTRIBUTABLE, pairs)
    assert _row(rows, "Net income attributable to Corvane Holdings, Inc.") == (
        "Net income attributable to Corvane Holdings, Inc. | 2022: $(1,200) | 2023: $(900)")
    assert _row(rows, "Adjusted EBITDA") == "Adjusted EBITDA | 2022: $410 | 2023: $520"
    assert "Note 4 – Leases" in rows
    # without the document's word pairs, a line that starts with a capital starts a label
    assert "Holdings, Inc. | 2022: $(1,200)" in flowed_rows(ATTRIBUTABLE)


def test_a_laid_out_statement_and_prose_dashes_are_left_as_they_are() -> None:
    assert flowed_rows(LAID_OUT) == LAID_OUT
    assert flowed_pages([LAID_OUT, LAID_OUT]) == [LAID_OUT, LAID_OUT]


def test_cut_and_glued_words_are_mended_from_the_documents_own_words() -> None:
    words = Counter({"intangible": 6, "assets": 9, "of": 300, "the": 500, "with": 80,
                     "in": 400, "within": 20, "net": 30, "income": 25, "equity": 5,
                     "accounts": 5, "receivables": 4, "summarizes": 2})
    assert mend_words("The table summar\nizes the", words) == "The table summarizes\nthe"
    assert mend_words("amortization of int angible assets", words) == (
        "amortization of intangible assets")
    assert mend_words("the results ofthe prior period", words) == (
        "the results of the prior period")
    assert mend_words("Total equityAccounts payable", words) == "Total equity\nAccounts payable"
    assert mend_words("Trade receivables1,020 980", words) == "Trade receivables 1,020 980"
    # two words that stand on their own are not joined, even where their join is a word
    assert mend_words("grew with\nin the year", words) == "grew with\nin the year"
    assert mend_words("reported net\nincome", words) == "reported net\nincome"


def _flowed_document() -> list[str]:
    prose = ("Our current portion of borrowings and our intangible assets are described in the "
             "notes. We summarizes nothing here but the current and the equivalents of cash "
             "and the receivables of the company and its equity and its current assets.")
    page = OPERATIONS.replace("summarizes", "summar\nizes").replace(
        "Terminal operations", "Terminal oper\nations")
    return [prose, *([page] * 6), BALANCE, SEGMENTS, prose]


def test_a_document_that_flows_its_tables_is_mended_and_a_laid_out_one_is_not() -> None:
    pages = _flowed_document()
    assert cuts_words(pages, document_words(pages))
    read = flowed_pages(pages)
    assert "The following table summarizes" in read[1]
    assert _row(read[1], "Terminal operations").endswith("2022: —")
    assert not cuts_words([LAID_OUT] * 20, document_words([LAID_OUT] * 20))


def _write_pdf(path: Path, pages: list[str]) -> Path:
    return write_text_pdf(path, pages)


def test_a_flowed_pdf_reads_as_rows(tmp_path: Path) -> None:
    path = _write_pdf(tmp_path / "corvane.pdf", _flowed_document())
    doc = parse_pdf(path, "corvane.pdf", ParseLimits())
    text = doc.sections[1].text
    assert "Linehaul and fuel | 2024: 612,300 | 2023: 540,118 | 2022: 498,771" in text


async def test_a_question_on_a_flowed_statement_is_answered_from_its_row(tmp_path: Path) -> None:
    room = tmp_path / "room"
    room.mkdir()
    _write_pdf(room / "Corvane annual report.pdf", _flowed_document())
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("deal", [room])
        answer = (await app.answers.ask("deal", "What was Corvane's freight revenue in fiscal "
                                                "2023?")).answer
    assert "998" in answer.split("\n")[0]


def test_a_word_glued_after_a_capitalised_or_a_one_letter_word_is_parted() -> None:
    # invented: a ferry operator's notes; "Firm", "a" and the words after them stand elsewhere
    words = Counter({"firm": 40, "chartered": 6, "leased": 7, "a": 900, "provisional": 8,
                     "the": 500, "nonvoting": 0, "non": 30, "voting": 12, "more": 60,
                     "over": 70, "away": 0, "way": 50})
    pairs = Counter({("firm", "chartered"): 2, ("firm", "leased"): 1, ("the", "firm"): 30})
    letters = Counter({"a": 900})
    assert mend_words("On May 3 the Firmchartered two vessels", words, pairs, letters) == (
        "On May 3 the Firm chartered two vessels")
    assert mend_words("the regulator issued aprovisional levy of $4 million", words, pairs,
                      letters) == "the regulator issued a provisional levy of $4 million"
    # words the document never writes apart stay whole, and so do short ones after a letter
    assert mend_words("Moreover, the Nonvoting shares", words, pairs, letters) == (
        "Moreover, the Nonvoting shares")
    assert mend_words("the ships sailed away", words, pairs, letters) == "the ships sailed away"
    # a glued form the document also writes mid-line is a word: left whole
    words["firmleased"] = 1
    assert mend_words("the Firmleased a berth", words, pairs, letters) == "the Firmleased a berth"
    # without the document's pairs and letters, nothing new is parted
    assert mend_words("the Firmchartered aprovisional", words) == (
        "the Firmchartered aprovisional")


def test_a_word_that_stands_in_the_document_or_ends_in_an_ending_is_not_parted() -> None:
    # invented: "another" stands mid-line in the document; "ly" stands only as cut words' ends
    words = Counter({"an": 300, "other": 500, "another": 12, "common": 40, "ly": 9,
                     "commonly": 0, "cost": 50, "related": 70, "of": 900, "the": 1200})
    pairs = Counter({("of", "the"): 40})
    letters = Counter({"a": 200})
    assert mend_words("a mile to another quay", words, pairs, letters) == (
        "a mile to another quay")
    assert mend_words("an event commonly called", words, pairs, letters) == (
        "an event commonly called")
    assert mend_words("the costrelated to ofthe vessel", words, pairs, letters) == (
        "the cost related to of the vessel")
