"""`manda changes`, `manda note`, `manda link` and `manda analyse`: what changed in a deal, and
what the team tells Manda about it — the same deal operations as Slack and Claude's tools."""

from __future__ import annotations

import argparse
import getpass
from datetime import UTC, datetime

from rich.console import Console

from manda.cli._common import print_json, require_deal, running
from manda.config import Settings

out = Console()


def _since(text: str) -> datetime:
    try:
        day = datetime.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date: {text!r} (give 2024-11-01)") from exc
    return day if day.tzinfo else day.replace(tzinfo=UTC)


def who_runs() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "cli"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("changes", help="what changed in a deal since a date or since you last "
                       "asked: documents, restated figures, conflicts, decisions, Q&A answers")
    p.add_argument("--deal", required=True)
    p.add_argument("--since", type=_since, help="a date (2024-11-01) or time (ISO 8601, UTC)")
    p.add_argument("--by", default=who_runs(), help="who asks (\"since you last asked\")")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=changes)

    p = sub.add_parser("note", help="keep a fact told outside the room (a finding whose source "
                       "is you, waiting for review)")
    p.add_argument("--deal", required=True)
    p.add_argument("--by", default=who_runs(), help="who told it")
    p.add_argument("fact", nargs="+")
    p.set_defaults(handler=note)

    p = sub.add_parser("link", help="names that are one entity (Globex AG = Globex Holding)")
    p.add_argument("--deal", required=True)
    p.add_argument("--by", default=who_runs())
    p.add_argument("--remove", action="store_true", help="unlink the one name given")
    p.add_argument("names", nargs="+")
    p.set_defaults(handler=link)

    p = sub.add_parser("analyse", aliases=["analyze"], help="read a document again, or check "
                       "the deal's corrections and conflicts again")
    p.add_argument("--deal", required=True)
    p.add_argument("--by", default=who_runs())
    p.add_argument("document", nargs="?")
    p.set_defaults(handler=analyse)


async def changes(args: argparse.Namespace, settings: Settings) -> int:
    async with running(settings, workflows=False) as app:
        await require_deal(app, args.deal)
        result = await app.deals.changes(args.deal, since=args.since, viewer=f"cli:{args.by}")
    if args.json:
        print_json({"deal_id": result.deal_id, "since": result.since.isoformat(),
                    "until": result.until.isoformat(), "summary": result.headline(),
                    "changes": [{"kind": i.kind, "text": i.text, "source": i.source,
                                 "at": i.at.isoformat(), "by": i.by} for i in result.items]})
        return 0
    out.print(f"[bold]{args.deal}[/] — what changed {result.since_reason}: {result.headline()}")
    for item in result.items:
        by = f" (by {item.by})" if item.by else ""
        out.print(f"  [bold]{item.kind}[/] {item.text}{by} — [dim]{item.source}[/]",
                  highlight=False)
    return 0


async def note(args: argparse.Namespace, settings: Settings) -> int:
    from manda.deals import Teller

    said = " ".join(args.fact)
    async with running(settings) as app:
        await require_deal(app, args.deal)
        teller = Teller(user=args.by, name=args.by, at=datetime.now(UTC), where="cli")
        acted = await app.deals.terminal_actions(args.deal, teller, said=said).note(said)
    out.print(acted.text, highlight=False)
    return 0 if acted.done else 1


async def link(args: argparse.Namespace, settings: Settings) -> int:
    async with running(settings, workflows=False) as app:
        await require_deal(app, args.deal)
        if args.remove:
            result = await app.deals.unlink_entity(args.deal, " ".join(args.names), by=args.by)
        else:
            result = await app.deals.link_entities(args.deal, args.names, by=args.by)
    state = "linked" if result.changed else "unchanged"
    out.print(f"{state}: {' = '.join(result.names)}", highlight=False)
    return 0


async def analyse(args: argparse.Namespace, settings: Settings) -> int:
    async with running(settings) as app:
        await require_deal(app, args.deal)
        result = await app.deals.reanalyse(args.deal, by=args.by, document=args.document)
    out.print(result.summary().capitalize() + ".", highlight=False)
    return 0
