"""Pennine's financial files: audited accounts, QoE report, bios (PDF) and three workbooks.

Written in UK conventions on purpose (financial year to 31 March, £000 tables, `2024 | 2023`
columns, quarters down rows and months across columns), so the room tests whether Manda reads
documents it was not written for. Ground truth: `manda.sample.pennine_facts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.worksheet.worksheet import Worksheet

from manda.sample._paths import room_folder
from manda.sample._pdf import PdfMeta, bullets, para, spacer, table, write_pdf
from manda.sample._xlsx import save_workbook
from manda.sample.pennine_facts import (
    ACCOUNTS,
    BIOS,
    BUDGET,
    COMPANY,
    F_BUDGET,
    F_FDD,
    F_MANAGEMENT,
    F_MANAGEMENT_TEAM,
    F_OWNERSHIP,
    F_STATUTORY,
    MGMT,
    QOE,
    REGISTER,
)

THOUSANDS = "#,##0;(#,##0)"
PERCENT = "0.0%"
_BOLD = Font(bold=True)


def write_financial_files(room: Path) -> list[Path]:
    """Write Pennine's PDFs and workbooks into their VDR folders under `room`."""
    return [
        _accounts(room_folder(room, F_STATUTORY) / ACCOUNTS),
        _qoe(room_folder(room, F_FDD) / QOE),
        _bios(room_folder(room, F_MANAGEMENT_TEAM) / BIOS),
        _management_accounts(room_folder(room, F_MANAGEMENT) / MGMT),
        _budget(room_folder(room, F_BUDGET) / BUDGET),
        _register(room_folder(room, F_OWNERSHIP) / REGISTER),
    ]


def _meta(title: str, issued: date, author: str = COMPANY) -> PdfMeta:
    return PdfMeta(title=title, author=author, subject=title, issued=issued,
                   footer=f"{COMPANY} — {title}")


# ---------------------------------------------------------------- audited accounts


