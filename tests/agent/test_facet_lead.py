"""A figure leads only where it is of what the question asks of its line item (issue 25): a
movement asked (the additions to an allowance, the cash payments against an accrual, the awards
forfeited) is not answered by the balance or another movement, a balance asked not by a row
of a movement the question does not name, and a payment asked not by a proposed figure.
Passages invented for the tests; none knows a company or a filing."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.lead_check import lead_miss, other_facet
from manda.agent.facets import facets_in, unasked_facet, unmet_facet
from manda.agent.spans import rank_spans


def test_the_movements_and_statuses_a_question_names() -> None:
    assert facets_in("What were the additions to the company's bad debt allowance in 2024?") == (
        "addition",)
    assert facets_in("How much did the company pay in cash against its severance accrual?") == (
        "cash payments",)
    assert facets_in("What was the company's warranty reserve in 2024?") == ()
    assert facets_in("What was the company's warranty reserve at the end of 2024?") == ("=",)
    # a qualifier's word is no movement: "grant-date" names no awards granted
    assert facets_in("What was the grant-date fair value of the units granted?") == ("granted",)
    assert facets_in("What was the grant-date fair value per unit in 2024?") == ()
    assert facets_in("Quelles ont été les dotations à la provision en 2024 ?") == ("ajout",)


def test_a_payment_in_cash_asked_is_met_by_a_row_of_the_amount_paid() -> None:
    asked = facets_in("How much interest did the company pay in cash in 2024?")
    assert unmet_facet(asked, "Interest paid, net of capitalized interest") is None
    assert unmet_facet(asked, "Interest expense recorded") == "cash payments"


def test_a_movement_asked_is_met_only_by_a_text_that_names_it() -> None:
    asked = facets_in("What were the additions to the bad debt allowance in 2024?")
    assert unmet_facet(asked, "The bad debt allowance was $80 million at year end.") == "addition"
    assert unmet_facet(asked, "Bad debt allowance Additions 2024: 41") is None
    assert unmet_facet((), "The bad debt allowance was $80 million at year end.") is None


def test_a_row_of_a_part_or_a_movement_not_asked_is_another_figure() -> None:
    balance = facets_in("What were the units outstanding at the end of 2024?")
    assert unasked_facet(balance, "Units granted", row=True) == "granted"
    assert unasked_facet(facets_in("How many units were granted in 2024?"), "Units granted",
                         row=True) is None
    assert unasked_facet(balance, "Warranty reserve", row=True) is None
    # no balance asked: the grants' row may answer a grant-date fair value of the year
    assert unasked_facet(facets_in("What was the grant-date fair value per unit in 2024?"),
                         "Units granted", row=True) is None
    # a sentence's status: a proposed figure is not the one paid
    assert unasked_facet((), "The regulator proposed a $12 million penalty.", row=False) == \
        "proposed"
    assert unasked_facet((), "Units granted in the year vest over four years.", row=False) is None


def test_the_balance_does_not_lead_where_its_additions_are_asked() -> None:
    evidence = _evidence("The bad debt allowance against trade receivables was $80 million as "
                         "of December 31, 2024, against $64 million a year before.")
    ask = _ask("What were the additions to the bad debt allowance against trade receivables "
               "in 2024?")
    top = rank_spans(ask.frame, evidence)[0]
    assert other_facet(top, ask)
    assert lead_miss(top, ask) == "lead_other_item"
    balance = _ask("What was the bad debt allowance against trade receivables at the end of "
                   "2024?")
    assert not other_facet(rank_spans(balance.frame, evidence)[0], balance)


def test_a_part_row_alone_may_lead_where_the_item_is_asked() -> None:
    """"Senior term loan, non-current" is the loan's balance where no other row states it: a
    part's word in a label is no movement, so the row may lead (a balance-sheet line)."""
    evidence = _evidence("\n".join([
        "Balance sheet (millions)", "2024 | 2023",
        "Warranty reserve, non-current | 2024: 310 | 2023: 280"]))
    ask = _ask("What was the warranty reserve at the end of 2024?")
    assert not other_facet(rank_spans(ask.frame, evidence)[0], ask)


def test_a_proposed_penalty_does_not_lead_where_the_payment_is_asked() -> None:
    evidence = _evidence("The regulator issued a proposed $12 million penalty against the "
                         "company for late filings.")
    ask = _ask("How much did the company pay the regulator for its late filings?")
    top = rank_spans(ask.frame, evidence)[0]
    assert lead_miss(top, ask) == "lead_other_item"
