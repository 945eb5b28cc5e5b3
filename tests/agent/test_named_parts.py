"""A question that names a part, or a qualified form, of a line item is answered with that
part's figure (issue 25): a row that names the item asked only after a head of its own ("Payroll
tax expense related to stock-based compensation") is another thing's figure, the row of the item
itself leads; "what revenue did it earn from licensing credits" asks the part's row, not the
company's revenue; a growth rate asked tersely of a part is a rate, and a finding of another
part's growth does not stand for it because its passage names the part elsewhere. None of it
knows a company or a filing: the passages below are written for the tests."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence, _finding

from manda.agent.compose.common import Draft
from manda.agent.compose.passages import stands
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.finance.label_heads import head_before

ADD_BACKS = "\n".join([
    "Corvane Inc. reconciliation of net loss to Adjusted EBITDA",
    "(in millions)",
    "2025 | 2024",
    "Net loss | 2025: $(61.4) | 2024: $(140.2)",
    "Adjusted to exclude the following:",
    "2025 | 2024",
    "Interest expense | 2025: 22.8 | 2024: 25.1",
    "Depreciation and amortization | 2025: 48.0 | 2024: 44.3",
    "Stock-based compensation | 2025: 95.7 | 2024: 101.9",
    "Employer withholding expense related to stock-based compensation | 2025: 4.2 | 2024: 3.9",
    "Adjusted EBITDA | 2025: $142.7 | 2024: $43.1",
])


def _label(span: object) -> str:
    row = getattr(span, "row", None)
    return row.label if row is not None else getattr(span, "text", "")


def test_a_label_names_a_line_item_in_its_head_or_only_in_its_complement() -> None:
    def head(label: str, named: str) -> str | None:
        at = label.lower().index(named.lower())
        return head_before(label, at, at + len(named))

    assert head("Payroll tax expense related to stock-based compensation",
                "stock-based compensation") == "Payroll tax expense"
    assert head("Tax benefit from share-based payments", "share-based payments") == "Tax benefit"
    assert head("Adjusted to exclude: Amortization of acquired intangible assets",
                "intangible assets") == "Amortization"
    for label, named in (("Stock-based compensation", "Stock-based compensation"),
                         ("Total stock-based compensation expense", "stock-based compensation"),
                         ("Revenue from contracts with customers", "Revenue"),
                         ("Current portion of long-term debt", "long-term debt")):
        assert head(label, named) is None, label


def test_the_items_own_row_leads_over_a_row_naming_it_as_a_qualifier() -> None:
    evidence = _evidence(ADD_BACKS)
    ask = _ask("What stock-based compensation expense did Corvane exclude from Adjusted EBITDA "
               "in 2025?")
    ranked = rank_spans(ask.frame, evidence)
    assert _label(ranked[0]) == "Stock-based compensation", [_label(s) for s in ranked[:3]]
    # another add-back that shares the word "expense" is no part asked either
    assert _label(ranked[1]) != "Interest expense" or ranked[1].score < ranked[0].score


def test_the_qualified_row_leads_where_its_own_head_is_asked() -> None:
    evidence = _evidence(ADD_BACKS)
    ask = _ask("What employer withholding on stock-based compensation did Corvane exclude from "
               "Adjusted EBITDA in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert _label(top).startswith("Employer withholding expense"), _label(top)


REVENUES = "\n".join([
    "Brenmoor Motors revenues by source",
    "(Dollars in millions)",
    "2025 | 2024",
    "Vehicle sales | 2025: $41,220 | 2024: $38,905",
    "Licensing credits | 2025: 1,310 | 2024: 1,105",
    "Services and other | 2025: 5,602 | 2024: 4,870",
    "Total revenues | 2025: $48,132 | 2024: $44,880",
])


def test_a_revenue_earned_from_a_named_source_is_that_sources_row() -> None:
    frame = read_question("What revenue did Brenmoor earn from licensing credits in 2025?")
    assert frame.answer_kind == "figure"
    evidence = _evidence(REVENUES)
    ask = _ask("What revenue did Brenmoor earn from licensing credits in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert _label(top) == "Licensing credits", _label(top)
    assert top.words >= 0.45  # close enough to lead, though "earn" is in no row


def test_a_parts_growth_asked_tersely_is_a_rate_and_no_other_parts_growth_stands() -> None:
    assert read_question("Widgetry revenue growth in FY2025?").answer_kind == "rate"
    evidence = _evidence(
        "Widgetry revenue increased $1.3 billion or 10% driven by Talent subscriptions.",
        "Harbour Cloud revenue increased 22% to $111.6 billion.")
    ask = _ask("Widgetry revenue growth in FY2025?")
    other = _finding("revenue growth", 22.0, "22%",
                     "Harbour Cloud revenue increased 22% to $111.6 billion. Widgetry revenue "
                     "increased 10%.")
    other = other.model_copy(update={"unit": "%"})
    draft = Draft(text="Revenue growth was 22% in FY2025.", rests_on=[other])
    assert not stands(draft, ask, evidence)


def test_a_cause_after_the_figure_names_no_part_of_the_finding() -> None:
    evidence = _evidence(
        "Nimbus services revenue grew 29% driven by consumption.",
        "Server products revenue increased 19% driven by Nimbus services growth of 29%.")
    ask = _ask("What was Nimbus services' revenue growth rate?")
    server = _finding("revenue growth", 19.0, "19%",
                      "Server products revenue increased 19% driven by Nimbus services growth "
                      "of 29%.")
    server = server.model_copy(update={"unit": "%"})
    draft = Draft(text="Revenue growth was 19% in FY2025.", rests_on=[server])
    assert not stands(draft, ask, evidence)


SEGMENT_SALES = "\n".join([
    "Corvane segment information (in millions)",
    "2025 | 2024",
    "Net Sales:",
    "Domestic | 2025: $52,410 | 2024: $49,870",
    "Overseas | 2025: 18,260 | 2024: 16,940",
    "Consolidated | 2025: $70,670 | 2024: $66,810",
])


def test_parts_named_inside_a_question_form_of_sales_are_the_parts_asked() -> None:
    evidence = _evidence(SEGMENT_SALES)
    ask = _ask("How much did Corvane's Domestic and Overseas segments sell in 2025?")
    top = [_label(s) for s in rank_spans(ask.frame, evidence)[:2]]
    assert sorted(top) == ["Domestic", "Overseas"], top
