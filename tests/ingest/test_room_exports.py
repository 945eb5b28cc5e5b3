"""A VDR ZIP export ingests with each document's place in the room: folders, an e-mail and its
attachment, a legacy .xls, an archive inside the archive — and every skipped member named."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import pytest
from fixtures.rooms import OFFER_DATE, vdr_export

from manda.app import Manda
from manda.config import Settings
from manda.ingest.expand import room_index, room_tree
from manda.models import DocumentStatus, IngestReport, RelationType

ROOM = "Falcon VDR"


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("vdr")
    return vdr_export(tmp / "falcon-export.zip", tmp / "scratch")


@pytest.fixture
async def ingested(export: Path, tmp_path: Path) -> AsyncIterator[tuple[Manda, IngestReport]]:
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        report = await app.ingest.ingest("falcon", [export])
        yield app, report


async def test_every_document_of_the_export_is_ingested_with_its_place(
    ingested: tuple[Manda, IngestReport],
) -> None:
    app, report = ingested
    prefix = f"falcon-export.zip/{ROOM}"
    assert sorted(report.ingested) == sorted([
        f"{prefix}/1 Corporate/1.1 Articles of Association.md",
        f"{prefix}/2 Financial/2.3 Audited/2.3.1 FY2023 Accounts.pdf",
        f"{prefix}/2 Financial/2.4 Subsidiary/Accounts.pdf",
        f"{prefix}/2 Financial/2.5 Holding/Accounts.pdf",
        f"{prefix}/2 Financial/2.6 Budget 2025.xls",
        f"{prefix}/3 Correspondence/3.1 Revised offer.eml",
        f"{prefix}/3 Correspondence/3.1 Revised offer.eml/Term_Sheet.pdf",
        f"{prefix}/4 Legal/legal.zip/4.1 Litigation.md",
    ])
    docs = {d.path: d for d in await app.graph.list_documents("falcon")}
    accounts = docs[f"{ROOM}/2 Financial/2.3 Audited/2.3.1 FY2023 Accounts.pdf"]
    assert (accounts.filename, accounts.room_index) == ("2.3.1 FY2023 Accounts.pdf", "2.3.1")
    assert docs[f"{ROOM}/4 Legal/legal.zip/4.1 Litigation.md"].room_index == "4.1"
    assert {d.status for d in docs.values()} == {DocumentStatus.COMPLETED}


async def test_hostile_members_and_litter_are_not_written(
    ingested: tuple[Manda, IngestReport], export: Path
) -> None:
    _, report = ingested
    assert [(s.filename, s.reason) for s in report.skipped] == [(
        "falcon-export.zip/../../outside.md",
        "has a path that points outside the archive; refused (an archive may only hold files "
        "inside its own folders)",
    )]
    assert not (export.parent.parent / "outside.md").exists()


async def test_files_named_alike_in_two_folders_are_cited_by_their_place(
    ingested: tuple[Manda, IngestReport],
) -> None:
    app, _ = ingested
    names = {d.filename for d in await app.graph.list_documents("falcon")}
    assert {"2.4 Subsidiary/Accounts.pdf", "2.5 Holding/Accounts.pdf"} <= names
    supersedes = await app.graph.list_relations("falcon", type=RelationType.SUPERSEDES)
    assert not [r for r in supersedes if r.between == "document"]  # neither replaces the other

    hits = await app.search.search("falcon", "TargetCo Polska revenue FY2023", k=3)
    assert hits[0].document == "2.4 Subsidiary/Accounts.pdf"


async def test_email_keeps_its_headers_and_its_attachment_is_linked(
    ingested: tuple[Manda, IngestReport],
) -> None:
    app, _ = ingested
    docs = {d.filename: d for d in await app.graph.list_documents("falcon")}
    mail, sheet = docs["3.1 Revised offer.eml"], docs["Term_Sheet.pdf"]
    assert mail.metadata == {
        "from": "Anna Berg <anna.berg@adviser.example>",
        "to": "deal-team@buyer.example",
        "cc": "cfo@targetco.example",
        "subject": "Falcon: revised offer and term sheet",
        "date": OFFER_DATE.isoformat(),
    }
    assert mail.doc_date == date(2024, 5, 14)
    attached = await app.graph.list_relations("falcon", type=RelationType.ATTACHED_TO)
    assert [(r.source_id, r.target_id, r.between) for r in attached] == [
        (sheet.id, mail.id, "document")
    ]
    hits = await app.search.search("falcon", "purchase price cash-free debt-free", k=3)
    assert hits[0].document == "3.1 Revised offer.eml"
    assert hits[0].location.label == "e-mail body"


async def test_legacy_xls_is_cited_by_cell(ingested: tuple[Manda, IngestReport]) -> None:
    app, _ = ingested
    hits = await app.search.search("falcon", "budget 2025 EBITDA", k=3)
    xls = [h for h in hits if h.document == "2.6 Budget 2025.xls"]
    assert xls and xls[0].location.label == "Budget 2025!A1:D5"
    assert "EBITDA | Q1 2025: 1250 | Q2 2025: 1310" in xls[0].text
    findings = await app.graph.list_findings("falcon", subject="ebitda")
    cells = {(f.period, f.location.label, f.value) for f in findings}
    assert ("Q1 2025", "Budget 2025!B5", 1_250_000) in cells


async def test_ingesting_the_export_again_changes_nothing(
    ingested: tuple[Manda, IngestReport], export: Path
) -> None:
    app, first = ingested
    again = await app.ingest.ingest("falcon", [export])
    assert again.ingested == [] and sorted(again.unchanged) == sorted(first.ingested)


async def test_documents_show_as_the_room_tree(ingested: tuple[Manda, IngestReport]) -> None:
    app, _ = ingested
    rows = [("  " * r.depth) + r.label for r in room_tree(await app.graph.list_documents("falcon"))]
    assert rows == [
        "Falcon VDR/",
        "  1 Corporate/",
        "    1.1 Articles of Association.md",
        "  2 Financial/",
        "    2.3 Audited/",
        "      2.3.1 FY2023 Accounts.pdf",
        "    2.4 Subsidiary/",
        "      Accounts.pdf",
        "    2.5 Holding/",
        "      Accounts.pdf",
        "    2.6 Budget 2025.xls",
        "  3 Correspondence/",
        "    3.1 Revised offer.eml",
        "      Term_Sheet.pdf",
        "  4 Legal/",
        "    legal.zip/",
        "      4.1 Litigation.md",
    ]


@pytest.mark.parametrize(
    ("path", "index"),
    [
        ("2 Financial/2.3 Audited/2.3.1 FY2023 Accounts.pdf", "2.3.1"),
        ("2 Financial/2.3 Audited/Accounts.pdf", "2.3"),
        ("02 Financial/02.10 Tax/Returns.pdf", "02.10"),
        ("Finance/2023 Budget.xlsx", None),  # a year is not an index
        ("Loose.pdf", None),
    ],
)
def test_room_index_is_the_deepest_numbered_place(path: str, index: str | None) -> None:
    assert room_index(path) == index


async def test_the_email_is_on_the_deal_timeline_at_its_date(
    ingested: tuple[Manda, IngestReport],
) -> None:
    from manda.timeline.build import timeline_for_deal

    app, _ = ingested
    timeline = await timeline_for_deal(app.graph, "falcon")
    sent = [e for e in timeline.events if e.date == date(2024, 5, 14)]
    assert sent and any(
        c.document == "3.1 Revised offer.eml" for e in sent for c in e.citations
    )


async def test_an_outlook_msg_and_its_attachment_are_ingested(tmp_path: Path) -> None:
    from fixtures.rooms import outlook_msg, pdf_bytes

    nda = pdf_bytes(tmp_path / "nda.pdf", "Mutual NDA", "Signed on 13 May 2024.")
    mail = outlook_msg(tmp_path / "NDA signed.msg", nda, "NDA_signed.pdf")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        report = await app.ingest.ingest("falcon", [mail])
        docs = {d.filename: d for d in await app.graph.list_documents("falcon")}
        attached = await app.graph.list_relations("falcon", type=RelationType.ATTACHED_TO)
        hits = await app.search.search("falcon", "exclusivity period weeks", k=1)

    assert sorted(report.ingested) == ["NDA signed.msg", "NDA signed.msg/NDA_signed.pdf"]
    msg = docs["NDA signed.msg"]
    assert msg.metadata == {
        "from": "Jonas Weber",
        "to": "Deal Team <deal-team@buyer.example>",
        "subject": "Falcon: signed NDA and data room access",
        "date": OFFER_DATE.isoformat(),
    }
    assert [(r.source_id, r.target_id) for r in attached] == [(docs["NDA_signed.pdf"].id, msg.id)]
    assert (hits[0].document, hits[0].location.label) == ("NDA signed.msg", "e-mail body")
