"""Small helpers shared by the embedded store's SQL modules: batching, placeholders, timestamps."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import TypeVar

T = TypeVar("T")

# Far below SQLite's variable limit, and small enough to keep each statement quick.
BATCH = 500


def batched(items: Sequence[T], size: int = BATCH) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def marks(count: int) -> str:
    """`?, ?, ?` for an `IN (...)` list of `count` bound values (values are never formatted)."""
    return ", ".join("?" * count)


def sortable(moment: datetime) -> str:
    """A UTC timestamp string that sorts in time order (naive datetimes are taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
