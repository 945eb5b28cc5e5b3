"""A part is no answer for the whole asked, nor a row that shares a word with it (issue 25): a
balance's current or non-current portion does not lead where the total outstanding is asked
(a stated total does, else the two portions added with the working shown); a share the
documents state leads over one computed, and a computed share's part is a part of the line
item asked, not a cost row that shares a word with the question; an item a question says was
excluded from a metric is answered by the reconciliation's row, never by the metric's total.
None of it knows a company or a filing: the passages below are written for the tests."""

from __future__ import annotations

from test_filings_leads import DOC, _ask, _evidence, _finding

from manda.agent.compose.common import Draft
from manda.agent.compose.computed import share_of_total
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.fact_lookup import compose
from manda.agent.compose.passages import stands
from manda.agent.frame import read_question
from manda.agent.spans import a_portion, rank_spans
from manda.models import Confidence, Finding, FindingKind, Location

BORROWINGS = "\n".join([
    "CONSOLIDATED BALANCE SHEETS",
    "(in millions)",
    "December 31, 2024 | December 31, 2025",
    "Trade payables | December 31, 2024: $611 | December 31, 2025: $645",
    "Current portion of borrowings | December 31, 2024: 410 | December 31, 2025: 525",
    "Total current liabilities | December 31, 2024: 1,388 | December 31, 2025: 1,502",
    "Borrowings, net of current portion | December 31, 2024: 1,900 | December 31, 2025: 2,240",
    "Total liabilities | December 31, 2024: 3,950 | December 31, 2025: 4,310",
])

STATED_TOTAL = ("At December 31, 2025, Brenmoor had $2.77 billion of indebtedness outstanding, "
                "of which $525 million falls due within the next twelve months.")


def test_a_rows_label_says_it_is_a_portion_in_each_language() -> None:
    for label in ("Current portion of borrowings", "Borrowings, net of current portion",
                  "Long-term debt, less current maturities", "Non-current portion of loans",
                  "Revenue excluding fuel surcharges", "Kurzfristiger Anteil der Darlehen",
                  "Emprunts, part à moins d'un an", "Deuda, porción corriente"):
        assert a_portion(label), label
    for label in ("Total borrowings", "Borrowings", "Current liabilities", "Net sales"):
        assert not a_portion(label), label


