"""Limits and small helpers every parser shares: sizes for people, text decoding, table lines."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

from manda.errors import UnreadableFileError
from manda.ingest.parsers.layout import caption_heading, table_shape
from manda.ingest.parsers.titles import grouped_header
from manda.models import HeadingPath, Location, Section
from manda.vocabulary import vocabulary
from manda.vocabulary.numbers import CURRENCY_WORDS, alternatives, number_words

if TYPE_CHECKING:
    from manda.config import Settings

MB = 2**20

# Where a section has no heading of its own (text before the first heading).
START_OF_DOCUMENT = "start of document"


@dataclass(frozen=True)
class ParseLimits:
    """How much a single file may cost to read; beyond any of these it is refused, by name, with
    the limit it hit. Every parser receives one: a new parser checks the counts that apply to it
    (`check_count`) before it builds anything whose size the file decides.

    `max_seconds` and `max_memory_mb` bound the worker process a file is read in
    (`manda.ingest.sandbox`); the others are checked by the parsers themselves.
    """

    max_bytes: int = 100 * MB
    max_uncompressed_bytes: int = 500 * MB
    max_sheet_rows: int = 200_000
    max_pages: int = 20_000  # PDF pages, slides (a 10,000-page scan archive is read, OCR budgeted)
    max_cells: int = 1_000_000  # non-empty cells in a workbook (every sheet)
    max_characters: int = 16_000_000  # text read from one file
    max_xml_part_bytes: int = 64 * MB  # one part of an Office file, inflated
    max_xml_elements: int = 1_000_000  # in one Office XML part: its tree's size, before it is built
    max_page_content_bytes: int = 16 * MB  # one PDF page's drawing instructions, inflated
    max_page_text_operators: int = 50_000  # text-showing operators on one PDF page
    max_seconds: float = 300.0
    max_memory_mb: int = 2048
    # a whole upload (batch): seconds of reading, each task counting the larger of its wall and
    # CPU time; and how many reader processes this process runs (so deals do not wait in line)
    max_upload_seconds: float = 1800.0
    max_readers: int = 2
    # archives (ZIP exports) and e-mail attachments, per ingestion batch
    max_archive_depth: int = 3  # a ZIP in a ZIP in a ZIP; deeper ones are skipped
    max_archive_files: int = 10_000
    max_archive_bytes: int = 2048 * MB  # written out, all archives of the batch together
    # scanned pages: which OCR engine (auto, tesseract, rapidocr, off), how many pages per
    # document, how long one page may take
    ocr: str = "auto"
    ocr_max_pages: int = 100
    ocr_page_timeout: float = 30.0

    @classmethod
    def from_settings(cls, settings: Settings) -> ParseLimits:
        return cls(
            max_bytes=int(settings.max_file_mb * MB),
            max_uncompressed_bytes=int(settings.max_uncompressed_mb * MB),
            max_sheet_rows=settings.max_sheet_rows,
            max_pages=settings.max_pages,
            max_cells=settings.max_cells,
            max_characters=settings.max_characters,
            max_xml_part_bytes=int(settings.max_xml_part_mb * MB),
            max_seconds=settings.ingest_timeout_seconds,
            max_memory_mb=settings.ingest_memory_mb,
            max_upload_seconds=settings.max_upload_seconds,
            max_readers=settings.ingest_readers,
            max_archive_depth=settings.max_archive_depth,
            max_archive_files=settings.max_archive_files,
            max_archive_bytes=int(settings.max_archive_mb * MB),
            ocr=settings.ocr,
            ocr_max_pages=settings.ocr_max_pages,
            ocr_page_timeout=settings.ocr_page_timeout,
        )


# What each limit is called where a person can raise it.
LIMIT_SETTINGS = {
    "max_pages": "MANDA_MAX_PAGES",
    "max_cells": "MANDA_MAX_CELLS",
    "max_characters": "MANDA_MAX_CHARACTERS",
    "max_xml_part_bytes": "MANDA_MAX_XML_PART_MB",
    "max_seconds": "MANDA_INGEST_TIMEOUT",
    "max_memory_mb": "MANDA_INGEST_MEMORY_MB",
    "max_upload_seconds": "MANDA_MAX_UPLOAD_SECONDS",
}


def over_limit(filename: str, what: str, limit: str, setting: str | None) -> UnreadableFileError:
    """A file refused for a limit: `has more than 20,000 pages (limit MANDA_MAX_PAGES)…`."""
    raise_it = (
        f"; split it, or raise {setting} if it is genuine"
        if setting
        else "; split it into smaller files"
    )
    return unreadable(filename, f"{what}, over the {limit} limit{raise_it}")


def out_of_memory(limits: ParseLimits) -> str:
    """Why a file that ran out of memory was refused, naming the setting that bounds it."""
    return (
        f"needed more than {limits.max_memory_mb:,} MB of memory to read, over the limit; "
        f"split it, or raise {LIMIT_SETTINGS['max_memory_mb']} if it is genuine"
    )


def check_count(filename: str, count: int, limit: int, noun: str, key: str) -> None:
    """Refuse the file once `count` of `noun` (pages, cells, characters…) passes `limit`."""
    if count > limit:
        raise over_limit(
            filename, f"has more than {limit:,} {noun}", f"{limit:,}-{noun}",
            LIMIT_SETTINGS.get(key),
        )


DEFAULT_LIMITS = ParseLimits()


def unreadable(filename: str, reason: str) -> UnreadableFileError:
    """The error for a file that cannot be ingested; `reason` reads after the filename."""
    return UnreadableFileError(filename, reason)


def human_size(n: int) -> str:
    """`210 MB`, `1.5 MB`, `2 KB`, `17 bytes`: a size as a person would say it."""
    for unit, factor in (("GB", 2**30), ("MB", MB), ("KB", 2**10)):
        if n >= factor:
            value = n / factor
            text = f"{value:.1f}" if value < 10 else f"{value:.0f}"
            return f"{text.removesuffix('.0')} {unit}"
    return f"{n} bytes" if n != 1 else "1 byte"


def short_detail(exc: BaseException, limit: int = 120) -> str:
    """One line about an exception, short enough for a Slack message."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# ---------------------------------------------------------------- text


