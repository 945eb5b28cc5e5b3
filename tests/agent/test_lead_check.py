"""The lead's last check (issue 25): a figure is stated as the answer only where it is the one
asked. Each way a led figure can be wrong (another line item, the whole for a part, another
period, no amount at all, a share where an amount is asked) is written here on passages and
findings invented for the tests; none knows a company or a filing."""

from __future__ import annotations

from test_filings_leads import DOC, _ask, _evidence

from manda.agent.compose.common import Draft
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.lead_check import guarded, lead_miss, names_less, states_figure
from manda.agent.compose.leads import lead_lines, led_by_best_span
from manda.agent.spans import rank_spans
from manda.finance.amounts import find_amounts
from manda.models import Confidence, Finding, FindingKind, Location


def _first(text: str) -> str:
    return next(line for line in text.splitlines() if line.strip())


def _no_figure_in(line: str) -> bool:
    return not any(states_figure(a.text) for a in find_amounts(line))


def test_another_line_items_row_is_not_stated_as_the_figure_asked() -> None:
    evidence = _evidence("\n".join([
        "Other comprehensive loss, net of tax (millions)", "2025 | 2024",
        "Translation adjustment and cash flow hedges | 2025: (20) | 2024: (18)"]))
    ask = _ask("How much income tax did the company actually pay in cash in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "lead_other_item"
    lines = guarded(lead_lines([top], ask, evidence), top, ask)
    assert "another line item" in lines[0] and _no_figure_in(lines[0])
    assert any("20" in line for line in lines[1:])  # still quoted, with its place, below


def test_the_row_of_the_line_item_asked_still_leads_with_its_figure() -> None:
    evidence = _evidence("\n".join([
        "Supplemental cash flow information (millions)", "2025 | 2024",
        "Income taxes paid | 2025: $1,091 | 2024: $1,204"]))
    ask = _ask("How much income tax did the company actually pay in cash in 2025?")
    assert "$1.09 billion" in _first(evidence_answer(ask, evidence).text)


def test_a_heading_or_a_standards_number_is_no_figure() -> None:
    assert not states_figure("In December 2023, the board issued ASU 2023-09, Income Taxes "
                             "(Topic 740), which expands disclosures.")
    assert not states_figure("Stores as of January 31, 2026 Retail Square Feet (in thousands)")
    assert states_figure("Retail square feet were 250,518 thousand.")
    assert states_figure("Income taxes paid were $781 million.")
    evidence = _evidence("In December 2023, the board issued ASU 2023-09, Income Taxes "
                         "(Topic 740), which expands income tax disclosure requirements for "
                         "federal income taxes paid.")
    ask = _ask("Federal income taxes the company paid in 2025?")
    first = _first(evidence_answer(ask, evidence).text)
    assert "ASU" not in first and _no_figure_in(first)


def test_a_sentence_of_another_year_only_is_not_stated_as_the_years_asked() -> None:
    evidence = _evidence("In 2023, the company paid dividends to shareholders of $1.2 billion.")
    ask = _ask("How much did the company pay in dividends to shareholders in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "figure_other_years"
    first = _first(evidence_answer(ask, evidence).text)
    assert "$1.2 billion" not in first and _no_figure_in(first)
    same = _ask("How much did the company pay in dividends to shareholders in 2023?")
    assert lead_miss(rank_spans(same.frame, evidence)[0], same) is None


def test_a_share_is_no_amount_asked() -> None:
    evidence = _evidence("Research and development expense was 8% of net sales in 2025.")
    ask = _ask("How much research and development expense did the company record in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "figure_not_stated"
    rate = _ask("What was research and development expense as a percentage of net sales in "
                "2025?")
    assert lead_miss(rank_spans(rate.frame, evidence)[0], rate) is None


def test_a_listing_is_not_led_by_another_line_items_figure() -> None:
    evidence = _evidence("\n".join([
        "Other comprehensive loss, net of tax (millions)", "2025 | 2024",
        "Translation adjustment and cash flow hedges | 2025: (20) | 2024: (18)"]))
    ask = _ask("How much income tax did the company actually pay in cash in 2025?")
    listing = Draft(text="Tax in the documents:\n- a passage (source: Annual.pdf, p.10)")
    assert led_by_best_span(listing, ask, evidence) is listing


def _row_finding(row: str, value: float) -> Finding:
    return Finding(id=f"f-{row}", deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
                   subject="revenue", label="Revenue", value=value, value_text=f"{value:,.0f}",
                   excerpt="Cloud Services | 2025: 48,100\nConsolidated | 2025: 212,400",
                   location=Location.for_page(10), confidence=0.9,
                   confidence_level=Confidence.HIGH, attributes={"row": row, "column": "2025"})


def test_the_whole_is_no_figure_of_the_part_asked() -> None:
    evidence = _evidence("\n".join([
        "Net sales:", "Year Ended December 31, | 2024 | 2025",
        "Retail | 2024: $150,300 | 2025: $164,300",
        "Cloud Services | 2024: $41,900 | 2025: $48,100",
        "Consolidated | 2024: $192,200 | 2025: $212,400"]))
    ask = _ask("What were Cloud Services net sales in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert "Cloud Services" in top.text
    naming = ["cloud", "servic", "net", "sale"]
    assert names_less(_row_finding("Consolidated", 212_400e6), top, ask, naming)
    assert not names_less(_row_finding("Cloud Services", 48_100e6), top, ask, naming)


def test_a_sentence_whose_figures_are_each_another_line_items_does_not_lead() -> None:
    evidence = _evidence("Gross margin decreased $3.1 million in 2025, driven by lower pricing "
                         "in the Marine Systems segment.")
    ask = _ask("What revenue did the company's Marine Systems segment report in 2025?")
    assert ask.frame.answer_kind == "figure"  # the line item, whoever reported it
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "lead_other_item"
    first = _first(evidence_answer(ask, evidence).text)
    assert "3.1" not in first and _no_figure_in(first)
    said = guarded(lead_lines([top], ask, evidence), top, ask)[0]
    assert said.startswith("The closest passage read states the figure of another line item")
    # the line item asked, said of the figure, still leads; so does a figure said of nothing
    # the vocabulary knows as a line item
    for text in ("Revenue of the Marine Systems segment increased $12.0 million, or 8%, in "
                 "2025, driven by higher volumes.",
                 "The Marine Systems segment reported $140.2 million in 2025."):
        stated = _evidence(text)
        assert lead_miss(rank_spans(ask.frame, stated)[0], ask) is None, text
    # a sentence quoted cut short may state the line item asked after the cut: not judged
    long = ("Gross margin decreased $3.1 million in 2025, driven by lower pricing in the "
            "Marine Systems segment, " + "higher freight and handling costs across the fleet, "
            * 5 + "and revenue of the Marine Systems segment was $140.2 million.")
    top = rank_spans(ask.frame, _evidence(long))[0]
    assert top.text.endswith("…") and lead_miss(top, ask) is None


def test_a_span_nearly_as_close_that_states_the_figure_leads_over_one_that_does_not() -> None:
    table = "\n".join(["Stores and distribution centers as of December 31, 2025",
                       "Owned | Stores: 150 | Distribution centers: 12",
                       "Leased | Stores: 288 | Distribution centers: 27"])
    policy = ("Leases of stores with an initial term of 12 months or less are not recorded on "
              "the balance sheet; we recognize lease expense for these leases on a straight-line "
              "basis.")
    evidence = _evidence(table, policy)
    ask = _ask("How many of the company's stores were leased as of December 31, 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.text == policy and lead_miss(top, ask) is not None  # the closest states none
    first = _first(evidence_answer(ask, evidence).text)
    assert "288" in first and "Leased" in first, first
    # where no span as close states a figure, the answer still says none does
    alone = _first(evidence_answer(ask, _evidence(policy)).text)
    assert _no_figure_in(alone), alone


def test_an_events_amount_is_no_balance_at_a_date() -> None:
    evidence = _evidence("The purchase of Brightwell was accounted for as a business combination, "
                         "resulting in the recognition of $640 million in goodwill in our "
                         "Logistics segment and $75 million in intangible assets.")
    ask = _ask("What was the goodwill balance of the Logistics segment as of December 31, 2024?")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "figure_not_stated"
    first = _first(evidence_answer(ask, evidence).text)
    assert "$640 million" not in first and _no_figure_in(first)
    # the flow asked is answered by it
    flow = _ask("How much goodwill was recognized on the purchase of Brightwell in 2024?")
    assert lead_miss(rank_spans(flow.frame, evidence)[0], flow) is None
    # a sentence that states the balance still leads
    stated = _evidence("As of December 31, 2024, the goodwill balance of the Logistics segment "
                       "was $1,210 million.")
    assert lead_miss(rank_spans(ask.frame, stated)[0], ask) is None


def test_one_kind_of_award_is_no_figure_of_another() -> None:
    evidence = _evidence("The weighted-average grant-date fair value of stock options and stock "
                         "appreciation rights granted in 2024 was $12.40 per share.")
    ask = _ask("What was the weighted-average grant-date fair value of the company's unvested "
               "restricted stock units as of December 31, 2024?")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "figure_not_stated"
    options = _ask("What was the weighted-average grant-date fair value of stock options "
                   "granted in 2024?")
    assert lead_miss(rank_spans(options.frame, evidence)[0], options) is None
    # performance units are no restricted units, though their name holds the words
    psus = _evidence("The weighted-average grant-date fair value of the performance-based "
                     "restricted stock units granted in 2024 was $31.10.")
    assert lead_miss(rank_spans(ask.frame, psus)[0], ask) == "figure_not_stated"


def test_another_measure_of_the_award_asked_is_no_figure_of_it() -> None:
    evidence = _evidence("The aggregate intrinsic value is based on the difference between the "
                         "exercise price of the options and the fair value of the common stock "
                         "of $18.20 per share as of December 31, 2024.")
    ask = _ask("What was the weighted-average exercise price of the company's stock options "
               "outstanding at December 31, 2024?")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "figure_not_stated"
    stated = _evidence("Options outstanding at December 31, 2024 had a weighted-average "
                       "exercise price of $6.75 per share.")
    assert lead_miss(rank_spans(ask.frame, stated)[0], ask) is None


def test_a_statement_of_equitys_rows_state_no_measure_of_an_award() -> None:
    evidence = _evidence("Statement of stockholders' equity (in thousands): Exercise of stock "
                         "options 4,120 18 Issuance of common stock upon settlement of restricted "
                         "stock units 9,310 — Shares withheld for taxes (402) (21,515)")
    ask = _ask("What was the weighted-average exercise price of the company's stock options "
               "outstanding as of December 31, 2024?")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "figure_not_stated"
    # a fair value named bare may be the grant-date one asked
    granted = _evidence("The weighted-average fair value of restricted stock units granted in "
                        "2024 was $27.35 per unit.")
    value = _ask("What was the weighted-average grant-date fair value of restricted stock "
                 "units granted in 2024?")
    assert lead_miss(rank_spans(value.frame, granted)[0], value) is None


def test_a_purchase_plans_price_or_a_total_is_no_awards_value_per_share() -> None:
    ask = _ask("What was the weighted-average exercise price per share of the company's stock "
               "options outstanding as of December 31, 2024?")
    plan = _evidence("During 2024, 3 million shares of common stock were purchased under the "
                     "employee stock purchase plan at a weighted-average price of $21.60 per "
                     "share.")
    assert lead_miss(rank_spans(ask.frame, plan)[0], ask) == "figure_not_stated"
    value = _ask("What was the weighted-average grant-date fair value per share of the "
                 "company's unvested RSUs as of December 31, 2024?")
    total = _evidence("As a result of the grant-date fair value of vested and unvested RSUs, we "
                      "recorded a deferred tax asset of approximately $1.3 billion.")
    assert lead_miss(rank_spans(value.frame, total)[0], value) == "figure_not_stated"


def test_a_row_of_other_years_never_leads_for_the_year_asked() -> None:
    from manda.agent.compose.evidence_first import _answering_first

    roll = "\n".join(["Goodwill roll-forward (in thousands)", "Beginning | Acquired",
                      "Ending balance | Beginning: 150,000 | Acquired: 8,725"])
    table = "\n".join(["Consolidated balance sheets (in thousands)", "2025 | 2024",
                       "Goodwill | 2025: 180,516 | 2024: 182,687"])
    evidence = _evidence(roll, table)
    ask = _ask("What was the company's goodwill balance as of December 31, 2023?")
    spans = rank_spans(ask.frame, evidence)
    ending = next(s for s in spans if s.text.startswith("Ending balance"))
    goodwill = next(s for s in spans if s.text.startswith("Goodwill —"))
    assert lead_miss(ending, ask) is not None and lead_miss(goodwill, ask) is None
    # of 2025 and 2024 only: the best span stays first
    assert _answering_first([ending, goodwill], ask, evidence)[0] is ending
    later = _ask("What was the company's goodwill balance as of December 31, 2024?")
    assert _answering_first([ending, goodwill], later, evidence)[0] is goodwill
