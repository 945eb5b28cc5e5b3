"""Every sheet of a workbook as blocks of rows, each cell traceable to its `Sheet!B7` reference.

Cells are read with their cached values (what Excel last computed). Formulas saved without a
cached value are evaluated when simple (see formulas.py), otherwise kept as formula text.
A sheet stops being scanned after EMPTY_RUN_STOP empty rows in a row, so a sheet whose
dimension claims a million rows costs nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from openpyxl import load_workbook
from openpyxl.cell.read_only import ReadOnlyCell
from openpyxl.utils import get_column_letter

from manda.ingest.parsers.base import ParseLimits, check_count, table_text, unreadable
from manda.ingest.parsers.formulas import CellRange, FormulaError, evaluate
from manda.ingest.parsers.layout import SCAN_ROWS, caption_heading, is_figure, table_shape
from manda.ingest.parsers.numfmt import display_value
from manda.models import Location, ParsedDocument, Section

log = logging.getLogger(__name__)

BLOCK_ROWS = 25
EMPTY_RUN_STOP = 1_000
MAX_PENDING = 20_000  # cells present without a value that may be formulas saved without results


@dataclass
class _Formula:
    text: str


@dataclass
class _Sheet:
    title: str
    rows: dict[int, dict[int, object]] = field(default_factory=dict)  # row -> column -> value
    formats: dict[tuple[int, int], str] = field(default_factory=dict)  # non-General formats
    pending: dict[tuple[int, int], str] = field(default_factory=dict)  # (row, col) -> format
    computed: dict[tuple[int, int], str] = field(default_factory=dict)  # evaluated: formula
    cells: int = 0  # non-empty cells read


def parse_xlsx(path: Path, filename: str, limits: ParseLimits) -> ParsedDocument:
    wb = load_workbook(path, read_only=True, data_only=True)
    try:
        sheets: list[_Sheet] = []
        cells = 0
        for ws in wb.worksheets:
            sheets.append(_scan(ws, filename, limits, cells))
            cells += sheets[-1].cells
        title = _title(wb)
    finally:
        wb.close()
    if any(sheet.pending for sheet in sheets):
        _resolve_formulas(path, sheets)
    sections = [section for sheet in sheets for section in _sections(sheet)]
    return ParsedDocument(
        filename=filename, file_type="xlsx", sections=sections, units=len(sheets), title=title
    )


def _title(wb: object) -> str | None:
    properties = getattr(wb, "properties", None)
    title = getattr(properties, "title", None)
    return title.strip() or None if isinstance(title, str) else None


# ---------------------------------------------------------------- reading


def _scan(ws: object, filename: str, limits: ParseLimits, before: int = 0) -> _Sheet:
    """Read a sheet row by row (streamed); `before` cells were read from earlier sheets."""
    sheet = _Sheet(title=ws.title)  # type: ignore[attr-defined]
    ws.reset_dimensions()  # type: ignore[attr-defined]  # stored dimensions can lie
    empty_run = 0
    for row_index, cells in enumerate(ws.iter_rows(), start=1):  # type: ignore[attr-defined]
        values: dict[int, object] = {}
        for col_index, cell in enumerate(cells, start=1):
            value = cell.value
            if value is None:
                if isinstance(cell, ReadOnlyCell) and len(sheet.pending) < MAX_PENDING:
                    sheet.pending[(row_index, col_index)] = cell.number_format
                continue
            if isinstance(value, str) and not value.strip():
                continue
            values[col_index] = value
            if isinstance(value, int | float) and not isinstance(value, bool):
                number_format = cell.number_format
                if number_format and number_format != "General":
                    sheet.formats[(row_index, col_index)] = number_format
        if not values:
            empty_run += 1
            if empty_run >= EMPTY_RUN_STOP:
                log.info("%s: stopped reading sheet %r after %d empty rows at row %d",
                         filename, sheet.title, EMPTY_RUN_STOP, row_index)
                break
            continue
        empty_run = 0
        sheet.rows[row_index] = values
        sheet.cells += len(values)
        check_count(filename, before + sheet.cells, limits.max_cells, "cells", "max_cells")
        if len(sheet.rows) > limits.max_sheet_rows:
            raise unreadable(
                filename,
                f"has a sheet ('{sheet.title}') with more than {limits.max_sheet_rows:,} rows of "
                "data; split it into smaller workbooks or raise MANDA_MAX_SHEET_ROWS",
            )
    return sheet


def _resolve_formulas(path: Path, sheets: list[_Sheet]) -> None:
    """Second pass: formula text for cells without a cached value, evaluated where simple."""
    by_title = {sheet.title: sheet for sheet in sheets}
    wb = load_workbook(path, read_only=True, data_only=False)
    try:
        for ws in wb.worksheets:
            sheet = by_title.get(ws.title)
            if sheet is None or not sheet.pending:
                continue
            ws.reset_dimensions()
            rows = [r for r, _ in sheet.pending]
            cols = [c for _, c in sheet.pending]
            min_row, min_col = min(rows), min(cols)
            for r, cells in enumerate(
                ws.iter_rows(min_row=min_row, max_row=max(rows), min_col=min_col,
                             max_col=max(cols)),
                start=min_row,
            ):
                for c, cell in enumerate(cells, start=min_col):
                    if (r, c) not in sheet.pending:
                        continue
                    text = getattr(cell.value, "text", cell.value)  # array formulas carry .text
                    if isinstance(text, str) and text.startswith("="):
                        sheet.rows.setdefault(r, {})[c] = _Formula(text)
    finally:
        wb.close()
    for sheet in sheets:
        sheet.rows = dict(sorted(sheet.rows.items()))
    _Evaluator(by_title).run()


class _Evaluator:
    """Replaces each _Formula with its value, or with its text when it cannot be evaluated."""

    def __init__(self, sheets: dict[str, _Sheet]) -> None:
        self._sheets = sheets
        self._active: set[tuple[str, int, int]] = set()
        self._failed: set[tuple[str, int, int]] = set()

    def run(self) -> None:
        for sheet in self._sheets.values():
            for r, cells in sheet.rows.items():
                for c, value in list(cells.items()):
                    if isinstance(value, _Formula):
                        self._value(sheet, r, c, value)

    def _value(self, sheet: _Sheet, r: int, c: int, formula: _Formula) -> object:
        key = (sheet.title, r, c)
        if key in self._active:
            raise FormulaError("circular reference")
        self._active.add(key)
        try:
            result: object = evaluate(formula.text, lambda rng: self._cells(sheet, rng))
            sheet.computed[(r, c)] = formula.text
            fmt = sheet.pending.get((r, c))
            if fmt and fmt != "General":
                sheet.formats[(r, c)] = fmt
        except (FormulaError, ArithmeticError, RecursionError):
            result = formula.text
            self._failed.add(key)
        finally:
            self._active.discard(key)
        sheet.rows[r][c] = result
        return result

    def _cells(self, own: _Sheet, rng: CellRange) -> list[object]:
        sheet = own if rng.sheet is None else self._sheets.get(rng.sheet)
        if sheet is None:
            raise FormulaError(f"no sheet {rng.sheet!r}")
        if rng.max_row - rng.min_row < len(sheet.rows):
            row_numbers = [r for r in range(rng.min_row, rng.max_row + 1) if r in sheet.rows]
        else:
            row_numbers = [r for r in sheet.rows if rng.min_row <= r <= rng.max_row]
        out: list[object] = []
        for r in row_numbers:
            cells = sheet.rows[r]
            for c in range(rng.min_col, rng.max_col + 1):
                value = cells.get(c)
                if isinstance(value, _Formula):
                    value = self._value(sheet, r, c, value)
                if (sheet.title, r, c) in self._failed:
                    raise FormulaError("depends on a formula that cannot be evaluated")
                out.append(value)
        return out or [None]


# ---------------------------------------------------------------- sections


def _sections(sheet: _Sheet) -> list[Section]:
    """The sheet's tables as sections; a second table below the first (a blank row, its title
    alone on a row, then its own header row) is a table of its own, under its title."""
    if not sheet.rows:
        return []
    indexes = list(sheet.rows)
    starts = [0, *(i for i in range(2, len(indexes) - 1) if _starts_a_table(sheet, indexes, i))]
    if len(starts) == 1:
        return _table_sections(sheet)
    out: list[Section] = []
    for begin, end in zip(starts, [*starts[1:], len(indexes)], strict=True):
        part = _Sheet(sheet.title, {r: sheet.rows[r] for r in indexes[begin:end]},
                      formats=sheet.formats, pending=sheet.pending, computed=sheet.computed,
                      cells=sheet.cells)
        out += _table_sections(part)
    return out


def _starts_a_table(sheet: _Sheet, indexes: list[int], i: int) -> bool:
    """Row `indexes[i]` is a title alone after a blank row, over a header row of labels."""
    row, before = indexes[i], indexes[i - 1]
    cells = [v for v in sheet.rows[row].values() if v not in (None, "")]
    if row - before < 2 or len(cells) != 1 or not isinstance(cells[0], str):
        return False
    nxt = sheet.rows[indexes[i + 1]]
    labels = [v for v in nxt.values() if v not in (None, "")]
    return indexes[i + 1] == row + 1 and len(labels) >= 3 and all(
        isinstance(v, str) and not is_figure(v) for v in labels)


def _table_sections(sheet: _Sheet) -> list[Section]:
    indexes = list(sheet.rows)
    columns = sorted({c for r in indexes for c in sheet.rows[r]})
    span = list(range(columns[0], columns[-1] + 1))
    shape = table_shape([_display_row(sheet, r, span) for r in indexes[:SCAN_ROWS]])
    notes = [" | ".join(_display_row(sheet, r, sorted(sheet.rows[r])))
             for r in indexes[: shape.header_start]]
    header_rows = indexes[shape.header_start : shape.data_start]
    header_row = header_rows[-1]
    header = shape.header
    header_refs = _refs(sheet.title, header_row, span)
    data_rows = indexes[shape.data_start :] or [header_row]
    sections: list[Section] = []
    caption = caption_heading(notes)
    path = (sheet.title, caption) if caption else (sheet.title,)
    used = {c for r in indexes for c in sheet.rows[r]}  # notes may sit outside the table's columns
    first_col, last_col = get_column_letter(min(used)), get_column_letter(max(used))
    for start in range(0, len(data_rows), BLOCK_ROWS):
        block = data_rows[start : start + BLOCK_ROWS]
        if block == [header_row]:
            table, refs = [header], [header_refs]
        else:
            table = [header] + [_display_row(sheet, r, span) for r in block]
            refs = [header_refs] + [_refs(sheet.title, r, span) for r in block]
        top = indexes[0] if start == 0 else block[0]  # the first block includes notes and header
        cell_range = f"{first_col}{top}:{last_col}{block[-1]}"
        sections.append(
            Section(
                text=table_text(table, notes),
                location=Location.for_cell(sheet.title, cell_range),
                table=table,
                cell_refs=refs,
                heading_path=path,
                computed={f"{sheet.title}!{get_column_letter(c)}{r}": formula
                          for (r, c), formula in sheet.computed.items() if r in block},
            )
        )
    return sections


def _display_row(sheet: _Sheet, r: int, columns: list[int]) -> list[str]:
    cells = sheet.rows.get(r, {})
    return [display_value(cells.get(c), sheet.formats.get((r, c))) for c in columns]


def _refs(title: str, r: int, columns: list[int]) -> list[str]:
    return [f"{title}!{get_column_letter(c)}{r}" for c in columns]
