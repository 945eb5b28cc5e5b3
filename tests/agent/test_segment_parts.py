"""A segment asked is ranked among the segments, not among one segment's lines (issue 25): rows
that add up to a segment's total ("Hardware sales", "Hardware leasing" under "Total hardware
revenues") are that segment's parts; the segments are the parts of the larger whole it stands
in, wherever the statement prints that whole (a data tag's dump prints it first). The statement
below is written for the test."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.ranking import answer as ranking_answer

STATEMENT = "\n".join([
    "CONSOLIDATED STATEMENTS OF OPERATIONS",
    "(in millions)",
    "Year Ended December 31, | 2024 | 2025",
    "Revenues | 2024: $42,000 | 2025: $47,100",
    "Hardware sales | 2024: 30,000 | 2025: 33,000",
    "Hardware leasing | 2024: 5,000 | 2025: 4,500",
    "Total hardware revenues | 2024: 35,000 | 2025: 37,500",
    "Cloud services | 2024: 4,000 | 2025: 6,000",
    "Support and other | 2024: 3,000 | 2025: 3,600",
    "Cost of revenues | 2024: 25,000 | 2025: 27,900",
])


def test_a_segment_asked_ranks_the_segments_not_one_segments_lines() -> None:
    draft = ranking_answer(_ask("Which segment grew revenue fastest in 2025?"),
                           _evidence(STATEMENT))
    assert draft is not None
    first, ranked = draft.text.splitlines()[:2]
    assert first.startswith("Cloud services +50.0%"), first
    assert "Hardware sales" not in ranked and "Total hardware revenues" in ranked, ranked


def test_a_line_asked_without_segments_ranks_the_lines_it_breaks_down() -> None:
    draft = ranking_answer(_ask("Which hardware revenue line grew fastest in 2025?"),
                           _evidence(STATEMENT))
    assert draft is not None
    assert "Hardware sales" in draft.text.splitlines()[1], draft.text
