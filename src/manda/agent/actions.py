"""What the answering agent may change in a deal for the person asking: Claude's
`update_knowledge_base`, `create_irl`, `trigger_analysis` and `update_knowledge_graph`.

The agent never reaches a store for these: the front end hands it the person's
`KnowledgeActions` (`manda.deals.actions.DealActions`), deal operations bound to that person,
their message and their conversation, which refuse what that person may not do and keep only
what that person said (a figure read in a document is never "told").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from manda.models import Finding, SearchHit


@dataclass(frozen=True)
class Acted:
    """What one action did, for the model (`text`) and the evidence its answer may cite."""

    text: str
    done: bool = True  # False: refused or nothing to do, with why in `text`
    findings: list[Finding] = field(default_factory=list)  # new, waiting for review
    hits: list[SearchHit] = field(default_factory=list)  # where they are now cited from


class KnowledgeActions(Protocol):
    """Deal operations on behalf of the person asking; each refuses, saying why, what they may
    not do."""

    async def note(self, fact: str) -> Acted: ...

    async def draft_irl(self, requests: Sequence[tuple[str, str]]) -> Acted: ...

    async def reanalyse(self, document: str | None) -> Acted: ...

    async def link_entities(self, names: Sequence[str]) -> Acted: ...
