"""One cell of a table whose columns measure several things (stores and floor area by place;
a count and an area under each of two dates): the question's measure picks the column, never the
first dated one. The documents below are written for the tests; none is a filing's text."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose import compose
from manda.agent.compose.leads import measured
from manda.finance.figures import Figure

BY_PLACE = "\n".join([
    "Item 2. Properties",
    "Outlets as of June 30, 2026 | Outlets Floor Area(in thousands)",
    "Oregon | Outlets as of June 30, 2026: 40 | Outlets Floor Area(in thousands): 5,150",
    "Nevada | Outlets as of June 30, 2026: 159 | Outlets Floor Area(in thousands): 21,875",
    "Total | Outlets as of June 30, 2026: 1,995 | Outlets Floor Area(in thousands): 250,518",
])
GROUPED = "\n".join([
    "Outlet Data",
    "Number of Outlets June 30, 2026 | Number of Outlets June 30, 2025 | "
    "Floor Area (a) June 30, 2026 | Floor Area (a) June 30, 2025",
    "Total | Number of Outlets June 30, 2026: 1,995 | Number of Outlets June 30, 2025: 1,978 | "
    "Floor Area (a) June 30, 2026: 250,518 | Floor Area (a) June 30, 2025: 248,278",
    "(a) In thousands of square feet.",
])


def _first(question: str, text: str) -> str:
    return compose(_ask(question), _evidence(text)).text.splitlines()[0]


def test_a_places_cell_is_the_column_the_question_measures() -> None:
    first = _first("Floor area in Nevada?", BY_PLACE)
    assert "21,875" in first and "159" not in first, first


def test_a_groups_period_is_read_under_the_group_asked() -> None:
    first = _first("What was the total floor area at June 30, 2025?", GROUPED)
    assert ("248,278" in first or "248.28 million" in first) and "1,978" not in first, first


def test_columns_of_one_measure_or_none_named_keep_every_figure() -> None:
    figures = [Figure(value=1.0, unit="", column="Leased Area (1)", written="1"),
               Figure(value=2.0, unit="", column="Owned Area (1)", written="2")]
    assert [f.written for f in measured(figures, ("owned", "area"))] == ["2"]
    assert len(measured(figures, ("area",))) == 2  # both say it: no one column is named
    dated = [Figure(value=1.0, unit="", column="2026", written="1"),
             Figure(value=2.0, unit="", column="2025", written="2")]
    assert len(measured(dated, ("revenue",))) == 2


PARTS = "\n".join([
    "As of December 31, 2025, we operated the following facilities (in thousands):",
    "Use Leased Area (1) | Owned Area | Site",
    "Offices | Use Leased Area (1): 3,100 | Owned Area: 910 | Site: North",
    "Depots | Use Leased Area (1): 14,800 | Owned Area: 4,500 | Site: South",
    "Total | Use Leased Area (1): 17,900 | Owned Area: 5,410",
])


def test_the_whole_asked_of_a_table_of_parts_is_its_total_row() -> None:
    first = _first("How much owned area did the company operate at the end of 2025?", PARTS)
    assert "5,410" in first and "910;" not in first, first
    # a part the question names is its own row
    first = _first("How much owned area do the depots have?", PARTS)
    assert "4,500" in first, first


PAID_BACK = "\n".join([
    "The following table summarises the cash flows of the group's overdraft lines (in millions):",
    "2025 | 2024",
    "Lines with maturities of 90 days or less:",
    "Drawings/(repayments) of overdraft lines, net | 2025: (2,645) | 2024: 1,120",
    "Lines with maturities over 90 days:",
    "Drawings of overdraft lines | 2025: 600 | 2024: 900",
    "Repayments of overdraft lines | 2025: (1,933) | 2024: (700)",
    "Total drawings/(repayments) of overdraft lines, net | 2025: (3,978) | 2024: 1,320",
])


def test_a_total_whose_parts_say_no_more_of_the_question_is_the_whole() -> None:
    """A part that says the question's words and nothing more of them than the total ("net
    repayments of overdraft lines": one maturity's row and the total's) ranks below the total."""
    first = _first("What were the group's net repayments of overdraft lines in 2025?", PAID_BACK)
    assert "3,978" in first or "3.98" in first, first
