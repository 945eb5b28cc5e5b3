"""Ground truth of the Halyard data room: a B2B SaaS company in a house style nobody here wrote.

Halyard Analytics Limited ("Project Gannet") is a Dublin SaaS company reporting in US dollars.
Its fiscal year ends 31 January (FY25 = 1 February 2024 to 31 January 2025; Q3 FY25 = August to
October 2024). The audited statements are in US$'000 with "31 Jan 2025" column headers; the
board deck and e-mails write "US$32.6m"; the KPI workbook has a section / metric / unit column
block and month-end *dates* across the columns (formatted `mmm-yy`) under a row of fiscal-quarter
labels, then an FY25 column; the ARR bridge has quarters across; the cap table has holders down
the rows and share classes across the columns, with a separate liquidation-preference block; the
customer list is a CSV in whole dollars; the request tracker has its own Status column
("Uploaded" / "Outstanding"); the legal summary is a Word file whose headings carry the topic
(a reseller's damages claim under "Litigation" in words no cue list foresaw, a dismissed
employee's pending claim, a GDPR breach notified to the Data Protection Commission, an AGPL
component). ARR, revenue and bookings are different measures and stated apart. The room has a
correction (gross margin, in an e-mail) and no contradiction. Evaluation-only:
`manda.sample.generate.EVAL_ONLY_DEALS`. Conventions are those of `manda.sample.facts`.
"""

from __future__ import annotations

from datetime import date

from manda.models import DocumentRole
from manda.sample.facts import Fact, IRLItem, Nature, SampleFile, Trap

HALYARD = "halyard"
COMPANY = "Halyard Analytics Limited"

# ---------------------------------------------------------------- folders and files

F_PROCESS = "00 Process"
F_FINANCE = "01 Finance"
F_COMMERCIAL = "02 Commercial"
F_LEGAL = "03 Legal"
F_CORPORATE = "04 Corporate"

AUDIT = "2025-04-30 Halyard FY25 Audited Financial Statements.pdf"
KPI = "2025-02-14 KPI Workbook FY25.xlsx"
DECK = "2025-02-20 Board Deck - FY25 Preliminary Results.pptx"
MARGIN_EMAIL = "2025-03-12 RE FY25 gross margin.eml"
CUSTOMER_LIST = "2025-02-05 Top Customers by ARR.csv"
LEGAL = "2025-03-03 Legal and Compliance Summary.docx"
LOAN = "2024-05-15 Loan and Security Agreement - Harbourline.docx"
COMPLIANCE = "2025-02-18 Compliance Certificate January 2025.pdf"
CAP_TABLE = "2025-03-31 Cap Table.xlsx"
TRACKER = "Project Gannet - Information Request Tracker.xlsx"


def _file(name: str, folder: str, issued: date, summary: str) -> SampleFile:
    return SampleFile(HALYARD, name, name.rsplit(".", 1)[1], issued, summary, folder=folder)


FILES: tuple[SampleFile, ...] = (
    _file(AUDIT, F_FINANCE, date(2025, 4, 30),
          "Audited statements FY25 (year ended 31 January 2025), US$'000, FY24 comparatives"),
    _file(KPI, F_FINANCE, date(2025, 2, 14),
          "Monthly KPIs with month-end dates across the columns; ARR bridge by quarter"),
    _file(DECK, F_FINANCE, date(2025, 2, 20),
          "Board deck: FY25 at a glance (preliminary gross margin), ARR vs revenue vs bookings"),
    _file(MARGIN_EMAIL, F_FINANCE, date(2025, 3, 12),
          "E-mail from the CFO correcting the deck's preliminary gross margin"),
    _file(CUSTOMER_LIST, F_COMMERCIAL, date(2025, 2, 5),
          "Top ten customers by ARR in whole dollars, % of ARR, seats, renewal dates"),
    _file(LEGAL, F_LEGAL, date(2025, 3, 3),
          "Legal summary: contracts, litigation, employment, data protection, open source"),
    _file(LOAN, F_LEGAL, date(2024, 5, 15),
          "Venture debt: US$10m facility in two tranches, minimum cash and ARR covenants"),
    _file(COMPLIANCE, F_LEGAL, date(2025, 2, 18),
          "Compliance certificate for the month ended 31 January 2025"),
    _file(CAP_TABLE, F_CORPORATE, date(2025, 3, 31),
          "Cap table: holders down, classes across; liquidation preference block"),
    _file(TRACKER, F_PROCESS, date(2025, 3, 20),
          "Buyer's request tracker with its own Status column"),
)

