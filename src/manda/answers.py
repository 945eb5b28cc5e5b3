"""What the answering agent returns: markdown, intent, grounded citations and suggested actions.

The Slack adapter renders these; the CLI prints them (`manda ask --json` is this model's shape).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field


class Intent(StrEnum):
    FACT_LOOKUP = "fact_lookup"
    DEEP_DIVE = "deep_dive"
    DUE_DILIGENCE = "due_diligence"
    COMPARISON = "comparison"
    SYNTHESIS = "synthesis"
    GAP_IDENTIFICATION = "gap_identification"
    EXPLORATION = "exploration"
    CLARIFICATION = "clarification"


class Citation(BaseModel):
    """A source the retrieval actually returned: file and exact place, with the excerpt."""

    document: str
    location: str
    page: int | None = None
    excerpt: str
    chunk_id: str | None = None
    finding_id: str | None = None


class SuggestedAction(BaseModel):
    """Something a person may confirm with one click; the agent only proposes."""

    type: Literal["add_to_qa", "approve_finding"]
    question: str | None = None
    category: str | None = None
    finding_id: str | None = None


class Usage(BaseModel):
    """Model tokens of one answer; `input_tokens` excludes the prompt cache's reads and writes."""

    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0


class Answer(BaseModel):
    """One answer to one question, in the shape its intent calls for."""

    answer: str
    intent: Intent
    citations: list[Citation] = Field(default_factory=list)
    suggested_actions: list[SuggestedAction] = Field(default_factory=list)
    conversation_id: str
    usage: Usage = Field(default_factory=Usage)
    model: str = "offline"
    grounded: bool = True
    notices: list[str] = Field(default_factory=list)  # degraded modes said out loud
    # the question's instructions in force ({"kind", "phrase", …}) and each one checked on this
    # answer ({"kind", "constraint", "met", "disclosed", "reason"})
    constraints: list[dict[str, Any]] = Field(default_factory=list)
    constraint_checks: list[dict[str, Any]] = Field(default_factory=list)
