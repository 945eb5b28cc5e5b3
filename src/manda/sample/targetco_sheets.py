"""TargetCo's workbooks: management accounts, the two FY2025 forecasts and the IRL."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.worksheet import Worksheet

from manda.sample._xlsx import save_workbook
from manda.sample.facts import IRL_ITEMS
from manda.sample.targetco_figures import (
    ASSET_LINES,
    BALANCE_SHEET,
    CUSTOMERS,
    LIABILITY_LINES,
    QUARTERS,
)

AUTHOR = "TargetCo GmbH, Finance"
THOUSANDS = "#,##0;(#,##0)"
PERCENT = "0%"
_BOLD = Font(bold=True)
_HEADER_FILL = PatternFill("solid", fgColor="DDE4EE")


def write_sheets(folder: Path) -> list[Path]:
    """Write every TargetCo workbook into `folder` and return their paths."""
    return [
        _financials(folder / "TargetCo_Financials.xlsx"),
        _forecast(folder / "TargetCo_Forecast_2025.xlsx", revised=False),
        _forecast(folder / "TargetCo_Forecast_2025_v2.xlsx", revised=True),
        _irl(folder / "TargetCo_IRL.xlsx"),
    ]


def _header(ws: Worksheet, row: int, values: list[str]) -> None:
    for col, value in enumerate(values, start=1):
        cell = ws.cell(row=row, column=col, value=value)
        cell.font = _BOLD
        cell.fill = _HEADER_FILL
        cell.alignment = Alignment(horizontal="left" if col == 1 else "right")


def _widths(ws: Worksheet, widths: dict[str, float]) -> None:
    for column, width in widths.items():
        ws.column_dimensions[column].width = width


# ---------------------------------------------------------------- management accounts

PNL_COLUMNS = ["Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023", "FY2023", "Q1 2024", "Q2 2024",
               "Q3 2024"]


def _financials(path: Path) -> Path:
    workbook = Workbook()
    _pnl_sheet(workbook.active)
    _balance_sheet(workbook.create_sheet("Balance Sheet"))
    _customer_sheet(workbook.create_sheet("Customers"))
    save_workbook(workbook, path, issued=date(2024, 10, 15), author=AUTHOR)
    return path


def _pnl_sheet(ws: Worksheet) -> None:
    """P&L in EUR thousands: inputs per quarter, formulas for subtotals and the FY2023 total."""
    ws.title = "P&L"
    ws["A1"] = "TargetCo GmbH — Profit and loss (management accounts)"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = "EUR thousands"
    ws["A3"] = "Date: 15 October 2024"
    _header(ws, 4, ["EUR thousands", *PNL_COLUMNS])
    labels = ["Revenue", "Cost of sales", "Gross profit", "Opex", "EBITDA", "Gross margin"]
    for offset, label in enumerate(labels):
        ws.cell(row=5 + offset, column=1, value=label).font = _BOLD if label in (
            "Gross profit", "EBITDA") else Font()
    for index, period in enumerate(PNL_COLUMNS):
        col = chr(ord("B") + index)
        if period == "FY2023":
            for row in (5, 6, 7, 8, 9):
                ws[f"{col}{row}"] = f"=SUM(B{row}:E{row})"
        else:
            pnl = QUARTERS[period]
            ws[f"{col}5"] = pnl.revenue
            ws[f"{col}6"] = pnl.cost_of_sales
            ws[f"{col}7"] = f"={col}5-{col}6"
            ws[f"{col}8"] = pnl.opex + pnl.restructuring
            ws[f"{col}9"] = f"={col}7-{col}8"
        ws[f"{col}10"] = f"={col}7/{col}5"
        for row in range(5, 10):
            ws[f"{col}{row}"].number_format = THOUSANDS
        ws[f"{col}10"].number_format = PERCENT
    ws["A12"] = ("Note: Q2 2024 opex include a one-time (non-recurring) restructuring charge of "
                 "400 for the consolidation of the Leipzig support office.")
    ws["A13"] = ("Note: FY2023 EBITDA of 2,900 agrees with the corrected annual report dated "
                 "15 April 2024.")
    _widths(ws, {"A": 18, **{chr(ord("B") + i): 11 for i in range(len(PNL_COLUMNS))}})


def _balance_sheet(ws: Worksheet) -> None:
    ws["A1"] = "TargetCo GmbH — Balance sheet"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = "EUR thousands"
    _header(ws, 4, ["EUR thousands", "31 Dec 2023", "30 Sep 2024"])
    layout: list[tuple[int, str]] = [
        (5, "Cash and cash equivalents"), (6, "Trade receivables"), (7, "Other current assets"),
        (9, "Property, plant and equipment"), (10, "Intangible assets"),
        (13, "Trade payables"), (14, "Deferred revenue"), (15, "Bank debt (term loan)"),
        (16, "Other liabilities"),
    ]
    for row, line in layout:
        ws.cell(row=row, column=1, value=line)
        _, dec_2023, sep_2024 = BALANCE_SHEET[line]
        ws.cell(row=row, column=2, value=dec_2023)
        ws.cell(row=row, column=3, value=sep_2024)
    totals = {
        8: ("Total current assets", "=SUM({c}5:{c}7)"),
        11: ("Total assets", "={c}8+{c}9+{c}10"),
        17: ("Total liabilities", "=SUM({c}13:{c}16)"),
        18: ("Equity", "={c}11-{c}17"),
        20: ("Net debt (negative = net cash)", "={c}15-{c}5"),
    }
    for row, (label, formula) in totals.items():
        ws.cell(row=row, column=1, value=label).font = _BOLD
        for col in ("B", "C"):
            ws[f"{col}{row}"] = formula.format(c=col)
    for row in range(5, 21):
        for col in ("B", "C"):
            ws[f"{col}{row}"].number_format = THOUSANDS
    assert {line for _, line in layout} == set(ASSET_LINES) | set(LIABILITY_LINES)
    _widths(ws, {"A": 34, "B": 13, "C": 13})


def _customer_sheet(ws: Worksheet) -> None:
    ws["A1"] = "TargetCo GmbH — Top customers"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = "Revenue in EUR thousands, last twelve months to 30 September 2024"
    _header(ws, 4, ["Customer", "Segment", "Revenue LTM Sep 2024", "Share of revenue"])
    first = 5
    last = first + len(CUSTOMERS) - 1
    total_row = last + 1
    for row, (name, segment, revenue) in enumerate(CUSTOMERS, start=first):
        ws.cell(row=row, column=1, value=name)
        ws.cell(row=row, column=2, value=segment)
        ws.cell(row=row, column=3, value=revenue).number_format = THOUSANDS
        ws.cell(row=row, column=4, value=f"=C{row}/$C${total_row}").number_format = PERCENT
    ws.cell(row=total_row, column=1, value="Total").font = _BOLD
    ws.cell(row=total_row, column=3, value=f"=SUM(C{first}:C{last})").number_format = THOUSANDS
    ws.cell(row=total_row, column=4, value=f"=SUM(D{first}:D{last})").number_format = PERCENT
    _widths(ws, {"A": 32, "B": 20, "C": 22, "D": 17})


# ---------------------------------------------------------------- forecasts


def _forecast(path: Path, *, revised: bool) -> Path:
    if revised:
        issued = date(2024, 9, 16)
        title = "TargetCo GmbH — Revised Forecast FY2025 (v2)"
        dated = "Date: September 2024"
        status = ("Status: FORECAST / BUDGET (revised) — not actuals. Replaces the forecast "
                  "dated January 2024.")
        revenue, ebitda, headcount = [5300, 5500, 5700, 6000], [900, 1000, 1100, 1200], 170
        assumptions = [
            "Slower new-customer acquisition in DACH than assumed in January 2024.",
            "Savings from the Q2 2024 restructuring (Leipzig support office) included.",
            "Globex AG contract renewed on current terms.",
        ]
    else:
        issued = date(2024, 1, 15)
        title = "TargetCo GmbH — Budget / Forecast FY2025"
        dated = "Date: January 2024"
        status = "Status: FORECAST / BUDGET — not actuals."
        revenue, ebitda, headcount = [5600, 5900, 6100, 6400], [1000, 1150, 1250, 1400], 180
        assumptions = [
            "New-customer growth of 25% per year in DACH.",
            "Price increase of 5% on renewals from January 2025.",
            "Globex AG contract renewed on current terms.",
        ]
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Forecast 2025"
    ws["A1"] = title
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = dated
    ws["A3"] = status
    ws["A4"] = "EUR thousands"
    _header(ws, 6, ["EUR thousands", "Q1 2025F", "Q2 2025F", "Q3 2025F", "Q4 2025F", "FY2025F"])
    ws["A7"], ws["A8"], ws["A9"] = "Revenue (forecast)", "EBITDA (forecast)", "EBITDA margin"
    for index in range(4):
        col = chr(ord("B") + index)
        ws[f"{col}7"] = revenue[index]
        ws[f"{col}8"] = ebitda[index]
    for col in "BCDEF":
        if col == "F":
            ws["F7"] = "=SUM(B7:E7)"
            ws["F8"] = "=SUM(B8:E8)"
        ws[f"{col}9"] = f"={col}8/{col}7"
        ws[f"{col}7"].number_format = THOUSANDS
        ws[f"{col}8"].number_format = THOUSANDS
        ws[f"{col}9"].number_format = PERCENT
    ws["A11"] = "Headcount at 31 December 2025 (forecast)"
    ws["F11"] = headcount
    _widths(ws, {"A": 40, "B": 11, "C": 11, "D": 11, "E": 11, "F": 11})

    notes = workbook.create_sheet("Assumptions")
    notes["A1"] = "Key assumptions"
    notes["A1"].font = _BOLD
    for row, text in enumerate(assumptions, start=2):
        notes.cell(row=row, column=1, value=text)
    _widths(notes, {"A": 90})
    save_workbook(workbook, path, issued=issued, author=AUTHOR)
    return path


# ---------------------------------------------------------------- information request list


def _irl(path: Path) -> Path:
    workbook = Workbook()
    ws = workbook.active
    ws.title = "IRL"
    _header(ws, 1, ["Ref", "Category", "Request", "Priority", "Status"])
    for row, item in enumerate(IRL_ITEMS, start=2):
        for col, value in enumerate(
            [item.ref, item.category, item.request, item.priority, item.status], start=1
        ):
            ws.cell(row=row, column=col, value=value)
    ws.freeze_panes = "A2"
    _widths(ws, {"A": 8, "B": 13, "C": 80, "D": 10, "E": 12})
    save_workbook(workbook, path, issued=date(2024, 10, 1), author="Buy-side deal team")
    return path
