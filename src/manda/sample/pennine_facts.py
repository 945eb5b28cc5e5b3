"""Ground truth of the Pennine data room: a UK engineering company written in another house style.

Pennine Precision Engineering Ltd ("Project Kestrel") is the generalisation yardstick: nothing in
it follows TargetCo's conventions. Its financial year ends 31 March (FY2024 = the year ended
31 March 2024); amounts are written `£14.2m`, `GBP 14,200k` and `14.2 million pounds`; tables are
in £000 with the caption saying so; quarters run down the rows of one sheet and months across the
columns of another; audited statements have `2024 | 2023` columns; the files sit in numbered
VDR folders. Conventions are those of `manda.sample.facts` (values normalised to units, `stated`
exactly as written). The e-mail thread has no headings: its facts carry the message they are in
as `location` ("message of 17 Sep 2024"), which a text parser will cite as a line range.
"""

from __future__ import annotations

from datetime import date

from manda.models import DocumentRole
from manda.sample.facts import Fact, IRLItem, Nature, SampleFile, Trap

PENNINE = "pennine"
COMPANY = "Pennine Precision Engineering Ltd"

# ---------------------------------------------------------------- folders and files

F_OWNERSHIP = "1 Corporate/1.1 Ownership"
F_BOARD = "1 Corporate/1.2 Board"
F_STATUTORY = "2 Financial/2.1 Statutory accounts"
F_MANAGEMENT = "2 Financial/2.2 Management accounts"
F_BUDGET = "2 Financial/2.3 Budget"
F_FDD = "2 Financial/2.4 Financial due diligence"
F_IM = "3 Commercial/3.1 Information memorandum"
F_CONTRACTS = "3 Commercial/3.2 Contracts"
F_LITIGATION = "4 Legal/4.1 Litigation"
F_PROPERTY = "4 Legal/4.2 Property"
F_MANAGEMENT_TEAM = "5 HR/5.1 Management"
F_EMPLOYEES = "5 HR/5.2 Employees"
F_REQUESTS = "6 Process/6.1 Information requests"
F_CORRESPONDENCE = "6 Process/6.2 Correspondence"

REGISTER = "1.1.1 Shareholder register.xlsx"
MINUTES = "1.2.1 Board minutes 21 May 2024.docx"
ACCOUNTS = "2.1.1 Annual report and financial statements FY2024.pdf"
MGMT = "2.2.1 Management accounts September 2024.xlsx"
TRADING = "2.2.2 Trading update Q4 FY2024.md"
BUDGET = "2.3.1 Budget FY2025.xlsx"
QOE = "2.4.1 Financial due diligence - quality of earnings.pdf"
IM = "3.1.1 Information memorandum.pptx"
CONTRACTS = "3.2.1 Material contracts and facilities summary.docx"
LEGAL = "4.1.1 Legal memo - litigation and disputes.docx"
LEASES = "4.2.1 Lease schedule.csv"
BIOS = "5.1.1 Management biographies.pdf"
CENSUS = "5.2.1 Employee census September 2024.csv"
IRL = "6.1.1 Information request list.xlsx"
EMAIL = "6.2.1 RE Project Kestrel - indicative offer.txt"


def _file(name: str, folder: str, issued: date, summary: str) -> SampleFile:
    return SampleFile(PENNINE, name, name.rsplit(".", 1)[1], issued, summary, folder=folder)