_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


def decode_text(data: bytes) -> str:
    """Decode a text file: BOM first, then UTF-8, then Windows-1252 (never fails)."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data.decode(encoding, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def clean_block(text: str) -> str:
    """Trim trailing spaces on each line and collapse runs of blank lines to one."""
    lines = [line.rstrip() for line in normalise_newlines(text).split("\n")]
    out: list[str] = []
    for line in lines:
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)


def one_line(text: str) -> str:
    """A cell's text on one line (tables render one row per line)."""
    return " ".join(text.split())


# ---------------------------------------------------------------- tables


def row_line(header: list[str] | None, row: list[str]) -> str:
    """`Revenue | Q1 2024: 4,600 | Q2 2024: 4,900`: each cell paired with its column header.

    The first column is the row's label and stands alone; empty cells are left out.
    """
    parts: list[str] = []
    for i, cell in enumerate(row):
        if not cell:
            continue
        label = header[i] if header is not None and i < len(header) else ""
        if i == 0 or not label or label == cell:
            parts.append(cell)
        else:
            parts.append(f"{label}: {cell}")
    return " | ".join(parts)


def table_text(rows: list[list[str]], notes: list[str] | None = None, *,
               has_header: bool = True) -> str:
    """A table section's text: notes, the header line, then one line per data row.

    The chunker relies on this shape: the last `len(rows) - 1` lines are the data rows, in order.
    """
    lines = [one_line(n) for n in notes or [] if n.strip()]
    if not rows:
        return "\n".join(lines)
    if has_header:
        header = [one_line(c) for c in rows[0]]
        lines.append(" | ".join(c for c in header if c))
        lines.extend(row_line(header, [one_line(c) for c in row]) for row in rows[1:])
    else:
        lines.extend(row_line(None, [one_line(c) for c in row]) for row in rows)
    return "\n".join(lines)


