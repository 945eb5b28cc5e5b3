"""A row label names a line item by its head, in English, French, German and Spanish.

Every label here is invented for the class (no filing's or room's row): what the label IS decides
its line item, not a word inside a longer label.
"""

from __future__ import annotations

import pytest
from fixtures.extraction import page_findings

from manda.finance.label_heads import another_thing_beside, label_line_item, label_subject
from manda.finance.vocabulary import find_line_items, find_subjects
from manda.ingest.chunking import chunk_document
from manda.ingest.extract.offline import OfflineExtractor
from manda.ingest.parsers.base import table_text
from manda.models import Document, Finding, Location, ParsedDocument, Section

NAMES_IT = [
    # English: qualifiers, segments before the head, periods, units, glosses, numbering
    ("Net sales", "revenue"),
    ("Revenue, net", "revenue"),
    ("Total revenues", "revenue"),
    ("Revenue (€k)", "revenue"),
    ("Revenue €m", "revenue"),
    ("Europe net sales", "revenue"),
    ("Revenue — Nordics", "revenue"),
    ("Subscription revenue FY2024", "revenue"),
    ("Revenues from contracts with customers", "revenue"),
    ("3. Turnover:", "revenue"),
    ("Total operating income (loss)", "ebit"),
    ("Adj. EBITDA", "adjusted ebitda"),
    ("Headcount (FTE, month end)", "headcount"),
    ("Less: cost of goods sold", "cost of sales"),
    ("Current portion of bank borrowings", "debt"),
    ("Term loans, net of unamortised fees", "debt"),
    ("Bank loans and overdrafts", "debt"),
    ("Net income attributable to ordinary shareholders", "net income"),
    ("Cash and cash equivalents at end of year", "cash"),
    ("Provisions: deferred tax", "deferred tax"),
    ("Non-recurring advisory fees", "one-time charges"),
    ("Warehouse relocation (one-off)", "one-time charges"),
    # French and Spanish put the head first
    ("Chiffre d'affaires net", "revenue"),
    ("EBITDA ajusté", "adjusted ebitda"),
    ("Chiffre d'affaires de la zone Benelux", "revenue"),
    ("Ventas netas", "revenue"),
    ("Otros gastos de explotación", "operating expenses"),
    ("Cifra de negocios consolidada 2023", "revenue"),
    # German compounds put the head last; the phrase's complement follows
    ("Umsatzerlöse", "revenue"),
    ("Umsatzerlöse gesamt", "revenue"),
    ("Umsatzerlöse nach Regionen", "revenue"),
    ("II. Personalaufwand", "personnel costs"),
    ("Research and Development Expense", "research and development"),
]

NAMES_NONE = [
    # English: the line item modifies the head, or sits in a complement, or is made another thing
    "Net operating loss carryforwards",
    "Revenue recognition policy",
    "Cash paid for interest, net of amounts capitalised",
    "Cash paid for income taxes",
    "Proceeds from sales of short-term investments",
    "Sales and maturities of marketable securities",
    "Sales of property, plant and equipment",
    "Income tax expense on operating income",
    "Employee headcount costs",
    "Common stock issued, net of shares withheld for employee taxes",
    "Restricted cash",
    "Accrued payroll",
    "Total non-operating income",
    "Bad debt expense",
    "Repayments of term loans",
    "Net increase (decrease) in cash and cash equivalents",
    "Effect of exchange rate changes on cash",
    "Interest rate and cash flow hedges",
    "Net income per diluted share",
    "Net loss attributable to non-controlling interests",
    "Debt securities held to maturity",
    "Operating cash flows from finance leases",
    # French and Spanish: head first, the line item in its complement or made another thing
    "Report de perte d'exploitation",
    "Impôt sur le chiffre d'affaires",
    "Chiffre d'affaires différé",
    "Cessions de titres de participation",
    "Impuestos pagados sobre ventas",
    "Ventas diferidas",
    "Ventas de inmovilizado",
    # German: a compound is one word (its head last), a complement follows the head
    "Umsatzsteuer",
    "Umsatzkostenverfahren",
    "Steuern auf Umsatzerlöse",
    # a balance's movement or its cost is no balance outstanding
    "Repayments of term loans",
    "Proceeds from issuances of senior notes and borrowings",
    "Borrowings issuance costs",
]


