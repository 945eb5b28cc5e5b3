"""Ground truth of the Tidewater data room: a US company in a house style nobody on the team wrote.

Tidewater Fluid Controls, Inc. ("Project Heron") is the second generalisation yardstick, after
Pennine. Its fiscal year ends June 30 (FY2025 = July 2024 through June 2025; Q1 FY25 = July to
September 2024); figures are "in thousands of U.S. dollars" (`$000s`, `(in thousands)`); the
monthly P&L has months across the columns as text headers (`Jul-24`) and a total column; the
quarterly pack has quarters across the columns with an LTM column; the cap table lists holders
down the rows grouped by class, with liquidation preferences; the credit agreement is in US legal
style ("Consolidated EBITDA", "Total Net Leverage Ratio" tested quarterly). The room is
evaluation-only (not shipped with the demo): `manda.sample.generate.EVAL_ONLY_DEALS`.
Conventions are those of `manda.sample.facts`.
"""

from __future__ import annotations

from datetime import date

from manda.models import DocumentRole
from manda.sample.facts import Fact, IRLItem, Nature, SampleFile, Trap

TIDEWATER = "tidewater"
COMPANY = "Tidewater Fluid Controls, Inc."

# ---------------------------------------------------------------- folders and files

F_FINANCIALS = "Financials"
F_CORPORATE = "Corporate"
F_LEGAL = "Legal"
F_DILIGENCE = "Diligence"

AUDIT = "Tidewater FY2025 Audited Financial Statements.pdf"
MONTHLY = "Tidewater Monthly P&L FY2025.xlsx"
PACK = "Tidewater Management Reporting Pack Q4 FY2025.xlsx"
FLASH = "Q3 FY25 Flash Report.pdf"
RESTATEMENT = "RE Q3 FY25 revenue.eml"
CAP_TABLE = "Tidewater Capitalization Table.xlsx"
CREDIT = "Credit Agreement - First Lone Star Bank.docx"
COMPLIANCE = "Compliance Certificate June 30 2025.pdf"
QOE = "Project Heron - Quality of Earnings.pdf"
IRL = "Project Heron Diligence Request List.xlsx"


def _file(name: str, folder: str, issued: date, summary: str) -> SampleFile:
    return SampleFile(TIDEWATER, name, name.rsplit(".", 1)[1], issued, summary, folder=folder)


FILES: tuple[SampleFile, ...] = (
    _file(AUDIT, F_FINANCIALS, date(2025, 9, 12),
          "Audited statements, fiscal year ended June 30, 2025 | 2024 columns, in thousands"),
    _file(MONTHLY, F_FINANCIALS, date(2025, 7, 25),
          "Monthly P&L FY2025: months across the columns (Jul-24 … Jun-25) and a total, $000s"),
    _file(PACK, F_FINANCIALS, date(2025, 8, 8),
          "Quarters across the columns with LTM, balance sheet, customer concentration ($000s)"),
    _file(FLASH, F_FINANCIALS, date(2025, 4, 18),
          "Q3 FY25 flash report (its revenue later restated in an e-mail)"),
    _file(RESTATEMENT, F_FINANCIALS, date(2025, 7, 22),
          "E-mail from the CFO restating Q3 FY25 revenue"),
    _file(CAP_TABLE, F_CORPORATE, date(2025, 8, 31),
          "Cap table: holders down the rows by class, fully diluted %, liquidation preference"),
    _file(CREDIT, F_LEGAL, date(2023, 3, 14),
          "Credit agreement: term loan and revolver, Consolidated EBITDA, financial covenants"),
    _file(COMPLIANCE, F_LEGAL, date(2025, 8, 14),
          "Compliance certificate for the fiscal quarter ended June 30, 2025"),
    _file(QOE, F_DILIGENCE, date(2025, 9, 26),
          "Quality of earnings: reported to adjusted EBITDA FY2025, net debt, 2 pages"),
    _file(IRL, F_DILIGENCE, date(2025, 9, 30), "Buyer's diligence request list"),
)

EXPECTED_ROLES: dict[str, DocumentRole] = {
    AUDIT: DocumentRole.AUDITED_STATEMENTS,
    MONTHLY: DocumentRole.MANAGEMENT_ACCOUNTS,
    PACK: DocumentRole.MANAGEMENT_ACCOUNTS,
    FLASH: DocumentRole.MANAGEMENT_ACCOUNTS,
    RESTATEMENT: DocumentRole.CORRESPONDENCE,
    CAP_TABLE: DocumentRole.CAP_TABLE,
    CREDIT: DocumentRole.CONTRACT,
    COMPLIANCE: DocumentRole.CONTRACT,
    QOE: DocumentRole.QOE_REPORT,
    IRL: DocumentRole.IRL,
}


