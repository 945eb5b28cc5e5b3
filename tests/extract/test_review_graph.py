"""Extractor → validator → decision maker: promotions audited, the rest waits, loops bounded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from manda.ingest.review_graph import (
    FindingValidator,
    Problem,
    build_review_graph,
    run_review_pipeline,
)
from manda.models import (
    Chunk,
    Confidence,
    Document,
    Finding,
    FindingKind,
    FindingStatus,
    Location,
    ParsedDocument,
    Section,
)

DEAL = "falcon"
SENTENCE = "Revenue for Q3 2024 was €5.2M, up 10.6% year on year, driven by new logos in DACH."


def finding(**overrides: Any) -> Finding:
    base: dict[str, Any] = {
        "id": "f_revenue",
        "deal_id": DEAL,
        "document_id": "d_q3",
        "chunk_id": "d_q3_c0000",
        "kind": FindingKind.METRIC,
        "subject": "revenue",
        "label": "Revenue",
        "period": "Q3 2024",
        "value": 5_200_000.0,
        "unit": "EUR",
        "value_text": "€5.2M",
        "excerpt": SENTENCE,
        "location": Location.for_page(1),
        "confidence": 0.9,
        "confidence_level": Confidence.HIGH,
        "attributes": {"doc_role": "management_accounts", "evidence": "statement", "draft": "no"},
    }
    base.update(overrides)
    return Finding(**base)


async def test_a_high_complete_finding_is_approved_with_an_audit_entry() -> None:
    outcome = await run_review_pipeline([finding()], deal_id=DEAL)
    [approved] = outcome.findings
    assert approved.status is FindingStatus.APPROVED
    [entry] = outcome.audit
    assert (entry.action, entry.by, entry.subject_id, entry.deal_id) == (
        "finding.auto_approved", "pipeline", "f_revenue", DEAL)
    assert "high confidence" in entry.detail
    assert "0.9" not in entry.detail  # scores are never shown, not even in the audit log


async def test_low_confidence_waits_for_a_person_with_high_priority() -> None:
    low = finding(confidence=0.4, confidence_level=Confidence.LOW,
                  attributes={"doc_role": "board_minutes", "evidence": "statement", "draft": "no"})
    outcome = await run_review_pipeline([low], deal_id=DEAL)
    [pending] = outcome.findings
    assert pending.status is FindingStatus.PENDING
    assert pending.review_priority == "high"
    assert outcome.audit == []


async def test_medium_confidence_waits_with_normal_priority() -> None:
    medium = finding(confidence=0.7, confidence_level=Confidence.MEDIUM,
                     attributes={"doc_role": "presentation", "evidence": "statement",
                                 "draft": "no"})
    outcome = await run_review_pipeline([medium], deal_id=DEAL)
    assert [(f.status, f.review_priority) for f in outcome.findings] == [
        (FindingStatus.PENDING, "normal")]
    assert "medium confidence" in outcome.findings[0].attributes["review_reason"]


async def test_confidence_above_its_evidence_is_lowered_and_not_promoted() -> None:
    overclaimed = finding(attributes={"doc_role": "presentation", "evidence": "statement",
                                      "draft": "no"})
    outcome = await run_review_pipeline([overclaimed], deal_id=DEAL)
    [result] = outcome.findings
    assert result.confidence == 0.7
    assert result.confidence_level is Confidence.MEDIUM
    assert result.status is FindingStatus.PENDING
    assert outcome.audit == []


async def test_a_finding_stored_with_a_former_kind_of_document_keeps_its_ceiling() -> None:
    """Findings stored before the one document classification name a kind, not a role."""
    stored = finding(attributes={"doc_kind": "presentation", "evidence": "statement",
                                 "draft": "no"})
    [result] = (await run_review_pipeline([stored], deal_id=DEAL)).findings
    assert result.confidence == 0.7 and result.status is FindingStatus.PENDING


async def test_a_long_excerpt_is_trimmed_around_its_value_then_promoted() -> None:
    long = " ".join([SENTENCE] * 4)
    outcome = await run_review_pipeline([finding(excerpt=long)], deal_id=DEAL)
    [result] = outcome.findings
    assert 50 <= len(result.excerpt) <= 200
    assert "€5.2M" in result.excerpt
    assert result.excerpt in long
    assert result.status is FindingStatus.APPROVED


async def test_a_short_excerpt_is_recut_from_its_source() -> None:
    source = f"Highlights\n{SENTENCE}\nEBITDA of €1.1M."
    short = finding(excerpt="was €5.2M, up 10.6%")
    outcome = await run_review_pipeline([short], deal_id=DEAL, sources={"d_q3_c0000": source})
    [result] = outcome.findings
    assert result.excerpt in source and "€5.2M" in result.excerpt
    assert len(result.excerpt) >= 50
    assert result.status is FindingStatus.APPROVED


async def test_an_item_that_cannot_be_fixed_goes_to_a_person_at_the_bound() -> None:
    calls: list[str] = []

    class Counting(FindingValidator):
        def refine(self, finding: Finding, problems: Sequence[Problem],
                   source: str | None = None) -> Finding:
            calls.append(finding.id)
            return super().refine(finding, problems, source)

    undated = finding(period=None)
    outcome = await run_review_pipeline([undated, finding(id="f_ok")], deal_id=DEAL,
                                        validator=Counting(), max_refinements=2)
    by_id = {f.id: f for f in outcome.findings}
    assert calls == ["f_revenue", "f_revenue"]
    assert by_id["f_revenue"].status is FindingStatus.PENDING
    assert by_id["f_revenue"].review_priority == "high"
    reason = by_id["f_revenue"].attributes["review_reason"]
    assert "after 2 refinements" in reason and "needs period" in reason
    assert by_id["f_ok"].status is FindingStatus.APPROVED


async def test_the_recursion_limit_bounds_the_loop() -> None:
    class NeverSatisfied(FindingValidator):
        def check(self, finding: Finding) -> list[Problem]:
            return [Problem("excerpt_missing_value", "never good enough")]

    outcome = await run_review_pipeline([finding()], deal_id=DEAL, validator=NeverSatisfied(),
                                        max_refinements=1000, recursion_limit=6)
    [result] = outcome.findings
    assert result.status is FindingStatus.PENDING
    assert "limit of 6 steps" in result.attributes["review_reason"]
    assert outcome.audit == []


async def test_a_person_without_a_role_is_not_complete() -> None:
    person = finding(kind=FindingKind.PERSON, subject="person:markus weber", label="Markus Weber",
                     period=None, value=None, unit=None, value_text=None, entity="Markus Weber",
                     excerpt="Markus Weber joined TargetCo in March 2019 and leads projects.",
                     attributes={"role": "", "doc_role": "audited_statements",
                                 "evidence": "statement", "draft": "no"})
    outcome = await run_review_pipeline([person], deal_id=DEAL)
    assert outcome.findings[0].status is FindingStatus.PENDING
    assert "needs role" in outcome.findings[0].attributes["review_reason"]


async def test_a_decision_already_made_is_never_overridden() -> None:
    rejected = finding(status=FindingStatus.REJECTED)
    outcome = await run_review_pipeline([rejected], deal_id=DEAL)
    assert outcome.findings[0].status is FindingStatus.REJECTED
    assert outcome.audit == []


async def test_the_graph_can_run_the_extractor_itself() -> None:
    class OneFinding:
        id = "fake"

        async def extract(self, document: Document, parsed: ParsedDocument,
                          chunks: Sequence[Chunk]) -> list[Finding]:
            return [finding(document_id=document.id)]

    parsed = ParsedDocument(filename="q3.pdf", file_type="pdf", units=1,
                            sections=[Section(text=SENTENCE, location=Location.for_page(1))])
    document = Document(id="d_q3", deal_id=DEAL, filename="q3.pdf", content_hash="h",
                        file_type="pdf", size_bytes=1, version_family="q3")
    graph = build_review_graph(extractor=OneFinding())
    state = await graph.ainvoke({"deal_id": DEAL, "candidates": None, "document": document,
                                 "parsed": parsed, "chunks": []})
    assert [f.status for f in state["findings"]] == [FindingStatus.APPROVED]
    assert [a.action for a in state["audit"]] == ["finding.auto_approved"]
