"""A facility's size, drawn amount and headroom, told apart in English and German sentences: the
size is never stored as debt."""

from __future__ import annotations

import pytest
from test_offline_extractor import extract

from manda.finance.amounts import find_amounts
from manda.finance.facilities import FacilityRole, facility_roles
from manda.models import Location, Section


def roles(text: str) -> list[tuple[str, str, str]]:
    return [(f.amount.text, f.role.value, f.facility)
            for f in facility_roles(text, 0, len(text), find_amounts(text))]


@pytest.mark.parametrize(("text", "expected"), [
    ("Facilities agreement dated 14 June 2023: a term loan of £5.0m, £4.5m outstanding at "
     "31 March 2024, and a revolving credit facility of £1.5m, of which £0.5m was drawn.",
     [("£5.0m", "facility limit", "term loan"), ("£4.5m", "drawn", "term loan"),
      ("£1.5m", "facility limit", "revolving credit facility"),
      ("£0.5m", "drawn", "revolving credit facility")]),
    ("As of December 31, 2023, total commitments under the Credit Agreement were $50.0 "
     "million, of which $12.0 million was outstanding.",
     [("$50.0 million", "facility limit", "credit facility"),
      ("$12.0 million", "drawn", "credit facility")]),
    ("Die Kreditlinie über EUR 2,0 Mio. war zum 31.12.2023 mit EUR 0,8 Mio. in Anspruch "
     "genommen.",
     [("EUR 2,0 Mio.", "facility limit", "credit line"), ("EUR 0,8 Mio.", "drawn", "credit line")]),
    ("The company has a £2.0m overdraft facility, of which £1.2m was undrawn at the year end.",
     [("£2.0m", "facility limit", "overdraft"), ("£1.2m", "facility headroom", "overdraft")]),
    ("Bank loans: a term loan from Aire Valley Bank plc of £4.5m repayable to June 2028, and "
     "£0.5m drawn under a revolving credit facility.",
     [("£4.5m", "drawn", "term loan"), ("£0.5m", "drawn", "revolving credit facility")]),
    # a term loan is drawn in full when it is made: its amount is debt
    ("Term loan of EUR 4.0 million from Isartal Bank AG, drawn in July 2022.",
     [("EUR 4.0 million", "drawn", "term loan")]),
    ("The credit agreement also provides a $10.0 million revolving credit facility; at "
     "December 31, 2023, $3.5 million was drawn under it.",
     [("$10.0 million", "facility limit", "revolving credit facility"),
      ("$3.5 million", "drawn", "revolving credit facility")]),
    # a credit agreement's commitments: the principal a lender agrees to lend is the size
    ("The Lenders agree to make a senior term loan to the Borrower in an original principal "
     "amount of $45,000,000 on the Effective Date.",
     [("$45,000,000", "facility limit", "term loan")]),
    ("Revolving loans may be borrowed during the Availability Period in an aggregate principal "
     "amount not to exceed $15,000,000.",
     [("$15,000,000", "facility limit", "revolving credit facility")]),
    # a drawing under a facility that carries its own size is that facility's drawing
    ("At year end $12.0 million was outstanding on the term loan and $2.5 million was drawn "
     "under the "
     "$20.0 million revolving credit facility.",
     [("$12.0 million", "drawn", "term loan"),
      ("$2.5 million", "drawn", "revolving credit facility"),
      ("$20.0 million", "facility limit", "revolving credit facility")]),
    ("Revenue was €5.2M in Q3 2024.", []),
    # a balance of several loans, not one facility's size
    ("Bank loans and overdrafts of £5.0m at 31 March 2024.", []),
    ("Arrangement fees of £50,000 were paid on the facility.", []),
])
def test_each_amount_gets_its_role_and_facility(text: str, expected: list) -> None:
    assert roles(text) == expected
    assert FacilityRole.LIMIT.value == "facility limit"


def test_the_size_is_stored_as_a_facility_limit_not_debt() -> None:
    text = ("As of December 31, 2023, total commitments under the Credit Agreement were $50.0 "
            "million, of which $12.0 million was outstanding. Headroom under the revolving "
            "credit facility was $38.0 million.")
    findings, _, _ = extract("Credit_Agreement_Summary.pdf", [
        Section(text=text, location=Location.for_page(3))])
    read = {(f.subject, f.entity, f.value, f.period) for f in findings}
    read |= {(f.subject, f.entity, f.value, "") for f in findings}
    assert ("facility limit", "credit facility", 50_000_000, "as of 2023-12-31") in read
    assert ("debt", "credit facility", 12_000_000, "as of 2023-12-31") in read
    assert ("facility headroom", "revolving credit facility", 38_000_000, "") in read
    assert not [f for f in findings if f.subject == "debt" and f.value == 50_000_000]


