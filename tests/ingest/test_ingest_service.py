"""Ingesting the sample data room: documents, findings, corrections, conflicts, idempotency."""

from __future__ import annotations

import shutil
from pathlib import Path

from manda.app import Manda
from manda.models import DocumentStatus, FindingStatus, RelationType


async def test_sample_room_is_ingested_completely(app: Manda) -> None:
    documents = await app.graph.list_documents("targetco")
    assert len(documents) >= 13
    assert {d.status for d in documents} == {DocumentStatus.COMPLETED}
    assert {d.file_type for d in documents} >= {"pdf", "xlsx", "docx", "pptx", "csv", "md", "txt"}
    irl = [d for d in documents if d.is_irl]
    assert [d.filename for d in irl] == ["TargetCo_IRL.xlsx"]
    findings = await app.graph.list_findings("targetco")
    assert len(findings) > 40
    assert any(f.status is FindingStatus.APPROVED for f in findings)
    assert any(f.status is FindingStatus.PENDING for f in findings)


async def test_corrected_annual_report_supersedes_the_original(app: Manda) -> None:
    docs = {d.filename: d for d in await app.graph.list_documents("targetco")}
    original = docs["TargetCo_Annual_Report_2023.pdf"]
    corrected = docs["TargetCo_Annual_Report_2023_CORRECTED.pdf"]
    doc_edges = await app.graph.list_relations("targetco", type=RelationType.SUPERSEDES)
    assert any(
        r.between == "document" and r.source_id == corrected.id and r.target_id == original.id
        for r in doc_edges
    )
    ebitda = [
        f
        for f in await app.graph.list_findings("targetco", subject="ebitda")
        if f.period == "FY2023" and f.document_id in (original.id, corrected.id)
    ]
    old = [f for f in ebitda if f.document_id == original.id]
    new = [f for f in ebitda if f.document_id == corrected.id]
    assert old and new
    assert {f.status for f in old} == {FindingStatus.SUPERSEDED}
    assert all(abs(f.value - 2_900_000) < 1 for f in new if f.value is not None)
    assert any(abs(f.value - 3_100_000) < 1 for f in old if f.value is not None)


async def test_presentation_contradicts_the_audited_q3_revenue(app: Manda) -> None:
    docs = {d.id: d.filename for d in await app.graph.list_documents("targetco")}
    conflicts = await app.graph.list_relations("targetco", type=RelationType.CONTRADICTS)
    pairs = []
    for rel in conflicts:
        a = await app.graph.get_finding("targetco", rel.source_id)
        b = await app.graph.get_finding("targetco", rel.target_id)
        assert a is not None and b is not None
        assert a.period == b.period and a.subject == b.subject
        pairs.append((a, b))
    revenue = [
        {docs[a.document_id], docs[b.document_id]}
        for a, b in pairs
        if a.subject == "revenue" and a.period == "Q3 2024"
    ]
    assert {"TargetCo_Management_Presentation.pptx", "TargetCo_Q3_2024_Report.pdf"} in revenue


async def test_forecast_v2_supersedes_forecast(app: Manda) -> None:
    docs = {d.filename: d.id for d in await app.graph.list_documents("targetco")}
    findings = await app.graph.list_findings("targetco", subject="revenue")
    v1 = [
        f
        for f in findings
        if f.document_id == docs["TargetCo_Forecast_2025.xlsx"] and f.period == "FY2025"
    ]
    v2 = [
        f
        for f in findings
        if f.document_id == docs["TargetCo_Forecast_2025_v2.xlsx"] and f.period == "FY2025"
    ]
    assert v1 and v2
    assert {f.status for f in v1} == {FindingStatus.SUPERSEDED}
    assert all(f.nature.value == "forecast" for f in v1 + v2)


async def test_reingesting_the_same_files_changes_nothing(
    app: Manda, sample_rooms: dict[str, Path]
) -> None:
    before_docs = await app.graph.list_documents("targetco")
    before_findings = await app.graph.list_findings("targetco")
    before_relations = await app.graph.list_relations("targetco")
    report = await app.ingest.ingest("targetco", [sample_rooms["targetco"]])
    assert report.ingested == [] and report.skipped == []
    assert len(report.unchanged) == len(before_docs)
    assert await app.graph.list_documents("targetco") == before_docs
    assert await app.graph.list_findings("targetco") == before_findings
    assert len(await app.graph.list_relations("targetco")) == len(before_relations)


