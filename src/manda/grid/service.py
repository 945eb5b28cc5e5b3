"""The review grid as work: choose the documents, read each once per column wording, keep the
cells, and show the grid as it fills.

`start` decides what a run covers (its documents and their kinds, the target, which document
amends which) and keeps it; `read_document` reads one document's missing cells — what a job does,
so a worker that restarts picks up where it was; `run` reads a run's documents here, several at
once within the reader's budget, cancellable; `grid` assembles the rows from the kept cells at any
moment. A cell is computed once per (document version, column wording, reader): asking again
reads only documents and columns not read before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from manda.errors import MandaError
from manda.grid.documents import (
    Profile,
    amendments,
    kind_of,
    known_selection,
    matches_selection,
)
from manda.grid.gate import ground
from manda.grid.offline import Reading, made_on
from manda.grid.parties import parties_of, target_of
from manda.grid.passages import normalised, read_document
from manda.grid.view import Grid, GridRow, GridSpend, Successor
from manda.ingest.decisions import STATUS_OF
from manda.kg.port import Corpus, Findings, GridCells, ReviewLog
from manda.models import (
    CellStatus,
    Chunk,
    Confidence,
    Document,
    DocumentStatus,
    Finding,
    FindingKind,
    FindingStatus,
    GridCell,
    GridColumn,
    GridRun,
    GridRunStatus,
    GridSelection,
    utcnow,
)
from manda.observability.logging import estimate_cost
from manda.vocabulary.grid import grid_vocabulary

__all__ = ["GridReader", "GridService", "Progress"]

log = logging.getLogger(__name__)

CELL_CONFIDENCE = 0.7  # a cell waits for a person: the grid is a review tool
Progress = Callable[[Grid], Awaitable[None]]


class GridReader(Protocol):
    """Reads one document's cells for some columns (offline, or Claude)."""

    name: str
    concurrency: int

    async def read(self, reading: Reading, columns: Sequence[GridColumn]) -> list[GridCell]: ...


class GridStore(Corpus, Findings, ReviewLog, GridCells, Protocol):
    """The store roles the grid reads and writes."""


