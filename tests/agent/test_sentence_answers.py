"""Questions a sentence answers (issue 25): a topic's figure, a "why", a list, a quarter's
comparison. The sentence must be about the thing asked and state its figure or its reasons; a
definition or another line item's sentence is no answer. The passages are written for the tests:
none of them is a filing's text."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.agent.tables import read_tables
from manda.agent.unusual import sentences


def test_a_subject_left_alone_on_its_line_opens_its_sentence() -> None:
    """"Finance income, net" over "rose $12.0 million …": the text layer broke the line after
    the subject, and the sentence is read whole; a heading over a paragraph stays apart."""
    text = ("Finance income, net\nrose $12.0 million, or 40%, in 2025 as compared to the prior "
            "year.\nRisk Overview\nThe company faces several risks described below.")
    said = sentences(text)
    assert said[0].startswith("Finance income, net rose $12.0 million")
    assert "Risk Overview" not in said[0]


def test_why_is_answered_by_the_sentence_of_the_line_item_asked() -> None:
    """A cause stated of another line item (the overhead rate "reflecting … lower sales") is
    not why the line item asked fell, though it shares its words."""
    evidence = _evidence(
        "Excluding these items, our overhead expense rate was 18.1 percent in 2025, compared "
        "with 17.5 percent in 2024, reflecting the deleveraging impact of lower net sales and "
        "comparable decline in volumes.",
        "Comparable sales decreased 3.1 percent, driven by a 2.5 percent decrease in visits and "
        "a 0.6 percent decrease in basket size.")
    ask = _ask("What drove the decline in Zorbet's comparable sales in 2025?")
    assert rank_spans(ask.frame, evidence)[0].text.startswith("Comparable sales decreased")


def test_why_of_a_line_item_whose_subject_the_line_broke_off() -> None:
    """The reasons for a line item's change, where its name stands alone on the line above
    the sentence, lead over another line item's reasons that share a word ("other")."""
    evidence = _evidence(
        "Selling expenses decreased $3.0 million, or 2%, in 2025 as compared to the prior year. "
        "The decrease was primarily due to lower brand and other marketing spend.",
        "Finance income, net | 2025: $40,100 | 2024: $10,500\n"
        "Other income, net\nincreased $29.6 million, or 282%, in 2025 as compared to the prior "
        "year. The increase was primarily due to a pre-tax gain of $31.2 million on the sale of "
        "our mapping unit.")
    ask = _ask("Why did Zorbet's other income rise in 2025?")
    assert "$31.2 million" in rank_spans(ask.frame, evidence)[0].text


def test_an_amount_still_owed_leads_over_the_schedule_in_percent() -> None:
    """"How much … still owe": the sentence stating the amount that remains leads over the
    one stating the instalments in percent."""
    evidence = _evidence(
        "Under the levy rules, the repatriation levy is payable in instalments over eight years, "
        "with 8% due in each of the first five years and 25% in the last year.",
        "The remaining repatriation levy of $4.2 billion is payable over the next two years.")
    ask = _ask("How much repatriation levy does Zorbet still owe, and over what period is it "
               "payable?")
    assert read_question(ask.frame.text).remaining
    assert "$4.2 billion" in rank_spans(ask.frame, evidence)[0].text


def test_what_premium_is_answered_by_the_sentence_stating_the_premium() -> None:
    """"What premium did it pay?": the sentence that states an amount of a premium, not a
    definition that lists the items it excludes, nor another transaction's cost."""
    evidence = _evidence(
        "We define Margin as revenue less cost of revenue, adjusted to exclude the following "
        "items: amortization; share-based pay; costs related to legacy motor insurance "
        "liabilities; and restructuring charges.",
        "The total impact of the transfer of legacy motor insurance liabilities on our results "
        "was $40.1 million in 2025.",
        "Under the agreement, the insurer assumed $180.0 million of legacy insurance liabilities "
        "for a premium of $190.5 million.")
    ask = _ask("What premium did Zorbet pay to reinsure its legacy motor insurance liabilities?")
    assert "$190.5 million" in rank_spans(ask.frame, evidence)[0].text


def test_a_list_asked_is_answered_by_the_sentence_that_lists_its_things() -> None:
    """"Which gadget models does it sell?": the sentence that lists the models (without the
    word "models") over a sentence of sales that says it, and over the line item's row."""
    evidence = _evidence(
        "Gadget net sales increased during 2025 compared to 2024 due to higher net sales of "
        "Max models.",
        "The Gadget line includes Gadget 9 Max, Gadget Lite, Gadget 9 and Gadget 8.")
    ask = _ask("Which Gadget models does the company currently sell?")
    assert rank_spans(ask.frame, evidence)[0].text.startswith("The Gadget line includes")
    rows = _evidence(
        "Net sales by category (in millions):\n2025 | 2024\n"
        "Wearables | 2025: 35,686 | 2024: 37,005",
        "Wearables includes smartwatches, wireless earphones and headsets.")
    ask = _ask("What products are in Zorbet's wearables category?")
    assert rank_spans(ask.frame, rows)[0].text.startswith("Wearables includes")


def test_a_quarter_compared_with_another_quarter_is_not_the_comparison_asked() -> None:
    """Q4 against Q4 a year before: the row of both quarters leads over a sentence comparing
    the fourth quarter with the third."""
    evidence = _evidence(
        "Revenue per Member reached a record in the three months ended December 31, 2025, "
        "increasing compared to the three months ended September 30, 2025.",
        "Revenue per Member\n2025 | 2024 | % change\n"
        "Three Months Ended December 31 | 2025: $48.10 | 2024: $42.30 | % change: 13.7%")
    ask = _ask("How did Zorbet's revenue per member in Q4 2025 compare with Q4 2024?")
    draft = evidence_answer(ask, evidence)
    assert "$48.1" in draft.text.splitlines()[0]