def _accounts(path: Path) -> Path:
    pages = [
        [
            para(COMPANY, "Title"),
            para("Annual Report and Financial Statements for the year ended 31 March 2024",
                 "Heading1"),
            para("Company registration number 04418263 (England and Wales)"),
            para("Strategic report", "Heading2"),
            para("Revenue for the year grew 12.7% to £14.2m (2023: £12.6m), driven by "
                 "aerospace volumes under the long-term agreement with our largest customer. "
                 "Operating profit rose to £2.02m (2023: £1.59m) and profit for the financial "
                 "year to £1.29m (2023: £1.02m)."),
            para("Principal risks", "Heading2"),
            *bullets([
                "Customer concentration: our largest customer accounted for 31% of revenue.",
                "Skills: recruitment of experienced CNC machinists and setters remains "
                "difficult in West Yorkshire.",
                "Litigation: a claim by a former supplier is being defended (note 18).",
            ]),
            para("The financial statements were approved by the board on 18 July 2024 and "
                 "signed on its behalf by David Thornton, Director."),
            para("Independent auditor: Calder & Whitworth LLP, Chartered Accountants and "
                 "Statutory Auditor, Leeds."),
        ],
        [
            para("Independent auditor's report to the members", "Heading2"),
            para("In our opinion the financial statements give a true and fair view of the "
                 "state of the company's affairs as at 31 March 2024 and of its profit for the "
                 "year then ended, and have been properly prepared in accordance with United "
                 "Kingdom Generally Accepted Accounting Practice (FRS 102)."),
            para("Profit and loss account for the year ended 31 March 2024", "Heading2"),
            para("All amounts in £000. Comparatives are for the year ended 31 March 2023.",
                 "Small"),
            table([
                ["£000", "Note", "2024", "2023"],
                ["Turnover", "3", "14,200", "12,600"],
                ["Cost of sales", "", "(9,230)", "(8,330)"],
                ["Gross profit", "", "4,970", "4,270"],
                ["Distribution costs", "", "(410)", "(380)"],
                ["Administrative expenses", "", "(2,540)", "(2,300)"],
                ["Operating profit", "4", "2,020", "1,590"],
                ["Interest payable and similar expenses", "", "(310)", "(260)"],
                ["Profit before taxation", "", "1,710", "1,330"],
                ["Tax on profit", "", "(420)", "(310)"],
                ["Profit for the financial year", "", "1,290", "1,020"],
            ], [80, 15, 25, 25], bold_rows=[3, 6, 10]),
        ],
        [
            para("Balance sheet as at 31 March 2024", "Heading2"),
            para("All amounts in £000.", "Small"),
            table([
                ["£000", "2024", "2023"],
                ["Tangible fixed assets", "6,400", "5,900"],
                ["Stocks", "2,100", "1,800"],
                ["Debtors", "2,600", "2,300"],
                ["Cash at bank and in hand", "1,850", "1,200"],
                ["Creditors: trade and other payables", "(2,350)", "(2,000)"],
                ["Bank loans and overdrafts", "(5,000)", "(4,400)"],
                ["Lease liabilities", "(1,120)", "(1,260)"],
                ["Provisions: deferred tax", "(330)", "(280)"],
                ["Net assets", "4,150", "3,260"],
                ["Called up share capital", "10", "10"],
                ["Profit and loss account", "4,140", "3,250"],
                ["Shareholders' funds", "4,150", "3,260"],
            ], [90, 25, 25], bold_rows=[9, 12]),
        ],
        [
            para("Notes to the financial statements (extract)", "Heading2"),
            para("4. Operating profit is stated after charging depreciation of tangible fixed "
                 "assets of £560,000 (2023: £520,000) and amortisation of £80,000 (2023: "
                 "£70,000): depreciation and amortisation of £640,000 in total (2023: "
                 "£590,000)."),
            para("7. Employees: the average monthly number of employees was 118 (2023: 109)."),
            para("9. Dividends: interim dividends of £400,000 were paid in the year (2023: "
                 "£300,000)."),
            para("12. Bank loans: a term loan from Aire Valley Bank plc of £4.5m repayable in "
                 "quarterly instalments to June 2028, and £0.5m drawn under a revolving credit "
                 "facility. Both are secured by a debenture over the company's assets."),
            para("18. Contingent liabilities: a former supplier, Castleford Tooling Ltd, has "
                 "issued a claim against the company for £640,000. The directors, on legal "
                 "advice, intend to defend the claim and no provision has been recognised."),
            para("20. Events after the reporting period: none requiring disclosure."),
        ],
    ]
    write_pdf(path, pages, _meta("Annual Report and Financial Statements FY2024",
                                 date(2024, 7, 18)))
    return path


# ---------------------------------------------------------------- quality of earnings


def _qoe(path: Path) -> Path:
    firm = "Elland Transaction Services LLP"
    pages = [
        [
            para("Project Kestrel", "Title"),
            para("Financial due diligence: quality of earnings", "Heading1"),
            para(f"Prepared by {firm} for the directors of {COMPANY} · 2 September 2024"),
            para("Key findings", "Heading2"),
            *bullets([
                "Revenue FY2024: GBP 14,200k (FY2023: GBP 12,600k); the financial year ends "
                "31 March.",
                "Reported EBITDA of £2.66m for FY2024 (FY2023: £2.18m): operating profit of "
                "£2.02m before depreciation and amortisation of £0.64m.",
                "Adjusted EBITDA of £3.02m for FY2024 (FY2023: £2.39m) after normalisation "
                "adjustments of £0.36m (bridge on page 2). Adjusted EBITDA differs from "
                "reported EBITDA by definition: it removes non-recurring items; the two "
                "figures are not inconsistent.",
                "Customer concentration: Meridian Aerostructures 31% of FY2024 revenue; the "
                "top three customers 57%.",
                "Key-person dependency: David Thornton, Managing Director and largest "
                "shareholder, personally manages the relationships with Meridian and Halcyon; "
                "there is no documented succession plan.",
                "Finance function: there has been no Finance Director since January 2024; the "
                "Financial Controller reports to the Managing Director.",
            ]),
        ],
        [
            para("Reported to adjusted EBITDA", "Heading2"),
            para("£000, years ended 31 March.", "Small"),
            table([
                ["£000", "FY2023", "FY2024"],
                ["Reported EBITDA", "2,180", "2,660"],
                ["Castleford litigation legal fees", "–", "185"],
                ["ERP implementation (one-off)", "120", "140"],
                ["Finance Director recruitment fees", "–", "95"],
                ["Government grant release (non-recurring income)", "–", "(60)"],
                ["Owner remuneration to market rate", "90", "–"],
                ["Total adjustments", "210", "360"],
                ["Adjusted EBITDA", "2,390", "3,020"],
            ], [95, 25, 25], bold_rows=[1, 8]),
            spacer(),
            para("The legal fees relate to the defence of the High Court claim by Castleford "
                 "Tooling Ltd and are not expected to recur once it is resolved. ERP costs are "
                 "the implementation of a new production-planning system, completed in "
                 "February 2024. The grant release is a one-off credit from a regional "
                 "skills grant."),
        ],
        [
            para("Net debt at 31 March 2024", "Heading2"),
            para("£000.", "Small"),
            table([
                ["£000", "31 Mar 2024"],
                ["Term loan (Aire Valley Bank plc)", "(4,500)"],
                ["Revolving credit facility", "(500)"],
                ["Cash at bank", "1,850"],
                ["Net debt", "(3,150)"],
                ["Lease liabilities", "(1,120)"],
                ["Net debt including leases", "(4,270)"],
            ], [95, 30], bold_rows=[4, 6]),
            spacer(),
            para("Leverage (net debt to reported EBITDA) was 1.18x at 31 March 2024 against a "
                 "covenant of 2.50x. Working capital is seasonal, peaking in the third quarter "
                 "of the financial year."),
        ],
    ]
    write_pdf(path, pages, _meta("Quality of earnings report", date(2024, 9, 2), firm))
    return path


