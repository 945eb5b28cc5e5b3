"""Slack's request signature (v0, HMAC-SHA256 over `v0:{timestamp}:{body}`), as Slack sends it."""

from __future__ import annotations

import hashlib
import hmac
import time


def signature(secret: str, timestamp: int | str, body: str) -> str:
    base = f"v0:{timestamp}:{body}".encode()
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def signed_headers(
    secret: str, body: str, *, content_type: str, timestamp: int | None = None
) -> dict[str, str]:
    """Headers of a request from Slack; pass an old `timestamp` to make a stale one."""
    ts = int(time.time()) if timestamp is None else timestamp
    return {
        "Content-Type": content_type,
        "X-Slack-Request-Timestamp": str(ts),
        "X-Slack-Signature": signature(secret, ts, body),
    }
