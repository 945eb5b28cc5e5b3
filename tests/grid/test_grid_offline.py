"""The review grid offline, on the dev contracts: every standard column read right with its quote
standing verbatim in its document, each document's kind, the amended contract's row pointing to
its amendment, the summary line, and a question in plain words answered by meaning."""

from __future__ import annotations

from fixtures.grid_room import DEV_TRUTH, dev_rows, saying_yes

from manda.app import Manda
from manda.evals.grid import GRID_SETS, _score
from manda.grid.columns import parse_columns, standard_column
from manda.grid.passages import read_document
from manda.models import CellStatus

DEAL = "fernhill"
TRUTH = DEV_TRUTH


async def test_every_standard_column_of_the_dev_set_is_read_with_a_verbatim_quote(
        grid_app: Manda) -> None:
    columns = [standard_column(k) for k in TRUTH.columns]
    run = await grid_app.deals.start_grid(DEAL, columns, by="test", kind="contract", queue=False)
    grid = await grid_app.deals.run_grid(run)
    texts = {row.document.id: read_document(await grid_app.graph.list_chunks(DEAL,
                                                                              row.document.id))
             for row in grid.rows}
    score = _score(GRID_SETS["dev"], TRUTH, grid, texts)
    for column, counts in score.columns.items():
        assert (counts.precision, counts.recall) == (1.0, 1.0), (column, counts.misses)
    assert score.quotes[0] == score.quotes[1] > 80
    assert score.kinds_right == score.documents == len(TRUTH.rows)
    assert score.amended_rows == 1 and not score.amendments
    changing = len(saying_yes(dev_rows(), "change_of_control"))
    assert grid.summary.startswith(f"{len(TRUTH.rows)} contracts: {changing} with change of "
                                   "control, ")
    assert "1 amended by a later document" in grid.summary


async def test_a_grid_of_one_kind_and_a_question_in_plain_words(grid_app: Manda) -> None:
    columns = parse_columns("counterparty, rent, Is the rent reviewed upwards only?")
    run = await grid_app.deals.start_grid(DEAL, columns, by="test", kind="lease", queue=False)
    grid = await grid_app.deals.run_grid(run)
    leases = len(dev_rows("lease"))
    assert len(grid.rows) == leases and grid.summary == f"{leases} leases"
    row = next(r for r in grid.rows if r.document.filename.startswith("Lease - Unit 7"))
    assert row.cells["counterparty"].shown == "Brightside Estates Limited"
    assert row.cells["rent"].value == {"amount": 86500.0, "unit": "GBP"}
    asked = row.cells[columns[2].key]
    assert asked.status is CellStatus.STATED
    assert "reviewed upwards only" in asked.quote
    assert asked.location is not None and asked.location.label == "p.1, OCR"


async def test_a_silent_document_says_what_was_searched(grid_app: Manda) -> None:
    run = await grid_app.deals.start_grid(DEAL, parse_columns("exclusivity"), by="test",
                                          kind="employment", queue=False)
    grid = await grid_app.deals.run_grid(run)
    for row in grid.rows:
        cell = row.cells["exclusivity"]
        assert cell.status is CellStatus.NOT_STATED
        assert cell.searched.startswith("searched ") and "exclusiv" in cell.searched


async def test_a_question_in_plain_words_is_answered_only_where_a_clause_speaks_to_it(
        grid_app: Manda) -> None:
    """Meaning alone is no answer: with a multilingual embedder every clause of a contract is
    close to any question about it, so the sentence (with its heading) must carry the question's
    own words. The distributor's minimum-purchase clause answers; the termination clause that
    only mentions it does not, nor does any clause of the contracts that have none."""
    columns = parse_columns("Is there a minimum purchase commitment?")
    run = await grid_app.deals.start_grid(DEAL, columns, by="test", kind="customer_contract",
                                          queue=False)
    grid = await grid_app.deals.run_grid(run)
    answered = {row.document.filename: row.cells[columns[0].key] for row in grid.rows}
    [stated] = [name for name, cell in answered.items() if cell.status is CellStatus.STATED]
    assert "Pellworth" in stated and answered[stated].quote.startswith("5.1 ")
    assert all(cell.status is CellStatus.NOT_STATED
               for name, cell in answered.items() if name != stated)
