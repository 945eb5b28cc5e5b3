"""The review grid's held-out contracts (issue 28): generated reproducibly, in every layout the
issue names, and every ground-truth quote stands verbatim at its place in its document."""

from __future__ import annotations

import hashlib
import re
import shutil
from functools import cache
from pathlib import Path
from typing import Any

import docx
import pytest
import yaml
from pypdf import PdfReader

from manda.sample.grid_contract_texts import CONTRACTS, Contract
from manda.sample.grid_contracts import GRID_DEAL, generate_grid_contracts, scanned_pages

TRUTH = Path(__file__).parents[2] / "evals" / "grid" / "contracts.yaml"
NOT_STATED = "not stated"


@cache
def _truth() -> dict[str, Any]:
    return yaml.safe_load(TRUTH.read_text(encoding="utf-8"))


def _rows() -> list[dict[str, Any]]:
    return list(_truth()["contracts"])


def _cells() -> list[tuple[str, str, dict[str, Any]]]:
    return [(row["id"], column, cell) for row in _rows() for column, cell in row["cells"].items()]


_BY_ID = {c.id: c for c in CONTRACTS}


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return generate_grid_contracts(tmp_path_factory.mktemp("grid"))


def _norm(text: str) -> str:
    return " ".join(text.split())


@cache
def _pdf_page(path: Path, number: int) -> str:
    return _norm(PdfReader(path).pages[number - 1].extract_text())


@cache
def _docx_sections(path: Path) -> dict[str, str]:
    sections: dict[str, list[str]] = {}
    current = ""
    for paragraph in docx.Document(str(path)).paragraphs:
        if paragraph.style is not None and paragraph.style.name.startswith(("Heading", "Title")):
            current = paragraph.text
        sections.setdefault(current, []).append(paragraph.text)
    return {heading: _norm(" ".join(lines)) for heading, lines in sections.items()}


def _text_at(contract: Contract, path: Path, location: str) -> str:
    if contract.layout == "scanned_pdf":
        return _norm(" ".join(scanned_pages(contract)[int(location.removeprefix("p.")) - 1]))
    if contract.layout == "numbered_pdf":
        return _pdf_page(path, int(location.removeprefix("p.")))
    return _docx_sections(path)[location]


def test_the_set_covers_the_kinds_layouts_and_languages_the_issue_names(
        written: dict[str, Path]) -> None:
    rows = _rows()
    assert 12 <= len(rows) <= 16
    assert [row["id"] for row in rows] == [c.id for c in CONTRACTS] == list(written)
    assert {row["role"] for row in rows} == {
        "customer_contract", "supplier_contract", "lease", "employment", "loan"}
    assert {c.layout for c in CONTRACTS} == {"numbered_pdf", "docx_headings", "scanned_pdf"}
    assert {"de", "fr"} <= {row["language"] for row in rows}
    for row in rows:
        assert row["file"] == _BY_ID[row["id"]].path
        room = written[row["id"]].parents[1]
        assert room.name == GRID_DEAL
        assert written[row["id"]].relative_to(room).as_posix() == row["file"]


def test_every_row_fills_every_standard_column() -> None:
    columns = _truth()["columns"]
    for row in _rows():
        assert list(row["cells"]) == columns, row["id"]
        for column, cell in row["cells"].items():
            if cell["value"] == NOT_STATED:
                assert set(cell) == {"value"}, (row["id"], column)
            else:
                assert cell["quote"] and cell["location"], (row["id"], column)
    stated = [cell for _, _, cell in _cells() if cell["value"] != NOT_STATED]
    silent = [cell for _, _, cell in _cells() if cell["value"] == NOT_STATED]
    assert len(stated) > len(silent) > 20  # both kinds of answer are measured


@pytest.mark.parametrize(("contract_id", "column", "cell"),
                         [c for c in _cells() if c[2]["value"] != NOT_STATED],
                         ids=[f"{i}-{col}" for i, col, cell in _cells()
                              if cell["value"] != NOT_STATED])
def test_every_quote_stands_verbatim_at_its_location(written: dict[str, Path], contract_id: str,
                                                     column: str, cell: dict[str, Any]) -> None:
    contract = _BY_ID[contract_id]
    assert _norm(cell["quote"]) in _text_at(contract, written[contract_id], cell["location"])
    if clause := cell.get("clause"):
        assert any(_norm(cell["quote"]) in _norm(text) for text in _clause(contract, clause))


def _clause(contract: Contract, number: str) -> list[str]:
    """The paragraphs numbered `number`: `14.1` or, in a German contract, `§ 12 (3)`."""
    german = re.fullmatch(r"(§ \d+) (\(\d+\))", number)
    return [text for heading, clauses in contract.sections for text in clauses
            if (german and heading.startswith(german[1] + " ") and text.startswith(german[2]))
            or (not german and text.startswith(number + " "))]


def test_an_amendment_names_what_it_supersedes() -> None:
    rows = {row["id"]: row for row in _rows()}
    for row in rows.values():
        if amends := row.get("amends"):
            original = rows[amends["contract"]]
            assert original["superseded"] == {"by": row["id"], "columns": amends["columns"]}
            for column in amends["columns"]:
                assert row["cells"][column]["value"] != original["cells"][column]["value"]


def test_the_scanned_lease_has_no_text_layer(written: dict[str, Path]) -> None:
    [scan] = [c for c in CONTRACTS if c.layout == "scanned_pdf"]
    reader = PdfReader(written[scan.id])
    assert len(reader.pages) == len(scanned_pages(scan))
    assert all(not page.extract_text().strip() for page in reader.pages)


@pytest.mark.skipif(shutil.which("tesseract") is None,
                    reason="tesseract-ocr is not installed (scripts/test.sh)")
def test_ocr_reads_the_scanned_quotes_back_verbatim(written: dict[str, Path]) -> None:
    from manda.ingest.parsers import parse_file

    [scan] = [c for c in CONTRACTS if c.layout == "scanned_pdf"]
    parsed = parse_file(written[scan.id])
    text = _norm(" ".join(section.text for section in parsed.sections))
    quotes = [cell["quote"] for i, _, cell in _cells() if i == scan.id and "quote" in cell]
    assert quotes and all(_norm(quote) in text for quote in quotes)


def test_generation_is_byte_reproducible(written: dict[str, Path], tmp_path: Path) -> None:
    again = generate_grid_contracts(tmp_path)
    for contract_id, path in written.items():
        assert hashlib.sha256(again[contract_id].read_bytes()).hexdigest() == \
            hashlib.sha256(path.read_bytes()).hexdigest(), path.name
