"""A CIM in the making: the buyer it is written for, its outline, one slide draft per section."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

BuyerKind = Literal["strategic", "financial"]
Phase = Literal["persona", "outline", "sections", "export", "done", "cancelled"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BuyerPersona(_Model):
    """Who will read the memorandum, and what they care about."""

    kind: BuyerKind
    sector: str | None = None
    size: str | None = None  # "large-cap", "mid-market", "PE fund €500M"
    priorities: list[str] = Field(default_factory=list)

    def describe(self) -> str:
        parts = [f"{self.kind} buyer"]
        if self.sector:
            parts.append(f"in {self.sector}")
        if self.size:
            parts.append(f"({self.size})")
        if self.priorities:
            parts.append("— cares about " + ", ".join(self.priorities))
        return " ".join(parts)


class OutlineSection(_Model):
    """One section of the outline: a stable id, its title, and what to look for in the room."""

    id: str
    title: str
    topic: str  # which drafting recipe applies ("financials", "customers", …, or "custom")
    query: str  # what is searched for when the section is drafted


class SlideCitation(_Model):
    """Where a bullet's claim stands in the room."""

    document: str
    location: str
    excerpt: str
    finding_id: str | None = None
    value: float | None = None  # the finding's value as extracted (the table's scale applied)


class Bullet(_Model):
    text: str
    citations: list[SlideCitation]


class FigureRow(_Model):
    """One row of a key-figures table: a metric with its value per period, each cited."""

    label: str
    values: dict[str, str]  # period -> value as shown ("€18.4M")
    citations: list[SlideCitation]


class SlideDraft(_Model):
    """A section as one slide: title, 3–6 cited bullets, key figures where they fit, notes."""

    section_id: str
    title: str
    bullets: list[Bullet]
    figures: list[FigureRow] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)  # speaker notes: conflicts, gaps, sources
    status: Literal["draft", "approved"] = "draft"
    edits: list[str] = Field(default_factory=list)  # what the team asked to change
    drafted_by: str = "extractive"  # the writer: "extractive", or the model ("claude:…")
    notice: str | None = None  # said in the thread, not on the slide: why a fallback was used

    def sources(self) -> list[SlideCitation]:
        seen: dict[tuple[str, str], SlideCitation] = {}
        for item in [*self.bullets, *self.figures]:
            for c in item.citations:
                seen.setdefault((c.document, c.location), c)
        return list(seen.values())


class CimProject(_Model):
    """Everything the CIM workflow keeps between messages (its LangGraph checkpoint state)."""

    deal_id: str
    phase: Phase = "persona"
    persona: BuyerPersona | None = None
    outline: list[OutlineSection] = Field(default_factory=list)
    drafts: dict[str, SlideDraft] = Field(default_factory=dict)
    current: int = 0  # index in the outline of the section being worked on

    def approved(self) -> list[SlideDraft]:
        return [self.drafts[s.id] for s in self.outline
                if s.id in self.drafts and self.drafts[s.id].status == "approved"]
