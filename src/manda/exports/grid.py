"""A review grid as the workbook a deal team sends round: one row per document, one column per
question, each stated cell's quote and place as its comment; a second sheet with every cell's
quote, place, review status and, for "not stated", what was searched. Every text is written as
text (`as_text`): document words never become formulas.
"""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from manda.exports.xlsx import as_text, text_cell
from manda.grid.view import Grid, GridRow
from manda.models import CellStatus, GridCell

__all__ = ["cell_text", "write_grid"]

_HEADER = PatternFill("solid", fgColor="1F3864")
_NOT_STATED = PatternFill("solid", fgColor="F2F2F2")
_REPLACED = PatternFill("solid", fgColor="FFF2CC")
_WIDTH = (12, 48)
COMMENT_CHARS = 1_500


def cell_text(row: GridRow, key: str) -> str:
    """What the grid shows in one cell: the value, "Not stated", "Unreadable", or the value a
    later document replaced."""
    cell = row.cells.get(key)
    if cell is None:
        return "…"
    if cell.status is CellStatus.NOT_STATED:
        return "Not stated"
    if cell.status is CellStatus.UNREADABLE:
        return "Unreadable"
    if cell.status is CellStatus.UNSUPPORTED:
        return "Not supported by its quote"
    shown = cell.shown
    if row.replaced(key) and row.superseded_by is not None:
        shown += f" (replaced by {row.superseded_by.filename})"
    return shown


def _comment(cell: GridCell) -> str:
    text = f"“{cell.quote}” — {cell.place}"
    if cell.detail and cell.detail not in cell.quote:
        text += f"\n{cell.detail}"
    return text[:COMMENT_CHARS]


def write_grid(path: Path, grid: Grid) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "Grid"
    _grid_sheet(ws, grid)
    _quotes_sheet(wb.create_sheet("Quotes"), grid)
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path


def _header(ws: Worksheet, row: int, names: list[str]) -> None:
    for col, name in enumerate(names, start=1):
        cell = text_cell(ws, row, col, name)
        cell.font = Font(bold=True, color="FFFFFF")
        cell.fill = _HEADER
        cell.alignment = Alignment(vertical="center", wrap_text=True)


def _grid_sheet(ws: Worksheet, grid: Grid) -> None:
    title = f"{grid.run.deal_id} — {grid.run.title} ({grid.total})"
    text_cell(ws, 1, 1, title).font = Font(bold=True, size=13)
    text_cell(ws, 2, 1, grid.summary)
    names = ["Document", "Kind", *(c.name for c in grid.columns), "Amended by / amends"]
    _header(ws, 4, names)
    for r, row in enumerate(grid.rows, start=5):
        text_cell(ws, r, 1, row.name)
        text_cell(ws, r, 2, (row.kind or "").replace("_", " "))
        for c, column in enumerate(grid.columns, start=3):
            cell = text_cell(ws, r, c, cell_text(row, column.key))
            cell.alignment = Alignment(wrap_text=True, vertical="top")
            kept = row.cells.get(column.key)
            if kept is not None and kept.status is CellStatus.STATED:
                cell.comment = Comment(as_text(_comment(kept)), "Manda", width=320, height=160)
                if row.replaced(column.key):
                    cell.fill = _REPLACED
            elif kept is not None:
                cell.fill = _NOT_STATED
        link = ""
        if row.superseded_by is not None:
            columns = ", ".join(row.superseded_by.columns) or "terms"
            link = f"amended by {row.superseded_by.filename} ({columns})"
        elif row.amends:
            link = f"amends {row.amends}"
        text_cell(ws, r, len(names), link)
    _widths(ws, len(names), 4 + len(grid.rows))
    ws.freeze_panes = ws.cell(row=5, column=2)
    ws.auto_filter.ref = f"A4:{get_column_letter(len(names))}{4 + len(grid.rows)}"


def _quotes_sheet(ws: Worksheet, grid: Grid) -> None:
    names = ["Document", "Column", "Value", "Review", "Quote", "Place", "Page", "Clause",
             "Detail", "Searched / reason"]
    _header(ws, 1, names)
    r = 2
    for row in grid.rows:
        for column in grid.columns:
            cell = row.cells.get(column.key)
            if cell is None:
                continue
            review = row.review.get(column.key)
            values = [row.name, column.name, cell_text(row, column.key),
                      review.value if review is not None else "", cell.quote, cell.place,
                      cell.location.page if cell.location and cell.location.page else None,
                      cell.clause or "", cell.detail, cell.searched or cell.reason]
            for c, value in enumerate(values, start=1):
                text_cell(ws, r, c, value).alignment = Alignment(wrap_text=True, vertical="top")
            r += 1
    _widths(ws, len(names), r - 1)
    ws.freeze_panes = ws.cell(row=2, column=1)
    ws.auto_filter.ref = f"A1:{get_column_letter(len(names))}{max(1, r - 1)}"


def _widths(ws: Worksheet, columns: int, last_row: int) -> None:
    for col in range(1, columns + 1):
        longest = max((len(str(ws.cell(row=r, column=col).value or ""))
                       for r in range(4 if ws.title == "Grid" else 1, last_row + 1)), default=10)
        ws.column_dimensions[get_column_letter(col)].width = min(max(_WIDTH[0], longest + 2),
                                                                 _WIDTH[1])
