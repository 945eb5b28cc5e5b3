"""Parsers keep exact locations: PDF pages, sheet cell ranges, heading paths, slides, rows."""

from __future__ import annotations

import csv
import re
import zipfile
from datetime import date, datetime
from pathlib import Path

import docx
import openpyxl
import pytest
from pptx import Presentation
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.util import Inches
from pypdf import PdfWriter
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Table

from manda.config import Settings
from manda.ingest.chunking import chunk_document
from manda.ingest.parsers import ParseLimits, detect_document_date, parse_file
from manda.ingest.parsers.formulas import FormulaError, evaluate
from manda.ingest.parsers.numfmt import display_value, format_number
from manda.models import Location, LocationKind, ParsedDocument, Section
from manda.sample import generate_sample_rooms
from manda.sample.facts import FACTS, FILES, location_matches

# ---------------------------------------------------------------- builders


def build_pdf(path: Path) -> Path:
    styles = getSampleStyleSheet()
    doc = SimpleDocTemplate(str(path), pagesize=A4, title="TargetCo Q3 2024 Report")
    doc.build([
        Paragraph("TargetCo Q3 2024 Report", styles["Title"]),
        Paragraph("Date: 15 October 2024", styles["Normal"]),
        Paragraph("Revenue grew strongly. EBITDA margin improved.", styles["Normal"]),
        PageBreak(),
        Paragraph("Financial summary (EUR thousands)", styles["Heading2"]),
        Table([
            ["Metric", "Q1 2024", "Q2 2024", "Q3 2024"],
            ["Revenue", "4,600", "4,900", "5,200"],
            ["EBITDA", "1,100", "1,250", "1,400"],
        ]),
    ])
    return path


def build_workbook(path: Path) -> Path:
    wb = openpyxl.Workbook()
    pl = wb.active
    pl.title = "P&L"
    pl["A1"] = "TargetCo P&L"
    pl["A2"] = "EUR thousands"
    pl.append([])
    pl.append(["Line item", "Q1 2024", "Q2 2024", "Q3 2024"])  # row 4
    pl.append(["Revenue", 4600.0, 4900, 5200])  # row 5
    pl.append(["COGS", 2852, 3038.5, 3224])  # row 6
    pl.append(["Gross profit", "=B5-B6", "=C5-C6", "=D5-D6"])  # row 7
    pl.append(["Gross margin", 0.38, 0.38, "=D7/D5"])  # row 8
    pl.append(["Revenue YTD", "=SUM(B5:D5)", None, None])  # row 9
    pl.append(["Headcount (from HR)", "=VLOOKUP(\"x\",Headcount!A:C,2,FALSE)"])  # row 10
    for row in range(5, 8):
        for col in "BCD":
            pl[f"{col}{row}"].number_format = "#,##0"
    for col in "BCD":
        pl[f"{col}8"].number_format = "0%"
    pl["B9"].number_format = "#,##0"

    people = wb.create_sheet("Headcount")
    people.append(["Name", "Role", "Joined"])
    for i in range(1, 31):
        people.append([f"Employee {i:02d}", "Engineer" if i % 2 else "Analyst",
                       datetime(2020, 1, i % 28 + 1)])
    wb.create_sheet("Blank")
    wb.save(path)
    return path


def rewrite_zip_member(path: Path, member: str, edit: object) -> None:
    """Rewrite one XML part of an OOXML file in place (to craft what openpyxl cannot write)."""
    with zipfile.ZipFile(path) as zin:
        parts = {info.filename: zin.read(info.filename) for info in zin.infolist()}
    parts[member] = edit(parts[member].decode()).encode()  # type: ignore[operator]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, data in parts.items():
            zout.writestr(name, data)