def shaped_table(rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """(notes, table): title and unit rows above the header become notes, and a header over
    several rows is folded into one, so the table's first row names every column."""
    if len(rows) < 2:
        return [], rows
    width = max(len(r) for r in rows)
    padded = [r + [""] * (width - len(r)) for r in rows]
    shape = table_shape(padded)
    notes = [" | ".join(c for c in row if c.strip()) for row in padded[: shape.header_start]]
    return notes, [shape.header, *padded[shape.data_start :]]


def label_text_tables(text: str) -> str:
    """Table rows a PDF holds as `Revenue | 5,200 | 4,700` lines, rewritten with their column
    headers (`Revenue | Q3 2024: 5,200 | Q3 2023: 4,700`) so no row reads without them.

    A block is a run of two or more ` | ` lines; its header is found as in any table (see
    `layout.table_shape`), aligned to the right when its corner cell is blank. Rows whose cell
    count does not fit the header are left as they are.
    """
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and " | " in lines[j] and not lines[j].lstrip().startswith("|"):
            j += 1
        if j - i < 2:
            out.append(lines[i])
            i += 1
            continue
        out.extend(_label_block(lines[i:j]))
        i = j
    return "\n".join(out)


_CELL_SEP = re.compile(r" \|(?: |$)")


def _label_block(block: list[str]) -> list[str]:
    # A trailing " |" is a blank last cell (a PDF row with no prior-year figure).
    rows = [[c.strip() for c in _CELL_SEP.split(line.rstrip())] for line in block]
    if any(": " in c for row in rows for c in row[1:]):
        return block  # already labelled
    width = max(len(r) for r in rows)
    shape = table_shape([r + [""] * (width - len(r)) for r in rows])
    header = [c for c in shape.header if c]
    if len(header) == width - 1:
        header = ["", *header]
    if len(header) != width or shape.data_start >= len(rows):
        return block
    labelled = [row_line(header, row) if len(row) == width else line
                for row, line in zip(rows[shape.data_start :], block[shape.data_start :],
                                     strict=True)]
    return [*block[: shape.data_start], *labelled]


def looks_like_title(line: str) -> bool:
    """A short line that reads like a title rather than a sentence."""
    words = line.split()
    return 0 < len(words) <= 16 and len(line) <= 120 and not line.endswith((".", ";", ","))


def first_title_line(text: str) -> str | None:
    for line in text.split("\n"):
        line = line.strip()
        if line:
            return line if looks_like_title(line) else None
    return None


# ---------------------------------------------------------------- heading outlines


def heading_labels(paths: Sequence[HeadingPath]) -> list[str]:
    """`Legal Summary > Litigation` per heading path.

    When every section sits under one and the same top heading (a document whose first heading
    is its title), that heading is left out of its descendants' labels to keep citations short.
    """
    roots = {path[0] for path in paths if path}
    drop_root = len(roots) == 1 and any(len(path) > 1 for path in paths)
    labels: list[str] = []
    for path in paths:
        if not path:
            labels.append(START_OF_DOCUMENT)
        elif drop_root and len(path) > 1:
            labels.append(" > ".join(path[1:]))
        else:
            labels.append(" > ".join(path))
    return labels


@dataclass
class Outline:
    """Sections under a stack of headings, fed in reading order; labels are settled at the end."""

    stack: list[tuple[int, str]] = field(default_factory=list)
    buffer: list[str] = field(default_factory=list)
    # (path, table number under it, text, table rows, table caption)
    entries: list[tuple[HeadingPath, int | None, str, list[list[str]] | None, str]] = field(
        default_factory=list
    )
    tables_under: dict[HeadingPath, int] = field(default_factory=dict)
    title: str | None = None  # the document's title (a Word "Title"), outermost in every path

    @property
    def path(self) -> HeadingPath:
        return tuple(text for _, text in self.stack)

    def titled(self, text: str) -> None:
        """A title line, kept as text where it stands; the first, before any heading, is the
        document's title."""
        if self.title is None and not self.stack and not self.entries:
            self.title = one_line(text)
        self.line(text)

    def heading(self, level: int, text: str) -> None:
        self.flush()
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, text))
        self.buffer = [text]

    def line(self, text: str) -> None:
        self.buffer.append(text)

    def table(self, rows: list[list[str]]) -> None:
        """A table is a section of its own, numbered under its heading: `Litigation (table 2)`,
        standing under its caption too (the line just above it, else a title row of its own)."""
        above = [line for line in self.buffer if line.strip()][-1:]
        if self.stack and above == [self.stack[-1][1]]:
            above = []  # the heading itself: the table stands under it already
        self.flush()
        path = self.path
        self.tables_under[path] = self.tables_under.get(path, 0) + 1
        notes, table = shaped_table(rows)
        caption = caption_heading(above) or caption_heading(notes)
        self.entries.append((path, self.tables_under[path], table_text(table, notes), table,
                             caption))

    def flush(self) -> None:
        text = clean_block("\n".join(self.buffer))
        heading_only = bool(self.stack) and text == self.stack[-1][1]
        if text and not heading_only:
            self.entries.append((self.path, None, text, None, ""))
        self.buffer = []

    def sections(self) -> list[Section]:
        self.flush()
        labels = heading_labels([path for path, _, _, _, _ in self.entries])
        out: list[Section] = []
        for label, (path, table_no, text, rows, caption) in zip(labels, self.entries,
                                                                 strict=True):
            if table_no is not None:
                label = f"{label} (table {table_no})"
            path = (self.title, *path) if self.title else path
            out.append(Section(text=text, location=Location.for_section(label), table=rows,
                               heading_path=(*path, caption) if caption else path))
        return out


