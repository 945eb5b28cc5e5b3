"""A figure's identity: a loss is a negative income, a schedule row no balance, signs as printed.

Invented filings of other companies (a loss-making ferry operator, a German Mittelstand group,
a French SaaS, a Spanish retailer): a "Net loss" row or sentence is stored as a negative net
income, a maturity or lease schedule yields no balance for its due years, and "$ (1,204)",
"€ (3,4) Mio." and "(2.1)%" read negative while an em dash is no figure at all.
"""

from __future__ import annotations

import pytest
from fixtures.extraction import page_findings

from manda.finance.amounts import currency_of_document, parse_cell
from manda.finance.signs import names_a_cost, names_a_loss, signed_as_named
from manda.models import Finding


def _findings(text: str) -> list[Finding]:
    return page_findings(text)


def _values(findings: list[Finding], subject: str) -> dict[str | None, float | None]:
    return {f.period: f.value for f in findings if f.subject == subject}


@pytest.mark.parametrize("label, loss", [
    ("Net loss", True),
    ("Loss from operations", True),
    ("Net cash used in operating activities", True),
    ("Loss before income taxes", True),
    ("Net income (loss)", False),
    ("Net cash provided by (used in) operating activities", False),
    ("Operating income", False),
    ("Perte nette de l'exercice", True),
    ("Jahresfehlbetrag", True),
    ("Jahresüberschuss/-fehlbetrag", False),
    ("Pérdida neta", True),
    ("Pérdidas y ganancias", False),
])
def test_a_line_named_for_its_loss_alone(label: str, loss: bool) -> None:
    assert names_a_loss(label) is loss


def test_a_loss_line_is_negative_however_it_is_printed() -> None:
    assert signed_as_named(1204.0, "Net loss") == -1204.0
    assert signed_as_named(-1204.0, "Net loss") == -1204.0
    assert signed_as_named(-1204.0, "Net income (loss)") == -1204.0
    assert signed_as_named(300.0, "Net income (loss)") == 300.0
    # a loss row whose years carry both signs prints each year's sign on purpose
    assert signed_as_named(250.0, "Net loss", [-1204.0, 250.0]) == 250.0


def test_a_net_loss_row_is_a_negative_net_income() -> None:
    found = _findings(
        "Consolidated statements of operations\n"
        "(in thousands of U.S. dollars)\n"
        " | 2023 | 2022\n"
        "Revenue | 412,800 | 377,050\n"
        "Loss from operations | 61,310 | 88,400\n"
        "Net loss | $ (70,115) | $ (94,212)\n")
    assert _values(found, "net income") == {"FY2023": -70_115_000, "FY2022": -94_212_000}
    assert _values(found, "ebit") == {"FY2023": -61_310_000, "FY2022": -88_400_000}
    assert _values(found, "revenue") == {"FY2023": 412_800_000, "FY2022": 377_050_000}


def test_a_net_loss_sentence_is_a_negative_net_income() -> None:
    found = _findings("Harbour Ferries reported a net loss of $18.4 million for fiscal 2024, "
                      "on revenue of $96.2 million.")
    assert _values(found, "net income") == {"FY2024": -18_400_000}
    assert _values(found, "revenue") == {"FY2024": 96_200_000}


def test_a_german_jahresfehlbetrag_is_a_negative_net_income() -> None:
    found = _findings("Der Jahresfehlbetrag 2023 betrug 2,4 Mio. EUR.")
    assert [f.value for f in found if f.subject == "net income"] == [-2_400_000]


def test_cash_used_in_operations_is_a_negative_operating_cash_flow_not_net_cash() -> None:
    found = _findings(
        "Consolidated statements of cash flows\n"
        "(in millions)\n"
        " | 2024 | 2023\n"
        "Net cash used in operating activities | $ (41.2) | $ (12.9)\n"
        "Net cash provided by (used in) investing activities | 5.0 | (3.1)\n")
    assert _values(found, "operating cash flow") == {"FY2024": -41_200_000,
                                                     "FY2023": -12_900_000}
    assert not [f for f in found if f.subject == "net cash"]


@pytest.mark.parametrize("schedule", [
    # years down, "Thereafter" closing them: principal falling due, not the debt at each year end
    "Maturities of borrowings\n(in millions)\nYear ending December 31, | Borrowings\n"
    "2025 | $ 35\n2026 | 40\n2027 | 1,250\nThereafter | 2,900\nTotal | $ 4,225\n",
    # buckets across
    "Contractual obligations\n(in millions)\n | Total | Less than 1 year | 1-3 years | "
    "More than 5 years\nDebt | 4,225 | 35 | 1,290 | 2,900\n",
    # a German lease schedule
    "Fälligkeiten der Finanzverbindlichkeiten (TEUR)\nLaufzeit | Finanzverbindlichkeiten\n"
    "bis zu 1 Jahr | 1.200\n1 bis 5 Jahre | 4.800\nüber 5 Jahre | 2.000\n",
])
def test_a_schedules_rows_are_no_balance(schedule: str) -> None:
    found = _findings(schedule)
    assert not [f for f in found if f.subject == "debt"]