# ---------------------------------------------------------------- management biographies


def _bio(name: str, role: str, text: str) -> list:  # type: ignore[type-arg]
    return [para(f"{name} — {role}", "Heading2"), para(text)]


def _bios(path: Path) -> Path:
    pages = [
        [
            para(COMPANY, "Title"),
            para("Management biographies", "Heading1"),
            para("As at 2 September 2024."),
            *_bio("David Thornton", "Managing Director",
                  "Joined the family business in 1994 as an apprentice machinist and has been "
                  "Managing Director since 2009. Leads the relationships with the largest "
                  "aerospace and medical customers. Holds 42% of the fully diluted share "
                  "capital."),
            *_bio("Sarah Okafor", "Operations Director",
                  "Joined in 2015 from a tier-one aerospace supplier; responsible for the two "
                  "sites, production planning, quality and the AS9100 and ISO 13485 "
                  "certifications."),
            *_bio("James Whitaker", "Commercial Director",
                  "Joined in 2018; responsible for sales, pricing and new-customer "
                  "development in medical devices and industrial hydraulics."),
        ],
        [
            *_bio("Rhys Morgan", "Engineering Director",
                  "Joined in 2012; leads manufacturing engineering, CNC programming and the "
                  "five-axis machining cell commissioned in 2023."),
            *_bio("Helen Baxter", "Financial Controller",
                  "Joined in 2019; chartered certified accountant (ACCA). Leads a finance team "
                  "of four, prepares the monthly management accounts and reports to the "
                  "Managing Director."),
        ],
    ]
    write_pdf(path, pages, _meta("Management biographies", date(2024, 9, 2)))
    return path


# ---------------------------------------------------------------- workbooks


def _title(ws: Worksheet, title: str, caption: str) -> None:
    ws["A1"] = title
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = caption


def _header(ws: Worksheet, row: int, labels: Sequence[object]) -> None:
    for col, label in enumerate(labels, start=1):
        cell = ws.cell(row=row, column=col, value=label)
        cell.font = _BOLD


def _numbers(ws: Worksheet, cells: str, fmt: str = THOUSANDS) -> None:
    for row in ws[cells]:
        for cell in row:
            cell.number_format = fmt


def _management_accounts(path: Path) -> Path:
    workbook = Workbook()
    _quarterly(workbook.active)
    _monthly(workbook.create_sheet("Monthly P&L"))
    _customers(workbook.create_sheet("Customers"))
    save_workbook(workbook, path, issued=date(2024, 10, 11), author=COMPANY)
    return path


