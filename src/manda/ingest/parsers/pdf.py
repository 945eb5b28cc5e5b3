"""PDF pages as sections (`p.N`); table rows stay on one line so numbers keep their labels.

Each page knows the heading path it starts under and where a heading on it starts another
(`manda.ingest.parsers.headings`: headings found by font size and weight, numbering and place).

A page with no text layer (a scan) is read by OCR (`manda.ingest.ocr`) and cited as `p.N, OCR`;
at most `ocr_max_pages` pages per document, each within `ocr_page_timeout` seconds. What OCR did
(engine, pages read, pages left, mean confidence) is kept in the document's metadata.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from pypdf import PasswordType, PdfReader
from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError, PdfStreamError

from manda.ingest.parsers.base import (
    ParseLimits,
    check_count,
    clean_block,
    human_size,
    label_text_tables,
    over_limit,
    short_detail,
    spaced_pages,
    unreadable,
)
from manda.ingest.parsers.flowed import flowed_pages
from manda.ingest.parsers.folios import folios_apart
from manda.ingest.parsers.headings import PageFonts, page_headings, place_headings
from manda.ingest.parsers.parts import part_columns
from manda.ingest.parsers.pdf_layout import drawn_page
from manda.ingest.parsers.records import recorded_text
from manda.ingest.parsers.sidebyside import side_by_side_pages
from manda.ingest.parsers.stacked import stacked_pages
from manda.ingest.parsers.staggered import staggered_text
from manda.ingest.parsers.titles import dated_tables, titled_rows
from manda.models import Location, ParsedDocument, Section

log = logging.getLogger(__name__)

_COLUMN_GAP = re.compile(r"\s{3,}")
# Bullet glyphs come out of many fonts as control or private-use characters.
_BULLET = re.compile(r"^[\x7f\x95\u2022\u25aa\u25cf\u25e6\uf0a7\uf0b7\uf0d8]\s*")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_BOILERPLATE_TITLES = ("untitled", "microsoft word", "microsoft powerpoint", "slide 1")
_PROTECTED = "is password-protected; ask the seller for an unprotected copy"
_BROKEN = (PdfReadError, PdfStreamError, ValueError, KeyError, TypeError, AttributeError)


SCANNED_CHARS = 20  # a page with fewer characters in its text layer is taken for a scan


def parse_pdf(path: Path, filename: str, limits: ParseLimits) -> ParsedDocument:
    reader = _open(path, filename)
    try:
        # the page tree's declared count first (walking a 100k-page tree takes a minute), then
        # the pages actually found, in case the count lies
        check_count(filename, _declared_pages(reader), limits.max_pages, "pages", "max_pages")
        pages = list(reader.pages)
        check_count(filename, len(pages), limits.max_pages, "pages", "max_pages")
    except FileNotDecryptedError:
        raise unreadable(filename, _PROTECTED) from None
    except _BROKEN as exc:
        raise _corrupt(filename, exc) from exc
    sections: list[Section] = []
    fonts: list[PageFonts | None] = []
    failures = 0
    characters = 0
    for number, page in enumerate(pages, start=1):
        _check_content_size(page, filename, number, limits)
        read = _page_text(page, filename, number)
        if read is None:
            failures += 1
            read = "", None
        text, page_fonts = read
        characters += len(text)
        check_count(filename, characters, limits.max_characters, "characters", "max_characters")
        sections.append(Section(text=text, location=Location.for_page(number)))
        fonts.append(page_fonts)
    if pages and failures == len(pages):
        raise unreadable(filename, "is corrupt: no page could be read; ask for a fresh copy")
    # tables set side by side read one after the other (`parsers.sidebyside`), once each
    # page's folio glued onto its last line is on a line of its own (`parsers.folios`)
    texts = spaced_pages(part_columns(stacked_pages(side_by_side_pages(
        flowed_pages(folios_apart([s.text for s in sections]))))))
    # a staggered table's rows re-cut, each label with its figures (`parsers.staggered`); a
    # table of records read under its column titles (`parsers.records`); labelled rows and
    # two-level headers under titles written without column gaps (`parsers.titles`)
    sections = [Section(text=dated_tables(titled_rows(recorded_text(staggered_text(
                            label_text_tables(text))))),
                        location=s.location)
                for s, text in zip(sections, texts, strict=True)]
    scanned = [i for i, s in enumerate(sections) if len("".join(s.text.split())) < SCANNED_CHARS]
    metadata = _ocr(path, filename, sections, scanned, limits) if scanned else {}
    marks = [page_headings(s.text, None if s.location.ocr else f)  # a scan's fonts are unknown
             for s, f in zip(sections, fonts, strict=True)]
    place_headings(sections, marks)
    return ParsedDocument(
        filename=filename,
        file_type="pdf",
        sections=sections,
        units=len(pages),
        title=_metadata_title(reader),
        metadata=metadata,
    )


def _ocr(
    path: Path, filename: str, sections: list[Section], scanned: list[int], limits: ParseLimits
) -> dict[str, str]:
    """Read the scanned pages with the OCR engine, in place; what was done, for the metadata."""
    from manda.ingest.ocr import RENDER_DPI, OcrTimeout, ocr_engine

    engine = ocr_engine(limits.ocr)
    if engine is None:
        if not any(s.text.strip() for s in sections):
            raise unreadable(filename, _no_ocr_reason(limits.ocr))
        return {}
    import pypdfium2 as pdfium

    budget = scanned[: limits.ocr_max_pages]
    read: list[int] = []
    timed_out: list[int] = []
    confidences: list[float] = []
    document = pdfium.PdfDocument(str(path))
    try:
        for index in budget:
            page = document[index]
            try:
                image = page.render(scale=RENDER_DPI / 72, grayscale=True).to_pil()
            finally:
                page.close()
            try:
                result = engine.read(image, limits.ocr_page_timeout)
            except OcrTimeout:
                log.warning("%s: OCR of page %d passed %.0fs; left out", filename, index + 1,
                            limits.ocr_page_timeout)
                timed_out.append(index + 1)
                continue
            text = clean_block(result.text)
            if text:
                sections[index] = Section(text=text, location=Location.for_page(index + 1,
                                                                                ocr=True))
                read.append(index + 1)
                confidences.append(result.confidence)
    finally:
        document.close()
    metadata = {"ocr_engine": engine.name, "ocr_pages": str(len(read))}
    if confidences:
        metadata["ocr_confidence"] = f"{sum(confidences) / len(confidences):.2f}"
    left = scanned[limits.ocr_max_pages :]
    if left:
        metadata["ocr_not_read"] = (
            f"{len(left):,} scanned pages past the {limits.ocr_max_pages:,}-page OCR budget "
            f"(p.{left[0] + 1}-{left[-1] + 1}; MANDA_OCR_MAX_PAGES)"
        )
        log.warning("%s: %s", filename, metadata["ocr_not_read"])
    if timed_out:
        metadata["ocr_timed_out"] = ", ".join(f"p.{n}" for n in timed_out)
    return metadata


def _no_ocr_reason(preference: str) -> str:
    if preference == "off":
        return ("contains no readable text: its pages are scanned images and OCR is off "
                "(MANDA_OCR=off); ask for a text PDF or turn OCR on")
    return ("contains no readable text: its pages are scanned images and no OCR engine is "
            "installed (`apt-get install tesseract-ocr`); ask for a text PDF or install one")


def _open(path: Path, filename: str) -> PdfReader:
    try:
        reader = PdfReader(path, strict=False)
        if reader.is_encrypted and reader.decrypt("") == PasswordType.NOT_DECRYPTED:
            raise unreadable(filename, _PROTECTED)
    except DependencyError as exc:  # an encryption scheme pypdf needs an extra library for
        reason = f"uses an encryption Manda cannot open ({short_detail(exc)})"
        raise unreadable(filename, reason) from exc
    except _BROKEN as exc:
        raise _corrupt(filename, exc) from exc
    return reader


def _corrupt(filename: str, exc: Exception) -> Exception:
    reason = f"is corrupt: damaged PDF ({short_detail(exc)}); ask for a fresh copy"
    return unreadable(filename, reason)


def _declared_pages(reader: PdfReader) -> int:
    try:
        return int(reader.trailer["/Root"]["/Pages"]["/Count"])  # type: ignore[index]
    except Exception:  # no usable count: the pages are counted as they are found
        return 0


def _check_content_size(page: object, filename: str, number: int, limits: ParseLimits) -> None:
    """A page whose drawing instructions inflate past the limit is refused before it is read
    (a few KB can hold hundreds of thousands of text operators that take minutes to lay out)."""
    try:
        contents = page.get_contents()  # type: ignore[attr-defined]
        data = contents.get_data() if contents is not None else b""
    except Exception:  # a damaged stream: _page_text reports the page
        return
    if len(data) > limits.max_page_content_bytes:
        raise over_limit(
            filename,
            f"has a page (p.{number}) of {human_size(len(data))} of drawing instructions",
            human_size(limits.max_page_content_bytes),
            None,
        )
    # text-showing operators (Tj, TJ, ', "): what text layout costs, counted at C speed
    shown = data.count(b"Tj") + data.count(b"TJ") + data.count(b"' ") + data.count(b'" ')
    if shown > limits.max_page_text_operators:
        raise over_limit(
            filename,
            f"has a page (p.{number}) with {shown:,} text operators",
            f"{limits.max_page_text_operators:,}-operator",
            None,
        )


def _page_text(page: object, filename: str, number: int) -> tuple[str, PageFonts | None] | None:
    """The page's text in layout order, and what its layout says about its lines' fonts; runs
    of 3+ spaces (table columns) become ` | ` (`parse_pdf` writes table rows with their column
    headers once the document's flowed tables are put in rows)."""
    fonts: PageFonts | None = None
    try:
        drawn = drawn_page(page)
        if drawn is None:
            raw = page.extract_text(extraction_mode="layout")  # type: ignore[attr-defined]
        else:
            raw, fonts = drawn
    except Exception:  # layout mode trips on some fonts; plain mode is the fallback
        try:
            raw = page.extract_text()  # type: ignore[attr-defined]
        except Exception as exc:  # one damaged page must not lose the others
            log.warning("%s: page %d could not be read: %s", filename, number, exc)
            return None
    lines = _align_columns([_CONTROL.sub("", line) for line in (raw or "").split("\n")])
    # Layout mode puts a blank line between table rows; keep a table's rows together.
    kept = [
        line
        for i, line in enumerate(lines)
        if line or not (0 < i < len(lines) - 1 and " | " in lines[i - 1] and " | " in lines[i + 1])
    ]
    return clean_block("\n".join(kept)), fonts


Span = tuple[int, int, str]  # where a cell starts and ends on its layout line, and its text
_CELL = re.compile(r"\S+(?:\s{1,2}\S+)*")  # a cell: words apart by fewer than 3 spaces
LABEL_SLACK = 2  # a row's first cell starting this near the table's left edge is its label


def _align_columns(lines: list[str]) -> list[str]:
    """Tidied lines; in a table, a row with blank cells keeps them (`Cost of sales |  | (9,230)`).

    Layout mode drops a blank cell's text but keeps every figure where its column is, so a row
    with fewer cells than the table is re-aligned by where its cells sit on the line: each goes
    to the column whose full-width rows overlap it most. Without this a blank "Note" cell would
    shift every figure of the row one column to the left.
    """
    spans = [[(m.start(), m.end(), m.group()) for m in _CELL.finditer(line)] for line in lines]
    out = [_tidy(line) for line in lines]
    i = 0
    while i < len(lines):
        block = []  # indexes of the table's rows; the blank lines between them do not end it
        j = i
        while j < len(lines) and (len(spans[j]) >= 2 or (not spans[j] and block
                                                          and j + 1 < len(lines)
                                                          and len(spans[j + 1]) >= 2)):
            if spans[j]:
                block.append(j)
            j += 1
        if len(block) >= 2:
            for k, cells in _realigned(block, spans).items():
                out[k] = " | ".join(cells)
        i = max(j, i + 1)
    return out


def _realigned(block: list[int], spans: list[list[Span]]) -> dict[int, list[str]]:
    """The rows of one table that lack cells, with a blank string where each missing cell is."""
    width = max(len(spans[k]) for k in block)
    full = [spans[k] for k in block if len(spans[k]) == width]
    columns = [(min(r[c][0] for r in full), max(r[c][1] for r in full)) for c in range(width)]
    rows: dict[int, list[str]] = {}
    for k in block:
        row = spans[k]
        if len(row) == width or abs(row[0][0] - columns[0][0]) > LABEL_SLACK:
            continue  # complete, or no label in the first column (a header over the figures)
        cells = [""] * width
        cells[0] = _tidy(row[0][2])
        last = 0
        for start, end, text in row[1:]:
            col = max(range(1, width), key=lambda c: (
                min(end, columns[c][1]) - max(start, columns[c][0]),
                -abs((start + end) - sum(columns[c]))))
            if col <= last:
                break  # two cells in one column: the row is not read against this grid
            cells[col], last = _tidy(text), col
        else:
            rows[k] = cells
    return rows


def _tidy(line: str) -> str:
    line = _BULLET.sub("• ", line.strip())
    return _COLUMN_GAP.sub(" | ", _CONTROL.sub("", line))


def _metadata_title(reader: PdfReader) -> str | None:
    try:
        title = reader.metadata.title if reader.metadata else None
    except Exception:  # broken metadata is not worth failing the file for
        return None
    if not title or not isinstance(title, str):
        return None
    title = " ".join(title.split())
    if not title or title.lower().startswith(_BOILERPLATE_TITLES) or title.lower().endswith(".pdf"):
        return None
    return title
