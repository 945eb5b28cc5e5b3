"""Tables keep their meaning: scale from any caption, periods either way, the fiscal year, headers.

The tables are written here in US, German and UK styles (none comes from the sample room), and
each scale notation has its own case: nothing may read a thousands table as units.
"""

from __future__ import annotations

import pytest

from manda.finance.amounts import currency_from_text, scale_from_text
from manda.ingest.chunking import chunk_document
from manda.ingest.extract.offline import OfflineExtractor
from manda.ingest.parsers.base import table_text
from manda.models import Document, Finding, Location, ParsedDocument, Section


def _extract(parsed: ParsedDocument, filename: str = "Doc_004.pdf",
             fiscal_year_end: str | None = None) -> list[Finding]:
    document = Document(id="d1", deal_id="x", filename=filename, content_hash="h",
                        file_type=parsed.file_type, size_bytes=1, version_family="f",
                        fiscal_year_end=fiscal_year_end)
    chunks = chunk_document(parsed, deal_id="x", document_id="d1")
    return OfflineExtractor().extract(document, parsed, chunks)


def _values(findings: list[Finding], subject: str) -> dict[str | None, float | None]:
    return {f.period: f.value for f in findings if f.subject == subject}


def _sheet(rows: list[list[str]], notes: list[str]) -> ParsedDocument:
    """A table as the spreadsheet parser hands it over: notes above, the header, the rows."""
    section = Section(text=table_text(rows, notes), location=Location.for_cell("Data", "A1:C6"),
                      table=rows)
    return ParsedDocument(filename="x", file_type="xlsx", sections=[section], units=1)


def _pdf_page(text: str) -> ParsedDocument:
    return ParsedDocument(filename="x", file_type="pdf",
                          sections=[Section(text=text, location=Location.for_page(3))], units=1)


def _docx(caption: str, rows: list[list[str]]) -> ParsedDocument:
    """A Word table follows its caption paragraph as a section of its own."""
    return ParsedDocument(filename="x", file_type="docx", units=2, sections=[
        Section(text=f"Financial information\n{caption}",
                location=Location.for_section("Financial information")),
        Section(text=table_text(rows), location=Location.for_section(
            "Financial information (table 1)"), table=rows),
    ])


# (notation, scale, currency, a revenue cell as that style writes it, its value in units)
NOTATIONS = [
    ("(in thousands of U.S. dollars)", 1e3, "USD", "46,700", 46_700_000),
    ("USD 000s", 1e3, "USD", "46,700", 46_700_000),
    ("$000", 1e3, "USD", "46,700", 46_700_000),
    ("$ in thousands", 1e3, "USD", "46,700", 46_700_000),
    ("(in millions of U.S. dollars)", 1e6, "USD", "46.7", 46_700_000),
    ("$mm", 1e6, "USD", "46.7", 46_700_000),
    ("€m", 1e6, "EUR", "46.7", 46_700_000),
    ("in € thousands", 1e3, "EUR", "46,700", 46_700_000),
    ("EUR '000", 1e3, "EUR", "46,700", 46_700_000),
    ("kEUR", 1e3, "EUR", "46,700", 46_700_000),
    ("£000", 1e3, "GBP", "46,700", 46_700_000),
    ("£'000", 1e3, "GBP", "46,700", 46_700_000),
    ("GBP 000s", 1e3, "GBP", "46,700", 46_700_000),
    ("£m", 1e6, "GBP", "46.7", 46_700_000),
    ("TEUR", 1e3, "EUR", "46.700", 46_700_000),
    ("T€", 1e3, "EUR", "46.700", 46_700_000),
    ("Mio. €", 1e6, "EUR", "46,7", 46_700_000),
    ("in Tausend EUR", 1e3, "EUR", "46.700", 46_700_000),
    ("Angaben in Millionen Euro", 1e6, "EUR", "46,7", 46_700_000),
]
IDS = [n for n, *_ in NOTATIONS]


@pytest.mark.parametrize(("notation", "scale", "currency", "cell", "units"), NOTATIONS, ids=IDS)
def test_the_notation_names_its_scale_and_currency(notation: str, scale: float, currency: str,
                                                   cell: str, units: float) -> None:
    assert scale_from_text(notation) == scale
    assert currency_from_text(notation) == currency


