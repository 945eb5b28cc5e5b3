"""Where a table's header is, in any layout: below a title and a unit line, over two or three rows.

Spreadsheets and PDFs rarely start a table in row 1: a title, a date and "in EUR thousands" sit
above it, and a header may span rows ("FY2024" over "Actual | Budget"). The header block is the
run of label rows right above the first row that carries figures; the rows above it are notes
(they often hold the scale and the period), and a multi-row header is folded into one row of
column labels ("FY2024 Actual"), so every cell below can be read with its full column name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from manda.vocabulary import vocabulary

__all__ = ["TableShape", "caption_heading", "caption_of", "has_amount", "is_caption_line",
           "is_figure", "is_title_line", "table_shape", "text_table_blocks"]

SCAN_ROWS = 50  # a header further down than this is not looked for
MAX_HEADER_ROWS = 3
MAX_LABEL_CHARS = 80

_FIGURE = re.compile(
    r"^[\s(]*[-−–]?\s*(?:[€$£]|US\$|EUR|USD|GBP|CHF)?\s*[-−–]?\d[\d.,'\s\u00a0\u202f]*"
    r"(?:\s?(?:%|x|k|m|bn|mn|M|K))?\s*[)]?\s*$",
    re.IGNORECASE,
)
_UNIT_LABEL = re.compile(r"^\D*['’]?000s?\D*$")  # "EUR 000", "$000", "£'000s": a unit, not a figure
_YEAR_LABEL = re.compile(r"^\s*(?:FY\s*)?['’]?(?:19|20)\d{2}(?:\s*[/-]\s*\d{2,4})?\s*[AEBFP]?\s*$",
                         re.IGNORECASE)


# a column header's token: a year, a period, a unit (notation), or a column's word
# (`column_header_words`: Actual, Budget, Var.; Ist, Vorjahr; Réel; Presupuesto)
_HEADER_WORDS = re.compile(
    r"(?<![\w])(?:(?:19|20)\d{2}|FY\s*['’]?(?:\d{4}|\d{2})|Q[1-4]|H[12]|%|"
    r"(?:US\$|€|£|\$|EUR|USD|GBP|CHF)\s?['’]?(?:000s?|m|k|mm|mn)?|TEUR|kEUR|T€|['’]?000s?)(?![\w])"
    rf"|{vocabulary().cues('column_header_words').slot}",
    re.IGNORECASE,
)


def is_figure(cell: str) -> bool:
    """A cell holding an amount, a count or a percentage (a year or a unit header is not one)."""
    text = cell.strip()
    return (bool(text) and bool(_FIGURE.match(text)) and not _YEAR_LABEL.match(text)
            and not _UNIT_LABEL.match(text))


def _filled(row: Sequence[str]) -> list[int]:
    return [i for i, cell in enumerate(row) if cell.strip()]


def _is_label_row(row: Sequence[str]) -> bool:
    cells = [row[i] for i in _filled(row)]
    return bool(cells) and all(not is_figure(c) and len(c) <= MAX_LABEL_CHARS for c in cells)


def _is_header_part(row: Sequence[str]) -> bool:
    """A label row that can belong to a header: not a lone row label ("Current assets")."""
    filled = _filled(row)
    return _is_label_row(row) and (len(filled) >= 2 or filled[0] > 0)


def _is_data_row(row: Sequence[str]) -> bool:
    """A row with a figure outside its first column (its label)."""
    return any(is_figure(row[i]) for i in _filled(row) if i > 0)


@dataclass(frozen=True)
class TableShape:
    """Rows `[0, header_start)` are notes, `[header_start, data_start)` the header block."""

    header_start: int
    data_start: int
    header: list[str]  # one label per column, multi-row headers folded ("FY2024 Actual")

    @property
    def header_rows(self) -> int:
        return self.data_start - self.header_start


def table_shape(rows: Sequence[Sequence[str]]) -> TableShape:
    """The header block of `rows` (each row padded to the same width by the caller)."""
    if not rows:
        return TableShape(0, 0, [])
    width = max(len(r) for r in rows)
    head = list(rows[:SCAN_ROWS])
    first_data = next((r for r, row in enumerate(head) if _is_data_row(row)), None)
    if first_data is not None and first_data > 0:
        start = first_data
        while (start > 0 and first_data - start < MAX_HEADER_ROWS
               and _is_header_part(head[start - 1])):
            start -= 1
        if start < first_data:
            # Below the top header row, only rows that read as headers ("Actual | Budget",
            # "2024 | 2023") continue it; a row of words ("Founders | Ordinary | – | –") is data.
            end = start + 1
            while end < first_data and _HEADER_WORDS.search(" ".join(head[end])):
                end += 1
            return TableShape(start, end, fold_header(head[start:end], width))
    start = _first_wide_label_row(head, width)
    return TableShape(start, start + 1, fold_header([head[start]], width))


def _first_wide_label_row(rows: Sequence[Sequence[str]], width: int) -> int:
    """For tables of words (a request list, a register): the first row as wide as the table."""
    widest = max(len(_filled(r)) for r in rows)
    for r, row in enumerate(rows):
        filled = len(_filled(row))
        if filled >= 2 and filled * 2 >= widest and _is_label_row(row):
            return r
    return 0


def fold_header(block: Sequence[Sequence[str]], width: int) -> list[str]:
    """One label per column from a header block; a label over merged cells spans to the right."""
    labels = [[""] * width for _ in block]
    for i, row in enumerate(block):
        carry = ""
        last = i == len(block) - 1
        for c in range(width):
            cell = " ".join(row[c].split()) if c < len(row) else ""
            if cell:
                carry = cell
                labels[i][c] = cell
            elif not last and c > 0 and carry and any(
                c < len(r) and r[c].strip() for r in block[i + 1:]
            ):
                labels[i][c] = carry  # a spanning label ("FY2024" over Actual | Budget)
    out: list[str] = []
    for c in range(width):
        parts: list[str] = []
        for i in range(len(block)):
            if labels[i][c] and labels[i][c] not in parts:
                parts.append(labels[i][c])
        out.append(" ".join(parts))
    return out


# ---------------------------------------------------------------- captions and text tables

CAPTION_LINES = 3
CAPTION_CHARS = 120
DATE_LINES = 2  # header lines of dates a caption may stand above
# years, also run together where a page lost the space between a header's columns
# ("20212020 2019"), and the thousands of a unit line ("£000s")
_NOT_FIGURES = re.compile(r"(?<!\d)(?:(?:19|20)\d{2}){1,4}(?!\d)|['’]?000s?")


def is_caption_line(line: str) -> bool:
    """A short line without figures: a title or unit line, not a sentence stating an amount."""
    line = line.strip()
    return 0 < len(line) <= CAPTION_CHARS and not any(
        ch.isdigit() for ch in _NOT_FIGURES.sub("", line)) and " | " not in line


def is_note_line(line: str) -> bool:
    """A short line that states no figure: a title, a unit or period note ("£000 · financial
    year to 31 March"), not a sentence stating an amount ("sales grew by $4.9 billion")."""
    line = line.strip()
    return (0 < len(line) <= CAPTION_CHARS and " | " not in line
            and not has_amount(_NOT_FIGURES.sub("", line)))


def caption_of(text: str) -> str:
    """The caption lines at the end of `text` (the lines just above a table), top to bottom."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    caption: list[str] = []
    dates = 0  # "Year Ended December 31," between the unit line and the table: looked past
    for line in reversed(lines[-(CAPTION_LINES + DATE_LINES):]):
        if is_caption_line(line):
            caption.insert(0, line)
        elif dates < DATE_LINES and is_note_line(line):  # days and years, no figure
            dates += 1
        else:
            break
        if len(caption) == CAPTION_LINES:
            break
    return "\n".join(caption)



def has_amount(text: str) -> bool:
    """An amount, a percentage or a long number: a figure (`is_figure`) other than a small
    count ("31 March", "Note 5"); a year is none."""
    for token in text.replace("(", " ").replace(")", " ").split():
        token = token.rstrip(",;:")
        if is_figure(token) and (sum(ch.isdigit() for ch in token) >= 3
                                 or not token.isdigit()):
            return True
    return False


def is_title_line(line: str) -> bool:
    """A caption or heading line: short, no amounts, not a table row, not a sentence that leads
    into what follows ("… as follows:") — dates may stand in it ("as at 31 March 2024")."""
    line = line.strip()
    return (0 < len(line) <= CAPTION_CHARS and " | " not in line and not has_amount(line)
            and not line.endswith((".", ":", ";", ",")))


def without_column_headers(line: str) -> str:
    """A caption line without the column headers set at its end: "(millions) 2025 2024" is
    "(millions)"; a line of years alone is ""."""
    tokens = line.split()
    while tokens and (_HEADER_WORDS.fullmatch(tokens[-1].rstrip("*")) or tokens[-1] in "$%"
                      or _HEADER_WORDS.fullmatch(tokens[-1].split("(")[0])):
        tokens.pop()
    return " ".join(tokens)


def caption_heading(lines: Sequence[str]) -> str:
    """A table's caption lines as the one heading it stands under: `Consolidated Statements of
    Operations (in millions, except per share data)`; "" when no line reads as a caption."""
    kept = [" ".join(line.split()) for line in lines if is_title_line(line)]
    heading = ""
    for line in kept:
        if not heading:
            heading = line
        elif line.startswith("("):
            heading = f"{heading} {line}"
        else:
            heading = f"{heading} — {line}"
    return heading


@dataclass(frozen=True)
class TextTable:
    """A run of `a | b | c` lines inside a text: where it is and what names its columns."""

    start: int
    end: int
    context: str  # caption lines and header line(s): what every piece of the table must carry


def text_table_blocks(text: str) -> list[TextTable]:
    """The tables a page holds as ` | ` lines (two or more in a row), with their context."""
    blocks: list[TextTable] = []
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and " | " in lines[j]:
            j += 1
        if j - i >= 2:
            rows = [[c.strip() for c in line.split(" | ")] for line in lines[i:j]]
            width = max(len(r) for r in rows)
            shape = table_shape([r + [""] * (width - len(r)) for r in rows])
            head = [lines[k].strip() for k in range(i, i + max(shape.data_start, 1))]
            caption = caption_of("\n".join(lines[max(0, i - CAPTION_LINES) : i]))
            context = "\n".join(x for x in [caption, *head] if x)
            blocks.append(TextTable(offsets[i], offsets[j] - 1, context))
        i = max(j, i + 1)
    return blocks