def build_docx(path: Path) -> Path:
    d = docx.Document()
    d.add_paragraph("TargetCo Legal Due Diligence", style="Title")
    d.add_paragraph("Dated 20 March 2024")
    d.add_heading("Legal Summary", level=1)
    d.add_paragraph("No material issues beyond those listed below.")
    d.add_heading("Litigation", level=2)
    d.add_paragraph("Two proceedings are pending.")
    table = d.add_table(rows=3, cols=3)
    for r, values in enumerate([("Case", "Court", "Exposure"),
                                ("Smith v TargetCo", "High Court", "EUR 1.2m"),
                                ("Tax audit 2021", "Tax Office", "EUR 0.3m")]):
        for c, value in enumerate(values):
            table.cell(r, c).text = value
    d.add_paragraph("Management expects both to settle in 2025.")
    d.add_heading("Contracts", level=2)
    d.add_paragraph("The top ten customer contracts contain change-of-control clauses.")
    d.add_heading("Management", level=1)
    team = d.add_table(rows=2, cols=3)
    for c, value in enumerate(("Name", "Role", "Joined")):
        team.cell(0, c).text = value
    for c, value in enumerate(("Jane Doe", "CFO", "2019")):
        team.cell(1, c).text = value
    d.save(path)
    return path


def build_pptx(path: Path) -> Path:
    deck = Presentation()
    cover = deck.slides.add_slide(deck.slide_layouts[0])
    cover.shapes.title.text = "Project Falcon"
    cover.placeholders[1].text = "Management presentation, September 2024"

    bullets = deck.slides.add_slide(deck.slide_layouts[1])
    bullets.shapes.title.text = "Highlights"
    body = bullets.placeholders[1].text_frame
    body.text = "Revenue up 18% year on year"
    body.add_paragraph().text = "Churn down to 4%"
    bullets.notes_slide.notes_text_frame.text = "Mention the Globex renewal."

    numbers = deck.slides.add_slide(deck.slide_layouts[5])
    numbers.shapes.title.text = "Key figures"
    shape = numbers.shapes.add_table(3, 3, Inches(1), Inches(2), Inches(6), Inches(1.5))
    for r, values in enumerate([("Metric", "FY2023", "FY2024"),
                                ("Revenue", "16.2", "19.1"),
                                ("EBITDA", "3.9", "4.8")]):
        for c, value in enumerate(values):
            shape.table.cell(r, c).text = value
    chart_data = CategoryChartData()
    chart_data.categories = ["2022", "2023"]
    chart_data.add_series("Customers", (120, 150))
    numbers.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(4),
                             Inches(4), Inches(2), chart_data)
    deck.save(path)
    return path


# ---------------------------------------------------------------- PDF


def test_pdf_has_one_section_per_page_with_table_rows_on_one_line(tmp_path: Path) -> None:
    parsed = parse_file(build_pdf(tmp_path / "TargetCo_Q3_2024_Report.pdf"))

    assert parsed.file_type == "pdf"
    assert parsed.units == 2
    assert [s.location for s in parsed.sections] == [Location.for_page(1), Location.for_page(2)]
    assert "Date: 15 October 2024" in parsed.sections[0].text
    assert "EUR thousands" in parsed.sections[1].text
    lines = parsed.sections[1].text.split("\n")  # each row with its column headers
    assert "Revenue | Q1 2024: 4,600 | Q2 2024: 4,900 | Q3 2024: 5,200" in lines
    assert parsed.title == "TargetCo Q3 2024 Report"
    assert parsed.doc_date == date(2024, 10, 15)


def test_pdf_encrypted_with_an_empty_user_password_is_decrypted(tmp_path: Path) -> None:
    plain = build_pdf(tmp_path / "plain.pdf")
    writer = PdfWriter(clone_from=plain)
    writer.encrypt(user_password="", owner_password="owner-secret", algorithm="AES-256")
    encrypted = tmp_path / "encrypted.pdf"
    with encrypted.open("wb") as f:
        writer.write(f)

    parsed = parse_file(encrypted)

    assert parsed.units == 2
    assert "Revenue | Q1 2024: 4,600 | Q2 2024: 4,900 | Q3 2024: 5,200" in parsed.sections[1].text


def test_upload_name_is_used_for_the_result_and_the_type_comes_from_the_bytes(
    tmp_path: Path,
) -> None:
    stored = build_pdf(tmp_path / "F0123ABC")  # how an upload may sit on disk

    parsed = parse_file(stored, filename="Q3 Report.pdf")

    assert parsed.filename == "Q3 Report.pdf"
    assert parsed.file_type == "pdf"


# ---------------------------------------------------------------- XLSX