def test_a_stated_total_leads_over_a_portions_row_for_the_debt_outstanding() -> None:
    evidence = _evidence(BORROWINGS, STATED_TOTAL)
    ask = _ask("How much debt does Brenmoor have outstanding?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is None and "$2.77 billion" in top.text, top.text
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "$2.77 billion" in first, first


def test_the_portions_are_added_with_their_working_when_no_total_is_stated() -> None:
    evidence = _evidence(BORROWINGS)
    ask = _ask("How much debt did the company have at the end of 2025?")
    first, working = evidence_answer(ask, evidence).text.splitlines()[:2]
    assert first.startswith("Borrowings was $2.77 billion at 31 December 2025 (computed"), first
    assert ("Current portion of borrowings $525.0 million (source: Annual.pdf, p.30) + "
            "Borrowings, net of current portion $2.24 billion (source: Annual.pdf, p.30)") in \
        first, first
    assert working == ("Working: Borrowings = Current portion of borrowings + Borrowings, net "
                       "of current portion = 525 + 2,240 = 2,765 (in millions)."), working


def test_a_portion_alone_is_said_to_be_a_portion() -> None:
    alone = "\n".join(line for line in BORROWINGS.splitlines() if "Current portion" not in line)
    draft = evidence_answer(_ask("How much debt did the company have at the end of 2025?"),
                            _evidence(alone))
    first, second = draft.text.splitlines()[:2]
    assert first.startswith("Borrowings, net of current portion was $2.24 billion"), first
    assert second.startswith("That is a portion only (“current portion”)"), second


def test_a_portion_asked_or_named_is_no_portion_missed() -> None:
    assert read_question("How much non-current debt did the company have at the end of "
                         "2025?").portion
    assert read_question("What is the current portion of its long-term debt?").portion
    assert read_question("How much long-term debt did the company carry at the end of "
                         "2025?").portion
    assert not read_question("How much debt did the company have at the end of 2025?").portion


INCOME = "\n".join([
    "CONSOLIDATED STATEMENTS OF OPERATIONS",
    "(in millions)",
    "2025 | 2024",
    "Net sales | 2025: $8,412 | 2024: $8,006",
    "Cost of goods sold | 2025: 5,120 | 2024: 4,981",
    "Own-label sourcing and design costs | 2025: 1,244 | 2024: 1,190",
    "Warehouse and delivery costs | 2025: 611 | 2024: 588",
    "Operating income | 2025: $1,437 | 2024: $1,247",
])

STATED_SHARE = ("Own-label products accounted for roughly forty percent of Harlow's net sales "
                "in 2025, up from thirty-eight percent a year earlier.")


def test_a_share_the_documents_state_leads_over_one_computed() -> None:
    evidence = _evidence(INCOME, STATED_SHARE)
    draft = compose(_ask("What share of Harlow's net sales comes from own-label products?"),
                    evidence)
    first = draft.text.splitlines()[0]
    assert "forty percent" in first and "computed" not in first, first


def test_a_computed_share_takes_no_cost_row_that_shares_a_word_with_the_question() -> None:
    evidence = _evidence(INCOME)
    for question in ("What share of Harlow's net sales comes from own-label products?",
                     "What share of net sales do Harlow's warehouses deliver?"):
        assert share_of_total(_ask(question), evidence) is None, question
        first = compose(_ask(question), evidence).text.splitlines()[0]
        assert "share of net sales was" not in first, first


def test_a_part_above_its_total_still_gives_the_computed_share() -> None:
    evidence = _evidence("\n".join([
        "Net sales by channel (in millions):", "2025 | 2024",
        "Wholesale | 2025: $6,902 | 2024: $6,655",
        "Direct to consumer | 2025: 1,510 | 2024: 1,351",
        "Total net sales | 2025: $8,412 | 2024: $8,006",
    ]))
    draft = share_of_total(_ask("What share of net sales came from wholesale in 2025?"),
                           evidence)
    assert draft is not None and draft.text.startswith("Wholesale's share of total net sales "
                                                       "was 82.0%"), draft


RECONCILING = "\n".join([
    "Corvane Inc. reconciliation of net loss to Adjusted EBITDA",
    "(in millions)",
    "2025 | 2024",
    "Net loss | 2025: $(61.4) | 2024: $(140.2)",
    "Adjusted to exclude the following:",
    "2025 | 2024",
    "Interest expense | 2025: 22.8 | 2024: 25.1",
    "Depreciation and amortization | 2025: 48.0 | 2024: 44.3",
    "Stock-based compensation expense | 2025: 95.7 | 2024: 101.9",
    "Costs of settling legacy patent claims | 2025: 37.6 | 2024: 12.0",
    "Adjusted EBITDA | 2025: $142.7 | 2024: $43.1",
])


def test_an_item_excluded_from_a_metric_is_its_reconciling_row_not_the_metric() -> None:
    frame = read_question("What patent settlement charge did Corvane exclude from Adjusted "
                          "EBITDA in 2025?")
    assert frame.excluded
    assert not read_question("What was Corvane's Adjusted EBITDA in 2025?").excluded
    evidence = _evidence(RECONCILING)
    ask = _ask("What patent settlement charge did Corvane exclude from Adjusted EBITDA in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and top.row.label.startswith("Costs of settling"), top.text
    ebitda = _finding("adjusted ebitda", 142_700_000, "$142.7 million",
                      "Adjusted EBITDA was $142.7 million in 2025.")
    composed = Draft(text="Adjusted EBITDA was $142.7 million in 2025.", rests_on=[ebitda])
    assert not stands(composed, ask, evidence)
    evidence.findings[ebitda.id] = ebitda
    first = compose(ask, evidence).text.splitlines()[0]
    assert "$37.6 million" in first and "$142.7 million" not in first, first


def test_a_share_stated_just_below_the_best_span_still_leads() -> None:
    evidence = _evidence(
        INCOME,
        "Own-label products from Harlow's design studios are sold in every Harlow store and "
        "online, and own-label products make up a growing part of Harlow's net sales.",
        "In 2025 own-label products came to about 40% of Harlow's net sales.")
    draft = compose(_ask("What share of Harlow's net sales comes from own-label products?"),
                    evidence)
    first = draft.text.splitlines()[0]
    assert "40%" in first and "computed" not in first, first


def test_long_term_debt_asked_is_read_from_the_non_current_row() -> None:
    evidence = _evidence(BORROWINGS)
    top = rank_spans(read_question("How much long-term debt did the company carry at the end of "
                                   "2025?"), evidence)[0]
    assert top.row is not None and top.row.label == "Borrowings, net of current portion", top.text


def _row_finding(row: str, value: float) -> Finding:
    return Finding(id=f"f-{row}", deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
                   subject="debt", label="Debt", period="as of 2025-12-31", value=value,
                   unit="USD", value_text=f"{value:,.0f}", excerpt=f"{row} | 2025: {value:,.0f}",
                   location=Location.for_page(30), confidence=0.9,
                   confidence_level=Confidence.HIGH, attributes={"row": row})


def test_extracted_portions_are_added_where_the_whole_is_asked() -> None:
    """The findings path too: a portion's row read as debt is no answer for the debt
    outstanding; the two portions of one statement are added, each cited."""
    current = _row_finding("Current portion of borrowings", 525_000_000)
    longer = _row_finding("Borrowings, net of current portion", 2_240_000_000)
    evidence = _evidence(BORROWINGS)
    evidence.findings = {f.id: f for f in (current, longer)}
    first = compose(_ask("How much debt does the company have outstanding?"), evidence
                    ).text.splitlines()[0]
    assert first.startswith("Borrowings was $2.77bn as of 31 December 2025 (computed"), \
        first
    assert "Current portion of borrowings" in first and "net of current portion" in first, first


def test_one_extracted_portion_is_said_to_be_a_portion() -> None:
    evidence = _evidence(BORROWINGS)
    only = _row_finding("Current portion of borrowings", 525_000_000)
    evidence.findings = {only.id: only}
    text = compose(_ask("How much debt does the company have outstanding?"), evidence).text
    assert "portion only" in text.splitlines()[0], text
    asked = compose(_ask("What is the current portion of the company's debt?"), evidence).text
    assert "portion only" not in asked.splitlines()[0], asked


UNEARNED = "\n".join([
    "CONSOLIDATED BALANCE SHEETS",
    "(in millions)",
    "December 31, 2024 | December 31, 2025",
    "Accounts payable | December 31, 2024: $611 | December 31, 2025: $645",
    "Short-term deferred income | December 31, 2024: 4,100 | December 31, 2025: 4,380",
    "Total current liabilities | December 31, 2024: 5,388 | December 31, 2025: 5,702",
    "Long-term deferred income | December 31, 2024: 310 | December 31, 2025: 295",
    "Total liabilities | December 31, 2024: 7,950 | December 31, 2025: 8,310",
])


def test_two_rows_split_by_term_are_the_portions_of_the_line_item_asked_whole() -> None:
    """"Short-term deferred income" and "Long-term deferred income" on one balance sheet are
    its two portions: the deferred income asked is their sum, never either row alone; a
    line item named by one term alone ("Long-term debt") is no portion."""
    evidence = _evidence(UNEARNED)
    ask = _ask("How much deferred income did the company have at the end of 2025?")
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert first.startswith("Deferred income was $4.68 billion at 31 December 2025 (computed"), \
        first
    asked = evidence_answer(_ask("How much long-term deferred income did the company have at "
                                 "the end of 2025?"), evidence).text.splitlines()[0]
    assert "$295" in asked and "computed" not in asked, asked
    alone = _evidence("\n".join(line for line in UNEARNED.splitlines() if "Short-term" not in line))
    first = evidence_answer(ask, alone).text.splitlines()[0]
    assert "computed" not in first, first
