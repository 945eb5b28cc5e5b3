"""Tidewater's files: a US room (fiscal year to June 30, $ in thousands) nobody on the team wrote.

PDFs (audited statements, flash report, compliance certificate, QoE), workbooks (monthly P&L with
months across the columns, a quarterly reporting pack with LTM, the cap table, the request list),
a Word credit agreement in US legal style and an `.eml` e-mail. Ground truth:
`manda.sample.tidewater_facts`; evaluation-only, so the demo does not get slower.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from docx import Document
from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.worksheet.worksheet import Worksheet

from manda.sample._office import save_office_file
from manda.sample._paths import room_folder
from manda.sample._pdf import PdfMeta, bullets, para, spacer, table, write_pdf
from manda.sample._xlsx import save_workbook
from manda.sample.tidewater_facts import (
    AUDIT,
    CAP_TABLE,
    COMPANY,
    COMPLIANCE,
    CREDIT,
    CUSTOMERS,
    F_CORPORATE,
    F_DILIGENCE,
    F_FINANCIALS,
    F_LEGAL,
    FLASH,
    HOLDERS,
    IRL,
    IRL_ITEMS,
    LENDER,
    MONTHLY,
    MONTHLY_COGS,
    MONTHLY_REVENUE,
    MONTHLY_SGA,
    MONTHS,
    OTHER_CUSTOMERS_K,
    PACK,
    QOE,
    QUARTERS,
    RESTATEMENT,
)

THOUSANDS = "#,##0;(#,##0)"
_BOLD = Font(bold=True)


def write_tidewater(room: Path) -> list[Path]:
    """Write every Tidewater file into its folder under `room`; return their paths."""
    return [
        _audit(room_folder(room, F_FINANCIALS) / AUDIT),
        _monthly(room_folder(room, F_FINANCIALS) / MONTHLY),
        _pack(room_folder(room, F_FINANCIALS) / PACK),
        _flash(room_folder(room, F_FINANCIALS) / FLASH),
        _restatement(room_folder(room, F_FINANCIALS) / RESTATEMENT),
        _cap_table(room_folder(room, F_CORPORATE) / CAP_TABLE),
        _credit_agreement(room_folder(room, F_LEGAL) / CREDIT),
        _compliance(room_folder(room, F_LEGAL) / COMPLIANCE),
        _qoe(room_folder(room, F_DILIGENCE) / QOE),
        _requests(room_folder(room, F_DILIGENCE) / IRL),
    ]


def _meta(title: str, issued: date, author: str = COMPANY) -> PdfMeta:
    return PdfMeta(title=title, author=author, subject=title, issued=issued,
                   footer=f"{COMPANY} — {title}")


# ---------------------------------------------------------------- audited statements


def _audit(path: Path) -> Path:
    auditor = "Brazos & Whitfield LLP"
    pages = [
        [
            para(COMPANY, "Title"),
            para("Consolidated Financial Statements as of and for the fiscal years ended "
                 "June 30, 2025 and 2024", "Heading1"),
            para("Report of Independent Auditors", "Heading2"),
            para("To the Board of Directors and Stockholders of Tidewater Fluid Controls, Inc. "
                 "We have audited the accompanying consolidated financial statements, which "
                 "comprise the consolidated balance sheets as of June 30, 2025 and 2024, and the "
                 "related consolidated statements of operations for the fiscal years then ended. "
                 "In our opinion, the consolidated financial statements present fairly, in all "
                 "material respects, the financial position of the Company in accordance with "
                 "accounting principles generally accepted in the United States of America."),
            para(f"{auditor}, Houston, Texas · September 12, 2025"),
            para("Tidewater Fluid Controls, Inc. designs and distributes industrial valves, "
                 "actuators and flow-control assemblies for refining, midstream and water "
                 "customers from its facilities in Pasadena and Beaumont, Texas."),
        ],
        [
            para("Consolidated Statements of Operations", "Heading2"),
            para("(in thousands of U.S. dollars) · Fiscal years ended June 30", "Small"),
            table([
                ["", "2025", "2024"],
                ["Net sales", "48,600", "42,300"],
                ["Cost of sales", "(32,370)", "(28,600)"],
                ["Gross profit", "16,230", "13,700"],
                ["Selling, general and administrative expenses", "(7,350)", "(6,300)"],
                ["Depreciation and amortization", "(1,950)", "(1,840)"],
                ["Operating income", "6,930", "5,560"],
                ["Interest expense, net", "(2,150)", "(1,920)"],
                ["Income before income taxes", "4,780", "3,640"],
                ["Provision for income taxes", "(1,170)", "(770)"],
                ["Net income", "3,610", "2,870"],
            ], [95, 25, 25], bold_rows=[3, 6, 10]),
        ],
        [
            para("Consolidated Balance Sheets", "Heading2"),
            para("(in thousands of U.S. dollars) · As of June 30", "Small"),
            table([
                ["", "2025", "2024"],
                ["Cash and cash equivalents", "3,150", "2,480"],
                ["Accounts receivable, net", "7,900", "6,850"],
                ["Inventories", "9,400", "8,700"],
                ["Property, plant and equipment, net", "14,200", "13,600"],
                ["Goodwill and intangible assets, net", "18,500", "19,300"],
                ["Total assets", "53,150", "50,930"],
                ["Accounts payable and accrued liabilities", "6,700", "6,100"],
                ["Revolving credit facility", "4,000", "3,000"],
                ["Term loan, net of current portion", "25,000", "27,000"],
                ["Deferred income taxes", "1,300", "1,180"],
                ["Total stockholders' equity", "16,150", "13,650"],
            ], [95, 25, 25], bold_rows=[6, 11]),
            spacer(),
            para("Note 7 — Long-term debt", "Heading2"),
            para(f"Under the Credit Agreement dated March 14, 2023 with {LENDER}, as "
                 "administrative agent, the Company had $25.0 million outstanding under the "
                 "term loan and $4.0 million drawn under the $10.0 million revolving credit "
                 "facility as of June 30, 2025. Borrowings bear interest at Term SOFR plus an "
                 "applicable margin and are secured by substantially all assets of the Company. "
                 "The Company was in compliance with its financial covenants as of June 30, "
                 "2025."),
        ],
    ]
    write_pdf(path, pages, _meta("Consolidated Financial Statements FY2025",
                                 date(2025, 9, 12), auditor))
    return path


# ---------------------------------------------------------------- monthly P&L workbook


def _title(ws: Worksheet, title: str, caption: str) -> None:
    ws["A1"] = title
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = caption


def _header(ws: Worksheet, row: int, labels: Sequence[object]) -> None:
    for col, label in enumerate(labels, start=1):
        ws.cell(row=row, column=col, value=label).font = _BOLD


def _numbers(ws: Worksheet, cells: str) -> None:
    for row in ws[cells]:
        for cell in row:
            cell.number_format = THOUSANDS


def _monthly(path: Path) -> Path:
    """Months across the columns as text headers, a total column, lines down the rows."""
    workbook = Workbook()
    ws = workbook.active
    ws.title = "FY25 Monthly"
    _title(ws, f"{COMPANY} — Monthly Income Statement, Fiscal Year 2025",
           "($000s) · fiscal year ends June 30 (FY2025 = July 2024 – June 2025) · unaudited")
    _header(ws, 4, ["$000s", *MONTHS, "FY2025 Total"])
    lines = {6: ("Net revenue", MONTHLY_REVENUE), 7: ("Cost of goods sold", MONTHLY_COGS),
             9: ("SG&A (excl. D&A)", MONTHLY_SGA)}
    for row, (label, values) in lines.items():
        ws.cell(row=row, column=1, value=label)
        for col, value in enumerate(values, start=2):
            ws.cell(row=row, column=col, value=value)
    ws["A8"] = "Gross profit"
    ws["A10"] = "EBITDA"
    ws["A8"].font = ws["A10"].font = _BOLD
    for col in "BCDEFGHIJKLM":
        ws[f"{col}8"] = f"={col}6-{col}7"
        ws[f"{col}10"] = f"={col}8-{col}9"
    for row in (6, 7, 8, 9, 10):
        ws[f"N{row}"] = f"=SUM(B{row}:M{row})"
        ws[f"N{row}"].font = _BOLD
    _numbers(ws, "B6:N10")
    ws["A12"] = "Figures in thousands of U.S. dollars. EBITDA before management adjustments."
    ws.column_dimensions["A"].width = 24
    save_workbook(workbook, path, issued=date(2025, 7, 25), author=COMPANY)
    return path


# ---------------------------------------------------------------- quarterly reporting pack


def _pack(path: Path) -> Path:
    workbook = Workbook()
    _quarterly(workbook.active)
    _balance_sheet(workbook.create_sheet("Balance Sheet"))
    _customers(workbook.create_sheet("Customers"))
    save_workbook(workbook, path, issued=date(2025, 8, 8), author=COMPANY)
    return path


def _quarterly(ws: Worksheet) -> None:
    """Quarters across the columns, then an LTM column and the fiscal year."""
    ws.title = "Quarterly"
    _title(ws, f"{COMPANY} — Management Reporting Pack, Q4 FY2025",
           "(in thousands) · Q1 FY25 = Jul–Sep 2024 · LTM Mar-25 = twelve months to "
           "March 31, 2025")
    labels = list(QUARTERS)
    _header(ws, 4, ["$000s", *labels, "LTM Mar-25", "FY2025"])
    ws.cell(row=5, column=1, value="Months")
    for col, label in enumerate(labels, start=2):
        months, revenue, ebitda = QUARTERS[label]
        ws.cell(row=5, column=col, value=months)
        ws.cell(row=6, column=col, value=revenue)
        ws.cell(row=10, column=col, value=ebitda)
    ws["A6"], ws["A10"] = "Net revenue", "EBITDA"
    ws["A11"] = "EBITDA margin"
    ws["G5"], ws["H5"] = "Apr 2024–Mar 2025", "Jul 2024–Jun 2025"
    for row in (6, 10):
        ws[f"G{row}"] = f"=SUM(B{row}:E{row})"
        ws[f"H{row}"] = f"=SUM(C{row}:F{row})"
    for col in "BCDEFGH":
        ws[f"{col}11"] = f"={col}10/{col}6"
        ws[f"{col}11"].number_format = "0.0%"
    _numbers(ws, "B6:H10")
    ws["A13"] = ("Q3 FY25 net revenue is shown as restated (previously reported $12.75 million "
                 "in the flash report); see the CFO's e-mail of July 22, 2025.")
    ws.column_dimensions["A"].width = 16


def _balance_sheet(ws: Worksheet) -> None:
    _title(ws, "Balance sheet — June 30, 2025", "(in thousands) · unaudited management figures")
    _header(ws, 4, ["$000s", "Jun 30, 2025"])
    rows = [("Cash", 3150), ("Accounts receivable", 7900), ("Inventory", 9400),
            ("Term loan", 25000), ("Revolver drawn", 5500), ("Net debt", 27350)]
    for row, (label, value) in enumerate(rows, start=5):
        ws.cell(row=row, column=1, value=label)
        ws.cell(row=row, column=2, value=value)
    _numbers(ws, "B5:B10")
    ws.column_dimensions["A"].width = 22


def _customers(ws: Worksheet) -> None:
    _title(ws, "Customer concentration — FY2025 net revenue", "(in thousands)")
    _header(ws, 4, ["Customer", "Segment", "FY2025 revenue", "% of total"])
    segments = ("Refining", "Midstream", "Water", "Chemicals")
    for row, ((name, revenue, _), segment) in enumerate(zip(CUSTOMERS, segments, strict=True),
                                                         start=5):
        ws.cell(row=row, column=1, value=name)
        ws.cell(row=row, column=2, value=segment)
        ws.cell(row=row, column=3, value=revenue)
    last = 5 + len(CUSTOMERS)
    ws.cell(row=last, column=1, value="All other customers")
    ws.cell(row=last, column=3, value=OTHER_CUSTOMERS_K)
    ws.cell(row=last + 1, column=1, value="Total").font = _BOLD
    ws.cell(row=last + 1, column=3, value=f"=SUM(C5:C{last})").font = _BOLD
    for row in range(5, last + 2):
        ws[f"D{row}"] = f"=C{row}/C{last + 1}"
        ws[f"D{row}"].number_format = "0.0%"
    _numbers(ws, f"C5:C{last + 1}")
    ws.column_dimensions["A"].width = 30


# ---------------------------------------------------------------- flash report and restatement


def _flash(path: Path) -> Path:
    pages = [[
        para(COMPANY, "Title"),
        para("Q3 FY25 Flash Report — quarter ended March 31, 2025", "Heading1"),
        para("Prepared by the Finance team for the Board of Directors · April 18, 2025"),
        *bullets([
            "Net revenue for Q3 FY25 was $12.75 million, up 6% on Q2 FY25, on strong refining "
            "turnaround demand.",
            "EBITDA for Q3 FY25 was $2.25 million.",
            "Backlog at March 31, 2025 stood at $9.6 million.",
        ]),
        para("Figures are preliminary and unaudited."),
    ]]
    write_pdf(path, pages, _meta("Q3 FY25 Flash Report", date(2025, 4, 18)))
    return path


def _restatement(path: Path) -> Path:
    text = """From: Dana Whitaker <dana.whitaker@tidewaterfc.com>
