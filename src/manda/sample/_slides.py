"""Adds the slides the sample decks are made of: a title with bullet lines, a title with a table."""

from __future__ import annotations

from collections.abc import Sequence

from pptx.presentation import Presentation
from pptx.util import Inches, Pt


def bullet_slide(prs: Presentation, heading: str, lines: Sequence[str], *,
                 notes: str | None = None, size: int | None = None) -> None:
    """A slide titled `heading` with one bullet per line, and speaker notes if given."""
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    slide.shapes.title.text = heading
    body = slide.placeholders[1].text_frame
    body.text = lines[0]
    for line in lines[1:]:
        body.add_paragraph().text = line
    if size is not None:
        for paragraph in body.paragraphs:
            for run in paragraph.runs:
                run.font.size = Pt(size)
    if notes:
        slide.notes_slide.notes_text_frame.text = notes


def table_slide(prs: Presentation, heading: str, rows: Sequence[Sequence[str]], *,
                size: int = 12) -> None:
    """A slide titled `heading` holding one table of `rows` (the first is the header)."""
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = heading
    shape = slide.shapes.add_table(len(rows), len(rows[0]), Inches(0.4), Inches(1.5),
                                   Inches(9.2), Inches(4.6))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            cell = shape.table.cell(r, c)
            cell.text = value
            cell.text_frame.paragraphs[0].runs[0].font.size = Pt(size)
