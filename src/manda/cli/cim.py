"""`manda cim` and `manda irl`: the CIM deck and the request list, built from the room."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from manda.cli._common import require_deal, running
from manda.config import Settings
from manda.workflows.ids import WorkflowId

out = Console()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("cim", help="build a CIM deck from the deal's data room")
    p.add_argument("--deal", required=True)
    p.add_argument("--persona", required=True,
                   help='the buyer, e.g. "strategic" or "financial buyer, mid-market, cares '
                        'about cash conversion"')
    p.add_argument("--out", type=Path, required=True, help="where to write the .pptx")
    p.add_argument("--by", default="cli", help="who approves the sections (kept in the deck)")
    p.set_defaults(handler=cim)


async def cim(args: argparse.Namespace, settings: Settings) -> int:
    """Persona → default outline → every section drafted and approved → deck."""
    wid = WorkflowId("cim", args.deal, args.by, f"cli:{args.out.resolve()}")
    async with running(settings) as app:
        await require_deal(app, args.deal)
        reply = await app.cim.start(wid, args.persona)
        if reply.project.persona is None:
            out.print(reply.text)
            return 1
        reply = await app.cim.send(wid, "go")
        while reply.project.phase == "sections":
            current = reply.project.outline[reply.project.current]
            draft = reply.project.drafts.get(current.id)
            out.print(f"[bold]{reply.project.current + 1}. {current.title}[/]: "
                      f"{len(draft.bullets) if draft else 0} cited lines"
                      + (f", {len(draft.figures)} figure rows" if draft and draft.figures
                         else ""))
            if draft and draft.notice:  # Claude could not write it: said, never silent
                out.print(f"  [yellow]{draft.notice}[/]", highlight=False)
            reply = await app.cim.send(wid, "approve" if draft and draft.bullets else "next")
        path = await app.cim.export(wid, args.out)
    out.print(f"Deck written to {path} ({len(reply.project.approved())} sections, sources in "
              "the speaker notes).")
    return 0


def register_irl(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("irl", help="build the deal's information request list and export it")
    p.add_argument("--deal", required=True)
    p.add_argument("--out", type=Path, required=True, help="where to write the .xlsx")
    p.add_argument("--with-qa", action="store_true", help="attach the deal's open Q&A questions")
    p.add_argument("--keep-out-of-room", action="store_true",
                   help="do not file the exported IRL into the deal's data room")
    p.set_defaults(handler=irl)


async def irl(args: argparse.Namespace, settings: Settings) -> int:
    wid = WorkflowId("irl", args.deal, "cli", f"cli:{args.out.resolve()}")
    async with running(settings) as app:
        await require_deal(app, args.deal)
        reply = await app.irl.start(wid)
        if args.with_qa:
            reply = await app.irl.send(wid, "attach Q&A")
        path = await app.irl.export(wid, args.out, file_into_room=not args.keep_out_of_room)
    out.print(reply.text, markup=False, highlight=False)
    out.print(f"IRL written to {path}.")
    return 0
