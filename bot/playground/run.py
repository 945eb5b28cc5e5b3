"""Running `manda playground` from a terminal: start it, print where to open it, stop on Ctrl-C."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import webbrowser
from pathlib import Path

from rich.console import Console

from bot.playground.server import Playground
from manda.cli.kb import print_report
from manda.config import Settings

HEADLINE = "Local playground — no Slack account involved; everything runs on this machine."
GUIDE = """You are "you" in a local Slack workspace. #deal-targetco, #deal-northwind and
#deal-pennine are linked to the sample deals; #general is not. Try:
  @Manda What was Q3 2024 revenue?   then, in its thread: And EBITDA?
  /manda gaps · /redflags · /manda review · /manda qa · /manda help
  the Add to Q&A… form, the Approve finding and Reject… buttons, 📎 to drop a file, Manda's Home

The page reaches the real Manda bot only through Slack's own protocols: signed
events, commands and button clicks to its HTTP endpoint; Web API calls back.
Data: {home} · Ctrl-C stops it."""


PLAYGROUND_HOME = "playground"  # under MANDA_HOME: the playground's own data


def playground_settings(settings: Settings, home: Path | None = None) -> Settings:
    """The playground's settings: a home of its own (`MANDA_HOME/playground`, or `home`), so a
    page anyone on this machine might reach never drives the deals of the real home."""
    chosen = home if home is not None else settings.home_dir / PLAYGROUND_HOME
    return settings.model_copy(update={"home": chosen.expanduser()})


async def run_playground(
    settings: Settings,
    *,
    port: int,
    open_browser: bool,
    out: Console | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Run until Ctrl-C, SIGTERM or `stop` is set."""
    out = out or Console()
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows; not the main thread
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    try:
        await _serve(settings, port=port, open_browser=open_browser, out=out, stop=stop)
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGTERM)


async def _serve(
    settings: Settings, *, port: int, open_browser: bool, out: Console, stop: asyncio.Event
) -> None:
    def announce(line: str) -> None:
        out.print(line, markup=False)

    async with Playground(settings, port=port, announce=announce) as playground:
        for report in playground.reports:
            print_report(report)
        out.rule("[bold magenta]Manda playground")
        out.print(f"[bold]{HEADLINE}[/]")
        out.print(f"\n  Open [bold cyan]{playground.url}[/] in your browser.\n")
        out.print(GUIDE.format(home=settings.home_dir), highlight=False, markup=False)
        out.rule()
        if open_browser:
            with contextlib.suppress(Exception):  # no browser here: the address is printed
                await asyncio.to_thread(webbrowser.open, playground.url)
        try:
            await stop.wait()
        finally:
            out.print("Stopping the playground…")
