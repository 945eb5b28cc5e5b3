"""Turning parsed documents into findings: amounts, periods, metric names, people, contracts.

Two extractors share one contract (`Extractor`): the deterministic `OfflineExtractor` and the
`ClaudeExtractor` (tool use); both return candidate findings for the review pipeline.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Sequence
from typing import Protocol

from manda.models import Chunk, Document, Finding, ParsedDocument

__all__ = ["Extractor", "run_extractor"]


class Extractor(Protocol):
    """Turns one parsed document into candidate findings (offline rules or Claude)."""

    id: str

    def extract(
        self, document: Document, parsed: ParsedDocument, chunks: Sequence[Chunk]
    ) -> list[Finding] | Awaitable[list[Finding]]: ...


async def run_extractor(
    extractor: Extractor, document: Document, parsed: ParsedDocument, chunks: Sequence[Chunk]
) -> list[Finding]:
    """Call either kind of extractor (sync or async) and return its findings."""
    result = extractor.extract(document, parsed, chunks)
    if inspect.isawaitable(result):
        result = await result
    return list(result)
