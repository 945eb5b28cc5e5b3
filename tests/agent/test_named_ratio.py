"""A ratio a question names in its own words ("revenue as a percentage of gross bookings") is
computed from the two lines' rows, each input cited and the formula in one line, as a margin is;
never one of the two figures alone (issue 25). The passages are written for the tests."""

from __future__ import annotations

import pytest
from test_filings_leads import _ask, _evidence

from manda.agent.compose.computed import answer as computed_answer
from manda.agent.frame import read_question
from manda.models import Confidence, Finding, FindingKind, Location

METRICS = "\n".join([
    "Key Metrics",
    "(in millions)",
    "Year Ended December 31, | 2024 | 2025",
    "Gross Bookings | 2024: $41,200 | 2025: $48,900",
    "Revenue | 2024: $8,240 | 2025: $10,270",
])


@pytest.mark.parametrize(("question", "line", "over"), [
    ("What was revenue as a percentage of Gross Bookings in 2025?", "revenue", "bookings"),
    ("What was net income as a % of revenue?", "net income", "revenue"),
    ("Quel était le résultat net en pourcentage du chiffre d'affaires ?", "net income",
     "revenue"),
    ("¿Cuál fue el beneficio neto como porcentaje de las ventas?", "net income", "revenue"),
])
def test_a_ratio_named_in_the_questions_words_divides_its_two_lines(question: str, line: str,
                                                                    over: str) -> None:
    derived = read_question(question).derived
    assert derived is not None and derived.plus == (line,) and derived.over == over, derived
    assert derived.unit == "percent"


def test_a_share_of_a_total_is_no_ratio_of_two_lines() -> None:
    assert read_question("What share of revenue came from Services?").derived is None


def test_the_ratio_is_computed_with_its_inputs_cited_and_its_formula() -> None:
    draft = computed_answer(_ask("What was revenue as a percentage of Gross Bookings in 2025?"),
                            _evidence(METRICS))
    assert draft is not None
    first, working = draft.text.splitlines()[:2]
    assert "21.0%" in first and "computed" in first, first
    assert "$10.3 billion" in first and "$48.9 billion" in first, first
    assert "(10,270) ÷ 48,900 = 0.210" in working, working


OPERATIONS = "\n".join([
    "Consolidated statements of operations (in millions)",
    "2025 | 2024",
    "Total net sales | 2025: 52,400 | 2024: 48,100",
    "Cost of sales | 2025: 30,100 | 2024: 28,000",
    "Warehousing | 2025: 7,860 | 2024: 7,300",
    "Selling, general and administrative | 2025: 9,170 | 2024: 8,900",
    "Research and development | 2025: 2,620 | 2024: 2,450",
    "Operating income | 2025: 2,650 | 2024: 1,450",
])


@pytest.mark.parametrize(("question", "line"), [
    ("What was the company's R&D as a percentage of revenue in 2025?",
     "research and development"),
    ("R&D as % of revenues in 2025?", "research and development"),
    ("What was SG&A as a percentage of sales in 2025?", "sg&a"),
    ("What were warehousing costs as a percentage of net sales in 2025?", "warehousing costs"),
])
def test_a_ratio_of_any_line_item_the_question_names_over_a_statement_line(
        question: str, line: str) -> None:
    """The first line of "X as a percentage of Y" need be no statement line: a metric ("R&D"),
    an abbreviation ("SG&A") or the question's own words ("warehousing costs")."""
    derived = read_question(question).derived
    assert derived is not None and derived.plus == (line,) and derived.over == "revenue", derived
    assert derived.unit == "percent"


@pytest.mark.parametrize(("question", "share", "row"), [
    ("What was the company's R&D as a percentage of revenue in 2025?", "5.0%", "2,620"),
    ("What was SG&A as a percentage of sales in 2025?", "17.5%", "9,170"),
    ("What were warehousing costs as a percentage of net sales in 2025?", "15.0%", "7,860"),
])
def test_a_named_items_ratio_is_its_row_over_the_total_never_the_total_alone(
        question: str, share: str, row: str) -> None:
    """"SG&A as a percentage of sales" is the SG&A row (by any of its names) over net sales,
    with the working shown; never net sales alone, which the room states as a finding."""
    from manda.agent.compose.fact_lookup import compose

    sales = _finding_of("revenue", 52.4e9, "$52.4 billion",
                        "Total net sales were $52.4 billion in 2025.")
    evidence = _evidence(OPERATIONS)
    evidence.findings[sales.id] = sales
    draft = compose(_ask(question), evidence)
    first = draft.text.splitlines()[0]
    assert share in first and "computed" in first, first
    assert f"({row}) ÷ 52,400" in draft.text, draft.text