EXPECTED_ROLES: dict[str, DocumentRole] = {
    AUDIT: DocumentRole.AUDITED_STATEMENTS,
    KPI: DocumentRole.MANAGEMENT_ACCOUNTS,
    DECK: DocumentRole.PRESENTATION,
    MARGIN_EMAIL: DocumentRole.CORRESPONDENCE,
    CUSTOMER_LIST: DocumentRole.OTHER,
    LEGAL: DocumentRole.LEGAL_MEMO,
    LOAN: DocumentRole.CONTRACT,
    COMPLIANCE: DocumentRole.CONTRACT,
    CAP_TABLE: DocumentRole.CAP_TABLE,
    TRACKER: DocumentRole.IRL,
}


def _t(subject: str, period: str | None, value: float | str | None, unit: str | None,
       file: str, location: str, stated: str, *, nature: Nature = "actual",
       note: str = "") -> Fact:
    return Fact(HALYARD, subject, period, value, unit, file, location, stated, nature, note)


# ---------------------------------------------------------------- KPI workbook (US$k)

# Month-end dates across columns D..O; FY25 = February 2024 to January 2025.
MONTH_ENDS = (date(2024, 2, 29), date(2024, 3, 31), date(2024, 4, 30), date(2024, 5, 31),
              date(2024, 6, 30), date(2024, 7, 31), date(2024, 8, 31), date(2024, 9, 30),
              date(2024, 10, 31), date(2024, 11, 30), date(2024, 12, 31), date(2025, 1, 31))
MONTHS = tuple(f"{d:%b-%y}" for d in MONTH_ENDS)  # as the cells display: Feb-24 … Jan-25
KPI_COLUMNS = "DEFGHIJKLMNO"
OPENING_ARR_K = 25_000
MONTHLY_ARR = (25_400, 25_900, 26_300, 26_800, 27_350, 27_900,
               28_500, 29_100, 29_800, 30_700, 31_500, 32_600)
MONTHLY_REVENUE = (2_180, 2_210, 2_240, 2_280, 2_320, 2_370,
                   2_410, 2_460, 2_510, 2_570, 2_600, 2_650)
MONTHLY_BOOKINGS = (2_100, 3_400, 2_600, 2_900, 3_800, 2_700,
                    2_500, 4_100, 3_300, 3_600, 4_900, 5_400)
MONTHLY_CUSTOMERS = (243, 246, 248, 251, 253, 255, 257, 259, 261, 263, 265, 268)
MONTHLY_HEADCOUNT = (188, 190, 193, 195, 197, 199, 201, 203, 205, 207, 209, 212)
FY25_REVENUE_K = sum(MONTHLY_REVENUE)  # 28,800
FY25_BOOKINGS_K = sum(MONTHLY_BOOKINGS)  # 41,300
CLOSING_ARR_K = MONTHLY_ARR[-1]  # 32,600
Q3_FY25_REVENUE_K = sum(MONTHLY_REVENUE[6:9])  # Aug-Oct 2024: 7,380

OCT_ARR = _t("arr", "Oct-24", 29_800_000, "USD", KPI, "Monthly KPIs!L6", "29,800",
             note="month-end dates across the columns, US$k; Oct-24 is in Q3 FY25")
NOV_REVENUE = _t("revenue", "Nov-24", 2_570_000, "USD", KPI, "Monthly KPIs!M9", "2,570")
KPI_REVENUE_TOTAL = _t("revenue", "FY2025", FY25_REVENUE_K * 1000, "USD", KPI,
                       "Monthly KPIs!P9", "28,800", note="FY25 column, a formula")
