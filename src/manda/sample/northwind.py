"""Northwind Logistics Ltd: a second, unrelated deal whose distinctive facts test deal isolation."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from docx import Document
from openpyxl import Workbook
from openpyxl.styles import Font

from manda.sample._csv import csv_text
from manda.sample._office import save_office_file
from manda.sample._pdf import PdfMeta, bullets, para, spacer, table, write_pdf
from manda.sample._xlsx import save_workbook
from manda.sample.facts import NORTHWIND_COMPANY

COMPANY = NORTHWIND_COMPANY


def write_northwind(folder: Path) -> list[Path]:
    """Write the Northwind data room into `folder` and return the file paths."""
    return [
        _q3_report(folder / "Northwind_Q3_2024_Report.pdf"),
        _fleet(folder / "Northwind_Fleet.xlsx"),
        _contracts(folder / "Northwind_Customer_Contracts.docx"),
        _depots(folder / "Northwind_Depots.csv"),
    ]


def _q3_report(path: Path) -> Path:
    issued = date(2024, 10, 24)
    pages = [
        [
            para(COMPANY, "Title"),
            para("Trading Update Q3 2024", "Heading1"),
            para("Quarter ended 30 September 2024"),
            para(f"Date: {issued.day} {issued:%B %Y}"),
            spacer(),
            para("Highlights", "Heading2"),
            *bullets([
                "Revenue of £7.7M (Q3 2023: £7.1M), up 8.5%.",
                "EBITDA of £0.95M (Q3 2023: £0.82M).",
                "412 employees as of 30 September 2024.",
                "Fleet of 400 vehicles and trailers across four depots.",
            ]),
            para("Chief Executive Officer: Priya Raman. Registered in England and Wales."),
        ],
        [
            para("Income statement", "Heading2"),
            para("GBP thousands, unaudited.", "Small"),
            table([
                ["GBP thousands", "Q3 2024", "Q3 2023"],
                ["Revenue", "7,700", "7,100"],
                ["Direct costs", "(5,390)", "(5,040)"],
                ["Gross profit", "2,310", "2,060"],
                ["Overheads", "(1,360)", "(1,240)"],
                ["EBITDA", "950", "820"],
            ], [60, 30, 30], bold_rows=[3, 5]),
            spacer(),
            para("Fuel costs fell 6% on the prior year; driver wages rose 5% after the April "
                 "2024 pay settlement."),
        ],
    ]
    meta = PdfMeta(title=f"{COMPANY} — Trading Update Q3 2024", author=COMPANY,
                   subject="Trading Update Q3 2024", issued=issued,
                   footer=f"{COMPANY} — Trading Update Q3 2024")
    write_pdf(path, pages, meta)
    return path


def _fleet(path: Path) -> Path:
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Fleet"
    ws["A1"] = f"{COMPANY} — Fleet register summary"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = "Date: 2 October 2024 (fleet as of 30 September 2024)"
    for col, value in enumerate(["Vehicle type", "Owned", "Leased", "Total",
                                 "Average age (years)"], start=1):
        ws.cell(row=4, column=col, value=value).font = Font(bold=True)
    fleet = [
        ("Articulated tractor units (44t)", 52, 34, 4.1),
        ("Rigid HGVs (18t)", 30, 24, 5.3),
        ("Vans (3.5t)", 45, 75, 2.8),
        ("Trailers", 110, 30, 7.2),
    ]
    for row, (kind, owned, leased, age) in enumerate(fleet, start=5):
        ws.cell(row=row, column=1, value=kind)
        ws.cell(row=row, column=2, value=owned)
        ws.cell(row=row, column=3, value=leased)
        ws.cell(row=row, column=4, value=f"=B{row}+C{row}")
        ws.cell(row=row, column=5, value=age)
    ws["A9"] = "Total"
    ws["A9"].font = Font(bold=True)
    for col in "BCD":
        ws[f"{col}9"] = f"=SUM({col}5:{col}8)"
    ws.column_dimensions["A"].width = 34
    save_workbook(workbook, path, issued=date(2024, 10, 2), author=COMPANY)
    return path


def _contracts(path: Path) -> Path:
    document = Document()
    document.add_heading(f"{COMPANY} — Key customer contracts", level=0)
    document.add_paragraph("Summary prepared by the legal team, 1 October 2024.")
    document.add_heading("Contoso Freight", level=1)
    document.add_paragraph(
        "Framework haulage agreement with Contoso Freight, Northwind's largest customer, worth "
        "about £2.1M a year. The agreement runs until 31 March 2026; either party may terminate "
        "for convenience on 60 days' notice. Fuel costs are passed through monthly."
    )
    document.add_heading("Other customers", level=1)
    document.add_paragraph(
        "Fabrikam Retail (store replenishment, until 31 December 2025) and Tailspin Foods "
        "(chilled distribution, until 30 September 2026)."
    )
    grid = document.add_table(rows=4, cols=3)
    grid.style = "Table Grid"
    for r, row in enumerate([
        ["Customer", "Annual value", "Term"],
        ["Contoso Freight", "£2.1M", "until 31 Mar 2026"],
        ["Fabrikam Retail", "£1.4M", "until 31 Dec 2025"],
        ["Tailspin Foods", "£0.9M", "until 30 Sep 2026"],
    ]):
        for c, value in enumerate(row):
            grid.cell(r, c).text = value
    save_office_file(document, path, issued=date(2024, 10, 1), author=COMPANY,
                     title=f"{COMPANY} — Key customer contracts")
    return path


def _depots(path: Path) -> Path:
    rows = [
        ["Depot", "Region", "Employees", "As of"],
        ["Daventry", "East Midlands", "164", "30 September 2024"],
        ["Warrington", "North West", "98", "30 September 2024"],
        ["Bristol", "South West", "80", "30 September 2024"],
        ["Glasgow", "Scotland", "70", "30 September 2024"],
    ]
    path.write_bytes(csv_text(rows).encode("utf-8"))
    return path
