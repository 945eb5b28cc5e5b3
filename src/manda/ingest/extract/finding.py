"""A located, scored fact made into a pending Finding the same way by every extractor."""

from __future__ import annotations

from manda.models import (
    Chunk,
    Confidence,
    Document,
    Finding,
    FindingKind,
    FindingStatus,
    Location,
    Nature,
)


def pending_finding(document: Document, *, kind: FindingKind, subject: str, label: str,
                    period: str | None, value: float | None, unit: str | None,
                    value_text: str | None, entity: str | None, attributes: dict[str, str],
                    nature: Nature, excerpt: str, location: Location, chunk: Chunk | None,
                    confidence: float, extractor: str) -> Finding:
    """A Finding awaiting review, its id stable over document, location, subject, period, value
    (and a part's name: two segments' equal figures on one page are two findings); it stands
    under its passage's headings."""
    part = attributes.get("segment")
    return Finding(
        id=Finding.make_id(document.deal_id, document.id, location.label,
                           f"{subject}@{part}" if part else subject, period, value),
        deal_id=document.deal_id,
        document_id=document.id,
        chunk_id=chunk.id if chunk is not None else None,
        kind=kind,
        subject=subject,
        label=label,
        period=period,
        value=value,
        unit=unit,
        value_text=value_text,
        entity=entity,
        attributes=attributes,
        nature=nature,
        doc_date=document.doc_date,
        excerpt=excerpt,
        location=location,
        heading_path=chunk.heading_path if chunk is not None else (),
        confidence=confidence,
        confidence_level=Confidence.from_score(confidence),
        status=FindingStatus.PENDING,
        extractor=extractor,
    )
