"""A debt question that names which measure of the debt it asks (fair value, carrying amount,
face value) or which part of it (what falls due within a year), issue 25. A row whose columns
measure another thing, or a portion's row, is no answer; the company's notes are its debt. The
passages are written for the tests; none is a filing's."""

from __future__ import annotations

from test_filings_leads import DOC
from test_spans import _evidence as _passages

from manda.agent.compose import compose
from manda.agent.compose.common import Ask
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.qualifiers import contradicted, qualified_in, unqualified
from manda.agent.relevance import stems_of
from manda.agent.spans import rank_spans

# the balance sheet's debt rows, and a note's table of the debt's two measures
SHEET = "\n".join([
    "Consolidated Statements of Financial Position (in millions)",
    "December 31, | 2024 | 2025",
    "Current portion of long-term debt | 2024: 1,210 | 2025: 1,480",
    "Long-term debt, net of current portion | 2024: 20,400 | 2025: 19,950"])
FAIR = "\n".join([
    "Financial Instruments Not Measured at Fair Value (in millions)",
    "December 31, 2025 Carrying Amount | December 31, 2025 Fair Value | "
    "December 31, 2024 Carrying Amount | December 31, 2024 Fair Value",
    "Long-term debt, including current portion | December 31, 2025 Carrying Amount: 21,430 | "
    "December 31, 2025 Fair Value: 19,870 | December 31, 2024 Carrying Amount: 21,610 | "
    "December 31, 2024 Fair Value: 20,090"])
NOTES = "As of December 31, 2025, the Company had fixed-rate notes outstanding with an " \
    "aggregate principal amount of $48.5 billion, with $3.7 billion payable within 12 months."
LEASES = "Our lease obligations were $6.2 billion at year end, of which $0.9 billion relates to " \
    "stores opened during the year."


def _evidence(*texts: str) -> Evidence:
    return _passages(*texts, doc=DOC)


def _ask(question: str) -> Ask:
    return Ask.of(read_question(question))


def test_a_measure_of_the_debt_is_a_qualifier_with_the_others_as_siblings() -> None:
    """"the fair value of its debt" asks one measure: the carrying amount and the face value
    are its siblings, in any language's wording."""
    asked = qualified_in("What was the fair value of the company's long-term debt?", ["debt"])
    fair = next(q for q in asked if q.word == "fair value")
    assert "carrying amount" in fair.siblings and "face value" in fair.siblings
    french = qualified_in("Quelle était la juste valeur de la dette de la société ?", ["dette"])
    assert any(q.word == "juste valeur" and "valeur comptable" in q.siblings for q in french)


def test_a_measure_another_qualifier_qualifies_is_no_qualifier_of_its_own() -> None:
    """"grant-date fair value": the grant date qualifies the fair value, which is what is
    asked, not a measure against the carrying amount."""
    asked = qualified_in("What was the grant-date fair value of RSUs granted in 2025?", ["rsus"])
    assert [q.word for q in asked] == ["grant date"]


def test_a_row_of_a_hyphened_line_item_that_says_no_measure_is_unqualified() -> None:
    """"the fair value of its long-term debt": the balance sheet's "Current portion of
    long-term debt" names what is measured ("long-term" says long and term) and no word of the
    fair value: another measure."""
    asked = qualified_in("What was the fair value of the company's long-term debt?", ["debt"])
    label = "Current portion of long-term debt"
    assert unqualified(asked, label, f"Balance sheet {label}")
    assert not unqualified(asked, label, f"Debt at fair value {label}")


