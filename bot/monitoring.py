"""What the bot tells its operator: per-request metrics and log fields, and readiness.

Every Slack request is counted by kind and outcome and its ack timed (`measured_dispatch`), the
same way over HTTP and Socket Mode. Log records written while a request is handled, and by the
jobs it starts, carry its conversation, event and channel (`request_log_fields`). Readiness is
whether the stores every answer needs (graph and memory) answer now.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse

from bot.conversations import conversation_id
from manda.app import Manda
from manda.observability.logging import configure_logging, log_context
from manda.observability.metrics import Metrics
from manda.resilience.breaker import BreakerRegistry

READY_TIMEOUT = 3.0  # a load balancer's probe must not hang on a hung store
OUTCOME_KEY = "manda_outcome"  # set on the Bolt context by middleware that decides the outcome
DUPLICATE = "duplicate"


def request_kind(body: Mapping[str, Any]) -> str:
    """The kind of a Slack request: the event type, `slash_command`, or the interaction type."""
    if body.get("type") == "event_callback":
        return str((body.get("event") or {}).get("type") or "event_callback")
    if body.get("command"):
        return "slash_command"
    return str(body.get("type") or "unknown")


def request_log_fields(body: Mapping[str, Any]) -> dict[str, str | None]:
    """Conversation, event, channel and user of a request, for `log_context`."""
    event = body.get("event") or {}
    team = body.get("team_id") or (body.get("team") or {}).get("id")
    channel = (
        event.get("channel")
        or body.get("channel_id")
        or (body.get("channel") or {}).get("id")
        or (body.get("container") or {}).get("channel_id")
    )
    message = body.get("message") or {}
    thread = event.get("thread_ts") or event.get("ts") or message.get("thread_ts")
    thread = thread or message.get("ts") or (body.get("container") or {}).get("message_ts")
    user = event.get("user") or body.get("user_id") or (body.get("user") or {}).get("id")
    return {
        "conversation_id": conversation_id(str(team), str(channel), str(thread))
        if team and channel and thread
        else None,
        "event_id": body.get("event_id"),
        "slack_request": request_kind(body),
        "channel": channel,
        "user": user if isinstance(user, str) else None,
    }


def outcome_of(response: BoltResponse, request: AsyncBoltRequest) -> str:
    """`handled`, `duplicate`, `rejected` (signature, auth) or `failed`."""
    if request.context.get(OUTCOME_KEY):
        return str(request.context[OUTCOME_KEY])
    if response.status < 300:
        return "handled"
    if response.status in (401, 403):
        return "rejected"
    return "failed"


async def measured_dispatch(
    bolt: AsyncApp, request: AsyncBoltRequest, metrics: Metrics, received: float | None
) -> BoltResponse:
    """Dispatch one request to Bolt in its log context; count it and time its ack from
    `received` (None: it was acked before the dispatch, and timed there).

    Listeners start their jobs inside the dispatch, so the jobs inherit the log context.
    """
    try:
        with log_context(**request_log_fields(request.body)):
            response = await bolt.async_dispatch(request)
    except Exception:
        metrics.record_slack_event(request_kind(request.body), "failed")
        raise
    metrics.record_slack_event(request_kind(request.body), outcome_of(response, request))
    if received is not None:
        metrics.record_slack_ack(time.perf_counter() - received)
    return response


async def _probe(ping: Callable[[], Awaitable[None]]) -> str | None:
    try:
        async with asyncio.timeout(READY_TIMEOUT):
            await ping()
    except TimeoutError:
        return f"no answer within {READY_TIMEOUT:g} s"
    except Exception as exc:
        return str(exc) or type(exc).__name__
    return None


async def readiness(
    manda: Manda, *, jobs: int, breakers: BreakerRegistry
) -> tuple[bool, dict[str, Any]]:
    """Whether graph and memory answer, and the state of every adapter and breaker."""
    probes = manda.probes()
    errors = await asyncio.gather(*(_probe(ping) for ping in probes.values()))
    probed = dict(zip(probes, errors, strict=True))
    adapters: dict[str, dict[str, Any]] = {}
    for choice in manda.choices:
        entry: dict[str, Any] = {"adapter": choice.adapter, "detail": choice.reason}
        if choice.port in probed:
            entry["ok"] = probed[choice.port] is None
            if probed[choice.port] is not None:
                entry["error"] = probed[choice.port]
        adapters[choice.port] = entry
    ready = all(error is None for error in errors)
    return ready, {
        "ok": ready,
        "jobs": jobs,
        "adapters": adapters,
        "breakers": {b.name: str(b.state) for b in breakers},
    }


def serve_logging(level: str) -> None:
    """JSON lines on stderr for `manda serve`, in place of the CLI's plain text handler."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        # basicConfig's handler; pytest's capture handlers are subclasses and are left alone
        if type(handler) is logging.StreamHandler and handler.stream is sys.stderr:
            root.removeHandler(handler)
    configure_logging(level, json=True)
