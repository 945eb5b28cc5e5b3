"""Halyard's files: a Dublin B2B SaaS room (fiscal year to 31 January, US dollars) nobody wrote.

PDFs (audited statements in US$'000, a covenant compliance certificate), workbooks (monthly KPIs
with month-end dates across the columns and an ARR bridge; the cap table with classes across the
columns; the request tracker), a board deck in PowerPoint, Word files (the legal summary and the
venture-debt agreement), a CSV customer list in whole dollars and an `.eml` correction. Ground
truth: `manda.sample.halyard_facts`; evaluation-only, so the demo does not get slower.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet
from pptx import Presentation

from manda.sample._csv import csv_text
from manda.sample._docx import write_sectioned_docx
from manda.sample._office import save_office_file
from manda.sample._paths import room_folder
from manda.sample._pdf import company_meta, para, spacer, table, write_pdf
from manda.sample._sheets import BOLD, header, number_format, request_list, title
from manda.sample._slides import bullet_slide
from manda.sample._xlsx import save_workbook
from manda.sample.halyard_facts import (
    AUDIT,
    AUDITOR_FIRM,
    BALANCE,
    BRIDGE_CHURN,
    BRIDGE_CONTRACTION,
    BRIDGE_EXPANSION,
    BRIDGE_MONTHS,
    BRIDGE_NEW,
    BRIDGE_QUARTERS,
    CAP_ROWS,
    CAP_TABLE,
    CHURNED_LOGOS,
    CLOSING_ARR_K,
    COMPANY,
    COMPLIANCE,
    CUSTOMER_LIST,
    CUSTOMERS,
    DECK,
    F_COMMERCIAL,
    F_CORPORATE,
    F_FINANCE,
    F_LEGAL,
    F_PROCESS,
    HOLDERS,
    IRL_ITEMS,
    KPI,
    KPI_COLUMNS,
    LEGAL,
    LENDER,
    LOAN,
    MARGIN_EMAIL,
    MONTH_ENDS,
    MONTHLY_ARR,
    MONTHLY_BOOKINGS,
    MONTHLY_CUSTOMERS,
    MONTHLY_HEADCOUNT,
    MONTHLY_REVENUE,
    OPENING_ARR_K,
    OPENING_CUSTOMERS,
    OTHER_CUSTOMERS_ARR,
    PNL,
    PREFERENCES,
    RENEWALS,
    SERVICES_REVENUE_K,
    SUBSCRIPTION_REVENUE_K,
    TRACKER,
)

USD_K = "#,##0;(#,##0)"


def write_halyard(room: Path) -> list[Path]:
    """Write every Halyard file into its folder under `room`; return their paths."""
    return [
        _audit(room_folder(room, F_FINANCE) / AUDIT),
        _kpi_workbook(room_folder(room, F_FINANCE) / KPI),
        _board_deck(room_folder(room, F_FINANCE) / DECK),
        _margin_email(room_folder(room, F_FINANCE) / MARGIN_EMAIL),
        _customers(room_folder(room, F_COMMERCIAL) / CUSTOMER_LIST),
        _legal_summary(room_folder(room, F_LEGAL) / LEGAL),
        _loan_agreement(room_folder(room, F_LEGAL) / LOAN),
        _compliance(room_folder(room, F_LEGAL) / COMPLIANCE),
        _cap_table(room_folder(room, F_CORPORATE) / CAP_TABLE),
        _tracker(room_folder(room, F_PROCESS) / TRACKER),
    ]


def _k(amount: int) -> str:
    """US$'000 as the statements print it: 28,800 / (6,600) / – for nil."""
    if amount == 0:
        return "–"
    return f"({-amount:,})" if amount < 0 else f"{amount:,}"


# ---------------------------------------------------------------- audited statements


