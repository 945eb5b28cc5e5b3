"""Whose document a file is: the filer or issuer it names itself for, read once at ingestion.

Every text here is invented: covers, headlines and title blocks of companies that do not exist,
in four languages, beside documents that only mention another company (a customer, an auditor).
"""

from __future__ import annotations

from datetime import date

from manda.companies import company_key, company_of, room_companies, same_company
from manda.ingest.relations import plan_relations
from manda.models import (
    Confidence,
    Document,
    Finding,
    FindingKind,
    Location,
    ParsedDocument,
    RelationType,
    Section,
)


def parsed(*pages: str, table: bool = False) -> ParsedDocument:
    sections = [Section(text=text, location=Location.for_page(n),
                        table=[line.split(" | ") for line in text.splitlines()] if table else None)
                for n, text in enumerate(pages, start=1)]
    return ParsedDocument(filename="x.pdf", file_type="pdf", sections=sections, units=len(pages))


def test_a_cover_page_names_its_registrant_above_the_caption() -> None:
    cover = ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-Q\n"
             "For the quarterly period ended March 31, 2025\nCommission File Number 001-40417\n"
             "____________________\nQUILLON ROBOTICS, INC.\n"
             "(Exact name of registrant as specified in its charter)\nDelaware 84-1234567")
    assert company_of(parsed(cover)) == "Quillon Robotics, Inc."
    beside = "FORM 8-K\nNordvik Foods Corp (Exact name of registrant as specified in its charter)"
    assert company_of(parsed(beside)) == "Nordvik Foods Corp"
    # a caption broken over two lines, the name two lines above it
    split = "Harrow Freight Holdings\n(Exact name of Registrant as specified in its\nCharter)"
    assert company_of(parsed(split)) == "Harrow Freight Holdings"


def test_a_cover_field_names_the_issuer_in_its_language() -> None:
    cover = ("Document d'enregistrement universel 2024\n"
             "Dénomination sociale : Lumière Emballages SAS\nSiège social : 12 rue des Tanneurs")
    assert company_of(parsed(cover)) == "Lumière Emballages SAS"
    assert company_of(parsed("Wertpapierprospekt\nName der Emittentin: Kessler Antriebe AG\n"
                             "Sitz: Freiburg")) == "Kessler Antriebe AG"
    assert company_of(parsed("Folleto informativo\nDenominación social: Cerámicas Albero, S.A.\n"
                             "Domicilio: Castellón")) == "Cerámicas Albero, S.A."


def test_an_earnings_release_is_the_company_its_headline_reports_for() -> None:
    release = ("Brightwater Inc. reports second quarter 2025 results\n"
               "Revenue of $412 million, up 9% year over year\n"
               "PORTLAND, Ore. — Brightwater Inc. today announced financial results.")
    assert company_of(parsed(release)) == "Brightwater Inc."
    assert company_of(parsed("Kessler Antriebe AG veröffentlicht Ergebnisse für 2024\n"
                             "Umsatz steigt um 6 %")) == "Kessler Antriebe AG"
    assert company_of(parsed("Lumière Emballages publie ses résultats annuels 2024\n"
                             "Chiffre d'affaires en hausse de 4 %")) == "Lumière Emballages"


def test_a_title_block_names_the_company_with_its_legal_form() -> None:
    accounts = "Vertex Distribution GmbH – Management accounts March 2025\nEUR thousands"
    assert company_of(parsed(accounts)) == "Vertex Distribution GmbH"
    assert company_of(parsed("ORLEN MARINE CORPORATION\nAnnual Report 2024")) == (
        "Orlen Marine Corporation")


def test_a_name_the_text_only_mentions_is_not_its_company() -> None:
    contract = ("Master supply agreement\nThis agreement is made between Vertex Distribution "
                "GmbH and Globex AG, the customer.\nThe auditor, Price & Partners LLP, ...")
    assert company_of(parsed(contract)) is None
    customers = ("Customer | Country | Revenue 2024 (EUR k) | Share\n"
                 "Globex AG | DE | 8,074 | 21.0 %\nInitech Ltd | UK | 4,806 | 12.5 %")
    assert company_of(parsed(customers, table=True)) is None  # a row names its own customer
    assert company_of(parsed("Management accounts\nRevenue was EUR 5.2M in Q3 2024.")) is None