FILES: tuple[SampleFile, ...] = (
    _file(REGISTER, F_OWNERSHIP, date(2024, 8, 31),
          "Register of members, share classes as columns, fully diluted %"),
    _file(MINUTES, F_BOARD, date(2024, 5, 21),
          "Board minutes 21 May 2024: Q4 correction, Finance Director vacancy, litigation, sale"),
    _file(ACCOUNTS, F_STATUTORY, date(2024, 7, 18),
          "Audited annual report, year ended 31 March 2024, columns 2024 | 2023 in £000, 4 pages"),
    _file(MGMT, F_MANAGEMENT, date(2024, 10, 11),
          "Management accounts: quarters down rows, months across columns, customers (£000)"),
    _file(TRADING, F_MANAGEMENT, date(2024, 4, 12),
          "Q4 FY2024 trading update (its Q4 revenue later corrected in the board minutes)"),
    _file(BUDGET, F_BUDGET, date(2024, 3, 26), "Board-approved budget FY2025 by quarter (£000)"),
    _file(QOE, F_FDD, date(2024, 9, 2),
          "Vendor financial due diligence: reported vs adjusted EBITDA, bridge, net debt, 3 pages"),
    _file(IM, F_IM, date(2024, 9, 9), "Information memorandum, 6 slides with notes"),
    _file(CONTRACTS, F_CONTRACTS, date(2024, 8, 30),
          "Customer and supplier contracts with change of control; bank facilities, covenants"),
    _file(LEGAL, F_LITIGATION, date(2024, 8, 30),
          "Legal memo: High Court claim, employment tribunal, HSE notice"),
    _file(LEASES, F_PROPERTY, date(2024, 8, 30), "Lease schedule, three properties"),
    _file(BIOS, F_MANAGEMENT_TEAM, date(2024, 9, 2),
          "Management biographies (no Finance Director), 2 pages"),
    _file(CENSUS, F_EMPLOYEES, date(2024, 9, 30), "Employee census, 126 employees with salaries"),
    _file(IRL, F_REQUESTS, date(2024, 9, 16),
          "Buyer's information request list: Ref / Request / Priority / Status"),
    _file(EMAIL, F_CORRESPONDENCE, date(2024, 9, 17),
          "E-mail thread (text export): the indicative offer price"),
)

# The role a careful reader gives each file (`manda.models.DocumentRole`).
EXPECTED_ROLES: dict[str, DocumentRole] = {
    REGISTER: DocumentRole.CAP_TABLE,
    MINUTES: DocumentRole.BOARD_MINUTES,
    ACCOUNTS: DocumentRole.AUDITED_STATEMENTS,
    MGMT: DocumentRole.MANAGEMENT_ACCOUNTS,
    TRADING: DocumentRole.MANAGEMENT_ACCOUNTS,
    BUDGET: DocumentRole.BUDGET_FORECAST,
    QOE: DocumentRole.QOE_REPORT,
    IM: DocumentRole.PRESENTATION,
    CONTRACTS: DocumentRole.CONTRACT,
    LEGAL: DocumentRole.LEGAL_MEMO,
    LEASES: DocumentRole.LEASE_SCHEDULE,
    BIOS: DocumentRole.MANAGEMENT_BIOS,
    CENSUS: DocumentRole.EMPLOYEE_CENSUS,
    IRL: DocumentRole.IRL,
    EMAIL: DocumentRole.CORRESPONDENCE,
}


def _p(subject: str, period: str | None, value: float | str | None, unit: str | None,
       file: str, location: str, stated: str, *, nature: Nature = "actual",
       note: str = "") -> Fact:
    return Fact(PENNINE, subject, period, value, unit, file, location, stated, nature, note)


# ---------------------------------------------------------------- audited accounts (FY to 31 March)

FY24_REVENUE_TEXT = _p("revenue", "FY2024", 14_200_000, "GBP", ACCOUNTS, "p.1", "£14.2m",
                       note="year ended 31 March 2024")
FY23_REVENUE_TEXT = _p("revenue", "FY2023", 12_600_000, "GBP", ACCOUNTS, "p.1", "£12.6m",
                       note="year ended 31 March 2023, the comparative")
FY24_REVENUE_TABLE = _p("revenue", "FY2024", 14_200_000, "GBP", ACCOUNTS, "p.2", "14,200",
                        note="'Turnover' row, column '2024', £000")
FY23_REVENUE_TABLE = _p("revenue", "FY2023", 12_600_000, "GBP", ACCOUNTS, "p.2", "12,600",
                        note="column '2023' is the year ended 31 March 2023, not a conflict")
FY24_GROSS_PROFIT = _p("gross_profit", "FY2024", 4_970_000, "GBP", ACCOUNTS, "p.2", "4,970")
FY24_OPERATING_PROFIT = _p("operating_profit", "FY2024", 2_020_000, "GBP", ACCOUNTS, "p.2",
                           "2,020")