def _audit(path: Path) -> Path:
    pages = [
        [
            para(COMPANY, "Title"),
            para("Annual Report and Audited Financial Statements for the year ended "
                 "31 January 2025", "Heading1"),
            para("Directors' report (extract)", "Heading2"),
            para("Halyard Analytics Limited provides a cloud analytics platform for logistics, "
                 "insurance and healthcare customers from Dublin. In the financial year ended "
                 "31 January 2025 (FY25) annual recurring revenue reached US$32.6 million and "
                 "the Company served 268 customers. The financial statements are presented in "
                 "US dollars, the Company's functional currency."),
            para("Independent auditor's report to the members of Halyard Analytics Limited",
                 "Heading2"),
            para("We have audited the financial statements of Halyard Analytics Limited for the "
                 "year ended 31 January 2025, which comprise the statement of profit or loss, "
                 "the statement of financial position and the related notes. In our opinion the "
                 "financial statements give a true and fair view of the assets, liabilities and "
                 "financial position of the Company as at 31 January 2025 and of its loss for "
                 "the year then ended, and have been properly prepared in accordance with IFRS "
                 "as adopted by the European Union and the Companies Act 2014."),
            para(f"{AUDITOR_FIRM}, Chartered Accountants and Statutory Audit Firm, Dublin · "
                 "30 April 2025"),
        ],
        [
            para("Statement of profit or loss", "Heading2"),
            para("Year ended · US$'000", "Small"),
            table([["US$'000", "31 Jan 2025", "31 Jan 2024"],
                   *([line, _k(fy25), _k(fy24)] for line, fy25, fy24 in PNL)],
                  [95, 30, 30], bold_rows=[3, 7, 11]),
            spacer(),
            para("Note 3 — Revenue", "Heading2"),
            para(f"Revenue of US${SUBSCRIPTION_REVENUE_K / 1000:.2f} million is subscription "
                 "revenue recognised ratably over the subscription term, and US$"
                 f"{SERVICES_REVENUE_K / 1000:.2f} million is professional services revenue "
                 "recognised as the services are delivered (IFRS 15). Invoiced amounts not yet "
                 "recognised are carried as deferred revenue."),
        ],
        [
            para("Statement of financial position", "Heading2"),
            para("As at · US$'000", "Small"),
            table([["US$'000", "31 Jan 2025", "31 Jan 2024"],
                   *([line, _k(fy25), _k(fy24)] for line, fy25, fy24 in BALANCE)],
                  [95, 30, 30], bold_rows=[6, 12, 13]),
            spacer(),
            para("Note 11 — Deferred revenue", "Heading2"),
            para("Deferred revenue was US$14.9 million at 31 January 2025 (31 January 2024: "
                 "US$11.2 million), of which US$1.66 million falls due after more than one "
                 "year."),
            para("Note 12 — Borrowings", "Heading2"),
            para(f"On 15 May 2024 the Company entered into a US$10.0 million venture debt "
                 f"facility with {LENDER}. Tranche A of US$7.5 million was drawn on signing; "
                 "Tranche B of US$2.5 million remains undrawn. Borrowings bear fixed interest of "
                 "11.5% per annum, are secured over the Company's assets and mature on 15 May "
                 "2027. The lender holds warrants over 150,000 ordinary shares."),
            para("Note 14 — Share capital", "Heading2"),
            para("Series B Preferred Shares carry a 1.0x non-participating liquidation "
                 "preference ranking ahead of the Series A Preferred Shares, which carry a 1.0x "
                 "participating preference capped at 3.0x."),
        ],
    ]
    write_pdf(path, pages, company_meta(COMPANY, "Annual Report and Financial Statements FY25",
                                        date(2025, 4, 30), AUDITOR_FIRM))
    return path


# ---------------------------------------------------------------- KPI workbook


def _kpi_workbook(path: Path) -> Path:
    workbook = Workbook()
    _monthly_kpis(workbook.active)
    _arr_bridge(workbook.create_sheet("ARR Bridge"))
    save_workbook(workbook, path, issued=date(2025, 2, 14), author=COMPANY)
    return path