def test_xlsx_reads_every_sheet_as_located_row_blocks(tmp_path: Path) -> None:
    parsed = parse_file(build_workbook(tmp_path / "model.xlsx"))

    assert parsed.file_type == "xlsx"
    assert parsed.units == 3  # P&L, Headcount, Blank
    pl = [s for s in parsed.sections if s.location.label.startswith("P&L!")]
    assert len(pl) == 1
    block = pl[0]
    assert block.location == Location.for_cell("P&L", "A1:D10")  # from the notes above the table
    lines = block.text.split("\n")
    assert lines[:3] == ["TargetCo P&L", "EUR thousands", "Line item | Q1 2024 | Q2 2024 | Q3 2024"]
    assert "Revenue | Q1 2024: 4,600 | Q2 2024: 4,900 | Q3 2024: 5,200" in lines
    assert "COGS | Q1 2024: 2,852 | Q2 2024: 3,039 | Q3 2024: 3,224" in lines
    assert block.table is not None and block.cell_refs is not None
    assert block.table[0] == ["Line item", "Q1 2024", "Q2 2024", "Q3 2024"]
    assert block.table[1] == ["Revenue", "4,600", "4,900", "5,200"]
    assert block.cell_refs[0][0] == "P&L!A4"
    assert block.cell_refs[1] == ["P&L!A5", "P&L!B5", "P&L!C5", "P&L!D5"]
    assert [len(r) for r in block.table] == [len(r) for r in block.cell_refs]
    assert parsed.doc_date is None  # joining dates on the Headcount sheet are data


def test_xlsx_formulas_without_cached_values_are_evaluated_or_kept_as_text(
    tmp_path: Path,
) -> None:
    parsed = parse_file(build_workbook(tmp_path / "model.xlsx"))
    block = next(s for s in parsed.sections if s.location.label.startswith("P&L!"))
    rows = {row[0]: row for row in block.table or []}

    assert rows["Gross profit"][1:] == ["1,748", "1,862", "1,976"]  # =B5-B6 ...
    assert rows["Revenue YTD"][1] == "14,700"  # =SUM(B5:D5)
    assert rows["Gross margin"][1:] == ["38%", "38%", "38%"]  # =D7/D5 with a 0% format
    assert rows["Headcount (from HR)"][1].startswith("=VLOOKUP(")
    # each value Manda computed is marked with its formula; a cached or unevaluated one is not
    assert block.computed["P&L!B9"] == "=SUM(B5:D5)"
    assert not any(f.startswith("=VLOOKUP(") for f in block.computed.values())


def test_xlsx_cached_formula_values_win_over_evaluation(tmp_path: Path) -> None:
    path = build_workbook(tmp_path / "model.xlsx")
    # What Excel would have saved: the formula with its last computed result.
    rewrite_zip_member(
        path, "xl/worksheets/sheet1.xml",
        lambda xml: re.sub(r'(<c r="B9"[^>]*>)<f>(.*?)</f>(<v\s*/>|<v></v>)?',
                           r"\1<f>\2</f><v>99999</v>", xml),
    )

    parsed = parse_file(path)
    block = next(s for s in parsed.sections if s.location.label.startswith("P&L!"))
    rows = {row[0]: row for row in block.table or []}

    assert rows["Revenue YTD"][1] == "99,999"
    assert "P&L!B9" not in block.computed


def test_xlsx_long_sheets_are_split_in_blocks_with_the_header_repeated(tmp_path: Path) -> None:
    parsed = parse_file(build_workbook(tmp_path / "model.xlsx"))
    blocks = [s for s in parsed.sections if s.location.label.startswith("Headcount!")]

    assert [b.location.label for b in blocks] == ["Headcount!A1:C26", "Headcount!A27:C31"]
    for b in blocks:
        assert b.table is not None
        assert b.table[0] == ["Name", "Role", "Joined"]
        assert b.text.split("\n")[0] == "Name | Role | Joined"
    assert "Employee 26 | Role: Analyst | Joined: 2020-01-27" in blocks[1].text
    assert blocks[1].cell_refs is not None and blocks[1].cell_refs[1][0] == "Headcount!A27"


