"""Word documents as sections under their heading path (`Legal > Litigation`), tables on their own.

The body is walked in XML order so paragraphs and tables keep their order; content controls
(`w:sdt`) are opened, tracked deletions are left out and text boxes are read once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import docx
from docx.oxml.ns import qn
from docx.text.paragraph import Paragraph
from lxml import etree

from manda.ingest.parsers.base import Outline, ParseLimits, one_line
from manda.models import ParsedDocument

_P, _TBL, _SDT, _SDT_CONTENT = qn("w:p"), qn("w:tbl"), qn("w:sdt"), qn("w:sdtContent")
_TR, _TC, _T, _TAB = qn("w:tr"), qn("w:tc"), qn("w:t"), qn("w:tab")
_BR, _CR = qn("w:br"), qn("w:cr")
_SKIP = {qn("w:del"), qn("w:delText"), qn("w:instrText"),
         "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"}
_HEADING_STYLE = re.compile(r"heading\s*(\d)", re.IGNORECASE)


def parse_docx(path: Path, filename: str, limits: ParseLimits) -> ParsedDocument:
    del limits  # the container was size-checked in detect
    document = docx.Document(str(path))
    outline = Outline()
    title_style: str | None = None
    first_heading: str | None = None
    for element in _blocks(document.element.body):
        if element.tag == _TBL:
            rows = _table_rows(element)
            if rows:
                outline.table(rows)
            continue
        text = _text_of(element).strip()
        if not text:
            continue
        level = _heading_level(Paragraph(element, document))
        if level == 0:  # a Title paragraph: the document's name, kept as text too
            title_style = title_style or one_line(text)
            outline.titled(text)
        elif level is not None:
            first_heading = first_heading or one_line(text)
            outline.heading(level, one_line(text))
        else:
            outline.line(text)
    sections = outline.sections()
    core_title = (document.core_properties.title or "").strip()
    return ParsedDocument(
        filename=filename,
        file_type="docx",
        sections=sections,
        units=len(sections),
        title=core_title or title_style or first_heading,
    )


def _blocks(container: etree._Element) -> Iterator[etree._Element]:
    """Paragraphs and tables in document order, looking inside content controls."""
    for child in container:
        if child.tag in (_P, _TBL):
            yield child
        elif child.tag == _SDT:
            content = child.find(_SDT_CONTENT)
            if content is not None:
                yield from _blocks(content)


def _text_of(element: etree._Element) -> str:
    """Visible text of a paragraph or cell: runs, hyperlinks, insertions; no deletions."""
    parts: list[str] = []

    def walk(node: etree._Element) -> None:
        for child in node:
            tag = child.tag
            if tag in _SKIP:
                continue
            if tag == _T:
                parts.append(child.text or "")
            elif tag == _TAB:
                parts.append(" ")
            elif tag in (_BR, _CR):
                parts.append("\n")
            elif tag == _P and parts and not parts[-1].endswith("\n"):
                parts.append("\n")
                walk(child)
            else:
                walk(child)

    walk(element)
    return "".join(parts)


def _table_rows(tbl: etree._Element) -> list[list[str]]:
    """Rows of cell texts; a horizontally merged cell appears once, empty rows are dropped."""
    rows: list[list[str]] = []
    for tr in tbl.iter(_TR):
        if tr.getparent() is not tbl:
            continue  # a row of a table nested inside a cell
        cells = [one_line(_text_of(tc)) for tc in tr if tc.tag == _TC]
        if any(cells):
            rows.append(cells)
    width = max((len(r) for r in rows), default=0)
    return [r + [""] * (width - len(r)) for r in rows]


def _heading_level(paragraph: Paragraph) -> int | None:
    """0 for a Title, 1-9 for headings (by style, its base styles, or outline level)."""
    style = paragraph.style
    for _ in range(5):
        if style is None:
            break
        name = style.name or ""
        if name.lower() == "title":
            return 0
        match = _HEADING_STYLE.fullmatch(name.strip())
        if match:
            return int(match.group(1))
        style = style.base_style
    ppr = paragraph._p.pPr
    outline = ppr.find(qn("w:outlineLvl")) if ppr is not None else None
    if outline is not None:
        level = int(outline.get(qn("w:val"), "9"))
        if level < 9:
            return level + 1
    return None
