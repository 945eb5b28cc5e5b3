"""The review grid as work: cells kept per (document version, column wording) so asking again
reads nothing and a new document alone is read; cancelled between documents; a job per document
that a worker restart does not lose; unreadable documents named with the reason; cells reviewed
one by one or by column; a column taken to red flags and to the seller's Q&A list."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
from fixtures.grid_room import dev_rows, saying_yes, stated

from manda.app import Manda
from manda.config import Settings
from manda.grid.columns import parse_columns
from manda.grid.offline import OfflineReader, Reading
from manda.grid.service import GridService
from manda.models import CellStatus, FindingStatus, GridCell, GridColumn, ReviewDecisionKind

DEAL = "fernhill"
CUSTOMER = len(dev_rows("customer_contract"))  # the dev set's customer contracts
SUPPLIER = len(dev_rows("supplier_contract"))


class CountingReader:
    """The offline reader, counting the documents it is asked to read."""

    def __init__(self, inner: OfflineReader) -> None:
        self._inner = inner
        self.name = inner.name
        self.concurrency = inner.concurrency
        self.read_documents: list[str] = []

    async def read(self, reading: Reading, columns: Sequence[GridColumn]) -> list[GridCell]:
        self.read_documents.append(reading.document.filename)
        return await self._inner.read(reading, columns)


@pytest.fixture
def counting(grid_app: Manda) -> CountingReader:
    reader = CountingReader(OfflineReader(embedder=grid_app.embedder))
    grid_app.__dict__["grid"] = GridService(graph=grid_app.graph, reader=reader)
    return reader


async def test_asking_again_reads_nothing_and_a_new_column_reads_only_itself(
        grid_app: Manda, counting: CountingReader) -> None:
    deals = grid_app.deals
    first = await deals.start_grid(DEAL, parse_columns("term, governing law"), by="a",
                                   kind="customer_contract", queue=False)
    await deals.run_grid(first)
    assert len(counting.read_documents) == CUSTOMER

    again = await deals.start_grid(DEAL, parse_columns("governing law, term"), by="b",
                                   kind="customer_contract", queue=False)
    grid = await deals.run_grid(again)
    assert len(counting.read_documents) == CUSTOMER  # every cell kept: nothing read again
    assert grid.finished and grid.spend.documents_read == 0

    wider = await deals.start_grid(DEAL, parse_columns("term, exclusivity"), by="c",
                                   kind="customer_contract", queue=False)
    grid = await deals.run_grid(wider)
    assert len(counting.read_documents) == 2 * CUSTOMER  # each once more, for exclusivity
    assert {c.column for row in grid.rows for c in row.cells.values()} == {"term",
                                                                            "exclusivity"}


async def test_a_new_document_alone_is_read_when_the_grid_is_asked_again(
        grid_app: Manda, counting: CountingReader, grid_written: dict[str, Path],
        tmp_path: Path) -> None:
    deals = grid_app.deals
    await deals.run_grid(await deals.start_grid(DEAL, parse_columns("governing law"), by="a",
                                                kind="supplier_contract", queue=False))
    assert len(counting.read_documents) == SUPPLIER
    copy = tmp_path / "Rahmenliefervertrag - Kessler Gusstechnik GmbH (signed).pdf"
    shutil.copyfile(grid_written["D05"], copy)
    with copy.open("ab") as more:  # the same contract, other bytes: a document of its own
        more.write(b"\n%% signed copy\n")
    await grid_app.ingest.ingest(DEAL, [copy], display_names={copy: copy.name})
    grid = await deals.run_grid(await deals.start_grid(
        DEAL, parse_columns("governing law"), by="a", kind="supplier_contract", queue=False))
    assert counting.read_documents[SUPPLIER:] == [copy.name]
    assert len(grid.rows) == SUPPLIER + 1


async def test_a_cancelled_grid_stops_between_documents_and_keeps_what_it_read(
        grid_app: Manda, counting: CountingReader) -> None:
    deals = grid_app.deals
    run = await deals.start_grid(DEAL, parse_columns("term"), by="alice", kind="contract",
                                 queue=False)
    seen = 0

    async def progress(grid) -> None:  # type: ignore[no-untyped-def]
        nonlocal seen
        seen += 1
        if seen == 2:
            await deals.cancel_grid(DEAL, run.id, by="alice")

    grid = await deals.run_grid(run, progress=progress)
    assert grid.run.status.value == "cancelled" and grid.run.cancelled_by == "alice"
    assert 2 <= grid.done < grid.total
    audit = [e.action for e in await deals.audit_log(DEAL)]
    assert "grid.started" in audit and "grid.cancelled" in audit

    again = await deals.run_grid(await deals.start_grid(DEAL, parse_columns("term"), by="alice",
                                                        kind="contract", queue=False))
    assert again.finished and len(counting.read_documents) == again.total


async def test_a_job_per_document_survives_a_worker_that_stops(grid_app: Manda) -> None:
    deals = grid_app.deals
    run = await deals.start_grid(DEAL, parse_columns("counterparty, governing law"), by="bob",
                                 kind="customer_contract", queue=True)
    assert len(run.jobs) == CUSTOMER
    grid = await deals.grid(DEAL, run.id)
    assert grid.done == 0 and not grid.finished

    lost = await grid_app.job_queue.claim("worker-that-dies", wait=0.0, ttl=0.05)
    assert lost is not None and lost.grid is not None and lost.grid.run_id == run.id
    await asyncio.sleep(0.2)  # its heartbeat lapses: the next worker gives the job back first
    assert await grid_app.jobs.run_worker(asyncio.Event(), once=True) == CUSTOMER

    grid = await deals.grid(DEAL, run.id)
    assert grid.finished and grid.run.status.value == "completed"
    assert all(row.cells["governing_law"].status is CellStatus.STATED for row in grid.rows)
    assert (await deals.job_status(lost.id)).status.value == "completed"  # type: ignore[union-attr]


async def test_a_document_with_no_text_is_named_unreadable_with_why(
        grid_written: dict[str, Path], tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = Settings(MANDA_HOME=home, MANDA_OCR="off")
    async with Manda(settings, workflows=False) as app:
        await app.ingest.ingest(DEAL, [grid_written["D07"], grid_written["D09"]])
        run = await app.deals.start_grid(DEAL, parse_columns("term"), by="a", kind="contract",
                                         queue=False)
        grid = await app.deals.run_grid(run)
    assert [name for name, _ in grid.unreadable] == [
        "Lease - Unit 7 Don Valley Trade Park (scan).pdf"]
    assert "OCR is off" in grid.unreadable[0][1] and "turn OCR on" in grid.unreadable[0][1]
    assert "1 could not be read" in grid.summary


async def test_cells_are_reviewed_one_by_one_or_a_column_at_once(grid_app: Manda) -> None:
    deals = grid_app.deals
    run = await deals.start_grid(DEAL, parse_columns("change of control, exclusivity"), by="a",
                                 kind="customer_contract", queue=False)
    grid = await deals.run_grid(run)
    hallam = next(r for r in grid.rows if r.document.filename.startswith("Supply Agreement"))

    one = await deals.decide_grid_cells(DEAL, run.id, ReviewDecisionKind.REJECT, by="carol",
                                        column="Change of control", document=hallam.name,
                                        reason="read the whole clause")
    assert len(one.decided) == 1
    column = await deals.decide_grid_cells(DEAL, run.id, ReviewDecisionKind.APPROVE, by="carol",
                                           column="change of control")
    stated = sum(1 for r in grid.rows if r.cells["change_of_control"].finding_id)
    assert (len(column.decided), column.already) == (stated - 1, 1)
    assert column.not_stated == len(grid.rows) - stated

    after = await deals.grid(DEAL, run.id)
    reviewed = {r.document.filename: r.review.get("change_of_control") for r in after.rows}
    assert reviewed[hallam.document.filename] is FindingStatus.REJECTED
    assert FindingStatus.APPROVED in reviewed.values()
    finding = await grid_app.graph.get_finding(DEAL, hallam.cells["change_of_control"].finding_id
                                               or "")
    assert finding is not None and finding.excerpt == hallam.cells["change_of_control"].quote


async def test_a_column_goes_to_red_flags_and_its_silences_to_the_seller(
        grid_app: Manda) -> None:
    deals = grid_app.deals
    run = await deals.start_grid(DEAL, parse_columns("change of control, most favoured nation"),
                                 by="a", kind="contract", queue=False)
    grid = await deals.run_grid(run)
    flagged = await deals.grid_red_flags(DEAL, run.id, "change of control", by="dan")
    yes = [r for r in grid.rows if r.cells["change_of_control"].value is True]
    assert len(flagged) == len(yes) == len(saying_yes(dev_rows(), "change_of_control"))
    assert {f.attributes["red_flag"] for f in flagged} == {"change_of_control"}

    added = await deals.grid_questions(DEAL, run.id, "most favoured nation", by="dan")
    silent = [r for r in grid.rows
              if r.cells["most_favoured_nation"].status is CellStatus.NOT_STATED]
    assert len(added) == len(silent) == len(dev_rows()) - len(stated(dev_rows(),
                                                                     "most_favoured_nation"))
    assert all(fresh for _, fresh in added)
    questions = await deals.questions(DEAL)
    assert any("Revolving Facility Agreement - Northgate Bank plc.docx" in q.question
               and "most-favoured-nation" in q.question for q in questions)
    again = await deals.grid_questions(DEAL, run.id, "most favoured nation", by="dan")
    assert not any(fresh for _, fresh in again)  # each question once


async def test_red_flags_list_the_cells_taken_from_a_grid_with_their_quotes(
        grid_app: Manda) -> None:
    deals = grid_app.deals
    run = await deals.start_grid(DEAL, parse_columns("exclusivity"), by="a",
                                 kind="supplier_contract", queue=False)
    await deals.run_grid(run)
    await deals.grid_red_flags(DEAL, run.id, "exclusivity", by="dan")
    answer = await grid_app.answers.red_flags(DEAL)
    assert "Exclusive Supply Agreement - Marsden Polymers Ltd.pdf: Yes — “1.1 Fernhill shall " \
           "purchase all of its requirements" in answer.answer
    assert any(c.document.startswith("Exclusive Supply Agreement") for c in answer.citations)
