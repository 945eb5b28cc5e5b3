"""Answering commands: ask, chat and eval — the same agent the Slack bot uses."""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape

from manda.answers import Answer
from manda.cli._common import print_json, require_deal, running
from manda.config import Settings
from manda.traces import AnswerTrace, trace_sections

if TYPE_CHECKING:
    from manda.app import Manda
    from manda.deals.actions import DealActions

out = Console()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("ask", help="ask one question about a deal")
    p.add_argument("--deal", required=True)
    p.add_argument("--conversation", help="conversation id; follow-ups carry over across calls")
    p.add_argument("--json", action="store_true", help="the answer as JSON, with its trace")
    p.add_argument("--trace", action="store_true",
                   help="also print how the answer was reached (intent, plan, tool calls, "
                   "passages, checks, grounding, tokens and latency per step)")
    p.add_argument("question", nargs="+")
    p.set_defaults(handler=ask)

    p = sub.add_parser("chat", help="an interactive conversation about a deal")
    p.add_argument("--deal", required=True)
    p.add_argument("--conversation", help="resume a conversation id")
    p.set_defaults(handler=chat)

    p = sub.add_parser("eval", help="run the answer evals on the sample deal")
    p.add_argument("--dataset", type=Path, help="YAML dataset (default: evals/dataset.yaml)")
    p.add_argument("--live", action="store_true",
                   help="answer with Claude (needs ANTHROPIC_API_KEY; Voyage when its key is "
                        "set): cases in turns from every room's dev and held-out sets")
    p.add_argument("--token-budget", type=int, metavar="N",
                   help="with --live: stop starting cases once N tokens are used, and say so "
                        "in the report (default 50000)")
    p.add_argument("--only", nargs="+", metavar="ID", help="only these case ids")
    p.add_argument("--report", type=Path, help="write the report here (.md and .json)")
    p.add_argument("--grid", choices=["dev", "held-out", "all"],
                   help="the review grid's eval instead: per-column precision and recall of "
                        "cells on the dev contracts, the held-out ones, or both (apart)")
    p.set_defaults(handler=evaluate)


def answer_json(answer: Answer) -> dict[str, Any]:
    """The stable `manda ask --json` shape (see README)."""
    return {
        "answer": answer.answer,
        "intent": answer.intent.value,
        "citations": [
            {"document": c.document, "location": c.location, "page": c.page, "excerpt": c.excerpt}
            for c in answer.citations
        ],
        "numbers": [n.model_dump() for n in answer.numbers],
        "suggested_actions": [
            {"type": a.type, "question": a.question, "category": a.category}
            if a.type == "add_to_qa"
            else {"type": a.type, "finding_id": a.finding_id}
            for a in answer.suggested_actions
        ],
        "conversation_id": answer.conversation_id,
        "answer_id": answer.answer_id,
        "usage": answer.usage.model_dump(),
        "constraints": answer.constraints,
        "constraint_checks": answer.constraint_checks,
        "cautions": [c.model_dump() for c in answer.cautions],
    }


def render_trace(trace: AnswerTrace | None) -> None:
    """`manda ask --trace`: the trace's sections, one titled group after another."""
    if trace is None:
        out.print("[yellow]The trace of this answer was not kept (the conversation memory "
                  "was unavailable); `manda doctor` says why.[/]")
        return
    out.print(f"\n[bold]How I answered[/] [dim](answer {trace.answer_id})[/]")
    for title, lines in trace_sections(trace):
        out.print(f"[bold]{escape(title)}[/]")
        for line in lines:
            out.print(f"  {escape(line)}", highlight=False)


CAUTION_STYLE = {"not_met": ("⚠", "bold yellow"), "left_out": ("⚠", "yellow"),
                 "still_applying": ("ℹ", "dim")}


def render_cautions(answer: Answer) -> None:
    """The answer's cautions under its text, a marked line each (as Slack shows them)."""
    for caution in answer.cautions:
        mark, style = CAUTION_STYLE[caution.kind]
        out.print(f"[{style}]{mark} {escape(caution.text)}[/]", highlight=False)


def render(answer: Answer) -> None:
    out.print(Markdown(answer.answer))
    render_cautions(answer)
    for notice in answer.notices:
        out.print(f"[yellow]{notice}[/]")
    actions = [a for a in answer.suggested_actions if a.type == "add_to_qa"]
    if actions:
        out.print(f"[dim]Q&A suggestion: {actions[0].question}[/]")


def _actions(app: Manda, deal_id: str, said: str, conversation: str | None) -> DealActions:
    """What the person at the terminal may change in the deal (Claude's tools for it)."""
    from manda.cli.knowledge import who_runs
    from manda.deals import Teller

    me = who_runs()
    teller = Teller(user=me, name=me, at=datetime.now(UTC), where=conversation or "cli")
    return app.deals.terminal_actions(deal_id, teller, said=said, conversation=conversation)


