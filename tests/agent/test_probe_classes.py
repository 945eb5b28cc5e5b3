"""Classes of failure a new user's questions showed on real filings (issue 25, probe round): a
ranking asked with a comparative or "the most <metric>", the parts of the line item asked (not of
the next block of the statement), a spend asked of cash, and a balance compared with the year
before when the question names one year. Every document below is invented for the tests (other
companies, other units, other wording than any filing)."""

from __future__ import annotations

from datetime import date

import pytest
from test_spans import _evidence as _passages

from manda.agent.compose import comparison, ranking
from manda.agent.compose.common import Ask
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.models import (
    Confidence,
    Document,
    DocumentStatus,
    Finding,
    FindingKind,
    Location,
)

DOC = Document(id="d9", deal_id="d", filename="Brackwater_Annual_Report.pdf", content_hash="h",
               file_type="pdf", size_bytes=1, version_family="f",
               status=DocumentStatus.COMPLETED, doc_date=date(2024, 9, 30),
               fiscal_year_end="--09-30")


def _evidence(*texts: str) -> Evidence:
    return _passages(*texts, doc=DOC)


def _ask(question: str) -> Ask:
    return Ask.of(read_question(question))


@pytest.mark.parametrize(("question", "rank_by", "top_first"), [
    ("Which division grew its sales faster in fiscal 2024?", "growth", True),
    ("Which region made the most operating profit last year?", "size", True),
    ("Which of the two brands had the lower gross margin?", "size", False),
    ("Which unit earned the least EBITDA in 2024?", "size", False),
    ("Which segment grew the most in 2024?", "growth", True),
])
def test_a_comparative_or_the_most_of_a_figure_asks_a_ranking(
        question: str, rank_by: str, top_first: bool) -> None:
    frame = read_question(question)
    assert (frame.answer_kind, frame.rank_by, frame.top_first) == ("ranking", rank_by, top_first)


def test_cash_spent_on_something_asks_the_outflow_not_the_cash_balance() -> None:
    assert "cash" not in read_question(
        "How much cash did Brackwater spend on acquisitions in 2024?").subjects
    assert "cash" not in read_question("How much cash was used to buy back shares?").subjects
    assert read_question("How much cash did Brackwater hold at year end?").subjects == ("cash",)
    assert read_question("How much did Brackwater spend on property, equipment and vans in "
                         "2024?").subjects == ("capex",)
    assert read_question("What did it spend on property and equipment?").subjects == ("capex",)


# a statement printed as tagged data: each line item's rows, its parts after it
STATEMENT = ("BRACKWATER PLC\nConsolidated Statement of Income\n(in thousands)\n"
             "Revenues\n2024-09-30 | 2023-09-30\n"
             "Total revenues | 2024-09-30: 812,400 | 2023-09-30: 731,900\n"
             "Freight forwarding | 2024-09-30: 590,100 | 2023-09-30: 560,300\n"
             "Warehousing | 2024-09-30: 222,300 | 2023-09-30: 171,600\n"
             "Cost of revenues\n2024-09-30 | 2023-09-30\n"
             "Total cost of revenues | 2024-09-30: 640,000 | 2023-09-30: 600,000\n"
             "Freight forwarding | 2024-09-30: 470,000 | 2023-09-30: 455,000\n"
             "Warehousing | 2024-09-30: 170,000 | 2023-09-30: 145,000\n"
             "Gross profit | 2024-09-30: 172,400 | 2023-09-30: 131,900\n"
             "Freight forwarding segment | 2024-09-30: 120,100 | 2023-09-30: 105,300\n"
             "Warehousing segment | 2024-09-30: 52,300 | 2023-09-30: 26,600")


def test_a_ranking_ranks_the_parts_of_the_line_item_asked_not_the_next_block() -> None:
    """The gross profit by segment that follows the cost rows grew faster (+96.6%), but the
    question asks for revenue: its parts are ranked."""
    draft = ranking.answer(_ask("Which segment grew revenue fastest in fiscal 2024?"),
                           _evidence(STATEMENT))
    assert draft is not None
    first = draft.text.splitlines()[0]
    assert first.startswith("Warehousing +29.5%"), first
    assert "Freight forwarding +5.3%" in draft.text and "96.6%" not in draft.text


def test_a_ranking_of_gross_profit_ranks_the_rows_under_gross_profit() -> None:
    draft = ranking.answer(_ask("Which segment made the most gross profit in fiscal 2024?"),
                           _evidence(STATEMENT))
    assert draft is not None
    assert draft.text.splitlines()[0].startswith("Freight forwarding segment 120.1 million"), \
        draft.text


def _cash(period: str, value: float, written: str) -> Finding:
    return Finding(id=f"f-cash-{period}", deal_id="d", document_id=DOC.id,
                   kind=FindingKind.METRIC, subject="cash", label="Cash", value=value,
                   value_text=written, unit="GBP", period=period,
                   excerpt=f"Cash and cash equivalents {written}",
                   location=Location.for_page(31), confidence=0.9,
                   confidence_level=Confidence.HIGH)


def test_a_balance_against_a_year_earlier_sets_the_prior_year_end_beside_it() -> None:
    """The question names one year; the balance sheet dates both year ends ("as of …"): the
    prior year end is the year before's balance, not a missing period."""
    evidence = _evidence("Cash and cash equivalents were £48.2 million at year end.")
    evidence.findings = {f.id: f for f in (
        _cash("as of 2024-09-30", 48_200_000.0, "£48.2 million"),
        _cash("as of 2023-09-30", 39_900_000.0, "£39.9 million"))}
    ask = _ask("How did Brackwater's cash at the end of fiscal 2024 compare with a year earlier?")
    text = comparison.compose(ask, evidence).text
    assert "£48.2" in text and "£39.9" in text, text
    assert "found nothing" not in text