def test_a_row_label_cut_by_a_repeated_header_is_read_whole() -> None:
    """"Purchases of companies, net of cash acquired, and of" / the header again / "other
    assets | …": one row, its label whole."""
    text = ("Investing\n2025 | 2024\nPayments for equipment | 2025: 900 | 2024: 800\n"
            "Purchases of companies, net of cash acquired, and of\n2025 | 2024\n"
            "other assets | 2025: 1,200 | 2024: 2,100\nPurchases of investments | 2025: 50 | "
            "2024: 40")
    labels = [r.label for t in read_tables(text) for r in t.rows]
    assert "Purchases of companies, net of cash acquired, and of other assets" in labels
    assert "Purchases of investments" in labels


def test_cash_spent_on_a_thing_is_answered_by_that_things_outflow() -> None:
    """"How much cash did it spend on acquisitions?": the outflow for acquisitions, not cash
    paid for tax, however the sentence says "cash" and "expenditures"."""
    evidence = _evidence(
        "In 2025, we paid cash tax of $2.1 billion due to the capitalization of research and "
        "development expenditures.",
        "Consolidated Statements of Cash Flows\n(In millions)\n2025 | 2024\n"
        "Acquisitions of businesses, net of cash acquired | 2025: (1,670) | 2024: (4,020)")
    ask = _ask("How much cash did Zorbet spend on acquisitions in 2025?")
    assert rank_spans(ask.frame, evidence)[0].text.startswith("Acquisitions of businesses")


def test_a_list_of_names_is_no_run_of_headings_but_column_heads_stay_none() -> None:
    """A sentence listing capitalised names states them; a table's column heads run into a
    line after "as follows" state nothing, listing or not."""
    from manda.agent.spans.sentences import _states_nothing

    named = "The Gadget line includes Gadget 9 Max, Gadget Lite, Gadget Mini and Gadget Fold."
    assert _states_nothing(named) and not _states_nothing(named, listing=True)
    heads = ("Debt obligations were as follows: Maturities Rate December 31, 2025 "
             "December 31, 2024 Senior notes May 2029 2.00% $500 $490")
    assert _states_nothing(heads, listing=True)


def test_charges_of_a_quarter_are_the_quarters_amount_recorded() -> None:
    """"What charges did it record in Q4?": the sentence recording the quarter's amount (as
    "expense", without the word "charges") leads over the year's charges of which part fell in
    the fourth quarter, and over an amount recorded on the balance sheet."""
    evidence = _evidence(
        "For the year ended December 31, 2025, we recorded approximately $0.9 billion of "
        "impairment charges, of which $310 million was recorded in the fourth quarter.",
        "During Q4 2025, we recorded $1.6 billion of expense related to legal settlements, "
        "severance costs, and asset impairments.",
        "As of December 31, 2025, the amount recorded on our balance sheet for preferred stock "
        "was approximately $8.0 billion.")
    ask = _ask("What charges did Zorbet record in Q4 2025?")
    assert rank_spans(ask.frame, evidence)[0].text.startswith("During Q4 2025")


def test_what_is_asked_first_leads_a_listing_with_the_date_of_the_event_asked() -> None:
    """"When do the notes mature, and what interest do they pay?": the sentence dating the
    maturity leads (not a date of conversion that speaks of the maturity date), and the
    interest rate's sentence follows it."""
    from manda.agent.compose.common import Draft
    from manda.agent.compose.leads import led_by_best_span

    evidence = _evidence(
        'In June 2023, the Company issued $500.0 million aggregate principal amount of 2.25% '
        'convertible senior notes due 2028 (the "2028 Notes"). The 2028 Notes are senior '
        "unsecured obligations with interest payable semiannually at a rate of 2.25% per year. "
        "The 2028 Notes mature on June 1, 2028, unless earlier converted or repurchased. On or "
        "after March 1, 2028, the 2028 Notes will be convertible at the option of the holder "
        "until the second trading day preceding the maturity date.")
    ask = _ask("When do the company's convertible senior notes mature, and what interest do "
               "they pay?")
    listing = Draft(text="What the documents date:\n- **2028-06-01** — notes mature")
    lines = led_by_best_span(listing, ask, evidence).text.splitlines()
    assert "June 1, 2028" in lines[0]
    assert any("2.25%" in line for line in lines[:3])


def test_a_table_run_into_a_list_lists_nothing() -> None:
    """"… include payroll, benefits, and (In millions) 2025 2024 Percentage 13% 12%": a caption
    and its figures run into the line are no things listed."""
    from manda.agent.spans import lists_things

    assert lists_things("Selling expenses include payroll, benefits, travel and advertising.")
    assert not lists_things("Research expenses include payroll, employee benefits, and (In "
                            "millions, except percentages) 2025 2024 Percentage 13% 12% 1ppt")


def test_a_list_question_is_not_answered_by_a_fragment_of_a_glossary() -> None:
    """A passage cut mid-line ("and on-premises Suite Alpha Cloud Beta Revenue Growth …") is
    no sentence: the one that names the acquisitions asked leads."""
    evidence = _evidence(
        "and on-premises Suite Alpha and Cloud Beta applications Gadget OEM revenue growth "
        "Revenue from sales of Gadget Pro and non-Pro licenses includes Gadget Alpha, Gadget "
        "Beta, Gadget Gamma and Gadget Delta",
        "Operating expenses increased $2.3 billion or 9% driven by severance expenses and 2 "
        "points of growth from the Orion and Vega acquisitions.")
    ask = _ask("Which acquisitions added to the company's operating expense growth in 2025?")
    assert "Orion and Vega" in rank_spans(ask.frame, evidence)[0].text
