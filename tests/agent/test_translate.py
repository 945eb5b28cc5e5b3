"""Confidence in words: drafts, preliminary estimates, reviews and audits, never a score."""

from __future__ import annotations

from datetime import date

from manda.agent.compose.common import conflict_sentence, value_sentence
from manda.agent.evidence import Evidence
from manda.agent.selection import read_fact
from manda.agent.translate import age_note, document_basis, period_phrase
from manda.models import Confidence, Document, Finding, FindingKind, Location


def _doc(name: str, day: date, *, draft: bool = False, authoritative: bool = False) -> Document:
    return Document(id=f"d_{name}", deal_id="d", filename=name, content_hash=name,
                    file_type="pdf", size_bytes=1, doc_date=day, version_family=name,
                    draft=draft, authoritative=authoritative)


def _finding(doc: Document, value: float, excerpt: str) -> Finding:
    return Finding(id=f"f_{doc.filename}", deal_id="d", document_id=doc.id, kind=FindingKind.METRIC,
                   subject="revenue", label="Revenue", period="Q3 2024", value=value, unit="EUR",
                   value_text=f"€{value / 1e6:.1f}M", excerpt=excerpt,
                   location=Location.for_page(1), confidence=0.4,
                   confidence_level=Confidence.LOW)


def test_periods_read_as_a_person_says_them() -> None:
    assert period_phrase("Q3 2024") == "in Q3 2024"
    assert period_phrase("as of 2024-09-30") == "as of 30 September 2024"
    assert period_phrase(None) == ""


def test_a_draft_is_named_with_its_date_and_age() -> None:
    draft = _doc("Board_Pack_draft.pdf", date(2024, 8, 1), draft=True)
    final = _doc("Q3_Report.pdf", date(2024, 10, 15), authoritative=True)
    evidence = Evidence(documents={draft.id: draft, final.id: final})
    old = _finding(draft, 4_900_000, "Revenue €4.9M")
    new = _finding(final, 5_200_000, "Revenue €5.2M, audited")
    evidence.add_findings([old, new])
    assert document_basis(old, evidence) == "a draft dated 1 August 2024"
    assert document_basis(new, evidence) == "audited"
    assert age_note(draft, final) == "2 months earlier"
    reading = read_fact(evidence, "revenue", "Q3 2024")
    assert reading is not None and reading.primary is new and reading.conflicts == [old]
    assert value_sentence(reading, evidence).startswith("Revenue was €5.2M in Q3 2024 (source:")
    text = conflict_sentence(reading, evidence)
    assert "from a draft dated 1 August 2024 (2 months earlier)" in text
    assert "0.4" not in text and "LOW" not in text  # the finding's confidence never shows
