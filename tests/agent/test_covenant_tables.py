"""A compliance certificate's covenant table is shown as stated: amount covenants (minimum
cash, minimum ARR) with their requirement, actual and headroom."""

from __future__ import annotations

from pathlib import Path

from written_room import answer_from


async def test_a_stated_covenant_table_answers_with_its_headroom(tmp_path: Path) -> None:
    answer = await answer_from(tmp_path, {"Compliance_Certificate_Jan_2025.md": (
        "# Compliance Certificate — month ended 31 January 2025\n\n"
        "To the Lender under clause 9 of the Loan Agreement.\n\n"
        "| Covenant | Requirement | Actual | Headroom |\n|---|---|---|---|\n"
        "| Minimum Cash | at least US$5.0m | US$18.4m | US$13.4m |\n"
        "| Minimum ARR | at least US$27.0m | US$32.6m | US$5.6m |\n\n"
        "The Borrower is in compliance with the financial covenants.\n")},
        "What are the covenants and how much headroom is there?")
    assert "| Minimum Cash | at least US$5.0m | US$18.4m | US$13.4m |" in answer, answer
    assert "| Minimum ARR | at least US$27.0m | US$32.6m | US$5.6m |" in answer, answer
    assert "Compliance_Certificate_Jan_2025.md" in answer, answer
