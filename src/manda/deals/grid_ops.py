"""The review grid's operations on a deal (`/manda grid`, its buttons and the CLI): which
columns and folders, start, run and cancel a grid, decide its cells, take a column's "yes" cells
as red flags or its silent cells as questions to the seller, export it. `DealService` has them;
they are kept here so the deal service reads as the deal's other operations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from manda.errors import AlreadyDecidedError, MandaError
from manda.models import (
    AuditEntry,
    Deal,
    Document,
    Finding,
    GridColumn,
    GridRun,
    GridSelection,
    QAItem,
    ReviewDecision,
    ReviewDecisionKind,
)

if TYPE_CHECKING:  # types only: the grid and jobs load when first used
    from manda.grid.service import GridService
    from manda.grid.service import Progress as GridProgress
    from manda.grid.view import Grid
    from manda.hitl.qa import QAService
    from manda.hitl.review import ReviewService
    from manda.jobs import JobService
    from manda.kg.port import ChannelBindings, Corpus, Findings, QAList, ReviewLog

    class _GridStore(Corpus, Findings, ReviewLog, QAList, ChannelBindings):
        """The store roles the grid operations read."""

GRID_STARTED = "grid.started"
GRID_CANCELLED = "grid.cancelled"
GRID_FLAGGED = "grid.flagged"


class GridOperations:
    """The grid's deal operations, mixed into `DealService`, whose stores, services and audit
    they use (the attributes declared below)."""

    _graph: _GridStore
    _review: ReviewService
    _qa: QAService
    _jobs: JobService
    _ingest_via_queue: bool

    if TYPE_CHECKING:  # DealService's own, which these operations call
        @property
        def grids(self) -> GridService: ...

        async def require(self, deal_id: str) -> Deal: ...

        async def documents(self, deal_id: str) -> list[Document]: ...

        async def _audit(self, deal_id: str, action: str, subject_id: str, by: str,
                         detail: str) -> AuditEntry: ...

    def grid_columns(self, words: str | Sequence[str]) -> list[GridColumn]:
        """The columns a person's words ask for (standard columns, saved sets, questions)."""
        from manda.grid.columns import parse_columns

        return parse_columns(words)

    async def grid_folders(self, deal_id: str) -> list[str]:
        """The room's folders that hold documents (what a grid may be asked of)."""
        folders: set[str] = set()
        for document in await self._graph.list_documents(deal_id):
            parts = (document.path or "").split("/")[:-1]
            folders.update("/".join(parts[: n + 1]) for n in range(len(parts)))
        return sorted(folders)

    async def start_grid(
        self, deal_id: str, columns: Sequence[GridColumn], *, by: str,
        kind: str | None = None, folder: str | None = None, pattern: str | None = None,
        queue: bool | None = None,
    ) -> GridRun:
        """A new grid over the deal's documents of `kind` (a contract kind or a document role),
        in `folder`, whose names match `pattern`; audited. With the job queue (`queue`, else
        MANDA_INGEST_VIA_QUEUE) each document not read before becomes a job a worker reads;
        else the caller reads them here with `run_grid`."""
        await self.require(deal_id)
        selection = GridSelection(kind=kind, folder=folder, pattern=pattern)
        run = await self.grids.start(deal_id, selection, columns, by=by)
        await self._audit(deal_id, GRID_STARTED, run.id, by or "someone",
                          f"{run.title}: {len(run.document_ids)} documents, "
                          f"{len(columns)} columns")
        if queue if queue is not None else self._ingest_via_queue:
            names = {d.id: d.path or d.filename for d in await self.documents(deal_id)}
            wanted = {d: names.get(d, d) for d in run.document_ids
                      if await self.grids.missing(run, d)}
            jobs = await self._jobs.submit_grid(deal_id, run.id, wanted, requested_by=by)
            run = run.model_copy(update={"jobs": jobs})
            await self._graph.put_grid_run(run)
        return run

    async def run_grid(self, run: GridRun, *, progress: GridProgress | None = None) -> Grid:
        """Read the run's documents here (not through the job queue); the grid once done."""
        return await self.grids.run(run, progress=progress)

    async def grid(self, deal_id: str, run_id: str) -> Grid:
        """The grid as far as it has come; a queued document its worker gave up on is shown
        unreadable with the job's reason; a grid whose documents are all read is completed."""
        grid = await self.grids.grid(deal_id, run_id)
        if grid.run.jobs and not grid.finished:
            for row in grid.rows:
                job_id = grid.run.jobs.get(row.document.id)
                if job_id is None or len(row.cells) >= len(grid.columns):
                    continue
                job = await self._jobs.status(job_id)
                if job is not None and job.status.value == "failed":
                    await self.grids.mark_unreadable(grid.run, row.document.id,
                                                     job.error or "its job failed")
            grid = await self.grids.grid(deal_id, run_id)
        if grid.finished and grid.run.status.value == "running":
            grid = await self.grids.finish(deal_id, run_id)
        return grid

    async def grid_runs(self, deal_id: str, *, limit: int = 20) -> list[GridRun]:
        return await self._graph.list_grid_runs(deal_id, limit=limit)

    async def cancel_grid(self, deal_id: str, run_id: str, *, by: str) -> GridRun:
        """Stop a grid between documents, here and in every worker (audited)."""
        run = await self.grids.cancel(deal_id, run_id, by=by)
        await self._audit(deal_id, GRID_CANCELLED, run_id, by, run.title)
        return run

    async def decide_grid_cells(
        self, deal_id: str, run_id: str, decision: ReviewDecisionKind, *, by: str,
        column: str | None = None, document: str | None = None, reason: str = "",
    ) -> CellDecisions:
        """Approve or reject a grid's stated cells: one (`column` and `document`), a whole
        column, or a document's row; each cell once (decided cells are named, not changed)."""
        grid = await self.grid(deal_id, run_id)
        keys = _column_keys(grid, column)
        done = CellDecisions()
        for row in grid.rows:
            if document and document not in (row.document.id, row.name, row.document.filename):
                continue
            for key in keys:
                cell = row.cells.get(key)
                if cell is None or cell.finding_id is None:
                    done.not_stated += 1
                    continue
                try:
                    done.decided.append(await self._review.decide(
                        deal_id, cell.finding_id, decision, by=by, reason=reason))
                except AlreadyDecidedError:
                    done.already += 1
        return done

    async def grid_red_flags(self, deal_id: str, run_id: str, column: str, *,
                             by: str) -> list[Finding]:
        """The column's "yes" cells become red flags of its topic (`/manda redflags` lists
        them with their quotes); audited."""
        grid = await self.grid(deal_id, run_id)
        [key] = _column_keys(grid, column)
        spec_topic = _column_topic(key)
        flagged: list[Finding] = []
        for row in grid.rows:
            cell = row.cells.get(key)
            if cell is None or cell.finding_id is None or not _says_yes(cell.value):
                continue
            finding = await self._graph.get_finding(deal_id, cell.finding_id)
            if finding is None:
                continue
            marked = finding.model_copy(update={"attributes": {
                **finding.attributes, "red_flag": spec_topic or key}})
            await self._graph.add_findings([marked])
            flagged.append(marked)
        await self._audit(deal_id, GRID_FLAGGED, run_id, by,
                          f"{len(flagged)} cells of {column} taken as red flags")
        return flagged

    async def grid_questions(self, deal_id: str, run_id: str, column: str, *,
                             by: str) -> list[tuple[QAItem, bool]]:
        """A question to the seller for each document the column's cell says is silent
        ("not stated"), in the column's topic's category; each added once."""
        from manda.vocabulary import topic as topic_of

        grid = await self.grid(deal_id, run_id)
        [key] = _column_keys(grid, column)
        asked = next(c for c in grid.columns if c.key == key)
        topic_key = _column_topic(key)
        category = topic_of(topic_key).category if topic_key else "Legal"
        added: list[tuple[QAItem, bool]] = []
        for row in grid.rows:
            cell = row.cells.get(key)
            if cell is None or cell.status.value != "not_stated":
                continue
            question = _seller_question(asked, row.document.filename)
            added.append(await self._qa.add(deal_id, question, by=by, category=category,
                                            source=f"{row.name}, grid {run_id}"))
        return added

    async def export_grid(self, deal_id: str, run_id: str, path: Path) -> Path:
        """The grid as an XLSX at `path`: a row per document, a column per question, and each
        cell's quote and place beside it (see `manda.exports.grid`)."""
        from manda.exports.grid import write_grid

        return write_grid(path, await self.grid(deal_id, run_id))