def _monthly_kpis(ws: Worksheet) -> None:
    """Section / metric / unit columns, then month-end dates across under quarter labels."""
    ws.title = "Monthly KPIs"
    title(ws, f"{COMPANY} — Monthly KPI Workbook, FY25",
          "US$ thousands unless stated · FY25 = 1 February 2024 to 31 January 2025 · "
          "management information, unaudited")
    for index, quarter in enumerate(BRIDGE_QUARTERS):
        ws.cell(row=4, column=4 + 3 * index, value=quarter).font = BOLD
    ws["P4"] = "FY25"
    ws["P4"].font = BOLD
    header(ws, 5, ["Section", "Metric", "Unit"])
    for col, month_end in zip(KPI_COLUMNS, MONTH_ENDS, strict=True):
        cell = ws[f"{col}5"]
        cell.value = datetime(month_end.year, month_end.month, month_end.day)
        cell.number_format = "mmm-yy"
        cell.font = BOLD
    ws["P5"] = "FY25"
    ws["P5"].font = BOLD
    net_new = [arr - prior for arr, prior in zip(MONTHLY_ARR, (OPENING_ARR_K, *MONTHLY_ARR[:-1]),
                                                 strict=True)]
    lines = {
        6: ("ARR", "Ending ARR", "US$k", MONTHLY_ARR, "=O6"),
        7: ("", "Net new ARR", "US$k", tuple(net_new), "=SUM(D7:O7)"),
        9: ("Revenue", "Revenue (IFRS 15)", "US$k", MONTHLY_REVENUE, "=SUM(D9:O9)"),
        12: ("Bookings", "Bookings (TCV signed)", "US$k", MONTHLY_BOOKINGS, "=SUM(D12:O12)"),
        14: ("Customers", "Customers at month end", "#", MONTHLY_CUSTOMERS, "=O14"),
        15: ("People", "Headcount (FTE)", "#", MONTHLY_HEADCOUNT, "=O15"),
    }
    for row, (section, metric, unit, values, year) in lines.items():
        ws.cell(row=row, column=1, value=section).font = BOLD
        ws.cell(row=row, column=2, value=metric)
        ws.cell(row=row, column=3, value=unit)
        for col, value in zip(KPI_COLUMNS, values, strict=True):
            ws[f"{col}{row}"] = value
        ws[f"P{row}"] = year
        ws[f"P{row}"].font = BOLD
    number_format(ws, "D6:P15", USD_K)
    ws["A17"] = ("ARR is the annualised value of subscriptions live at month end; revenue is "
                 "recognised under IFRS 15; bookings are the total contract value signed in the "
                 "month. The three are different measures.")
    ws.column_dimensions["B"].width = 24


def _arr_bridge(ws: Worksheet) -> None:
    """Quarters across; opening, new, expansion, contraction, churn, closing; then retention."""
    title(ws, "ARR bridge FY25", "US$ thousands · contraction and churn shown negative")
    header(ws, 3, ["US$k", *BRIDGE_QUARTERS, "FY25"])
    ws["A4"] = "Months"
    for col, months in zip("BCDE", BRIDGE_MONTHS, strict=True):
        ws[f"{col}4"] = months
    ws["F4"] = "Feb 2024–Jan 2025"
    labels = ("Opening ARR", "New logo ARR", "Expansion", "Contraction", "Churn", "Closing ARR")
    for row, label in enumerate(labels, start=5):
        ws.cell(row=row, column=1, value=label)
    ws["A5"].font = ws["A10"].font = BOLD
    moves = (BRIDGE_NEW, BRIDGE_EXPANSION, BRIDGE_CONTRACTION, BRIDGE_CHURN)
    for index, col in enumerate("BCDE"):
        ws[f"{col}5"] = OPENING_ARR_K if index == 0 else f"={'BCDE'[index - 1]}10"
        for row, values in enumerate(moves, start=6):
            ws[f"{col}{row}"] = values[index]
        ws[f"{col}10"] = f"=SUM({col}5:{col}9)"
    ws["F5"] = "=B5"
    for row in range(6, 10):
        ws[f"F{row}"] = f"=SUM(B{row}:E{row})"
    ws["F10"] = "=SUM(F5:F9)"
    number_format(ws, "B5:F10", USD_K)
    ws["A13"] = "Retention, twelve months to 31 January 2025"
    ws["A13"].font = BOLD
    retention = (
        ("Net revenue retention", "=(F5+F7+F8+F9)/F5", "0.0%"),
        ("Gross revenue retention", "=(F5+F8+F9)/F5", "0.0%"),
        ("Logo churn", "=B17/B18", "0.0%"),
        ("Logos churned", CHURNED_LOGOS, "0"),
        ("Customers at 1 February 2024", OPENING_CUSTOMERS, "0"),
    )
    for row, (label, value, fmt) in enumerate(retention, start=14):
        ws.cell(row=row, column=1, value=label)
        ws.cell(row=row, column=2, value=value).number_format = fmt
    ws.column_dimensions["A"].width = 30


# ---------------------------------------------------------------- board deck and e-mail


