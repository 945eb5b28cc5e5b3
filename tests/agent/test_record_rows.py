"""A table of records (debt issues, one a line, as ingestion stores them under their column
titles): the record asked leads by the dates its cells state, its rate column answers a rate
asked though its "%" is printed on the first row only, and a coupon asked is its interest rate.
The table is invented, no filing's."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose import compose
from manda.agent.spans import rank_spans

ISSUES = "\n".join([
    "17. Long-Term Debt",
    "Our unsecured long-term debt issuances during the year ended December 31, 2025 were as "
    "follows:",
    "Debt Issuances (dollars in millions)",
    "Issuance Date | Maturity Date | Principal Amount | Interest Rate (Fixed)",
    "Issuance Date: February 2025 | Maturity Date: March 2032 | Principal Amount: $750 | "
    "Interest Rate (Fixed): 4.80%",
    "Issuance Date: August 2025 | Maturity Date: August 2030 | Principal Amount: 400 | "
    "Interest Rate (Fixed): 4.10",
    "Issuance Date: August 2025 | Maturity Date: September 2045 | Principal Amount: 600 | "
    "Interest Rate (Fixed): 5.60",
    "We also have a committed $2.0 billion unsecured revolving credit facility.",
])


def _first(question: str) -> str:
    return compose(_ask(question), _evidence(ISSUES)).text.splitlines()[0]


def test_a_coupon_asked_is_the_records_interest_rate() -> None:
    first = _first("What coupon and maturity do the notes the company issued in February 2025 "
                   "carry?")
    assert "4.80%" in first and "March 2032" in first


def test_the_record_of_the_maturity_asked_leads_with_its_rate() -> None:
    ask = _ask("What interest rate do the company's notes due September 2045 carry?")
    top = rank_spans(ask.frame, _evidence(ISSUES))[0]
    assert top.row is not None and top.row.cells["Maturity Date"] == "September 2045"
    first = _first("What interest rate do the company's notes due September 2045 carry?")
    assert "5.60" in first and "4.80%" not in first
