"""Small helpers the evaluation-only rooms share to lay out a worksheet: a title, a bold header."""

from __future__ import annotations

from collections.abc import Sequence

from openpyxl.styles import Font
from openpyxl.worksheet.worksheet import Worksheet

BOLD = Font(bold=True)


def title(ws: Worksheet, text: str, caption: str, *, cell: str = "A1") -> None:
    """A bold title in `cell` and a caption in the cell below it."""
    ws[cell] = text
    ws[cell].font = Font(bold=True, size=13)
    ws.cell(row=ws[cell].row + 1, column=ws[cell].column, value=caption)


def header(ws: Worksheet, row: int, labels: Sequence[object], *, first_column: int = 1) -> None:
    """A row of bold labels starting at `first_column`."""
    for col, label in enumerate(labels, start=first_column):
        ws.cell(row=row, column=col, value=label).font = BOLD


def number_format(ws: Worksheet, cells: str, fmt: str) -> None:
    """Give every cell of the range `cells` the number format `fmt`."""
    for row in ws[cells]:
        for cell in row:
            cell.number_format = fmt