async def test_bad_files_are_reported_and_the_rest_is_ingested(
    app: Manda, sample_rooms: dict[str, Path], tmp_path: Path
) -> None:
    batch = tmp_path / "batch"
    batch.mkdir()
    (batch / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog")
    (batch / "empty.docx").write_bytes(b"")
    (batch / "photo.pdf").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    (batch / "notes.md").write_text("# Deal notes\n\nThe asking price is EUR 42 million.\n")
    report = await app.ingest.ingest("scratch", [batch, tmp_path / "missing.pdf"])
    assert report.ingested == ["notes.md"]
    reasons = {s.filename: s.reason for s in report.skipped}
    assert set(reasons) == {"broken.pdf", "empty.docx", "photo.pdf", str(tmp_path / "missing.pdf")}
    assert "empty" in reasons["empty.docx"]
    assert "PNG" in reasons["photo.pdf"]
    docs = {d.filename: d for d in await app.graph.list_documents("scratch")}
    assert docs["notes.md"].status is DocumentStatus.COMPLETED
    assert docs["broken.pdf"].status is DocumentStatus.FAILED and docs["broken.pdf"].error
    # nothing already ingested in another deal was touched
    assert len(await app.graph.list_documents("targetco")) >= 13


async def test_a_changed_file_is_a_new_version(app: Manda, tmp_path: Path) -> None:
    note = tmp_path / "Memo.md"
    note.write_text("# Memo\n\nHeadcount was 150 employees as of 30 June 2024.\n")
    await app.ingest.ingest("memo-deal", [note])
    note.write_text("# Memo\n\nHeadcount was 151 employees as of 30 June 2024.\n")
    report = await app.ingest.ingest("memo-deal", [note])
    assert report.ingested == ["Memo.md"]
    documents = sorted(await app.graph.list_documents("memo-deal"), key=lambda d: d.ingested_at)
    assert len(documents) == 2
    edges = await app.graph.list_relations("memo-deal", type=RelationType.SUPERSEDES)
    assert any(
        r.between == "document" and (r.source_id, r.target_id) == (documents[1].id, documents[0].id)
        for r in edges
    )
    headcount = await app.graph.list_findings("memo-deal", subject="headcount")
    current = [f for f in headcount if f.status is not FindingStatus.SUPERSEDED]
    assert [f.value for f in current] == [151]


async def test_ingestion_survives_a_restart(home_copy: Path, tmp_path: Path) -> None:
    from manda.config import Settings

    copy = tmp_path / "room"
    copy.mkdir()
    shutil.copy(Path(__file__), copy / "not-a-document.py")
    async with Manda(Settings(MANDA_HOME=home_copy)) as app:
        report = await app.ingest.ingest("targetco", [copy])
    assert report.skipped and "not a supported type" in report.skipped[0].reason
    async with Manda(Settings(MANDA_HOME=home_copy)) as app:
        assert len(await app.graph.list_documents("targetco")) >= 13


async def test_relations_recomputed_subject_by_subject_are_the_whole_deals(
    app: Manda, sample_rooms: dict[str, Path]
) -> None:
    from manda.ingest.relations import plan_relations

    report = await app.ingest.ingest("targetco", [sample_rooms["targetco"]])  # relates again
    documents = [
        d for d in await app.graph.list_documents("targetco")
        if d.status is DocumentStatus.COMPLETED
    ]
    whole = plan_relations(documents, await app.graph.list_findings("targetco"))
    stored = await app.graph.list_relations("targetco")

    def edges(relations):  # type: ignore[no-untyped-def]
        return {(r.type, r.source_id, r.target_id) for r in relations if r.between == "finding"}

    assert edges(stored) == edges(whole.relations)
    assert report.contradictions == whole.count(RelationType.CONTRADICTS) > 0