FY23_OPERATING_PROFIT = _p("operating_profit", "FY2023", 1_590_000, "GBP", ACCOUNTS, "p.2",
                           "1,590")
FY24_NET_INCOME = _p("net_income", "FY2024", 1_290_000, "GBP", ACCOUNTS, "p.2", "1,290",
                     note="'Profit for the financial year'")
FY23_NET_INCOME = _p("net_income", "FY2023", 1_020_000, "GBP", ACCOUNTS, "p.2", "1,020")
CASH = _p("cash", "as of 2024-03-31", 1_850_000, "GBP", ACCOUNTS, "p.3", "1,850",
          note="'Cash at bank and in hand'")
BORROWINGS = _p("bank_debt", "as of 2024-03-31", 5_000_000, "GBP", ACCOUNTS, "p.3", "(5,000)",
                note="term loan £4.5m + revolving credit £0.5m")
NET_ASSETS = _p("net_assets", "as of 2024-03-31", 4_150_000, "GBP", ACCOUNTS, "p.3", "4,150")
DEPRECIATION = _p("depreciation_amortisation", "FY2024", 640_000, "GBP", ACCOUNTS, "p.4",
                  "£640,000")
AVERAGE_EMPLOYEES = _p("average_employees", "FY2024", 118, "people", ACCOUNTS, "p.4",
                       "average monthly number of employees was 118")
AUDITOR = _p("auditor", "FY2024", "Calder & Whitworth LLP", None, ACCOUNTS, "p.1",
             "Calder & Whitworth LLP")
DIVIDEND = _p("dividends", "FY2024", 400_000, "GBP", ACCOUNTS, "p.4", "£400,000")

# ---------------------------------------------------------------- management accounts (£000)

QUARTERLY = tuple(
    _p("revenue", period, amount * 1000, "GBP", MGMT, f"Quarterly!C{row}", f"{amount:,}",
       note=months)
    for row, period, months, amount in (
        (5, "Q1 FY2024", "April-June 2023", 3300),
        (6, "Q2 FY2024", "July-September 2023", 3400),
        (7, "Q3 FY2024", "October-December 2023", 3600),
        (8, "Q4 FY2024", "January-March 2024", 3900),
        (11, "Q1 FY2025", "April-June 2024", 3730),
        (12, "Q2 FY2025", "July-September 2024", 3720),
    )
)
Q4_FY24_REVENUE = QUARTERLY[3]
FY24_REVENUE_CELL = _p("revenue", "FY2024", 14_200_000, "GBP", MGMT, "Quarterly!C9", "14,200",
                       note="formula =SUM(C5:C8)")
FY24_EBITDA_CELL = _p("ebitda", "FY2024", 2_660_000, "GBP", MGMT, "Quarterly!F9", "2,660",
                      note="reported EBITDA; formula")
Q2_FY25_EBITDA_CELL = _p("ebitda", "Q2 FY2025", 720_000, "GBP", MGMT, "Quarterly!F12", "720")
H1_FY25_REVENUE_CELL = _p("revenue", "H1 FY2025", 7_450_000, "GBP", MGMT, "Quarterly!C13",
                          "7,450", note="April-September 2024")
MONTHLY = tuple(
    _p("revenue", period, amount * 1000, "GBP", MGMT, f"Monthly P&L!{col}5", f"{amount:,}",
       note="months across columns")
    for col, period, amount in (
        ("B", "Apr 2024", 1180), ("C", "May 2024", 1240), ("D", "Jun 2024", 1310),
        ("E", "Jul 2024", 1220), ("F", "Aug 2024", 1150), ("G", "Sep 2024", 1350),
    )
)
JUNE_REVENUE = MONTHLY[2]
SEP_EBITDA_CELL = _p("ebitda", "Sep 2024", 270_000, "GBP", MGMT, "Monthly P&L!G9", "270",
                     note="formula =G7-G8")
HEADCOUNT_CELL = _p("headcount", "as of 2024-09-30", 126, "people", MGMT, "Monthly P&L!G11",
                    "126", note="a count in a £000 sheet: 'unless stated'")
