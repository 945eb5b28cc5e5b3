"""Net cash or net debt: decided from the cash and gross debt of the same date where a room
states both, and only then from the figure's sign (a bracket may be debt shown as a deduction)."""

from __future__ import annotations

from pathlib import Path

from written_room import answer_from


async def _answer(tmp_path: Path, text: str) -> str:
    return await answer_from(tmp_path, {"Statement.md": text}, "What's net debt?")


async def test_a_bracketed_net_debt_with_more_cash_than_debt_is_net_cash(tmp_path: Path) -> None:
    # a US statement brackets negatives: "(1.2)" net debt beside $5.0M cash and $3.8M debt
    answer = await _answer(tmp_path, (
        "# Harbor Instruments, Inc. — Form 10-K\n\nFiscal year ended December 31, 2024.\n\n"
        "## Liquidity\n\n| ($ in millions) | December 31, 2024 |\n|---|---|\n"
        "| Total debt | 3.8 |\n| Cash and cash equivalents | 5.0 |\n| Net debt | (1.2) |\n"))
    assert "a net cash position of $1.2M: cash of $5M exceeds debt of $3.8M" in answer, answer


async def test_a_bracketed_net_debt_with_less_cash_than_debt_is_debt(tmp_path: Path) -> None:
    # a QoE bridge deducts debt: "(3,150)" is £3.15M of net debt, not net cash
    answer = await _answer(tmp_path, (
        "# Project Lark - quality of earnings\n\n## Net debt at 31 March 2024\n\n"
        "| £000 | 31 March 2024 |\n|---|---|\n| Bank loans | (5,000) |\n"
        "| Cash at bank | 1,850 |\n| Net debt | (3,150) |\n"))
    assert "Net debt was £3.15M" in answer, answer
    assert "net cash" not in answer and "cash of £1.85M is less than debt of £5M" in answer


async def test_without_cash_and_debt_of_that_date_the_sign_decides(tmp_path: Path) -> None:
    unbracketed = await _answer(tmp_path / "a", (
        "# Board pack\n\nAs of 30 June 2024, net debt was -€2.1 million.\n"))
    assert "a net cash position of €2.1M" in unbracketed, unbracketed
    bracketed = await _answer(tmp_path / "b", (
        "# Lark bridge\n\n| £000 | 31 March 2024 |\n|---|---|\n| Net debt | (3,150) |\n"))
    assert "net cash" not in bracketed.lower(), bracketed