# ---------------------------------------------------------------- statements in plain text
# A financial statement whose PDF text has lost its column gaps (plain-mode extraction, a
# re-typeset filing) reads "Net income $30,425 $59,248 $77,670" under a line of years
# "2023 2024 2025": one value per year, nothing to say which. Such rows are cut into cells and
# written with their years, as a table with column gaps would be.

# "(dollars in millions)", "(en milliers d'euros)": a caption in brackets naming a unit, in
# any language's scale, currency or unit-lead words (manda.vocabulary.numbers)
_UNIT_WORDS = alternatives([*(w for lang in number_words() for ws in lang.scales.values()
                              for w in ws), *CURRENCY_WORDS, *vocabulary().words("unit_lead")])
_CAPTION_LEAD = re.compile(rf"^\((?=[^()]*(?<!\w)(?:{_UNIT_WORDS})(?!\w))[^()]*\)\s*",
                           re.IGNORECASE)
_HEADER_CELL = re.compile(
    r"[A-Z][a-z]{2,8}\.? \d{1,2}, ?(?:19|20)\d\d"  # September 27, 2025
    r"|(?:FY ?)?(?:19|20)\d\d(?:/(?:19|20)\d\d)?(?:\([a-z]\))?"  # 2025, FY2025, 2025/2024, 2023(a)
    r"|Change|\$|%")
# a value, or a dash for none ("—", "—%": a change column's nil)
_VALUE = re.compile(r"^\(?[-−–]?\$?\(?\d[\d,]*(?:\.\d+)?\)?%?\)?$|^[—–-]%?$")


