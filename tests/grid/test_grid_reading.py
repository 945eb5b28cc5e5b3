"""The grid's readers in small: columns from a person's words in any language, durations and
notice periods, caps, laws' places, a document rebuilt as clauses with their places from its
stored passages, parties and the target, and the gate refusing what a quote does not say."""

from __future__ import annotations

import pytest

from manda.evals.grid_truth import matches
from manda.grid.columns import parse_columns
from manda.grid.gate import ground
from manda.grid.offline import OfflineReader, Reading
from manda.grid.parties import parties_of, target_of
from manda.grid.passages import read_document
from manda.grid.values import cap_of, durations_in, jurisdiction_of, notice_in, shown_of
from manda.models import CellStatus, Chunk, Document, GridCell, Location
from manda.vocabulary.grid import grid_vocabulary


@pytest.mark.parametrize(("words", "keys"), [
    ("counterparty, term, change of control", ["counterparty", "term", "change_of_control"]),
    ("term and renewal; MFN", ["term", "renewal", "most_favoured_nation"]),
    ("Kontrollwechsel, Laufzeit, droit applicable",
     ["change_of_control", "term", "governing_law"]),
    ("Change of Control, change of control", ["change_of_control"]),
])
def test_columns_from_words(words: str, keys: list[str]) -> None:
    assert [c.key for c in parse_columns(words)] == keys


def test_a_saved_set_and_a_question_of_ones_own() -> None:
    columns = parse_columns("leases, Is the rent reviewed upwards only?")
    assert [c.key for c in columns[:4]] == ["counterparty", "date", "term", "rent"]
    question = columns[-1]
    assert not question.standard and question.type == "text"
    assert question.wording == "is the rent reviewed upwards only?"
    assert question.key == parse_columns("is the  rent reviewed upwards only?")[0].key


@pytest.mark.parametrize(("text", "durations", "notice"), [
    ("for a period of five years", ["60 months"], None),
    ("upon ninety (90) days' prior written notice", ["90 days"], "90 days"),
    ("eine feste Laufzeit von 24 Monaten", ["24 months"], None),
    ("mit einer Frist von drei Monaten zum Ende", ["3 months"], "3 months"),
    ("périodes successives d'un an, moyennant un préavis de trois mois",
     ["12 months", "3 months"], "3 months"),
])
def test_durations_and_notice_in_three_languages(text: str, durations: list[str],
                                                 notice: str | None) -> None:
    assert [d.normal for d in durations_in(text)] == durations
    found = notice_in(text)
    assert (found.normal if found else None) == notice


def test_caps_in_money_or_in_the_charges() -> None:
    assert cap_of("liability shall not exceed USD 5,000,000.").value == {  # type: ignore[union-attr]
        "amount": 5000000.0, "unit": "USD"}
    assert cap_of("Die Haftung ist je Schadensfall auf EUR 500.000 begrenzt.",
                  language="de").value == {"amount": 500000.0, "unit": "EUR",  # type: ignore[union-attr]
                                           "per": "claim"}
    assert cap_of("limited to 150% of the Charges paid in that Contract Year").value == {  # type: ignore[union-attr]
        "amount": 150.0, "unit": "% of annual charges", "per": "contract year"}
    assert cap_of("shall not exceed the total price paid in the six months before the claim"
                  ).value == {"amount": 6.0, "unit": "months of charges"}  # type: ignore[union-attr]
    assert cap_of("Nothing limits liability for death or personal injury.") is None


@pytest.mark.parametrize(("sentence", "place"), [
    ("shall be governed by English law", "England and Wales"),
    ("governed by the laws of the State of New York", "New York"),
    ("Es gilt das Recht der Bundesrepublik Deutschland", "Germany"),
    ("Le contrat est soumis au droit français", "France"),
    ("governed by the laws of the Republic of Cyprus", "Republic of Cyprus"),
])
def test_a_laws_place(sentence: str, place: str) -> None:
    assert jurisdiction_of(sentence) == place


def test_values_read_as_people_read_them() -> None:
    assert shown_of("term", {"months": 36}) == "36 months (3 years)"
    assert shown_of("renewal", {"automatic": True, "period_months": 12, "notice": "90 days"}) \
        == "Automatic, 12 months; 90 days notice"
    assert shown_of("termination", {"terminable": True, "by": "either", "notice": "6 months"}) \
        == "Yes, either party, 6 months notice"
    assert shown_of("cap", {"amount": 2000000.0, "unit": "GBP"}) == "GBP 2,000,000"


