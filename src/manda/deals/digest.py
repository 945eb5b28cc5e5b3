"""A deal channel's daily post of what changed (`/manda digest on 08:30`): its setting, when it
is due, and what "since" means for it and for a person asking `/manda changes`.

Settings and posts are entries of the deal's audit log (who turned it on, when it last posted),
so every worker and every restart reads the same schedule, and nothing needs a table of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from manda.errors import MandaError
from manda.models import AuditEntry

DIGEST_ON = "digest.on"
DIGEST_OFF = "digest.off"
DIGEST_DONE = "digest.done"  # detail: "2024-11-04 posted: …" / "2024-11-04 nothing changed"
VIEWED = "changes.viewed"  # a person asked what changed (subject: who)
DEFAULT_WINDOW = timedelta(days=7)  # what changed, for someone who never asked before
_TIME = re.compile(r"^\s*(\d{1,2})(?::|h|\.)?(\d{2})?\s*(am|pm)?\s*$", re.IGNORECASE)


class DigestTimeError(MandaError):
    def __init__(self, text: str) -> None:
        super().__init__(f"“{text}” is not a time of day.",
                         hint="Give it as 08:30 (24-hour), e.g. `/manda digest on 08:30`.")


@dataclass(frozen=True)
class DigestSetting:
    """A channel's daily digest: the deal, the channel, the time and zone, who turned it on."""

    deal_id: str
    channel_key: str
    at: time
    zone: str  # an IANA zone ("Europe/Berlin"); UTC unless the person's own was known
    by: str
    since: datetime  # when it was turned on

    @property
    def shown(self) -> str:
        return f"{self.at:%H:%M} ({self.zone})"

    def due(self, now: datetime) -> date | None:
        """The day whose digest is due at `now` (its time has come that day), else None."""
        local = now.astimezone(zone(self.zone))
        return local.date() if local.time() >= self.at else None


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def parse_time(text: str) -> time:
    """"08:30", "8:30", "8h30", "8am" → a time of day (`DigestTimeError` otherwise)."""
    match = _TIME.match(text)
    if not match:
        raise DigestTimeError(text)
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    half = (match.group(3) or "").lower()
    if half:
        if not 1 <= hour <= 12:
            raise DigestTimeError(text)
        hour = hour % 12 + (12 if half == "pm" else 0)
    if hour > 23 or minute > 59:
        raise DigestTimeError(text)
    return time(hour, minute)


def setting_of(audit: Sequence[AuditEntry], deal_id: str, channel_key: str
               ) -> DigestSetting | None:
    """The channel's digest as its last on/off entry left it."""
    current: DigestSetting | None = None
    for entry in audit:
        if entry.subject_id != channel_key:
            continue
        if entry.action == DIGEST_OFF:
            current = None
        elif entry.action == DIGEST_ON:
            at, _, name = entry.detail.partition(" ")
            current = DigestSetting(deal_id, channel_key, parse_time(at), name or "UTC",
                                    entry.by, entry.at)
    return current


def done_on(audit: Sequence[AuditEntry], channel_key: str, day: date) -> bool:
    return any(e.action == DIGEST_DONE and e.subject_id == channel_key
               and e.detail.startswith(day.isoformat()) for e in audit)


def last_posted(audit: Sequence[AuditEntry], setting: DigestSetting) -> datetime:
    """Since when the next digest reports: its last post, else when it was turned on."""
    posts = [e.at for e in audit if e.action == DIGEST_DONE and e.subject_id == setting.channel_key
             and " posted" in e.detail and e.at >= setting.since]
    return max(posts, default=setting.since)


def last_viewed(audit: Sequence[AuditEntry], viewer: str) -> datetime | None:
    seen = [e.at for e in audit if e.action == VIEWED and e.subject_id == viewer]
    return max(seen, default=None)
