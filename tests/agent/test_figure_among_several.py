"""The figure asked among several figures of one passage (issue 25): a change's effect over a
table of terms, a total named by a word pointing back at the sentence before, a whole over its
part, a cause's own figure, one thing's figure over a sum of several. The passages are written
for the tests; none is a filing's."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence, evidence_answer

from manda.agent.spans import rank_spans
from manda.finance.amounts import stated_amounts


def _top(question: str, *passages: str) -> str:
    return rank_spans(_ask(question).frame, _evidence(*passages))[0].text


def test_a_note_called_after_a_tables_cell_of_words_is_no_figure() -> None:
    """"Four to five years (1) Forklifts …" calls a note: its "(1)" is no amount stated."""
    terms = ("The estimated useful lives are as follows: Buildings Thirty years Trucks Four to "
             "five years (1) Forklifts Eight to ten years (2) Other equipment Three years")
    assert stated_amounts(terms) == []
    assert [a.value for a in stated_amounts("Other income (1) and losses")] == [1.0]


def test_a_changes_effect_leads_over_the_table_of_terms() -> None:
    """Asked what shortening useful lives added to depreciation, the sentence that states the
    change's effect answers, not the table of the useful lives, whose only numbers call notes;
    the effect's sentence says "this change", pointing back at the change the one before it
    names."""
    question = ("How much extra depreciation did the company record in 2025 because it "
                "shortened the useful lives of its trucks?")
    top = _top(question,
               "Depreciation is recorded on a straight-line basis over the estimated useful "
               "lives of the assets. The estimated useful lives of our trucks and forklifts as "
               "of December 31, 2025, are as follows: Buildings Thirty years Trucks Four to "
               "five years (1) Forklifts Eight to ten years (2) Other equipment Three years",
               "Effective January 1, 2025 we changed our estimate of the useful lives of our "
               "delivery trucks from five years to four years. The effect of this change in "
               "estimate for the year ended December 31, 2025, was an increase in depreciation "
               "expense of $42 million and a reduction in net income of $31 million.")
    assert "$42 million" in top, top


def test_a_total_named_by_pointing_back_leads() -> None:
    """"those commitments not yet recognized were approximately $12 billion" states the
    unrecognized performance obligations the sentence before names: it speaks of them, for
    half, and leads over another obligation's figures."""
    ranked = rank_spans(_ask(
        "How large are the company's unrecognized performance obligations on long-term "
        "contracts?").frame, _evidence(
        "Additionally, we have performance obligations, primarily related to cloud services, "
        "associated with commitments in customer contracts for future services that have not "
        "yet been recognized in our financial statements. For contracts with original terms "
        "that exceed one year, those commitments not yet recognized were approximately $12 "
        "billion as of December 31, 2025.",
        "Excluding interest, current financing obligations of $31 million and $35 million are "
        "recorded within accrued expenses and other."))
    assert "$12 billion" in ranked[0].text, ranked[0].text
    other = next(s for s in ranked if "$31 million" in s.text)
    assert ranked[0].words > other.words


def test_the_whole_cost_leads_over_its_parts() -> None:
    """"$50 million of costs related to restructuring initiatives" names what the costs are
    of (no change it explains): it states the whole asked, over the severance part that
    names the restructuring by its heading only."""
    top = _top("How much did the company's restructuring cost it in 2025?",
               "Restructuring Costs\nIn May 2025, we announced a multi-year initiative to "
               "simplify our organization. Costs incurred in connection with it include the "
               "following:\n•Severance and Related Costs — During 2025, we recognized $20 "
               "million of severance and related costs, primarily related to our headquarters "
               "workforce reduction.\n•Lease Costs — During 2025, we recognized $12 million of "
               "lease termination costs associated with vacant office space.",
               "Financial Summary\nWe incurred $50 million of costs related to restructuring "
               "initiatives.")
    assert "$50 million" in top, top


def test_a_causes_own_figure_answers_its_change() -> None:
    """"… increased $900 million, mainly due to … a $150 million increase in carrier payments"
    states the carrier payments' own change: asked how much they rose, the words after the
    cause count in full (they count for half where the cause states no figure of its own)."""
    question = "By how much did the company's carrier payments increase in 2025?"
    top = rank_spans(_ask(question).frame, _evidence(
        "Cost of revenue increased $900 million, or 40%, in 2025, mainly due to a $400 million "
        "increase in courier payments and a $150 million increase in carrier payments.",
        "Payments to carriers were $2.1 billion in 2025, against $1.9 billion in 2024."))[0]
    assert "$150 million" in top.text and top.words == 1.0, (top.text, top.words)
    top = rank_spans(_ask(question).frame, _evidence(
        "Cost of revenue increased 40% in 2025, mainly due to higher carrier payments."))[0]
    assert top.words < 1.0


def test_one_things_figure_leads_over_the_sum_of_several_named_together() -> None:
    """"the driver, rider and renter incentive programs … $1.3 billion" is the sum of three
    programmes; asked for driver incentives alone, the sentence of their own figure leads."""
    top = _top("By how much did driver incentives reduce the company's revenue in 2025?",
               "In 2025, in relation to the driver, rider and renter incentive programs, the "
               "company recorded $1.3 billion as a reduction to revenue.",
               "Revenue growth in 2025 was offset by increasing driver incentives, recorded as "
               "a reduction to revenue, by $0.9 billion compared to the prior year.")
    assert "$0.9 billion" in top, top