CUSTOMER_SHARES = tuple(
    _p(f"customer_share:{name.casefold()}", "FY2024", pct, "%", MGMT, f"Customers!D{row}",
       f"{pct:.1f}%")
    for row, name, pct in (
        (5, "Meridian Aerostructures Ltd", 31.0),
        (6, "Halcyon Medical Devices Ltd", 17.0),
        (7, "Brigg Hydraulics Ltd", 9.0),
        (8, "Oakworth Defence Systems Ltd", 6.0),
    )
)
MERIDIAN_REVENUE_CELL = _p("customer_revenue:meridian aerostructures ltd", "FY2024", 4_400_000,
                           "GBP", MGMT, "Customers!C5", "4,400")

# ---------------------------------------------------------------- trading update and its correction

Q4_TRADING_UPDATE = _p("revenue", "Q4 FY2024", 4_300_000, "GBP", TRADING, "Highlights", "£4.3m",
                       note="overstated: corrected to £3.9m in the board minutes of 21 May 2024")
FY24_TRADING_UPDATE = _p("revenue", "FY2024", 14_600_000, "GBP", TRADING, "Highlights",
                         "£14.6m", note="overstated by the duplicated £0.4m invoice")
CORRECTION = _p("correction", "Q4 FY2024", 3_900_000, "GBP", MINUTES,
                "2. Trading and Correction to the Q4 Trading Update",
                "The correct Q4 FY2024 revenue is £3.9m",
                note="a correction stated in the text, not by a file name")
FY24_REVENUE_MINUTES = _p("revenue", "FY2024", 14_200_000, "GBP", MINUTES,
                          "2. Trading and Correction to the Q4 Trading Update",
                          "14.2 million pounds")
DUPLICATED_INVOICE = _p("correction_amount", "Q4 FY2024", 400_000, "GBP", MINUTES,
                        "2. Trading and Correction to the Q4 Trading Update",
                        "invoice of £0.4m had been entered twice")

# ---------------------------------------------------------------- budget vs actual (other file)

BUDGET_Q1 = _p("revenue", "Q1 FY2025", 3_850_000, "GBP", BUDGET, "Budget FY25!B5", "3,850",
               nature="forecast", note="actual £3.73m in the management accounts")
BUDGET_Q2 = _p("revenue", "Q2 FY2025", 3_950_000, "GBP", BUDGET, "Budget FY25!C5", "3,950",
               nature="forecast", note="actual £3.72m: -£230k, -5.8%")
BUDGET_FY = _p("revenue", "FY2025", 15_800_000, "GBP", BUDGET, "Budget FY25!F5", "15,800",
               nature="forecast")
BUDGET_Q2_EBITDA = _p("ebitda", "Q2 FY2025", 820_000, "GBP", BUDGET, "Budget FY25!C7", "820",
                      nature="forecast", note="actual £720k: -£100k, -12.2%")
BUDGET_FY_EBITDA = _p("ebitda", "FY2025", 3_200_000, "GBP", BUDGET, "Budget FY25!F7", "3,200",
                      nature="forecast")

# ---------------------------------------------------------------- quality of earnings

QOE_REVENUE_K = _p("revenue", "FY2024", 14_200_000, "GBP", QOE, "p.1", "GBP 14,200k")
QOE_REPORTED_EBITDA = _p("ebitda", "FY2024", 2_660_000, "GBP", QOE, "p.1", "£2.66m",
                         note="operating profit £2.02m + depreciation and amortisation £0.64m")
QOE_ADJUSTED_EBITDA = _p("adjusted_ebitda", "FY2024", 3_020_000, "GBP", QOE, "p.1", "£3.02m",
                         note="a definitional difference from reported EBITDA, not a conflict")
QOE_ADJUSTED_FY23 = _p("adjusted_ebitda", "FY2023", 2_390_000, "GBP", QOE, "p.1", "£2.39m")
QOE_REPORTED_FY23 = _p("ebitda", "FY2023", 2_180_000, "GBP", QOE, "p.1", "£2.18m")
BRIDGE = tuple(
    _p(f"ebitda_adjustment:{item}", "FY2024", amount * 1000, "GBP", QOE, "p.2", stated)
    for item, amount, stated in (
        ("castleford litigation legal fees", 185, "185"),
        ("erp implementation", 140, "140"),
        ("finance director recruitment fees", 95, "95"),
        ("government grant release", -60, "(60)"),
        ("total", 360, "360"),
    )
)
QOE_NET_DEBT = _p("net_debt", "as of 2024-03-31", 3_150_000, "GBP", QOE, "p.3", "(3,150)",
                  note="excluding lease liabilities of £1.12m")
