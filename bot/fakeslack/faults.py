"""Slack having a bad day, on demand: scripted 429s, 5xx and slow answers from the fake Web API.

`FaultySlack` is the fake Slack with an aiohttp middleware in front of `/api/{method}`. A test
queues faults per method (`faults.script("chat.postMessage", rate_limited(), server_error())`)
or declares an outage of every method (`faults.outage(server_error())`); calls with no fault
pending reach the fake workspace as usual. Faults are answered the way Slack answers them —
`429` with `Retry-After` and `{"ok": false, "error": "ratelimited"}`, a 5xx with a plain body —
and never reach the workspace, so `workspace.calls` keeps only what Slack applied;
`faults.injected` lists what was refused.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web

from bot.fakeslack.actions import FakeSlack

ANY = "*"
API_PREFIX = "/api/"


@dataclass(frozen=True)
class ApiFault:
    """One refused Web API call: the HTTP status, Slack's error code, `Retry-After`, a delay."""

    status: int = 503
    error: str | None = None  # Slack's `error` in a JSON body; None: a plain-text body
    retry_after: int | None = None  # seconds, as Slack sends it
    delay: float = 0.0  # seconds held before answering (a slow Slack, client timeouts)


def rate_limited(retry_after: int = 0) -> ApiFault:
    """HTTP 429 with `Retry-After`, as Slack rate-limits a method."""
    return ApiFault(status=429, error="ratelimited", retry_after=retry_after)


def server_error(status: int = 503) -> ApiFault:
    """A 5xx from Slack's edge, with no JSON body."""
    return ApiFault(status=status)


@dataclass
class Injected:
    method: str
    fault: ApiFault


@dataclass
class WebApiFaults:
    """Faults waiting for Web API calls, per method (`ANY` matches every method)."""

    injected: list[Injected] = field(default_factory=list)
    _queues: dict[str, deque[ApiFault]] = field(default_factory=dict)
    _outage: tuple[ApiFault, frozenset[str]] | None = None

    def script(self, method: str, *faults: ApiFault) -> None:
        """The next calls of `method` (or of any method, with `ANY`) get these faults in turn."""
        self._queues.setdefault(method, deque()).extend(faults)

    def outage(self, fault: ApiFault, methods: tuple[str, ...] = (ANY,)) -> None:
        """Every call of `methods` gets `fault` until `clear()`."""
        self._outage = (fault, frozenset(methods))

    def clear(self) -> None:
        """Slack is healthy again: no outage, no fault left in any script."""
        self._outage = None
        self._queues.clear()

    def pending(self, method: str = ANY) -> int:
        return len(self._queues.get(method, ()))

    def refused(self, method: str | None = None) -> list[ApiFault]:
        return [i.fault for i in self.injected if method is None or i.method == method]

    def take(self, method: str) -> ApiFault | None:
        for key in (method, ANY):
            queue = self._queues.get(key)
            if queue:
                return queue.popleft()
        if self._outage is not None:
            fault, methods = self._outage
            if ANY in methods or method in methods:
                return fault
        return None

    @web.middleware
    async def middleware(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        method = request.path[len(API_PREFIX) :]
        fault = self.take(method)
        if fault is None:
            return await handler(request)
        self.injected.append(Injected(method, fault))
        if fault.delay:
            await asyncio.sleep(fault.delay)
        headers = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
        if fault.error is not None:
            return web.json_response(
                {"ok": False, "error": fault.error}, status=fault.status, headers=headers
            )
        return web.Response(
            status=fault.status, text=f"{fault.status} from fake Slack", headers=headers
        )


class FaultySlack(FakeSlack):
    """The fake Slack whose Web API answers with `faults` first."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.faults = WebApiFaults()

    def web_app(self) -> web.Application:
        app = super().web_app()
        app.middlewares.append(self.faults.middleware)
        return app