KPI_BOOKINGS_TOTAL = _t("bookings", "FY2025", FY25_BOOKINGS_K * 1000, "USD", KPI,
                        "Monthly KPIs!P12", "41,300", note="total contract value signed")
KPI_CLOSING_ARR = _t("arr", "as of 2025-01-31", CLOSING_ARR_K * 1000, "USD", KPI,
                     "Monthly KPIs!O6", "32,600")
KPI_CUSTOMERS = _t("customers", "as of 2025-01-31", 268, "customers", KPI, "Monthly KPIs!O14",
                   "268")

# ARR bridge, quarters across (Q1 FY25 = Feb-Apr 2024 … Q4 FY25 = Nov 2024-Jan 2025).
BRIDGE_QUARTERS = ("Q1 FY25", "Q2 FY25", "Q3 FY25", "Q4 FY25")
BRIDGE_MONTHS = ("Feb–Apr 2024", "May–Jul 2024", "Aug–Oct 2024", "Nov 2024–Jan 2025")
BRIDGE_NEW = (1_200, 1_300, 1_350, 1_750)
BRIDGE_EXPANSION = (900, 1_000, 1_050, 1_300)
BRIDGE_CONTRACTION = (-150, -200, -200, -200)
BRIDGE_CHURN = (-650, -500, -300, -50)
NEW_ARR_K, EXPANSION_K = sum(BRIDGE_NEW), sum(BRIDGE_EXPANSION)  # 5,600 / 4,250
CONTRACTION_K, CHURN_K = sum(BRIDGE_CONTRACTION), sum(BRIDGE_CHURN)  # -750 / -1,500
OPENING_CUSTOMERS, CHURNED_LOGOS = 240, 18
NRR_PCT = (OPENING_ARR_K + EXPANSION_K + CONTRACTION_K + CHURN_K) / OPENING_ARR_K * 100  # 108.0
GRR_PCT = (OPENING_ARR_K + CONTRACTION_K + CHURN_K) / OPENING_ARR_K * 100  # 91.0
LOGO_CHURN_PCT = CHURNED_LOGOS / OPENING_CUSTOMERS * 100  # 7.5

BRIDGE = tuple(
    _t(f"arr_bridge:{line}", "FY2025", amount * 1000, "USD", KPI, f"ARR Bridge!F{row}", stated)
    for line, row, amount, stated in (
        ("opening", 5, OPENING_ARR_K, "25,000"),
        ("new logo", 6, NEW_ARR_K, "5,600"),
        ("expansion", 7, EXPANSION_K, "4,250"),
        ("contraction", 8, CONTRACTION_K, "(750)"),
        ("churn", 9, CHURN_K, "(1,500)"),
        ("closing", 10, CLOSING_ARR_K, "32,600"),
    )
)
NRR = _t("net_revenue_retention", "FY2025", round(NRR_PCT, 1), "%", KPI, "ARR Bridge!B14",
         "108.0%", note="(opening + expansion - contraction - churn) / opening")
GRR = _t("gross_revenue_retention", "FY2025", round(GRR_PCT, 1), "%", KPI, "ARR Bridge!B15",
         "91.0%")
LOGO_CHURN = _t("logo_churn", "FY2025", LOGO_CHURN_PCT, "%", KPI, "ARR Bridge!B16", "7.5%",
                note="18 of the 240 customers at 1 February 2024: a percentage beside a count")
LOGOS_CHURNED = _t("logos_churned", "FY2025", CHURNED_LOGOS, "customers", KPI,
                   "ARR Bridge!B17", "18")

# ---------------------------------------------------------------- audited statements (US$'000)

