"""When a statement's row of the line item asked is in the passages, it leads (issue 25): the
statement the question names is said by its rows, a lead-in table continues the one above it,
an item a reconciliation adds back is the part asked when the question names both, a label
glued to its headings is read as its last part, a row is of the item asked in any wording of
the deal vocabulary, and a figure read elsewhere gives way to the statement's own row. None of
it knows a company or a filing: the passages below are written for the tests."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence, _finding

from manda.agent.compose.common import Draft
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.passages import stands
from manda.agent.spans import a_movement, rank_spans
from manda.agent.spans.pool import _continued
from manda.agent.spans.rows import _unglued
from manda.agent.tables import Row, read_tables

BALANCE_SHEET = "\n".join([
    "CONSOLIDATED BALANCE SHEETS",
    "(in thousands)",
    "December 31, 2024 | December 31, 2025",
    "Inventories | December 31, 2024: 410,200 | December 31, 2025: 455,900",
    "Total current assets | December 31, 2024: 1,220,400 | December 31, 2025: 1,301,700",
    "Goodwill | December 31, 2024: 2,310,500 | December 31, 2025: 2,745,100",
    "Total assets | December 31, 2024: $5,902,300 | December 31, 2025: $6,418,000",
    "Total current liabilities | December 31, 2024: 980,100 | December 31, 2025: 1,012,600",
    "Long-term borrowings, net of current portion | December 31, 2024: 1,150,000 | "
    "December 31, 2025: 1,480,000",
    "Total liabilities | December 31, 2024: 3,010,000 | December 31, 2025: 3,355,400",
])

RECONCILIATION = "\n".join([
    "Reconciliation of operating profit to Underlying EBITDA",
    "(in thousands)",
    "2025 | 2024",
    "Operating profit | 2025: $41,200 | 2024: $35,900",
    "Add back the following items:",
    "2025 | 2024",
    "Depreciation of property and equipment | 2025: 12,300 | 2024: 11,800",
    "Share-based compensation expense | 2025: 6,450 | 2024: 5,120",
    "Restructuring costs | 2025: 2,050 | 2024: —",
])


def test_the_statement_the_question_names_is_said_by_its_rows() -> None:
    evidence = _evidence(
        "As of December 31, 2025, we had $85 million of customer deposits included in other "
        "liabilities on the consolidated balance sheet.",
        BALANCE_SHEET)
    ask = _ask("How much goodwill was on the company's balance sheet at the end of 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and top.row.label == "Goodwill"
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "$2.75 billion" in first and "2025" in first


def test_a_lead_in_table_continues_the_table_above_it() -> None:
    first, second = _continued(read_tables(RECONCILIATION))
    assert first.caption[0].startswith("Reconciliation of operating profit")
    assert second.caption[0] == first.caption[0]
    assert second.caption[-1] == "Add back the following items:"
    alone = read_tables("Segment revenue\n2025 | 2024\nRetail | 2025: 5 | 2024: 4\n"
                        "Wholesale:\n2025 | 2024\nEurope | 2025: 3 | 2024: 2")
    assert _continued(alone)[1].caption == ["Segment revenue", "Wholesale:"]


def test_an_item_added_back_leads_over_the_result_the_question_places_it_in() -> None:
    evidence = _evidence(
        "Underlying EBITDA\n2025 | 2024\nUnderlying EBITDA | 2025: $61,990 | 2024: $52,820",
        RECONCILIATION)
    ask = _ask("How much share-based compensation did the group add back to arrive at "
               "underlying EBITDA in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and top.row.label == "Share-based compensation expense"
    assert top.placed
    ebitda = _finding("adjusted ebitda", 61_990_000, "$62.0 million",
                      "Underlying EBITDA was $62.0 million in 2025.")
    composed = Draft(text="Adjusted EBITDA was $62.0 million in 2025.", rests_on=[ebitda])
    assert not stands(composed, ask, evidence)
    # the result asked alone is answered by its own row
    whole = _ask("What was underlying EBITDA in 2025?")
    best = rank_spans(whole.frame, evidence)[0]
    assert best.row is not None and best.row.label == "Underlying EBITDA" and not best.placed


def test_a_label_glued_to_its_headings_is_read_as_its_last_part() -> None:
    glued = Row(label="Held as current investments: Government bonds : Treasury bills",
                cells={"2025": "310"}, line="")
    row, group = _unglued(glued, "")
    assert row.label == "Treasury bills"
    assert group == "Held as current investments: Government bonds:"
    less = Row(label="Less: cost of sales", cells={"2025": "(90)"}, line="")
    assert _unglued(less, "")[0].label == "Less: cost of sales"
    evidence = _evidence(
        "The following table shows our investments (in thousands):\n"
        "December 31, 2024 | December 31, 2025\n"
        "Held as current investments: Marketable debt securities : Treasury bills | "
        "December 31, 2024: 120,000 | December 31, 2025: 95,000",
        BALANCE_SHEET)
    ask = _ask("How much long-term debt did the company carry at the end of 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and top.row.label.startswith("Long-term borrowings")
    # a repayment of the debt is a movement of it, whichever preposition it takes
    assert a_movement("Principal repayment on term loans") and a_movement("Redemption of notes")
    assert not a_movement("Term loans, net of current portion")


def test_a_row_in_another_wording_of_the_item_asked_leads_over_its_headings() -> None:
    evidence = _evidence(
        "CONSOLIDATED STATEMENTS OF CASH FLOWS\n(in thousands)\n"
        "Cash flows from operating activities\n2025 | 2024\n"
        "Net income | 2025: $88,100 | 2024: $61,300\n"
        "Depreciation and amortization | 2025: 40,200 | 2024: 37,700\n"
        "Stock-based compensation | 2025: 9,900 | 2024: 8,100\n"
        "Purchases of property and equipment | 2025: (52,000) | 2024: (47,300)\n"
        "Cash provided by operating activities | 2025: 131,400 | 2024: 104,900\n"
        "Cash flows from investing activities",
        "Cash flows from operating activities")
    ask = _ask("What was the operating cash flow in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and top.row.label == "Cash provided by operating activities"
    # the same figure read from a summary on another page gives way to the statement's row
    summary = _finding("operating cash flow", 131_400_000, "$131.4 million",
                       "Operating cash flow was $131.4 million.")
    composed = Draft(text="Operating cash flow was $131.4 million in 2025.", rests_on=[summary])
    assert not stands(composed, ask, evidence)
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "$131.4 million" in first and "p.30" in first


def test_a_metrics_table_by_quarter_leads_with_the_quarter_asked() -> None:
    evidence = _evidence(
        "Average revenue per subscriber increased in each of the three months ended March 31, "
        "June 30, September 30 and December 31, 2025, compared with the same periods in 2024.",
        "\n".join([
            "Average Revenue per Subscriber",
            "2025 | 2024 | % change",
            "Three Months Ended March 31 | 2025: €31.20 | 2024: €29.80 | % change: 4.7%",
            "Three Months Ended June 30 | 2025: €32.05 | 2024: €30.10 | % change: 6.5%",
            "Three Months Ended September 30 | 2025: €33.40 | 2024: €30.90 | % change: 8.1%",
            "Three Months Ended December 31 | 2025: €35.75 | 2024: €32.60 | % change: 9.7%"]))
    ask = _ask("What was the average revenue per subscriber in the third quarter of 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and top.row.label == "Three Months Ended September 30"
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "Average Revenue per Subscriber" in first and "33.4" in first and "Q3 2025" in first