def _quarterly(ws: Worksheet) -> None:
    """Quarters down the rows, measures across: FY2024 by quarter and FY2025 to date."""
    ws.title = "Quarterly"
    _title(ws, f"{COMPANY} — Quarterly trading",
           "£000 unless stated · the financial year ends 31 March (FY24 = April 2023 to "
           "March 2024)")
    _header(ws, 4, ["Quarter", "Months", "Revenue", "Gross profit", "Gross margin", "EBITDA"])
    quarters = {
        5: ("Q1 FY24", "Apr–Jun 2023", 3300, 1140, 600),
        6: ("Q2 FY24", "Jul–Sep 2023", 3400, 1190, 640),
        7: ("Q3 FY24", "Oct–Dec 2023", 3600, 1270, 680),
        8: ("Q4 FY24", "Jan–Mar 2024", 3900, 1370, 740),
        11: ("Q1 FY25", "Apr–Jun 2024", 3730, 1290, 700),
        12: ("Q2 FY25", "Jul–Sep 2024", 3720, 1300, 720),
    }
    for row, (quarter, months, revenue, gross, ebitda) in quarters.items():
        ws.cell(row=row, column=1, value=quarter)
        ws.cell(row=row, column=2, value=months)
        ws.cell(row=row, column=3, value=revenue)
        ws.cell(row=row, column=4, value=gross)
        ws.cell(row=row, column=6, value=ebitda)
    for row, label, months, first, last in ((9, "FY24", "Apr 2023–Mar 2024", 5, 8),
                                            (13, "H1 FY25", "Apr–Sep 2024", 11, 12)):
        ws.cell(row=row, column=1, value=label).font = _BOLD
        ws.cell(row=row, column=2, value=months)
        for col in "CDF":
            ws[f"{col}{row}"] = f"=SUM({col}{first}:{col}{last})"
            ws[f"{col}{row}"].font = _BOLD
    for row in (5, 6, 7, 8, 9, 11, 12, 13):
        ws[f"E{row}"] = f"=D{row}/C{row}"
        ws[f"E{row}"].number_format = PERCENT
    _numbers(ws, "C5:D13")
    _numbers(ws, "F5:F13")
    ws["A15"] = ("Q4 FY24 revenue is shown after the correction of a duplicated invoice "
                 "(see the board minutes of 21 May 2024).")
    ws.column_dimensions["A"].width = 12
    ws.column_dimensions["B"].width = 20


def _monthly(ws: Worksheet) -> None:
    """Months across the columns (real dates shown as Apr-24 …), lines down the rows."""
    _title(ws, f"{COMPANY} — Monthly profit and loss, FY25 year to date",
           "GBP 000s unless stated")
    months = [datetime(2024, month, 1) for month in range(4, 10)]
    _header(ws, 4, ["£000", *months, "H1 FY25"])
    for col in range(2, 8):
        ws.cell(row=4, column=col).number_format = "mmm-yy"
    lines = {
        5: ("Revenue", [1180, 1240, 1310, 1220, 1150, 1350]),
        6: ("Cost of sales", [770, 810, 860, 800, 750, 870]),
        8: ("Overheads", [180, 190, 220, 185, 185, 210]),
        11: ("Headcount (number, month end)", [121, 122, 122, 124, 125, 126]),
    }
    for row, (label, values) in lines.items():
        ws.cell(row=row, column=1, value=label)
        for offset, value in enumerate(values):
            ws.cell(row=row, column=2 + offset, value=value)
    ws["A7"] = "Gross profit"
    ws["A9"] = "EBITDA"
    for label_cell in ("A7", "A9"):
        ws[label_cell].font = _BOLD
    for col in "BCDEFG":
        ws[f"{col}7"] = f"={col}5-{col}6"
        ws[f"{col}9"] = f"={col}7-{col}8"
    for row in (5, 6, 7, 8, 9):
        ws[f"H{row}"] = f"=SUM(B{row}:G{row})"
    _numbers(ws, "B5:H9")
    ws.column_dimensions["A"].width = 30


