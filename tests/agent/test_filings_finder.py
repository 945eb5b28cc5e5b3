"""Questions whose evidence was not found or did not lead (issue 25): a quarter asked (the
season, not a ranking of segments nor the year's figure), a horizon said another way ("within the
next 12 months" is "in the succeeding 12 months"), a verb's -ing form ("buying" is "acquire").
None of it knows a company or a filing: the passages below are written for the tests."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose import fact_lookup, topic_shape
from manda.agent.compose.common import Ask
from manda.agent.relevance import stems_of, term_in
from manda.agent.spans import Span, fits_kind, rank_spans

SEASON = "Our revenue is generally higher in the second and fourth quarters of our fiscal year."
DATED = ("In the first quarter of fiscal year 2025, we updated the presentation of certain "
         "metrics, most notably our revenue metrics.")
SEGMENTS = "Cloud revenue was $87.9 billion, the highest of our segments in fiscal year 2025."


def test_which_quarters_asks_the_season_not_a_ranking() -> None:
    ask = _ask("In which quarters of its fiscal year is the company's revenue usually highest?")
    assert ask.frame.answer_kind == "quarter"
    evidence = _evidence(DATED, SEGMENTS, SEASON)
    top = rank_spans(ask.frame, evidence)[0]
    assert top.text == SEASON and fits_kind(top, ask.frame)
    first = fact_lookup.compose(ask, evidence).text.splitlines()[0]
    assert "second and fourth quarters" in first


def test_a_quarter_of_a_named_year_is_no_season() -> None:
    ask = _ask("Which quarter is strongest for the company?")
    evidence = _evidence(DATED, SEASON)
    dated, season = sorted(rank_spans(ask.frame, evidence), key=lambda s: s.text != DATED)[:2]
    assert not fits_kind(dated, ask.frame) and fits_kind(season, ask.frame)


def test_a_terse_quarter_asked_is_answered_by_its_seasonality() -> None:
    """"biggest" is said as the filing compares ("a larger share"); the year's net sales, a
    figure, does not answer which quarter."""
    ask = _ask("The grocer's biggest sales quarter?")
    assert ask.frame.answer_kind == "quarter"
    evidence = _evidence(
        "Net sales were $104.8 billion in 2025, against $106.6 billion in 2024.",
        "A larger share of annual net sales is traditionally earned during the fourth quarter "
        "because it includes the holiday sales period.")
    first = fact_lookup.compose(ask, evidence).text.splitlines()[0]
    assert "fourth quarter" in first and "104.8" not in first


def test_a_horizon_said_another_way_is_no_word_missing() -> None:
    """"within the next 12 months" says when, which the filing says its own way: the sentence
    that states the amount due is found, not "nothing answers this"."""
    ask = _ask("How much of the company's debt comes due within the next 12 months?")
    evidence = _evidence(
        "As of December 31, 2025, we had outstanding $4.68 billion in aggregate principal amount "
        "of indebtedness, of which $1.98 billion is scheduled to become due in the succeeding "
        "12 months.",
        "For details regarding our indebtedness, refer to Note 11, Debt.",
        "Our sources of cash are predominantly our deliveries and services.")
    draft = fact_lookup.compose(ask, evidence)
    assert not draft.offer_qa
    assert "$1.98 billion" in draft.text.splitlines()[0]


def test_buying_is_a_form_of_acquire() -> None:
    assert term_in("buying", stems_of("we entered into an agreement to acquire Halden Group"))
    ask = _ask("Which company is the group buying?")
    evidence = _evidence(
        "On January 18, 2025, we entered into a definitive agreement to acquire Halden Group, "
        "Inc. for $95.00 per share in an all-cash transaction.",
        "Revenue increased 7% driven by growth in our services.")
    ranked = rank_spans(ask.frame, evidence)
    assert ranked and "Halden" in ranked[0].text


def test_a_method_asked_is_answered_by_the_method_not_the_figure() -> None:
    """"How does it value its inventory?" asks how, not how much: the sentence that states the
    method leads, never the balance sheet's inventory figure."""
    ask = _ask("How does the company value its inventory?")
    assert ask.frame.answer_kind == "method"
    assert _ask("What inventory costing method does the company use?").frame.answer_kind == "method"
    evidence = _evidence(
        "Inventory was $12.7 billion at the end of 2025, against $13.5 billion a year earlier.",
        "Inventory is accounted for using the first-in, first-out method and valued at the lower "
        "of cost and net realizable value.")
    first = fact_lookup.compose(ask, evidence).text.splitlines()[0]
    assert "first-in, first-out" in first and "12.7" not in first


def test_a_term_in_words_answers_how_many_years() -> None:
    """"Over how many years does it amortize its intangible assets?": "which range from two to
    twelve years" states the count in words and leads, not a cut-off sentence's "1.7 years" of
    another thing."""
    ask = _ask("Over how many years does the group amortize its intangible assets?")
    evidence = _evidence(
        "Intangible assets are amortized on a straight-line basis over the estimated useful "
        "lives which range from two to twelve years.",
        "to recognize over the remaining weighted-average period of approximately 1.7 years.")
    first = rank_spans(ask.frame, evidence)[0]
    assert "two to twelve years" in first.text and fits_kind(first, ask.frame)