QOE_KEY_PERSON = _p("key_person:david thornton", None, "key-person dependency", None, QOE, "p.1",
                    "personally manages the relationships with Meridian and Halcyon")
QOE_LEVERAGE = _p("leverage", "as of 2024-03-31", 1.18, "x", QOE, "p.3", "1.18x")

# ---------------------------------------------------------------- information memorandum

IM_FOUNDED = _p("founded", None, "1987", None, IM, "slide 2", "Founded in 1987 in Huddersfield")
IM_SECTORS = _p("sector_share:aerospace", "FY2024", 58.0, "%", IM, "slide 2", "aerospace (58%")
IM_REVENUE = _p("revenue", "FY2024", 14_200_000, "GBP", IM, "slide 3", "14.2")
IM_TOP3 = _p("customer_share:top 3", "FY2024", 57.0, "%", IM, "slide 4",
             "top three customers 57%")

# ---------------------------------------------------------------- contracts, covenants, leases

CHANGE_OF_CONTROL = _p("change_of_control:meridian aerostructures ltd", None,
                       "termination right on six months' notice", None, CONTRACTS,
                       "Customer Contracts",
                       "Meridian may terminate the agreement on six months' written notice")
MERIDIAN_EXPIRY = _p("contract_expiry:meridian aerostructures ltd", None, "2027-03-31", "date",
                     CONTRACTS, "Customer Contracts", "31 March 2027")
BANK_CHANGE_OF_CONTROL = _p("change_of_control:aire valley bank plc", None,
                            "mandatory prepayment", None, CONTRACTS, "Bank Facilities",
                            "change of control is a mandatory prepayment event")
LEVERAGE_COVENANT = _p("covenant:net debt / ebitda", None, 2.5, "x", CONTRACTS,
                       "Bank Facilities", "not more than 2.50x")
INTEREST_COVER = _p("covenant:interest cover", None, 4.0, "x", CONTRACTS, "Bank Facilities",
                    "not less than 4.00x")
TERM_LOAN = _p("term_loan", "as of 2024-03-31", 4_500_000, "GBP", CONTRACTS, "Bank Facilities",
               "£4.5m outstanding at 31 March 2024")
LEASE_COLNE = _p("lease_rent:colne bridge", None, 310_000, "GBP", LEASES, "row 2", "310000")
LEASE_COLNE_EXPIRY = _p("lease_expiry:colne bridge", None, "2031-06-30", "date", LEASES,
                        "row 2", "2031-06-30")
LEASE_BRIGHOUSE_EXPIRY = _p("lease_expiry:brighouse", None, "2025-12-31", "date", LEASES,
                            "row 3", "2025-12-31")

# ---------------------------------------------------------------- litigation

CASTLEFORD = _p("litigation:castleford tooling ltd", "issued 2024-02-08", 640_000, "GBP", LEGAL,
                "1. Castleford Tooling Ltd v Pennine Precision Engineering Ltd", "£640,000",
                note="High Court, Business and Property Courts in Leeds; disclosure stage; "
                     "trial window March 2025; no provision")
CASTLEFORD_COURT = _p("litigation_court:castleford tooling ltd", None,
                      "Business and Property Courts in Leeds", None, LEGAL,
                      "1. Castleford Tooling Ltd v Pennine Precision Engineering Ltd",
                      "Business and Property Courts in Leeds")
TRIBUNAL = _p("litigation:employment tribunal", "hearing 2025-01-14", 38_000, "GBP", LEGAL,
              "2. Employment Tribunal Claim", "£38,000")

# ---------------------------------------------------------------- people, ownership, census