PNL = (  # (line, FY25, FY24) in US$'000; costs negative
    ("Revenue", 28_800, 21_900),
    ("Cost of sales", -6_500, -5_300),
    ("Gross profit", 22_300, 16_600),
    ("Sales and marketing", -14_600, -12_400),
    ("Research and development", -9_100, -7_800),
    ("General and administrative", -5_200, -4_300),
    ("Operating loss", -6_600, -7_900),
    ("Finance costs, net", -1_100, -400),
    ("Loss before tax", -7_700, -8_300),
    ("Income tax", -100, -100),
    ("Loss for the year", -7_800, -8_400),
)
BALANCE = (  # (line, 31 Jan 2025, 31 Jan 2024) in US$'000
    ("Intangible assets", 3_900, 3_100),
    ("Property, plant and equipment", 1_200, 1_050),
    ("Right-of-use assets", 2_300, 2_700),
    ("Trade and other receivables", 6_100, 4_700),
    ("Cash and cash equivalents", 18_400, 11_900),
    ("Total assets", 31_900, 23_450),
    ("Trade and other payables", 3_600, 3_150),
    ("Deferred revenue - current", 13_240, 10_080),
    ("Deferred revenue - non-current", 1_660, 1_120),
    ("Borrowings - venture debt", 7_500, 0),
    ("Lease liabilities", 2_500, 2_850),
    ("Total liabilities", 28_500, 17_200),
    ("Total equity", 3_400, 6_250),
)
DEFERRED_REVENUE_K = 13_240 + 1_660  # 14,900
SUBSCRIPTION_REVENUE_K, SERVICES_REVENUE_K = 27_150, 1_650
AUDITOR_FIRM = "Fennick Dunne"

AUDIT_REVENUE = _t("revenue", "FY2025", 28_800_000, "USD", AUDIT, "p.2", "28,800",
                   note="column '31 Jan 2025' = year ended 31 January 2025")
AUDIT_REVENUE_FY24 = _t("revenue", "FY2024", 21_900_000, "USD", AUDIT, "p.2", "21,900",
                        note="prior-year column, not a conflict; growth 31.5%")
AUDIT_GROSS_PROFIT = _t("gross_profit", "FY2025", 22_300_000, "USD", AUDIT, "p.2", "22,300",
                        note="77.4% of revenue")
AUDIT_OPERATING_LOSS = _t("operating_income", "FY2025", -6_600_000, "USD", AUDIT, "p.2",
                          "(6,600)")
AUDIT_NET_LOSS = _t("net_income", "FY2025", -7_800_000, "USD", AUDIT, "p.2", "(7,800)")
AUDIT_CASH = _t("cash", "as of 2025-01-31", 18_400_000, "USD", AUDIT, "p.3", "18,400")
AUDIT_DEFERRED_REVENUE = _t("deferred_revenue", "as of 2025-01-31", 14_900_000, "USD", AUDIT,
                            "p.3", "US$14.9 million",
                            note="current 13,240 + non-current 1,660")
AUDIT_DEFERRED_REVENUE_FY24 = _t("deferred_revenue", "as of 2024-01-31", 11_200_000, "USD",
                                 AUDIT, "p.3", "US$11.2 million")
AUDIT_VENTURE_DEBT = _t("venture_debt", "as of 2025-01-31", 7_500_000, "USD", AUDIT, "p.3",
                        "7,500")
AUDITOR = _t("auditor", "FY2025", AUDITOR_FIRM, None, AUDIT, "p.1", "Fennick Dunne")

# ---------------------------------------------------------------- board deck and correction

DECK_ARR = _t("arr", "as of 2025-01-31", 32_600_000, "USD", DECK, "slide 3",
              "US$32.6m at 31 January 2025")
DECK_REVENUE = _t("revenue", "FY2025", 28_800_000, "USD", DECK, "slide 3",
                  "US$28.8m for FY25")
DECK_BOOKINGS = _t("bookings", "FY2025", 41_300_000, "USD", DECK, "slide 3",
                   "US$41.3m for FY25")
DECK_GROSS_MARGIN = _t("gross_margin", "FY2025", 79.0, "%", DECK, "slide 2",
                       "Gross margin 79.0% (preliminary)",
                       note="corrected to 77.4% in the CFO's e-mail of 12 March 2025")