@pytest.mark.parametrize(("notation", "scale", "currency", "cell", "units"), NOTATIONS, ids=IDS)
def test_a_sheet_under_a_unit_note_is_read_in_that_unit(notation: str, scale: float,
                                                        currency: str, cell: str,
                                                        units: float) -> None:
    parsed = _sheet([["", "FY2024", "FY2023"], ["Revenue", cell, "1"], ["EBITDA", "2", "1"]],
                    notes=["Harbour Holdings — income statement", notation])
    found = [f for f in _extract(parsed) if f.subject == "revenue" and f.period == "FY2024"]
    assert [(f.value, f.unit) for f in found] == [(pytest.approx(units), currency)]


@pytest.mark.parametrize(("notation", "scale", "currency", "cell", "units"), NOTATIONS, ids=IDS)
def test_a_pdf_table_under_a_caption_line_is_read_in_that_unit(notation: str, scale: float,
                                                               currency: str, cell: str,
                                                               units: float) -> None:
    page = (f"Results of operations\nThe table below shows the results for the year.\n\n"
            f"Consolidated statement of income\n{notation}\n"
            f"Year | FY2024 | FY2023\nRevenue | {cell} | 1\nNet income | 3 | 2\n\n"
            "Revenue grew on higher volumes.")
    found = [f for f in _extract(_pdf_page(page)) if f.subject == "revenue"
             and f.period == "FY2024"]
    assert [(f.value, f.unit) for f in found] == [(pytest.approx(units), currency)]


@pytest.mark.parametrize(("notation", "scale", "currency", "cell", "units"), NOTATIONS, ids=IDS)
def test_a_word_table_after_its_caption_is_read_in_that_unit(notation: str, scale: float,
                                                             currency: str, cell: str,
                                                             units: float) -> None:
    parsed = _docx(f"Key figures ({notation})", [["", "2024", "2023"], ["Revenue", cell, "1"]])
    found = [f for f in _extract(parsed, "Doc_004.docx") if f.subject == "revenue"
             and f.period == "FY2024"]
    assert [(f.value, f.unit) for f in found] == [(pytest.approx(units), currency)]


@pytest.mark.parametrize(("header", "units"), [("FY24 $000", 46_700_000), ("2024 £m", 46_700),
                                               ("Ist 2024 TEUR", 46_700_000)])
def test_a_scale_in_the_column_header_applies_to_that_column(header: str, units: float) -> None:
    parsed = _sheet([["", header], ["Revenue", "46,700" if "m" not in header else "0.0467"]],
                    notes=["Key figures"])
    assert _values(_extract(parsed), "revenue") == {"FY2024": pytest.approx(units)}


def test_a_caption_sentence_stating_an_amount_is_not_a_unit_line() -> None:
    page = ("Revenue reached $46.7 million in the year.\n"
            "Year | FY2024 | FY2023\nHeadcount | 120 | 110\n")
    assert _values(_extract(_pdf_page(page)), "headcount")["as of 2024-12-31"] == 120.0


def test_every_table_finding_carries_its_row_and_column_headers() -> None:
    parsed = _sheet([["£000", "Jan-24", "Feb-24", "Total"],
                     ["Turnover", "1,210", "1,180", "2,390"],
                     ["Total overheads", "(400)", "(410)", "(810)"]],
                    notes=["Monthly management accounts"])
    found = {f.period: f for f in _extract(parsed) if f.subject == "revenue"}
    assert set(found) == {"Jan 2024", "Feb 2024"}
    january = found["Jan 2024"]
    assert january.value == pytest.approx(1_210_000) and january.unit == "GBP"
    assert january.attributes["row"] == "Turnover" and january.attributes["column"] == "Jan-24"
    assert "Jan-24: 1,210" in january.excerpt and "Turnover" in january.excerpt


def test_months_down_the_rows_are_periods() -> None:
    parsed = _sheet([["Month", "Revenue ($000)", "EBITDA ($000)"],
                     ["Dec-23", "3,900", "610"], ["Jan-24", "3,650", "540"],
                     ["Jun-24", "4,100", "700"]], notes=["Acme Widgets, Inc. — monthly KPIs"])
    assert _values(_extract(parsed), "revenue") == {
        "Dec 2023": pytest.approx(3_900_000), "Jan 2024": pytest.approx(3_650_000),
        "Jun 2024": pytest.approx(4_100_000)}


