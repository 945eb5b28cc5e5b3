"""Legacy Excel 97-2003 workbooks (.xls) read with calamine, cited by `Sheet!B7` like .xlsx.

A .xls file stores each formula's last computed value next to it; calamine returns that value,
which is what the workbook showed when it was saved. Rows become the same blocks as .xlsx, so
extraction and citations do not care which format a workbook came in.
"""

from __future__ import annotations

from pathlib import Path

from manda.ingest.parsers.base import ParseLimits, unreadable
from manda.ingest.parsers.xlsx import _sections, _Sheet
from manda.models import ParsedDocument

_PROTECTED = "is password-protected; ask the seller for an unprotected copy"


def parse_xls(path: Path, filename: str, limits: ParseLimits) -> ParsedDocument:
    from python_calamine import CalamineWorkbook

    try:
        workbook = CalamineWorkbook.from_path(str(path))
    except Exception as exc:  # calamine raises its own error types for damaged or locked files
        if "password" in str(exc).lower() or "encrypt" in str(exc).lower():
            raise unreadable(filename, _PROTECTED) from exc
        raise
    try:
        sheets = [
            _read_sheet(workbook, name, filename, limits) for name in workbook.sheet_names
        ]
    finally:
        workbook.close()
    sections = [section for sheet in sheets for section in _sections(sheet)]
    return ParsedDocument(
        filename=filename, file_type="xls", sections=sections, units=len(sheets)
    )


def _read_sheet(workbook: object, name: str, filename: str, limits: ParseLimits) -> _Sheet:
    sheet = _Sheet(title=name)
    data = workbook.get_sheet_by_name(name)  # type: ignore[attr-defined]
    # Anchored at A1 (skip_empty_area=False), so row and column numbers are the cell's own.
    for row_index, cells in enumerate(data.to_python(skip_empty_area=False), start=1):
        values = {
            col_index: value
            for col_index, value in enumerate(cells, start=1)
            if value is not None and not (isinstance(value, str) and not value.strip())
        }
        if not values:
            continue
        sheet.rows[row_index] = values
        if len(sheet.rows) > limits.max_sheet_rows:
            raise unreadable(
                filename,
                f"has a sheet ('{name}') with more than {limits.max_sheet_rows:,} rows of data; "
                "split it into smaller workbooks or raise MANDA_MAX_SHEET_ROWS",
            )
    return sheet
