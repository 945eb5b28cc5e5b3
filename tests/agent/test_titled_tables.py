"""A table's title run on into its column years ("Same-Store Sales 2025 2024 2023") is the
table's title, never a row whose figures are the years (issue 25). The page is invented."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.spans import rank_spans

PAGE = "\n".join([
    "Same-Store Sales 2025 2024 2023",
    "2025 | 2024 | 2023",
    "Same-store sales change | 2025: 1.8% | 2024: (0.4)% | 2023: 2.2%",
    "Drivers of the change",
    "2025 | 2024 | 2023",
    "Number of tickets | 2025: 0.9 | 2024: (1.1) | 2023: 1.0",
])


def test_a_title_run_on_into_its_years_is_no_row() -> None:
    ask = _ask("What were same-store sales in 2025?")
    assert not any(s.row is not None and s.row.label == "Same-Store Sales"
                   for s in rank_spans(ask.frame, _evidence(PAGE)))
    first = evidence_answer(ask, _evidence(PAGE)).text.splitlines()[0]
    assert "1.8%" in first and "2,025" not in first, first