def _chunk(ordinal: int, text: str, label: str = "p.1") -> Chunk:
    return Chunk(id=f"d_c{ordinal}", deal_id="x", document_id="d", ordinal=ordinal,
                 section=0 if label == "p.1" else 1,
                 text=f"[Supply.pdf {label}] SUPPLY · contract\n{text}",
                 location=Location.for_page(int(label[2:])))


PAGE = """SUPPLY AGREEMENT

THIS AGREEMENT is made on 2 May 2023 BETWEEN (1) Alder Foods Ltd, a company registered in England
(the Supplier); and (2) Birch Retail plc (the Customer).

12. Termination

12.1 The Customer may terminate this Agreement for convenience on 60 days' written
notice to the Supplier.
12.2 Either party may terminate immediately for material breach.
Alder Foods — confidential | Page 1 of 2"""


def test_a_page_is_read_back_as_clauses_with_their_places() -> None:
    first, second = PAGE[:250], PAGE[200:]  # chunks overlap, as chunking cuts them
    text = read_document([_chunk(0, first), _chunk(1, second)])
    assert [(p.clause, p.heading, p.preamble) for p in text.passages] == [
        (None, "", True), ("12.1", "12. Termination", False), ("12.2", "12. Termination", False)]
    assert text.passages[1].text.startswith("12.1 The Customer may terminate this Agreement "
                                            "for convenience on 60 days' written notice")
    assert text.find("for convenience on 60 days’ written\n notice") is text.passages[1]
    assert text.find("for convenience on 90 days") is None

    parties = parties_of(text)
    assert [(p.name, p.term) for p in parties] == [("Alder Foods Ltd", "Supplier"),
                                                   ("Birch Retail plc", "Customer")]
    assert parties[1].quote == "Birch Retail plc (the Customer)"
    other = [parties[0]]
    assert target_of("alder", [parties, other]) == {"alderfoods"}


@pytest.mark.parametrize(("opening", "named"), [
    ("ENTRE LES SOUSSIGNÉS :\n\nHydro Services Rhône SAS, société par actions simplifiée, "
     "ci-après dénommée « le Prestataire », ET Fernhill Components Ltd, ci-après dénommée "
     "« le Client ».",
     [("Hydro Services Rhône SAS", "Prestataire"), ("Fernhill Components Ltd", "Client")]),
    ("This Agreement is made between Oldcastle Water Authority, hereinafter referred to as "
     "\"the Customer\", and Fernhill Components Ltd (the Supplier).",
     [("Oldcastle Water Authority", "Customer"), ("Fernhill Components Ltd", "Supplier")]),
    ("Zwischen der Kessler Gusstechnik GmbH, Duisburg, nachfolgend „Lieferant“, und der "
     "Fernhill Components Ltd (im Folgenden der Besteller).",
     [("Kessler Gusstechnik GmbH", "Lieferant"), ("Fernhill Components Ltd", "Besteller")]),
])
def test_a_partys_defined_term_after_the_words_pointing_to_it(
        opening: str, named: list[tuple[str, str]]) -> None:
    text = read_document([_chunk(0, opening)])
    assert [(p.name, p.term) for p in parties_of(text)] == named


def test_a_cap_in_multiples_of_the_charges_in_three_languages() -> None:
    for sentence, language in [
            ("liability shall not exceed twice the Charges paid in the Contract Year", "en"),
            ("Die Haftung ist auf das Doppelte der im Vertragsjahr gezahlten Vergütung begrenzt.",
             "de"),
            ("La responsabilité est limitée à deux fois les sommes versées par année.", "fr")]:
        cap = cap_of(sentence, language=language)
        assert cap is not None and cap.value["amount"] == 200.0, sentence
        assert cap.value["unit"] == "% of annual charges"


