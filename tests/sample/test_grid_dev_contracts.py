"""The review grid's development contracts (issue 28): every layout the issue names, and every
ground-truth quote stands verbatim at its place in its document (the held-out set's checks)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import pytest
from fixtures.contract_sets import NOT_STATED, cells, check_quote, norm, truth
from pypdf import PdfReader

from manda.sample.grid_contracts import scanned_pages
from manda.sample.grid_dev import DEV_DEAL, generate_grid_dev_contracts
from manda.sample.grid_dev_texts import DEV_CONTRACTS

TRUTH = Path(__file__).parents[2] / "evals" / "grid" / "dev.yaml"
_BY_ID = {c.id: c for c in DEV_CONTRACTS}
_STATED = [c for c in cells(TRUTH) if c[2]["value"] != NOT_STATED]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return generate_grid_dev_contracts(tmp_path_factory.mktemp("grid-dev"))


def test_the_set_covers_the_layouts_languages_and_kinds(written: dict[str, Path]) -> None:
    rows = truth(TRUTH)["contracts"]
    assert [row["id"] for row in rows] == [c.id for c in DEV_CONTRACTS] == list(written)
    assert {row["role"] for row in rows} == {
        "customer_contract", "supplier_contract", "lease", "employment", "loan"}
    assert {c.layout for c in DEV_CONTRACTS} == {"numbered_pdf", "docx_headings", "scanned_pdf"}
    assert {"de", "fr"} <= {row["language"] for row in rows} and len(rows) == 26
    for row in rows:
        assert row["file"] == _BY_ID[row["id"]].path
        assert written[row["id"]].relative_to(written[row["id"]].parents[1]).as_posix() == \
            row["file"]
        assert written[row["id"]].parents[1].name == DEV_DEAL
        assert list(row["cells"]) == truth(TRUTH)["columns"]


@pytest.mark.parametrize(("contract_id", "column", "cell"), _STATED,
                         ids=[f"{i}-{col}" for i, col, _ in _STATED])
def test_every_quote_stands_verbatim_at_its_location(written: dict[str, Path], contract_id: str,
                                                     column: str, cell: dict[str, Any]) -> None:
    check_quote(_BY_ID[contract_id], written[contract_id], cell)


def test_a_variation_names_what_it_supersedes() -> None:
    rows = {row["id"]: row for row in truth(TRUTH)["contracts"]}
    amending = [row for row in rows.values() if "amends" in row]
    assert amending
    for row in amending:
        original = rows[row["amends"]["contract"]]
        assert original["superseded"] == {"by": row["id"], "columns": row["amends"]["columns"]}


@pytest.mark.skipif(shutil.which("tesseract") is None,
                    reason="tesseract-ocr is not installed (scripts/test.sh)")
def test_the_scan_has_no_text_layer_and_ocr_reads_its_quotes(written: dict[str, Path]) -> None:
    from manda.ingest.parsers import parse_file

    [scan] = [c for c in DEV_CONTRACTS if c.layout == "scanned_pdf"]
    assert all(not page.extract_text().strip() for page in PdfReader(written[scan.id]).pages)
    assert len(PdfReader(written[scan.id]).pages) == len(scanned_pages(scan))
    text = norm(" ".join(section.text for section in parse_file(written[scan.id]).sections))
    quotes = [cell["quote"] for i, _, cell in _STATED if i == scan.id]
    assert quotes and all(norm(quote) in text for quote in quotes)


def test_generation_is_byte_reproducible(written: dict[str, Path], tmp_path: Path) -> None:
    again = generate_grid_dev_contracts(tmp_path)
    for contract_id, path in written.items():
        assert hashlib.sha256(again[contract_id].read_bytes()).hexdigest() == \
            hashlib.sha256(path.read_bytes()).hexdigest(), path.name
