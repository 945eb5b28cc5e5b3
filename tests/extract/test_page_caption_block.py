"""A statement page's caption block speaks for every table of the page (issue 25): the unit
line under the company and statement names ("(in millions)" on the fourth line) scales each
block the parser gave as its own table, and every block of a cash-flow page is a flow, so a
balance-sheet line in it ("Unearned revenue", a change) is no balance. The page is invented."""

from __future__ import annotations

from fixtures.extraction import page_findings

PAGE = "\n".join([
    "Table of Contents",
    "HALVERN LOGISTICS, INC.",
    "CONSOLIDATED STATEMENTS OF CASH FLOWS",
    "(in millions)",
    "Year Ended December 31,",
    "2024 | 2025",
    "Net income | 2024: 1,210 | 2025: 1,480",
    "Changes in operating assets and liabilities:",
    "2024 | 2025",
    "Inventories | 2024: (84) | 2025: (102)",
    "Unearned revenue | 2024: 37 | 2025: (12)",
    "Net cash provided by (used in) operating activities | 2024: 2,015 | 2025: 2,390",
    "INVESTING ACTIVITIES:",
    "2024 | 2025",
    "Purchases of property and equipment | 2024: (655) | 2025: (731)",
])


def test_the_pages_unit_line_scales_every_block() -> None:
    found = {(f.subject, f.period): f.value for f in page_findings(PAGE, page=36)}
    assert found[("net income", "FY2025")] == 1_480_000_000, found
    assert found[("operating cash flow", "FY2025")] == 2_390_000_000, found
    assert found[("capex", "FY2025")] == 731_000_000, found


def test_a_balance_line_on_a_cash_flow_page_is_a_change_not_the_balance() -> None:
    subjects = {f.subject for f in page_findings(PAGE, page=36)}
    assert "deferred revenue" not in subjects and "inventory" not in subjects, subjects
