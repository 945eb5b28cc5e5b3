"""Builds the sample reports as PDFs with fixed pages, fixed metadata dates and stable bytes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from io import BytesIO
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, StyleSheet1, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from manda.sample._pdfcrypt import encrypt_pdf

Page = Sequence[Flowable]


@dataclass(frozen=True)
class PdfMeta:
    """What a reader sees in the PDF's document properties."""

    title: str
    author: str
    subject: str
    issued: date  # written as the creation and modification date
    footer: str


def styles() -> StyleSheet1:
    sheet = getSampleStyleSheet()
    sheet.add(ParagraphStyle("Bullet1", parent=sheet["BodyText"], leftIndent=12,
                             bulletIndent=2, spaceAfter=3))
    sheet.add(ParagraphStyle("Small", parent=sheet["BodyText"], fontSize=8, leading=10,
                             textColor=colors.HexColor("#444444")))
    sheet.add(ParagraphStyle("Notice", parent=sheet["BodyText"], borderColor=colors.black,
                             borderWidth=0.8, borderPadding=6, spaceBefore=6, spaceAfter=10,
                             backColor=colors.HexColor("#F4F4F4")))
    return sheet


STYLES = styles()


def para(text: str, style: str = "BodyText") -> Paragraph:
    return Paragraph(text, STYLES[style])


def bullets(items: Sequence[str]) -> list[Flowable]:
    return [Paragraph(item, STYLES["Bullet1"], bulletText="•") for item in items]


def table(rows: Sequence[Sequence[str]], widths: Sequence[float] | None = None,
          *, bold_rows: Sequence[int] = ()) -> Table:
    """A grid with a bold header row and right-aligned figures."""
    data = [list(row) for row in rows]
    col_widths = [w * mm for w in widths] if widths else None
    style = [
        ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#DDE4EE")),
        ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
        ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]
    style += [("FONTNAME", (0, r), (-1, r), "Helvetica-Bold") for r in bold_rows]
    return Table(data, colWidths=col_widths, style=TableStyle(style), hAlign="LEFT")


def spacer(height_mm: float = 4) -> Spacer:
    return Spacer(1, height_mm * mm)


def write_pdf(path: Path, pages: Sequence[Page], meta: PdfMeta,
              *, owner_password: str | None = None) -> None:
    """Write one PDF page per entry of `pages`; encrypt it (empty user password) if asked."""
    buffer = BytesIO()
    stamp = f"D:{meta.issued:%Y%m%d}090000+00'00'"

    def on_page(canvas: Canvas, doc: BaseDocTemplate) -> None:
        canvas.setDateFormatter(lambda *_: stamp)

    def footer(canvas: Canvas, doc: BaseDocTemplate) -> None:
        # Drawn after the content, so text extraction reads the page before its footer.
        canvas.setFont("Helvetica", 8)
        canvas.drawString(20 * mm, 12 * mm, meta.footer)
        canvas.drawRightString(190 * mm, 12 * mm, f"Page {doc.page} of {len(pages)}")

    doc = BaseDocTemplate(
        buffer, pagesize=A4, invariant=1, pageCompression=0,
        title=meta.title, author=meta.author, subject=meta.subject, creator=meta.author,
    )
    frame = Frame(20 * mm, 20 * mm, A4[0] - 40 * mm, A4[1] - 38 * mm, id="body")
    doc.addPageTemplates([PageTemplate("page", [frame], onPage=on_page, onPageEnd=footer)])
    story: list[Flowable] = []
    for number, page in enumerate(pages):
        if number:
            story.append(PageBreak())
        story.extend(page)
    doc.build(story)
    if doc.page != len(pages):
        raise RuntimeError(
            f"{path.name}: content overflowed to {doc.page} pages instead of {len(pages)}; "
            "shorten a page so each logical page fits on one A4 sheet"
        )
    data = buffer.getvalue()
    if owner_password is not None:
        data = encrypt_pdf(data, owner_password=owner_password)
    path.write_bytes(data)


def company_meta(company: str, title: str, issued: date, author: str | None = None) -> PdfMeta:
    """A company document's properties, with its name and the title in every page's footer."""
    return PdfMeta(title=title, author=author or company, subject=title, issued=issued,
                   footer=f"{company} — {title}")
