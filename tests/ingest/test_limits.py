"""Files that cost too much to read are refused by name with the limit they hit, in bounded time
and memory, off the event loop (issue 12). The files come from `fixtures.bad_files`."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fixtures import bad_files

from manda.errors import UnreadableFileError
from manda.ingest.extract.offline import OfflineExtractor
from manda.ingest.parsers import ParseLimits, parse_file
from manda.ingest.sandbox import Sandbox
from manda.models import Document


def refusal(path: Path, limits: ParseLimits | None = None) -> str:
    with pytest.raises(UnreadableFileError) as err:
        parse_file(path, limits=limits or ParseLimits())
    assert err.value.filename == path.name
    return err.value.reason


def test_a_docx_of_millions_of_empty_paragraphs_is_refused_before_a_tree_is_built(
    tmp_path: Path,
) -> None:
    # 9.6 MB of `<w:p/>`: under the compression-ratio check's 10 MB floor, 1.37 GB as a tree
    path = bad_files.docx_of_empty_paragraphs(tmp_path / "Side_letter.docx", 1_600_000)
    assert path.stat().st_size < 200_000
    started = time.perf_counter()
    reason = refusal(path)
    assert "word/document.xml" in reason and "1,000,000-element limit" in reason
    assert time.perf_counter() - started < 10  # counted while inflating, never parsed


def test_a_docx_part_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = bad_files.docx_with_an_oversized_part(tmp_path / "Huge.docx", part_mb=6)
    reason = refusal(path, ParseLimits(max_xml_part_bytes=5 * 2**20))
    assert "word/document.xml" in reason and "6 MB of XML, over the 5 MB limit" in reason
    assert "MANDA_MAX_XML_PART_MB" in reason


def test_a_100k_page_pdf_is_refused_from_its_page_count(tmp_path: Path) -> None:
    path = bad_files.pdf_of_many_pages(tmp_path / "Data_tape.pdf")
    started = time.perf_counter()
    reason = refusal(path)
    assert reason.startswith("has more than 20,000 pages") and "MANDA_MAX_PAGES" in reason
    assert time.perf_counter() - started < 30


def test_an_operator_heavy_pdf_page_is_refused_before_layout(tmp_path: Path) -> None:
    path = bad_files.pdf_of_many_operators(tmp_path / "Tiny.pdf")
    assert path.stat().st_size < 100_000
    started = time.perf_counter()
    reason = refusal(path)
    assert "has a page (p.1) with 300,000 text operators, over the 50,000-operator limit" in reason
    assert time.perf_counter() - started < 10  # counted, never laid out (37 s before)


def test_a_large_xlsx_is_refused_at_the_cell_limit(tmp_path: Path) -> None:
    path = bad_files.large_xlsx(tmp_path / "Ledger.xlsx", rows=10_000, columns=20)
    reason = refusal(path, ParseLimits(max_cells=100_000))
    assert reason.startswith("has more than 100,000 cells") and "MANDA_MAX_CELLS" in reason


def test_multi_mb_text_is_read_within_limits_or_refused_by_characters(tmp_path: Path) -> None:
    path = bad_files.multi_mb_text(tmp_path / "Notes.txt", megabytes=2)
    reason = refusal(path, ParseLimits(max_characters=1_000_000))
    assert reason.startswith("has more than 1,000,000 characters")
    assert "MANDA_MAX_CHARACTERS" in reason


def _document(path: Path) -> Document:
    return Document(id="d_x", deal_id="x", filename=path.name, content_hash="x",
                    file_type=path.suffix[1:], size_bytes=path.stat().st_size,
                    version_family="x")


async def test_the_sandbox_stops_a_file_at_its_time_limit_and_keeps_working(
    tmp_path: Path,
) -> None:
    slow = bad_files.multi_mb_text(tmp_path / "Slow.txt", megabytes=1)
    sandbox = Sandbox(ParseLimits(max_seconds=1.0))
    started = time.perf_counter()
    with pytest.raises(UnreadableFileError) as err:
        await sandbox.read(slow, slow.name, _document(slow), OfflineExtractor())
    assert "took longer than 1 seconds to read" in err.value.reason
    assert "MANDA_INGEST_TIMEOUT" in err.value.reason
    assert time.perf_counter() - started < 30
    good = tmp_path / "Good.txt"
    good.write_text("Revenue for Q3 2024 was EUR 5.2 million.")
    reading = await Sandbox(ParseLimits()).read(good, good.name, _document(good),
                                                OfflineExtractor())
    assert reading.chunks and reading.candidates is not None


async def test_the_sandbox_refuses_a_file_past_its_memory_allowance(tmp_path: Path) -> None:
    # under every count limit (raised here), the tree python-docx builds is what hits the cap
    path = bad_files.docx_of_empty_paragraphs(tmp_path / "Side_letter.docx", 1_600_000)
    limits = ParseLimits(max_xml_elements=10**8, max_memory_mb=200, max_seconds=120)
    with pytest.raises(UnreadableFileError) as err:
        await Sandbox(limits).read(path, path.name, _document(path), OfflineExtractor())
    assert "200 MB" in err.value.reason and "memory" in err.value.reason
    assert "MANDA_INGEST_MEMORY_MB" in err.value.reason