def test_the_fair_value_asked_is_read_in_its_column_not_from_the_current_portion() -> None:
    """"including the current portion" says what the debt covers: the row of the debt's fair
    value answers, in its Fair Value column, never the balance sheet's current portion."""
    evidence = _evidence(SHEET, FAIR)
    ask = _ask("What was the fair value of the company's long-term debt, including the "
               "current portion, as of December 31, 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and "including current portion" in top.row.label
    first = compose(ask, evidence).text.splitlines()[0]
    assert "19,870" in first or "19.87" in first or "19.9" in first
    assert "1,480" not in first and "1.48" not in first


def test_the_carrying_amount_asked_is_not_the_fair_value() -> None:
    evidence = _evidence(SHEET, FAIR)
    ask = _ask("What was the carrying amount of the company's long-term debt, including the "
               "current portion, at December 31, 2025?")
    first = compose(ask, evidence).text.splitlines()[0]
    assert "21,430" in first or "21.43" in first or "21.4" in first
    assert "19,870" not in first and "19.87" not in first


def test_the_notes_payable_within_12_months_are_the_debt_due_next_year() -> None:
    """"How much of its debt comes due in the next year?": the sentence of the notes payable
    within 12 months answers; the notes are the company's debt."""
    evidence = _evidence(LEASES, NOTES)
    ask = _ask("How much of the company's debt comes due in the next year?")
    top = rank_spans(ask.frame, evidence)[0]
    assert "payable within 12 months" in top.text


# a note's debt table, and a sentence of the whole that says it includes the current portion
DEBT_NOTE = "\n".join([
    "Note 7 - Borrowings (in millions)",
    "December 31, | 2024 | 2025",
    "Total face value of borrowings | 2024: 30,500 | 2025: 33,800",
    "Less: current portion of borrowings | 2024: (2,040) | 2025: (3,115)",
    "Borrowings, net of current portion | 2024: 28,230 | 2025: 30,390"])
WHOLE = "As of December 31, 2025, the company had borrowings with a face value of $33.8 " \
    "billion, including the current portion, consisting mostly of unsecured bonds."


def test_the_current_portion_asked_is_not_a_whole_that_includes_it() -> None:
    """"the current portion of its borrowings": the sentence of the whole "including the
    current portion" states the whole; the row of the current portion answers."""
    evidence = _evidence(WHOLE, DEBT_NOTE)
    ask = _ask("What was the current portion of the company's borrowings at December 31, 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and "current portion" in top.row.label.lower()


def test_a_whole_asked_with_its_current_portion_is_not_the_portions_row() -> None:
    """"its borrowings, including the current portion": the portion's own row is a part."""
    evidence = _evidence(DEBT_NOTE, WHOLE)
    ask = _ask("What were the company's borrowings, including the current portion, at "
               "December 31, 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert "Less: current portion" not in top.text


def test_fixed_rate_debt_asked_is_an_amount_not_a_rate() -> None:
    """"How much of its fixed-rate debt comes due …": the notes' amount, not their rate."""
    assert read_question("How much of the company's fixed-rate debt comes due within a year?"
                         ).answer_kind == "figure"


def test_a_measures_plural_says_it() -> None:
    """"the total estimated fair values of the notes": the fair value asked, though the text
    also states the notes' carrying amount."""
    from manda.agent.qualifiers import contradicted
    from manda.agent.relevance import stems_of

    asked = qualified_in("What was the fair value of the company's notes?", ["notes"])
    text = "Net carrying amount of the notes $604 million; the estimated fair values of the " \
        "notes were $1.0 billion."
    assert contradicted(asked, text, stems_of(text)) is None


def test_a_row_that_names_no_measure_states_the_carrying_amount() -> None:
    """"the carrying value of its digital assets": a statement's row states the carrying amount
    unless it names another measure, so the balance sheet's row is no unqualified whole; the
    fair value still is one where the fair value is asked."""
    label = "Digital assets, net"
    carrying = qualified_in("What was the carrying value of the company's digital assets?",
                            ["digital assets"])
    assert carrying and not unqualified(carrying, label, f"Balance sheet {label}")
    fair = qualified_in("What was the fair value of the company's digital assets?",
                        ["digital assets"])
    assert unqualified(fair, label, f"Balance sheet {label}")


def test_a_column_titled_in_the_plural_names_the_qualifier_asked() -> None:
    """"finance lease liabilities": a row whose columns are "Operating Leases | Finance Leases |
    Total" holds the finance leases' own figure; the total's column contradicts nothing."""
    asked = qualified_in("What was the present value of the company's finance lease "
                         "liabilities at December 31, 2025?", [])
    said = ("Present value of lease liabilities December 31, 2025 Operating Leases "
            "December 31, 2025 Finance Leases December 31, 2025 Total")
    assert asked and contradicted(asked, said, stems_of(said)) is None
    assert contradicted(asked, "Present value of lease liabilities Total",
                        stems_of("Present value of lease liabilities Total")) is not None