def test_one_amount_for_a_list_of_things_is_their_sum() -> None:
    """"$2.4 billion of expense related to settlements, severance costs, and asset
    impairments" is the three together: asked for the quarter's severance, the sentence that
    states the severance's own amount leads."""
    top = _top("How much severance did the company record in Q4 2025?",
               "During Q4 2025, we recorded $2.4 billion of expense related to settlements of a "
               "lawsuit and tax disputes, severance costs, and asset impairments.",
               "For the year ended December 31, 2025, we recorded approximately $2.7 billion of "
               "estimated severance costs primarily related to planned role eliminations, of "
               "which $1.8 billion was recorded in Q3 2025 and $730 million was recorded in the "
               "fourth quarter.")
    assert "$730 million" in top, top


def test_a_causes_change_is_no_level_asked() -> None:
    """"… due to a $20.4 billion decrease in cash used for acquisitions" states the change of
    the acquisitions' cash, not what was spent on them: where the level is asked, the words
    after the cause still count for half."""
    ranked = rank_spans(_ask("How much cash did the company spend on acquisitions in 2025?").frame,
                        _evidence(
        "Cash used in investing decreased $7.6 billion to $22.7 billion in 2025, due to a $20.4 "
        "billion decrease in cash used for acquisitions of companies."))
    assert ranked and ranked[0].words < 1.0


def test_an_amount_is_of_its_head_not_of_what_it_is_for() -> None:
    """Asked how much of its valuation allowance the company released, "net income … was $4.20
    billion …, this included a tax benefit of $1.85 billion for the release of valuation
    allowance" states three figures, each of another thing (the allowance stands only in what
    the benefit is for): "we released $2.30 billion of our valuation allowance" leads. Asked the
    tax benefit itself, that sentence leads."""
    passages = (
        "In 2025, our net income attributable to common stockholders was $4.20 billion, "
        "representing a favorable change of $1.10 billion, compared to the prior year. This "
        "included a one-time non-cash tax benefit of $1.85 billion for the release of valuation "
        "allowance on certain deferred tax assets.",
        "As of December 31, 2025, we concluded that it was more likely than not that our deferred "
        "tax assets would be realizable. As such, we released $2.30 billion of our valuation "
        "allowance associated with the federal deferred tax assets.")
    top = _top("How much of its valuation allowance did the company release in 2025?", *passages)
    assert "$2.30 billion" in top, top
    top = _top("How big was the one-time tax benefit booked in 2025 for releasing valuation "
               "allowance?", *passages)
    assert "$1.85 billion" in top, top


def test_a_qualified_line_item_is_not_its_statement_row() -> None:
    """Asked the unrecognized stock-based compensation cost, the cash flow's "Stock-based
    compensation" row states the expense, a coarser thing: the sentence that states the cost
    not yet recognized leads, though the sentence read with it says what is expected (no
    forecast of its figure, nor a hedge of it)."""
    passages = (
        "Under this method, approximately 50% of the grant date fair value is recognized as "
        "expense in the first year of grant for the majority of our stock-based compensation "
        "awards.",
        "As of December 31, 2025, there was $4.1 billion of net unrecognized compensation cost "
        "related to unvested stock-based compensation arrangements. This compensation is "
        "recognized on an accelerated basis with more than half of the compensation expected to "
        "be expensed in the next twelve months, and has a remaining weighted-average recognition "
        "period of 1.0 year.",
        "Consolidated Statements of Cash Flows (in millions)\nYear Ended December 31, 2024 2025\n"
        "Net income 1,200 1,500\nStock-based compensation 2,011 1,967\nDepreciation 800 900")
    top = _top("How much unrecognized stock-based compensation cost did the company have at the "
               "end of 2025?", *passages)
    assert "$4.1 billion" in top, top
    assert "1,967" in _top("How much stock-based compensation did the company record in 2025?",
                           *passages)


def test_no_figure_in_the_best_passage_is_said_before_it() -> None:
    """A table's column heads, run into a line, answer the question's words best and state no
    figure: the answer says no passage states the figure asked before quoting them, so that no
    runner-up's figure of another line reads as the answer."""
    ask = _ask("How much owned floor space did the company operate at the end of 2025?")
    text = evidence_answer(ask, _evidence(
        "Segment Leased Floor Space (1) Owned Floor Space (1)",
        "Warehouses 4,128 803 North America Warehouses 1,814 660 International")).text
    first = text.splitlines()[0]
    assert "No passage read states the figure asked" in first and not stated_amounts(first)


def test_an_earlier_years_figure_is_no_figure_of_the_year_asked() -> None:
    """Asked the cost at the end of 2021, "As of December 31, 2019, there was $3.9 million of
    unrecognized compensation cost …" states an earlier year's: the 2021 sentence leads,
    though it names fewer of the question's words."""
    top = _top("How much unrecognized RSU compensation cost did the company have at the end of "
               "2021?",
               "As of December 31, 2019, there was $3.9 million of unrecognized RSU compensation "
               "cost, which was recognized over a weighted-average period of 1.2 years.",
               "As of December 31, 2021, the total unrecognized compensation cost was $587.5 "
               "million.")
    assert "$587.5 million" in top, top
