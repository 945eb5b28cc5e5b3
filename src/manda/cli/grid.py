"""`manda grid`: one set of questions across every document of a kind, cited cell by cell.

    manda grid --deal D --role customer_contract --columns "counterparty, term, change of control"
               [--folder F] [--documents GLOB] [--out grid.xlsx] [--json] [--queue]
    manda grid show|cancel --deal D --grid ID
    manda grid approve|reject --deal D --grid ID [--column C] [--document NAME] --by NAME
    manda grid flag|ask-seller --deal D --grid ID --column C --by NAME
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from manda.cli._common import print_json, running
from manda.config import Settings
from manda.errors import MandaError
from manda.models import GridColumn, GridRunStatus, ReviewDecisionKind
from manda.text import count_of

out = Console()
err = Console(stderr=True)

FOLLOW_SECONDS = 1.0  # how often a queued grid's progress is looked up
CELL_CHARS = 38


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("grid", help="a review grid: the same questions across every document "
                                    "of a kind, each cell cited (XLSX with --out)")
    p.add_argument("--deal", help="the deal (required)")
    p.add_argument("--role", dest="kind",
                   help="kind of document: contract, customer_contract, supplier_contract, "
                        "lease, employment, loan, or a document role (default: contract)")
    p.add_argument("--folder", help="only documents in this folder of the room")
    p.add_argument("--documents", dest="pattern", help="only documents whose name matches GLOB")
    p.add_argument("--columns", help='plain words, comma-separated ("counterparty, term, change '
                                     'of control", a question, or a saved set: contracts, '
                                     'leases, employment, debt); default: the kind\'s set')
    p.add_argument("--out", type=Path, help="write the grid as XLSX here")
    p.add_argument("--json", action="store_true", help="the grid as JSON")
    p.add_argument("--queue", action="store_true",
                   help="a job per document for `manda worker` (followed here until done)")
    p.add_argument("--by", default=None, help="who asks (default: your user name)")
    p.set_defaults(handler=grid)
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    for name, text in (("show", "the grid of a run again"),
                       ("cancel", "stop a running grid (cells read are kept)")):
        a = actions.add_parser(name, help=text)
        _run_args(a)
        a.add_argument("--json", action="store_true")
        a.add_argument("--out", type=Path)
        a.set_defaults(handler=show if name == "show" else cancel)
    for name in ("approve", "reject"):
        a = actions.add_parser(name, help=f"{name} a grid's cells: one, a column or a row")
        _run_args(a)
        a.add_argument("--column", help="the column (all columns when left out)")
        a.add_argument("--document", help="the document (every row when left out)")
        a.add_argument("--by", required=True)
        a.add_argument("--reason", default="")
        a.set_defaults(handler=decide, decision=name)
    a = actions.add_parser("flag", help="a column's 'yes' cells become red flags")
    _run_args(a)
    a.add_argument("--column", required=True)
    a.add_argument("--by", required=True)
    a.set_defaults(handler=flag)
    a = actions.add_parser("ask-seller", help="a Q&A question for each document silent on a "
                                              "column")
    _run_args(a)
    a.add_argument("--column", required=True)
    a.add_argument("--by", required=True)
    a.set_defaults(handler=ask_seller)


def _run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--deal", required=True)
    p.add_argument("--grid", required=True, help="the grid's id (printed when it ran)")


def default_columns(kind: str | None) -> list[GridColumn]:
    """The saved column set of the kind (contracts for any other)."""
    from manda.grid.columns import column_set
    from manda.vocabulary.grid import grid_vocabulary

    g = grid_vocabulary()
    name = next((s for s, k in g.set_kinds.items() if k == kind), "contracts")
    return column_set(name) or []


async def grid(args: argparse.Namespace, settings: Settings) -> int:
    if not args.deal:
        raise MandaError("manda grid needs the deal.",
                         hint='For example: manda grid --deal falcon --role customer_contract '
                              '--columns "counterparty, term, change of control"')
    async with running(settings, workflows=False) as app:
        deals = app.deals
        columns = deals.grid_columns(args.columns) if args.columns else default_columns(
            args.kind)
        by = args.by or getpass.getuser()
        run = await deals.start_grid(args.deal, columns, by=by, kind=args.kind or (
            None if args.folder or args.pattern else "contract"), folder=args.folder,
            pattern=args.pattern, queue=args.queue or None)
        with Progress(TextColumn("[bold]reading[/]"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("{task.description}"), TimeElapsedColumn(), console=err,
                      transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task(run.title, total=len(run.document_ids))

            async def progress(now) -> None:  # type: ignore[no-untyped-def]
                bar.update(task, completed=now.done)

            try:
                if run.jobs:
                    result = await deals.grid(args.deal, run.id)
                    while not result.finished and result.run.status is GridRunStatus.RUNNING:
                        await progress(result)
                        await asyncio.sleep(FOLLOW_SECONDS)
                        result = await deals.grid(args.deal, run.id)
                else:
                    result = await deals.run_grid(run, progress=progress)
            except asyncio.CancelledError:
                await deals.cancel_grid(args.deal, run.id, by=by)
                err.print(f"Grid {run.id} cancelled; the documents read so far are kept: run "
                          "the same grid again to read only the rest.")
                raise
        return await _show(app, args, result)


async def _show(app, args: argparse.Namespace, result) -> int:  # type: ignore[no-untyped-def]
    if args.out:
        path = await app.deals.export_grid(args.deal, result.run.id, args.out)
        err.print(f"Wrote {path} ({len(result.rows)} rows).")
    if args.json:
        print_json(result.as_json())
        return 0
    print_grid(result)
    return 0


def print_grid(result) -> None:  # type: ignore[no-untyped-def]
    from manda.exports.grid import cell_text

    out.print(f"[bold]{escape(result.summary)}[/]")
    table = Table(show_lines=False, header_style="bold")
    table.add_column("Document", overflow="fold", max_width=40)
    for column in result.columns:
        table.add_column(column.name, overflow="fold", max_width=CELL_CHARS)
    for row in result.rows:
        table.add_row(escape(row.document.filename), *(
            escape(_short(cell_text(row, c.key))) for c in result.columns))
    out.print(table)
    names = {c.key: c.name.lower() for c in result.columns}
    for row in result.rows:
        if row.superseded_by is not None:
            columns = ", ".join(names.get(k, k) for k in row.superseded_by.columns) or \
                "some terms"
            out.print(f"{escape(row.document.filename)} is amended by "
                      f"{escape(row.superseded_by.filename)} ({columns}).")
    for name, why in result.unreadable:
        out.print(f"[yellow]could not read[/] {escape(name)}: {escape(why)}")
    out.print(f"grid {result.run.id} · {result.spend.line()}")
    if result.run.status is GridRunStatus.CANCELLED:
        out.print("[yellow]cancelled[/]: run the same grid again to read only the rest.")


def _short(text: str) -> str:
    return text if len(text) <= CELL_CHARS * 2 else text[: CELL_CHARS * 2 - 1] + "…"


async def show(args: argparse.Namespace, settings: Settings) -> int:
    async with running(settings, workflows=False) as app:
        return await _show(app, args, await app.deals.grid(args.deal, args.grid))


async def cancel(args: argparse.Namespace, settings: Settings) -> int:
    async with running(settings, workflows=False) as app:
        run = await app.deals.cancel_grid(args.deal, args.grid, by=getpass.getuser())
    out.print(f"Grid {run.id}: {run.status.value}.")
    return 0


async def decide(args: argparse.Namespace, settings: Settings) -> int:
    kind = ReviewDecisionKind.APPROVE if args.decision == "approve" else ReviewDecisionKind.REJECT
    async with running(settings, workflows=False) as app:
        done = await app.deals.decide_grid_cells(
            args.deal, args.grid, kind, by=args.by, column=args.column, document=args.document,
            reason=args.reason)
    out.print(f"{len(done.decided)} cell(s) {args.decision}d; {done.already} decided before; "
              f"{done.not_stated} with nothing to decide (not stated or unreadable).")
    return 0


async def flag(args: argparse.Namespace, settings: Settings) -> int:
    async with running(settings, workflows=False) as app:
        flagged = await app.deals.grid_red_flags(args.deal, args.grid, args.column, by=args.by)
    out.print(f"{count_of(len(flagged), 'document')} taken as red flags on {args.column}: "
              "`manda ask --deal D 'What are the red flags?'` lists them.")
    return 0


async def ask_seller(args: argparse.Namespace, settings: Settings) -> int:
    async with running(settings, workflows=False) as app:
        added = await app.deals.grid_questions(args.deal, args.grid, args.column, by=args.by)
    new = sum(1 for _, fresh in added if fresh)
    out.print(f"{new} question(s) added to the Q&A list ({len(added) - new} already on it).")
    return 0