To: Board of Directors <board@tidewaterfc.com>
Cc: Ryan Cole <rcole@bayougrowth.com>
Date: Tue, 22 Jul 2025 08:14:00 -0500
Subject: RE: Q3 FY25 revenue
Message-ID: <q3fy25-restatement@tidewaterfc.com>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"

All,

During the year-end close we reviewed a bill-and-hold shipment of $450 thousand to Gulfport
Refining that was recognized in March. The customer did not take title until April, so the
revenue belongs in Q4. Q3 FY25 net revenue is therefore restated to $12.30 million (the flash
report of April 18, 2025 showed $12.75 million); Q4 FY25 includes the shipment. EBITDA for the
quarter is unchanged.

The management reporting pack for Q4 FY2025 reflects the restated figure.

Dana Whitaker
Chief Financial Officer, Tidewater Fluid Controls, Inc.
"""
    path.write_bytes(text.encode("utf-8"))
    return path


# ---------------------------------------------------------------- cap table


def _cap_table(path: Path) -> Path:
    """Holders down the rows, grouped under class headings; totals and preference columns."""
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Cap Table"
    _title(ws, f"{COMPANY} — Capitalization Table", "As of August 31, 2025 · fully diluted basis")
    _header(ws, 4, ["Holder", "Class", "Shares / options", "As-converted common",
                    "Fully diluted %", "Original issue price", "Liquidation preference"])
    row_of = {"Series B Preferred": 5, "Series A Preferred": 7, "Common Stock": 9,
              "Options": 12}
    rows = (6, 8, 10, 11, 13, 14)
    for cls, heading in row_of.items():
        ws.cell(row=heading, column=1, value=cls).font = _BOLD
    total_row = 16
    for row, (cls, holder, shares, price, preference) in zip(rows, HOLDERS, strict=True):
        name = f"{holder} (CEO)" if holder == "Maria Delgado" else (
            f"{holder} (COO)" if holder == "Thomas Reyes" else holder)
        ws.cell(row=row, column=1, value=name)
        ws.cell(row=row, column=2, value=cls)
        ws.cell(row=row, column=3, value=shares)
        ws.cell(row=row, column=4, value=f"=C{row}")
        ws.cell(row=row, column=5, value=f"=D{row}/D{total_row}").number_format = "0.00%"
        if price is not None:
            ws.cell(row=row, column=6, value=price).number_format = '"$"#,##0.00'
            ws.cell(row=row, column=7, value=preference).number_format = '"$"#,##0'
    ws.cell(row=total_row, column=1, value="Total fully diluted").font = _BOLD
    for col in "CD":
        ws[f"{col}{total_row}"] = "=" + "+".join(f"{col}{r}" for r in rows)
    ws[f"E{total_row}"] = f"=D{total_row}/D{total_row}"
    ws[f"E{total_row}"].number_format = "0.00%"
    ws[f"G{total_row}"] = "=G6+G8"
    ws[f"G{total_row}"].number_format = '"$"#,##0'
    for row in (*rows, total_row):
        ws[f"C{row}"].number_format = ws[f"D{row}"].number_format = "#,##0"
    ws["A18"] = ("Preferred stock converts 1:1 into common. Liquidation preferences are 1.0x, "
                 "non-participating, Series B senior to Series A.")
    ws.column_dimensions["A"].width = 44
    save_workbook(workbook, path, issued=date(2025, 8, 31), author=COMPANY)
    return path


# ---------------------------------------------------------------- credit agreement


def _credit_agreement(path: Path) -> Path:
    document = Document()
    document.add_heading("CREDIT AGREEMENT", level=0)
    document.add_paragraph(
        f"dated as of March 14, 2023 among {COMPANY}, as Borrower, the Lenders from time to "
        f"time party hereto, and {LENDER}, as Administrative Agent.")
    sections = {
        "Section 1.01 Defined Terms": [
            "\u201cConsolidated EBITDA\u201d means, for any period, Consolidated Net Income for "
            "such period plus, without duplication and to the extent deducted in determining "
            "Consolidated Net Income, (a) Consolidated Interest Expense, (b) provision for "
            "income taxes, (c) depreciation and amortization expense, and (d) non-recurring "
            "fees, costs and expenses in an aggregate amount not to exceed 10% of Consolidated "
            "EBITDA for such period.",
            "\u201cTotal Net Leverage Ratio\u201d means, as of any date of determination, the "
            "ratio of (a) Consolidated Total Debt minus unrestricted cash as of such date to "
            "(b) Consolidated EBITDA for the period of four consecutive fiscal quarters most "
            "recently ended.",
            "\u201cFixed Charge Coverage Ratio\u201d means the ratio of Consolidated EBITDA less "
            "Capital Expenditures to Fixed Charges for the four fiscal quarters most recently "
            "ended.",
        ],
        "Section 2.01 The Commitments": [
            "(a) Term Loans. Each Term Lender severally agrees to make a term loan to the "
            "Borrower on the Closing Date in an aggregate principal amount of $30,000,000.",
            "(b) Revolving Loans. Each Revolving Lender severally agrees to make revolving "
            "loans to the Borrower from time to time during the Availability Period in an "
            "aggregate principal amount not to exceed $10,000,000 at any time outstanding.",
            "Maturity: the Term Loan and the Revolving Commitments mature on March 14, 2028.",
        ],
        "Section 6.12 Financial Covenants": [
            "(a) Total Net Leverage Ratio. The Borrower shall not permit the Total Net Leverage "
            "Ratio, as of the last day of any fiscal quarter, to exceed 3.50:1.00 for fiscal "
            "quarters ending on or before December 31, 2024, and 3.00:1.00 for each fiscal "
            "quarter ending thereafter.",
            "(b) Fixed Charge Coverage Ratio. The Borrower shall not permit the Fixed Charge "
            "Coverage Ratio, as of the last day of any fiscal quarter, to be less than "
            "1.25:1.00.",
            "Compliance shall be tested quarterly and evidenced by a Compliance Certificate "
            "delivered within 45 days after the end of each fiscal quarter.",
        ],
        "Section 8.01 Events of Default": [
            "Each of the following is an Event of Default: (a) failure to pay principal when "
            "due; (b) failure to observe any covenant in Section 6.12; (k) a Change of Control "
            "shall occur.",
        ],
    }
    for heading, paragraphs in sections.items():
        document.add_heading(heading, level=1)
        for text in paragraphs:
            document.add_paragraph(text)
    save_office_file(document, path, issued=date(2023, 3, 14), author="Hollis & Crane LLP",
                     title="Credit Agreement")
    return path


def _compliance(path: Path) -> Path:
    pages = [[
        para(COMPANY, "Title"),
        para("Compliance Certificate", "Heading1"),
        para(f"To {LENDER}, as Administrative Agent · for the fiscal quarter ended June 30, "
             "2025 · delivered August 14, 2025"),
        para("The undersigned Financial Officer certifies that, as of the last day of the "
             "fiscal quarter ended June 30, 2025:"),
        table([
            ["Covenant (Section 6.12)", "Required", "Actual"],
            ["Total Net Leverage Ratio", "not more than 3.00:1.00", "2.91:1.00"],
            ["Fixed Charge Coverage Ratio", "not less than 1.25:1.00", "1.42:1.00"],
        ], [70, 50, 30]),
        spacer(),
        para("Consolidated Total Debt less unrestricted cash of $25,850 thousand; Consolidated "
             "EBITDA for the four fiscal quarters ended June 30, 2025 of $8,880 thousand. No "
             "Default or Event of Default has occurred and is continuing."),
        para("Dana Whitaker, Chief Financial Officer"),
    ]]
    write_pdf(path, pages, _meta("Compliance Certificate Q4 FY2025", date(2025, 8, 14)))
    return path


# ---------------------------------------------------------------- quality of earnings


def _qoe(path: Path) -> Path:
    firm = "Sabine Advisory Group LLC"
    pages = [
        [
            para("Project Heron", "Title"),
            para("Quality of Earnings Report", "Heading1"),
            para(f"Prepared by {firm} for Bayou Growth Partners III, L.P. · September 26, 2025"),
            para("Summary", "Heading2"),
            *bullets([
                "Net revenue for the fiscal year ended June 30, 2025 (FY2025) was $48.6 million "
                "(FY2024: $42.3 million).",
                "Reported EBITDA for FY2025 was $8.88 million; diligence-adjusted EBITDA was "
                "$9.54 million after net adjustments of $0.66 million (page 2).",
                "Customer concentration: Gulfport Refining Co. represented 24% of FY2025 net "
                "revenue and the top four customers 53%.",
                "Q3 FY25 revenue was restated by management from $12.75 million to $12.30 "
                "million for a bill-and-hold shipment that belongs in Q4.",
            ]),
        ],
        [
            para("Reported to adjusted EBITDA, FY2025", "Heading2"),
            para("(in thousands of U.S. dollars)", "Small"),
            table([
                ["$ in thousands", "FY2025"],
                ["Reported EBITDA", "8,880"],
                ["Non-recurring legal settlement", "310"],
                ["Founder compensation above market", "240"],
                ["Sponsor monitoring fees", "180"],
                ["Warehouse consolidation run-rate savings", "150"],
                ["Inventory reserve true-up", "(220)"],
                ["Total adjustments", "660"],
                ["Adjusted EBITDA", "9,540"],
            ], [95, 30], bold_rows=[1, 8]),
            spacer(),
            para("Net debt at June 30, 2025", "Heading2"),
            table([
                ["$ in thousands", "Jun 30, 2025"],
                ["Term loan", "25,000"],
                ["Revolving credit facility", "4,000"],
                ["Cash and cash equivalents", "(3,150)"],
                ["Net debt", "25,850"],
            ], [95, 30], bold_rows=[4]),
            para("The run-rate savings are a pro forma estimate not yet realised; a buyer "
                 "may exclude them."),
        ],
    ]
    write_pdf(path, pages, _meta("Quality of Earnings Report", date(2025, 9, 26), firm))
    return path


# ---------------------------------------------------------------- diligence request list


def _requests(path: Path) -> Path:
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Requests"
    ws["A1"] = "Project Heron — Due Diligence Request List"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = "Buyer: Bayou Growth Partners III, L.P. · as of September 30, 2025"
    _header(ws, 4, ["No.", "Category", "Request", "Priority", "Status"])
    for row, item in enumerate(IRL_ITEMS, start=5):
        for col, value in enumerate((item.ref, item.category, item.request, item.priority,
                                     item.status), start=1):
            ws.cell(row=row, column=col, value=value)
    ws.column_dimensions["C"].width = 60
    save_workbook(workbook, path, issued=date(2025, 9, 30), author="Bayou Growth Partners")
    return path
