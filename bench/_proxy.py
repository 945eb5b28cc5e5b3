"""A local round-robin HTTP proxy in Python, in front of several `manda serve` workers.

The benchmark's load balancer where HAProxy is not installed, and its `pyproxy` path for
comparison: on 2 shared cores it costs a burst far more than HAProxy does (aiohttp serving and
calling per request), so its figure is the proxy's, not the workers'.

    python bench/_proxy.py PORT http://127.0.0.1:A http://127.0.0.1:B …

Each request goes to the next worker in turn, body and headers unchanged (Slack's signature
covers the body and the timestamp header, so the worker verifies it as if Slack had called it
directly); the worker's status, headers and body come back. 127.0.0.1 only.
"""

from __future__ import annotations

import itertools
import sys

import aiohttp
from aiohttp import web

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host"}


def build(upstreams: list[str]) -> web.Application:
    turn = itertools.cycle(upstreams)
    app = web.Application()

    async def start(app: web.Application) -> None:
        app["session"] = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(total=30)
        )

    async def stop(app: web.Application) -> None:
        await app["session"].close()

    async def forward(request: web.Request) -> web.StreamResponse:
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
        target = next(turn) + request.rel_url.path_qs
        async with app["session"].request(
            request.method, target, data=body, headers=headers
        ) as upstream:
            payload = await upstream.read()
            out = {k: v for k, v in upstream.headers.items() if k.lower() not in HOP_BY_HOP}
            return web.Response(status=upstream.status, body=payload, headers=out)

    app.on_startup.append(start)
    app.on_cleanup.append(stop)
    app.router.add_route("*", "/{tail:.*}", forward)
    return app


if __name__ == "__main__":
    port, *upstreams = sys.argv[1:]
    web.run_app(build(upstreams), host="127.0.0.1", port=int(port), print=None)
