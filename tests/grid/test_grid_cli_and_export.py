"""`manda grid` from a terminal (its JSON shape, the XLSX it writes, review and the Q&A from the
command line) and the workbook itself: a row per document, a column per question, the quote and
place as each cell's comment and on a second sheet, every text written as text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixtures.grid_room import dev_rows, saying_yes, stated
from openpyxl import load_workbook

from manda.app import Manda
from manda.cli import main
from manda.exports.grid import write_grid
from manda.grid.columns import parse_columns
from manda.models import CellStatus

DEAL = "fernhill"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_manda_grid_json_and_xlsx(grid_home_copy: Path, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MANDA_HOME", str(grid_home_copy))
    out_file = tmp_path / "grid.xlsx"
    code, out, err = run(capsys, "grid", "--deal", DEAL, "--role", "customer_contract",
                         "--columns", "counterparty, term, change of control, termination for "
                         "convenience, exclusivity", "--out", str(out_file), "--json")
    assert code == 0, err
    grid = json.loads(out)
    assert set(grid) == {"grid", "deal", "title", "status", "done", "total", "summary",
                         "columns", "rows", "unreadable", "usage"}
    customer = dev_rows("customer_contract")
    assert grid["summary"].startswith(f"{len(customer)} customer contracts: "
                                      f"{len(saying_yes(customer, 'change_of_control'))} with "
                                      "change of control")
    assert [c["key"] for c in grid["columns"]] == [
        "counterparty", "term", "change_of_control", "termination_for_convenience",
        "exclusivity"]
    cordova = next(r for r in grid["rows"] if "Cordova" in r["document"])
    cell = cordova["cells"]["termination_for_convenience"]
    assert set(cell) >= {"status", "value", "shown", "quote", "place", "page", "clause",
                         "finding_id", "review", "searched"}
    assert cell["value"] == {"terminable": True, "by": "counterparty", "notice": "90 days"}
    assert cell["place"] == "Termination" and cell["review"] == "pending"
    hallam = next(r for r in grid["rows"] if r["document"].endswith("Services Ltd.pdf"))
    assert hallam["superseded_by"] == {
        "document": "Deed of Variation - Hallam Water Supply Agreement.pdf",
        "columns": ["term", "termination_for_convenience"]}
    assert hallam["cells"]["term"]["replaced_by"] == hallam["superseded_by"]["document"]
    assert grid["usage"]["input_tokens"] == 0 and out_file.exists()
    assert "Wrote" in err

    code, out, _ = run(capsys, "grid", "approve", "--deal", DEAL, "--grid", grid["grid"],
                       "--column", "exclusivity", "--by", "carol")
    said = len(stated(customer, "exclusivity"))
    silent = len(customer) - said
    assert code == 0 and out.startswith(
        f"{said} cell(s) approved; 0 decided before; {silent} with nothing")
    code, out, _ = run(capsys, "grid", "ask-seller", "--deal", DEAL, "--grid", grid["grid"],
                       "--column", "exclusivity", "--by", "carol")
    assert code == 0 and out.startswith(f"{silent} question(s) added to the Q&A list")
    code, _, err = run(capsys, "grid", "--deal", DEAL, "--role", "spaceship")
    assert code == 1 and "“spaceship” is no kind of document the grid knows" in err
    assert "customer_contract" in err


async def test_the_workbook_has_a_row_a_document_and_the_quotes_beside(
        grid_app: Manda, tmp_path: Path) -> None:
    run_ = await grid_app.deals.start_grid(DEAL, parse_columns(
        "governing law, liability cap, =HYPERLINK(\"http://x\")"), by="t", kind="contract",
        queue=False)
    grid = await grid_app.deals.run_grid(run_)
    # a document quote that starts like a formula is written as text, never evaluated
    row = grid.rows[0]
    row.cells["governing_law"] = row.cells["governing_law"].model_copy(update={
        "shown": "=1+2", "quote": "@SUM(A1:A9)"})
    book = load_workbook(write_grid(tmp_path / "g.xlsx", grid))
    sheet = book["Grid"]
    header = [c.value for c in sheet[4]]
    assert header[:2] == ["Document", "Kind"] and header[-1] == "Amended by / amends"
    assert "'=HYPERLINK(\"http://x\")" in header
    assert sheet.max_row == 4 + len(grid.rows) == 4 + len(dev_rows())
    law = sheet.cell(row=5, column=3)
    assert law.value == "'=1+2" and law.data_type == "s"
    place = row.cells["governing_law"].place
    assert place and law.comment is not None and law.comment.text == f"“@SUM(A1:A9)” — {place}"
    quotes = book["Quotes"]
    assert [c.value for c in quotes[1]][:6] == ["Document", "Column", "Value", "Review",
                                                "Quote", "Place"]
    silent = [r for r in quotes.iter_rows(min_row=2, values_only=True)
              if r[2] == "Not stated"]
    assert silent and all(str(r[9]).startswith("searched ") for r in silent)
    stated = [c for r in grid.rows for c in r.cells.values() if c.status is CellStatus.STATED]
    assert quotes.max_row == 1 + 3 * len(grid.rows) and len(stated) > 12