def test_german_thousands_with_dots_are_not_decimals() -> None:
    parsed = _sheet([["TEUR", "GJ 2023/24", "GJ 2022/23"],
                     ["Umsatzerlöse", "38.410", "35.220"], ["EBITDA", "4.105", "3.870"]],
                    notes=["Müller Maschinenbau GmbH — Gewinn- und Verlustrechnung"])
    assert _values(_extract(parsed), "revenue") == {"FY2024": pytest.approx(38_410_000),
                                                    "FY2023": pytest.approx(35_220_000)}


def test_a_census_row_keeps_pay_and_every_column_with_the_person() -> None:
    parsed = _sheet([["Employee ID", "Name", "Job title", "Department", "Base salary (USD)"],
                     ["1001", "Maria Lopez", "Controller", "Finance", "98,000"],
                     ["1002", "James Carter", "Sales Manager", "Sales", "87,500"]],
                    notes=["Employee census as at 30 June 2024"])
    people = {f.entity: f for f in _extract(parsed) if f.subject.startswith("person:")}
    maria = people["Maria Lopez"]
    assert maria.attributes["role"] == "Controller"
    assert (maria.attributes["pay"], maria.attributes["pay_column"]) == ("98,000",
                                                                       "Base salary (USD)")
    assert maria.attributes["department"] == "Finance"
    assert "Base salary (USD): 98,000" in maria.excerpt


def test_a_contract_value_column_in_thousands_is_scaled() -> None:
    parsed = _sheet([["Counterparty", "Contract", "Expiry", "Annual value (£000)"],
                     ["Tesco Stores Ltd", "Supply agreement", "31 March 2027", "2,350"]],
                    notes=["Key customer contracts"])
    [contract] = [f for f in _extract(parsed) if f.subject.startswith("contract:")]
    assert (contract.value, contract.unit) == (pytest.approx(2_350_000), "GBP")


@pytest.mark.parametrize("statement", [
    "All amounts are in USD thousands unless otherwise stated.",
    "Figures in £000 unless otherwise indicated.",
    "Alle Angaben in TEUR.",
])
def test_a_document_wide_unit_statement_scales_tables_without_their_own(statement: str) -> None:
    parsed = ParsedDocument(filename="x", file_type="pdf", units=2, sections=[
        Section(text=f"Harbour Holdings — annual review\n{statement}",
                location=Location.for_page(1)),
        Section(text="Five-year summary\nYear | FY2024 | FY2023\nRevenue | 46,700 | 41,200",
                location=Location.for_page(7)),
    ])
    assert _values(_extract(parsed), "revenue")["FY2024"] == pytest.approx(46_700_000)


def test_a_sentence_with_figures_is_not_a_unit_statement() -> None:
    parsed = ParsedDocument(filename="x", file_type="pdf", units=2, sections=[
        Section(text="Revenue figures in 2023 grew to EUR 18.4 million.",
                location=Location.for_page(1)),
        Section(text="Key figures\nYear | FY2024 | FY2023\nRevenue | €46.7M | €41.2M",
                location=Location.for_page(2)),
    ])
    assert _values(_extract(parsed), "revenue")["FY2024"] == pytest.approx(46_700_000)


def test_quarters_down_the_rows_of_a_march_year_end_company() -> None:
    parsed = _sheet([["Quarter", "Turnover (£000)", "EBITDA (£000)"],
                     ["Apr–Jun 2024", "3,400", "410"], ["Jul–Sep 2024", "3,550", "440"]],
                    notes=["Harbour Foods Ltd — quarterly trading", "Financial year to 31 March"])
    assert _values(_extract(parsed), "revenue") == {"Q1 2025": pytest.approx(3_400_000),
                                                    "Q2 2025": pytest.approx(3_550_000)}


def test_periods_down_the_rows_beside_a_months_column() -> None:
    parsed = _sheet([["Quarter", "Months", "Revenue", "EBITDA"],
                     ["Q1 FY25", "Apr–Jun 2024", "3,730", "700"],
                     ["Q2 FY25", "Jul–Sep 2024", "3,720", "720"]],
                    notes=["Quarterly trading", "£000 · financial year to 31 March"])
    assert _values(_extract(parsed), "revenue") == {"Q1 2025": pytest.approx(3_730_000),
                                                    "Q2 2025": pytest.approx(3_720_000)}
