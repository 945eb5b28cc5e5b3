"""Every parser says which headings each passage stands under, and chunking keeps it: Word and
Markdown heading paths, PDF headings found by layout, slide titles, sheet names, table captions,
e-mail subjects."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import docx
import openpyxl
from fixtures.headed_documents import CAPTION, CLAIM, TITLE, build_layout_pdf
from pptx import Presentation
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from manda.ingest.chunking import chunk_document, heading_blocks, shown_text
from manda.ingest.parsers import parse_file, pdf_layout
from manda.ingest.parsers.headings import captioned_tables, page_headings
from manda.models import HeadingPath, Location, ParsedDocument, Section


def _path_of(parsed: ParsedDocument, words: str) -> HeadingPath:
    """The heading path of the chunk holding `words`."""
    chunks = chunk_document(parsed, deal_id="d", document_id="doc")
    found = [c for c in chunks if words in shown_text(c)]
    assert found, f"no chunk holds {words!r}"
    return found[0].heading_path


# ---------------------------------------------------------------- PDF


def test_pdf_headings_are_found_by_font_size_and_weight(tmp_path: Path) -> None:
    parsed = parse_file(build_layout_pdf(tmp_path / "Falcon_Legal_Summary.pdf"))

    assert _path_of(parsed, "former distributor") == (
        TITLE, "3 Legal", "3.2 Litigation", "Pending claims")
    assert _path_of(parsed, "GmbH registered in Munich") == (TITLE, "3 Legal", "3.1 Corporate")
    assert _path_of(parsed, "No employee has brought") == (TITLE, "3 Legal", "3.3 Employment")
    assert _path_of(parsed, "expects growth") == (TITLE, "5 Outlook")
    # the running head on every page is page furniture, in no path
    assert all("strictly confidential" not in " ".join(c.heading_path)
               for c in chunk_document(parsed, deal_id="d", document_id="doc"))
    assert [s.location.label for s in parsed.sections] == ["p.1", "p.2", "p.3"]


def test_a_pdf_table_stands_under_its_caption_and_the_text_after_it_does_not(
    tmp_path: Path,
) -> None:
    parsed = parse_file(build_layout_pdf(tmp_path / "Falcon_Legal_Summary.pdf"))

    assert _path_of(parsed, "Revenue | 2024: 5,200") == (
        TITLE, "4 Financial statements", CAPTION)
    assert _path_of(parsed, "enterprise renewals") == (TITLE, "4 Financial statements")
    # a page starts under the path the previous page ended in, until its own first heading;
    # the running head on top stands with what follows it
    assert parsed.sections[2].heading_path == (TITLE, "4 Financial statements")
    assert _path_of(parsed, "auditor signed") == (TITLE, "4 Financial statements")
    assert parsed.sections[1].heading_path == (TITLE, "4 Financial statements")


def test_a_pdf_chunk_never_crosses_a_heading_and_keeps_the_heading_line(tmp_path: Path) -> None:
    parsed = parse_file(build_layout_pdf(tmp_path / "Falcon_Legal_Summary.pdf"))
    chunks = chunk_document(parsed, deal_id="d", document_id="doc")

    litigation = next(c for c in chunks if "former distributor" in c.text)
    assert [line for line in shown_text(litigation).split("\n") if line][:2] == [
        "3.2 Litigation", "Pending claims"]
    assert "3.3 Employment" not in litigation.text
    assert "3.1 Corporate" not in litigation.text
    # the page's text is all there, once, whatever the cuts
    first_page = [shown_text(c) for c in chunks if c.section == 0]
    assert "\n".join(first_page).replace("\n", "") == parsed.sections[0].text.replace("\n", "")


def test_numbered_and_capital_headings_are_found_in_a_pdf_set_in_one_font(
    tmp_path: Path,
) -> None:
    path = tmp_path / "minutes.pdf"
    canvas = Canvas(str(path), pagesize=A4)
    canvas.setFont("Helvetica", 10)
    y = A4[1] - 72
    for line in ["BOARD MINUTES", "The board met on 3 September 2024.", "1. Litigation",
                 "A former distributor claims EUR 2.3M in damages.", "2. Financing",
                 "The term loan was extended.", "Item 7A. Market Risk",
                 "The company is exposed to interest rates."]:
        canvas.drawString(72, y, line)
        y -= 14
    canvas.save()

    parsed = parse_file(path)

    # a line in capitals ranks with a numbered one (as in text files): they are siblings
    assert _path_of(parsed, "board met") == ("BOARD MINUTES",)
    assert _path_of(parsed, "former distributor") == ("1. Litigation",)
    assert _path_of(parsed, "term loan") == ("2. Financing",)
    assert _path_of(parsed, "interest rates") == ("Item 7A. Market Risk",)


def test_lists_contents_and_table_rows_are_not_headings() -> None:
    contents = "Contents\n1. Overview\n2. Litigation\n3. Financing\nThe overview follows."
    assert page_headings(contents, None) == []
    table = ("Assets | 2024 | 2023\nCash | 2024: 1,200 | 2023: 900\nNON-CURRENT\n"
             "Goodwill | 2024: 400 | 2023: 400\nDebtors | 2024: 300 | 2023: 250")
    assert page_headings(table, None) == []
    assert page_headings("Revenue grew 12% to EUR 5.2M\nin the quarter.", None) == []


def test_captions_leave_out_the_years_over_the_columns_and_lead_in_sentences() -> None:
    lines = ["Consolidated Statements of Cash Flows", "(millions) 2025 2024", "2025 | 2024",
             "Net earnings | 2025: 3,705 | 2024: 4,091",
             "Adjustments to reconcile net earnings:", "2025 | 2024",
             "Depreciation | 2025: 3,134 | 2024: 2,981", "Cash at year end was strong.",
             "The table below shows the split as follows:", "Region | 2025",
             "Europe | 2025: 10"]
    assert captioned_tables(lines) == [
        (0, 7, "Consolidated Statements of Cash Flows (millions)")]


def test_pdf_layout_text_is_pypdfs_own_layout_text(tmp_path: Path) -> None:
    """The layout read with fonts is the text `extract_text(extraction_mode="layout")` gives;
    with the pypdf this project installs, the fonts are read (not the fallback)."""
    assert pdf_layout.AVAILABLE
    for page in PdfReader(build_layout_pdf(tmp_path / "layout.pdf")).pages:
        drawn = pdf_layout.drawn_page(page)
        assert drawn is not None
        assert drawn[0] == page.extract_text(extraction_mode="layout")
        assert any(line.bold for line in drawn[1].prominent)


# ---------------------------------------------------------------- Word, Markdown, text


def test_docx_nested_headings_with_the_title_outermost_and_table_captions(
    tmp_path: Path,
) -> None:
    d = docx.Document()
    d.add_paragraph(TITLE, style="Title")
    d.add_heading("3 Legal", level=1)
    d.add_heading("3.2 Litigation", level=2)
    d.add_heading("Pending claims", level=3)
    d.add_paragraph(CLAIM)
    d.add_paragraph("Claims register")
    table = d.add_table(rows=2, cols=2)
    for c, (head, value) in enumerate((("Claimant", "Vertex"), ("Amount", "EUR 2.3M"))):
        table.cell(0, c).text = head
        table.cell(1, c).text = value
    d.add_heading("4 Finance", level=1)
    d.add_paragraph("Net debt was EUR 3.1M.")
    path = tmp_path / "Legal_Summary.docx"
    d.save(path)

    parsed = parse_file(path)

    paths = {s.location.label: s.heading_path for s in parsed.sections}
    assert paths == {
        "start of document": (TITLE,),
        "3 Legal > 3.2 Litigation > Pending claims": (
            TITLE, "3 Legal", "3.2 Litigation", "Pending claims"),
        "3 Legal > 3.2 Litigation > Pending claims (table 1)": (
            TITLE, "3 Legal", "3.2 Litigation", "Pending claims", "Claims register"),
        "4 Finance": (TITLE, "4 Finance"),
    }
    # the heading lines stay in the text
    assert parsed.sections[1].text.startswith("Pending claims\n")


def test_markdown_and_text_headings_nest(tmp_path: Path) -> None:
    md = tmp_path / "notes.md"
    md.write_text("# Legal summary\n\n## Litigation\n\n### Pending claims\n\n" + CLAIM + "\n")
    txt = tmp_path / "minutes.txt"
    txt.write_text("BOARD MINUTES\n\n1. LITIGATION\nThe claim is pending.\n\n"
                   "1.1 Vertex Claim\n" + CLAIM + "\n")

    assert _path_of(parse_file(md), "former distributor") == (
        "Legal summary", "Litigation", "Pending claims")
    assert _path_of(parse_file(txt), "former distributor") == (
        "1. LITIGATION", "1.1 Vertex Claim")


# ---------------------------------------------------------------- slides, sheets, e-mail


def test_slides_stand_under_their_titles_and_notes_under_their_slide(tmp_path: Path) -> None:
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Litigation"
    slide.placeholders[1].text_frame.text = "One claim is pending."
    slide.notes_slide.notes_text_frame.text = "Vertex claims EUR 2.3M."
    untitled = deck.slides.add_slide(deck.slide_layouts[6])
    box = untitled.shapes.add_textbox(0, 0, 100, 100)
    box.text_frame.text = "A slide without a title."
    path = tmp_path / "deck.pptx"
    deck.save(path)

    parsed = parse_file(path)

    assert [(s.location.label, s.heading_path) for s in parsed.sections] == [
        ("slide 1", ("Litigation",)), ("slide 1 notes", ("Litigation",)), ("slide 2", ())]


def test_sheets_stand_under_their_name_and_their_table_caption(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    pl = wb.active
    pl.title = "P&L"
    pl.append(["TargetCo — Profit and loss"])
    pl.append(["EUR thousands"])
    pl.append(["Line item", "Q3 2024"])
    pl.append(["Revenue", 5200])
    plain = wb.create_sheet("Customers")
    plain.append(["Customer", "Revenue"])
    plain.append(["Globex", 1900])
    path = tmp_path / "financials.xlsx"
    wb.save(path)
    csv_path = tmp_path / "leases.csv"
    csv_path.write_text("Lease schedule at 30 June 2024\nSite,Rent\nMunich,120\n")

    parsed = parse_file(path)

    assert [s.heading_path for s in parsed.sections] == [
        ("P&L", "TargetCo — Profit and loss — EUR thousands"), ("Customers",)]
    assert [s.heading_path for s in parse_file(csv_path).sections] == [
        ("Lease schedule at 30 June 2024",)]


def test_an_emails_text_stands_under_its_subject(tmp_path: Path) -> None:
    message = EmailMessage()
    message["From"] = "Counsel <counsel@example.com>"
    message["To"] = "Deal team <team@example.com>"
    message["Subject"] = "Vertex claim — update"
    message.set_content(CLAIM)
    path = tmp_path / "update.eml"
    path.write_bytes(message.as_bytes())

    parsed = parse_file(path)

    assert [s.heading_path for s in parsed.sections] == [("Vertex claim — update",)] * 2


# ---------------------------------------------------------------- chunking


def test_a_long_section_split_in_chunks_keeps_its_path_and_its_heading_line(
    tmp_path: Path,
) -> None:
    md = tmp_path / "long.md"
    md.write_text("# Legal summary\n\n## Litigation\n\n" + "\n\n".join([CLAIM] * 12) + "\n")
    parsed = parse_file(md)

    chunks = chunk_document(parsed, deal_id="d", document_id="doc", max_chars=600)

    litigation = [c for c in chunks if "former distributor" in c.text]
    assert len(litigation) > 3
    assert {c.heading_path for c in litigation} == {("Legal summary", "Litigation")}
    assert shown_text(litigation[0]).startswith("Litigation\n")


def test_heading_blocks_join_a_heading_alone_to_the_part_after_it() -> None:
    section = Section(
        text="Intro text.\n3 Legal\n3.1 Corporate\nA GmbH.\n3.2 Litigation\nA claim.",
        location=Location.for_page(1), heading_path=("Title",),
        heading_changes=[(1, ("Title", "3 Legal")), (2, ("Title", "3 Legal", "3.1 Corporate")),
                         (4, ("Title", "3 Legal", "3.2 Litigation"))])

    assert [(path, part.text) for path, part in heading_blocks(section)] == [
        (("Title",), "Intro text."),
        (("Title", "3 Legal", "3.1 Corporate"), "3 Legal\n3.1 Corporate\nA GmbH."),
        (("Title", "3 Legal", "3.2 Litigation"), "3.2 Litigation\nA claim."),
    ]