def _t(subject: str, period: str | None, value: float | str | None, unit: str | None,
       file: str, location: str, stated: str, *, nature: Nature = "actual",
       note: str = "") -> Fact:
    return Fact(TIDEWATER, subject, period, value, unit, file, location, stated, nature, note)


# ---------------------------------------------------------------- monthly P&L ($000s)

MONTHS = ("Jul-24", "Aug-24", "Sep-24", "Oct-24", "Nov-24", "Dec-24",
          "Jan-25", "Feb-25", "Mar-25", "Apr-25", "May-25", "Jun-25")
MONTHLY_REVENUE = (3700, 3800, 3900, 4000, 3950, 4050, 4050, 4100, 4150, 4200, 4300, 4400)
MONTHLY_COGS = (2480, 2540, 2600, 2670, 2640, 2700, 2700, 2730, 2760, 2790, 2850, 2910)
MONTHLY_EBITDA = (650, 680, 700, 720, 700, 740, 730, 750, 770, 790, 810, 840)
# SG&A is what is left between gross profit and EBITDA.
MONTHLY_SGA = tuple(r - c - e for r, c, e in
                    zip(MONTHLY_REVENUE, MONTHLY_COGS, MONTHLY_EBITDA, strict=True))
FY25_REVENUE_K = sum(MONTHLY_REVENUE)  # 48,600
FY25_EBITDA_K = sum(MONTHLY_EBITDA)  # 8,880
_COLS = "BCDEFGHIJKLM"

MONTH_REVENUE = tuple(
    _t("revenue", month, amount * 1000, "USD", MONTHLY, f"FY25 Monthly!{col}6", f"{amount:,}",
       note="months across the columns, $000s")
    for col, month, amount in zip(_COLS, MONTHS, MONTHLY_REVENUE, strict=True)
)
MARCH_REVENUE = MONTH_REVENUE[8]  # Mar-25: 4,150
MONTH_EBITDA = tuple(
    _t("ebitda", month, amount * 1000, "USD", MONTHLY, f"FY25 Monthly!{col}10", f"{amount:,}")
    for col, month, amount in zip(_COLS, MONTHS, MONTHLY_EBITDA, strict=True)
)
FEB_EBITDA = MONTH_EBITDA[7]  # Feb-25: 750
FY25_REVENUE_TOTAL = _t("revenue", "FY2025", FY25_REVENUE_K * 1000, "USD", MONTHLY,
                        "FY25 Monthly!N6", "48,600", note="'FY2025 Total' column, a formula")
FY25_EBITDA_TOTAL = _t("ebitda", "FY2025", FY25_EBITDA_K * 1000, "USD", MONTHLY,
                       "FY25 Monthly!N10", "8,880")

# ---------------------------------------------------------------- quarterly pack ($000s)

# Quarters across the columns: Q4 FY24, Q1..Q4 FY25, LTM Mar-25, FY2025.
QUARTERS = {  # label -> (months, revenue, ebitda)
    "Q4 FY24": ("Apr–Jun 2024", 11_100, 1_960),
    "Q1 FY25": ("Jul–Sep 2024", 11_400, 2_030),
    "Q2 FY25": ("Oct–Dec 2024", 12_000, 2_160),
    "Q3 FY25": ("Jan–Mar 2025", 12_300, 2_250),
    "Q4 FY25": ("Apr–Jun 2025", 12_900, 2_440),
}
LTM_MAR25_REVENUE_K = sum(v[1] for k, v in QUARTERS.items() if k != "Q4 FY25")  # 46,800
LTM_MAR25_EBITDA_K = sum(v[2] for k, v in QUARTERS.items() if k != "Q4 FY25")  # 8,400
Q1_FY25_REVENUE = _t("revenue", "Q1 FY2025", 11_400_000, "USD", PACK, "Quarterly!C6", "11,400",
                     note="July-September 2024")
Q3_FY25_REVENUE = _t("revenue", "Q3 FY2025", 12_300_000, "USD", PACK, "Quarterly!E6", "12,300",
                     note="as restated; the flash report said $12.75 million")
LTM_MAR25_EBITDA = _t("ebitda", "LTM to 2025-03-31", 8_400_000, "USD", PACK, "Quarterly!G10",
                      "8,400", note="Q4 FY24 + Q1-Q3 FY25")