class GridService:
    """Runs review grids over one store, with one reader (Claude when configured)."""

    def __init__(self, *, graph: GridStore, reader: GridReader,
                 model: str | None = None) -> None:
        """`model` names the priced model behind `reader` (None: offline, no cost)."""
        self._graph = graph
        self.reader = reader
        self._model = model
        self._cancelled: set[str] = set()

    # ---------------------------------------------------------------- starting

    async def start(self, deal_id: str, selection: GridSelection,
                    columns: Sequence[GridColumn], *, by: str = "") -> GridRun:
        """A new run over the documents `selection` names; `MandaError` when there are none."""
        known_selection(selection)
        if not columns:
            raise MandaError("A grid needs at least one column.",
                             hint='Name them, e.g. --columns "counterparty, term, change of '
                                  'control", or a saved set: contracts, leases, employment, debt.')
        profiles = await self._profiles(deal_id)
        target = target_of(deal_id, [p.parties for p in profiles if p.parties])
        kinds = {p.document.id: kind_of(p, target) for p in profiles}
        chosen = [p for p in profiles
                  if matches_selection(p.document, selection, kinds[p.document.id])]
        if not chosen:
            raise MandaError(f"Deal {deal_id} has no {_title(selection)} to put in a grid.",
                             hint="Check the kind, folder or pattern (`manda docs --deal "
                                  f"{deal_id}` lists the documents), or ingest them first.")
        chosen.sort(key=lambda p: (p.document.path or p.document.filename).lower())
        dated = {p.document.id: made_on(p.text) for p in chosen}
        run = GridRun(
            id=GridRun.new_id(), deal_id=deal_id, selection=selection, columns=list(columns),
            document_ids=[p.document.id for p in chosen], reader=self.reader.name,
            title=_title(selection), target=sorted(target),
            kinds={p.document.id: kinds[p.document.id] or "" for p in chosen},
            amends=amendments(chosen, target, dated), requested_by=by)
        await self._graph.put_grid_run(run)
        log.info("grid %s: %d document(s) of deal %s, %d column(s), read by %s", run.id,
                 len(chosen), deal_id, len(columns), self.reader.name)
        return run

    async def _profiles(self, deal_id: str) -> list[Profile]:
        out: list[Profile] = []
        for document in await self._graph.list_documents(deal_id):
            text = read_document(await self._graph.list_chunks(deal_id, document.id))
            out.append(Profile(document, text, parties_of(text)))
        return out

    # ---------------------------------------------------------------- reading

    async def missing(self, run: GridRun, document_id: str) -> list[GridColumn]:
        """The run's columns this document has no kept cell for (or only an unreadable one)."""
        kept = await self._graph.grid_cells(run.deal_id, [document_id],
                                            [c.wording for c in run.columns], run.reader)
        have = {c.wording for c in kept if c.status is not CellStatus.UNREADABLE}
        return [c for c in run.columns if c.wording not in have]

    async def read_document(self, deal_id: str, run_id: str, document_id: str) -> int:
        """Read the document's missing cells for the run and keep them; how many were read.
        A cancelled run reads nothing; a document read before reads nothing again."""
        run = await self._require(deal_id, run_id)
        if run.status is GridRunStatus.CANCELLED or run_id in self._cancelled:
            return 0
        if run.reader != self.reader.name:
            raise MandaError(f"Grid {run_id} is read by {run.reader}, and this process reads "
                             f"with {self.reader.name}.",
                             hint="Run the workers with the same ANTHROPIC_API_KEY setting as "
                                  "the process that started the grid.")
        columns = await self.missing(run, document_id)
        if not columns:
            return 0
        document = await self._graph.get_document(deal_id, document_id)
        if document is None:
            raise MandaError(f"Document {document_id} is no longer in deal {deal_id}.")
        if document.status is DocumentStatus.FAILED:
            await self._unreadable(run, document_id, f"it could not be ingested: "
                                   f"{document.error or 'no reason was recorded'}")
            return 0
        chunks = await self._graph.list_chunks(deal_id, document_id)
        text = read_document(chunks)
        g = grid_vocabulary()
        reading = Reading(deal_id, document, text, parties_of(text), set(run.target),
                          g.language_of(text.text))
        cells = await self.reader.read(reading, columns)
        by_key = {c.key: c for c in columns}
        cells = [ground(c, by_key[c.column], text, language=reading.language) for c in cells]
        cells = await self._as_findings(document, cells, by_key, chunks)
        await self._graph.put_grid_cells(cells)
        return len(cells)

    async def _as_findings(self, document: Document, cells: list[GridCell],
                           columns: dict[str, GridColumn], chunks: Sequence[Chunk]
                           ) -> list[GridCell]:
        """Each stated cell as a finding for review (a decision made on it before is kept)."""
        findings: list[Finding] = []
        out: list[GridCell] = []
        for cell in cells:
            if cell.status is not CellStatus.STATED or cell.location is None:
                out.append(cell)
                continue
            column = columns[cell.column]
            subject = f"grid:{column.wording}"
            finding_id = Finding.make_id(cell.deal_id, document.id, cell.location.label, subject,
                                         None, cell.shown)
            decision = await self._graph.get_decision(cell.deal_id, finding_id)
            findings.append(Finding(
                id=finding_id, deal_id=cell.deal_id, document_id=document.id,
                chunk_id=_chunk_of(cell.quote, chunks), kind=FindingKind.CLAUSE,
                subject=subject, label=f"{column.name} — {document.filename}",
                value=_number(cell.value), value_text=cell.shown, entity=None,
                attributes={"column": column.key, "wording": column.wording,
                            "clause": cell.clause or "", "detail": cell.detail[:300]},
                doc_date=document.doc_date, excerpt=cell.quote, location=cell.location,
                confidence=CELL_CONFIDENCE,
                confidence_level=Confidence.from_score(CELL_CONFIDENCE),
                status=STATUS_OF[decision.decision] if decision else FindingStatus.PENDING,
                extractor=f"grid:{cell.reader}"))
            out.append(cell.model_copy(update={"finding_id": finding_id}))
        if findings:
            await self._graph.add_findings(findings)
        return out

    async def run(self, run: GridRun, *, progress: Progress | None = None) -> Grid:
        """Read every document of the run here, several at once; the grid once done. Cancelled
        (the task, or `cancel` from anywhere), it stops between documents, keeping what it
        read."""
        gate = asyncio.Semaphore(max(1, self.reader.concurrency))
        lock = asyncio.Lock()

        async def one(document_id: str) -> None:
            async with gate:
                if await self._stopped(run):
                    return
                try:
                    await self.read_document(run.deal_id, run.id, document_id)
                except MandaError as exc:
                    await self._unreadable(run, document_id, str(exc))
            if progress is not None:
                async with lock:
                    await progress(await self.grid(run.deal_id, run.id))

        try:
            await asyncio.gather(*(one(d) for d in run.document_ids))
        except asyncio.CancelledError:
            await self.cancel(run.deal_id, run.id, by=run.requested_by or "someone")
            raise
        return await self.finish(run.deal_id, run.id)

    async def _stopped(self, run: GridRun) -> bool:
        if run.id in self._cancelled:
            return True
        latest = await self._graph.get_grid_run(run.deal_id, run.id)
        return latest is None or latest.status is GridRunStatus.CANCELLED

    async def mark_unreadable(self, run: GridRun, document_id: str, why: str) -> None:
        """Keep the document's cells of the run as unreadable, with why (read again next run)."""
        await self._unreadable(run, document_id, why)

    async def _unreadable(self, run: GridRun, document_id: str, why: str) -> None:
        log.warning("grid %s: document %s could not be read: %s", run.id, document_id, why)
        await self._graph.put_grid_cells([
            GridCell(deal_id=run.deal_id, document_id=document_id, column=c.key,
                     wording=c.wording, reader=run.reader, status=CellStatus.UNREADABLE,
                     reason=why) for c in run.columns])

    async def finish(self, deal_id: str, run_id: str) -> Grid:
        """Mark the run completed (unless cancelled) with its spend; the grid."""
        grid = await self.grid(deal_id, run_id)
        run = grid.run
        if run.status is GridRunStatus.RUNNING:
            run = run.model_copy(update={
                "status": GridRunStatus.COMPLETED, "finished_at": utcnow(),
                "usage": _usage_dict(grid.spend), "cost_usd": grid.spend.cost_usd})
            await self._graph.put_grid_run(run)
            grid.run = run
        return grid

    async def cancel(self, deal_id: str, run_id: str, *, by: str) -> GridRun:
        """Stop the run between documents (here and in every worker); cells read are kept."""
        self._cancelled.add(run_id)
        run = await self._require(deal_id, run_id)
        if run.status is GridRunStatus.RUNNING:
            run = run.model_copy(update={"status": GridRunStatus.CANCELLED, "cancelled_by": by,
                                         "finished_at": utcnow()})
            await self._graph.put_grid_run(run)
        return run

    async def get(self, deal_id: str, run_id: str) -> GridRun | None:
        return await self._graph.get_grid_run(deal_id, run_id)

    async def _require(self, deal_id: str, run_id: str) -> GridRun:
        run = await self._graph.get_grid_run(deal_id, run_id)
        if run is None:
            raise MandaError(f"Deal {deal_id} has no grid {run_id}.",
                             hint="Start a new one with `manda grid` or `/manda grid`.")
        return run

    # ---------------------------------------------------------------- showing

    async def grid(self, deal_id: str, run_id: str) -> Grid:
        """The run's grid from the kept cells, as far as it has come."""
        run = await self._require(deal_id, run_id)
        cells = await self._graph.grid_cells(deal_id, run.document_ids,
                                             [c.wording for c in run.columns], run.reader)
        by_doc: dict[str, dict[str, GridCell]] = {}
        wordings = {c.wording: c.key for c in run.columns}
        for cell in cells:
            by_doc.setdefault(cell.document_id, {})[wordings.get(cell.wording, cell.column)] = cell
        documents = {d.id: d for d in await self._graph.list_documents(deal_id)}
        rows: list[GridRow] = []
        for document_id in run.document_ids:
            document = documents.get(document_id)
            if document is None:
                continue
            own = by_doc.get(document_id, {})
            rows.append(GridRow(document=document, kind=run.kinds.get(document_id) or None,
                                cells=own, review=await self._review(deal_id, own)))
        _link_amendments(run, rows)
        done = sum(1 for row in rows if len(row.cells) >= len(run.columns))
        return Grid(run=run, rows=rows, done=done, spend=self._spend(run, cells))

    async def _review(self, deal_id: str, cells: dict[str, GridCell]
                      ) -> dict[str, FindingStatus]:
        out: dict[str, FindingStatus] = {}
        for key, cell in cells.items():
            if cell.finding_id:
                finding = await self._graph.get_finding(deal_id, cell.finding_id)
                if finding is not None:
                    out[key] = finding.status
        return out

    def _spend(self, run: GridRun, cells: Sequence[GridCell]) -> GridSpend:
        mine = [c for c in cells if c.usage and c.computed_at >= run.created_at]
        spend = GridSpend(documents_read=len({c.document_id for c in cells
                                              if c.computed_at >= run.created_at}))
        for cell in mine:
            spend.input_tokens += cell.usage.get("input_tokens", 0)
            spend.output_tokens += cell.usage.get("output_tokens", 0)
            spend.cache_read_tokens += cell.usage.get("cache_read_tokens", 0)
            spend.cache_write_tokens += cell.usage.get("cache_write_tokens", 0)
        if self._model is not None and spend.tokens:
            try:
                spend.cost_usd = estimate_cost(
                    self._model, spend.input_tokens, spend.output_tokens,
                    cache_read_tokens=spend.cache_read_tokens,
                    cache_write_tokens=spend.cache_write_tokens)
            except ValueError:
                spend.cost_usd = None
        return spend