DECK_NRR = _t("net_revenue_retention", "FY2025", 108.0, "%", DECK, "slide 4",
              "Net revenue retention 108%")
DECK_GRR = _t("gross_revenue_retention", "FY2025", 91.0, "%", DECK, "slide 4",
              "Gross revenue retention 91%")
DECK_LOGO_CHURN = _t("logo_churn", "FY2025", 7.5, "%", DECK, "slide 4", "Logo churn 7.5%")
FY26_ARR_TARGET = _t("arr", "as of 2026-01-31", 42_000_000, "USD", DECK, "slide 6",
                     "closing ARR US$42.0m", nature="forecast", note="FY26 budget")
CORRECTED_GROSS_MARGIN = _t("correction", "FY2025", 77.4, "%", MARGIN_EMAIL, "e-mail body",
                            "corrected FY25 gross margin is 77.4%",
                            note="US$0.45m of hosting costs had been booked in R&D")
MANAGEMENT = (
    _t("person:aoife brennan", None, "Chief Executive Officer", None, DECK, "slide 5",
       "Aoife Brennan — Chief Executive Officer, co-founder"),
    _t("person:declan moran", None, "Chief Technology Officer", None, DECK, "slide 5",
       "Declan Moran — Chief Technology Officer, co-founder"),
    _t("person:nuala kinsella", None, "Chief Financial Officer", None, DECK, "slide 5",
       "Nuala Kinsella — Chief Financial Officer (joined September 2024)"),
    _t("person:tom hennessy", None, "Chief Revenue Officer", None, DECK, "slide 5",
       "Tom Hennessy — Chief Revenue Officer"),
)

# ---------------------------------------------------------------- customers (whole dollars)

CUSTOMERS = (  # (name, country, plan, seats, ARR US$)
    ("Vantor Logistics Inc.", "US", "Enterprise", 1_850, 4_600_000),
    ("Bellcourt Insurance plc", "UK", "Enterprise", 920, 2_150_000),
    ("Ostara Foods B.V.", "NL", "Enterprise", 610, 1_480_000),
    ("Crannagh Health DAC", "IE", "Enterprise", 540, 1_120_000),
    ("Tallow & Finch LLP", "UK", "Business", 400, 940_000),
    ("Quorra Energy AS", "NO", "Business", 380, 860_000),
    ("Brightline Pharma GmbH", "DE", "Business", 350, 780_000),
    ("Kinsale Mutual Society", "IE", "Business", 300, 710_000),
    ("Arden Civic Council", "UK", "Business", 280, 650_000),
    ("Oakridge Learning Inc.", "US", "Business", 150, 330_000),
)
RENEWALS = ("2027-06-30", "2025-09-30", "2026-03-31", "2025-12-31", "2025-07-31",
            "2026-01-31", "2025-11-30", "2026-05-31", "2025-10-31", "2025-08-31")
OTHER_CUSTOMERS_ARR = CLOSING_ARR_K * 1000 - sum(c[4] for c in CUSTOMERS)  # 18,980,000
CUSTOMER_SHARES = tuple(
    _t(f"customer_share:{name.casefold()}", "as of 2025-01-31",
       round(arr / (CLOSING_ARR_K * 1000) * 100, 1), "%", CUSTOMER_LIST, f"row {row}",
       f"{arr / (CLOSING_ARR_K * 1000):.1%}")
    for row, (name, _, _, _, arr) in enumerate(CUSTOMERS, start=2)
)
TOP_CUSTOMER_ARR = _t("customer_arr:vantor logistics inc.", "as of 2025-01-31", 4_600_000,
                      "USD", CUSTOMER_LIST, "row 2", "4,600,000")

# ---------------------------------------------------------------- cap table (31 March 2025)

