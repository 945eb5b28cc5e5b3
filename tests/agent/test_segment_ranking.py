"""Which segment ranks first (issue 25): a segment note prints each segment's block under its
short heading, the same lines in each ("Operating income" in one, "Operating income (loss)" in
another); the ranking names the segments, ranks them by the line asked (sales where none is
named), and a loss's "growth" ranks nothing. The note is invented."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.ranking import answer as ranking_answer

NOTE = "\n".join([
    "Note 9 — Segment Information",
    "We have three reportable segments: Americas, Europe and Marine.",
    "(in millions)",
    "Americas",
    "2024 | 2025",
    "Net sales | 2024: $8,120 | 2025: $8,610",
    "Operating expenses | 2024: 7,310 | 2025: 7,705",
    "Operating income | 2024: $810 | 2025: $905",
    "Europe",
    "2024 | 2025",
    "Net sales | 2024: $3,050 | 2025: $3,720",
    "Operating expenses | 2024: 3,120 | 2025: 3,580",
    "Operating income (loss) | 2024: $(70) | 2025: $140",
    "Marine",
    "2024 | 2025",
    "Net sales | 2024: $1,400 | 2025: $1,530",
    "Operating expenses | 2024: 1,010 | 2025: 1,060",
    "Operating income | 2024: $390 | 2025: $470",
    "Consolidated",
    "2024 | 2025",
    "Net sales | 2024: $12,570 | 2025: $13,860",
])


def test_segments_are_ranked_by_the_line_asked_and_named_by_segment() -> None:
    draft = ranking_answer(_ask("Which segment had the highest operating income in 2025?"),
                           _evidence(NOTE))
    assert draft is not None
    lead, order = draft.text.splitlines()
    assert lead.startswith("Americas $905.0 million ranks first"), lead
    assert "2. Marine $470.0 million; 3. Europe $140.0 million" in order, order


def test_which_segment_grew_most_ranks_their_sales_and_no_loss_grows() -> None:
    draft = ranking_answer(_ask("Which segment grew fastest in 2025?"), _evidence(NOTE))
    assert draft is not None
    lead = draft.text.splitlines()[0]
    assert lead.startswith("Europe +22.0% ($3.72 billion against $3.05 billion)"), lead


def test_a_segment_asked_is_never_ranked_among_a_tables_other_rows() -> None:
    """"Which segment earned the most operating income?" with only a non-GAAP reconciliation's
    rows read (adjusted operating income, diluted EPS): no ranking of those rows, which are no
    segments (it had led with "Adjusted operating income (non-GAAP) $89.7 billion ranks
    first")."""
    evidence = _evidence("\n".join([
        "Reconciliation of GAAP to non-GAAP measures (in millions, except per share amounts)",
        "2023 | 2022",
        "Operating income | 2023: $88,523 | 2022: $83,383",
        "Adjusted operating income (non-GAAP) | 2023: $89,694 | 2022: $83,383",
        "Diluted earnings per share | 2023: $9.68 | 2022: $9.65",
        "Adjusted diluted earnings per share (non-GAAP) | 2023: $9.81 | 2022: $9.21"]))
    ask = _ask("Which segment earned the most operating income in 2023?")
    assert ranking_answer(ask, evidence) is None