OWNERSHIP = tuple(
    _p(f"ownership:{holder.casefold()}", "as of 2024-08-31", pct, "%", REGISTER,
       f"Register!G{row}", f"{pct:.1f}%")
    for row, holder, pct in (
        (5, "David Thornton", 42.0),
        (6, "Margaret Thornton", 18.0),
        (7, "Ridings Capital LP", 25.0),
        (8, "Pennine Precision Employee Benefit Trust", 6.0),
        (9, "Sarah Okafor", 4.0),
        (10, "EMI option holders", 5.0),
    )
)
RIDINGS_B_SHARES = _p("shares:ridings capital lp", "as of 2024-08-31", 250_000, "shares",
                      REGISTER, "Register!C7", "250,000", note="the only B Ordinary holder")
FULLY_DILUTED = _p("shares_fully_diluted", "as of 2024-08-31", 1_000_000, "shares", REGISTER,
                   "Register!F11", "1,000,000")

MD = _p("person:david thornton", None, "Managing Director", None, BIOS, "p.1",
        "David Thornton — Managing Director")
OPS = _p("person:sarah okafor", None, "Operations Director", None, BIOS, "p.1",
         "Sarah Okafor — Operations Director")
COMMERCIAL = _p("person:james whitaker", None, "Commercial Director", None, BIOS, "p.1",
                "James Whitaker — Commercial Director")
ENGINEERING = _p("person:rhys morgan", None, "Engineering Director", None, BIOS, "p.2",
                 "Rhys Morgan — Engineering Director")
CONTROLLER = _p("person:helen baxter", None, "Financial Controller", None, BIOS, "p.2",
                "Helen Baxter — Financial Controller")
FD_VACANT = _p("vacancy:finance director", "since 2024-01-31", "vacant", None, MINUTES,
               "3. Finance Director",
               "the Finance Director role has been vacant since Paul Hendry left")
OKAFOR_SALARY = _p("salary:sarah okafor", "as of 2024-09-30", 118_000, "GBP", CENSUS, "row 3",
                   "118000")
BAXTER_SALARY = _p("salary:helen baxter", "as of 2024-09-30", 72_000, "GBP", CENSUS, "row 6",
                   "72000")
THORNTON_SALARY = _p("salary:david thornton", "as of 2024-09-30", 185_000, "GBP", CENSUS,
                     "row 2", "185000")
WHITAKER_BONUS = _p("bonus:james whitaker", "FY2024", 18_000, "GBP", CENSUS, "row 4", "18000")

# ---------------------------------------------------------------- the price, only in the e-mail

PRICE = _p("enterprise_value", "as of 2024-09-17", 21_500_000, "GBP", EMAIL,
           "message of 17 Sep 2024", "enterprise value of £21.5m",
           note="Ashdown Industrial Group plc, cash-free/debt-free; no other file states a price")
PRICE_MULTIPLE = _p("ev_multiple", "FY2024", 7.1, "x", EMAIL, "message of 17 Sep 2024",
                    "7.1x adjusted EBITDA")
SELLER_FLOOR = _p("seller_floor", None, 21_000_000, "GBP", EMAIL, "message of 16 Sep 2024",
                  "not go below £21m", note="the seller's position, not the offer")