def test_one_company_by_its_names() -> None:
    assert same_company("Uber", "Uber Technologies, Inc.")
    assert same_company("Amazon", "AMAZON.COM, INC.")
    assert not same_company("Target Corporation", "TargetCo GmbH")
    assert not same_company("Apple Inc.", "Amazon.com, Inc.")
    links = [["Globex AG", "Globex Holding"], ["Vertex GmbH", "Project Falcon"]]
    assert same_company("Project Falcon", "Vertex GmbH", links)
    assert company_key("Orlen Marine Corporation") == ("orlen", "marine")


def _doc(name: str, company: str | None) -> Document:
    return Document(id=f"d_{name}", deal_id="deal", filename=name, content_hash=name,
                    file_type="pdf", size_bytes=1, version_family=name, company=company or "",
                    doc_date=date(2025, 3, 1))


def test_a_room_of_one_company_reads_every_document_as_its() -> None:
    docs = [_doc("Accounts.pdf", "Vertex GmbH"), _doc("Budget.xlsx", None)]
    room = room_companies(docs, ("project-falcon", ""))
    assert not room.several and room.same(docs[0].id, docs[1].id)
    assert room.of(docs[1].id) == "Vertex GmbH"
    assert not room_companies([_doc("a.pdf", None)]).several  # nothing named: as before


def test_the_deals_target_owns_the_documents_that_name_no_company() -> None:
    target = _doc("Vertex_Management_Accounts_2024.xlsx", None)
    parent = _doc("Nordhold_Annual_Report_2024.pdf", "Nordhold Group AG")
    room = room_companies([target, parent], ("vertex", "Vertex"))
    assert room.several and room.target == "Vertex"
    assert room.is_target(target.id) and not room.is_target(parent.id)
    assert not room.same(target.id, parent.id)
    # named after its own company: the deal's name picks it among those named
    own = _doc("Accounts.pdf", "Vertex Distribution GmbH")
    room = room_companies([own, parent, _doc("Budget.xlsx", None)], ("vertex", ""))
    assert room.target == "Vertex Distribution GmbH"
    # a code-named deal whose one named document may be its target's: read as before
    room = room_companies([_doc("CIM.pdf", "Vertex GmbH"), _doc("Budget.xlsx", None),
                           _doc("QoE.pdf", None)], ("project-falcon", ""))
    assert not room.several and room.same("d_CIM.pdf", "d_Budget.xlsx")


def test_filers_without_a_target_are_each_their_own() -> None:
    docs = [_doc("a.pdf", "Quillon Robotics, Inc."), _doc("b.pdf", "Quillon Robotics, Inc."),
            _doc("c.pdf", "Brightwater Inc."), _doc("d.pdf", "Orlen Marine Corporation")]
    room = room_companies(docs, ("peers", ""))
    assert room.names() == ["Quillon Robotics, Inc.", "Brightwater Inc.",
                            "Orlen Marine Corporation"]
    assert room.target is None and room.same("d_a.pdf", "d_b.pdf")
    assert not room.same("d_a.pdf", "d_c.pdf")


def _finding(document: Document, value: float) -> Finding:
    return Finding(id=f"f_{document.id}", deal_id="deal", document_id=document.id,
                   kind=FindingKind.METRIC, subject="ebitda", label="EBITDA", period="FY2024",
                   value=value, unit="EUR", value_text=f"€{value / 1e6:.1f}M",
                   excerpt=f"EBITDA for FY2024 was €{value / 1e6:.1f}M" + "." * 40,
                   location=Location.for_page(1), confidence=0.9,
                   confidence_level=Confidence.HIGH)


def test_two_companies_figures_never_contradict_one_another() -> None:
    a, b, c = (_doc("a.pdf", "Kessler Antriebe AG"), _doc("b.pdf", "Lumière Emballages SAS"),
               _doc("c.pdf", "Kessler Antriebe AG"))
    plan = plan_relations([a, b, c], [_finding(a, 9_400_000), _finding(b, 3_100_000),
                                      _finding(c, 9_900_000)])
    contradicts = {frozenset((r.source_id, r.target_id)) for r in plan.relations
                   if r.type is RelationType.CONTRADICTS}
    assert contradicts == {frozenset((f"f_{a.id}", f"f_{c.id}"))}  # Kessler's two, only
