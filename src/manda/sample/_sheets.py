"""Small helpers the evaluation-only rooms share to lay out a worksheet: a title, a header, a
request list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openpyxl.styles import Font
from openpyxl.worksheet.worksheet import Worksheet

from manda.sample.facts import IRLItem

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


def request_list(ws: Worksheet, labels: Sequence[str], items: Sequence[IRLItem],
                 comments: Mapping[str, str], *, width: int = 70) -> None:
    """A request list from row 4: reference, category, request, priority, status, comment."""
    header(ws, 4, labels)
    for row, item in enumerate(items, start=5):
        for col, value in enumerate((item.ref, item.category, item.request, item.priority,
                                     item.status, comments.get(item.ref, "")), start=1):
            ws.cell(row=row, column=col, value=value)
    ws.column_dimensions["C"].width = width