LTM_MAR25_REVENUE = _t("revenue", "LTM to 2025-03-31", 46_800_000, "USD", PACK,
                       "Quarterly!G6", "46,800")
PACK_REVOLVER = _t("revolver_drawn", "as of 2025-06-30", 5_500_000, "USD", PACK,
                   "Balance Sheet!B9", "5,500",
                   note="contradicts the audited statements' $4,000 thousand")
CUSTOMERS = (
    ("Gulfport Refining Co.", 11_664, 24.0),
    ("Lone Star Midstream LLC", 6_318, 13.0),
    ("Permian Basin Water Services", 4_374, 9.0),
    ("Coastal Chemical Partners", 3_402, 7.0),
)
OTHER_CUSTOMERS_K = FY25_REVENUE_K - sum(c[1] for c in CUSTOMERS)
CUSTOMER_SHARES = tuple(
    _t(f"customer_share:{name.casefold()}", "FY2025", pct, "%", PACK, f"Customers!D{row}",
       f"{pct:.1f}%")
    for row, (name, _, pct) in enumerate(CUSTOMERS, start=5)
)
TOP_CUSTOMER_REVENUE = _t("customer_revenue:gulfport refining co.", "FY2025", 11_664_000, "USD",
                          PACK, "Customers!C5", "11,664")

# ---------------------------------------------------------------- audited statements (in thousands)

AUDIT_REVENUE = _t("revenue", "FY2025", 48_600_000, "USD", AUDIT, "p.2", "48,600",
                   note="'Net sales', column '2025' = fiscal year ended June 30, 2025")
AUDIT_REVENUE_FY24 = _t("revenue", "FY2024", 42_300_000, "USD", AUDIT, "p.2", "42,300",
                        note="column '2024', the prior fiscal year, not a conflict")
AUDIT_OPERATING_INCOME = _t("operating_income", "FY2025", 6_930_000, "USD", AUDIT, "p.2",
                            "6,930")
AUDIT_NET_INCOME = _t("net_income", "FY2025", 3_610_000, "USD", AUDIT, "p.2", "3,610")
AUDIT_NET_INCOME_FY24 = _t("net_income", "FY2024", 2_870_000, "USD", AUDIT, "p.2", "2,870")
AUDIT_CASH = _t("cash", "as of 2025-06-30", 3_150_000, "USD", AUDIT, "p.3", "3,150")
AUDIT_TERM_LOAN = _t("term_loan", "as of 2025-06-30", 25_000_000, "USD", AUDIT, "p.3",
                     "$25.0 million")
AUDIT_REVOLVER = _t("revolver_drawn", "as of 2025-06-30", 4_000_000, "USD", AUDIT, "p.3",
                    "$4.0 million", note="the management pack says 5,500: a contradiction")
AUDITOR = _t("auditor", "FY2025", "Brazos & Whitfield LLP", None, AUDIT, "p.1",
             "Brazos & Whitfield LLP")

# ---------------------------------------------------------------- flash report and its restatement

FLASH_Q3_REVENUE = _t("revenue", "Q3 FY2025", 12_750_000, "USD", FLASH, "p.1", "$12.75 million",
                      note="restated to $12.30 million in the CFO's e-mail of July 22, 2025")
RESTATED_Q3_REVENUE = _t("correction", "Q3 FY2025", 12_300_000, "USD", RESTATEMENT,
                         "e-mail body", "restated to $12.30 million",
                         note="a $450 thousand bill-and-hold shipment moved to Q4 FY25")

# ---------------------------------------------------------------- cap table (as of Aug 31, 2025)

HOLDERS = (  # (class, holder, shares, original issue price, liquidation preference $)
    ("Series B Preferred", "Bayou Growth Partners III, L.P.", 2_000_000, 6.00, 12_000_000),
    ("Series A Preferred", "Gulf Coast Ventures II, L.P.", 2_500_000, 2.00, 5_000_000),
    ("Common Stock", "Maria Delgado", 3_600_000, None, None),
    ("Common Stock", "Thomas Reyes", 1_400_000, None, None),
    ("Options", "Options outstanding (2019 Equity Incentive Plan)", 900_000, None, None),
    ("Options", "Available for future grant", 600_000, None, None),
)
FULLY_DILUTED_SHARES = sum(h[2] for h in HOLDERS)  # 11,000,000
OWNERSHIP = tuple(
    _t(f"ownership:{holder.casefold()}", "as of 2025-08-31",
       round(shares / FULLY_DILUTED_SHARES * 100, 2), "%", CAP_TABLE, f"Cap Table!E{row}",
       f"{shares / FULLY_DILUTED_SHARES:.2%}")
    for row, (_, holder, shares, _, _) in zip((6, 8, 10, 11, 13, 14), HOLDERS, strict=True)
)
SERIES_B_PREFERENCE = _t("liquidation_preference:series b preferred", "as of 2025-08-31",
                         12_000_000, "USD", CAP_TABLE, "Cap Table!G6", "$12,000,000",
                         note="1.0x non-participating")
