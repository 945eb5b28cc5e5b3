"""The playground's wiring: Manda, the real Bolt app over HTTP, and the fake Slack serving the page.

The page reaches the bot only the way Slack does: the browser calls the fake's client API, and
the fake sends the app signed Events API, slash-command and interactivity requests; the app
answers through the fake's Web API. Everything listens on 127.0.0.1 only, and the page and its
API are served only to the browser that opened the address printed for this run: it carries a
secret key, exchanged for a cookie (`LocalGuard`), so another user of the machine cannot drive
the bot.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from pathlib import Path

from aiohttp import web
from pydantic import SecretStr

from bot.app import MandaBot, build_app
from bot.commands import SLASH, SUBCOMMANDS, slash_commands
from bot.conversations import channel_key
from bot.digest import running_digests
from bot.fakeslack import FakeSlack
from bot.fakeslack.client import ClientApi, LocalGuard
from bot.playground.seed import DEAL_CHANNELS, Seeded, link_deals, people_and_places
from bot.run import http_server
from manda.app import Manda
from manda.cli.demo import ingest_sample_rooms
from manda.config import Settings
from manda.errors import MandaError
from manda.models import IngestReport

DEFAULT_PORT = 8765
TEAM_PREFIX = "TPLAY"  # the team ids of the playground's workspaces, a new one each run
HOST = "127.0.0.1"
COMMAND_HINTS = slash_commands()  # from the bot's command table (manifest.yml is tested to match)
START_CHANNEL = "deal-targetco"
STATIC = Path(__file__).parent / "static"
CONTENT_TYPES = {
    ".html": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
    ".svg": "image/svg+xml",
}


def command_examples(deal_id: str) -> list[str]:
    """What to try, offered as a command is typed: every subcommand that needs no argument, the
    deal command with a sample deal, and the shortcuts."""
    examples = []
    for command in SUBCOMMANDS:
        if command.name == "deal":
            examples.append(f"{SLASH} deal {deal_id}")
        elif not command.needs_args:
            examples.append(f"{SLASH} {command.name}")
    return examples + [c.shortcut for c in SUBCOMMANDS if c.shortcut]


def page_routes(guard: LocalGuard, folder: Path = STATIC) -> list[web.AbstractRouteDef]:
    """The page (index.html) and its assets, for the visitors `guard` lets in."""

    async def asset(name: str) -> web.Response:
        path = folder / name
        if path.parent != folder or path.suffix not in CONTENT_TYPES or not path.is_file():
            raise web.HTTPNotFound(text=f"no asset {name}")
        return web.Response(
            body=path.read_bytes(),
            content_type=CONTENT_TYPES[path.suffix],
            charset="utf-8",
            headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"},
        )

    async def index(request: web.Request) -> web.Response:
        return await asset("index.html")

    async def static(request: web.Request) -> web.Response:
        return await asset(request.match_info["name"])

    return [
        web.get("/", guard.entry(index)),
        web.get("/static/{name}", guard(static)),
    ]


class Playground:
    """The whole bot on this machine, used from a browser page; `async with` runs it."""

    def __init__(
        self,
        settings: Settings,
        *,
        port: int = DEFAULT_PORT,
        host: str = HOST,
        announce: Callable[[str], None] = lambda line: None,
    ) -> None:
        if host != HOST:
            raise MandaError(
                f"The playground listens on {HOST} only, not on {host}.",
                hint="It acts as you in a local Slack with no login: it must not be reachable "
                "from another machine. Open it on this one.",
            )
        self.settings = settings
        self.port = port
        self.announce = announce
        self.fake = FakeSlack(
            host=host,
            port=port,
            bot_token=f"xoxb-playground-{secrets.token_hex(12)}",
            app_token=f"xapp-playground-{secrets.token_hex(12)}",
            signing_secret=secrets.token_hex(32),
            # A new workspace each run: links made in an earlier run (say #general to a deal)
            # are keyed by another team, so every run starts as the banner describes it.
            team_id=f"{TEAM_PREFIX}{secrets.token_hex(4).upper()}",
        )
        self.seeded: Seeded = people_and_places(self.fake)
        self.key = secrets.token_urlsafe(32)  # this run's: in the printed address only
        self.guard = LocalGuard(self.key)
        self.client = ClientApi(
            self.fake,
            self.seeded.you,
            commands=tuple(COMMAND_HINTS),
            command_hints=COMMAND_HINTS,
            command_examples=command_examples(next(iter(DEAL_CHANNELS.values()))),
            workspace_name="Manda playground",
            start_channel=self.seeded.channels[START_CHANNEL].id,
            guard=self.guard,
        )
        self.fake.mount([*self.client.routes(), *page_routes(self.guard)])
        self.manda: Manda | None = None
        self.bot: MandaBot | None = None
        self.reports: list[IngestReport] = []
        self._stack = contextlib.AsyncExitStack()

    @property
    def address(self) -> str:
        """Where the playground listens (refused without this run's key)."""
        return f"http://{HOST}:{self.fake.port}/"

    @property
    def url(self) -> str:
        """The address to open: it carries this run's key, which the page keeps as a cookie."""
        return f"{self.address}?key={self.key}"

    @property
    def cookie(self) -> dict[str, str]:
        """The cookie a browser holds once it opened `url` (for scripts and tests)."""
        return {LocalGuard.cookie_name(self.fake.port): self.key}

    def bot_settings(self) -> Settings:
        """Manda's settings with Slack pointed at the fake (a real workspace is never used)."""
        return self.settings.model_copy(
            update={
                "slack_bot_token": SecretStr(self.fake.bot_token),
                "slack_signing_secret": SecretStr(self.fake.signing_secret),
                "slack_app_token": SecretStr(self.fake.app_token),
                "slack_api_url": self.fake.api_url,
            }
        )

    async def start(self) -> None:
        try:
            await self._start()
        except BaseException:
            await self.aclose()
            raise

    async def _start(self) -> None:
        stack = self._stack
        self.manda = manda = Manda(self.settings)
        await manda.start()
        stack.push_async_callback(manda.aclose)
        await self._sample_deals(manda)
        try:
            await self.fake.start()
        except OSError as exc:
            raise MandaError(
                f"The playground could not listen on {HOST}:{self.port} ({exc.strerror}).",
                hint="Another program uses that port: choose another with "
                "`manda playground --port N`, or `--port 0` for any free port.",
            ) from exc
        stack.push_async_callback(self.fake.aclose)
        self.bot = bot = build_app(manda, self.bot_settings())
        stack.push_async_callback(bot.aclose)
        request_url = await stack.enter_async_context(http_server(bot, host=HOST, port=0))
        await stack.enter_async_context(running_digests(bot))
        self.fake.connect_app(request_url)
        await self._forget_earlier_runs(manda)
        await link_deals(self.fake, self.seeded, bot.drain)
        await self._check_links(manda)

    async def _sample_deals(self, manda: Manda) -> None:
        missing = [d for d in DEAL_CHANNELS.values() if not await manda.deals.documents(d)]
        if missing:
            self.announce(
                f"First run: ingesting the sample deals ({', '.join(missing)}) into "
                f"{self.settings.home_dir} — about a minute…"
            )
        self.reports = await ingest_sample_rooms(manda, self.settings, only_missing=True)

    async def _forget_earlier_runs(self, manda: Manda) -> None:
        """Each run is a new workspace: the channels earlier runs linked belong to workspaces
        that are gone, and would hold the sample deals against this run's channels."""
        team = self.fake.workspace.team_id
        for deal_id in DEAL_CHANNELS.values():
            for key in await manda.deals.channels_of(deal_id):
                team_of_key = key.split(":")[1] if key.count(":") >= 2 else ""
                if team_of_key.startswith(TEAM_PREFIX) and team_of_key != team:
                    await manda.deals.unlink_gone(key, by="playground",
                                                  why="an earlier playground run's workspace")

    async def _check_links(self, manda: Manda) -> None:
        team = self.fake.workspace.team_id
        for name, deal_id in DEAL_CHANNELS.items():
            channel = self.seeded.channels[name]
            if await manda.deals.deal_of(channel_key(team, channel.id)) != deal_id:
                raise MandaError(
                    f"`/manda deal {deal_id}` did not link #{name} to {deal_id}.",
                    hint="Run `manda playground -v` to see the bot's log, and `manda doctor`.",
                )

    async def aclose(self) -> None:
        await self._stack.aclose()

    async def __aenter__(self) -> Playground:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