def _customers(ws: Worksheet) -> None:
    _title(ws, "Revenue by customer — year ended 31 March 2024", "£000")
    _header(ws, 4, ["Customer", "Sector", "FY24 revenue", "Share of revenue"])
    customers = [
        ("Meridian Aerostructures Ltd", "Aerospace", 4400),
        ("Halcyon Medical Devices Ltd", "Medical", 2410),
        ("Brigg Hydraulics Ltd", "Industrial", 1280),
        ("Oakworth Defence Systems Ltd", "Aerospace", 850),
        ("Other customers (c. 140)", "Mixed", 5260),
    ]
    for row, (name, sector, revenue) in enumerate(customers, start=5):
        ws.cell(row=row, column=1, value=name)
        ws.cell(row=row, column=2, value=sector)
        ws.cell(row=row, column=3, value=revenue)
        ws[f"D{row}"] = f"=C{row}/C10"
    ws["A10"] = "Total"
    ws["A10"].font = _BOLD
    ws["C10"] = "=SUM(C5:C9)"
    ws["D10"] = "=SUM(D5:D9)"
    _numbers(ws, "C5:C10")
    _numbers(ws, "D5:D10", PERCENT)
    ws.column_dimensions["A"].width = 32


def _budget(path: Path) -> Path:
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Budget FY25"
    _title(ws, f"{COMPANY} — Budget for the year ending 31 March 2025",
           "Approved by the board on 26 March 2024 · £'000")
    _header(ws, 4, ["£'000", "Q1 FY25", "Q2 FY25", "Q3 FY25", "Q4 FY25", "FY25 budget"])
    lines = {
        5: ("Revenue", [3850, 3950, 3900, 4100]),
        6: ("Gross profit", [1350, 1390, 1370, 1450]),
        7: ("EBITDA", [780, 820, 790, 810]),
        9: ("Capital expenditure", [150, 200, 150, 100]),
    }
    for row, (label, values) in lines.items():
        ws.cell(row=row, column=1, value=label)
        for offset, value in enumerate(values):
            ws.cell(row=row, column=2 + offset, value=value)
        ws[f"F{row}"] = f"=SUM(B{row}:E{row})"
    _numbers(ws, "B5:F9")
    ws["A11"] = "Budget assumptions: aerospace volumes +9%, medical +6%, price increases of 3% " \
                "from 1 April 2024, two additional five-axis machines."
    ws.column_dimensions["A"].width = 22
    save_workbook(workbook, path, issued=date(2024, 3, 26), author=COMPANY)
    return path


def _register(path: Path) -> Path:
    """Share classes across the columns, holders down the rows, fully diluted % at the end."""
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Register"
    _title(ws, f"{COMPANY} — Register of members and share capital",
           "As at 31 August 2024 · nominal value £0.01 per share")
    _header(ws, 4, ["Shareholder", "A Ordinary", "B Ordinary", "C Growth", "EMI options",
                    "Total (fully diluted)", "% fully diluted"])
    holders: list[tuple[str, int, int, int, int]] = [
        ("David Thornton", 420_000, 0, 0, 0),
        ("Margaret Thornton", 180_000, 0, 0, 0),
        ("Ridings Capital LP", 0, 250_000, 0, 0),
        ("Pennine Precision Employee Benefit Trust", 60_000, 0, 0, 0),
        ("Sarah Okafor", 0, 0, 40_000, 0),
        ("EMI option holders (14 employees)", 0, 0, 0, 50_000),
    ]
    for row, (name, *classes) in enumerate(holders, start=5):
        ws.cell(row=row, column=1, value=name)
        for offset, count in enumerate(classes):
            if count:
                ws.cell(row=row, column=2 + offset, value=count)
        ws[f"F{row}"] = f"=SUM(B{row}:E{row})"
        ws[f"G{row}"] = f"=F{row}/F11"
    ws["A11"] = "Total"
    ws["A11"].font = _BOLD
    for col in "BCDEFG":
        ws[f"{col}11"] = f"=SUM({col}5:{col}10)"
    _numbers(ws, "B5:F11", "#,##0")
    _numbers(ws, "G5:G11", PERCENT)
    ws["A13"] = ("B Ordinary shares carry a liquidation preference of 1.0x and the right to "
                 "appoint one director. C Growth shares participate above a hurdle of £12m "
                 "equity value.")
    ws.column_dimensions["A"].width = 40
    save_workbook(workbook, path, issued=date(2024, 8, 31), author=COMPANY)
    return path
