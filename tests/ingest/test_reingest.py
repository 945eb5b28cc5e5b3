"""Ingesting a document again: what its earlier reading said (conflicts, findings) goes, a
person's decision on a figure it still states stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from manda.app import Manda
from manda.errors import NothingToUndoError
from manda.models import (
    DocumentStatus,
    FindingStatus,
    Relation,
    RelationType,
    ReviewDecision,
    ReviewDecisionKind,
)

DEAL = "reingest"


def _write(folder: Path, name: str, revenue: str) -> Path:
    path = folder / name
    path.write_text(f"# {name[:-3].replace('_', ' ')} Q3 2024\n\nRevenue for Q3 2024 was "
                    f"{revenue}. EBITDA for Q3 2024 was €1.1M.\n")
    return path


async def _decide(app: Manda, finding_id: str, kind: ReviewDecisionKind, by: str) -> None:
    status = FindingStatus.APPROVED if kind is ReviewDecisionKind.APPROVE else \
        FindingStatus.REJECTED
    await app.graph.record_decision(ReviewDecision(
        finding_id=finding_id, deal_id=DEAL, decision=kind, by=by, reason="checked"))
    await app.graph.set_finding_status(DEAL, finding_id, status)


async def test_a_fixed_figure_no_longer_conflicts_and_decisions_on_unchanged_ones_carry(
    app: Manda, tmp_path: Path
) -> None:
    pack = _write(tmp_path, "Board_Pack.md", "€5.0M")
    report = _write(tmp_path, "Q3_Report.md", "€5.2M")
    first = await app.ingest.ingest(DEAL, [pack, report])
    assert first.contradictions == 1
    old_doc = next(d for d in await app.graph.list_documents(DEAL) if d.filename == pack.name)
    old = {f.subject: f for f in await app.graph.list_findings(DEAL, document_id=old_doc.id)}
    await _decide(app, old["ebitda"].id, ReviewDecisionKind.REJECT, "alice")

    _write(tmp_path, "Board_Pack.md", "€5.2M")  # the same file, corrected, dropped again
    second = await app.ingest.ingest(DEAL, [pack])

    assert second.contradictions == 0
    assert await app.graph.list_relations(DEAL, type=RelationType.CONTRADICTS) == []
    new_doc = next(d for d in await app.graph.list_documents(DEAL)
                   if d.filename == pack.name and d.id != old_doc.id)
    new = {f.subject: f for f in await app.graph.list_findings(DEAL, document_id=new_doc.id)}
    # the rejected EBITDA is restated unchanged: alice's rejection still applies to it
    assert new["ebitda"].status is FindingStatus.REJECTED
    carried = await app.graph.get_decision(DEAL, new["ebitda"].id)
    assert carried is not None and carried.by == "alice" and "carried over" in carried.reason
    # the revenue changed: no decision carries, it is a new reading
    assert await app.graph.get_decision(DEAL, new["revenue"].id) is None
    assert new["revenue"].status is not FindingStatus.REJECTED


async def test_a_document_read_again_drops_what_it_no_longer_states(
    app: Manda, tmp_path: Path
) -> None:
    pack = _write(tmp_path, "Board_Pack.md", "€5.0M")
    await app.ingest.ingest(DEAL, [pack])
    document = (await app.graph.list_documents(DEAL))[0]
    findings = {f.subject: f for f in await app.graph.list_findings(DEAL)}
    await _decide(app, findings["revenue"].id, ReviewDecisionKind.REJECT, "bob")
    # what an earlier, interrupted reading left behind: a figure the text does not state
    stale = findings["ebitda"].model_copy(update={"id": "f_stale", "value": 9_900_000.0})
    await app.graph.add_findings([stale])
    await app.graph.add_relations([Relation(
        deal_id=DEAL, type=RelationType.CONTRADICTS, source_id=stale.id,
        target_id=findings["ebitda"].id, reason="€9.9M vs €1.1M")])
    await app.graph.set_document_status(DEAL, document.id, DocumentStatus.FAILED, "interrupted")

    report = await app.ingest.ingest(DEAL, [pack])

    assert report.ingested == [pack.name]
    assert await app.graph.get_finding(DEAL, stale.id) is None
    assert await app.graph.list_relations(DEAL, type=RelationType.CONTRADICTS) == []
    again = {f.subject: f for f in await app.graph.list_findings(DEAL)}
    assert again["revenue"].id == findings["revenue"].id
    assert again["revenue"].status is FindingStatus.REJECTED  # bob's decision, not the pipeline's


async def test_a_rejection_counts_at_once_and_its_undo_brings_the_conflict_back(
    app: Manda, tmp_path: Path
) -> None:
    pack = _write(tmp_path, "Board_Pack.md", "€5.0M")
    report = _write(tmp_path, "Q3_Report.md", "€5.2M")
    await app.ingest.ingest(DEAL, [pack, report])
    pack_doc = next(d for d in await app.graph.list_documents(DEAL) if d.filename == pack.name)
    [wrong] = [f for f in await app.graph.list_findings(DEAL, document_id=pack_doc.id)
               if f.subject == "revenue"]
    await app.graph.set_finding_status(DEAL, wrong.id, FindingStatus.PENDING)  # waits for a person
    before = await app.answers.red_flags(DEAL)
    assert "€5.0M" in before.answer and await app.deals.relations(DEAL)

    rejected = await app.deals.decide(DEAL, wrong.id, ReviewDecisionKind.REJECT, by="alice",
                                      reason="misread")

    # no ingestion in between: the conflict is gone from the store's reads, answers and views
    assert await app.graph.list_relations(DEAL, type=RelationType.CONTRADICTS) == []
    assert "€5.0M" not in (await app.answers.red_flags(DEAL)).answer
    assert "€5.0M" not in (await app.answers.ask(DEAL, "What was Q3 2024 revenue?")).answer
    changes = await app.deals.what_changed(DEAL, [pack.name, report.name])
    assert [c for d in changes for c in d.changes if c.kind == "conflicts with"] == []
    # an ingestion while it stays rejected keeps the conflict planned, not counted
    later = await app.ingest.ingest(DEAL, [_write(tmp_path, "Notes.md", "€5.2M")])
    assert later.contradictions == 0

    await app.deals.undo(DEAL, wrong.id, at=rejected.at, by="bob")

    conflicts = await app.graph.list_relations(DEAL, type=RelationType.CONTRADICTS)
    assert len(conflicts) == 2  # with the report and with the notes read meanwhile
    assert all(wrong.id in (c.source_id, c.target_id) for c in conflicts)
    assert "€5.0M" in (await app.answers.red_flags(DEAL)).answer
    assert (await app.graph.get_finding(DEAL, wrong.id)).status is FindingStatus.PENDING
    assert await app.graph.get_decision(DEAL, wrong.id) is None
    [undone] = [e for e in await app.graph.list_audit(DEAL) if e.action == "finding.undone"]
    assert (undone.subject_id, undone.by) == (wrong.id, "bob")
    assert undone.detail == "undid the rejection by alice; it waits for review again"
    with pytest.raises(NothingToUndoError):  # a second click changes nothing
        await app.deals.undo(DEAL, wrong.id, at=rejected.at, by="bob")


async def test_a_carried_over_decision_is_listed_and_can_be_undone(
    app: Manda, tmp_path: Path
) -> None:
    pack = _write(tmp_path, "Board_Pack.md", "€5.0M")
    await app.ingest.ingest(DEAL, [pack])
    old = {f.subject: f for f in await app.graph.list_findings(DEAL)}
    await _decide(app, old["ebitda"].id, ReviewDecisionKind.REJECT, "alice")
    _write(tmp_path, "Board_Pack.md", "€5.2M")  # a new version restating EBITDA unchanged

    report = await app.ingest.ingest(DEAL, [pack])

    [carried] = report.carried
    assert (carried.decision, carried.by, carried.document) == (
        ReviewDecisionKind.REJECT, "alice", pack.name)
    assert carried.figure == "EBITDA Q3 2024: €1.1M" and carried.finding_id != old["ebitda"].id
    await app.deals.undo(DEAL, carried.finding_id, at=carried.at, by="bob")
    assert (await app.graph.get_finding(DEAL, carried.finding_id)).status is FindingStatus.PENDING
    assert await app.graph.get_decision(DEAL, carried.finding_id) is None
    [undone] = [e for e in await app.graph.list_audit(DEAL) if e.action == "finding.undone"]
    assert undone.detail == ("undid the rejection by alice (carried over from the earlier "
                             "version); it waits for review again")
    assert await app.graph.get_decision(DEAL, old["ebitda"].id) is not None  # the original stays
    # the new version read again: the undone decision is not carried to it a second time
    new_doc = next(d for d in await app.graph.list_documents(DEAL) if d.id != old["ebitda"]
                   .document_id)
    await app.graph.set_document_status(DEAL, new_doc.id, DocumentStatus.FAILED, "interrupted")
    again = await app.ingest.ingest(DEAL, [pack])
    assert again.ingested == [pack.name] and again.carried == []
    assert await app.graph.get_decision(DEAL, carried.finding_id) is None
