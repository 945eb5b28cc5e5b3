"""The three questions issue 10 opened with, and the topic shapes, on the shipped sample deal."""

from __future__ import annotations

from manda.answers import Intent
from manda.app import Manda


async def test_the_first_questions_an_analyst_asks_are_answered(app: Manda) -> None:
    owners = await app.answers.ask("targetco", "Who owns the company?")
    assert "Nordic Growth Fund II" in owners.answer and "Series A preferred" in owners.answer
    assert "add up to 100%" in owners.answer
    assert {c.document for c in owners.citations} == {"TargetCo_Cap_Table.csv"}

    pnl = await app.answers.ask("targetco", "Walk me through the P&L")
    assert pnl.grounded, pnl.answer
    assert "| Line | FY2022 | FY2023 | Sources |" in pnl.answer
    assert "| Line | Q1 2024 | Q2 2024 | Q3 2024 | Sources |" in pnl.answer  # the year so far
    assert "adjusted EBITDA EUR 1.0 million vs reported EUR 0.6 million" in pnl.answer
    assert "not a disagreement between documents" in pnl.answer
    assert "one-time charges €0.4M" in pnl.answer

    company = await app.answers.ask("targetco", "Tell me about the company")
    assert company.intent is Intent.EXPLORATION and company.grounded, company.answer
    assert "subscription platform for production planning" in company.answer
    assert "**Where to drill down**" in company.answer

    plan = await app.answers.ask("targetco", "Compare the Q3 forecast to the actual")
    assert plan.grounded, plan.answer
    assert "| Metric | Period | Forecast / budget | Actual |" in plan.answer
    assert "TargetCo_Board_Minutes_2024-09.txt" in plan.answer  # the forecast's document
    assert "Earlier forecast" not in plan.answer  # not two forecast versions


async def test_a_budget_figure_joins_an_actual_only_when_asked_for(app: Manda) -> None:
    # Pennine holds Q2 FY2025 revenue twice: £3.72M in the management accounts, £3.95M budget.
    actual = await app.answers.ask("pennine", "What was Q2 FY2025 revenue?")
    assert actual.grounded and "£3.72M" in actual.answer, actual.answer
    assert "3.95" not in actual.answer and "forecast" not in actual.answer.lower()

    budget = await app.answers.ask("pennine", "What was budgeted revenue for Q2 FY2025?")
    assert budget.grounded, budget.answer
    assert "£3.95M" in budget.answer and "this is a forecast" in budget.answer
    # Pennine's year ends on 31 March: its quarters are written as the fiscal year's
    assert "Actuals for Q2 FY2025 show £3.72M" in budget.answer
    assert "Q2 2025" not in budget.answer.replace("Q2 FY2025", "")


async def test_fiscal_quarters_are_labelled_only_where_the_year_does_not_end_in_december(
        app: Manda) -> None:
    pennine = await app.answers.ask("pennine", "What was Q1 FY2025 revenue?")
    assert "in Q1 FY2025" in pennine.answer, pennine.answer
    targetco = await app.answers.ask("targetco", "What was Q3 2024 revenue?")
    assert "Q3 2024" in targetco.answer and "FY2024" not in targetco.answer, targetco.answer


async def test_net_cash_is_decided_by_the_cash_and_debt_of_the_same_date(app: Manda) -> None:
    targetco = await app.answers.ask("targetco", "What's net debt?")  # (2,800): €6.8M vs €4.0M
    assert "a net cash position of €2.8M: cash of €6.8M exceeds debt" in targetco.answer
    pennine = await app.answers.ask("pennine", "What's net debt?")  # a QoE bridge's deduction
    assert "Net debt was £3.15M" in pennine.answer and "net cash" not in pennine.answer, (
        pennine.answer)
    northwind = await app.answers.ask("northwind", "What's net debt?")  # states neither
    assert "net cash" not in northwind.answer.lower(), northwind.answer
