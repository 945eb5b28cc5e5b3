"""Whose figure a passage states (issue 25): a qualifier's sibling names another measure of the
line item asked ("Total income taxes paid" where the federal ones are asked, "vesting-date"
where the grant-date fair value is), and an amount belongs to the noun that owns it in its
sentence ("letters of credit … of $749 million" in a sentence that names the credit facility).
The passages are written for the tests; none is a filing's."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence, _finding

from manda.agent.compose.common import Draft
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.lead_check import lead_miss
from manda.agent.compose.passages import stands
from manda.agent.frame import read_question
from manda.agent.qualifiers import contradicted, qualified_in
from manda.agent.relevance import content_terms, stems_of
from manda.agent.spans import rank_spans
from manda.agent.spans.sentences import amount_owner, figures_of_others
from manda.finance.amounts import find_amounts

_TAXES_PAID = "\n".join([
    "Income taxes paid, net of refunds",
    "2025 | 2024",
    "Federal taxes | 2025: $412 | 2024: $388",
    "State taxes | 2025: $96 | 2024: $90",
    "Foreign taxes | 2025: $31 | 2024: $27",
    "Total income taxes paid | 2025: $539 | 2024: $505",
])


def test_a_qualifier_is_read_with_its_siblings_and_the_words_it_qualifies() -> None:
    frame = read_question("Federal income taxes Halden paid in 2025?")
    (federal,) = frame.qualified
    assert federal.word == "federal" and "state" in federal.siblings
    assert "total" in federal.siblings and "income" in federal.heads
    # a qualifier that is the line item's own name, or "current" said of the present, is none
    assert not read_question("What was Halden's net income in 2025?").qualified
    assert not read_question("What is Halden's current cash position?").qualified
    assert not qualified_in("What was Halden's total deferred revenue?", ("deferred revenue",))
    # a qualifier qualifies a measure asked: "state" of a place asked is no state taxes
    assert not read_question("In what state and year was Halden incorporated?").qualified
    said = "Total income taxes paid"
    assert contradicted(frame.qualified, said, stems_of(said)) is federal
    said = "Federal taxes"
    assert contradicted(frame.qualified, said, stems_of(said)) is None


def test_the_row_of_the_measure_asked_leads_not_its_siblings_total() -> None:
    """"Federal income taxes paid": the federal row, not the total of every jurisdiction's,
    nor the state row, though the total's label says more of the question's words."""
    evidence = _evidence(_TAXES_PAID)
    top = rank_spans(read_question("Federal income taxes Halden paid in 2025?"), evidence)[0]
    assert top.text.startswith("Federal taxes"), top.text
    top = rank_spans(read_question("Halden state income taxes paid in 2025?"), evidence)[0]
    assert top.text.startswith("State taxes"), top.text
    first = evidence_answer(_ask("Federal income taxes Halden paid in 2025?"),
                            evidence).text.splitlines()[0]
    assert "$539" not in first and "539" not in first, first


def test_a_sentence_of_a_sibling_measure_is_not_led_as_the_one_asked() -> None:
    """"The total vesting-date fair value of units was $17.1 million" where the grant-date fair
    value is asked: another measure of the units; the answer never states it as the one
    asked, and a sentence of the grant-date value leads over it."""
    vesting = ("The total vesting-date fair value of restricted stock units was $17.1 million "
               "for 2025.")
    ask = _ask("Halden FY2025 RSU grant-date fair value per unit?")
    assert lead_miss(rank_spans(ask.frame, _evidence(vesting))[0], ask) == "lead_other_item"
    first = evidence_answer(ask, _evidence(vesting)).text.splitlines()[0]
    assert "$17.1 million" not in first, first
    granted = ("The weighted-average grant-date fair value of restricted stock units granted in "
               "2025 was $41.20 per unit.")
    top = rank_spans(ask.frame, _evidence(vesting, granted))[0]
    assert "$41.20" in top.text, top.text


def test_the_lease_cost_of_the_kind_asked_leads_over_the_net_lease_cost() -> None:
    lease = "\n".join([
        "Lease cost",
        "2025 | 2024",
        "Operating lease cost | 2025: $512 | 2024: $498",
        "Finance lease cost | 2025: $61 | 2024: $55",
        "Net lease cost | 2025: $561 | 2024: $542",
    ])
    ask = _ask("What was Halden's operating lease cost in 2025?")
    top = rank_spans(ask.frame, _evidence(lease))[0]
    assert top.text.startswith("Operating lease cost"), top.text
    # a figure read as the line item from the net lease cost's row does not stand against it
    net = _finding("lease cost", 561e6, "$561 million", "Net lease cost $561")
    net = net.model_copy(update={"label": "Net lease cost"})
    assert not stands(Draft(text="Net lease cost was $561 million in 2025.", rests_on=[net]),
                      ask, _evidence(lease))


_LETTERS = ("As of December 31, 2024 and 2025, we had letters of credit outstanding of $120 "
            "million and $135 million, respectively, of which the letters of credit that "
            "reduced the available credit under the Revolving Credit Facility were $40 million "
            "and $45 million, respectively.")


def test_an_amount_belongs_to_the_noun_that_owns_it_not_to_a_relative_clause() -> None:
    owners = [amount_owner(_LETTERS, a.start, a.end)
              for a in find_amounts(_LETTERS) if a.currency]
    assert "Revolving" not in owners[2] and "letters of credit" in owners[2]
    asked = content_terms("revolving credit facility")
    assert figures_of_others(_LETTERS, asked)
    # an aside between the noun and its amount stays the noun's own
    accrued = ("As of December 31, 2024 and 2025, we had accrued interest and penalties, net "
               "of federal income tax benefit, related to tax contingencies of $31 million and "
               "$40 million.")
    assert not figures_of_others(accrued, content_terms("accrued interest penalties tax "
                                                        "contingencies"))
    # after an amount, the words that follow it are its own, not the next amount's; nor is a
    # sentence's opening period phrase the owner of its first amount
    footnote = ("For the twelve months ended December 31, 2025, includes tax effect of $120 "
                "million related to EBIT, and $8 million related to lease interest.")
    assert figures_of_others(footnote, content_terms("ebit"))
    # an abbreviation's full stop ends no sentence: "U.S. federal … of $14.9 billion" is the
    # federal carryforwards' own
    nol = ("As of December 31, 2025, we had net operating loss carryforwards for U.S. federal "
           "income tax purposes and state income tax purposes of $14.9 billion and $12.4 "
           "billion, respectively, available to offset future taxable income.")
    assert not figures_of_others(nol, content_terms("U.S. federal net operating loss "
                                                    "carryforwards"))
    # what the figures did after them ("would decrease our tax rate") is not whose they are
    part = ("As of December 31, 2025, we had approximately $660 million of income tax "
            "contingencies of which $500 million, if fully recognized, would decrease our "
            "effective tax rate.")
    assert not figures_of_others(part, content_terms("income tax contingencies lower "
                                                     "effective rate recognized"))


def test_a_sentence_whose_amounts_are_another_nouns_does_not_lead_a_figure_asked() -> None:
    """"How large is the revolving credit facility?": the letters of credit's sentence names
    the facility, but none of its amounts is the facility's; it is not stated as the answer."""
    ask = _ask("How large is Halden's revolving credit facility?")
    top = rank_spans(ask.frame, _evidence(_LETTERS))[0]
    assert lead_miss(top, ask) == "lead_other_item"
    first = evidence_answer(ask, _evidence(_LETTERS)).text.splitlines()[0]
    assert "$135 million" not in first and "$45 million" not in first, first


