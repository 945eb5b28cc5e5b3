"""A question naming several metrics gets each of them, one cited line each."""

from __future__ import annotations

from pathlib import Path

from written_room import answer_from

STATEMENTS = (
    "# Annual report FY2025\n\n## Statement of profit or loss\n\n"
    "| US$'000 | FY2025 | FY2024 |\n|---|---|---|\n"
    "| Revenue | 28,800 | 21,900 |\n| Gross profit | 22,300 | 16,600 |\n"
    "| Operating loss | (6,600) | (7,900) |\n\n"
    "## KPIs\n\nNet revenue retention was 108% in FY2025. Gross revenue retention was 91% in "
    "FY2025.\n")


async def test_each_metric_asked_is_answered_with_its_source(tmp_path: Path) -> None:
    answer = await answer_from(tmp_path, {"Annual_Report_FY25.md": STATEMENTS},
                               "What were FY25 revenue, gross profit and operating loss?")
    lines = [line for line in answer.splitlines() if line.startswith("- ")]
    assert len(lines) == 3, answer
    for figure, line in zip(("28.8", "22.3", "6.6"), lines, strict=True):
        assert figure in line and "Annual_Report_FY25.md" in line, answer


async def test_a_metric_the_room_lacks_is_said_to_be_missing(tmp_path: Path) -> None:
    answer = await answer_from(tmp_path, {"Annual_Report_FY25.md": STATEMENTS},
                               "What are net retention, gross retention and logo churn?")
    assert "108%" in answer and "91%" in answer, answer
    assert "No document states logo churn" in answer, answer


async def test_a_balance_asked_for_a_month_is_the_balance_at_its_end(tmp_path: Path) -> None:
    """ARR is a balance: "at the end of October 2024" reads the column dated 31 October."""
    answer = await answer_from(tmp_path, {"KPI_Pack.md": (
        "# Monthly KPIs\n\nUS$ thousands\n\n"
        "| Metric | 2024-09-30 | 2024-10-31 | 2024-11-30 |\n|---|---|---|---|\n"
        "| ARR | 29,100 | 29,800 | 30,700 |\n")},
        "What was ARR at the end of October 2024?")
    assert "29.8" in answer.splitlines()[0], answer
    assert "30.7" not in answer, answer


async def test_a_bridge_is_the_table_that_moves_the_metric_in_the_period_asked(
        tmp_path: Path) -> None:
    answer = await answer_from(tmp_path, {"KPI_Pack.md": (
        "# ARR bridge\n\nUS$ thousands\n\n"
        "| US$k | Q1 FY25 | Q2 FY25 | FY2025 |\n|---|---|---|---|\n"
        "| Opening ARR | 25,000 | 26,300 | 25,000 |\n| New logo ARR | 1,200 | 1,300 | 2,500 |\n"
        "| Churn | (650) | (500) | (1,150) |\n| Closing ARR | 26,300 | 27,100 | 27,100 |\n")},
        "Walk me through the FY2025 ARR bridge")
    assert "| Opening ARR | 25,000 |" in answer and "| Churn | (1,150) |" in answer, answer
    assert "| Closing ARR | 27,100 |" in answer and "26,300" not in answer, answer
