"""A ranking asked of product categories ranks the category table, even where its rows carry
footnote markers ("Gadgets (1)") or a nil change written as a dash ("—%"): read as rows at
ingestion (`spaced_statement_rows`), they stand beside the regional segments' table and the
question's words pick the category one (issue 25). The tables are invented for the test."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose import ranking
from manda.ingest.parsers.base import spaced_statement_rows

REGIONS = "\n".join([
    "The following table shows net sales by reportable segment for 2025, 2024 and 2023 "
    "(dollars in millions):",
    "2025 Change 2024 Change 2023",
    "Net sales by reportable segment:",
    "North $90,100 2 % $88,300 5 % $84,100",
    "South 60,200 6 % 56,800 3 % 55,100",
    "East 40,100 (3) % 41,300 1 % 40,900",
    "Total net sales $190,400 2 % $186,400 3 % $180,100",
])
CATEGORIES = "\n".join([
    "The following table shows net sales by category for 2025, 2024 and 2023 "
    "(dollars in millions):",
    "2025 Change 2024 Change 2023",
    "Net sales by category:",
    "Gadgets (1) $100,000 (1) % $101,000 4 % $97,100",
    "Widgets (1) $50,400 —% $50,400 2 % $49,400",
    "Support (2) 40,000 11 % 36,000 9 % 33,000",
    "Total net sales $190,400 2 % $186,400 3 % $180,100",
])


def test_the_fastest_growing_category_is_ranked_from_the_category_table() -> None:
    evidence = _evidence(spaced_statement_rows(REGIONS), spaced_statement_rows(CATEGORIES))
    draft = ranking.answer(_ask("Which product category grew fastest in 2025?"), evidence)
    assert draft is not None
    first = draft.text.splitlines()[0]
    assert first.startswith("Support +11.1%"), first
    assert "South" not in draft.text and "North" not in draft.text, draft.text
