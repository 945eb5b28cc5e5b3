"""The Pennine room keeps its own conventions and its figures agree across files."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import docx
import openpyxl
import pptx
import pytest
from pypdf import PdfReader

from manda.sample import generate_sample_rooms
from manda.sample.pennine_facts import (
    ACCOUNTS,
    BUDGET,
    CENSUS,
    EMAIL,
    FILES,
    IRL,
    IRL_ITEMS,
    MGMT,
    PENNINE,
    REGISTER,
    UNCOVERED_IRL,
)


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_sample_rooms(tmp_path_factory.mktemp("rooms"))[PENNINE]


def _at(room: Path, name: str) -> Path:
    return room / next(f.path for f in FILES if f.name == name)


def _sheet(room: Path, name: str, sheet: str) -> list[tuple[object, ...]]:
    book = openpyxl.load_workbook(_at(room, name), data_only=True)
    return list(book[sheet].iter_rows(values_only=True))


def test_files_sit_in_numbered_vdr_folders(room: Path) -> None:
    for file in FILES:
        top, sub = file.folder.split("/")
        assert re.match(r"^\d \w", top) and sub.startswith(top.split()[0] + ".")
        assert file.name.startswith(sub.split()[0] + ".")
    assert not any(re.search(r"correct|_v\d|final|\(\d\)", f.name, re.I) for f in FILES)


def test_audited_statements_have_year_columns_and_a_thousands_caption(room: Path) -> None:
    page = PdfReader(_at(room, ACCOUNTS)).pages[1].extract_text()
    assert "All amounts in £000" in page
    assert re.search(r"£000 Note 2024 2023", " ".join(page.split()))


def test_quarters_down_rows_and_months_across_columns_agree(room: Path) -> None:
    quarterly = {row[0]: row for row in _sheet(room, MGMT, "Quarterly") if row[0]}
    assert quarterly["FY24"][2] == sum(quarterly[f"Q{q} FY24"][2] for q in range(1, 5)) == 14_200
    monthly = _sheet(room, MGMT, "Monthly P&L")
    header, revenue, ebitda = monthly[3], monthly[4], monthly[8]
    assert [h.strftime("%b %Y") for h in header[1:7]] == [  # type: ignore[union-attr]
        "Apr 2024", "May 2024", "Jun 2024", "Jul 2024", "Aug 2024", "Sep 2024"]
    assert sum(revenue[1:4]) == quarterly["Q1 FY25"][2]  # type: ignore[arg-type]
    assert sum(revenue[4:7]) == quarterly["Q2 FY25"][2]  # type: ignore[arg-type]
    assert revenue[7] == quarterly["H1 FY25"][2] == 7_450
    assert sum(ebitda[4:7]) == quarterly["Q2 FY25"][5] == 720  # type: ignore[arg-type]


def test_budget_and_actuals_live_in_different_files(room: Path) -> None:
    budget = {row[0]: row for row in _sheet(room, BUDGET, "Budget FY25") if row[0]}
    assert budget["Revenue"][2] == 3_950 and budget["EBITDA"][2] == 820
    assert budget["Revenue"][5] == 15_800


def test_register_has_share_classes_as_columns_summing_to_100_percent(room: Path) -> None:
    rows = _sheet(room, REGISTER, "Register")
    assert rows[3] == ("Shareholder", "A Ordinary", "B Ordinary", "C Growth", "EMI options",
                       "Total (fully diluted)", "% fully diluted")
    holders = rows[4:10]
    assert sum(r[5] for r in holders) == rows[10][5] == 1_000_000  # type: ignore[misc]
    assert sum(r[6] for r in holders) == pytest.approx(1.0)  # type: ignore[misc]


def test_census_lists_126_people_with_salaries(room: Path) -> None:
    with _at(room, CENSUS).open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 126
    assert len({r["Employee ID"] for r in rows}) == 126
    okafor = next(r for r in rows if r["Name"] == "Sarah Okafor")
    assert okafor["Base salary (GBP)"] == "118000"
    assert not any("Finance Director" in r["Job title"] for r in rows)


def test_request_list_has_section_rows_instead_of_a_category_column(room: Path) -> None:
    rows = [r for r in _sheet(room, IRL, "Requests")[3:] if r[0]]
    assert rows[0] == ("Ref", "Request", "Priority", "Status", "VDR reference")
    items = [r for r in rows[1:] if "." in str(r[0])]
    assert [r[0] for r in items] == [i.ref for i in IRL_ITEMS]
    assert [r[1] for r in rows[1:] if "." not in str(r[0])] == [
        "Financial", "Commercial", "Legal", "HR", "Operations", "IT"]
    assert len(UNCOVERED_IRL) == 8
    insurance = next(i for i in IRL_ITEMS if i.ref == "3.5")
    assert insurance.status == "Uploaded" and not insurance.covered


def test_the_price_is_stated_only_in_the_email(room: Path) -> None:
    email = _at(room, EMAIL).read_text(encoding="utf-8")
    assert email.startswith("From: ") and "\nSubject: RE: Project Kestrel" in email
    assert "enterprise value of £21.5m" in email
    others = [p for p in room.rglob("*") if p.is_file() and p.name != EMAIL]
    assert len(others) == len(FILES) - 1
    for path in others:
        assert "21.5" not in _text(path), path.name


def _text(path: Path) -> str:
    if path.suffix == ".pdf":
        return " ".join(page.extract_text() for page in PdfReader(path).pages)
    if path.suffix == ".xlsx":
        book = openpyxl.load_workbook(path, data_only=True)
        return " ".join(str(v) for ws in book for row in ws.iter_rows(values_only=True)
                        for v in row if v is not None)
    if path.suffix == ".docx":
        document = docx.Document(str(path))
        cells = [c.text for t in document.tables for r in t.rows for c in r.cells]
        return " ".join([p.text for p in document.paragraphs] + cells)
    if path.suffix == ".pptx":
        return " ".join(shape.text_frame.text if shape.has_text_frame else
                        " ".join(c.text for r in shape.table.rows for c in r.cells)
                        for slide in pptx.Presentation(str(path)).slides
                        for shape in slide.shapes if shape.has_text_frame or shape.has_table)
    return path.read_text(encoding="utf-8")
