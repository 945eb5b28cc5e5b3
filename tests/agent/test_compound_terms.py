"""A question's compound line item is matched as a unit, and words are one word only when they
share a root (issue 25, wrong figures): "currency" is no "current", "actually" no "actuarial",
"tax" is "taxes"; a row sharing only the loose words of two other terms ("cash flow hedges" under
"Comprehensive income") is not the income tax paid. The passages are written for the tests."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.relevance import content_terms, stems_of, term_in
from manda.agent.spans import rank_spans


def test_words_that_only_begin_alike_are_two_words() -> None:
    for asked, said in [("currency", "current"), ("actually", "actuarial"),
                        ("interest", "international"), ("compare", "company")]:
        (term,) = content_terms(asked)
        assert not term_in(term, stems_of(said)), (asked, said)


def test_forms_of_one_word_share_their_root() -> None:
    for asked, said in [("employees", "employment"), ("salaries", "salary"),
                        ("compensation", "compensated"), ("reduce", "reduction"),
                        ("tax", "taxes"), ("resolving", "resolution"),
                        ("acquire", "acquisition")]:
        (term,) = content_terms(asked)
        assert term_in(term, stems_of(said)), (asked, said)
    assert term_in("employe", {"employment"}) and not term_in("currenc", {"current"})


_COMPREHENSIVE = (
    "Consolidated Statements of Comprehensive Income (millions)\n2025 | 2024\n"
    "Net earnings | 2025: $3,710 | 2024: $4,091\n"
    "Currency translation adjustment and cash flow hedges | 2025: (20) | 2024: (20)\n"
    "Comprehensive income | 2025: $3,746 | 2024: $4,093")
_TAXES = (
    "Income Taxes\nProvision for income taxes (millions)\n2025 | 2024\n"
    "Current federal | 2025: $819 | 2024: $1,013\n"
    "Total provision | 2025: $1,062 | 2024: $1,170\n"
    "Total income taxes paid $1,091\n"
    "We made cash payments of $1,055 million for income taxes, net of refunds, during 2024.")
_OPERATIONS = (
    "Consolidated Statements of Operations (millions)\n2025 | 2024\n"
    "Operating income | 2025: $5,113 | 2024: $5,566\n"
    "Net other income | 2025: (96) | 2024: (104)\n"
    "Earnings before income taxes | 2025: 4,767 | 2024: 5,261\n"
    "Provision for income taxes | 2025: 1,062 | 2024: 1,170\n"
    "Net earnings | 2025: $3,705 | 2024: $4,091")
_PENSION = ("As of year end, pretax net actuarial losses recorded in other comprehensive income "
            "totaled $857 million and $939 million, respectively.")


def test_the_income_tax_paid_leads_over_a_row_of_its_loose_words() -> None:
    evidence = _evidence(_OPERATIONS, _COMPREHENSIVE, _PENSION, _TAXES)
    ask = _ask("How much income tax did the company actually pay in cash in 2025?")
    top = rank_spans(ask.frame, evidence)[0]
    assert "1,091" in top.text, top.text


def test_taxes_paid_is_asked_with_the_company_between_its_words() -> None:
    federal = _ask("Federal income taxes the company paid in 2025?")
    assert "income taxes paid" in federal.frame.subjects
    assert "income taxes paid" in _ask("How much income tax did it pay in 2025?").frame.subjects


_LEASES = (
    "Lease cost recognized in our statements of operations is as follows (in millions):\n"
    "2024 | 2025\n"
    "Operating lease cost | 2024: $900 | 2025: $1,000\n"
    "Finance lease cost:\n2024 | 2025\n"
    "Amortization of lease assets | 2024: 320 | 2025: 300\n"
    "Interest on lease liabilities | 2024: 30 | 2025: 30\n"
    "Finance lease cost | 2024: 350 | 2025: 330\n"
    "Variable lease cost | 2024: 200 | 2025: 210\n"
    "Total lease cost | 2024: $1,450 | 2025: $1,540")


def test_a_heading_closes_at_the_row_that_totals_it() -> None:
    evidence = _evidence(_LEASES)
    ask = _ask("What was the company's variable lease cost in 2025?")
    groups = {s.row.label: s.group for s in rank_spans(ask.frame, evidence) if s.row is not None}
    assert groups["Finance lease cost"] == "Finance lease cost:"
    assert not groups["Variable lease cost"] and not groups["Total lease cost"]


def test_a_lease_cost_is_no_finance_lease_liability() -> None:
    evidence = _evidence(
        _LEASES, "Interest expense was $2.4 billion in 2025 and was primarily related to debt "
        "and finance leases.")
    assert "lease cost" in _ask("Company finance lease cost 2025?").frame.subjects
    top = rank_spans(_ask("Company finance lease cost 2025?").frame, evidence)[0]
    assert top.row is not None and top.row.label == "Finance lease cost", top.text


def test_cash_paid_for_interest_is_a_line_item_not_cash_spent() -> None:
    frame = _ask("Company cash paid for interest in 2025?").frame
    assert frame.subjects == ("interest paid",)
    # the cash spent is no balance asked: what it went on is (the acquisitions, net of cash)
    assert _ask("How much cash did the company spend on acquisitions in 2025?").frame.subjects \
        == ("acquisitions paid",)
    evidence = _evidence(
        "Supplemental cash flow information (in millions)\n2025 | 2024\n"
        "Cash paid for income taxes | 2025: $512 | 2024: $498\n"
        "Cash paid for interest | 2025: 165 | 2024: 125",
        "Interest expense was $240 million in 2025, primarily related to our notes.")
    assert "165" in rank_spans(frame, evidence)[0].text


_RECONCILIATION = (
    "Reconciliation of Non-GAAP Financial Measures\n"
    "Return on Invested Capital (dollars in millions)\n"
    "Trailing Twelve Months December 31, 2025 December 31, 2024\n"
    "Operating income $4,117 $4,566\n"
    "+ Net other income 95 106\n"
    "EBIT 4,212 4,672\n"
    "- Income taxes (a) 1,199 1,297\n"
    "(a)Calculated using the effective tax rates, which were 22.3 percent and 22.2 percent for "
    "the trailing twelve months ended December 31, 2025, and December 31, 2024, respectively. "
    "For the\n"
    "trailing twelve months ended December 31, 2025, and December 31, 2024, includes tax effect of "
    "$1.2 billion and $1.3\nbillion, respectively, related to EBIT.")


def test_a_non_gaap_row_of_a_reconciliation_leads_over_its_footnote() -> None:
    evidence = _evidence(_RECONCILIATION)
    ask = _ask("What was the company's EBIT for the trailing twelve months ended December 31, "
               "2025?")
    ranked = rank_spans(ask.frame, evidence)
    assert ranked[0].text.startswith("EBIT 4,212"), ranked[0].text
    assert any(s.footnote for s in ranked)


def test_a_row_of_two_year_ends_compares_them() -> None:
    evidence = _evidence(
        "Consolidated Balance Sheets (in millions)\nDecember 31, 2025 | December 31, 2024\n"
        "Inventories | December 31, 2025: 5,718 | December 31, 2024: 7,286\n"
        "Total current assets | December 31, 2025: 147,957 | December 31, 2024: 152,987")
    ask = _ask("How did the company's inventories at the end of 2025 compare with a year earlier?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and top.row.label == "Inventories"
    assert "compare" in ask.frame.ranking.terms and top.words >= 0.5, top.words
