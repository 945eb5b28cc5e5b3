"""A table's rows under a segment's heading are that segment's, at the table's scale.

Invented segment notes (a French group by region, a US software company by business line, a
German Mittelstand group by Sparte): the blocks of the same rows, each under a short heading,
are the segments'; the first block's unit line ("in thousands of euros") scales them all; a
block headed by the whole ("Total groupe", "Consolidated") is the company's own; a lone table
under a title outside any segment section stays the company's. No segment name is known to code.
"""

from __future__ import annotations

from fixtures.extraction import page_findings

from manda.agent.evidence import Evidence
from manda.agent.selection import findings_for
from manda.models import Document, Finding, Location

DOCUMENT = Document(id="d1", deal_id="x", filename="Rapport_annuel.pdf", content_hash="h",
                    file_type="pdf", size_bytes=1, version_family="f")


def _findings(text: str) -> list[Finding]:
    return page_findings(text, page=31, document=DOCUMENT)


REGIONS = "\n".join([
    "Note 4 — Information sectorielle",
    "Le résultat opérationnel par secteur se présente comme suit (en milliers d'euros) :",
    "Région Nord",
    "2024 | 2023",
    "Chiffre d'affaires | 2024: 48 200 | 2023: 44 900",
    "Résultat opérationnel | 2024: 5 100 | 2023: 4 300",
    "Région Sud",
    "2024 | 2023",
    "Chiffre d'affaires | 2024: 31 700 | 2023: 30 200",
    "Résultat opérationnel | 2024: (1 200) | 2023: 800",
    "Total groupe",
    "2024 | 2023",
    "Chiffre d'affaires | 2024: 79 900 | 2023: 75 100",
    "Résultat opérationnel | 2024: 3 900 | 2023: 5 100",
])


def _by(findings: list[Finding], subject: str, period: str) -> dict[str | None, float | None]:
    return {f.attributes.get("segment"): f.value for f in findings
            if f.subject == subject and f.period == period}


def test_each_block_under_a_segment_heading_is_that_segments_at_the_tables_scale() -> None:
    found = _findings(REGIONS)
    assert _by(found, "revenue", "FY2024") == {
        "Région Nord": 48_200_000, "Région Sud": 31_700_000, None: 79_900_000}
    south = next(f for f in found if f.attributes.get("segment") == "Région Sud"
                 and f.subject == "ebit" and f.period == "FY2024")
    assert south.entity == "Région Sud" and south.value == -1_200_000


def test_blocks_of_the_same_rows_under_short_headings_are_segments_without_the_word() -> None:
    page = "\n".join([
        "Results by business (in millions)",
        "Cloud Platform",
        "2025 | 2024",
        "Net sales | 2025: $12,480 | 2024: $10,115",
        "Operating income | 2025: $3,204 | 2024: $2,650",
        "Devices",
        "2025 | 2024",
        "Net sales | 2025: $4,020 | 2024: $4,410",
        "Operating income | 2025: $(215) | 2024: $96",
    ])
    found = _findings(page)
    assert _by(found, "revenue", "FY2025") == {"Cloud Platform": 12_480_000_000,
                                               "Devices": 4_020_000_000}


def test_one_block_under_a_heading_in_a_segment_section_is_the_segments() -> None:
    page = "\n".join([
        "Segmentberichterstattung",
        "Die Kennzahlen der Segmente stellen sich wie folgt dar (in Tausend EUR):",
        "Antriebstechnik",
        "2024 | 2023",
        "Umsatzerlöse | 2024: 18.400 | 2023: 17.150",
    ])
    assert _by(_findings(page), "revenue", "FY2024") == {"Antriebstechnik": 18_400_000}


def test_a_lone_table_under_a_title_is_the_companys_own() -> None:
    page = "\n".join([
        "Consolidated Statements of Operations",
        "(in millions)",
        "2025 | 2024",
        "Net sales | 2025: $16,500 | 2024: $14,525",
        "Operating income | 2025: $2,989 | 2024: $2,746",
    ])
    assert _by(_findings(page), "revenue", "FY2025") == {None: 16_500_000_000}


def test_a_segments_figure_answers_for_the_segment_only() -> None:
    found = {f.id: f for f in _findings(REGIONS)}
    evidence = Evidence(findings=found, documents={DOCUMENT.id: DOCUMENT})
    company = {f.value for f in findings_for(evidence, "revenue") if f.period == "FY2024"}
    assert company == {79_900_000}
    south = {f.value for f in findings_for(evidence, "revenue", entity="Région Sud")
             if f.period == "FY2024"}
    assert south == {31_700_000}


def test_a_question_naming_the_segment_is_answered_with_its_figure_and_its_name() -> None:
    from manda.agent.compose.common import Ask
    from manda.agent.compose.fact_lookup import compose
    from manda.agent.frame import read_question
    from manda.models import SearchHit

    hits = [SearchHit(chunk_id="c0", document_id="d1", document=DOCUMENT.filename, text=REGIONS,
                      location=Location.for_page(31), score=1.0)]
    evidence = Evidence(findings={f.id: f for f in _findings(REGIONS)},
                        documents={DOCUMENT.id: DOCUMENT}, hits=hits)
    south = compose(Ask.of(read_question("What was the operating income of the Région Sud "
                                         "segment in 2024?")), evidence)
    assert south.text.startswith("Région Sud operating income was -€1.2M"), south.text
    group = compose(Ask.of(read_question("What was the group's revenue in 2024?")), evidence)
    assert group.text.startswith("Revenue was €79.9M"), group.text


def test_blocks_under_period_headings_are_no_segments() -> None:
    page = "\n".join([
        "Quarterly results (in millions)",
        "Fourth Quarter",
        "2025 | 2024",
        "Net sales | 2025: $5,120 | 2024: $4,870",
        "Third Quarter",
        "2025 | 2024",
        "Net sales | 2025: $4,480 | 2024: $4,260",
    ])
    assert all(f.attributes.get("segment") is None for f in _findings(page))