def test_a_balance_takes_the_date_it_stood_at() -> None:
    text = ("Facilities agreement dated 14 June 2023: a term loan of £5.0m, £4.5m outstanding at "
            "31 March 2024.")
    findings, _, _ = extract("Facilities.pdf", [Section(text=text, location=Location.for_page(1))])
    drawn = [f for f in findings if f.subject == "debt"]
    assert [(f.value, f.period, f.label) for f in drawn] == [
        (4_500_000, "as of 2024-03-31", "Term loan drawn")]


def _read(text: str, *sections: str) -> set[tuple[str, str | None, float | None, str | None]]:
    parsed = [Section(text=t, location=Location.for_page(i + 1))
              for i, t in enumerate((*sections, text))]
    findings, _, _ = extract("Loan_Notes.pdf", parsed)
    return {(f.subject, f.entity, f.value, f.period) for f in findings}


def test_a_balance_is_dated_where_it_stood_not_when_the_agreement_was_signed() -> None:
    read = _read("Under the Facility Agreement dated 2 May 2022 with Tamar Bank, the Group had "
                 "£8.0m outstanding under the term loan and £1.0m drawn under the £3.0m revolving "
                 "credit facility as at 31 December 2024.")
    assert ("debt", "term loan", 8_000_000, "as of 2024-12-31") in read
    # what is drawn on a revolver is the revolver line, as a table's "RCF drawn" row
    assert ("revolver", None, 1_000_000, "as of 2024-12-31") in read
    assert not [r for r in read if r[3] == "as of 2022-05-02" and r[0] in ("debt", "revolver")]


def test_a_term_loans_original_principal_is_its_size_at_signing() -> None:
    read = _read("On the Closing Date the Lenders shall make a term loan in an aggregate "
                 "principal amount of $45,000,000.",
                 "SENIOR CREDIT AGREEMENT\ndated as of September 1, 2022 between Orion Pumps LLC "
                 "and Harbor National Bank")
    assert ("facility limit", "term loan", 45_000_000, "as of 2022-09-01") in read
    assert not [r for r in read if r[0] == "debt"]
    # the same in one sentence: the agreement's date, not the balance date after it
    read = _read("Facility letter dated 3 March 2021: a term loan of EUR 6.0m, EUR 4.8m "
                 "outstanding at 30 June 2024.")
    assert ("facility limit", "term loan", 6_000_000, "as of 2021-03-03") in read
    assert ("debt", "term loan", 4_800_000, "as of 2024-06-30") in read


def test_debt_less_cash_is_net_debt() -> None:
    read = _read("As of March 31, 2025, Total Debt minus unrestricted cash was $18.2 million.")
    assert ("net debt", None, 18_200_000, "as of 2025-03-31") in read


def test_a_table_row_and_a_sentence_on_the_same_balance_keep_the_facility() -> None:
    parsed = [Section(text="Term loan | 31 Dec 2024: 8,000\nCash | 31 Dec 2024: 1,200",
                      location=Location.for_page(2), table=[["£000", "31 Dec 2024"],
                                                            ["Term loan", "8,000"],
                                                            ["Cash", "1,200"]]),
              Section(text="The Group had £8.0m outstanding under the term loan at 31 December "
                           "2024.", location=Location.for_page(2))]
    findings, _, _ = extract("Accounts.pdf", parsed)
    debt = [f for f in findings if f.subject == "debt" and f.value == 8_000_000]
    assert [(f.entity, f.period) for f in debt] == [("term loan", "as of 2024-12-31")]


@pytest.mark.parametrize(("text", "expected"), [
    # a French crédit syndiqué: each crédit's principal, the revolver's drawn amount
    ("Les Prêteurs consentent : (a) un prêt amortissable d'un montant maximum en principal de "
     "12 000 000 € ; (b) un crédit renouvelable d'un montant maximum en principal de "
     "3 000 000 €.",
     [("12 000 000 €", "facility limit", "term loan"),
      ("3 000 000 €", "facility limit", "revolving credit facility")]),
    ("dont prêt 7 500,0 K€ et crédit renouvelable tiré à hauteur de 900,0 K€.",
     [("900,0 K€", "drawn", "revolving credit facility")]),
    # a Spanish préstamo sindicado: its tramos, and a línea de crédito renovable
    ("Los bancos conceden una financiación por importe máximo de 20.000.000 euros: (a) Tramo A, "
     "préstamo amortizable, por importe de 14.000.000 euros; (b) Tramo B, línea de crédito "
     "renovable, por importe de 6.000.000 euros.",
     [("20.000.000 euros", "facility limit", "term loan"),
      ("14.000.000 euros", "drawn", "term loan"),
      ("6.000.000 euros", "facility limit", "revolving credit facility")]),
])
def test_french_and_spanish_facilities_read_in_their_own_words(
        text: str, expected: list[tuple[str, str, str]]) -> None:
    assert roles(text) == expected
