"""A room of several companies' documents: each figure is its company's, never another's conflict.

In the filings room (seven issuers' 10-Ks), "What was net income in fiscal 2025?" reported three
issuers' figures as "conflicting sources". Here, invented rooms: two or three companies' reports
(other metrics, another language), and a one-target room beside its parent's annual report.
"""

from __future__ import annotations

from pathlib import Path

from manda.agent.evidence import Evidence
from manda.agent.selection import read_fact
from manda.app import Manda
from manda.config import Settings
from manda.models import (
    Confidence,
    Document,
    Finding,
    FindingKind,
    Location,
    Relation,
    RelationType,
)


def _doc(name: str, company: str) -> Document:
    return Document(id=f"d_{name}", deal_id="peers", filename=name, content_hash=name,
                    file_type="pdf", size_bytes=1, version_family=name, company=company)


def _ebitda(document: Document, value: float, tag: str = "") -> Finding:
    return Finding(id=f"f_{document.id}{tag}", deal_id="peers", document_id=document.id,
                   kind=FindingKind.METRIC, subject="ebitda", label="EBITDA", period="FY2024",
                   value=value, unit="EUR", value_text=f"€{value / 1e6:.1f}M",
                   excerpt=f"EBITDA for FY2024 was €{value / 1e6:.1f}M.",
                   location=Location.for_page(1), confidence=0.9,
                   confidence_level=Confidence.HIGH)


def test_another_companys_figure_is_neither_a_conflict_nor_a_correction() -> None:
    kessler, lumiere, again = (_doc("Kessler.pdf", "Kessler Antriebe AG"),
                               _doc("Lumiere.pdf", "Lumière Emballages SAS"),
                               _doc("Kessler_v2.pdf", "Kessler Antriebe AG"))
    ours, theirs, restated = (_ebitda(kessler, 9_400_000), _ebitda(lumiere, 3_100_000),
                              _ebitda(again, 9_900_000))
    evidence = Evidence(documents={d.id: d for d in (kessler, lumiere, again)},
                        findings={f.id: f for f in (ours, theirs)})
    reading = read_fact(evidence, "ebitda", "FY2024", documents={kessler.id, lumiere.id})
    assert reading is not None and not reading.conflicts
    # Lumière's report "corrects" nothing of Kessler's, even with a stored SUPERSEDES
    evidence.add_relations([Relation(deal_id="peers", type=RelationType.SUPERSEDES,
                                     source_id=theirs.id, target_id=ours.id, between="finding",
                                     reason="invented")])
    reading = read_fact(evidence, "ebitda", "FY2024", documents={kessler.id, lumiere.id})
    assert reading is not None and not reading.corrected_from
    # the same company's two documents that disagree still conflict
    evidence = Evidence(documents={d.id: d for d in (kessler, lumiere, again)},
                        findings={f.id: f for f in (ours, theirs, restated)})
    reading = read_fact(evidence, "ebitda", "FY2024", documents={kessler.id, again.id})
    assert reading is not None and len(reading.conflicts) == 1


def _report(room: Path, name: str, text: str) -> None:
    (room / name).write_text(text, encoding="utf-8")


async def test_a_question_naming_no_company_is_answered_company_by_company(
    tmp_path: Path,
) -> None:
    room = tmp_path / "room"
    room.mkdir()
    for company, form, ebitda, product, assets in (
            ("Quillon Robotics", "Inc.", "48.2", "Sales of robotic arms were $210.4 million",
             "702.5"),
            ("Brightwater", "Inc.", "31.7", "Sales of water filters were $88.1 million", "415.0"),
            ("Orlen Marine", "Corporation", "12.9", "Charter sales were $61.0 million", "233.8")):
        _report(room, f"{company.split()[0]}_annual_report_2024.md",
                f"{company.upper()} {form.upper()}\n"
                "(Exact name of registrant as specified in its charter)\n\n"
                "# Results of operations\n\n"
                f"Adjusted EBITDA was ${ebitda} million in fiscal 2024, compared with the prior "
                f"year.\n\n# Products\n\n{product} in fiscal 2024.\n\n# Financial position\n\n"
                f"Total assets were ${assets} million at the end of fiscal 2024.\n")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("peers", [room])
        documents = await app.graph.list_documents("peers")
        assert sorted(d.company or "" for d in documents) == [
            "Brightwater Inc.", "Orlen Marine Corporation", "Quillon Robotics Inc."]
        every = await app.answers.ask("peers", "What was adjusted EBITDA in fiscal 2024?")
        one = await app.answers.ask("peers", "What was Brightwater's adjusted EBITDA in 2024?")
        # a word only one company's passages say tells whose figure is asked
        arms = await app.answers.ask("peers", "What were robotic arm sales in fiscal 2024?")
        # a line item no metric of the vocabulary names: each company's passage that states it
        assets = await app.answers.ask("peers", "What were total assets at the end of 2024?")
    text = every.answer
    assert text.startswith("By company") and "conflict" not in text.lower()
    for company, figure in (("Quillon Robotics Inc.", "48.2"), ("Brightwater Inc.", "31.7"),
                            ("Orlen Marine Corporation", "12.9")):
        line = next(x for x in text.splitlines() if company in x)
        assert figure in line
    assert {c.document for c in every.citations} == {
        "Quillon_annual_report_2024.md", "Brightwater_annual_report_2024.md",
        "Orlen_annual_report_2024.md"}
    assert "31.7" in one.answer.splitlines()[0] and "48.2" not in one.answer
    assert "conflict" not in one.answer.lower()
    assert "210.4" in arms.answer.splitlines()[0] and "By company" not in arms.answer
    lines = assets.answer.splitlines()
    assert lines[0].startswith("By company") and len(lines) == 4
    for company, figure in (("Quillon", "702.5"), ("Brightwater", "415.0"), ("Orlen", "233.8")):
        assert figure in next(x for x in lines if company in x)


