"""The drafting port: who writes a section's slide — extractive offline, Claude when configured.

Both adapters read the same evidence and hand back a `SlideDraft` whose every line is cited; the
composition root picks one (`ANTHROPIC_API_KEY` → Claude) and `manda doctor` says which.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from manda.agent.context import AgentContext
from manda.cim.model import BuyerPersona, OutlineSection, SlideDraft

__all__ = ["SlideDrafter"]


@runtime_checkable
class SlideDrafter(Protocol):
    """Writes one section of the CIM as a slide draft, every figure and claim cited."""

    name: str

    async def draft(self, ctx: AgentContext, deal_id: str, section: OutlineSection,
                    persona: BuyerPersona | None = None) -> SlideDraft:
        """The slide for `section` of deal `deal_id`, for the buyer `persona` when known."""
        ...
