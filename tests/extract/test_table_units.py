"""A statement table's figures keep the scale its own unit line states, and a table of shares of
revenue states no amounts (a 10-K's MD&A prints both, one under the other)."""

from __future__ import annotations

from fixtures.extraction import page_findings

AMOUNTS = """Results of Operations
The following table summarizes our statements of operations data (in thousands):
2025 | 2024
Revenue | 2025: $3,208,323 | 2024: $2,364,681
Research and development | 2025: 911,946 | 2024: 909,126
"""
COMMON_SIZE = """The following table sets forth our statements of operations data as a percentage of
revenue:
2025 | 2024
Revenue | 2025: 100.0% | 2024: 100.0%
Costs and expenses
2025 | 2024
Cost of revenue | 2025: 51.4 | 2024: 61.2
Research and development | 2025: 28.4 | 2024: 38.4
"""


def _rnd(text: str) -> list[float]:
    return sorted(f.value for f in page_findings(text)
                  if f.subject == "research and development" and f.period == "FY2025")


def test_a_table_of_shares_of_revenue_states_no_amounts() -> None:
    """"Research and development 28.4" under a common-size table (its revenue row 100.0%) is
    28.4% of revenue, not $28,400 (Lyft's R&D had been answered so)."""
    assert _rnd(AMOUNTS + COMMON_SIZE) == [911_946_000]
    assert _rnd(COMMON_SIZE) == []


def test_a_unit_line_above_a_header_of_years_run_together_scales_the_table() -> None:
    """The unit line stands above a column header whose years lost their space ("20252024"):
    that header line is still a line of years, so the unit line is the table's caption."""
    text = """Operations and support expenses decreased in 2025 as compared to the prior year.
The decrease was primarily due to lower onboarding costs.
There was also a decrease in costs related to the restructuring.
Personnel-related costs fell as the team shrank.
Web-hosting costs were lower.
Costs related to the fleet were lower too.
Research and Development
Year Ended December 31,
(in thousands, except for percentages)
2024 to 2025 % Change 20252024
2025 | 2024 | % change
Research and development | 2025: $911,946 | 2024: $909,126 | % change: —%
"""
    assert _rnd(text) == [911_946_000]


def test_a_sentence_wrapped_onto_its_scale_word_is_no_unit_line() -> None:
    """The page opens with a sentence wrapped after "$942.9", so a line begins "million in
    2025 …": no unit line, so the table below is not read in millions."""
    text = """second quarter
of 2025. These increases were offset by incentives recorded as a reduction to revenue by $942.9
million in 2025 as compared to the prior year as rider demand outpaced driver supply.
Research and development expenses were flat.
2025 | 2024
Research and development | 2025: $911,946 | 2024: $909,126
"""
    assert all(value < 911_946_000_000 for value in _rnd(text))


def test_a_whole_amount_under_a_unit_line_is_no_dollars_of_prose() -> None:
    """"$2,755" in a row a page's text flattened, under "(dollars in millions)": a table's
    figure, never $2,755 of the line item on the next line; a price in cents, or an amount
    far from any unit line, is still read."""
    flattened = ("The following table sets forth potential impacts as of June 30, 2025 and "
                 "June 30, 2024 (dollars in millions):\n"
                 "Investment portfolio 100 basis points Decline in fair value $2,416 $2,755\n"
                 "Term debt 100 basis points Increase in interest expense $129 $139\n")
    assert [f.value for f in page_findings(flattened) if f.subject == "debt"] == []
    schedule = ("Future principal payments are as follows (in millions):\n"
                "Total term debt principal $91,281\n"
                "As of June 30, 2025, total debt was $91.3 billion.\n")
    assert [f.value for f in page_findings(schedule) if f.subject == "debt"] == [91.3e9]
    assert [f.value for f in page_findings(
        "Each director receives an annual cash retainer of $50,000.")] == [50_000.0]