async def test_in_german_each_company_reports_its_own_figure(tmp_path: Path) -> None:
    room = tmp_path / "raum"
    room.mkdir()
    for company, umsatz in (("Kessler Antriebe AG", "84,6"), ("Vogt Hydraulik GmbH", "37,2")):
        _report(room, f"{company.split()[0]}_Geschaeftsbericht_2024.md",
                f"{company} veröffentlicht Ergebnisse für das Geschäftsjahr 2024\n\n"
                f"# Ertragslage\n\nDie Umsatzerlöse betrugen im Geschäftsjahr 2024 "
                f"{umsatz} Mio. EUR.\n")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("vergleich", [room])
        answer = await app.answers.ask("vergleich", "Wie hoch waren die Umsatzerlöse 2024?")
    assert answer.answer.startswith("Nach Gesellschaft")
    assert "84" in answer.answer and "37" in answer.answer
    assert "widersprech" not in answer.answer.lower() and "conflict" not in answer.answer.lower()


async def test_the_target_leads_beside_its_parents_annual_report(tmp_path: Path) -> None:
    room = tmp_path / "room"
    room.mkdir()
    _report(room, "Vertex_Management_Accounts_2024.md",
            "# Management accounts 2024\n\nRevenue was EUR 52.4 million in FY2024, up from "
            "EUR 47.9 million in FY2023.\n")
    _report(room, "Nordhold_Annual_Report_2024.md",
            "Nordhold Group AG – Annual report 2024\n\n# Group results\n\nGroup revenue was "
            "EUR 96.3 million in FY2024. The group acquired a majority of Vertex in 2021.\n")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("vertex", [room])
        own = await app.answers.ask("vertex", "What was revenue in FY2024?")
        parent = await app.answers.ask("vertex", "What was Nordhold's revenue in FY2024?")
        stored = await app.graph.list_relations("vertex", type=RelationType.CONTRADICTS)
    first = own.answer.splitlines()[0]
    assert "52.4" in first and "96.3" not in own.answer
    assert "conflict" not in own.answer.lower() and not stored  # the parent's is its own
    assert "96.3" in parent.answer.splitlines()[0] and "52.4" not in parent.answer


def test_a_word_one_company_says_far_more_often_than_the_others_is_its_own() -> None:
    """"AWS revenue": Amazon's passages say AWS again and again, a customer's risk factor about
    its cloud provider once; the word is Amazon's, so its figure answers (it had been answered
    company by company, with another company's revenue)."""
    from manda.agent.compose.by_company import _owner

    assert _owner({"Amazon.com, Inc.": 7, "Lyft, Inc.": 1}) == "Amazon.com, Inc."
    assert _owner({"Quillon Robotics Inc.": 1, "Brightwater Inc.": 0}) == "Quillon Robotics Inc."
    assert _owner({"Amazon.com, Inc.": 4, "Lyft, Inc.": 2}) is None  # both speak of it
    assert _owner({"Amazon.com, Inc.": 2, "Lyft, Inc.": 0, "Uber": 1}) is None
    assert _owner({"Amazon.com, Inc.": 0}) is None


def test_a_business_no_file_is_named_after_is_its_companys_by_the_passages() -> None:
    """"What was Azure's revenue growth rate?": no file is named after Azure; the company whose
    passages say it again and again is whose question it is, and the room is narrowed to its
    documents (it had been answered with another company's revenue growth)."""
    from manda.agent.compose.by_company import company_saying
    from manda.models import SearchHit

    north, south = _doc("Northbeam_10-K.pdf", "Northbeam Inc."), _doc("Southgate_10-K.pdf",
                                                                        "Southgate Corp.")
    texts = [(north, "Lumen revenue grew 29% driven by consumption."),
             (north, "Lumen and other cloud services revenue grew 29%."),
             (north, "Server products revenue, led by Lumen, increased."),
             (south, "We host our platform on Lumen, a third-party cloud provider."),
             (south, "Revenue grew 12% in 2025."),
             (south, "Subscription revenue was the larger part of revenue.")]
    hits = [SearchHit(chunk_id=f"c{i}", document_id=doc.id, document=doc.filename, text=text,
                      location=Location.for_page(i + 1), score=1.0)
            for i, (doc, text) in enumerate(texts)]
    evidence = Evidence(documents={north.id: north, south.id: south}, hits=hits)
    assert company_saying("Lumen", evidence) == "Northbeam Inc."
    assert company_saying("Revenue", evidence) is None  # both speak of it
    evidence.narrow_to([north.id])
    assert {h.document_id for h in evidence.hits} == {north.id}
    assert evidence.scope == {north.id}