HOLDERS = (  # (holder, ordinary, series A, series B, warrants, options)
    ("Aoife Brennan (CEO)", 4_200_000, 0, 0, 0, 0),
    ("Declan Moran (CTO)", 2_600_000, 0, 0, 0, 0),
    ("Kittiwake Ventures Fund II", 0, 3_000_000, 400_000, 0, 0),
    ("Corriemore Growth IV, L.P.", 0, 0, 3_200_000, 0, 0),
    ("Harbourline Capital Partners DAC", 0, 0, 0, 150_000, 0),
    ("ESOP - options granted", 0, 0, 0, 0, 1_500_000),
    ("ESOP - unallocated pool", 0, 0, 0, 0, 550_000),
)
FULLY_DILUTED = sum(sum(h[1:]) for h in HOLDERS)  # 15,600,000
CAP_ROWS = tuple(range(5, 5 + len(HOLDERS)))  # holders in rows 5..11, total in row 13
OWNERSHIP = tuple(
    _t(f"ownership:{holder.split(' (')[0].casefold()}", "as of 2025-03-31",
       round(sum(shares) / FULLY_DILUTED * 100, 2), "%", CAP_TABLE, f"Cap Table!H{row}",
       f"{sum(shares) / FULLY_DILUTED:.2%}")
    for row, (holder, *shares) in zip(CAP_ROWS, HOLDERS, strict=True)
)
PREFERENCES = (  # (class, shares, issue price US$, multiple, participation, seniority)
    ("Series B Preferred", 3_600_000, 5.00, "1.0x", "Non-participating", "1 (senior)"),
    ("Series A Preferred", 3_000_000, 1.50, "1.0x", "Participating, capped at 3.0x", "2"),
)
SERIES_B_PREFERENCE = _t("liquidation_preference:series b preferred", "as of 2025-03-31",
                         18_000_000, "USD", CAP_TABLE, "Cap Table!G17", "$18,000,000",
                         note="1.0x non-participating, senior")
SERIES_A_PREFERENCE = _t("liquidation_preference:series a preferred", "as of 2025-03-31",
                         4_500_000, "USD", CAP_TABLE, "Cap Table!G18", "$4,500,000",
                         note="1.0x participating, capped at 3.0x")
TOTAL_PREFERENCE = _t("liquidation_preference:total", "as of 2025-03-31", 22_500_000, "USD",
                      CAP_TABLE, "Cap Table!G19", "$22,500,000")

# ---------------------------------------------------------------- venture debt and compliance

LENDER = "Harbourline Capital Partners DAC"
FACILITY = _t("facility_limit:venture debt", None, 10_000_000, "USD", LOAN, "2. The Facility",
              "US$10,000,000")
TRANCHE_A = _t("facility_limit:tranche a", None, 7_500_000, "USD", LOAN, "2. The Facility",
               "US$7,500,000", note="drawn on signing")
TRANCHE_B = _t("facility_limit:tranche b", None, 2_500_000, "USD", LOAN, "2. The Facility",
               "US$2,500,000", note="available until 30 April 2025 if ARR is at least US$30m")
INTEREST = _t("interest_rate:venture debt", None, 11.5, "%", LOAN, "3. Interest and Fees",
              "11.5% per annum")
MIN_CASH_COVENANT = _t("covenant:minimum cash", None, 5_000_000, "USD", LOAN,
                       "9. Financial Covenants", "US$5,000,000")
MIN_ARR_COVENANT = _t("covenant:minimum arr", None, 27_000_000, "USD", LOAN,
                      "9. Financial Covenants", "US$27,000,000")
LOAN_CHANGE_OF_CONTROL = _t("change_of_control:harbourline capital partners dac", None,
                            "mandatory prepayment", None, LOAN,
                            "11. Events of Default and Mandatory Prepayment",
                            "Upon a Change of Control")
CASH_ACTUAL = _t("cash", "as of 2025-01-31", 18_400_000, "USD", COMPLIANCE, "p.1",
                 "US$18.4m", note="headroom US$13.4m over the US$5.0m minimum")
ARR_ACTUAL = _t("arr", "as of 2025-01-31", 32_600_000, "USD", COMPLIANCE, "p.1", "US$32.6m",
                note="headroom US$5.6m over the US$27.0m minimum")

# ---------------------------------------------------------------- legal summary

