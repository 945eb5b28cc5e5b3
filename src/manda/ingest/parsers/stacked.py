"""Statements a PDF prints one cell per line, put back into rows.

Some filings are printed from their tagged data (XBRL viewers, data exports) one text run per
cell, each on its own line: the column headers one under another ("2023-06-30" / "2022-06-30"),
then each row's label followed by one figure per column ("Research and Development Expense" /
"27195000000.0" / "24512000000.0"). No layout is left to read a row from, so every reader after
the parser would see labels and figures apart.

`stacked_pages` writes such rows as labelled rows under their column headers (`Research and
Development Expense | 2023-06-30: 27195000000.0 | 2022-06-30: 24512000000.0`), the shape
`flowed` and `base.spaced_statement_rows` write, so statement readers, extraction and the
columns' periods work unchanged downstream. A label with no figures under it (a sub-heading) stays
a line of its own; a label with fewer or more figures than there are columns is left as it was
(its figures cannot be placed). A page that lists rows under no header of its own (a statement
continued from the page before) takes the headers of the document's statement above it when its
rows have as many figures as those headers. Only a document that stacks many rows
(`MIN_STACKED_ROWS`) is rewritten, so laid-out documents read as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from manda.finance.figures import column_header_line, joined_signs, lone_cell
from manda.ingest.parsers.base import row_line

__all__ = ["stacked_pages", "stacked_rows"]

MIN_STACKED_ROWS = 6  # a document stacks its statements when this many rows are stacked
MIN_PAGE_ROWS = 2  # a page's stacked rows are read when at least this many fit its columns
MAX_LABEL_CHARS = 160  # longer lines are prose, not a row's label


def _header_at(lines: Sequence[str], i: int) -> int:
    """How many column headers stand one under another from line `i` (0 when fewer than two)."""
    run = 0
    while i + run < len(lines) and column_header_line(lines[i + run]):
        run += 1
    return run if run >= 2 else 0


def _cell(line: str) -> str | None:
    """The line as one figure cell ("$ (70,115)" is "$(70,115)"), or None if it is none."""
    cell = joined_signs(" ".join(line.split()))
    return cell if lone_cell(cell) else None


def _cells_after(lines: Sequence[str], i: int) -> int:
    """How many lone figure cells follow line `i`."""
    run = 0
    while i + 1 + run < len(lines) and _cell(lines[i + 1 + run]) is not None:
        run += 1
    return run


def _label(line: str) -> bool:
    text = line.strip()
    return bool(text) and len(text) <= MAX_LABEL_CHARS and _cell(text) is None \
        and any(c.isalpha() for c in text)


def _rows(lines: Sequence[str], width: int) -> int:
    """How many labels of `lines` are followed by exactly `width` figures."""
    return sum(1 for i, line in enumerate(lines)
               if _label(line) and not column_header_line(line) and _cells_after(lines, i) == width)


def stacked_rows(text: str, carried: list[str] | None = None
                 ) -> tuple[str, list[str] | None, int]:
    """The page with its stacked rows written one labelled row per line under their headers,
    the headers in force at its end (for a statement that goes on over the next page) and how
    many rows were written. `carried`: the headers in force at the end of the page before."""
    lines = text.split("\n")
    header = carried
    if _header_at(lines, next((i for i, line in enumerate(lines) if line.strip()), 0)) == 0 \
            and header is not None and _rows(lines, len(header)) < MIN_PAGE_ROWS:
        header = None  # the page starts something else: the statement above ended
    out: list[str] = []
    rows = 0
    pending = True  # the header line goes right above the next row (its table's first line)
    i = 0
    while i < len(lines):
        if run := _header_at(lines, i):
            columns = [line.strip() for line in lines[i:i + run]]
            if _rows(lines[i + run:], run) >= MIN_PAGE_ROWS:
                header, pending = columns, True
                i += run
                continue
        line = lines[i]
        width = _cells_after(lines, i)
        if header is not None and width == len(header) and _label(line) \
                and not column_header_line(line):
            if pending:
                out.append(" | ".join(header))
                pending = False
            cells = [_cell(lines[i + 1 + k]) or "" for k in range(width)]
            out.append(row_line(["", *header], [line.strip(), *cells]))
            rows += 1
            i += 1 + width
            continue
        out.append(line)
        pending = True  # a sub-heading or a row short of its columns: the rows below restart
        i += 1
    return "\n".join(out), header, rows


def stacked_pages(pages: Sequence[str]) -> list[str]:
    """A document's page texts with stacked statements in rows; a document that stacks fewer
    than `MIN_STACKED_ROWS` rows is returned as it was."""
    out: list[str] = []
    stacked = 0
    header: list[str] | None = None
    for page in pages:
        text, header, rows = stacked_rows(page, header)
        out.append(text)
        stacked += rows
    return out if stacked >= MIN_STACKED_ROWS else list(pages)