def test_a_terse_thing_with_its_period_after_asks_its_figure() -> None:
    """"Trips in 2020?" asks the figure of trips in 2020, as "its 2020 trips" would: the
    key-metric row leads, not a sentence that happens to say "trip" and "2020"."""
    ask = _ask("Globex trips in 2020?")
    assert ask.frame.answer_kind == "figure"
    evidence = _evidence(
        "In January 2020, we introduced product changes that show drivers the trip distance and "
        "expected fares.",
        "\n".join(["Key metrics (in millions)", "Year Ended December 31, | 2020 | 2021",
                   "Trips | 2020: 5,025 | 2021: 6,368"]))
    assert "5,025" in rank_spans(ask.frame, evidence)[0].text


def test_the_method_named_leads_over_the_bound_every_policy_states() -> None:
    """"How does it measure the cost of its inventory?": "stated at the lower of cost or net
    realizable value" bounds every inventory; the next sentence, which names the method without
    naming inventory again, is read with it and leads."""
    ask = _ask("How does the group measure the cost of its inventory?")
    evidence = _evidence(
        "Inventories are stated at the lower of cost or net realizable value. Cost is computed "
        "using standard cost for finished goods, which approximates actual cost on a first-in, "
        "first-out basis. We record inventory write-downs for excess inventories.",
        "Inventory was $9.1 billion at the end of 2025.")
    first = fact_lookup.compose(ask, evidence).text.splitlines()[0]
    assert "first-in, first-out" in first and "9.1" not in first


def test_method_is_how_a_method_is_asked_not_what_it_is_about() -> None:
    """"What cost method does it use for its inventories?": a sentence on another thing's
    "methodology" says the question's word; the sentence stating the inventory's cost basis
    answers."""
    ask = _ask("What cost method does the group use for its inventories?")
    assert "method" not in ask.frame.ranking.terms
    evidence = _evidence(
        "The fair value of each reporting unit is estimated through the use of a discounted cash "
        "flow methodology, using our weighted average cost of capital.",
        "Inventories are stated at average cost, subject to the lower of cost or net realizable "
        "value.")
    assert "average cost, subject" in rank_spans(ask.frame, evidence)[0].text


def test_a_method_is_asked_tersely_or_as_a_policy_but_never_with_an_amount() -> None:
    """A terse "costing method" and a present-tense policy ("when does it record a liability")
    ask a method; "how much … does it recognize" asks a figure and a past "when did it record"
    a date."""
    assert _ask("Globex inventory costing method?").frame.answer_kind == "method"
    assert _ask("When does the company record a liability for a lawsuit?").frame.answer_kind \
        == "method"
    assert _ask("How does Globex recognize revenue on its licenses?").frame.answer_kind == \
        "method"
    assert _ask("How much revenue does Globex recognize over time?").frame.answer_kind != \
        "method"
    assert _ask("When did the company record the impairment?").frame.answer_kind == "date"


def test_the_share_bought_is_no_price_paid() -> None:
    """"How much did it spend to buy Halden?": "we completed the acquisition of 100% ownership
    interest in Halden" states the share bought, not the price; the consideration's sentence
    leads."""
    ask = _ask("How much did the group spend to buy Halden?")
    evidence = _evidence(
        "On March 12, 2025, we completed the acquisition of 100% ownership interest in Halden "
        "Group, Inc., a leading logistics provider.",
        "The acquisition date fair value of the consideration transferred for Halden was "
        "$1.4 billion.")
    first = fact_lookup.compose(ask, evidence).text.splitlines()[0]
    assert "$1.4 billion" in first and "100%" not in first


def test_a_method_asked_is_no_topic_list() -> None:
    """"When does it accrue a loss for the lawsuits against it?" asks the policy's condition,
    which a sentence states, not the litigation topic's list of matters."""
    ask = _ask("When does the group accrue a loss for the lawsuits against it?")
    assert ask.frame.answer_kind == "method"
    assert topic_shape(ask) is None


def test_which_company_is_answered_by_the_company_named() -> None:
    """"Which company is it buying?": the sentence naming the company by its legal form leads,
    its price and per-share amounts notwithstanding, over a sentence on an acquisition's share
    of expense growth."""
    ask = _ask("Which company is the group buying?")
    evidence = _evidence(
        "Operating expenses increased $4.2 billion or 21% driven by investments in cloud, "
        "including 4 points of growth from the Rivet acquisition, and employee severance.",
        "On January 18, 2025, we entered into a definitive agreement to acquire Halden Logistik "
        "GmbH for $95.00 per share in an all-cash transaction valued at $6.8 billion.")
    assert "Halden Logistik GmbH" in rank_spans(ask.frame, evidence)[0].text


def test_the_company_asked_of_is_no_other_company_named() -> None:
    """"Which company is Harrowgate buying?": every page of its own report names "Harrowgate
    Holdings Inc.", which is not the company asked; the target's sentence is. A firm asked
    ("which firm is its auditor, and since when?") is a role's, not a company named anywhere."""
    ask = _ask("Which company is Harrowgate buying?")
    own = "Harrowgate Holdings Inc. designs and sells industrial valves in 14 countries."
    target = "In March we agreed to acquire Brantwood Valves Ltd. for £41 million in cash."
    assert not fits_kind(_ask_span(ask, own), ask.frame)
    assert fits_kind(_ask_span(ask, target), ask.frame)
    auditor = _ask("Which firm is Harrowgate's independent auditor, and since what year?")
    assert not fits_kind(_ask_span(auditor, own), auditor.frame)


def _ask_span(ask: Ask, text: str) -> Span:
    return next(s for s in rank_spans(ask.frame, _evidence(text)) if s.text == text)
