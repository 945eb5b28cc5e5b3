"""`manda qa`: the deal's Q&A list — show it, mark answered, edit, remove, export it to Excel,
and `manda qa import` the seller's answered list back."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from manda.cli._common import print_json, require_deal, running
from manda.config import Settings
from manda.deals import NEW_QUESTION, QAImport
from manda.models import QAPriority

out = Console()


def _placement(text: str) -> tuple[int, int]:
    """`7=12`, `7=Q12` or `7=new`: file row 7 answers question 12 (or a new question)."""
    row, _, target = text.partition("=")
    target = target.strip().lower().lstrip("q#")
    if not row.strip().isdigit() or not (target.isdigit() or target == "new"):
        raise argparse.ArgumentTypeError(f"{text!r}: give ROW=N (7=12) or ROW=new")
    return int(row), NEW_QUESTION if target == "new" else int(target)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "qa", help="the deal's Q&A list: show, answer, edit, remove, export; "
        "`qa import FILE` reads the seller's answered list (XLSX or CSV, any layout) back")
    p.add_argument("verb", nargs="?", choices=["import"], help="import: read FILE's answers")
    p.add_argument("file", nargs="?", type=Path, metavar="FILE",
                   help="with import: the answered Q&A list or a VDR's Q&A log")
    p.add_argument("--match", type=_placement, action="append", default=[], metavar="ROW=N",
                   help="with import: file row ROW answers question N (or `new`)")
    p.add_argument("--deal", required=True)
    p.add_argument("--export", type=Path, metavar="FILE.xlsx", help="write the list to Excel")
    p.add_argument("--answered", metavar="N", help="mark question N answered")
    p.add_argument("--answer", default="", help="with --answered: what the target answered")
    p.add_argument("--edit", metavar="N", help="change question N (with --text/--category/...)")
    p.add_argument("--text", help="with --edit: the new wording")
    p.add_argument("--category", help="with --edit: Financial, Legal, Commercial, HR, Tax, ...")
    p.add_argument("--priority", choices=[p.value for p in QAPriority], help="with --edit")
    p.add_argument("--remove", metavar="N", help="take question N off the list")
    p.add_argument("--by", default="cli", help="who is making the change (audit log)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=qa)


async def qa(args: argparse.Namespace, settings: Settings) -> int:
    if args.verb == "import":
        return await import_answers(args, settings)
    async with running(settings) as app:
        await require_deal(app, args.deal)
        deals = app.deals
        if args.answered:
            item = await deals.mark_answered(
                args.deal, args.answered, by=args.by, answer=args.answer
            )
            out.print(f"Q{item.number} marked answered.")
        if args.edit:
            priority = QAPriority(args.priority) if args.priority else None
            item = await deals.edit_question(
                args.deal, args.edit, by=args.by, question=args.text,
                category=args.category, priority=priority,
            )
            out.print(f"Q{item.number} is now: {item.question} ({item.category}, {item.priority})")
        if args.remove:
            item = await deals.remove_question(args.deal, args.remove, by=args.by)
            out.print(f"Q{item.number} removed: {item.question}")
        if args.export:
            path, count = await deals.export_questions(args.deal, args.export)
            out.print(f"Wrote {count} question{'s' if count != 1 else ''} to {path}.")
            return 0
        if args.answered or args.edit or args.remove:
            return 0
        items = await deals.questions(args.deal)
    if args.json:
        print_json([i.model_dump(mode="json") for i in items])
        return 0
    if not items:
        out.print(f"The Q&A list of {args.deal} is empty.")
        return 0
    table = Table("no.", "question", "category", "priority", "status", "source", "asked by")
    for i in items:
        table.add_row(
            f"Q{i.number}", i.question, i.category, i.priority.value, i.status, i.source or "",
            i.created_by,
        )
    out.print(table)
    return 0


async def import_answers(args: argparse.Namespace, settings: Settings) -> int:
    """`manda qa import --deal D FILE`: the seller's answers onto the list, asking (at a
    terminal) which question an answer it cannot place for sure answers."""
    if args.file is None or not args.file.is_file():
        out.print(f"[red]manda qa import: {args.file or 'FILE'} is not a file.[/] Give the "
                  "answered Q&A list: `manda qa import --deal D answers.xlsx`.")
        return 1
    async with running(settings) as app:
        await require_deal(app, args.deal)
        result = await app.deals.import_answers(args.deal, args.file, by=args.by,
                                                placed=dict(args.match))
        while result.unsure and not args.json and sys.stdin.isatty():
            unsure = result.unsure[0]
            out.print(f"\nRow {unsure.row}: “{unsure.question}” → “{unsure.answer[:200]}”\n"
                      f"Is it Q{unsure.candidate} {unsure.quoted_candidate()} "
                      "[y]es / [n]ew question / [s]kip the rest: ", end="")
            reply = input().strip().lower()[:1]
            if reply not in ("y", "n"):
                break
            number = unsure.candidate if reply == "y" else NEW_QUESTION
            result = await app.deals.place_answer(args.deal, result.file_id, unsure.row,
                                                  number, by=args.by)
    if args.json:
        print_json(result.to_json())
        return 0
    print_import(result)
    return 0


def print_import(result: QAImport) -> None:
    out.print(f"[bold]{result.deal_id}[/]: the answers of {result.filename} — "
              f"{result.headline()}")
    for a in result.changed:
        follow = f" → follow-up Q{a.follow_up} ({a.why_follow_up})" if a.follow_up else ""
        out.print(f"  Q{a.number} {a.question[:80]} — {a.citation}{follow}", highlight=False)
    for number, changes in sorted(result.conflicts.items()):
        for c in changes:
            out.print(f"  [yellow]conflict[/] Q{number}: {c.label} {c.period or ''} "
                      f"{c.here} in the answer, {c.there} in {c.other_source}", highlight=False)
    for u in result.unsure:
        out.print(f"  [cyan]to place[/] row {u.row}: “{u.question[:80]}” — Q{u.candidate}? "
                  f"`--match {u.row}={u.candidate}` or `--match {u.row}=new`", highlight=False)
    (was, total), (now, _) = result.coverage
    out.print(f"IRL coverage {was}/{total} → {now}/{total}; open questions "
              f"{result.open_questions[0]} → {result.open_questions[1]}; figures from the "
              "answers wait for review (`manda findings --status pending`).")