def _statement_header(line: str, above: str = "") -> tuple[str, list[str]] | None:
    """("(dollars in millions)", ["2025", "2024", "change"]) for a line of years, else None;
    periods repeated under group titles on the line `above` are named with their group's
    ("Retail Square Feet 2025", `titles.grouped_header`)."""
    stripped = line.strip()
    caption = ""
    if m := _CAPTION_LEAD.match(stripped):
        caption, stripped = m.group(0).strip(), stripped[m.end():]
    cells = _HEADER_CELL.findall(stripped)
    if len(cells) < 2 or " ".join(cells) != " ".join(stripped.split()):
        titled = _titled_years(stripped) or _change_tailed(stripped, caption)
        if titled is None:
            return None
        caption, cells = titled
    if sum(1 for c in cells if re.search(r"(?:19|20)\d\d", c)) < 2:
        return None
    if grouped := grouped_header(cells, above):
        return caption, grouped
    named: list[str] = []
    for cell in cells:
        name = {"$": "change", "%": "change %", "Change": "change"}.get(cell, cell)
        base, n = name, 2
        while name in named:
            name, n = f"{base} {n}", n + 1
        named.append(name)
    return caption, named


MAX_TITLE_CHARS = 60
# "Percentage" of "2023 2022 Percentage" over "Change": a change column's title after the years,
# which may run on to the next line (a page's foot, even)
_CHANGE_TAIL = vocabulary().cues("change_header")


def _change_tailed(line: str, caption: str) -> tuple[str, list[str]] | None:
    """(caption, ["2023", "2022", "%"]) for years followed by a change column's title in words
    ("2023 2022 Percentage", "2023 2022 Percent change"); None for anything else."""
    tokens = line.split()
    for k in range(len(tokens) - 1, 1, -1):
        head, tail = " ".join(tokens[:k]), " ".join(tokens[k:])
        if not _CHANGE_TAIL.fullmatch(tail):
            continue
        cells = _HEADER_CELL.findall(head)
        if len(cells) >= 2 and " ".join(cells) == head:
            return caption, [*cells, "%"]
    return None


def _titled_years(line: str) -> tuple[str, list[str]] | None:
    """("Change in Number of Stores", ["2025", "2024"]) for a table's title run on into its
    column years: a title of words only, then consecutive years and nothing else."""
    tokens = line.split()
    for k in range(1, len(tokens) - 1):
        tail = " ".join(tokens[k:])
        cells = _HEADER_CELL.findall(tail)
        if " ".join(cells) != tail:
            continue
        title = " ".join(tokens[:k])
        years = [int(c) for c in cells if c.isdigit()]
        steps = {b - a for a, b in pairwise(years)}
        if (len(title) <= MAX_TITLE_CHARS and not any(ch.isdigit() for ch in title)
                and len(years) == len(cells) >= 2 and steps in ({1}, {-1})):
            return title, cells
        return None
    return None


def _statement_row(line: str, width: int) -> tuple[str, list[str]] | None:
    """("Net income", ["$30,425", "$59,248", "$77,670"]) when the line ends in `width` values."""
    tokens = line.split()
    i = len(tokens)
    while i > 0 and (_VALUE.match(tokens[i - 1]) or tokens[i - 1] in {"%", "$"}):
        i -= 1
    values: list[str] = []
    for token in tokens[i:]:
        if token == "%" and values:
            values[-1] += "%"
        elif values and values[-1] == "$":
            values[-1] += token
        else:
            values.append(token)
    label = " ".join(tokens[:i])
    if len(values) == width + 1 and _footnote_marker(values[0]):
        # "iPhone (1) $200,583 (2)% …": the label's footnote marker, not a value
        values = values[1:]
    if len(values) != width or not re.search(r"[A-Za-z]", label) or "$" in values:
        return None
    if any(v.endswith(",") for v in values):
        return None  # "December 31, 2024": a date under a line of dates, no row of figures
    return label, values


def _footnote_marker(token: str) -> bool:
    """A footnote's number in brackets after a row's label ("(1)", "(12)")."""
    return 3 <= len(token) <= 4 and token[0] == "(" and token[-1] == ")" and token[1:-1].isdigit()


