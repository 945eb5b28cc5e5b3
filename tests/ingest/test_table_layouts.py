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
from manda.ingest.parsers.base import spaced_statement_rows
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


def _plain_text_pdf(path: Path, lines: list[str]) -> None:
    """A page whose text has single spaces between figures (no column gaps to find)."""
    from reportlab.lib.pagesizes import LETTER
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path), pagesize=LETTER)
    pdf.setFont("Helvetica", 9)
    y = 740.0
    for line in lines:
        pdf.drawString(36, y, line)
        y -= 12
    pdf.save()


def test_a_statement_whose_figures_are_single_spaced_is_read_by_its_years(
    tmp_path: Path,
) -> None:
    # a 10-K statement re-typeset as plain text: years ascending, a sub-heading between rows
    path = tmp_path / "Northbeam_10-K_2025.pdf"
    _plain_text_pdf(path, [
        "CONSOLIDATED STATEMENTS OF OPERATIONS",
        "(in millions, except per share data)",
        "Year Ended December 31,",
        "2023 2024 2025",
        "Total net sales 574,785 637,959 716,924",
        "Operating expenses:",
        "Cost of sales 304,739 326,288 356,414",
        "Net income $30,425 $59,248 $77,670",
        "Diluted earnings per share $2.90 $5.53 $7.17",
        "Net income rose in 2025 on higher sales of 716,924 and lower costs.",
    ])
    text = parse_file(path).sections[0].text
    assert "Net income | 2023: $30,425 | 2024: $59,248 | 2025: $77,670" in text
    assert "Operating expenses:\n2023 | 2024 | 2025\nCost of sales | 2023: 304,739" in text
    assert "on higher sales of 716,924 and lower costs." in text  # prose stays prose
    findings = _findings(parse_file(path))
    income = {f.period: f.value for f in findings if f.subject == "net income"}
    assert income["FY2025"] == 77_670_000_000 and income["FY2023"] == 30_425_000_000


@pytest.mark.parametrize(("lines", "row"), [
    # change columns between the years, a caption before them
    (["(dollars in millions) 2025 2024 2023(a) 2025/2024 2024/2023",
      "Net sales $104,780 $106,566 $107,412 (1.7)% (0.8)%"],
     "Net sales | 2025: $104,780 | 2024: $106,566 | 2023(a): $107,412 | 2025/2024: (1.7)% | "
     "2024/2023: (0.8)%"),
    (["2025 Change 2024 Change 2023", "Mac 33,708 12% 29,984 2% 29,357"],
     "Mac | 2025: 33,708 | change: 12% | 2024: 29,984 | change 2: 2% | 2023: 29,357"),
    # balance-sheet dates, and a percent sign written apart
    (["September 27,2025 September 28,2024", "Inventories 5,718 7,286"],
     "Inventories | September 27,2025: 5,718 | September 28,2024: 7,286"),
    (["(Dollars in millions) 2023 2022 $ %", "Automotive leasing 2,120 2,476 (356) (14) %"],
     "Automotive leasing | 2023: 2,120 | 2022: 2,476 | change: (356) | change %: (14)%"),
    # a table's title run on into its years
    (["Change in Number of Depots 2024 2023", "Opened 12 7", "Ending depot count 311 300"],
     "Ending depot count | 2024: 311 | 2023: 300"),
    (["Same-Store Sales 2022 2023 2024", "Same-store sales change (1.4)% 2.2% 3.0%"],
     "Same-store sales change | 2022: (1.4)% | 2023: 2.2% | 2024: 3.0%"),
])
def test_single_spaced_rows_under_years_become_labelled_rows(lines: list[str], row: str) -> None:
    assert row in spaced_statement_rows("\n".join(lines)).split("\n")


def test_a_title_with_years_that_are_no_run_of_columns_is_no_header() -> None:
    text = "Lease maturities 2027 2030\nWarehouse 12 40\nIn 2024 2023 we grew.\nShop 4 5"
    assert spaced_statement_rows(text) == text


def test_rows_that_do_not_fit_the_years_and_kept_gaps_are_left_alone() -> None:
    text = "2024 2025\nRevenue 1,000 2,000 3,000\nApple Inc. | 2025 Form 10-K | 33\nEBITDA 10 20"
    out = spaced_statement_rows(text).split("\n")
    assert "Revenue 1,000 2,000 3,000" in out and "Apple Inc. | 2025 Form 10-K | 33" in out
    assert "EBITDA 10 20" in out  # a line with column gaps ended the table


def test_a_line_of_bare_figures_under_a_chart_is_no_statement_of_one_year(
    tmp_path: Path,
) -> None:
    # a chart's labels: the figures lost their columns, so none of them is "this year's"
    path = tmp_path / "Northbeam_10-K_2025.pdf"
    _plain_text_pdf(path, ["Net Sales", "(in billions)", "2023(53 weeks) 2024 2025",
                           "$107.4 $106.6 $104.8", "Americas Europe Corporate Total",
                           "Net sales $162,560 $94,294 $— $256,854",
                           "Net sales were $104.8 billion in 2025."])
    revenue = [(f.period, f.value) for f in _findings(parse_file(path)) if f.subject == "revenue"]
    assert all(v not in (107.4, 162_560, 162_560_000_000) for _, v in revenue)
    assert ("FY2025", 104_800_000_000) in revenue