def test_the_gate_refuses_what_the_quote_does_not_say() -> None:
    text = read_document([_chunk(0, PAGE)])
    column = parse_columns("termination for convenience")[0]

    def cell(value: object, quote: str) -> GridCell:
        return GridCell(deal_id="x", document_id="d", column=column.key,
                        wording=column.wording, reader="test", status=CellStatus.STATED,
                        value=value, quote=quote)

    good = ground(cell({"terminable": True, "by": "counterparty", "notice": "60 days"},
                       "The Customer may terminate this Agreement for convenience on 60 days' "
                       "written notice"), column, text)
    assert good.status is CellStatus.STATED and good.clause == "12.1"
    assert good.location is not None and good.location.label == "p.1"
    wrong = ground(cell({"terminable": True, "notice": "90 days"},
                        "The Customer may terminate this Agreement for convenience"), column,
                   text)
    assert wrong.status is CellStatus.UNSUPPORTED and "notice period" in wrong.reason
    absent = ground(cell({"terminable": True, "notice": "60 days"},
                         "The Customer may end it at will on 60 days' notice"), column, text)
    assert absent.reason == "its quote does not stand in the document"


def test_the_vocabulary_gives_every_column_its_words_and_every_set_known_columns() -> None:
    g = grid_vocabulary()
    assert {c.key for c in g.columns} >= set(g.column_sets["contracts"])
    for column in g.columns:
        assert column.label and column.describe and column.question_for("X.pdf")
    assert g.language_of("Der Vertrag hat eine feste Laufzeit von 24 Monaten; Kündigungsfrist "
                         "drei Monate") == "de"


LOAN = """FACILITY AGREEMENT

THIS AGREEMENT is dated 1 March 2024 BETWEEN (1) Alder Foods Ltd (the Borrower); and (2) Rowan
Bank plc (the Lender).

4. Prepayment

4.1 The Borrower may, if it gives the Lender not less than three Business Days' notice, prepay
the whole of the Loan.
4.2 The Lender may cancel the Facility if the Borrower fails to pay any amount when due.

5. Extension

5.1 The parties may extend the Final Repayment Date by twelve months by mutual agreement.

6. Pricing

6.1 No most-favoured lender pricing applies."""


def test_classes_of_wording_a_loan_writes_its_rights_in() -> None:
    """A right to end whose only condition is giving notice, held by the party named first; an
    extension only both parties may agree; business days kept apart; a column ruled out."""
    text = read_document([_chunk(0, LOAN)])
    parties = parties_of(text)
    document = Document(id="d", deal_id="x", filename="Facility.pdf", content_hash="h",
                        file_type="pdf", size_bytes=1, version_family="facility")
    reading = Reading("x", document, text, parties, target_of("alder", [parties, parties[:1]]))
    reader = OfflineReader()
    read = {key: reader.cell(reading, parse_columns(key)[0]) for key in (
        "termination for convenience", "renewal", "most favoured nation")}
    assert read["termination for convenience"].value == {
        "terminable": True, "by": "target", "notice": "3 business days"}
    assert read["renewal"].value == {"automatic": False, "period_months": 12, "option": "mutual"}
    assert shown_of("renewal", read["renewal"].value) == \
        "Option (both parties, by agreement), 12 months"
    assert read["most favoured nation"].value is False


@pytest.mark.parametrize(("text", "normal"), [
    ("not less than five Business Days' prior notice", "5 business days"),
    ("mit einer Frist von zehn Werktagen", "10 business days"),
    ("verlängert sich um jeweils ein weiteres Jahr", "12 months"),
    ("on 30 days' written notice", "30 days"),
])
def test_business_days_stay_business_days_and_a_further_year_is_read(text: str,
                                                                     normal: str) -> None:
    assert [d.normal for d in durations_in(text)] == [normal]


@pytest.mark.parametrize(("truth", "grid", "same"), [
    ("both parties by mutual written agreement", "mutual", True),
    ("either party", "either", True),
    ("counterparty", "either", False),
    ("both parties by mutual written agreement", "either", False),
])
def test_an_options_holder_written_in_words_is_scored_by_who_holds_it(truth: str, grid: str,
                                                                      same: bool) -> None:
    cell = GridCell(deal_id="x", document_id="d", column="renewal", wording="renewal",
                    reader="test", status=CellStatus.STATED, quote="",
                    value={"automatic": False, "period_months": 24, "option": grid})
    want = {"value": {"automatic": False, "period_months": 24, "option": truth}}
    assert matches("renewal", want, cell) is same