RESELLER_CLAIM = _t("litigation:norrland digital ab", None, 1_800_000, "USD", LEGAL,
                    "Litigation", "claims USD 1.8M in damages",
                    note="arbitration filed March 2025, pending; no cue word of today's lists")
EMPLOYEE_CLAIM = _t("employment_claim:former account executive", None, 95_000, "EUR", LEGAL,
                    "Employment", "seeking EUR 95,000",
                    note="the employee was dismissed; the claim is pending, not dismissed")
DATA_BREACH = _t("data_breach", "2024-11-14", 3_400, "people", LEGAL, "Data Protection",
                 "approximately 3,400 end users",
                 note="notified to the Data Protection Commission under Article 33 GDPR")
AGPL_COMPONENT = _t("open_source:plotwright", None, "AGPL-3.0", None, LEGAL,
                    "Intellectual Property and Open Source",
                    "GNU Affero General Public License v3.0 (AGPL-3.0)")
CUSTOMER_CHANGE_OF_CONTROL = _t("change_of_control:vantor logistics inc.", None,
                                "may terminate", None, LEGAL, "Material Contracts",
                                "on a change of control of the Company")

FACTS: tuple[Fact, ...] = (
    OCT_ARR, NOV_REVENUE, KPI_REVENUE_TOTAL, KPI_BOOKINGS_TOTAL, KPI_CLOSING_ARR, KPI_CUSTOMERS,
    *BRIDGE, NRR, GRR, LOGO_CHURN, LOGOS_CHURNED,
    AUDIT_REVENUE, AUDIT_REVENUE_FY24, AUDIT_GROSS_PROFIT, AUDIT_OPERATING_LOSS, AUDIT_NET_LOSS,
    AUDIT_CASH, AUDIT_DEFERRED_REVENUE, AUDIT_DEFERRED_REVENUE_FY24, AUDIT_VENTURE_DEBT,
    AUDITOR,
    DECK_ARR, DECK_REVENUE, DECK_BOOKINGS, DECK_GROSS_MARGIN, DECK_NRR, DECK_GRR,
    DECK_LOGO_CHURN, FY26_ARR_TARGET, CORRECTED_GROSS_MARGIN, *MANAGEMENT,
    *CUSTOMER_SHARES, TOP_CUSTOMER_ARR,
    *OWNERSHIP, SERIES_B_PREFERENCE, SERIES_A_PREFERENCE, TOTAL_PREFERENCE,
    FACILITY, TRANCHE_A, TRANCHE_B, INTEREST, MIN_CASH_COVENANT, MIN_ARR_COVENANT,
    LOAN_CHANGE_OF_CONTROL, CASH_ACTUAL, ARR_ACTUAL,
    RESELLER_CLAIM, EMPLOYEE_CLAIM, DATA_BREACH, AGPL_COMPONENT, CUSTOMER_CHANGE_OF_CONTROL,
)

# ---------------------------------------------------------------- request tracker

