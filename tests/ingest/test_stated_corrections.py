"""Corrections stated in the text create SUPERSEDES even when file names carry no version marker."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from manda.app import Manda
from manda.config import Settings
from manda.ingest.corrections import find_correction_statements, resolve_correction_target
from manda.models import (
    Document,
    FindingStatus,
    Location,
    ParsedDocument,
    RelationType,
    Section,
)
from manda.timeline import timeline_for_deal


def _parsed(text: str, doc_date: date) -> ParsedDocument:
    return ParsedDocument(filename="x.md", file_type="md", units=1, doc_date=doc_date,
                          sections=[Section(text=text, location=Location.for_section("Note"))])


def _doc(n: int, filename: str, doc_date: date | None) -> Document:
    return Document(id=f"d{n}", deal_id="deal", filename=filename, content_hash=str(n),
                    file_type="pdf", size_bytes=1, version_family=filename, doc_date=doc_date)


def test_statements_are_found_only_where_a_document_is_replaced() -> None:
    said = [
        "This version corrects the FY2023 EBITDA stated in the annual report of 12 March 2024.",
        "This memorandum supersedes our draft legal due diligence report dated 3 May 2024.",
        "Replaces the forecast dated January 2024.",
    ]
    not_said = [
        "The company replaced its ERP system in 2022.",
        "Figures were restated in this report to reflect IFRS 16.",
        "We corrected the customer's invoice in March.",
        "The board reviewed the draft budget.",
        "Note: FY2023 EBITDA of 2,900 agrees with the corrected annual report dated 15 April 2024.",
        "See the revised forecast dated 1 September 2024 for the outlook.",
    ]
    for text in said:
        assert find_correction_statements(_parsed(text, date(2024, 6, 1))), text
    for text in not_said:
        assert not find_correction_statements(_parsed(text, date(2024, 6, 1))), text
    (statement,) = find_correction_statements(_parsed(said[0], date(2024, 6, 1)))
    assert statement.target_start == date(2024, 3, 12)  # the report's date, not FY2023


def test_target_is_the_older_document_of_that_date_and_ambiguity_gives_none() -> None:
    newer = _doc(0, "Restatement_Note.pdf", date(2024, 4, 20))
    report = _doc(1, "AR_FY23.pdf", date(2024, 3, 12))
    deck = _doc(2, "Investor_Deck.pptx", date(2024, 3, 1))
    (statement,) = find_correction_statements(_parsed(
        "This version corrects the FY2023 EBITDA stated in the annual report of 12 March 2024.",
        date(2024, 4, 20)))
    assert resolve_correction_target(statement, newer, [newer, report, deck]) == report
    (vague,) = find_correction_statements(_parsed("This note replaces the earlier version.",
                                                  date(2024, 4, 20)))
    assert resolve_correction_target(vague, newer, [newer, report, deck]) is None


async def test_stated_correction_supersedes_figures_instead_of_conflicting(tmp_path: Path) -> None:
    room = tmp_path / "room"
    room.mkdir()
    (room / "Jahresbericht_GJ2023.md").write_text(
        "# Annual report 2023\n\nDate: 12 March 2024\n\n"
        "EBITDA for FY2023 was EUR 3.1 million. Revenue for FY2023 was EUR 18.4 million.\n",
        encoding="utf-8")
    (room / "Note_to_shareholders.md").write_text(
        "# Note to shareholders\n\nDate: 20 April 2024\n\n"
        "This note corrects the FY2023 EBITDA stated in the annual report of 12 March 2024. "
        "EBITDA for FY2023 was EUR 2.9 million.\n", encoding="utf-8")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("acme", [room])
        relations = await app.graph.list_relations("acme", type=RelationType.SUPERSEDES)
        docs = {d.id: d.filename for d in await app.graph.list_documents("acme")}
        (doc_rel,) = [r for r in relations if r.between == "document"]
        assert (docs[doc_rel.source_id], docs[doc_rel.target_id]) == (
            "Note_to_shareholders.md", "Jahresbericht_GJ2023.md")
        assert "corrects the FY2023 EBITDA" in doc_rel.reason
        contradicts = await app.graph.list_relations("acme", type=RelationType.CONTRADICTS)
        assert contradicts == []
        old = [f for f in await app.graph.list_findings("acme", subject="ebitda")
               if docs[f.document_id] == "Jahresbericht_GJ2023.md"]
        assert old and all(f.status is FindingStatus.SUPERSEDED for f in old)
        timeline = await timeline_for_deal(app.graph, "acme")
    (issued,) = [e for e in timeline.events if e.kind == "correction"]
    assert issued.label == "2024-04-20" and issued.title.startswith("Correction issued")
    assert "corrects the FY2023 EBITDA" in issued.citations[0].excerpt


def test_a_dated_document_said_to_have_overstated_a_figure_is_corrected() -> None:
    minutes = _doc(0, "Board minutes 21 May 2024.docx", date(2024, 5, 21))
    update = _doc(1, "Trading update Q4.md", date(2024, 4, 12))
    deck = _doc(2, "Deck.pptx", date(2024, 3, 1))
    (statement,) = find_correction_statements(_parsed(
        "Correction: the Q4 trading update circulated on 12 April 2024 overstated revenue. An "
        "invoice of £0.4m had been entered twice.", date(2024, 5, 21)))
    assert statement.target_start == date(2024, 4, 12)
    assert resolve_correction_target(statement, minutes, [minutes, update, deck]) == update
    for judgement in ("The budget of January 2024 overstated growth.",
                      "Revenue was overstated by the customer in March 2024.",
                      "The auditors found that inventory was overstated.",
                      "The trading update overstated revenue."):
        assert not find_correction_statements(_parsed(judgement, date(2024, 5, 21))), judgement


def test_a_french_correction_email_names_the_reporting_it_replaces() -> None:
    """"Annule et remplace", "est corrigé": a French correction is read like an English one."""
    mail = ("Objet : Rectificatif EBE mars 2025\nBonjour,\nLe présent courriel annule et remplace "
            "le reporting mensuel de mars 2025 diffusé le 14/04/2025.\nCordialement,")
    (statement,) = find_correction_statements(_parsed(mail, date(2025, 4, 22)))
    assert statement.target_start == date(2025, 4, 14)
    assert {"reporting", "mensuel", "mars", "2025"} <= set(statement.target_words)
    passive = "L'EBE figurant dans le reporting mensuel de mars 2025 est corrigé à 1 180 K€."
    (stated,) = find_correction_statements(_parsed(passive, date(2025, 4, 22)))
    assert {"reporting", "mars"} <= set(stated.target_words)
    reporting = _doc(1, "Reporting_mensuel_mars_2025.xlsx", None)
    budget = _doc(2, "Budget_2025.xlsx", None)
    newer = _doc(0, "Rectificatif.eml", date(2025, 4, 22))
    assert resolve_correction_target(stated, newer, [reporting, budget, newer]) is reporting
    agrees = "L'EBE de mars 2025 concorde avec le reporting qui remplace le projet du 14/04/2025."
    assert not find_correction_statements(_parsed(agrees, date(2025, 4, 22)))