def _finding_of(subject: str, value: float, written: str, excerpt: str) -> Finding:
    return Finding(id=f"f-{subject}", deal_id="d", document_id="d1", kind=FindingKind.METRIC,
                   subject=subject, label=subject.title(), value=value, value_text=written,
                   excerpt=excerpt, location=Location.for_page(3), confidence=0.9,
                   confidence_level=Confidence.HIGH)


def test_a_share_spent_on_a_line_item_whose_label_begins_with_the_totals_word() -> None:
    """"What proportion of its sales did it spend on sales and marketing?": the "Sales and
    marketing" row is that line item, not a row of sales to be left out as the total's."""
    from manda.agent.compose.fact_lookup import compose

    evidence = _evidence("\n".join([
        "Consolidated statements of operations (in thousands)",
        "2025 | 2024",
        "Sales | 2025: 2,400,000 | 2024: 2,100,000",
        "Sales and marketing | 2025: 312,000 | 2024: 301,000",
        "General and administrative | 2025: 210,000 | 2024: 190,000",
        "Net loss | 2025: (52,000) | 2024: (80,000)",
    ]))
    draft = compose(_ask("What proportion of its revenue did the company spend on sales and "
                         "marketing in 2025?"), evidence)
    first = draft.text.splitlines()[0]
    assert "13.0%" in first and "Sales and marketing" in first, first


def test_a_named_ratio_a_table_states_is_said_beside_the_computed_one() -> None:
    """Where a table states each line as a percentage of revenue, the stated share is said and
    cited beside the one computed from the lines, never "the documents do not state it"."""
    from manda.agent.compose.fact_lookup import compose

    evidence = _evidence(OPERATIONS, "\n".join([
        "Components of operations as a percentage of revenue",
        "2025 | 2024",
        "Total net sales | 2025: 100% | 2024: 100%",
        "Warehousing | 2025: 15% | 2024: 15%",
        "Research and development | 2025: 5% | 2024: 5%",
    ]))
    first = compose(_ask("What was the company's R&D as a percentage of revenue in 2025?"),
                    evidence).text.splitlines()[0]
    assert "5.0%" in first and "the documents state 5%" in first, first
    assert "do not state" not in first and "100%" not in first, first


@pytest.mark.parametrize(("question", "line", "share", "row"), [
    ("What share of net sales did the company spend on R&D in 2025?",
     "research and development", "5.0%", "2,620"),
    ("What percentage of its revenue did the company spend on SG&A in fiscal 2025?", "sg&a",
     "17.5%", "9,170"),
    ("What proportion of sales did the company spend on warehousing costs in 2025?",
     "warehousing costs", "15.0%", "7,860"),
    ("What share of net sales went to R&D in 2025?", "research and development", "5.0%",
     "2,620"),
    ("Quelle part du chiffre d'affaires la société a-t-elle consacré à la R&D en 2025 ?",
     "research and development", "5.0%", "2,620"),
])
def test_a_share_of_the_total_spent_on_a_line_item_is_that_items_ratio(
        question: str, line: str, share: str, row: str) -> None:
    """"What share of net sales did it spend on R&D?" names the whole first and the part after
    the verb of spending: R&D over net sales, computed with its working; never R&D's amount
    (a finding the room states) or net sales alone."""
    from manda.agent.compose.fact_lookup import compose

    rnd = _finding_of("research and development", 2.62e9, "$2.6 billion",
                      "Research and development expense was $2.6 billion in 2025.")
    evidence = _evidence(OPERATIONS)
    evidence.findings[rnd.id] = rnd
    derived = read_question(question).derived
    assert derived is not None and derived.plus == (line,) and derived.over == "revenue"
    assert derived.unit == "percent"
    draft = compose(_ask(question), evidence)
    first = draft.text.splitlines()[0]
    assert share in first, first
    assert f"({row}) ÷ 52,400" in draft.text, draft.text


def test_a_ratio_row_under_the_line_items_row_is_the_stated_ratio() -> None:
    """"Percentage of total net sales 5%" right under the R&D row states R&D over net sales:
    the computed ratio says the document states it, with its place."""
    from manda.agent.compose.fact_lookup import compose

    evidence = _evidence("\n".join([
        "Operating expenses (dollars in millions)",
        "2025 | 2024",
        "Research and development | 2025: 2,620 | 2024: 2,450",
        "Percentage of total net sales | 2025: 5% | 2024: 5%",
        "Selling, general and administrative | 2025: 9,170 | 2024: 8,900",
        "Percentage of total net sales | 2025: 18% | 2024: 19%",
    ]), OPERATIONS)
    draft = compose(_ask("What share of net sales did the company spend on R&D in 2025?"),
                    evidence)
    first = draft.text.splitlines()[0]
    assert "5.0%" in first and "state 5%" in first, first
