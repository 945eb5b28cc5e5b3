"""The review grid's held-out contracts (issue 28): generated reproducibly, in every layout the
issue names, and every ground-truth quote stands verbatim at its place in its document."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import pytest
from fixtures.contract_sets import NOT_STATED, cells, check_quote, norm, truth
from pypdf import PdfReader

from manda.sample.grid_contract_texts import CONTRACTS
from manda.sample.grid_contracts import GRID_DEAL, generate_grid_contracts, scanned_pages

TRUTH = Path(__file__).parents[2] / "evals" / "grid" / "contracts.yaml"


def _truth() -> dict[str, Any]:
    return truth(TRUTH)


def _rows() -> list[dict[str, Any]]:
    return list(_truth()["contracts"])


def _cells() -> list[tuple[str, str, dict[str, Any]]]:
    return cells(TRUTH)


_BY_ID = {c.id: c for c in CONTRACTS}


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return generate_grid_contracts(tmp_path_factory.mktemp("grid"))


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
    check_quote(_BY_ID[contract_id], written[contract_id], cell)


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
    text = norm(" ".join(section.text for section in parsed.sections))
    quotes = [cell["quote"] for i, _, cell in _cells() if i == scan.id and "quote" in cell]
    assert quotes and all(norm(quote) in text for quote in quotes)


def test_generation_is_byte_reproducible(written: dict[str, Path], tmp_path: Path) -> None:
    again = generate_grid_contracts(tmp_path)
    for contract_id, path in written.items():
        assert hashlib.sha256(again[contract_id].read_bytes()).hexdigest() == \
            hashlib.sha256(path.read_bytes()).hexdigest(), path.name
