"""The `manda` command line: the same work as the Slack bot, from a terminal (stable contract)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from manda.cli import agent, cim, demo, doctor, grid, jobs, kb, knowledge, qa, timeline
from manda.config import Settings
from manda.errors import MandaError

Handler = Callable[[argparse.Namespace, Settings], Coroutine[Any, Any, int]]
Registrar = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]
"""Adds subcommands; front ends outside the domain (the Slack bot's `serve`) pass their own."""


def build_parser(extra: Sequence[Registrar] = ()) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="manda",
        description="Manda: a due-diligence analyst that answers from a deal's data room.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    kb.register(sub)
    agent.register(sub)
    doctor.register(sub)
    demo.register(sub)
    jobs.register(sub)
    timeline.register(sub)
    qa.register(sub)
    knowledge.register(sub)
    cim.register(sub)
    cim.register_irl(sub)
    grid.register(sub)
    for register in extra:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None, *, extra: Sequence[Registrar] = ()) -> int:
    parser = build_parser(extra)
    args = parser.parse_args(argv)
    settings = Settings()
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    handler: Handler = args.handler
    # a front end may choose its event loop (`manda serve --loop`); the default is asyncio's
    loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = getattr(
        args, "loop_factory", None
    )
    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            return runner.run(handler(args, settings))
    except MandaError as exc:
        print(f"manda {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