def test_a_price_paid_for_a_business_is_read_as_the_deals_value() -> None:
    """"What price is Halden paying for Brisk?": the sentence of the transaction's value
    answers, as "What is the deal value of …" is answered."""
    evidence = _evidence(
        "Operating expenses increased $40 million driven by 2 points of growth from the "
        "Brisk acquisition and investments in our stores.",
        "On March 3, 2025, we entered into a definitive agreement to acquire Brisk Ltd. for "
        "$12.00 per share in an all-cash transaction valued at $1.9 billion.")
    ask = _ask("What price is Halden paying for Brisk?")
    assert "$1.9 billion" in rank_spans(ask.frame, evidence)[0].text
    assert "deal" in read_question("What price did Halden pay for Brisk?").ranking.terms


def test_the_metric_a_part_would_move_is_not_the_metric_asked() -> None:
    """"How much of its tax contingencies would lower its effective tax rate?": an amount of
    the contingencies, not the effective tax rate computed."""
    frame = read_question("How much of Halden's income tax contingencies would lower its "
                          "effective tax rate if recognized?")
    assert frame.derived is None and frame.answer_kind != "rate"
    assert read_question("What was Halden's effective tax rate in 2025?").derived is not None


def test_what_a_sentence_says_its_amount_does_counts_as_the_amounts() -> None:
    """"The remaining transition tax of $4.2 billion is payable over the next five years, with
    $0.9 billion payable within 12 months": the tax's amount is the one asked for the tax and
    its period, though "payable over … years" follows it; letters of credit in a sentence that
    names the facility only in a relative clause stay another noun's."""
    asked = content_terms("How much transition tax does Halden still owe, and over what period "
                          "is it payable?")
    assert not figures_of_others(
        "The remaining transition tax of $4.2 billion is payable over the next five years, with "
        "$0.9 billion payable within 12 months.", asked)
    assert figures_of_others(
        "We had letters of credit outstanding of $310 million and $355 million, respectively, of "
        "which the letters of credit that reduced the available credit under the Revolving "
        "Credit Facility were $90 million and $97 million, respectively.",
        content_terms("How large is Halden's revolving credit facility?"))
