"""A line item asked is answered by its own figure, not by a sum it is part of (issue 25): cash
asked with the investments beside it ("cash and short-term investments") is that sum, read by
the wording that states it, never the cash alone; a row that joins two line items ("Debt and
finance leases") states the figure of neither. None of it knows a company or a filing: the
passages below are written for the tests."""

from __future__ import annotations

import pytest
from test_filings_leads import DOC, _ask, _evidence

from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.fact_lookup import compose
from manda.agent.frame import read_question
from manda.agent.selection import findings_for
from manda.agent.spans import rank_spans
from manda.finance.label_heads import adds_another_thing, joins_line_items
from manda.finance.vocabulary import find_line_items
from manda.models import Confidence, Finding, FindingKind, Location

SHEET = "\n".join([
    "CONSOLIDATED BALANCE SHEETS",
    "(in millions)",
    "December 31, 2024 | December 31, 2025",
    "Cash and cash equivalents | December 31, 2024: $2,950 | December 31, 2025: $3,120",
    "Short-term investments | December 31, 2024: 4,010 | December 31, 2025: 5,280",
    "Total current assets | December 31, 2024: 11,400 | December 31, 2025: 12,960",
])

LIQUIDITY = ("We ended 2025 with $8.40 billion in cash and cash equivalents and investments, an "
             "increase of $1.44 billion from the end of 2024.")


@pytest.mark.parametrize(("question", "subject"), [
    ("How much cash and investments did Corvel hold at the end of 2025?", "cash and investments"),
    ("How much cash and short-term investments does Corvel have?", "cash and investments"),
    ("What were Corvel's cash, cash equivalents and marketable securities?",
     "cash and investments"),
    ("Quel est le montant de la trésorerie et placements à court terme ?", "cash and investments"),
    ("Wie hoch sind die liquiden Mittel und Wertpapiere?", "cash and investments"),
    ("¿Cuánto efectivo e inversiones a corto plazo tiene la empresa?", "cash and investments"),
    ("What were Corvel's cash and cash equivalents at the end of 2025?", "cash"),
])
def test_cash_with_the_investments_beside_it_is_a_line_item_of_its_own(question: str,
                                                                        subject: str) -> None:
    assert read_question(question).subjects == (subject,)


