"""One table as an Excel sheet a banker can send: bold frozen header, widths that fit, wrapped.

Every text cell is written as text, never as a formula: its words come from people and
documents (a Q&A question reworded to `=HYPERLINK(…)`, an IRL request, a contract's clause),
and a seller opening the sheet, or saving it as CSV for another tool, must not run them. As
OWASP's CSV-injection guidance says (https://owasp.org/www-community/attacks/CSV_Injection), a
text that begins with `=`, `+`, `-`, `@`, a tab or a carriage return — also after leading spaces
or as a full-width form — gets a leading apostrophe, and the cell's type is set to text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import Path

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

__all__ = ["as_text", "text_cell", "write_table"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # OWASP: what a spreadsheet may evaluate

_HEADER_FILL = PatternFill("solid", fgColor="1F3864")
_MAX_WIDTH = 70


def write_table(
    path: Path, *, sheet: str, headers: Sequence[str], rows: Sequence[Sequence[object]],
    title: str | None = None,
) -> Path:
    """Write `rows` under `headers` (and an optional title line) to a new workbook at `path`."""
    wb = Workbook()
    ws = wb.active
    ws.title = sheet[:31]
    start = 1
    if title:
        ws.cell(row=1, column=1, value=as_text(title)).font = Font(bold=True, size=13)
        start = 3
    for col, name in enumerate(headers, start=1):
        cell = ws.cell(row=start, column=col, value=name)
        cell.font = Font(bold=True, color="FFFFFF")
        cell.fill = _HEADER_FILL
        cell.alignment = Alignment(vertical="center")
    for r, row in enumerate(rows, start=start + 1):
        for col, value in enumerate(row, start=1):
            cell = text_cell(ws, r, col, value)
            cell.alignment = Alignment(wrap_text=True, vertical="top")
    for col, name in enumerate(headers, start=1):
        longest = max([len(str(name))] + [len(str(row[col - 1] or "")) for row in rows])
        ws.column_dimensions[get_column_letter(col)].width = min(max(10, longest + 2), _MAX_WIDTH)
    ws.freeze_panes = ws.cell(row=start + 1, column=1)
    ws.auto_filter.ref = f"A{start}:{get_column_letter(len(headers))}{start + len(rows)}"
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path


def as_text(value: str) -> str:
    """`value` as a spreadsheet shows it and never evaluates it: an apostrophe before a text
    that begins like a formula (after any leading spaces or line breaks, in any width)."""
    if value.startswith(("\t", "\r")):
        return f"'{value}"
    first = unicodedata.normalize("NFKC", value.lstrip(" \n\u3000"))[:1]
    return f"'{value}" if first and first in FORMULA_STARTS else value


def text_cell(ws: Worksheet, row: int, column: int, value: object) -> Cell:
    """Write `value` at (row, column): text always as text (see `as_text`), numbers as numbers."""
    cell = ws.cell(row=row, column=column, value=as_text(value) if isinstance(value, str)
                   else value)
    if isinstance(value, str):
        cell.data_type = "s"  # text, whatever openpyxl would have made of it
    return cell
