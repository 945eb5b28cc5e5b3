"""A table whose unit line stayed on the page before ("(In millions)" above a segment table that
runs onto the next page) takes the scale at which one of its amounts is the same line item's
amount, for the same period, in a section that states its scale: the segment table's "Total
$4,215" is the income statement's revenue of 4,215 in millions, so "Cloud 2,907" is $2.907
billion, not $2,907. A table whose amounts agree with none keeps its own reading. The pages are
invented."""

from __future__ import annotations

from fixtures.extraction import PAGE_DOCUMENT

from manda.ingest.chunking import chunk_document
from manda.ingest.extract.offline import OfflineExtractor
from manda.models import Finding, Location, ParsedDocument, Section

STATEMENT = "\n".join([
    "CONSOLIDATED STATEMENTS OF INCOME",
    "(In millions)",
    "Year Ended December 31, | 2025 | 2024",
    "Revenue | 2025: 4,215 | 2024: 3,980",
    "Net income | 2025: 610 | 2024: 540",
])
SEGMENTS = "\n".join([
    "Segment revenue",
    "2025 | 2024",
    "Cloud | 2025: $2,907 | 2024: $2,650",
    "Devices | 2025: 1,308 | 2024: 1,330",
    "Total | 2025: $4,215 | 2024: $3,980",
])
UNRELATED = "\n".join([
    "Segment revenue",
    "2025 | 2024",
    "Cloud | 2025: $2,907 | 2024: $2,650",
    "Devices | 2025: 1,308 | 2024: 1,330",
    "Total | 2025: $4,216 | 2024: $3,981",
])


def _findings(*pages: str) -> list[Finding]:
    parsed = ParsedDocument(filename="x", file_type="pdf", units=len(pages), sections=[
        Section(text=text, location=Location.for_page(6 + at)) for at, text in enumerate(pages)])
    chunks = chunk_document(parsed, deal_id=PAGE_DOCUMENT.deal_id, document_id=PAGE_DOCUMENT.id)
    return OfflineExtractor().extract(PAGE_DOCUMENT, parsed, chunks)


def _segment_revenue(findings: list[Finding], segment: str) -> float | None:
    return next((f.value for f in findings if f.subject == "revenue" and f.period == "FY2025"
                 and f.entity == segment), None)


def test_a_table_without_its_unit_line_takes_the_scale_its_total_agrees_at() -> None:
    findings = _findings(STATEMENT, SEGMENTS)
    assert _segment_revenue(findings, "Cloud") == 2_907_000_000, [
        (f.subject, f.entity, f.value) for f in findings]
    assert _segment_revenue(findings, "Devices") == 1_308_000_000


def test_a_table_that_agrees_with_no_scaled_amount_keeps_its_reading() -> None:
    findings = _findings(STATEMENT, UNRELATED)
    assert _segment_revenue(findings, "Cloud") == 2_907
