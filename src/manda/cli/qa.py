"""`manda qa`: the deal's Q&A list — show it, mark answered, edit, remove, export it to Excel."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table

from manda.cli._common import print_json, require_deal, running
from manda.config import Settings
from manda.models import QAPriority

out = Console()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("qa", help="the deal's Q&A list: show, answer, edit, remove, export")
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
