"""A trend question is answered first (where the series went, with its sources), then the
table; months are one series whatever their names."""

from __future__ import annotations

from pathlib import Path

from written_room import answer_from


async def _trend(tmp_path: Path, text: str) -> str:
    return await answer_from(tmp_path, {"Monthly_Report.md": text}, "What's the revenue trend?")


async def test_a_monthly_series_is_led_by_where_it_went(tmp_path: Path) -> None:
    answer = await _trend(tmp_path, (
        "# Monthly management report\n\n"
        "| € thousand | Jan 2025 | Feb 2025 | Mar 2025 | Apr 2025 | May 2025 |\n"
        "|---|---|---|---|---|---|\n| Revenue | 1,000 | 1,050 | 980 | 1,100 | 1,200 |\n"))
    first = answer.splitlines()[0]
    assert first.startswith("Revenue rose 20.0% from €1M in Jan 2025 to €1.2M in May 2025"), answer
    assert "Monthly_Report.md" in first, answer
    # every month in the table, not only those sharing their first letters
    for month in ("Jan 2025", "Feb 2025", "Mar 2025", "Apr 2025", "May 2025"):
        assert f"| {month} |" in answer, answer