async def _told(app: Manda, deal_id: str, said: str) -> bool:
    """A "note: …" / "FYI …" message is told, not asked: kept, and said so."""
    from manda.deals import note_text

    if note_text(said) is None:
        return False
    told = await _actions(app, deal_id, said, None).from_message(said)
    if told is not None:
        out.print(escape(told.acted.text), highlight=False)
    return told is not None


async def ask(args: argparse.Namespace, settings: Settings) -> int:
    question = " ".join(args.question)
    async with running(settings) as app:
        await require_deal(app, args.deal)
        if await _told(app, args.deal, question):
            return 0
        answer = await app.answers.ask(
            args.deal, question, conversation_id=args.conversation,
            actions=_actions(app, args.deal, question, args.conversation))
        trace = None
        if args.json or args.trace:
            trace = await app.deals.trace(args.deal, answer.conversation_id, answer.answer_id)
    if args.json:
        print_json({**answer_json(answer),
                    "trace": trace.model_dump(mode="json") if trace else None})
        return 0
    render(answer)
    out.print(f"[dim]conversation: {answer.conversation_id}[/]")
    if args.trace:
        render_trace(trace)
    return 0


async def chat(args: argparse.Namespace, settings: Settings) -> int:
    async with running(settings) as app:
        await require_deal(app, args.deal)
        conversation = args.conversation
        out.print(
            f"Chatting about deal [bold]{args.deal}[/]. Empty line or Ctrl-D to leave, "
            "/new for a fresh conversation, /trace for how the last answer was reached."
        )
        last: Answer | None = None
        while True:
            try:
                question = input("you> " if sys.stdin.isatty() else "").strip()
            except EOFError:
                break
            if not question or question in {"/exit", "/quit"}:
                break
            if question == "/new":
                conversation = None
                out.print("[dim]fresh conversation[/]")
                continue
            if question == "/trace":
                if last is None:
                    out.print("[dim]Ask something first; /trace shows how it was answered.[/]")
                else:
                    render_trace(await app.deals.trace(args.deal, last.conversation_id,
                                                       last.answer_id))
                continue
            if await _told(app, args.deal, question):
                continue
            answer = await app.answers.ask(
                args.deal, question, conversation_id=conversation,
                actions=_actions(app, args.deal, question, conversation))
            conversation, last = answer.conversation_id, answer
            out.print("[bold]manda>[/]")
            render(answer)
    return 0


async def evaluate_grid(args: argparse.Namespace, settings: Settings) -> int:
    import json

    from manda.evals.grid import run_grid_evals

    names = ["dev", "held-out"] if args.grid == "all" else [args.grid]
    update: dict[str, Any] = {"neo4j_uri": None, "redis_url": None}
    if not args.live:  # offline runs never call a paid API, whatever is configured
        update |= {"anthropic_api_key": None, "voyage_api_key": None}
    report = await run_grid_evals(names, settings.model_copy(update=update))
    for line in report.lines():
        out.print(escape(line), highlight=False)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        path = args.report.with_suffix(".json")
        path.write_text(json.dumps([s.as_json() for s in report.sets], indent=2), "utf-8")
        out.print(f"report written to {path}")
    return 0


async def evaluate(args: argparse.Namespace, settings: Settings) -> int:
    if args.grid:
        return await evaluate_grid(args, settings)
    from manda.evals.runner import (
        DEFAULT_BUDGET_TOKENS,
        DEFAULT_DATASET,
        HELD_OUT_FLOOR,
        PASS_THRESHOLD,
        ingest_sample,
        run_evals,
        write_report,
    )

    if args.token_budget is not None and not args.live:
        out.print("[red]manda eval: --token-budget limits a --live run's tokens;[/] an offline "
                  "run spends none. Add --live (with ANTHROPIC_API_KEY set) or leave it out.")
        return 2
    if args.live and settings.anthropic_api_key is None:
        out.print("[red]manda eval --live: ANTHROPIC_API_KEY is not set,[/] so Claude cannot "
                  "answer. Export it (see .env.example), or run `manda eval` without --live "
                  "for the offline answers.")
        return 2
    budget = DEFAULT_BUDGET_TOKENS if args.token_budget is None else args.token_budget
    with tempfile.TemporaryDirectory(prefix="manda-eval-") as tmp:
        home = Path(tmp)
        update: dict[str, Any] = {"home": home / "home", "neo4j_uri": None, "redis_url": None}
        if not args.live:  # offline runs never call a paid API, whatever is configured
            update |= {"anthropic_api_key": None, "voyage_api_key": None}
        eval_settings = settings.model_copy(update=update)
        async with running(eval_settings) as app:
            await ingest_sample(app, home / "rooms")
            report = await run_evals(app, args.dataset or DEFAULT_DATASET, live=args.live,
                                     budget_tokens=budget, only=args.only or ())
    out.print(report.to_markdown())
    if args.report:
        md, js = write_report(report, args.report)
        out.print(f"report written to {md} and {js}")
    passed = report.dev.score >= PASS_THRESHOLD and (
        not report.held_out.cases or report.held_out.score >= HELD_OUT_FLOOR) and (
        report.passes_new_room_floor())
    return 0 if passed else 1
