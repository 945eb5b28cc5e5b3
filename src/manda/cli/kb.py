"""Knowledge-base commands: ingest, search, docs, findings, review, reindex."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from manda.cli._common import print_json, require_deal, running
from manda.config import Settings
from manda.errors import NothingToUndoError
from manda.models import FindingStatus, IngestReport, ReviewDecisionKind, SearchHit

err = Console(stderr=True)
out = Console()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("ingest", help="ingest files or folders of a data room into a deal")
    p.add_argument("--deal", required=True, help="deal id, e.g. falcon")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(handler=ingest)

    p = sub.add_parser("search", help="hybrid search over a deal's documents")
    p.add_argument("--deal", required=True)
    p.add_argument("--k", type=int, default=5)
    p.add_argument("--json", action="store_true")
    p.add_argument("query", nargs="+")
    p.set_defaults(handler=search)

    p = sub.add_parser("docs", help="the deal's documents and their ingestion status")
    p.add_argument("--deal", required=True)
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=docs)

    p = sub.add_parser("findings", help="the deal's extracted findings")
    p.add_argument("--deal", required=True)
    p.add_argument("--status", choices=[s.value for s in FindingStatus])
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=findings)

    p = sub.add_parser("review", help="approve or reject a finding waiting for review, or undo "
                       "its decision (a person's, or one carried over to a new version)")
    p.add_argument("decision", choices=["approve", "reject", "undo"])
    p.add_argument("finding_id")
    p.add_argument("--by", required=True, help="who decides (kept in the audit log)")
    p.add_argument("--reason", default="")
    p.add_argument("--deal", help="deal id (found from the finding when omitted)")
    p.set_defaults(handler=review)

    p = sub.add_parser(
        "reindex", help="embed the chunks with no vector for the active embedder (after a switch)"
    )
    p.add_argument("--deal", help="deal id (every deal when omitted)")
    p.set_defaults(handler=reindex)


def print_report(report: IngestReport) -> None:
    out.print(
        f"[bold]{report.deal_id}[/]: {len(report.ingested)} ingested, "
        f"{len(report.unchanged)} unchanged, {len(report.skipped)} skipped "
        f"({report.pages} pages/sheets/slides in {report.seconds:.1f}s)"
    )
    out.print(
        f"findings: {report.findings} new — {report.auto_approved} approved automatically, "
        f"{report.pending_review} waiting for review; {report.superseded} superseded by a "
        f"corrected version; {report.contradictions} conflicts in the deal"
    )
    if report.embedded_again:
        out.print(f"{report.embedded_again} passages of unchanged documents embedded for the "
                  "current embedder (they were indexed by another)")
    for skipped in report.skipped:
        out.print(f"[yellow]skipped[/] {skipped.filename}: {skipped.reason}")


async def ingest(args: argparse.Namespace, settings: Settings) -> int:
    async with running(settings) as app:
        with Progress(
            TextColumn("[bold]ingesting[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
            console=err,
            transient=True,
            disable=not err.is_terminal,
        ) as bar:
            task = bar.add_task("", total=None)

            def progress(done: int, total: int, name: str) -> None:
                bar.update(task, completed=done, total=total, description=name)

            report = await app.deals.ingest(args.deal, args.paths, progress=progress)
    if args.json:
        print_json(report.model_dump(mode="json"))
    else:
        print_report(report)
    return 0


def hit_json(hit: SearchHit) -> dict[str, Any]:
    return {
        "document": hit.document,
        "location": hit.location.label,
        "page": hit.location.page,
        "heading_path": list(hit.heading_path),
        "text": hit.text,
        "score": hit.score,
    }


async def search(args: argparse.Namespace, settings: Settings) -> int:
    query = " ".join(args.query)
    async with running(settings, workflows=False) as app:
        await require_deal(app, args.deal)
        hits = await app.search.search(args.deal, query, k=args.k)
    if args.json:
        print_json({"results": [hit_json(h) for h in hits]})
        return 0
    if not hits:
        out.print(f"Nothing in deal {args.deal} matches “{query}”.")
    for rank, hit in enumerate(hits, start=1):
        out.print(f"[bold]{rank}. {hit.document}, {hit.location.label}[/]  (score {hit.score:.3f})")
        out.print("   " + " ".join(hit.text.split())[:300])
    return 0


async def docs(args: argparse.Namespace, settings: Settings) -> int:
    async with running(settings, workflows=False) as app:
        await require_deal(app, args.deal)
        documents = await app.deals.documents(args.deal)
    if args.json:
        print_json({"documents": [d.model_dump(mode="json") for d in documents]})
        return 0
    from rich.markup import escape

    from manda.ingest.expand import room_tree

    table = Table("document", "index", "company", "role", "type", "status", "date", "units",
                  "notes")
    for row in room_tree(documents):
        label = escape("  " * row.depth + row.label)
        d = row.document
        if d is None:
            table.add_row(f"[bold]{label}[/]")
            continue
        notes = d.error or ", ".join(
            n
            for n, on in (("IRL", d.is_irl), ("draft", d.draft), ("authoritative", d.authoritative))
            if on
        )
        if d.metadata.get("from"):
            notes = ", ".join(x for x in (f"from {d.metadata['from']}", notes) if x)
        table.add_row(
            label, d.room_index or "", escape(d.company or ""), d.role.label, d.file_type,
            d.status.value, str(d.doc_date or ""), str(d.units), notes,
        )
    out.print(table)
    return 0


async def findings(args: argparse.Namespace, settings: Settings) -> int:
    status = FindingStatus(args.status) if args.status else None
    async with running(settings, workflows=False) as app:
        await require_deal(app, args.deal)
        items = await app.deals.findings(args.deal, status=status)
        names = await app.deals.document_names(args.deal)
    if args.json:
        print_json(
            {
                "findings": [
                    {**f.model_dump(mode="json"), "document": names.get(f.document_id)}
                    for f in items
                ]
            }
        )
        return 0
    table = Table("id", "finding", "period", "value", "source", "status")
    for f in items:
        table.add_row(
            f.id,
            f.label,
            f.period or "",
            f.value_text or "",
            f"{names.get(f.document_id, '?')}, {f.location.label}",
            f.status.value,
        )
    out.print(table)
    return 0


async def review(args: argparse.Namespace, settings: Settings) -> int:
    if args.decision == "undo":
        return await undo(args, settings)
    decision = (
        ReviewDecisionKind.APPROVE if args.decision == "approve" else ReviewDecisionKind.REJECT
    )
    async with running(settings, workflows=False) as app:
        deal_id = args.deal or await app.deals.deal_of_finding(args.finding_id)
        record = await app.deals.decide(
            deal_id, args.finding_id, decision, by=args.by, reason=args.reason
        )
    verb = "approved" if decision is ReviewDecisionKind.APPROVE else "rejected"
    out.print(
        f"Finding {record.finding_id} {verb} by {record.by} at {record.at:%Y-%m-%d %H:%M} UTC."
    )
    return 0


async def undo(args: argparse.Namespace, settings: Settings) -> int:
    """`manda review undo F --by NAME`: the finding's decision withdrawn, audited."""
    async with running(settings, workflows=False) as app:
        deal_id = args.deal or await app.deals.deal_of_finding(args.finding_id)
        current = await app.graph.get_decision(deal_id, args.finding_id)
        if current is None:
            raise NothingToUndoError(args.finding_id)
        withdrawn = await app.deals.undo(deal_id, args.finding_id, at=current.at, by=args.by)
    what = "approval" if withdrawn.decision is ReviewDecisionKind.APPROVE else "rejection"
    out.print(f"Undid the {what} of finding {withdrawn.finding_id} by {withdrawn.by}; it waits "
              "for review again.")
    return 0


async def reindex(args: argparse.Namespace, settings: Settings) -> int:
    async with running(settings, workflows=False) as app:
        if args.deal:
            await require_deal(app, args.deal)
            deals = [args.deal]
        else:
            deals = [d.id for d in await app.graph.list_deals()]
        for deal_id in deals:
            with err.status(f"embedding the chunks of {deal_id} with {app.embedder.id}…"):
                added = await app.ingest.reindex(deal_id)
            out.print(f"{deal_id}: {added} chunks embedded for {app.embedder.id}")
    return 0