UPLOADED, OUTSTANDING = "Uploaded", "Outstanding"
IRL_ITEMS: tuple[IRLItem, ...] = (
    IRLItem("1.1", "Finance", "Audited financial statements for FY24 and FY25", "High",
            UPLOADED, (AUDIT,)),
    IRLItem("1.2", "Finance", "Monthly KPI pack with ARR bridge for FY25", "High", UPLOADED,
            (KPI,)),
    IRLItem("1.3", "Finance", "Revenue recognition policy memo (IFRS 15)", "Medium",
            OUTSTANDING),
    IRLItem("1.4", "Finance", "Net revenue retention cohort analysis by signing year", "High",
            OUTSTANDING),
    IRLItem("1.5", "Finance", "Corporation tax returns and R&D tax credit claims, last three "
            "years", "Medium", OUTSTANDING),
    IRLItem("2.1", "Commercial", "Top customers by ARR with renewal dates", "High", UPLOADED,
            (CUSTOMER_LIST,)),
    IRLItem("2.2", "Commercial", "Top-10 customer contracts (MSAs and order forms)", "High",
            OUTSTANDING),
    IRLItem("3.1", "Corporate", "Fully diluted capitalisation table", "High", UPLOADED,
            (CAP_TABLE,)),
    IRLItem("3.2", "Corporate", "Shareholders' agreement and articles of association", "High",
            OUTSTANDING),
    IRLItem("3.3", "Corporate", "Venture debt agreement and covenant compliance certificates",
            "High", UPLOADED, (LOAN, COMPLIANCE)),
    IRLItem("4.1", "Legal", "Summary of pending and threatened litigation", "High", UPLOADED,
            (LEGAL,)),
    IRLItem("4.2", "Legal", "GDPR breach register and correspondence with the Data Protection "
            "Commission", "High", OUTSTANDING),
    IRLItem("4.3", "Legal", "Open-source software inventory (SBOM) with licences", "Medium",
            OUTSTANDING),
    IRLItem("5.1", "People", "Employee census and key employment contracts", "Medium",
            OUTSTANDING),
    IRLItem("5.2", "Technology", "SOC 2 Type II report and latest penetration test", "Medium",
            OUTSTANDING),
)
UNCOVERED_IRL = tuple(item for item in IRL_ITEMS if not item.covered)

# ---------------------------------------------------------------- traps

TRAPS: tuple[Trap, ...] = (
    Trap(HALYARD, "supersedes",
         "The board deck (20 February 2025) gives a preliminary FY25 gross margin of 79.0%; the "
         "CFO's e-mail of 12 March 2025 corrects it to 77.4% (hosting costs booked in R&D); the "
         "audited gross profit of US$22.3m on US$28.8m agrees with 77.4%.",
         "Answer 77.4% and say the deck's 79.0% was corrected.",
         (DECK, MARGIN_EMAIL, AUDIT), (DECK_GROSS_MARGIN, CORRECTED_GROSS_MARGIN,
                                       AUDIT_GROSS_PROFIT)),
    Trap(HALYARD, "red_flag",
         "Under the heading 'Litigation' a former reseller claims USD 1.8M in damages, in "
         "words none of today's litigation cues contain; a dismissed employee's claim is "
         "pending.", "Flag both; the employee's claim is pending, not dismissed.",
         (LEGAL,), (RESELLER_CLAIM, EMPLOYEE_CLAIM)),
    Trap(HALYARD, "red_flag",
         "A personal-data breach notified to the Data Protection Commission (inquiry open) and "
         "an AGPL-3.0 component in a hosted module.",
         "Flag the data-protection incident and the copyleft licence.", (LEGAL,),
         (DATA_BREACH, AGPL_COMPONENT)),
    Trap(HALYARD, "red_flag",
         "Change of control: Vantor Logistics (14.1% of ARR) may terminate; the venture debt "
         "must be prepaid with a 2.0% fee.", "Flag both change-of-control consequences.",
         (LEGAL, LOAN), (CUSTOMER_CHANGE_OF_CONTROL, LOAN_CHANGE_OF_CONTROL)),
    Trap(HALYARD, "not_a_conflict",
         "Percentages sit beside counts of the same subject (logo churn 7.5% and 18 logos; 268 "
         "customers and 14.1% of ARR): they are not conflicting figures.",
         "Report no conflict between a percentage and a count.", (KPI, CUSTOMER_LIST),
         (LOGO_CHURN, LOGOS_CHURNED, KPI_CUSTOMERS)),
    Trap(HALYARD, "uncovered_irl",
         "Requests the tracker itself marks Outstanding: " + ", ".join(
             item.ref for item in UNCOVERED_IRL) + " (several have a related document in the "
         "room, e.g. the legal summary mentions the breach and the AGPL component).",
         "List them as gaps, honouring the tracker's Status column.", (TRACKER,)),
)

DISTINCTIVE_TERMS: tuple[str, ...] = (
    "Halyard", "Gannet", "Harbourline", "Kittiwake", "Corriemore", "Vantor", "Norrland",
    "Plotwright", "Aoife Brennan",
)