def _board_deck(path: Path) -> Path:
    prs = Presentation()
    cover = prs.slides.add_slide(prs.slide_layouts[0])
    cover.shapes.title.text = "Halyard Analytics — Board Meeting, 20 February 2025"
    cover.placeholders[1].text = ("FY25 preliminary results (year ended 31 January 2025) · "
                                  "Confidential")
    bullet_slide(prs, "FY25 at a glance", [
        "Closing ARR US$32.6m, up 30.4% year on year (31 January 2024: US$25.0m)",
        "Revenue US$28.8m, up 31.5% (FY24: US$21.9m)",
        "Bookings (TCV) US$41.3m",
        "Gross margin 79.0% (preliminary)",
        "268 customers · 212 employees",
    ], notes="Gross margin is preliminary until the hosting-cost allocation is reviewed.", size=18)
    bullet_slide(prs, "ARR, revenue and bookings", [
        "ARR: annualised value of subscription contracts live on the last day of the period — "
        "US$32.6m at 31 January 2025",
        "Revenue: subscription and services revenue recognised in the period under IFRS 15 — "
        "US$28.8m for FY25",
        "Bookings: total contract value signed in the period, including multi-year terms and "
        "services — US$41.3m for FY25",
    ], notes="Bookings exceed ARR because multi-year contracts are booked at full contract "
             "value; revenue lags ARR because subscriptions are recognised ratably.", size=18)
    bullet_slide(prs, "Retention, twelve months to 31 January 2025", [
        "Net revenue retention 108%",
        "Gross revenue retention 91%",
        "Logo churn 7.5% (18 of the 240 customers at 1 February 2024)",
    ], size=18)
    bullet_slide(prs, "Leadership team", [
        "Aoife Brennan — Chief Executive Officer, co-founder",
        "Declan Moran — Chief Technology Officer, co-founder",
        "Nuala Kinsella — Chief Financial Officer (joined September 2024)",
        "Tom Hennessy — Chief Revenue Officer",
    ], size=18)
    bullet_slide(prs, "FY26 budget", [
        "Target closing ARR US$42.0m at 31 January 2026",
        "Target revenue US$37.5m",
    ], notes="Budget approved by the board on 20 February 2025; a plan, not an actual.", size=18)
    save_office_file(prs, path, issued=date(2025, 2, 20), author=COMPANY,
                     title="Board Deck — FY25 Preliminary Results")
    return path


def _margin_email(path: Path) -> Path:
    text = """From: Nuala Kinsella <nuala.kinsella@halyard.io>
To: Board <board@halyard.io>
Date: Wed, 12 Mar 2025 17:40:00 +0000
Subject: RE: FY25 gross margin
Message-ID: <fy25-gross-margin@halyard.io>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"

Dear all,

Closing the FY25 audit file, we found US$0.45m of third-party hosting costs booked under
research and development instead of cost of sales. The corrected FY25 gross margin is 77.4%
(gross profit of US$22.3m on revenue of US$28.8m), not the 79.0% shown as preliminary in the
board deck of 20 February. Revenue, ARR and bookings are unchanged; the operating loss is
unchanged because the cost only moves between lines.

Nuala

Nuala Kinsella
Chief Financial Officer, Halyard Analytics Limited
"""
    path.write_bytes(text.encode("utf-8"))
    return path


# ---------------------------------------------------------------- customers (CSV)


def _customers(path: Path) -> Path:
    total = CLOSING_ARR_K * 1000
    rows = [["Rank", "Customer", "Country", "Plan", "Seats", "ARR (US$)", "% of total ARR",
             "Renewal date"]]
    for rank, ((name, country, plan, seats, arr), renewal) in enumerate(
            zip(CUSTOMERS, RENEWALS, strict=True), start=1):
        rows.append([str(rank), name, country, plan, f"{seats:,}", f"{arr:,}",
                     f"{arr / total:.1%}", renewal])
    others = MONTHLY_CUSTOMERS[-1] - len(CUSTOMERS)
    rows.append(["", f"All other customers ({others})", "", "", "", f"{OTHER_CUSTOMERS_ARR:,}",
                 f"{OTHER_CUSTOMERS_ARR / total:.1%}", ""])
    rows.append(["", f"Total ({MONTHLY_CUSTOMERS[-1]} customers)", "", "", "", f"{total:,}",
                 "100.0%", ""])
    path.write_text(csv_text(rows), encoding="utf-8")
    return path


# ---------------------------------------------------------------- legal summary