@dataclass
class CellDecisions:
    """What deciding a grid's cells did: the decisions made, cells decided before, cells with
    nothing to decide (not stated, unreadable)."""

    decided: list[ReviewDecision] = field(default_factory=list)
    already: int = 0
    not_stated: int = 0


def _column_keys(grid: Grid, column: str | None) -> list[str]:
    """The grid's column keys `column` names (its key or name; every column when None)."""
    if column is None:
        return [c.key for c in grid.columns]
    from manda.grid.columns import parse_columns

    wanted = " ".join(column.lower().split())
    named = {c.key for c in parse_columns(column)}  # any of its names, in any language
    for c in grid.columns:
        if wanted in (c.key.lower(), c.name.lower(), c.wording) or c.key in named:
            return [c.key]
    raise MandaError(f"The grid has no column “{column}”.",
                     hint="Its columns: " + ", ".join(c.name for c in grid.columns) + ".")


def _column_topic(key: str) -> str | None:
    from manda.vocabulary.grid import grid_vocabulary

    try:
        return grid_vocabulary().column(key).topic
    except KeyError:
        return None


def _says_yes(value: object) -> bool:
    return value is True or (isinstance(value, dict) and bool(value.get("terminable")))


def _seller_question(column: GridColumn, filename: str) -> str:
    if column.standard:
        from manda.vocabulary.grid import grid_vocabulary

        return grid_vocabulary().column(column.key).question_for(filename)
    asked = column.name.rstrip(" ?")
    return f"{filename} does not say: {asked}? Please confirm."