SERIES_A_PREFERENCE = _t("liquidation_preference:series a preferred", "as of 2025-08-31",
                         5_000_000, "USD", CAP_TABLE, "Cap Table!G8", "$5,000,000")
CEO = _t("person:maria delgado", None, "Chief Executive Officer", None, CAP_TABLE,
         "Cap Table!A10", "Maria Delgado (CEO)")

# ---------------------------------------------------------------- credit agreement, compliance

LENDER = "First Lone Star Bank, N.A."
TERM_LOAN_COMMITMENT = _t("term_loan_commitment", None, 30_000_000, "USD", CREDIT,
                          "Section 2.01 The Commitments", "$30,000,000")
REVOLVER_COMMITMENT = _t("revolver_commitment", None, 10_000_000, "USD", CREDIT,
                         "Section 2.01 The Commitments", "$10,000,000")
LEVERAGE_COVENANT = _t("covenant:total net leverage ratio", "from 2025-03-31", 3.0, "x", CREDIT,
                       "Section 6.12 Financial Covenants", "3.00:1.00",
                       note="3.50:1.00 for fiscal quarters ending on or before Dec 31, 2024")
FCCR_COVENANT = _t("covenant:fixed charge coverage ratio", None, 1.25, "x", CREDIT,
                   "Section 6.12 Financial Covenants", "1.25:1.00")
CHANGE_OF_CONTROL = _t("change_of_control:first lone star bank, n.a.", None, "event of default",
                       None, CREDIT, "Section 8.01 Events of Default",
                       "a Change of Control shall occur")
LEVERAGE_ACTUAL = _t("leverage", "as of 2025-06-30", 2.91, "x", COMPLIANCE, "p.1", "2.91:1.00",
                     note="against a maximum of 3.00:1.00: headroom of 0.09x")
FCCR_ACTUAL = _t("fixed_charge_coverage", "as of 2025-06-30", 1.42, "x", COMPLIANCE, "p.1",
                 "1.42:1.00")

# ---------------------------------------------------------------- quality of earnings

QOE_REPORTED_EBITDA = _t("ebitda", "FY2025", 8_880_000, "USD", QOE, "p.1", "$8.88 million")
QOE_ADJUSTED_EBITDA = _t("adjusted_ebitda", "FY2025", 9_540_000, "USD", QOE, "p.1",
                         "$9.54 million")
ADJUSTMENTS = tuple(
    _t(f"ebitda_adjustment:{item}", "FY2025", amount * 1000, "USD", QOE, "p.2", stated)
    for item, amount, stated in (
        ("non-recurring legal settlement", 310, "310"),
        ("founder compensation above market", 240, "240"),
        ("sponsor monitoring fees", 180, "180"),
        ("warehouse consolidation run-rate savings", 150, "150"),
        ("inventory reserve true-up", -220, "(220)"),
        ("total", 660, "660"),
    )
)
QOE_NET_DEBT = _t("net_debt", "as of 2025-06-30", 25_850_000, "USD", QOE, "p.2", "25,850",
                  note="term loan 25,000 + revolver 4,000 - cash 3,150")

FACTS: tuple[Fact, ...] = (
    *MONTH_REVENUE, *MONTH_EBITDA, FY25_REVENUE_TOTAL, FY25_EBITDA_TOTAL,
    Q1_FY25_REVENUE, Q3_FY25_REVENUE, LTM_MAR25_EBITDA, LTM_MAR25_REVENUE, PACK_REVOLVER,
    *CUSTOMER_SHARES, TOP_CUSTOMER_REVENUE,
    AUDIT_REVENUE, AUDIT_REVENUE_FY24, AUDIT_OPERATING_INCOME, AUDIT_NET_INCOME,
    AUDIT_NET_INCOME_FY24, AUDIT_CASH, AUDIT_TERM_LOAN, AUDIT_REVOLVER, AUDITOR,
    FLASH_Q3_REVENUE, RESTATED_Q3_REVENUE,
    *OWNERSHIP, SERIES_B_PREFERENCE, SERIES_A_PREFERENCE, CEO,
    TERM_LOAN_COMMITMENT, REVOLVER_COMMITMENT, LEVERAGE_COVENANT, FCCR_COVENANT,
    CHANGE_OF_CONTROL, LEVERAGE_ACTUAL, FCCR_ACTUAL,
    QOE_REPORTED_EBITDA, QOE_ADJUSTED_EBITDA, *ADJUSTMENTS, QOE_NET_DEBT,
)

