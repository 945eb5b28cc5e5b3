"""Header rows are found in any layout: below titles and unit lines, spread over two rows."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook

from manda.app import Manda
from manda.config import Settings
from manda.ingest.chunking import chunk_document
from manda.ingest.extract.offline import OfflineExtractor
from manda.ingest.parsers import parse_file
from manda.ingest.parsers.layout import table_shape
from manda.models import Document, DocumentRole, Finding, Location, ParsedDocument, Section


def _findings(parsed: ParsedDocument) -> list[Finding]:
    document = Document(id="d1", deal_id="x", filename=parsed.filename, content_hash="h",
                        file_type=parsed.file_type, size_bytes=1, version_family="f")
    chunks = chunk_document(parsed, deal_id="x", document_id="d1")
    return OfflineExtractor().extract(document, parsed, chunks)


def test_a_csv_header_below_a_title_and_a_unit_line(tmp_path: Path) -> None:
    path = tmp_path / "export_17.csv"
    path.write_text("Acme Widgets Inc. - quarterly P&L\nUSD 000s,,,\n"
                    ",Q1 2024,Q2 2024,Q3 2024\nNet revenues,11200,11900,12650\n"
                    "Adjusted EBITDA,1800,1950,2100\n")
    parsed = parse_file(path)
    section = parsed.sections[0]
    assert section.table is not None and section.table[0] == ["", "Q1 2024", "Q2 2024", "Q3 2024"]
    assert section.text.startswith("Acme Widgets Inc. - quarterly P&L\nUSD 000s\n")
    revenue = {f.period: f.value for f in _findings(parsed) if f.subject == "revenue"}
    assert revenue == {"Q1 2024": 11_200_000, "Q2 2024": 11_900_000, "Q3 2024": 12_650_000}


def test_a_two_row_header_in_a_workbook_is_folded(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "P&L"
    ws.append(["Harbour Foods Ltd — trading summary"])
    ws.append(["£000"])
    ws.append([None, "FY24", None, "FY25", None])
    ws.append([None, "Actual", "Budget", "Actual", "Budget"])
    ws.append(["Turnover", 38_000, 37_500, 41_200, 42_000])
    ws.append(["EBITDA", 4_100, 4_000, 4_650, 4_800])
    path = tmp_path / "Book1.xlsx"
    wb.save(path)
    parsed = parse_file(path)
    table = parsed.sections[0].table
    assert table is not None
    assert table[0] == ["", "FY24 Actual", "FY24 Budget", "FY25 Actual", "FY25 Budget"]
    assert "Turnover | FY24 Actual: 38000 | FY24 Budget: 37500" in parsed.sections[0].text
    revenue = sorted((f.period, f.nature.value, f.value) for f in _findings(parsed)
                     if f.subject == "revenue")
    assert revenue == [("FY2024", "actual", 38_000_000), ("FY2024", "forecast", 37_500_000),
                       ("FY2025", "actual", 41_200_000), ("FY2025", "forecast", 42_000_000)]


@pytest.mark.parametrize(
    ("rows", "header_start", "data_start"),
    [
        ([["Shareholder", "Class", "Shares"], ["Founders", "Ordinary", "–"],
          ["Anna Berg", "Ordinary", "4,500,000"]], 0, 1),  # a row of words is data, not header
        ([["Census as at 30 June 2024", "", ""], ["Name", "Title", "Salary"],
          ["Anna Berg", "CFO", "98,000"]], 1, 2),
        ([["Ref", "Request", "Status"], ["1.1", "Audited accounts", "Open"]], 0, 1),
        ([["EUR k", "2023", "2022"], ["Income statement", "", ""], ["Revenue", "1", "2"]], 0, 1),
    ],
)
def test_where_the_header_is(rows: list[list[str]], header_start: int, data_start: int) -> None:
    shape = table_shape(rows)
    assert (shape.header_start, shape.data_start) == (header_start, data_start)


def test_every_chunk_of_a_long_text_table_carries_its_caption_and_header() -> None:
    rows = "\n".join(f"Line item {i} | FY2024: {i * 100:,} | FY2023: {i * 90:,}"
                     for i in range(1, 60))
    text = ("Results of operations are discussed below.\n\nConsolidated statement of income\n"
            f"(in thousands of U.S. dollars)\nItem | FY2024 | FY2023\n{rows}\n\nClosing words.")
    parsed = ParsedDocument(filename="10-K.pdf", file_type="pdf", units=1,
                            sections=[Section(text=text, location=Location.for_page(41))])
    chunks = chunk_document(parsed, deal_id="x", document_id="d1", max_chars=600)
    with_rows = [c for c in chunks if "Line item" in c.text]
    assert len(with_rows) >= 3 and all(len(c.text) <= 600 for c in chunks)
    for chunk in with_rows:
        assert "(in thousands of U.S. dollars)\nItem | FY2024 | FY2023" in chunk.text


async def test_a_document_ingested_before_roles_gets_its_role_when_ingested_again(
    tmp_path: Path,
) -> None:
    path = tmp_path / "Doc_5.csv"
    path.write_text("Holder,Shares,% of total\nAlan Reed,600000,60%\nKite Ventures LP,400000,40%\n")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("kite", [path])
        [doc] = await app.graph.list_documents("kite")
        assert doc.role is DocumentRole.CAP_TABLE
        await app.graph.upsert_document(doc.model_copy(update={"role": DocumentRole.OTHER}))
        report = await app.ingest.ingest("kite", [path])
        [again] = await app.graph.list_documents("kite")
    assert report.unchanged == ["Doc_5.csv"] and again.role is DocumentRole.CAP_TABLE


def _statement_pdf(path: Path, rows: list[list[str]], caption: str) -> None:
    from datetime import date

    from manda.sample._pdf import PdfMeta, para, table, write_pdf

    meta = PdfMeta(title="Statements", author="Auditor", subject="Accounts",
                   issued=date(2024, 3, 1), footer="Statements")
    write_pdf(path, [[para("Statement of operations", "Heading2"), para(caption, "Small"),
                      table(rows, [80, 15, 25, 25])]], meta)


def test_a_pdf_table_with_blank_note_cells_keeps_each_figure_in_its_column(
    tmp_path: Path,
) -> None:
    # US convention: "$000", years across, a Note column mostly blank, a blank prior-year cell.
    path = tmp_path / "statements.pdf"
    _statement_pdf(path, [
        ["$000", "Note", "2023", "2022"],
        ["Net sales", "2", "46,700", "41,200"],
        ["Cost of goods sold", "", "(30,100)", "(27,000)"],
        ["Gross profit", "", "16,600", "14,200"],
        ["Impairment charge", "5", "(900)", ""],
        ["Net income", "", "5,300", "4,100"],
    ], "In thousands of U.S. dollars.")
    text = parse_file(path).sections[0].text
    assert "Gross profit | 2023: 16,600 | 2022: 14,200" in text
    assert "Cost of goods sold | 2023: (30,100) | 2022: (27,000)" in text
    assert "Impairment charge | Note: 5 | 2023: (900)" in text
    gross = {f.period: f.value for f in _findings(parse_file(path)) if f.subject == "gross profit"}
    assert gross == {"FY2023": 16_600_000, "FY2022": 14_200_000}


def test_a_register_reads_stakes_from_its_percent_column_not_a_share_count(
    tmp_path: Path,
) -> None:
    path = tmp_path / "register.csv"
    path.write_text("Shareholder,Ordinary,Preferred,Total (fully diluted),% fully diluted\n"
                    "Jane Roe,600000,,600000,60.0%\nAcme Ventures LP,,400000,400000,40.0%\n")
    stakes = {f.entity: (f.value, f.unit) for f in _findings(parse_file(path))
              if f.kind.value == "ownership"}
    assert stakes == {"Jane Roe": (60.0, "%"), "Acme Ventures LP": (40.0, "%")}


def test_a_rate_column_in_an_employee_census_is_no_ownership(tmp_path: Path) -> None:
    path = tmp_path / "census.csv"
    rows = "".join(f"E{i:03},Person {chr(65 + i)} Example,Machinist,32000,4\n" for i in range(30))
    path.write_text("Employee ID,Name,Job title,Base salary (USD),Employer 401k match (%)\n" + rows)
    assert not [f for f in _findings(parse_file(path)) if f.kind.value == "ownership"]