def test_a_balance_sheet_with_amounts_due_within_a_year_is_still_read() -> None:
    found = _findings(
        "Balance sheet\n(£000)\n | 2024 | 2023\n"
        "Creditors: amounts falling due within one year | 4,100 | 3,900\n"
        "Cash at bank and in hand | 2,150 | 1,980\n")
    assert _values(found, "cash") == {"as of 2024-12-31": 2_150_000,
                                      "as of 2023-12-31": 1_980_000}


@pytest.mark.parametrize("cell, value, currency", [
    ("$ (1,204)", -1_204_000.0, "USD"),
    ("$(1.0) billion", -1e9, "USD"),
    ("€ (3,4) Mio.", -3_400_000.0, "EUR"),
    ("$ 27", 27_000.0, "USD"),
    ("(2.1)%", -2.1, None),
])
def test_spaced_and_parenthesised_signs(cell: str, value: float, currency: str | None) -> None:
    amount = parse_cell(cell, scale=1e3)
    assert amount is not None and amount.value == pytest.approx(value)
    assert amount.currency == currency


@pytest.mark.parametrize("cell", ["—", "$ —", "–"])
def test_an_em_dash_is_no_figure_not_zero(cell: str) -> None:
    assert parse_cell(cell, scale=1e3) is None


def test_a_figure_named_after_a_nearer_amount_is_not_the_metric() -> None:
    """"fines of up to €20 million or 4% of total worldwide revenue": the revenue is the 4%'s."""
    found = _findings("Harbour Ferries could face fines of up to €20 million or 4% of total "
                      "worldwide revenue in 2024.")
    assert not [f for f in found if f.subject == "revenue"]


def test_a_document_s_currency_is_the_one_its_figures_use_not_a_stray_word() -> None:
    assert currency_of_document([
        "Under the GDPR, fines reach €20 million.",
        "Revenue was $412.8 million, up from $377.1 million; net loss was $70.1 million.",
        "Cash of $96.2 million and $12.0 million of restricted cash.",
    ]) == "USD"
    found = _findings("Regulation in Europe\nOur euro-denominated notes are hedged.\n"
                      " | 2024 | 2023\nRevenue | 412.8 | 377.1\n\n"
                      "Revenue grew to $412.8 million from $377.1 million.")
    assert {f.unit for f in found if f.subject == "revenue"} <= {None, "USD"}


def test_a_schedule_written_as_text_states_no_balance() -> None:
    """A maturity table a PDF left as flowing text: its years are when each amount falls due."""
    found = _findings(
        "The future principal payments on our borrowings as of December 31, 2024 are as "
        "follows (in millions): Year Ending December 31, 2025 $ 35 2026 40 2027 1,250 "
        "Thereafter 2,900 Total $ 4,225\n\n"
        "As of December 31, 2024, total borrowings were $4.2 billion.")
    assert {(f.period, f.value) for f in found if f.subject == "debt"} == {
        ("as of 2024-12-31", 4_200_000_000)}


def test_a_p_and_l_row_is_no_balance_and_a_per_share_row_no_total() -> None:
    """"Loss on extinguishment of debt" on a P&L is no debt; "Net loss per share" is no net
    loss."""
    found = _findings(
        "Statements of operations\n(in thousands)\n | 2023 | 2022\n"
        "Revenue | 412,800 | 377,050\nCost of revenue | (200,000) | (190,000)\n"
        "Gross profit | 212,800 | 187,050\nResearch and development | 50,000 | 40,000\n"
        "Loss from operations | (61,310) | (88,400)\n"
        "Loss on extinguishment of debt | (1,200) | —\n"
        "Net loss | (5,000) | 2,000\n"
        "Net loss per share, basic and diluted | (0.50) | 0.20\n")
    assert not [f for f in found if f.subject == "debt"]
    # a loss row whose years carry both signs keeps each
    assert _values(found, "net income") == {"FY2023": -5_000_000, "FY2022": 2_000_000}


def test_a_balance_with_the_part_due_after_a_year_is_still_the_balance() -> None:
    found = _findings("Deferred income was €8.2 million at 31 March 2025 (31 March 2024: "
                      "€7.1 million), of which €0.9 million falls due after more than one year.")
    assert 8_200_000 in {f.value for f in found if f.subject == "deferred revenue"}


@pytest.mark.parametrize(("label", "cost"), [
    ("Stock-based compensation expense", True), ("Interest expense", True),
    ("Restructuring charges", True), ("Charges de personnel", True), ("Gastos de personal", True),
    ("Income tax expense (benefit)", False), ("Other income (expense), net", False),
    ("Net loss", False), ("Provision for (benefit from) income taxes", False),
])
def test_a_line_named_for_what_was_spent(label: str, cost: bool) -> None:
    """A cost a reconciliation deducts ("Stock-based compensation expense (1,168)") is an amount
    spent, stated as such (Uber's had read "-$1.17 billion"); a line netting a benefit or an
    income keeps its sign."""
    assert names_a_cost(label) is cost