@pytest.mark.parametrize(("label", "subject"), NAMES_IT)
def test_a_label_names_the_line_item_it_is(label: str, subject: str) -> None:
    assert label_subject(label) == subject


@pytest.mark.parametrize("label", NAMES_NONE)
def test_a_label_names_no_line_item_it_only_contains(label: str) -> None:
    assert label_subject(label) is None


def test_the_longest_line_item_still_wins_where_the_whole_is_one() -> None:
    """"Unearned revenue" is no revenue, but it is deferred revenue; "Produits constatés
    d'avance" the same in French; a financing cash flow is no operating cash flow."""
    assert label_subject("Unearned revenue - current") == "deferred revenue"
    assert label_subject("Produits constatés d'avance") == "deferred revenue"
    assert label_line_item("Financing cash flows, net") == "financing cash flow"
    assert label_subject("Financing cash flows, net") is None
    assert label_line_item("Net Cash from Investing Activities") == "investing cash flow"


def _extract(rows: list[list[str]]) -> list[Finding]:
    section = Section(text=table_text(rows, ["(in thousands of U.S. dollars)"]),
                      location=Location.for_cell("Data", "A1:C9"), table=rows)
    parsed = ParsedDocument(filename="x", file_type="xlsx", sections=[section], units=1)
    document = Document(id="d1", deal_id="x", filename="Accounts_2024.xlsx", content_hash="h",
                        file_type="xlsx", size_bytes=1, version_family="f")
    return OfflineExtractor().extract(document, parsed, chunk_document(
        parsed, deal_id="x", document_id="d1"))


def test_a_statement_row_becomes_a_finding_of_its_head_only() -> None:
    """An invented income statement and balance sheet: the rows whose label only contains a
    line item give no finding of it; the rows that are the line item do."""
    income = _extract([
        ["", "2024", "2023"],
        ["Total revenues", "58,210", "51,904"],
        ["Sales of marketable securities", "7,300", "6,100"],
        ["Net operating loss carryforwards", "2,400", "2,900"],
        ["Operating income", "9,870", "8,015"],
    ])
    sheet = _extract([
        ["", "Dec 31, 2024", "Dec 31, 2023"],
        ["Cash and cash equivalents", "12,640", "10,330"],
        ["Restricted cash", "1,020", "990"],
        ["Unearned revenue", "4,410", "3,870"],
    ])
    found = {(f.subject, f.attributes.get("row")): f.value for f in income + sheet
             if f.kind == "metric" and f.period in ("FY2024", "as of 2024-12-31")}
    assert found[("revenue", "Total revenues")] == 58_210_000
    assert found[("ebit", "Operating income")] == 9_870_000
    assert found[("cash", "Cash and cash equivalents")] == 12_640_000
    assert found[("deferred revenue", "Unearned revenue")] == 4_410_000
    named = {row for _, row in found}
    assert not named & {"Sales of marketable securities", "Net operating loss carryforwards",
                        "Restricted cash"}


SENTENCES = [
    ("Restricted cash of $3.1 million is held in escrow.", "cash"),
    ("The group had net operating loss carryforwards of $88 million.", "ebit"),
    ("Our revenue recognition policy changed in 2024.", "revenue"),
    ("Of the notes, $41 million were settled in cash and the rest in shares.", "cash"),
    # listed with another thing its figure adds up: the figure is the sum's
    ("Our balances of cash, cash equivalents and restricted deposits, which totaled $14.3 "
     "million, will be sufficient.", "cash"),
    # what is paid out of it
    ("The quarterly cash dividend was $0.26 per share.", "cash"),
    ("Cash and restricted cash totaled $5.1 million at year end.", "cash"),
]