def test_a_second_table_under_its_own_title_is_a_table_of_its_own(tmp_path: Path) -> None:
    """A cap table with a liquidation-preference block below it: after a blank row, the block's
    title alone on a row and its own header row start a table with that header and title."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Cap Table"
    ws.append(["Shareholder", "Ordinary", "Series A Preferred", "Fully diluted %"])
    ws.append(["Founder", 4_200_000, None, "60.00%"])
    ws.append(["Fund I", None, 2_800_000, "40.00%"])
    ws.append([])
    ws.append(["Liquidation preferences"])
    ws.append(["Class", "Shares", "Original issue price", "Participation", "Preference amount"])
    ws.append(["Series A Preferred", 2_800_000, 1.5, "Non-participating", 4_200_000])
    path = tmp_path / "Cap Table.xlsx"
    wb.save(path)
    parsed = parse_file(path)
    assert [s.heading_path for s in parsed.sections] == [
        ("Cap Table",), ("Cap Table", "Liquidation preferences")]
    second = parsed.sections[1].table
    assert second is not None and second[0][:3] == ["Class", "Shares", "Original issue price"]
    assert "Participation: Non-participating" in parsed.sections[1].text


def test_a_figure_computed_from_its_formula_says_so(tmp_path: Path) -> None:
    """A workbook saved without results (openpyxl writes none): the total Manda computes from
    `=SUM(B3:B4)` is a finding marked with the formula it came from; a typed figure is not."""
    wb = Workbook()
    ws = wb.active
    ws.title = "P&L"
    ws.append(["EUR thousands", "FY2024"])
    ws.append(["Revenue", 5_000])
    ws.append(["Cost of sales", -3_000])
    ws.append(["Gross profit", "=SUM(B2:B3)"])
    path = tmp_path / "Model.xlsx"
    wb.save(path)
    findings = {f.subject: f for f in _findings(parse_file(path))}
    assert findings["gross profit"].value == 2_000_000
    assert findings["gross profit"].attributes["computed_from"] == "=SUM(B2:B3)"
    assert "computed_from" not in findings["revenue"].attributes


def test_a_figure_in_the_prose_above_is_no_unit_line_for_the_table(tmp_path: Path) -> None:
    """"… increased sales by $4.9 billion" on the page's first lines does not make a table
    captioned "(in millions)" a table of billions."""
    path = tmp_path / "Northbeam_10-K_2025.pdf"
    _plain_text_pdf(path, [
        "Currency movements increased International net sales by $4.9 billion in 2025.",
        "Cloud sales increased 20% in 2025, compared to the prior year.",
        "Operating Expenses",
        "Information about operating expenses is as follows (in millions):",
        "Year Ended December 31,",
        "2024 2025",
        "Cost of sales $326,288 $356,414",
        "Fulfillment 98,505 109,074",
        "Total operating expenses $569,366 $636,949",
    ])
    findings = _findings(parse_file(path))
    costs = {f.period: f.value for f in findings if f.subject == "cost of sales"}
    assert costs["FY2025"] == 356_414_000_000
    assert all(f.value is None or f.value < 1e12 for f in findings)


def test_a_row_with_a_footnote_marker_or_a_dash_cell_is_still_a_row() -> None:
    """"Gadgets (1) $120,400 (2)% …" (the label's footnote, one value too many) and "Widgets
    $88,100 4% $84,700 —% $84,700" (a nil change written as a dash) are rows of the table
    like those beside them, never left as text."""
    text = "\n".join([
        "Net sales by product line (dollars in millions):",
        "2025 Change 2024 Change 2023",
        "Gadgets (1) $120,400 (2) % $122,860 7 % $114,820",
        "Widgets $88,100 4% $84,700 —% $84,700",
        "Support (2) 41,300 9 % 37,890 14 % 33,240",
        "Total net sales $249,800 1 % $245,450 5 % $232,760",
    ])
    out = spaced_statement_rows(text).split("\n")
    assert ("Gadgets | 2025: $120,400 | change: (2)% | 2024: $122,860 | change 2: 7% | "
            "2023: $114,820") in out, out
    assert ("Widgets | 2025: $88,100 | change: 4% | 2024: $84,700 | change 2: —% | "
            "2023: $84,700") in out, out
    assert any(line.startswith("Support | 2025: 41,300") for line in out), out


def test_a_lone_bracketed_value_beside_the_row_is_no_footnote() -> None:
    """"Restructuring (1) 3" under two years holds two values: (1) is the first year's."""
    out = spaced_statement_rows("2025 2024\nRestructuring (1) 3\nOther 4 5").split("\n")
    assert "Restructuring | 2025: (1) | 2024: 3" in out, out


def test_a_table_of_one_year_column_under_its_title_has_labelled_rows() -> None:
    """A table of one column whose title runs on into its year ("Cash Taxes Paid(millions)
    2026" over "Federal taxes (a) $412"): each row carries the year, a group heading's rows
    too; the table ends at the prose after it, so a line ending in a number there is no row."""
    text = "\n".join([
        "Cash Taxes Paid, Net of Refunds(millions) 2026",
        "Federal taxes (a) $412",
        "State taxes",
        "Oregon 31",
        "Other 58",
        "Total cash taxes paid $501",
        "(a) Includes purchased credits.",
        "Payments differ from the provision for timing reasons.",
        "NORTHWIND STORES 2026 Annual Report 63",
    ])
    out = spaced_statement_rows(text).split("\n")
    assert "Federal taxes (a) | 2026: $412" in out, out
    assert "Oregon | 2026: 31" in out and "Total cash taxes paid | 2026: $501" in out, out
    assert "NORTHWIND STORES 2026 Annual Report 63" in out, out


def test_a_title_ending_in_a_year_over_prose_is_no_table() -> None:
    text = "Outlook for 2026\nWe expect sales to grow by about 4"
    assert spaced_statement_rows(text) == text