def _usage_dict(spend: GridSpend) -> dict[str, int]:
    return {"documents_read": spend.documents_read, "input_tokens": spend.input_tokens,
            "output_tokens": spend.output_tokens, "cache_read_tokens": spend.cache_read_tokens,
            "cache_write_tokens": spend.cache_write_tokens}


def _title(selection: GridSelection) -> str:
    g = grid_vocabulary()
    if selection.kind:
        try:
            return g.kind(selection.kind).plural
        except KeyError:
            return f"{selection.kind.replace('_', ' ')} documents"
    if selection.folder:
        return f"documents in {selection.folder.strip('/')}"
    return "contracts"


def _number(value: object) -> float | None:
    if isinstance(value, dict):
        for key in ("amount", "months", "period_months"):
            if isinstance(value.get(key), int | float):
                return float(value[key])  # type: ignore[arg-type]
    return None


def _chunk_of(quote: str, chunks: Sequence[Chunk]) -> str | None:
    wanted = normalised(quote).lower()[:120]
    for chunk in chunks:
        if wanted and wanted in normalised(chunk.text).lower():
            return chunk.id
    return None


def _link_amendments(run: GridRun, rows: list[GridRow]) -> None:
    """A row amended by a later row says so, naming the columns the later one replaces (its
    cells quoted from passages that replace clauses)."""
    by_id = {row.document.id: row for row in rows}
    for amendment_id, original_id in run.amends.items():
        amendment, original = by_id.get(amendment_id), by_id.get(original_id)
        if amendment is None or original is None:
            continue
        replaced = tuple(key for key, cell in amendment.cells.items()
                         if cell.status is CellStatus.STATED and cell.amending)
        amendment.amends = original.document.filename
        original.superseded_by = Successor(amendment_id, amendment.document.filename, replaced)