@pytest.mark.parametrize(("sentence", "subject"), SENTENCES)
def test_a_sentence_line_item_made_another_thing_by_its_neighbour(sentence: str,
                                                                  subject: str) -> None:
    found = [(s, a, b) for s, a, b in find_subjects(sentence) if s == subject]
    assert found and all(another_thing_beside(sentence, a, b) for _, a, b in found)


def test_the_cash_paid_for_taxes_is_the_tax_paid_not_cash() -> None:
    """"Cash paid for income taxes" names the income taxes paid (a line item read by its rows,
    never extracted as a finding), so no cash balance is read in it."""
    sentence = "Cash paid for income taxes was $41.2 million in 2024."
    assert [s for s, _, _ in find_line_items(sentence)] == ["income taxes paid"]
    assert not find_subjects(sentence)


def test_the_cash_paid_for_interest_is_the_interest_paid_not_cash() -> None:
    """"Cash paid for interest" names the interest paid, as the taxes paid are named: no cash
    balance is read in it."""
    sentence = "Cash paid for interest was $41.2 million in 2024."
    assert [s for s, _, _ in find_line_items(sentence)] == ["interest paid"]
    assert not find_subjects(sentence)


def test_a_sentence_line_item_stated_plainly_stays_itself() -> None:
    for sentence in ("Cash and cash equivalents were $12.4 million at year end.",
                     "Revenue grew to $51.0 million, and the non-revolving term loan was $9m.",
                     "Le chiffre d'affaires net atteint 12,4 M€.",
                     # a list of line items, a figure each
                     "Revenue and gross profit were $5.0 million and $2.1 million."):
        assert not any(another_thing_beside(sentence, a, b)
                       for _, a, b in find_subjects(sentence)), sentence


@pytest.mark.parametrize("sentence", [
    "The change was primarily due to a $2.10 billion increase in proceeds from issuances of debt.",
    "Repayments of debt of $1.35 billion were made in 2024.",
    "Les remboursements de la dette de 40 millions d'euros ont eu lieu en 2024.",
    "Die Tilgung der Finanzschulden von 120 Mio. EUR erfolgte im Jahr 2024.",
])
def test_a_balances_issuance_or_repayment_in_a_sentence_is_no_balance(sentence: str) -> None:
    assert not [f for f in page_findings(sentence) if f.subject == "debt"]


def test_the_debt_outstanding_stated_plainly_is_kept() -> None:
    sentence = "As of December 31, 2024, total debt outstanding was $5.23 billion."
    found = [f.value for f in page_findings(sentence) if f.subject == "debt"]
    assert found == [5_230_000_000.0]


def test_a_sale_of_an_asset_is_no_sales() -> None:
    """"Sales of investments" and "Sales of businesses" (a cash-flow statement's disposals) are
    not revenue; "Sales of products" is."""
    from manda.finance.label_heads import label_line_item

    assert label_line_item("Sales of investments") is None
    assert label_line_item("Sales of businesses") is None
    assert label_line_item("Sales of fixed assets") is None
    assert label_line_item("Sales of products") == "revenue"


def test_a_negating_prefix_names_no_line_item() -> None:
    """"non-cash" charges are no cash, "non-current" liabilities no current liabilities; a
    prefix joined to another word ("non-GAAP operating income") leaves the item named."""
    assert not any(s == "cash" for s, _, _ in find_line_items(
        "It recorded a one-time non-cash tax benefit of $1.2 billion."))
    assert any(s == "cash" for s, _, _ in find_line_items("Cash was $1.2 billion."))
    assert not find_line_items("Non-cash charges of $4.0 million were recorded.")
    assert any(s == "ebit" for s, _, _ in find_line_items(
        "Non-GAAP operating income was $3.1 billion."))
