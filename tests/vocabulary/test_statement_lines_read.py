"""The lines every statement of cash flows and of operations prints, read as their line items
in the words filers use (US GAAP tags printed as labels, European wordings): a dividend paid or a
buyback is no cash balance, net cash from operations is no net cash."""

from __future__ import annotations

import pytest

from manda.agent.frame import read_question
from manda.finance.derived import line_item_of as derived_line_item_of
from manda.finance.vocabulary import canonical_subject, metric_spec


@pytest.mark.parametrize(("label", "subject"), [
    ("Research and Development Expense", "research and development"),
    ("R&D expenses", "research and development"),
    ("Forschungs- und Entwicklungskosten", "research and development"),
    ("Frais de recherche et développement", "research and development"),
    ("Gastos de investigación y desarrollo", "research and development"),
    ("Common stock cash dividends paid", "dividends paid"),
    ("Payments for dividends and dividend equivalents", "dividends paid"),
    ("Dividendes versés aux actionnaires", "dividends paid"),
    ("Gezahlte Dividenden", "dividends paid"),
    ("Common stock repurchased", "share repurchases"),
    ("Repurchases of common stock", "share repurchases"),
    ("Rachats d'actions propres", "share repurchases"),
    ("Recompra de acciones propias", "share repurchases"),
    ("Net Cash from Operating Activities", "operating cash flow"),
    # a total that may go either way, as analysts write it: no "net cash"
    ("Net cash used in or provided by operating activities", "operating cash flow"),
    ("Payments for Property, Plant and Equipment", "capex"),
    ("Cost of Goods and Services Sold", "cost of sales"),
])
def test_a_statement_line_is_read_as_its_line_item(label: str, subject: str) -> None:
    assert canonical_subject(label) == subject


@pytest.mark.parametrize(("question", "item"), [
    ("What was the net cash used in or provided by operating activities?", "operating cash flow"),
    ("What was the net cash provided by (used in) investing activities?", "investing cash flow"),
    ("What was the net cash used in or provided by financing activities?", "financing cash flow"),
])
def test_a_cash_flow_total_asked_either_way_is_that_total_not_net_cash(question: str,
                                                                        item: str) -> None:
    assert read_question(question).subjects == (item,)


def test_money_paid_out_is_stated_as_a_positive_amount() -> None:
    for subject in ("dividends paid", "share repurchases", "research and development"):
        spec = metric_spec(subject)
        assert spec is not None and spec.cost and spec.unit_kind == "currency"


@pytest.mark.parametrize("label", ["Cash and cash equivalents", "Net cash", "Dividend yield"])
def test_balances_and_ratios_stay_what_they_were(label: str) -> None:
    assert canonical_subject(label) not in ("dividends paid", "share repurchases")


@pytest.mark.parametrize("label", ["R&D tax credits", "Research and development tax credit",
                                   "R&D incentives receivable"])
def test_an_r_and_d_tax_credit_is_no_r_and_d_expense(label: str) -> None:
    assert canonical_subject(label) != "research and development"


@pytest.mark.parametrize(("label", "item"), [
    ("Contract Revenue", "revenue"),
    ("Revenue from contracts with customers", "revenue"),
    ("Payments for Property, Plant and Equipment", "capex"),
    ("Net Cash from Operating Activities", "operating cash flow"),
])
def test_a_computed_metrics_inputs_are_read_from_tagged_statement_labels(label: str,
                                                                          item: str) -> None:
    assert derived_line_item_of(label, item) > 0