def test_xlsx_sheet_claiming_a_million_rows_is_read_quickly(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["Customer", "Revenue"])
    ws.append(["Globex", 1200])
    path = tmp_path / "huge_dimension.xlsx"
    wb.save(path)
    # An exporter's leftovers: a dimension of A1:K1048576, thousands of formatted empty rows
    # and an empty string in the very last row.
    styled_empty = "".join(f'<row r="{r}"><c r="A{r}" s="0"/></row>' for r in range(3, 20_003))
    last = '<row r="1048576"><c r="K1048576" t="inlineStr"><is><t></t></is></c></row>'
    rewrite_zip_member(
        path, "xl/worksheets/sheet1.xml",
        lambda xml: re.sub(r'<dimension ref="[^"]*"\s*/>', '<dimension ref="A1:K1048576"/>', xml)
        .replace("</sheetData>", styled_empty + last + "</sheetData>"),
    )
    with zipfile.ZipFile(path) as zf:
        sheet_xml = zf.read("xl/worksheets/sheet1.xml").decode()
    assert '<dimension ref="A1:K1048576"/>' in sheet_xml and 'r="K1048576"' in sheet_xml

    parsed = parse_file(path)

    assert [s.location.label for s in parsed.sections] == ["Data!A1:B2"]
    assert parsed.sections[0].text == "Customer | Revenue\nGlobex | Revenue: 1200"