def spaced_statement_rows(text: str) -> str:
    """Rows under a line of years, their values separated by single spaces, as table lines:
    `2023 | 2024 | 2025` then `Net income | 2023: $30,425 | 2024: $59,248 | 2025: $77,670`.

    Every line is kept; the years are written as a table header before each run of rows (after
    a sub-heading such as "Operating expenses:" too). Lines that do not hold exactly one value
    per year are left as they are, and a blank line or three lines of prose end the table.
    """
    return _spaced(text, None)[0]


def spaced_pages(pages: Sequence[str]) -> list[str]:
    """`spaced_statement_rows` of each page, a line of years at a page's foot heading the rows
    at the top of the next ("(In millions) 2023 2022 Percentage" closing one page, "Change",
    "Revenue" and the segments' rows opening the next)."""
    out: list[str] = []
    carried: _Carried | None = None
    for page in pages:
        text, carried = _spaced(page, carried)
        out.append(text)
    return out


@dataclass(frozen=True)
class _Carried:
    """The line of years in force at a page's end, and the lines of prose read since it."""

    header: list[str]
    prose: int


ONE_COLUMN_ROWS = 2  # rows of one value among the ONE_COLUMN_REACH lines under a one-year title
ONE_COLUMN_REACH = 3


def _one_year_header(line: str, after: Sequence[str]) -> tuple[str, list[str]] | None:
    """("Income Taxes Paid(millions)", ["2025"]) for a table's title run on into its one
    column's year ("Income Taxes Paid(millions) 2025" over "Federal taxes (a) $781"): a title of
    words only, then one year, the line after it a row of one value and another within reach
    (a sentence's line ending in a number is no table); None for anything else."""
    tokens = line.split()
    if len(tokens) < 2 or not tokens[-1].isdigit() or not _HEADER_CELL.fullmatch(tokens[-1]):
        return None
    title = " ".join(tokens[:-1])
    if (len(title) > MAX_TITLE_CHARS or any(ch.isdigit() for ch in title)
            or not title[:1].isupper() or title.endswith((".", ",", ";", ":"))):
        return None
    rows = [_statement_row(a, 1) is not None for a in after[:ONE_COLUMN_REACH]]
    return (title, [tokens[-1]]) if rows[:1] == [True] and sum(rows) >= ONE_COLUMN_ROWS \
        else None


def _spaced(text: str, carried: _Carried | None) -> tuple[str, _Carried | None]:
    out: list[str] = []
    header: list[str] | None = carried.header if carried else None
    pending = True  # the header is written again before the next row
    prose = carried.prose if carried else 0
    lines = text.split("\n")
    for at, line in enumerate(lines):
        if "|" in line:  # a line that kept its column gaps: label_text_tables reads it
            out.append(line)
            header = None
            continue
        found = (_statement_header(line, lines[at - 1] if at else "")
                 or _one_year_header(line, lines[at + 1:]))
        if found is not None:
            header, pending, prose = found[1], True, 0
            out.append(line)
            continue
        row = _statement_row(line, len(header)) if header else None
        columns = header
        if row is None and header:
            # "Gross profit energy segment $1,141 $288 $(129)" under "2023 2022 2021 $ % $ %":
            # one value a year, the change columns left blank
            columns = [h for h in header if not h.startswith("change")]
            row = _statement_row(line, len(columns)) if len(columns) < len(header) else None
        if row is None:
            out.append(line)
            prose += 1
            pending = True
            # a table of one column ends sooner: a line ending in one number is no row of it
            # once two lines of words stand between
            if not line.strip() or prose >= (2 if len(header or []) == 1 else 3):
                header = None
            continue
        assert header is not None and columns is not None
        if pending:
            out.append(" | ".join(header))
            pending = False
        prose = 0
        out.append(row_line(["", *columns], [row[0], *row[1]]))
    return "\n".join(out), _Carried(header, prose) if header else None
