"""A table of quarters by column ("Q1 2024 … Q4 2025"): the quarter asked leads its own column,
never the first column of its year; its year-before figure is the same quarter's; a year asked
is no quarter's figure. The table is invented, no filing's."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.spans import rank_spans

QUARTERS = "\n".join([
    "Revenue by Segment",
    "(In millions)",
    "Q1 2024 | Q2 2024 | Q3 2024 | Q4 2024 | Q1 2025 | Q2 2025 | Q3 2025 | Q4 2025",
    "Ground revenue | Q1 2024: $1,110 | Q2 2024: 1,220 | Q3 2024: 1,330 | Q4 2024: 1,440 | "
    "Q1 2025: 1,515 | Q2 2025: 1,625 | Q3 2025: 1,735 | Q4 2025: 1,845",
    "Air revenue | Q1 2024: $210 | Q2 2024: 220 | Q3 2024: 230 | Q4 2024: 240 | "
    "Q1 2025: 315 | Q2 2025: 325 | Q3 2025: 335 | Q4 2025: 345",
])


def _first(question: str) -> str:
    ask = _ask(question)
    return evidence_answer(ask, _evidence(QUARTERS)).text.splitlines()[0]


def test_the_quarter_asked_leads_its_own_column() -> None:
    evidence = _evidence(QUARTERS)
    ask = _ask("What was the company's Ground revenue in Q4 2025?")
    assert rank_spans(ask.frame, evidence)[0].row is not None
    first = _first("What was the company's Ground revenue in Q4 2025?")
    assert "1,845" in first or "1.85 billion" in first
    assert "1,515" not in first and "1.52 billion" not in first  # Q1 2025, the year's first
    assert "Q4 2024" in first  # beside the same quarter a year before
    third = _first("What was Air revenue in the third quarter of 2024?")
    assert "230" in third and "210" not in third.split("(")[0]


def test_a_year_asked_is_no_quarters_figure() -> None:
    first = _first("What was the company's Ground revenue in 2025?")
    # no quarter's figure is led as the year's: the row is quoted as it stands
    assert "1.52 billion" not in first and "was $" not in first
    assert "Q4 2025: 1,845" in first