def _legal_summary(path: Path) -> Path:
    sections = {
        "Corporate": [
            f"{COMPANY} is a private company limited by shares incorporated in Ireland "
            "(registered number 598231), with its registered office at Grand Canal Dock, "
            "Dublin 2. Its share capital comprises ordinary shares and Series A and Series B "
            "Preferred Shares.",
        ],
        "Material Contracts": [
            "The master subscription agreement with Vantor Logistics Inc., the largest "
            "customer (14.1% of ARR), was renewed on 1 July 2024 for three years. Vantor may "
            "terminate for convenience on 90 days' notice after 30 June 2025, and may terminate "
            "on a change of control of the Company where the acquirer competes with Vantor.",
            "The reseller agreement with Norrland Digital AB for the Nordic region was "
            "terminated by the Company in January 2025 (see Litigation).",
        ],
        "Litigation": [
            "A former reseller, Norrland Digital AB, claims USD 1.8M in damages for early "
            "termination of its reseller agreement; its request for arbitration was filed with "
            "the SCC Arbitration Institute in Stockholm in March 2025 and is pending.",
            "The Company considers the amount unfounded; no provision has been recognised.",
        ],
        "Employment": [
            "A former account executive, dismissed in September 2024 for gross misconduct, has "
            "brought an unfair dismissal claim before the Workplace Relations Commission, "
            "seeking EUR 95,000. The claim is pending; a hearing is listed for June 2025. The "
            "Company has made no provision.",
        ],
        "Data Protection": [
            "On 14 November 2024 the Company notified the Data Protection Commission, as lead "
            "supervisory authority under Article 33 GDPR, of a personal data breach: a "
            "misconfigured storage bucket exposed the names, e-mail addresses and usage logs of "
            "approximately 3,400 end users of two customers for nine days. The individuals "
            "concerned were informed on 20 November 2024. The Commission opened an inquiry in "
            "January 2025, which remains open; no fine has been proposed.",
        ],
        "Intellectual Property and Open Source": [
            "The Company owns the source code of its platform. The Insights dashboard module "
            "bundles Plotwright, a charting engine licensed under the GNU Affero General Public "
            "License v3.0 (AGPL-3.0). Because the module is offered to customers over a "
            "network, the licence may require the Company to make the module's corresponding "
            "source code available. The Company has not published that source and plans to "
            "replace the component in FY26.",
        ],
        "Financing": [
            f"The venture debt facility with {LENDER} (see the Loan and Security Agreement) "
            "must be prepaid in full on a change of control, with a prepayment fee of 2.0%.",
        ],
    }
    return write_sectioned_docx(
        path, "Project Gannet — Legal and Compliance Summary",
        "Prepared by Carrow Whelan LLP, Dublin, for the Company · 3 March 2025 · privileged and "
        "confidential", sections.items(), issued=date(2025, 3, 3), author="Carrow Whelan LLP",
        title="Legal and Compliance Summary")


# ---------------------------------------------------------------- venture debt


def _loan_agreement(path: Path) -> Path:
    sections = {
        "1. Definitions": [
            "\u201cARR\u201d means the annualised value of the Borrower's subscription "
            "contracts in force on the last day of a month, as reported in the monthly "
            "compliance certificate.",
            "\u201cChange of Control\u201d means any person or group acquiring more than 50% of "
            "the voting shares of the Borrower.",
        ],
        "2. The Facility": [
            "The Lender makes available a term loan facility of US$10,000,000 in two tranches: "
            "Tranche A of US$7,500,000, drawn on the date of this Agreement, and Tranche B of "
            "US$2,500,000, available until 30 April 2025 provided ARR is at least "
            "US$30,000,000 on the date of drawing.",
        ],
        "3. Interest and Fees": [
            "Loans bear interest at a fixed rate of 11.5% per annum, payable monthly. A final "
            "payment fee of 3.0% of the amount drawn is payable on repayment.",
        ],
        "4. Repayment": [
            "Interest only for twelve months, then 24 equal monthly instalments; final "
            "maturity on 15 May 2027.",
        ],
        "9. Financial Covenants": [
            "(a) Minimum Cash. The Borrower shall maintain unrestricted cash of at least "
            "US$5,000,000 at all times.",
            "(b) Minimum ARR. ARR, tested monthly from 1 August 2024, shall not be less than "
            "US$27,000,000.",
        ],
        "11. Events of Default and Mandatory Prepayment": [
            "Upon a Change of Control the Borrower shall prepay all outstanding Loans together "
            "with a prepayment fee of 2.0% and the final payment fee.",
            "A breach of clause 9 is an Event of Default.",
        ],
        "12. Warrants": [
            "The Borrower grants the Lender warrants over 150,000 ordinary shares at an "
            "exercise price of US$5.00 per share.",
        ],
        "14. Governing Law": ["This Agreement is governed by the laws of Ireland."],
    }
    return write_sectioned_docx(
        path, "LOAN AND SECURITY AGREEMENT",
        f"dated 15 May 2024 between {COMPANY} (the Borrower) and {LENDER} (the Lender).",
        sections.items(), issued=date(2024, 5, 15), author="Harbourline Capital",
        title="Loan and Security Agreement")


