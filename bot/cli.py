"""The `manda` command with the Slack front end added: the domain's commands plus `serve`.

The domain CLI (`manda.cli`) never imports Slack; this entry point registers the bot's own
subcommands into it: `serve`, and `playground` (the bot in a local Slack-like page).
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

from manda import cli as domain_cli
from manda.config import Settings


def register_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        help="run the Slack bot: HTTP on --port (/slack/events, /healthz) or --socket",
    )
    p.add_argument("--port", type=int, default=3000, help="HTTP port (default 3000)")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="HTTP interface (default 127.0.0.1; 0.0.0.0 behind a proxy or in a container)",
    )
    p.add_argument(
        "--socket", action="store_true", help="connect over Socket Mode (SLACK_APP_TOKEN)"
    )
    p.add_argument(
        "--loop",
        dest="loop_factory",
        type=event_loop,
        default="auto",
        metavar="{auto,uvloop,asyncio}",
        help="event loop: uvloop (libuv; acks a burst faster) or asyncio's own; "
        "auto (default) is uvloop where installed",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="N processes sharing --port (SO_REUSEPORT; the kernel spreads connections), each "
        "restarted if it dies; needs REDIS_URL (default 1)",
    )
    p.add_argument(
        "--reuse-port",
        action="store_true",
        help="share --port with other processes that set it too (what --workers gives each)",
    )
    p.add_argument(
        "--status-port",
        type=int,
        metavar="P",
        help="also serve on 127.0.0.1:P, this process alone (/healthz, and /metrics with no "
        "token, of each worker: "
        "with --workers N, worker i on P+i)",
    )
    p.set_defaults(handler=serve)


def event_loop(name: str) -> Callable[[], asyncio.AbstractEventLoop]:
    """The event loop factory `manda serve --loop NAME` runs on."""
    if name not in ("auto", "uvloop", "asyncio"):
        raise argparse.ArgumentTypeError(f"{name!r}: choose auto, uvloop or asyncio")
    if name != "asyncio":
        try:
            import uvloop
        except ImportError:
            if name == "uvloop":
                raise argparse.ArgumentTypeError(
                    "uvloop is not installed: `pip install uvloop` (not on Windows), "
                    "or run with --loop asyncio"
                ) from None
        else:
            return uvloop.new_event_loop
    return asyncio.new_event_loop


def loop_name(factory: Callable[[], asyncio.AbstractEventLoop]) -> str:
    return "asyncio" if factory is asyncio.new_event_loop else "uvloop"


async def serve(args: argparse.Namespace, settings: Settings) -> int:
    if args.workers != 1:
        from bot.monitoring import serve_logging
        from bot.run import check_settings
        from bot.workers import WorkerPlan, check_workers, supervise

        check_workers(settings, args.workers, socket_mode=args.socket)
        check_settings(settings, socket=False)  # said once here, not by each child
        serve_logging(settings.log_level)
        await supervise(WorkerPlan(
            count=args.workers, host=args.host, port=args.port,
            loop=loop_name(args.loop_factory), status_port=args.status_port,
            verbose=bool(getattr(args, "verbose", False)),
        ))
        return 0
    from bot.run import serve as run_serve  # Slack is imported only when the bot runs

    await run_serve(settings, socket=args.socket, host=args.host, port=args.port,
                    reuse_port=args.reuse_port, status_port=args.status_port)
    return 0


def register_playground(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "playground",
        help="the whole bot in a local Slack-like page on 127.0.0.1, with no Slack account",
    )
    p.add_argument(
        "--port", type=int, default=8765, help="page port on 127.0.0.1 (default 8765; 0: any free)"
    )
    p.add_argument("--no-open", action="store_true", help="do not open a browser")
    p.add_argument(
        "--home", type=Path, default=None,
        help="the playground's data (default: MANDA_HOME/playground, never MANDA_HOME itself)",
    )
    p.set_defaults(handler=playground)


async def playground(args: argparse.Namespace, settings: Settings) -> int:
    from bot.playground.run import playground_settings, run_playground  # Slack: when it runs

    await run_playground(
        playground_settings(settings, args.home), port=args.port, open_browser=not args.no_open
    )
    return 0


REGISTRARS: tuple[domain_cli.Registrar, ...] = (register_serve, register_playground)


def main(argv: Sequence[str] | None = None) -> int:
    return domain_cli.main(argv, extra=REGISTRARS)


if __name__ == "__main__":
    raise SystemExit(main())