# ---------------------------------------------------------------- diligence request list

IRL_ITEMS: tuple[IRLItem, ...] = (
    IRLItem("F-1", "Financial", "Audited financial statements, last two fiscal years", "High",
            "Complete", (AUDIT,)),
    IRLItem("F-2", "Financial", "Monthly income statements for the current fiscal year", "High",
            "Complete", (MONTHLY,)),
    IRLItem("F-3", "Financial", "Quality of earnings report", "High", "Complete", (QOE,)),
    IRLItem("F-4", "Financial", "Federal and state income tax returns, last three years",
            "High", "Open"),
    IRLItem("F-5", "Financial", "Accounts receivable aging as of June 30, 2025", "Medium",
            "Open"),
    IRLItem("C-1", "Commercial", "Revenue by customer, top 10, last two fiscal years", "High",
            "Complete", (PACK,)),
    IRLItem("C-2", "Commercial", "Backlog and open purchase orders", "Medium", "Open"),
    IRLItem("L-1", "Legal", "Capitalization table and stockholder agreements", "High",
            "Complete", (CAP_TABLE,)),
    IRLItem("L-2", "Legal", "Credit agreement and compliance certificates", "High", "Complete",
            (CREDIT, COMPLIANCE)),
    IRLItem("L-3", "Legal", "Environmental Phase I reports for owned and leased sites", "High",
            "Complete"),
    IRLItem("H-1", "HR", "Employee census with compensation", "Medium", "Open"),
)
UNCOVERED_IRL = tuple(item for item in IRL_ITEMS if not item.covered)

# ---------------------------------------------------------------- traps

TRAPS: tuple[Trap, ...] = (
    Trap(TIDEWATER, "supersedes",
         "The Q3 FY25 flash report (April 18, 2025) says Q3 revenue $12.75 million; the CFO's "
         "e-mail of July 22, 2025 restates it to $12.30 million (a bill-and-hold shipment moved "
         "to Q4). The file names say nothing.",
         "Answer $12.3 million for Q3 FY2025 and say the flash report's figure was restated.",
         (FLASH, RESTATEMENT, PACK), (FLASH_Q3_REVENUE, RESTATED_Q3_REVENUE, Q3_FY25_REVENUE)),
    Trap(TIDEWATER, "contradicts",
         "The revolver drawn at June 30, 2025 is $4.0 million in the audited statements and "
         "5,500 ($000s) in the management reporting pack: same date, no correction.",
         "Show both figures with their sources and say they disagree.",
         (AUDIT, PACK), (AUDIT_REVOLVER, PACK_REVOLVER)),
    Trap(TIDEWATER, "red_flag",
         "Total Net Leverage Ratio 2.91:1.00 at June 30, 2025 against a maximum that stepped "
         "down to 3.00:1.00 from March 31, 2025: 0.09x of headroom.",
         "Flag the thin covenant headroom with the ratio and the maximum.",
         (CREDIT, COMPLIANCE), (LEVERAGE_COVENANT, LEVERAGE_ACTUAL)),
    Trap(TIDEWATER, "red_flag",
         "Gulfport Refining Co. is 24% of FY2025 revenue; the top four customers 53%.",
         "Flag the concentration with the share.", (PACK,), CUSTOMER_SHARES),
    Trap(TIDEWATER, "uncovered_irl",
         "Requests with no document in the room: " + ", ".join(
             item.ref for item in UNCOVERED_IRL) + " (L-3 is marked Complete but nothing in the "
         "room provides it).",
         "List them as gaps by category and offer to add them to the Q&A list.", (IRL,)),
)

DISTINCTIVE_TERMS: tuple[str, ...] = (
    "Tidewater", "Gulfport Refining", "First Lone Star", "Bayou Growth", "Gulf Coast Ventures",
    "Maria Delgado", "Heron",
)