FACTS: tuple[Fact, ...] = (
    FY24_REVENUE_TEXT, FY23_REVENUE_TEXT, FY24_REVENUE_TABLE, FY23_REVENUE_TABLE,
    FY24_GROSS_PROFIT, FY24_OPERATING_PROFIT, FY23_OPERATING_PROFIT, FY24_NET_INCOME,
    FY23_NET_INCOME, CASH, BORROWINGS, NET_ASSETS, DEPRECIATION, AVERAGE_EMPLOYEES, AUDITOR,
    DIVIDEND,
    *QUARTERLY, FY24_REVENUE_CELL, FY24_EBITDA_CELL, Q2_FY25_EBITDA_CELL, H1_FY25_REVENUE_CELL,
    *MONTHLY, SEP_EBITDA_CELL, HEADCOUNT_CELL, *CUSTOMER_SHARES, MERIDIAN_REVENUE_CELL,
    Q4_TRADING_UPDATE, FY24_TRADING_UPDATE, CORRECTION, FY24_REVENUE_MINUTES, DUPLICATED_INVOICE,
    BUDGET_Q1, BUDGET_Q2, BUDGET_FY, BUDGET_Q2_EBITDA, BUDGET_FY_EBITDA,
    QOE_REVENUE_K, QOE_REPORTED_EBITDA, QOE_ADJUSTED_EBITDA, QOE_ADJUSTED_FY23,
    QOE_REPORTED_FY23, *BRIDGE, QOE_NET_DEBT, QOE_KEY_PERSON, QOE_LEVERAGE,
    IM_FOUNDED, IM_SECTORS, IM_REVENUE, IM_TOP3,
    CHANGE_OF_CONTROL, MERIDIAN_EXPIRY, BANK_CHANGE_OF_CONTROL, LEVERAGE_COVENANT,
    INTEREST_COVER, TERM_LOAN, LEASE_COLNE, LEASE_COLNE_EXPIRY, LEASE_BRIGHOUSE_EXPIRY,
    CASTLEFORD, CASTLEFORD_COURT, TRIBUNAL,
    *OWNERSHIP, RIDINGS_B_SHARES, FULLY_DILUTED,
    MD, OPS, COMMERCIAL, ENGINEERING, CONTROLLER, FD_VACANT,
    OKAFOR_SALARY, BAXTER_SALARY, THORNTON_SALARY, WHITAKER_BONUS,
    PRICE, PRICE_MULTIPLE, SELLER_FLOOR,
)

# ---------------------------------------------------------------- information request list

IRL_ITEMS: tuple[IRLItem, ...] = (
    IRLItem("1.1", "Financial", "Audited accounts for FY2023 and FY2024", "High", "Uploaded",
            (ACCOUNTS,)),
    IRLItem("1.2", "Financial", "Monthly management accounts for the current financial year",
            "High", "Uploaded", (MGMT,)),
    IRLItem("1.3", "Financial", "Board-approved budget for FY2025", "High", "Uploaded", (BUDGET,)),
    IRLItem("1.4", "Financial", "Quality of earnings report", "High", "Uploaded", (QOE,)),
    IRLItem("1.5", "Financial", "Aged debtors and creditors at 30 September 2024", "Medium",
            "Outstanding"),
    IRLItem("1.6", "Financial", "Corporation tax computations and returns, last three years",
            "High", "Outstanding"),
    IRLItem("2.1", "Commercial", "Revenue by customer for the last two financial years", "High",
            "Uploaded", (MGMT,)),
    IRLItem("2.2", "Commercial", "Customer contracts with annual value above £250k", "High",
            "Uploaded", (CONTRACTS,)),
    IRLItem("2.3", "Commercial", "Order book and sales pipeline", "Medium", "Outstanding"),
    IRLItem("3.1", "Legal", "Register of members and rights of each share class", "High",
            "Uploaded", (REGISTER,)),
    IRLItem("3.2", "Legal", "Current, pending or threatened litigation", "High", "Uploaded",
            (LEGAL,)),
    IRLItem("3.3", "Legal", "Property leases and lease schedule", "Medium", "Uploaded",
            (LEASES,)),
    IRLItem("3.4", "Legal", "Banking and facility agreements", "High", "Uploaded", (CONTRACTS,)),
    IRLItem("3.5", "Legal", "Insurance schedule and claims history", "Medium", "Uploaded"),
    IRLItem("3.6", "Legal", "Board minutes for the last 24 months", "Medium",
            "Partially provided", (MINUTES,)),
    IRLItem("4.1", "HR", "Employee census with salaries and benefits", "High", "Uploaded",
            (CENSUS,)),
    IRLItem("4.2", "HR", "Service agreements of the directors", "High", "Outstanding"),
    IRLItem("4.3", "HR", "Management biographies and organisation chart", "Medium", "Uploaded",
            (BIOS,)),
    IRLItem("5.1", "Operations", "Environmental permits and site surveys", "Medium",
            "Outstanding"),
    IRLItem("5.2", "Operations", "Quality certificates (AS9100, ISO 13485)", "Low",
            "Outstanding"),
    IRLItem("6.1", "IT", "IT systems overview and cyber security policies", "Medium",
            "Outstanding"),
)
UNCOVERED_IRL = tuple(item for item in IRL_ITEMS if not item.covered)

# ---------------------------------------------------------------- traps

