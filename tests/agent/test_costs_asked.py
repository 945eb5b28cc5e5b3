"""A cost asked is the amount paid (issue 25): a cash-flow row prints capital expenditures or
dividends paid in parentheses, and "What were capital expenditures?" is answered with the
amount, not a negative one. The statement is invented."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.evidence_first import answer as evidence_answer

CASH_FLOWS = "\n".join([
    "CONSOLIDATED STATEMENTS OF CASH FLOWS",
    "(in millions)",
    "2024 | 2025",
    "Net cash provided by operating activities | 2024: $2,015 | 2025: $2,390",
    "Purchases of property and equipment | 2024: (655) | 2025: (731)",
    "Dividends paid | 2024: (120) | 2025: (134)",
])


def test_a_cost_asked_is_said_as_the_amount_paid() -> None:
    for question, figure in (("What were capital expenditures in 2025?", "$731.0 million"),
                             ("How much were dividends paid in 2025?", "$134.0 million")):
        first = evidence_answer(_ask(question), _evidence(CASH_FLOWS)).text.splitlines()[0]
        assert figure in first and "-$" not in first, (question, first)


def test_a_flow_that_is_no_cost_keeps_its_sign() -> None:
    outflow = CASH_FLOWS.replace("$2,015", "$(2,015)").replace("$2,390", "$(2,390)")
    first = evidence_answer(_ask("What was operating cash flow in 2025?"),
                            _evidence(outflow)).text.splitlines()[0]
    assert "-$2.39 billion" in first, first


OPERATIONS = "\n".join([
    "CONSOLIDATED STATEMENTS OF OPERATIONS",
    "(in thousands)",
    "2024 | 2025",
    "Revenue | 2024: $1,912,440 | 2025: $2,204,118",
    "Cost of revenue | 2024: 1,041,200 | 2025: 1,130,870",
    "Operations and support | 2024: 301,332 | 2025: 322,919",
])


def test_gross_margin_is_revenue_less_its_cost_where_no_gross_profit_line_is_stated() -> None:
    from manda.agent.compose.computed import answer as computed_answer

    draft = computed_answer(_ask("What was the gross margin in 2025?"), _evidence(OPERATIONS))
    assert draft is not None
    lead, working = draft.text.splitlines()
    assert lead.startswith("Gross margin was 48.7% in 2025 (computed here"), lead
    assert "cost of sales $1.13 billion" in lead, lead
    assert working.startswith("Working: gross margin = (revenue − cost of sales) ÷ revenue"), \
        working


def test_gross_profit_is_revenue_less_its_cost_where_no_gross_profit_line_is_stated() -> None:
    """"What was gross profit?" of a statement with no gross profit line: revenue less its
    cost, computed with the working shown (it had been answered with a rate)."""
    from manda.agent.compose.computed import answer as computed_answer

    draft = computed_answer(_ask("What was gross profit in 2025?"), _evidence(OPERATIONS))
    assert draft is not None
    lead = draft.text.splitlines()[0]
    assert lead.startswith("Gross profit was $1.07 billion in 2025 (computed here"), lead
    margin = computed_answer(_ask("What was the gross profit margin in 2025?"),
                             _evidence(OPERATIONS))
    assert margin is not None and "48.7%" in margin.text.splitlines()[0]


TAXES = "\n".join([
    "CONSOLIDATED STATEMENTS OF OPERATIONS",
    "(in millions)",
    "2025 | 2024",
    "Earnings before income taxes | 2025: $1,874 | 2024: $1,702",
    "Provision for income taxes | 2025: 412 | 2024: 388",
    "Net earnings | 2025: $1,462 | 2024: $1,314",
])


def test_the_tax_charge_asked_is_its_row_not_a_tax_exposure() -> None:
    """"What was income tax expense?" asks the income statement's row: its words name a line
    item, no red-flag topic (tax exposures had led the answer); the tax paid is another one."""
    from manda.agent.frame import read_question

    for question, subject in (("What was income tax expense in 2025?", "income tax expense"),
                              ("How much income tax did they pay in 2025?", "income taxes paid"),
                              ("What were cash taxes in 2025?", "income taxes paid")):
        frame = read_question(question)
        assert frame.subjects[:1] == (subject,) and not frame.flag_topics, question
    assert read_question("Are there any open tax audits?").flag_topics
    first = evidence_answer(_ask("What was income tax expense in 2025?"),
                            _evidence(TAXES)).text.splitlines()[0]
    assert "$412.0 million" in first, first


def test_a_line_item_that_measures_a_risk_still_names_its_topic() -> None:
    """"Any concerns about customer concentration?": customer concentration is a line item (a
    share) and the red-flag topic itself, so the topic is asked (its Q&A offer depends on it);
    a money line item ("income tax expense") names no topic its words touch."""
    from manda.agent.frame import read_question

    assert read_question("Any concerns about customer concentration?").flag_topics
    assert not read_question("What was income tax expense in 2025?").flag_topics
