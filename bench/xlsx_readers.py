"""Reading .xlsx: openpyxl (what `parsers/xlsx.py` uses) against calamine (what reads .xls).

Speed on a generated workbook of many rows, and fidelity on what a citation needs: the number
format a cell is shown with (`€5.2M`, `12.5%`) and formulas saved without a cached value (a
workbook written by a script, never opened in Excel), which openpyxl evaluates and calamine
cannot.

    .venv/bin/python bench/xlsx_readers.py [--rows 20000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import openpyxl
from python_calamine import CalamineWorkbook

from manda.ingest.parsers import parse_file


def workbook(path: Path, rows: int) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Ledger"
    ws.append(["Account", "Q1 2024", "Q2 2024", "Share", "Total"])
    for r in range(2, rows + 2):
        ws.append([f"Account {r}", r * 10.5, r * 11.25, 0.125, f"=B{r}+C{r}"])
        ws.cell(r, 4).number_format = "0.0%"
        ws.cell(r, 2).number_format = "#,##0.00"
    wb.save(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = workbook(Path(tmp) / "ledger.xlsx", args.rows)

        started = time.perf_counter()
        parsed = parse_file(path)
        manda_seconds = time.perf_counter() - started
        first = parsed.sections[0].text.splitlines()[2]

        started = time.perf_counter()
        book = CalamineWorkbook.from_path(str(path))
        rows = book.get_sheet_by_name("Ledger").to_python(skip_empty_area=False)
        calamine_seconds = time.perf_counter() - started

    print(f"{args.rows:,} rows x 5 columns (a percentage format and a formula per row)\n")
    print(f"{'reader':34} {'seconds':>8}  a data row as read")
    print(f"{'openpyxl + Manda (parse_file)':34} {manda_seconds:8.2f}  {first}")
    print(f"{'calamine (values only)':34} {calamine_seconds:8.2f}  {rows[1]}")
    print("\ncalamine has no number formats (0.125, not 12.5%) and no value for a formula saved "
          "without one (''); openpyxl keeps both, so .xlsx stays on openpyxl and calamine reads "
          ".xls, where Excel always saved each formula's value.")


if __name__ == "__main__":
    main()
