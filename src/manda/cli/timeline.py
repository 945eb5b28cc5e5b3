"""`manda timeline`: every dated event of a deal's data room, cited (a stable JSON shape)."""

from __future__ import annotations

import argparse
import calendar
from datetime import date

from rich.console import Console
from rich.table import Table

from manda.cli._common import print_json, require_deal, running
from manda.config import Settings
from manda.timeline import CATEGORIES, TimelineFilter

out = Console()


def _day(text: str, *, last: bool) -> date:
    """`2024`, `2024-06` or `2024-06-14` as the first (or last) day it covers."""
    parts = [int(p) for p in text.split("-")]
    try:
        if len(parts) == 1:
            return date(parts[0], 12, 31) if last else date(parts[0], 1, 1)
        if len(parts) == 2:
            end = calendar.monthrange(parts[0], parts[1])[1]
            return date(parts[0], parts[1], end if last else 1)
        return date(parts[0], parts[1], parts[2])
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date: {text!r} ({exc})") from None


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("timeline", help="the deal's dated events, each with its sources")
    p.add_argument("--deal", required=True)
    p.add_argument("--from", dest="start", type=lambda t: _day(t, last=False),
                   help="from this date (YYYY, YYYY-MM or YYYY-MM-DD)")
    p.add_argument("--to", dest="end", type=lambda t: _day(t, last=True),
                   help="up to this date (YYYY, YYYY-MM or YYYY-MM-DD)")
    p.add_argument("--category", choices=CATEGORIES)
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=timeline)


async def timeline(args: argparse.Namespace, settings: Settings) -> int:
    where = TimelineFilter(start=args.start, end=args.end, category=args.category)
    async with running(settings) as app:
        await require_deal(app, args.deal)
        result = await app.deals.timeline(args.deal, where=where)
    if args.json:
        print_json(result.json_shape())
        return 0
    if not result.events:
        out.print(f"No dated events in deal {args.deal} match.")
        return 0
    table = Table("date", "event", "source", title=f"{args.deal}: as of {result.as_of}")
    for event in result.events:
        flags = "".join(
            f" [{tag}]" for tag, on in (("upcoming", event.upcoming), ("date conflict",
                                        event.conflict)) if on
        )
        first = event.citations[0]
        more = f" (+{len(event.citations) - 1})" if len(event.citations) > 1 else ""
        table.add_row(event.label, event.title + flags, f"{first.document}, {first.location}{more}")
    out.print(table)
    return 0