TRAPS: tuple[Trap, ...] = (
    Trap(PENNINE, "supersedes",
         "The Q4 FY2024 trading update (12 April 2024) says Q4 revenue £4.3m and FY2024 £14.6m; "
         "the board minutes of 21 May 2024 correct these in the text to £3.9m and £14.2m (an "
         "invoice of £0.4m entered twice). No file name says 'corrected'.",
         "Answer £3.9m for Q4 FY2024 and say the trading update's £4.3m was corrected.",
         (TRADING, MINUTES, MGMT), (Q4_TRADING_UPDATE, CORRECTION, Q4_FY24_REVENUE)),
    Trap(PENNINE, "forecast_vs_actual",
         "The FY2025 budget (2.3.1) and the actuals (2.2.1) are in different files: Q2 FY2025 "
         "revenue budget £3.95m vs actual £3.72m; EBITDA £820k vs £720k.",
         "Compare the budget with the actual from the other file, with the variance.",
         (BUDGET, MGMT), (BUDGET_Q2, QUARTERLY[5], BUDGET_Q2_EBITDA, Q2_FY25_EBITDA_CELL)),
    Trap(PENNINE, "contradicts",
         "Reported EBITDA £2.66m and adjusted EBITDA £3.02m for FY2024 are different measures "
         "(the QoE bridge explains £0.36m of adjustments), and the audited '2024 | 2023' "
         "columns are two financial years: neither is a conflict.",
         "Never report these as contradictions; explain the bridge items.",
         (QOE, MGMT, ACCOUNTS),
         (QOE_REPORTED_EBITDA, QOE_ADJUSTED_EBITDA, FY24_EBITDA_CELL, FY23_REVENUE_TABLE)),
    Trap(PENNINE, "missing_information",
         "There is no Finance Director: the bios list none and the board minutes say the role "
         "has been vacant since 31 January 2024 (a Financial Controller leads finance).",
         "A management-team answer states that the Finance Director / CFO role is vacant.",
         (BIOS, MINUTES), (FD_VACANT, CONTROLLER)),
    Trap(PENNINE, "red_flag",
         "Meridian Aerostructures is 31% of FY2024 revenue (top three 57%) and may terminate its "
         "long-term agreement on a change of control; the bank facility must be prepaid on one.",
         "Flag the concentration together with both change-of-control provisions.",
         (MGMT, CONTRACTS, IM), (CUSTOMER_SHARES[0], CHANGE_OF_CONTROL, BANK_CHANGE_OF_CONTROL)),
    Trap(PENNINE, "red_flag",
         "Key-person dependency: David Thornton (Managing Director, 42%) personally manages the "
         "Meridian and Halcyon relationships; no succession plan.",
         "Flag the key-person dependency.", (QOE, MINUTES), (QOE_KEY_PERSON,)),
    Trap(PENNINE, "red_flag",
         "High Court claim by Castleford Tooling Ltd for £640,000 (Business and Property Courts "
         "in Leeds, disclosure stage, trial window March 2025, no provision).",
         "Flag the litigation with claimant, amount, court and status.", (LEGAL, ACCOUNTS),
         (CASTLEFORD, CASTLEFORD_COURT)),
    Trap(PENNINE, "missing_information",
         "The indicative price (£21.5m enterprise value) is stated only in the e-mail thread.",
         "Answer the price from the e-mail, not from an unrelated table row.", (EMAIL,),
         (PRICE,)),
    Trap(PENNINE, "irl_status_mismatch",
         "IRL item 3.5 (insurance schedule) is 'Uploaded' but no insurance document is in the "
         "room.", "Report 3.5 as a gap despite its status.", (IRL,)),
    Trap(PENNINE, "uncovered_irl",
         "IRL requests with no document in the room: " + ", ".join(
             item.ref for item in UNCOVERED_IRL) + ".",
         "List them as gaps by category and offer to add them to the Q&A list.", (IRL,)),
)

DISTINCTIVE_TERMS: tuple[str, ...] = (
    "Pennine", "Meridian Aerostructures", "Halcyon", "Castleford Tooling", "David Thornton",
    "Ridings Capital", "Aire Valley Bank", "Kestrel",
)
