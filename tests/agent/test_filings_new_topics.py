"""New topics asked of real-filing shapes (issue 25, twelfth round): a footnote's number is no
figure, a note's stated total over a balance sheet's current row. None of it knows a company or
a filing: the passages below are written for the tests."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.spans import rank_spans
from manda.finance.amounts import stated_amounts


def test_a_footnotes_number_is_no_amount() -> None:
    assert stated_amounts("(4)Includes commitments to license software.") == []
    assert [a.text for a in stated_amounts("Commitments (4)Excluding leases were $1,250.")] == \
        ["$1,250"]
    assert [a.text for a in stated_amounts("Losses were (12) in 2024 and (9) in 2025.")] == \
        ["12", "9"]


def test_a_commitments_row_leads_over_its_footnote() -> None:
    evidence = _evidence(
        "Unconditional purchase obligations (4) 3,120 1,705 2,210 7,035",
        "(4)Includes unconditional purchase obligations related to long-term agreements to "
        "license content and procure energy that are not reflected on the balance sheets.")
    ask = _ask("What were the company's total unconditional purchase obligations at the end "
               "of 2025?")
    assert "7,035" in rank_spans(ask.frame, evidence)[0].text


_BALANCES = ("(in millions)\nDecember 31, 2025 | December 31, 2024\nCurrent assets:\n"
             "Cash and cash equivalents | December 31, 2025: 6,210 | December 31, 2024: 5,870\n"
             "Current liabilities:\n"
             "Accounts payable | December 31, 2025: 4,020 | December 31, 2024: 3,760\n"
             "Deferred revenue | December 31, 2025: 9,412 | December 31, 2024: 8,120")


def test_a_notes_stated_total_leads_over_the_current_row() -> None:
    """The balance sheet lists the current part of deferred revenue under "Current
    liabilities:"; the note states the total, the long-term part included: the total leads."""
    note = ("Deferred revenue primarily relates to prepaid subscriptions. Our total deferred "
            "revenue as of December 31, 2025 was $12.3 billion.")
    evidence = _evidence(_BALANCES, note)
    ranked = rank_spans(_ask("How much deferred revenue did the company have at the end of "
                             "2025?").frame, evidence)
    assert "$12.3 billion" in ranked[0].text, [s.text for s in ranked[:3]]
    # the current part asked is that row; the other balances' rows are no portion of a total
    ranked = rank_spans(_ask("What was the current deferred revenue at the end of 2025?").frame,
                        evidence)
    assert "9,412" in ranked[0].text, [s.text for s in ranked[:3]]
    for question, figure in (("How much accounts payable did the company have at the end of "
                              "2025?", "4,020"),
                             ("What were cash and cash equivalents at December 31, 2025?",
                              "6,210")):
        ranked = rank_spans(_ask(question).frame, evidence)
        assert figure in ranked[0].text, [s.text for s in ranked[:3]]


def test_the_current_row_leads_where_no_total_is_stated() -> None:
    note = "Deferred revenue primarily relates to prepaid subscriptions of $3.1 billion."
    ranked = rank_spans(_ask("How much deferred revenue did the company have at the end of "
                             "2025?").frame, _evidence(_BALANCES, note))
    assert "9,412" in ranked[0].text, [s.text for s in ranked[:3]]


def test_costs_asked_of_a_year_are_an_amount_not_things_listed() -> None:
    assert _ask("What were the company's freight costs in 2025?").frame.answer_kind == "figure"
    assert _ask("What was the group's interest expense in fiscal 2024?").frame.answer_kind == \
        "figure"
    assert _ask("What costs does the company incur?").frame.answer_kind == "list"


def test_a_change_by_an_amount_is_no_level_of_the_costs_asked() -> None:
    evidence = _evidence(
        "Changes in foreign exchange rates increased freight costs by $212 million in 2025.",
        "Freight costs were $4.1 billion and $4.6 billion in 2024 and 2025.")
    ranked = rank_spans(_ask("What were the company's freight costs in 2025?").frame, evidence)
    assert "$4.6 billion" in ranked[0].text, [s.text for s in ranked[:3]]
    ranked = rank_spans(_ask("By how much did exchange rates increase freight costs in 2025?"
                             ).frame, evidence)
    assert "$212 million" in ranked[0].text, [s.text for s in ranked[:3]]


def test_costs_asked_are_the_row_under_the_expenses_heading() -> None:
    evidence = _evidence(
        "(in millions)\n2025 | 2024\nOperating expenses:\nWarehousing | 2025: 9,120 | "
        "2024: 8,400\nMarketing | 2025: 2,310 | 2024: 2,150",
        "For the year ended December 31, 2025, we recorded $310 million of severance costs "
        "related to role eliminations.")
    ranked = rank_spans(_ask("What were the company's warehousing costs in 2025?").frame,
                        evidence)
    assert "9,120" in ranked[0].text, [s.text for s in ranked[:3]]


def test_the_verb_a_balance_is_asked_by_is_no_word_its_row_must_say() -> None:
    """"How much cash did it hold?": "held" in a sentence about the cash its subsidiaries hold
    abroad names no more of what is asked than the balance sheet's row."""
    evidence = _evidence(
        _BALANCES,
        "As of December 31, 2025, cash, cash equivalents, and short-term investments held by "
        "foreign subsidiaries were $1.2 billion.")
    ranked = rank_spans(_ask("How much cash and cash equivalents did the company hold at "
                             "December 31, 2025?").frame, evidence)
    assert "6,210" in ranked[0].text, [s.text for s in ranked[:3]]


def test_a_range_guided_to_is_the_guidance_given() -> None:
    ask = _ask("What operating income range did the company guide to for the first quarter of "
               "2026?")
    assert ask.frame.wants_forecast
    evidence = _evidence(
        "First Quarter 2026 Guidance. We provided guidance on February 5, 2026, in our earnings "
        "release.",
        "Operating income is expected to be between $2.1 billion and $2.6 billion, compared "
        "with $2.3 billion in first quarter 2025.")
    ranked = rank_spans(ask.frame, evidence)
    assert "$2.6 billion" in ranked[0].text, [s.text for s in ranked[:3]]


def test_a_share_of_a_total_is_no_stated_total() -> None:
    """"10% or more of total trade receivables" names the total but states no amount of it:
    the balance sheet's row of receivables under "Current assets:" still leads."""
    evidence = _evidence(
        "(in millions)\nDecember 31, 2025 | December 31, 2024\nCurrent assets:\n"
        "Accounts receivable, net | December 31, 2025: 3,977 | December 31, 2024: 3,341",
        "As of December 31, 2025, the company had one customer that represented 10% or more "
        "of total accounts receivable, which accounted for 12%.")
    ranked = rank_spans(_ask("What were the company's accounts receivable at the end of "
                             "2025?").frame, evidence)
    assert "3,977" in ranked[0].text, [s.text for s in ranked[:3]]
