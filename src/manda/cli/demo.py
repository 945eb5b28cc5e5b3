"""`manda demo`: the main job on embedded defaults — ingest the sample data room, then ask it."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel

from manda.answers import Answer
from manda.cli._common import running
from manda.cli.agent import render_cautions

if TYPE_CHECKING:
    from manda.app import Manda
from manda.cli.kb import print_report
from manda.config import Settings
from manda.models import IngestReport, RelationType

out = Console()

EXAMPLE_QUESTIONS = (
    "What was Q3 2024 revenue?",
    "And EBITDA?",
    "What was FY2023 EBITDA?",
    "What are the red flags?",
    "What is still missing from the IRL?",
)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("demo", help="ingest the sample data room and answer example questions")
    p.add_argument("--deal", help="sample deal to ask about (default: the demo's own)")
    p.set_defaults(handler=demo)


def render_answer(answer: Answer) -> None:
    out.print(Markdown(answer.answer))
    render_cautions(answer)
    for c in answer.citations:
        out.print(f"  [dim]source: {c.document}, {c.location}[/]")
    for notice in answer.notices:
        out.print(f"  [yellow]{notice}[/]")


async def print_corrections_and_conflicts(app: Manda, deal_id: str) -> None:
    """One line per corrected fact and per conflicting fact (restatements left out)."""
    findings = {f.id: f for f in await app.deals.findings(deal_id)}
    seen: set[tuple[str, str, str]] = set()
    out.print("\n[bold]Corrections and conflicts found in the data room[/]")
    for rel in await app.deals.relations(deal_id):
        if rel.between != "finding" or rel.type is RelationType.SUPPORTS:
            continue
        if rel.type is RelationType.SUPERSEDES and not rel.reason.startswith("corrected"):
            continue
        fact = findings[rel.source_id]
        key = (rel.type.value, fact.subject, fact.period or "")
        if key in seen:
            continue
        seen.add(key)
        verb = "corrected" if rel.type is RelationType.SUPERSEDES else "conflict"
        out.print(f"  {verb}: {fact.label} {fact.period or ''} — {rel.reason}")


def sample_folder(settings: Settings) -> Path:
    return settings.home_dir / "sample-data-room"


async def ingest_sample_rooms(
    app: Manda, settings: Settings, *, only_missing: bool = False
) -> list[IngestReport]:
    """Write the sample data rooms under MANDA_HOME and ingest them, one report per deal
    ingested; with `only_missing`, deals that already hold documents are left as they are."""
    from manda.sample import generate_sample_rooms  # reportlab & co. only when the demo runs
    from manda.sample.grid_dev import DEV_DEAL, generate_grid_dev_contracts

    rooms = generate_sample_rooms(sample_folder(settings))
    contracts = generate_grid_dev_contracts(sample_folder(settings))  # a room for `manda grid`
    rooms[DEV_DEAL] = next(iter(contracts.values())).parents[1]
    reports = []
    for deal_id, folder in rooms.items():
        if only_missing and await app.deals.documents(deal_id):
            continue
        reports.append(await app.deals.ingest(deal_id, [folder]))
    return reports


async def demo(args: argparse.Namespace, settings: Settings) -> int:
    out.print(
        Panel.fit(
            "Manda on embedded defaults: SQLite knowledge graph, offline embedder and composer.\n"
            f"Sample data rooms written to {sample_folder(settings)}",
            title="Manda demo",
        )
    )
    from manda.sample.generate import DEMO_DEAL

    deal = args.deal or DEMO_DEAL
    async with running(settings) as app:
        for report in await ingest_sample_rooms(app, settings):
            print_report(report)
        await print_corrections_and_conflicts(app, deal)
        conversation = f"demo:{deal}"
        for question in EXAMPLE_QUESTIONS:
            out.print(f"\n[bold cyan]> {question}[/]")
            answer = await app.answers.ask(deal, question, conversation_id=conversation)
            render_answer(answer)
    out.print(f'\nNext: `manda chat --deal {deal}`, or `manda search --deal {deal} "revenue"`.')
    return 0
