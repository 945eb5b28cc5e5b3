"""A different figure another place states for the measure the lead states is named beside it
(compose.discrepant): the statement's cash paid beside the discussion's programme figure, the
second table's total beside the first's. Another year, a segment, a subtotal, a per-share
figure, a forecast or a change is no such figure, and a computed answer gains none. The
passages are written for the tests; none is a filing's."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.common import Draft
from manda.agent.compose.discrepant import with_other_figure
from manda.agent.grounding import ground

PROGRAMME = ("During fiscal years 2025 and 2024, we repurchased 40 million shares and 52 million "
             "shares of our common stock for $9.6 billion and $11.0 billion, respectively, "
             "through our share repurchase programs.")
CASH_FLOWS = "\n".join([
    "Statements of Cash Flows",
    "(In millions)",
    "Year Ended December 31, | 2025 | 2024",
    "Common stock repurchased | 2025: (11,420) | 2024: (12,030)",
    "Common stock dividends paid | 2025: (6,100) | 2024: (5,800)",
])
OTHER_YEAR = ("During fiscal year 2023, we repurchased 61 million shares of our common stock for "
              "$10.4 billion through our share repurchase programs.")
PER_SHARE = ("In fiscal 2025 the average price of the common stock repurchased through our "
             "share repurchase programs was $240.00 per share.")
FORECAST = ("We expect to repurchase common stock for approximately $10.5 billion through our "
            "share repurchase programs.")
SEGMENT_PART = ("Of the common stock repurchased through our share repurchase programs in "
                "fiscal 2025, $8.1 billion was repurchased in the open market.")

FLOORS = "\n".join([
    "Item 2. Facilities",
    "As of December 31, 2025, we operated the following facilities (in thousands):",
    "Use | Leased Square Feet | Owned Square Feet",
    "Offices | 12,400 | 3,100",
    "Warehouses | 80,200 | 40,500",
    "Total | 92,600 | 43,600",
    "Division | Leased Square Feet | Owned Square Feet",
    "Retail | 60,000 | 20,300",
    "Wholesale | 28,000 | 18,200",
    "Total | 88,000 | 38,500",
])

REVENUES = "Total revenues were $46.4 billion in 2025, up 13% from $41.2 billion in 2024."
OPERATIONS = "\n".join([
    "Statements of Operations",
    "(In millions)",
    "Year Ended December 31, | 2025 | 2024",
    "Product revenues | 2025: 40,300 | 2024: 36,000",
    "Service revenues | 2025: 6,100 | 2024: 5,200",
    "Total revenues | 2025: 46,400 | 2024: 41,200",
])
MARGIN = "Gross margin was 41.2% in 2025. Our gross margin in 2025, as adjusted, was 43.0%."


def _pages(text: str, evidence: object) -> list[int | None]:
    return [c.page for c in ground(text, evidence)]  # type: ignore[arg-type]


def test_the_cash_paid_is_named_beside_the_programmes_figure() -> None:
    """The discussion's programme figure leads; the cash-flow statement's row of the same
    year, a different amount of the same measure, is named with its page."""
    evidence = _evidence(PROGRAMME, CASH_FLOWS)  # pages 30, 31
    ask = _ask("How much did the company spend on share repurchases in fiscal 2025?")
    draft = Draft(text="The company repurchased 40 million shares of its common stock for $9.6 "
                       "billion in fiscal 2025 (source: Annual.pdf, p.30).")
    text = with_other_figure(draft, ask, evidence).text
    first = text.splitlines()[0]
    assert first.startswith(draft.text)
    assert "$11.42 billion" in first and "Common stock repurchased" in first
    assert "12,030" not in first and "12.0" not in first  # the prior year is no other figure
    assert _pages(text, evidence) == [30, 31]


def test_other_years_per_share_forecasts_and_parts_are_no_other_figure() -> None:
    evidence = _evidence(PROGRAMME, OTHER_YEAR, PER_SHARE, FORECAST, SEGMENT_PART)
    ask = _ask("How much did the company spend on share repurchases in fiscal 2025?")
    draft = Draft(text="The company repurchased 40 million shares for $9.6 billion in fiscal "
                       "2025 (source: Annual.pdf, p.30).")
    assert with_other_figure(draft, ask, evidence) == draft


def test_the_second_tables_total_is_named_and_its_parts_are_not() -> None:
    """Two totals of owned floor area on one page (by use, by division) are both named; a
    division's row, the rented column, and the first table's own rows are not."""
    evidence = _evidence(FLOORS)  # page 30
    ask = _ask("How many owned square feet did the company operate at the end of 2025?")
    draft = Draft(text="Owned square feet were 43,600 thousand at the end of 2025 "
                       "(source: Annual.pdf, p.30).")
    first = with_other_figure(draft, ask, evidence).text.splitlines()[0]
    assert "38,500" in first
    for part in ("20,300", "18,200", "88,000", "40,500"):
        assert part not in first


def test_a_computed_answer_or_a_part_asked_gains_no_other_figure() -> None:
    evidence = _evidence(PROGRAMME, CASH_FLOWS)
    draft = Draft(text="Repurchases were $9.6 billion in fiscal 2025, 20% of $48.0 billion "
                       "(source: Annual.pdf, p.30).")
    ask = _ask("What share of operating cash flow did share repurchases take in fiscal 2025?")
    assert with_other_figure(draft, ask, evidence) == draft
    floors = _evidence(FLOORS)
    ask = _ask("How many owned square feet does the company's Retail division have?")
    draft = Draft(text="Retail owned square feet were 20,300 thousand (source: Annual.pdf, p.30).")
    assert with_other_figure(draft, ask, floors) == draft


def test_a_lead_that_states_no_figure_is_left_as_it_was() -> None:
    evidence = _evidence(PROGRAMME, CASH_FLOWS)
    ask = _ask("How much did the company spend on share repurchases in fiscal 2025?")
    draft = Draft(text="The company repurchases shares through programs "
                       "(source: Annual.pdf, p.30).")
    assert with_other_figure(draft, ask, evidence) == draft


def test_a_component_row_beside_the_total_or_a_rate_is_no_other_figure() -> None:
    """The statement's total states the lead's figure: its product row, near it in size, is a
    part of it; the prior year is stated by the lead already; a rate is never doubled."""
    evidence = _evidence(REVENUES, OPERATIONS)
    ask = _ask("What were the company's revenues in 2025?")
    draft = Draft(text="Total revenues were $46.4 billion in 2025, up 13% from $41.2 billion in "
                       "2024 (source: Annual.pdf, p.30).")
    assert with_other_figure(draft, ask, evidence) == draft
    evidence = _evidence(MARGIN)
    ask = _ask("What was the company's gross margin in 2025?")
    draft = Draft(text="Gross margin was 41.2% in 2025 (source: Annual.pdf, p.30).")
    assert with_other_figure(draft, ask, evidence) == draft


BOUGHT_BACK = ("During fiscal 2025 we repurchased 40 million shares of our common stock for $9.6 "
               "billion.")
NEW_PROGRAMME = ("In May 2025 the Board announced a new program to repurchase up to $10.0 billion "
                 "of our common stock.")


def test_a_sentence_stating_the_buyback_by_its_verb_is_the_other_figure() -> None:
    """The cash-flow row leads for "buybacks"; the discussion states the same year's buyback
    only by its verb ("we repurchased 40 million shares … for $9.6 billion"), and is named
    beside it."""
    evidence = _evidence(CASH_FLOWS, BOUGHT_BACK)  # pages 30, 31
    ask = _ask("How much did the company spend on share buybacks in fiscal 2025?")
    draft = Draft(text="Share buybacks were $11.42 billion in fiscal 2025 "
                       "(source: Annual.pdf, p.30).")
    first = with_other_figure(draft, ask, evidence).text.splitlines()[0]
    assert "$9.6 billion" in first
    assert _pages(first, evidence) == [30, 31]


def test_a_programmes_size_is_no_amount_spent() -> None:
    """A new programme of "up to $10.0 billion", near the year's spend in size, bounds what
    may be spent: it is no other figure of the spend."""
    evidence = _evidence(CASH_FLOWS, NEW_PROGRAMME)
    ask = _ask("How much did the company spend on share repurchases in fiscal 2025?")
    draft = Draft(text="Common stock repurchased was $11.42 billion in fiscal 2025 "
                       "(source: Annual.pdf, p.30).")
    assert with_other_figure(draft, ask, evidence) == draft


OFFICES = ("Our global buying operations work from offices in 14 countries and support the "
           "design and manufacturing of the goods we sell under our own brands.")
OFFICES_AGAIN = ("Beyond our home market, we run buying operations from offices in 11 countries, "
                 "mostly in Asia, and a long disruption there could hurt our results.")
STAFF = "As of the end of 2025, we employed 52,300 people across our stores and offices."
STAFF_ROUND = "With over 50,000 employees, staff costs are our largest operating expense."


def test_a_count_another_place_states_otherwise_is_named_and_a_round_one_is_not() -> None:
    """Two places of one filing count the offices' countries differently: the answer names both,
    with the thing counted; "over 50,000 employees" rounds the 52,300 counted, no other count."""
    evidence = _evidence(OFFICES_AGAIN, OFFICES)  # pages 30, 31
    ask = _ask("In how many countries does the company have buying offices?")
    draft = Draft(text="Annual.pdf states: “Beyond our home market, we run buying operations from "
                       "offices in 11 countries, mostly in Asia.” (source: Annual.pdf, p.30).")
    first = with_other_figure(draft, ask, evidence).text.splitlines()[0]
    assert "14 countries" in first and "p.31" in first, first
    evidence = _evidence(STAFF, STAFF_ROUND)
    ask = _ask("How many employees does the company have?")
    draft = Draft(text="Headcount was 52,300 people (source: Annual.pdf, p.30).")
    assert with_other_figure(draft, ask, evidence).text == draft.text