def test_xlsx_sheet_with_more_rows_than_the_limit_is_refused(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    for i in range(60):
        wb.active.append([f"row {i}", i])
    path = tmp_path / "long.xlsx"
    wb.save(path)

    with pytest.raises(Exception) as err:
        parse_file(path, limits=ParseLimits(max_sheet_rows=50))

    assert "more than 50 rows" in str(err.value)
    assert "MANDA_MAX_SHEET_ROWS" in str(err.value)


# ---------------------------------------------------------------- DOCX


def test_docx_sections_follow_heading_paths_with_tables_in_place(tmp_path: Path) -> None:
    parsed = parse_file(build_docx(tmp_path / "Legal_DD.docx"))

    assert [s.location.label for s in parsed.sections] == [
        "start of document",
        "Legal Summary",
        "Legal Summary > Litigation",
        "Legal Summary > Litigation (table 1)",
        "Legal Summary > Litigation",
        "Legal Summary > Contracts",
        "Management (table 1)",
    ]
    assert all(s.location.kind == LocationKind.SECTION for s in parsed.sections)
    litigation_table = parsed.sections[3]
    assert litigation_table.table == [
        ["Case", "Court", "Exposure"],
        ["Smith v TargetCo", "High Court", "EUR 1.2m"],
        ["Tax audit 2021", "Tax Office", "EUR 0.3m"],
    ]
    assert litigation_table.text.split("\n")[:2] == [
        "Case | Court | Exposure",
        "Smith v TargetCo | Court: High Court | Exposure: EUR 1.2m",
    ]
    assert parsed.sections[2].text == "Litigation\nTwo proceedings are pending."
    assert "settle in 2025" in parsed.sections[4].text
    assert parsed.sections[6].text == "Name | Role | Joined\nJane Doe | Role: CFO | Joined: 2019"
    assert parsed.title == "TargetCo Legal Due Diligence"
    assert parsed.doc_date == date(2024, 3, 20)
    assert parsed.units == len(parsed.sections)


def test_docx_reads_tracked_insertions_and_content_controls_but_not_deletions(
    tmp_path: Path,
) -> None:
    d = docx.Document()
    d.add_heading("Financials", level=1)
    d.add_paragraph("Revenue was EUR MARKER.")
    d.add_paragraph("CONTROLLED")
    path = tmp_path / "redline.docx"
    d.save(path)
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    rewrite_zip_member(
        path, "word/document.xml",
        lambda xml: xml.replace(
            "<w:r><w:t>Revenue was EUR MARKER.</w:t></w:r>",
            '<w:r><w:t xml:space="preserve">Revenue was EUR </w:t></w:r>'
            '<w:del w:id="1" w:author="Seller"><w:r><w:delText>4.9m</w:delText></w:r></w:del>'
            '<w:ins w:id="2" w:author="Seller"><w:r><w:t>5.2m</w:t></w:r></w:ins>'
            "<w:r><w:t>.</w:t></w:r>",
        ).replace(
            "<w:p><w:r><w:t>CONTROLLED</w:t></w:r></w:p>",
            f'<w:sdt xmlns:w="{w}"><w:sdtContent><w:p><w:r><w:t>Signed by the CFO.</w:t></w:r>'
            "</w:p></w:sdtContent></w:sdt>",
        ),
    )

    parsed = parse_file(path)

    assert [s.text for s in parsed.sections] == [
        "Financials\nRevenue was EUR 5.2m.\nSigned by the CFO."
    ]


# ---------------------------------------------------------------- PPTX


def test_pptx_one_section_per_slide_and_notes_apart(tmp_path: Path) -> None:
    parsed = parse_file(build_pptx(tmp_path / "Falcon_Management_Presentation.pptx"))

    assert parsed.units == 3
    assert [s.location for s in parsed.sections] == [
        Location.for_slide(1),
        Location.for_slide(2),
        Location.for_slide(2, notes=True),
        Location.for_slide(3),
    ]
    assert parsed.sections[1].text == "Highlights\nRevenue up 18% year on year\nChurn down to 4%"
    assert parsed.sections[2].text == "Mention the Globex renewal."
    figures = parsed.sections[3].text.split("\n")
    assert figures[0] == "Key figures"
    assert "Revenue | FY2023: 16.2 | FY2024: 19.1" in figures
    assert "Customers: 2022: 120 | 2023: 150" in figures
    assert parsed.title == "Project Falcon"
    assert parsed.doc_date == date(2024, 9, 1)  # a month alone gives its first day


# ---------------------------------------------------------------- CSV, Markdown, text


def test_csv_rows_are_paired_with_the_header_in_located_blocks(tmp_path: Path) -> None:
    path = tmp_path / "customers.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, delimiter=";")
        writer.writerow(["Customer", "Country", "Revenue 2024"])
        for i in range(1, 31):
            writer.writerow([f"Customer {i}", "DE", str(1000 + i)])

    parsed = parse_file(path)

    assert [s.location.label for s in parsed.sections] == ["rows 2-26", "rows 27-31"]
    assert all(s.location.kind == LocationKind.ROW for s in parsed.sections)
    assert parsed.sections[0].text.split("\n")[:2] == [
        "Customer | Country | Revenue 2024",
        "Customer 1 | Country: DE | Revenue 2024: 1001",
    ]
    assert parsed.sections[1].table is not None
    assert parsed.sections[1].table[0] == ["Customer", "Country", "Revenue 2024"]


def test_markdown_sections_carry_their_heading_path(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text(
        "---\ntitle: Commercial DD notes\n---\n"
        "Prepared by the deal team, as of 30 June 2024.\n\n"
        "# Overview\nTargetCo sells software.\n\n"
        "## Revenue\nRecurring revenue is 80%.\n\n```\n# not a heading\n```\n\n"
        "## Customers\nTop customer is Globex.\n\n"
        "Risks\n-----\nKey person risk.\n\n"
        "# Appendix\nSources: management accounts.\n",
        encoding="utf-8",
    )

    parsed = parse_file(path)

    assert [s.location.label for s in parsed.sections] == [
        "start of document", "Overview", "Overview > Revenue", "Overview > Customers",
        "Overview > Risks", "Appendix",
    ]
    assert "# not a heading" in parsed.sections[2].text
    assert parsed.title == "Commercial DD notes"
    assert parsed.doc_date == date(2024, 6, 30)


def test_a_single_top_heading_is_the_title_and_left_out_of_labels(tmp_path: Path) -> None:
    path = tmp_path / "overview.md"
    path.write_text(
        "# TargetCo — Commercial overview\nDate: 7 October 2024.\n\n"
        "## Business\nSubscription software.\n\n## Customers\n### Concentration\nGlobex 38%.\n",
        encoding="utf-8",
    )

    parsed = parse_file(path)

    assert [s.location.label for s in parsed.sections] == [
        "TargetCo — Commercial overview", "Business", "Customers > Concentration",
    ]
    assert parsed.title == "TargetCo — Commercial overview"


def test_text_with_caps_and_numbered_headings(tmp_path: Path) -> None:
    path = tmp_path / "Board_Minutes.txt"
    path.write_text(
        "BOARD MEETING MINUTES\nDate: 15 October 2024\n\n"
        "1. ATTENDEES\nJane Doe (CFO), John Roe (CEO)\n\n"
        "2. FINANCIAL UPDATE\nRevenue for Q3 2024 was EUR 5.2m.\nEBITDA 1,400\nNET INCOME 800\n"
        "in line with the budget.\n\n"
        "2.1 Cash Position\nCash at quarter end was EUR 2.1m.\n\n"
        "1. This numbered sentence is not a heading.\n",
        encoding="utf-8",
    )

    parsed = parse_file(path)

    assert [s.location.label for s in parsed.sections] == [
        "BOARD MEETING MINUTES", "1. ATTENDEES", "2. FINANCIAL UPDATE",
        "2. FINANCIAL UPDATE > 2.1 Cash Position",
    ]
    assert parsed.sections[3].text.endswith("1. This numbered sentence is not a heading.")
    assert parsed.title == "BOARD MEETING MINUTES"
    assert parsed.doc_date == date(2024, 10, 15)


def test_text_without_headings_is_grouped_by_line_ranges(tmp_path: Path) -> None:
    paragraph = "The company operates three plants in Germany and one in Poland. " * 6
    path = tmp_path / "memo.txt"
    path.write_text("\n\n".join([paragraph.strip()] * 5) + "\n", encoding="utf-8")

    parsed = parse_file(path)

    labels = [s.location.label for s in parsed.sections]
    assert labels == ["lines 1-3", "lines 5-7", "line 9"]
    assert all(len(s.text) <= 1000 for s in parsed.sections[:-1])


def test_text_in_windows_1252_is_decoded(tmp_path: Path) -> None:
    path = tmp_path / "legacy.txt"
    path.write_bytes("Umsatz: 5,2 Mio. € für Müller GmbH".encode("cp1252"))

    parsed = parse_file(path)

    assert parsed.sections[0].text == "Umsatz: 5,2 Mio. € für Müller GmbH"


# ---------------------------------------------------------------- the sample data rooms


@pytest.fixture(scope="module")
def sample_rooms(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return generate_sample_rooms(tmp_path_factory.mktemp("rooms"))


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_every_sample_fact_is_found_at_a_location_covering_it(
    sample_rooms: dict[str, Path],
) -> None:
    """The sample rooms' ground truth: each statement, as stated, in a section and a chunk
    whose location label covers the fact's own location (`P&L!I5` inside `P&L!A1:I13`)."""
    parsed = {f.name: parse_file(sample_rooms[f.deal] / f.name) for f in FILES}
    chunks = {name: chunk_document(p, deal_id="d", document_id=name) for name, p in parsed.items()}
    missing = []
    for fact in FACTS:
        stated = _flat(fact.stated)
        in_section = any(location_matches(fact.location, s.location.label)
                         and stated in _flat(s.text) for s in parsed[fact.file].sections)
        in_chunk = any(location_matches(fact.location, c.location.label)
                       and stated in _flat(c.text) for c in chunks[fact.file])
        if not (in_section and in_chunk):
            missing.append((fact.file, fact.location, fact.stated))
    assert missing == []
    for fact in FACTS:
        if fact.subject == "report_date":
            doc_date = parsed[fact.file].doc_date
            assert doc_date is not None and doc_date.isoformat().startswith(str(fact.value))


# ---------------------------------------------------------------- helpers


def test_limits_come_from_settings() -> None:
    settings = Settings(MANDA_MAX_FILE_MB=2, MANDA_MAX_UNCOMPRESSED_MB=10, MANDA_MAX_SHEET_ROWS=7)

    limits = ParseLimits.from_settings(settings)

    assert limits == ParseLimits(max_bytes=2 * 2**20, max_uncompressed_bytes=10 * 2**20,
                                 max_sheet_rows=7)


@pytest.mark.parametrize(
    ("value", "number_format", "expected"),
    [
        (4600.0, "General", "4600"),
        (4600.0, "#,##0", "4,600"),
        (0.1 + 0.2, "General", "0.3"),
        (0.38, "0%", "38%"),
        (0.385, "0.0%", "38.5%"),
        (-1234.5, "#,##0.00;(#,##0.00)", "(1,234.50)"),
        (-1234.5, "#,##0.00", "-1,234.50"),
        (-2800, "_-* #,##0_-;-* #,##0_-;_-* \"-\"_-;_-@_-", "-2,800"),
        (0, "_-* #,##0_-;-* #,##0_-;_-* \"-\"_-;_-@_-", "0"),
        (4.5, "0.0x", "4.5x"),
        (1250, "[$EUR] #,##0", "EUR 1,250"),
        (-0.001, "0.00", "0.00"),
        (1250.5, '"€"#,##0.00', "€1,250.50"),
        (1250, "[$$-409]#,##0", "$1,250"),
        (1250, '#,##0 "€"', "1,250 €"),
        (1.5e15, "General", "1500000000000000"),
    ],
)
def test_numbers_are_formatted_as_a_person_reads_them(
    value: float, number_format: str, expected: str
) -> None:
    assert format_number(value, number_format) == expected


def test_cell_values_of_other_types() -> None:
    assert display_value(datetime(2024, 9, 30)) == "2024-09-30"
    assert display_value(datetime(2024, 9, 30, 14, 5)) == "2024-09-30 14:05"
    assert display_value(True) == "TRUE"
    assert display_value("  two\nlines ") == "two lines"


def test_formula_evaluator() -> None:
    cells = {(1, 1): 10, (2, 1): 20, (3, 1): "n/a", (1, 2): 0.5}

    def values(rng: object) -> list[object]:
        return [cells.get((r, c)) for r in range(rng.min_row, rng.max_row + 1)  # type: ignore[attr-defined]
                for c in range(rng.min_col, rng.max_col + 1)]  # type: ignore[attr-defined]

    assert evaluate("=SUM(A1:A3)", values) == 30
    assert evaluate("=A1+A2*B1", values) == 20
    assert evaluate("=-(A1-A2)/2", values) == 5
    assert evaluate("=MAX(A1:A2, 7) + 50%", values) == 20.5
    assert evaluate("=$A$1*2", values) == 20
    for unsupported in ("=VLOOKUP(A1,A1:B2,2)", "=A3+1", "=A1/0", "=A1&A2"):
        with pytest.raises(FormulaError):
            evaluate(unsupported, values)


@pytest.mark.parametrize(
    ("opening", "expected"),
    [
        ("Board minutes\nDate: 15 October 2024\nPresent: all", date(2024, 10, 15)),
        ("Share purchase agreement dated 20 March 2024 between", date(2024, 3, 20)),
        ("Balance sheet as of 30 June 2024", date(2024, 6, 30)),
        ("Report 2024-09-30 final", date(2024, 9, 30)),
        ("Prepared in September 2024 for the buyer", date(2024, 9, 1)),
        ("Updated on March 5, 2024 by the CFO", date(2024, 3, 5)),
        ("Stand: 30.09.2024", date(2024, 9, 30)),
        ("Minutes of 31/12/2023", date(2023, 12, 31)),
        ("Minutes of 03/04/2024", None),
        ("Revenue rose in Q3 2024.", None),
        ("Since 2019 Dated: 1 February 2024 later 5 May 2023", date(2024, 2, 1)),
        # the period a report covers is not the day it was written…
        ("Flash report, quarter ended March 31, 2025. Prepared April 18, 2025",
         date(2025, 4, 18)),
        # …unless the other date is far from it (an expiry, a maturity)
        ("Year ended 31 March 2024. Contract runs to 31 March 2027", date(2024, 3, 31)),
    ],
)
def test_document_date_from_the_opening_text(opening: str, expected: date | None) -> None:
    parsed = ParsedDocument(filename="x.txt", file_type="txt", units=1,
                            sections=[Section(text=opening, location=Location.for_page(1))])
    assert detect_document_date(parsed) == expected


def test_dates_in_table_rows_count_only_when_labelled() -> None:
    table = [["Name", "Joined"], ["Jane Doe", "2019-03-01"]]
    joined = Section(text="Name | Joined\nJane Doe | Joined: 2019-03-01", table=table,
                     location=Location.for_row(2))
    as_of = Section(text="Depot | As of\nDaventry | As of: 30 September 2024",
                    table=[["Depot", "As of"], ["Daventry", "30 September 2024"]],
                    location=Location.for_row(2))

    def date_of(section: Section) -> date | None:
        return detect_document_date(
            ParsedDocument(filename="t.csv", file_type="csv", units=1, sections=[section]))

    assert date_of(joined) is None
    assert date_of(as_of) == date(2024, 9, 30)


def test_document_date_falls_back_to_an_iso_date_in_the_filename() -> None:
    parsed = ParsedDocument(filename="Board_Minutes_2024-03-20.txt", file_type="txt", units=1,
                            sections=[Section(text="Minutes", location=Location.for_page(1))])
    assert detect_document_date(parsed) == date(2024, 3, 20)