def test_cash_and_investments_asked_is_led_by_the_sentence_stating_the_sum() -> None:
    evidence = _evidence(SHEET, LIQUIDITY)
    ask = _ask("How much cash and investments did the company hold at the end of 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is None and "$8.40 billion" in top.text, top.text
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "$8.40 billion" in first and "3,120" not in first, first


def test_the_cash_asked_is_the_cash_row_not_the_sum_with_investments() -> None:
    evidence = _evidence(SHEET, LIQUIDITY)
    ask = _ask("What were the company's cash and cash equivalents at the end of 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and top.row.label == "Cash and cash equivalents", top.text


def test_a_sentence_of_cash_listed_with_securities_names_the_sum() -> None:
    sentence = ("The Company believes its balances of cash, cash equivalents and unrestricted "
                "marketable securities, which totaled $61.5 billion as of September 30, 2025, "
                "will be sufficient.")
    assert [s for s, _, _ in find_line_items(sentence)] == ["cash and investments"]


@pytest.mark.parametrize("label", ["Debt and finance leases, net of current portion",
                                   "Current portion of debt and finance leases",
                                   "Total liabilities and shareholders' equity"])
def test_a_row_joining_two_line_items_states_the_figure_of_neither(label: str) -> None:
    assert joins_line_items(label) and adds_another_thing(label)


@pytest.mark.parametrize("label", ["Current portion of borrowings", "Cash and cash equivalents",
                                   "Cash, cash equivalents and restricted cash",
                                   "Long-term debt",
                                   # a gloss defines the label: a ratio's parts join nothing
                                   "Taux de marge (marge brute / chiffre d'affaires)",
                                   "EBITDA margin (EBITDA / revenue)"])
def test_a_row_of_one_line_item_joins_none(label: str) -> None:
    assert not joins_line_items(label)


def _row_finding(row: str, value: float) -> Finding:
    return Finding(id=f"f-{row}", deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
                   subject="debt", label="Debt", period="as of 2025-12-31", value=value,
                   unit="USD", value_text=f"{value:,.0f}", excerpt=f"{row} | 2025: {value:,.0f}",
                   location=Location.for_page(30), confidence=0.9,
                   confidence_level=Confidence.HIGH, attributes={"row": row})


def test_debt_asked_is_not_the_sum_of_debt_and_finance_leases() -> None:
    """Rows read as debt that add finance leases to it are no debt: the sentence stating the
    indebtedness leads, not the two rows added."""
    sheet = "\n".join([
        "CONSOLIDATED BALANCE SHEETS", "(in millions)", "December 31, 2024 | December 31, 2025",
        "Current portion of debt and finance leases | December 31, 2024: 980 | "
        "December 31, 2025: 1,210",
        "Debt and finance leases, net of current portion | December 31, 2024: 1,650 | "
        "December 31, 2025: 2,030"])
    stated = ("As of December 31, 2025, we had outstanding $2.41 billion in aggregate principal "
              "amount of indebtedness, of which $0.90 billion is due in the next 12 months.")
    evidence = _evidence(sheet, stated)
    evidence.findings = {f.id: f for f in (
        _row_finding("Current portion of debt and finance leases", 1_210_000_000),
        _row_finding("Debt and finance leases, net of current portion", 2_030_000_000))}
    first = compose(_ask("How much debt does the company have outstanding?"), evidence
                    ).text.splitlines()[0]
    assert "$2.41 billion" in first and "3.24" not in first, first


def test_a_finding_read_from_a_joined_row_is_no_finding_of_its_line_item() -> None:
    joined = _row_finding("Debt and finance leases, net of current portion", 2_030_000_000)
    own = _row_finding("Current portion of borrowings", 525_000_000)
    evidence = _evidence("Debt.")
    evidence.findings = {f.id: f for f in (joined, own)}
    assert [f.id for f in findings_for(evidence, "debt")] == [own.id]


CONTRACTS = "\n".join([
    "CONSOLIDATED BALANCE SHEETS", "(in millions)", "December 31, 2024 | December 31, 2025",
    "Accounts payable | December 31, 2024: $3,100 | December 31, 2025: $3,420",
    "Contract liabilities | December 31, 2024: 610 | December 31, 2025: 740",
    "Total current liabilities | December 31, 2024: 5,200 | December 31, 2025: 5,880",
    "Contract liabilities, net of current portion | December 31, 2024: 820 | "
    "December 31, 2025: 905"])


def _contract_finding(row: str, value: float) -> Finding:
    return Finding(id=f"f-{row}", deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
                   subject="deferred revenue", label="Deferred revenue",
                   period="as of 2025-12-31", value=value, unit="USD",
                   value_text=f"{value:,.0f}", excerpt=f"{row} | 2025: {value:,.0f}",
                   location=Location.for_page(30), confidence=0.9,
                   confidence_level=Confidence.HIGH, attributes={"row": row})


def test_a_bare_row_beside_its_non_current_portion_is_the_current_portion() -> None:
    """A balance sheet lists the current portion under the line item's bare name: with the
    non-current row beside it, the whole is the two added, in the passages and the findings."""
    evidence = _evidence(CONTRACTS)
    first = evidence_answer(_ask("How much deferred revenue did the company have at the end "
                                 "of 2025?"), evidence).text.splitlines()[0]
    assert "$1.65 billion" in first and "computed" in first, first
    evidence.findings = {f.id: f for f in (
        _contract_finding("Contract liabilities", 740_000_000),
        _contract_finding("Contract liabilities, net of current portion", 905_000_000))}
    first = compose(_ask("How much deferred revenue did the company have at the end of 2025?"),
                    evidence).text.splitlines()[0]
    assert "$1.65bn" in first and "Contract liabilities $740" in first, first


def test_a_bare_row_beside_both_portions_is_the_whole() -> None:
    evidence = _evidence(CONTRACTS.replace(
        "Contract liabilities | December 31, 2024: 610 | December 31, 2025: 740",
        "Current portion of contract liabilities | December 31, 2024: 610 | "
        "December 31, 2025: 740\nContract liabilities | December 31, 2024: 1,430 | "
        "December 31, 2025: 1,645"))
    first = evidence_answer(_ask("How much deferred revenue did the company have at the end "
                                 "of 2025?"), evidence).text.splitlines()[0]
    assert "$1.65 billion" in first and "computed" not in first, first