def _compliance(path: Path) -> Path:
    pages = [[
        para(COMPANY, "Title"),
        para("Compliance Certificate — month ended 31 January 2025", "Heading1"),
        para(f"To {LENDER} under clause 9 of the Loan and Security Agreement dated 15 May 2024 "
             "· delivered 18 February 2025"),
        table([
            ["Covenant", "Requirement", "Actual", "Headroom"],
            ["Minimum Cash (clause 9(a))", "at least US$5.0m", "US$18.4m", "US$13.4m"],
            ["Minimum ARR (clause 9(b))", "at least US$27.0m", "US$32.6m", "US$5.6m"],
        ], [55, 40, 30, 30]),
        spacer(),
        para("The Borrower is in compliance with the financial covenants and no Event of "
             "Default is continuing."),
        para("Nuala Kinsella, Chief Financial Officer"),
    ]]
    write_pdf(path, pages,
              company_meta(COMPANY, "Compliance Certificate January 2025", date(2025, 2, 18)))
    return path


# ---------------------------------------------------------------- cap table


def _cap_table(path: Path) -> Path:
    """Holders down the rows, share classes across the columns; a preference block below."""
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Cap Table"
    title(ws, f"{COMPANY} — Capitalisation Table",
          "As at 31 March 2025 · fully diluted · shares of US$0.0001 each")
    header(ws, 4, ["Shareholder", "Ordinary", "Series A Preferred", "Series B Preferred",
                   "Warrants", "Options / ESOP", "Fully diluted total", "Fully diluted %"])
    total_row = 13
    for row, (holder, *shares) in zip(CAP_ROWS, HOLDERS, strict=True):
        ws.cell(row=row, column=1, value=holder)
        for col, count in enumerate(shares, start=2):
            if count:
                ws.cell(row=row, column=col, value=count)
        ws[f"G{row}"] = f"=SUM(B{row}:F{row})"
        ws[f"H{row}"] = f"=G{row}/G{total_row}"
    ws.cell(row=total_row, column=1, value="Total").font = BOLD
    for col in "BCDEFG":
        ws[f"{col}{total_row}"] = f"=SUM({col}{CAP_ROWS[0]}:{col}{CAP_ROWS[-1]})"
    ws[f"H{total_row}"] = f"=G{total_row}/G{total_row}"
    number_format(ws, f"B5:G{total_row}", "#,##0")
    number_format(ws, f"H5:H{total_row}", "0.00%")
    ws["A15"] = "Liquidation preferences"
    ws["A15"].font = BOLD
    header(ws, 16, ["Class", "Shares", "Original issue price", "Multiple", "Participation",
                    "Seniority", "Preference amount"])
    for row, (cls, shares, price, multiple, participation, seniority) in enumerate(
            PREFERENCES, start=17):
        for col, value in enumerate((cls, shares, price, multiple, participation, seniority),
                                    start=1):
            ws.cell(row=row, column=col, value=value)
        ws[f"C{row}"].number_format = '"$"#,##0.00'
        ws[f"B{row}"].number_format = "#,##0"
        ws[f"G{row}"] = f"=B{row}*C{row}"
    ws["A19"] = "Total preference"
    ws["A19"].font = BOLD
    ws["G19"] = "=G17+G18"
    number_format(ws, "G17:G19", '"$"#,##0')
    ws["A21"] = ("Preferred shares convert 1:1 into ordinary shares. Series B ranks ahead of "
                 "Series A on a liquidation or sale.")
    ws.column_dimensions["A"].width = 34
    save_workbook(workbook, path, issued=date(2025, 3, 31), author=COMPANY)
    return path


# ---------------------------------------------------------------- request tracker


def _tracker(path: Path) -> Path:
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Tracker"
    title(ws, "Project Gannet — Information Request Tracker",
          "Buyer: Corriemore Growth IV, L.P. · updated 20 March 2025")
    request_list(ws, ["#", "Workstream", "Request", "Priority", "Status", "Seller comment"],
                 IRL_ITEMS, {"3.2": "Articles to follow after the board meeting",
                             "4.2": "Being compiled by counsel", "1.4": "Cohorts being rebuilt"})
    save_workbook(workbook, path, issued=date(2025, 3, 20), author="Corriemore Growth")
    return path

