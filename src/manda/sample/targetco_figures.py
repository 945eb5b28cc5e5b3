"""TargetCo's underlying numbers (EUR thousands), shared by its reports and spreadsheets.

What each file states, and where, is recorded in `facts.py`; this module only keeps the
income statements arithmetically consistent across the quarterly reports, the annual reports
and the management accounts workbook.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PnL:
    """One period's income statement, EUR thousands; subtotals are derived."""

    revenue: int
    cost_of_sales: int
    opex: int  # operating expenses before any one-time restructuring charge
    depreciation: int
    net_finance: int
    tax: int
    restructuring: int = 0

    @property
    def gross_profit(self) -> int:
        return self.revenue - self.cost_of_sales

    @property
    def ebitda(self) -> int:
        return self.gross_profit - self.opex - self.restructuring

    @property
    def ebit(self) -> int:
        return self.ebitda - self.depreciation

    @property
    def pretax(self) -> int:
        return self.ebit - self.net_finance

    @property
    def net_income(self) -> int:
        return self.pretax - self.tax

    def __add__(self, other: PnL) -> PnL:
        return PnL(
            revenue=self.revenue + other.revenue,
            cost_of_sales=self.cost_of_sales + other.cost_of_sales,
            opex=self.opex + other.opex,
            depreciation=self.depreciation + other.depreciation,
            net_finance=self.net_finance + other.net_finance,
            tax=self.tax + other.tax,
            restructuring=self.restructuring + other.restructuring,
        )


def total(*periods: PnL) -> PnL:
    result = periods[0]
    for period in periods[1:]:
        result = result + period
    return result


QUARTERS: dict[str, PnL] = {
    "Q1 2023": PnL(4300, 1290, 2360, 150, 45, 90),
    "Q2 2023": PnL(4500, 1350, 2450, 150, 45, 100),
    "Q3 2023": PnL(4700, 1410, 2540, 150, 45, 110),
    "Q4 2023": PnL(4900, 1470, 2630, 150, 45, 120),
    "Q1 2024": PnL(4600, 1380, 2420, 160, 40, 150),
    # Q2 2024 carries the one-time restructuring charge (Leipzig support office).
    "Q2 2024": PnL(4900, 1470, 2430, 160, 40, 100, restructuring=400),
    "Q3 2024": PnL(5200, 1508, 2592, 160, 40, 225),
}
FY2022 = PnL(15600, 4836, 8464, 560, 200, 340)
FY2023 = total(*(QUARTERS[f"Q{q} 2023"] for q in range(1, 5)))
# The first annual report printed a wrong EBITDA subtotal; everything else was right.
FY2023_EBITDA_AS_FIRST_REPORTED = 3100

# Balance sheet lines, EUR thousands: 31 Dec 2022, 31 Dec 2023, 30 Sep 2024.
BALANCE_SHEET: dict[str, tuple[int, int, int]] = {
    "Cash and cash equivalents": (4800, 5900, 6800),
    "Trade receivables": (3100, 3600, 4000),
    "Other current assets": (600, 650, 725),
    "Property, plant and equipment": (1300, 1250, 1200),
    "Intangible assets": (2100, 2300, 2400),
    "Trade payables": (1300, 1400, 1450),
    "Deferred revenue": (2000, 2300, 2700),
    "Bank debt (term loan)": (4000, 4000, 4000),
    "Other liabilities": (1150, 850, 400),
}
ASSET_LINES = ("Cash and cash equivalents", "Trade receivables", "Other current assets",
               "Property, plant and equipment", "Intangible assets")
LIABILITY_LINES = ("Trade payables", "Deferred revenue", "Bank debt (term loan)",
                   "Other liabilities")

# Headcount by department at 31 Dec 2023 and 30 Sep 2024.
HEADCOUNT: dict[str, tuple[int, int]] = {
    "Engineering": (57, 62),
    "Product": (13, 14),
    "Sales": (26, 28),
    "Marketing": (9, 10),
    "Customer Success": (20, 22),
    "Finance & Administration": (11, 12),
    "Management": (6, 8),
}

# Revenue by customer, last twelve months to 30 Sep 2024 (EUR thousands; total 19,600).
CUSTOMERS: list[tuple[str, str, int]] = [
    ("Globex AG", "Manufacturing", 7448),
    ("Initech", "Financial services", 2744),
    ("Umbrella Retail", "Retail", 1764),
    ("Acme Industrie GmbH", "Manufacturing", 980),
    ("Soylent Foods SE", "Food & beverage", 784),
    ("Vandelay Import KG", "Wholesale", 588),
    ("Other customers (approx. 180)", "Various", 5292),
]


def equity(column: int) -> int:
    assets = sum(BALANCE_SHEET[line][column] for line in ASSET_LINES)
    liabilities = sum(BALANCE_SHEET[line][column] for line in LIABILITY_LINES)
    return assets - liabilities
