"""Scanned PDFs (pages that are only images) are read by OCR, cited as `p.N, OCR`, and what OCR
read waits for a person: its confidence is lowered. Pages are rendered from known text, so what
OCR reads back is checked against it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fixtures.bad_files import scanned_pdf
from rapidfuzz.distance import Levenshtein

from manda.app import Manda
from manda.config import Settings
from manda.errors import UnreadableFileError
from manda.ingest.parsers import ParseLimits, parse_file
from manda.models import FindingStatus

LINES = (
    "TargetCo GmbH - Board report Q3 2024",
    "Revenue for Q3 2024 was EUR 5.2 million.",
    "EBITDA for Q3 2024 was EUR 1.1 million.",
    "Headcount was 156 employees as of 30 September 2024.",
)

needs_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None, reason="tesseract-ocr is not installed (scripts/test.sh)"
)


@needs_tesseract
def test_a_scanned_page_is_read_back_as_the_text_it_was_rendered_from(tmp_path: Path) -> None:
    parsed = parse_file(scanned_pdf(tmp_path / "Board_Report_scan.pdf", *LINES))

    [page] = parsed.sections
    assert page.location.label == "p.1, OCR" and page.location.ocr
    accuracy = 1 - Levenshtein.normalized_distance(" ".join(LINES), " ".join(page.text.split()))
    assert accuracy >= 0.97, page.text
    assert parsed.metadata["ocr_engine"].startswith("tesseract")
    assert parsed.metadata["ocr_pages"] == "1"


@needs_tesseract
async def test_figures_read_by_ocr_are_cited_as_such_and_wait_for_review(tmp_path: Path) -> None:
    scan = scanned_pdf(tmp_path / "Board_Report_scan.pdf", *LINES)
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        report = await app.ingest.ingest("falcon", [scan])
        assert report.ingested == ["Board_Report_scan.pdf"]
        revenue = await app.graph.list_findings("falcon", subject="revenue")
        hits = await app.search.search("falcon", "Q3 2024 revenue", k=1)

    assert revenue and {f.location.label for f in revenue} == {"p.1, OCR"}
    assert all(f.attributes["ocr"] == "yes" for f in revenue)
    assert all(f.status is FindingStatus.PENDING for f in revenue)  # a person checks a scan
    assert abs(revenue[0].value - 5_200_000) < 1
    assert hits[0].location.label == "p.1, OCR"


def test_without_ocr_a_scan_is_refused_with_what_to_do(tmp_path: Path) -> None:
    scan = scanned_pdf(tmp_path / "scan.pdf", *LINES)
    with pytest.raises(UnreadableFileError) as err:
        parse_file(scan, limits=ParseLimits(ocr="off"))
    assert err.value.reason == (
        "contains no readable text: its pages are scanned images and OCR is off "
        "(MANDA_OCR=off); ask for a text PDF or turn OCR on"
    )


@needs_tesseract
def test_a_10000_page_scan_is_bounded_by_the_page_budget(tmp_path: Path) -> None:
    scan = scanned_pdf(tmp_path / "Archive_1998-2024.pdf", *LINES[:2], pages=10_000)
    parsed = parse_file(scan, limits=ParseLimits(ocr_max_pages=2))

    assert parsed.units == 10_000
    assert [s.location.label for s in parsed.sections if s.text][:3] == ["p.1, OCR", "p.2, OCR"]
    assert parsed.metadata["ocr_not_read"] == (
        "9,998 scanned pages past the 2-page OCR budget (p.3-10000; MANDA_OCR_MAX_PAGES)"
    )
