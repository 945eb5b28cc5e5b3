"""A computed growth rate compares two years as one document states them (its comparative
column) before reaching for the year before in another document, whose scope may differ."""

from __future__ import annotations

from pathlib import Path

from written_room import answer_from


async def test_growth_takes_the_year_before_from_the_same_statement(tmp_path: Path) -> None:
    answer = await answer_from(tmp_path, {
        "Audited_Accounts_2024.md":
            "# Audited financial statements 2024\n\nFiscal year ended December 31, 2024.\n\n"
            "| € million | 2024 | 2023 |\n|---|---|---|\n| Revenue | 110.0 | 95.0 |\n",
        "Management_Accounts_2025.md":
            "# Management accounts 2025 (continuing operations)\n\n"
            "| € million | 2025 | 2024 |\n|---|---|---|\n| Revenue | 120.0 | 100.0 |\n",
    }, "How fast is revenue growing?")
    first = answer.splitlines()[0]
    assert "grew 20.0% in FY2025 (computed)" in first, answer
    assert "Management_Accounts_2025.md" in first and "Audited_Accounts" not in first, answer


async def test_no_growth_is_computed_against_a_figure_of_another_order(tmp_path: Path) -> None:
    answer = await answer_from(tmp_path, {
        "Group_Accounts_2024.md":
            "# Group accounts 2024\n\n| € million | 2024 |\n|---|---|\n| Revenue | 391.0 |\n",
        "Subsidiary_Report_2025.md":
            "# Subsidiary report 2025\n\n| € million | 2025 |\n|---|---|\n| Revenue | 4.4 |\n",
    }, "How fast is revenue growing?")
    assert "fell 98.9%" not in answer and "(computed)" not in answer, answer
    assert "is of another order" in answer and "cannot be computed" in answer, answer
