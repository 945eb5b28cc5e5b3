"""A red flag read from findings (the largest customer's share) reads all of its subject's
findings, not only those the red-flag searches happened to bring."""

from __future__ import annotations

from pathlib import Path

from manda.agent.context import AgentContext
from manda.agent.evidence import Evidence
from manda.agent.tools import ToolBox
from manda.app import Manda
from manda.config import Settings
from manda.models import FindingStatus


async def test_the_largest_customer_is_the_largest_of_every_share_found(tmp_path: Path) -> None:
    room = tmp_path / "room"
    room.mkdir()
    shares = [14.1, 6.6, 4.5, 3.4, 2.9, 2.6, 2.4, 2.2, 2.0, 1.0]
    names = ["Arcadia Freight Inc.", "Bellmoor Insurance plc", "Corvid Foods B.V.",
             "Dunmore Health Ltd", "Eskdale & Finch LLP", "Fjord Energy AS", "Glenrock Pharma GmbH",
             "Harrow Mutual Society", "Islay Civic Council", "Juniper Learning Inc."]
    # a long list: the chunks the red-flag searches bring do not hold every row
    names += [f"Customer {n:03d} Ltd" for n in range(11, 301)]
    shares += [0.1] * 290
    rows = [f"{i},{n},\"{s * 10_000:,.0f}\",{s}%"
            for i, (n, s) in enumerate(zip(names, shares, strict=True), 1)]
    (room / "Top customers by revenue.csv").write_text(
        "Rank,Customer,Revenue (EUR),% of total revenue\n" + "\n".join(rows) + "\n",
        encoding="utf-8")
    (room / "Commercial memo.md").write_text(
        "# Commercial\n\nGlenrock Pharma GmbH accounts for 2.4% of revenue and renewed in 2024.\n",
        encoding="utf-8")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("acme", [room])
        evidence = Evidence(documents={d.id: d for d in await app.graph.list_documents("acme")})
        box = ToolBox(AgentContext(graph=app.graph, search=app.search, memory=app.memory),
                      "acme", evidence)
        report = await box.red_flags({})
        stored = [f for s in await app.graph.finding_subjects("acme")
                  if s.startswith("customer concentration")
                  for f in await app.graph.list_findings("acme", subject=s)
                  if f.status is not FindingStatus.REJECTED]
    assert len(stored) >= len(names)
    assert {f.id for f in stored} <= set(evidence.findings)
    assert "Arcadia Freight Inc. accounts for 14.1%" in report


def test_the_covenant_flag_is_the_tested_covenant_closest_to_its_limit() -> None:
    from datetime import date

    from manda.agent.unusual import scan
    from manda.models import Document, DocumentStatus, Location, SearchHit

    doc = Document(id="d1", deal_id="d", filename="Crédit.docx", content_hash="h",
                   file_type="docx", size_bytes=1, version_family="f",
                   status=DocumentStatus.COMPLETED, doc_date=date(2025, 12, 15))
    texts = [
        "L'Emprunteur s'engage à ce que (a) le Ratio de Levier soit inférieur ou égal à 3,00 à "
        "chaque Date de Test jusqu'au 30 septembre 2024 inclus, puis inférieur ou égal à 2,75 à "
        "chaque Date de Test ultérieure ; (b) le DSCR soit supérieur ou égal à 1,20.",
        "Ratio | Seuil contractuel | Niveau constaté\n"
        "Ratio de Levier (Dette Nette / EBE) | Seuil contractuel: inférieur ou égal à 2,75 | "
        "Niveau constaté: 2,54\nDSCR | Seuil contractuel: supérieur ou égal à 1,20 | "
        "Niveau constaté: 1,46",
    ]
    hits = [SearchHit(chunk_id=f"c{i}", document_id=doc.id, document=doc.filename, text=text,
                      location=Location.for_page(1 + i), score=1.0)
            for i, text in enumerate(texts)]
    [flag] = [i for i in scan(Evidence(documents={doc.id: doc}, hits=hits))
              if i.topic.key == "covenants"]
    # the stepped level in force (2.75, not 3.00) against the certificate's 2.54
    assert "2.54x against a maximum of 2.75x" in flag.statement
    assert "headroom 0.21x" in flag.statement
