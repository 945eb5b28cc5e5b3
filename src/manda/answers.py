"""What the answering agent returns: markdown, intent, grounded citations and suggested actions.

The Slack adapter renders these; the CLI prints them (`manda ask --json` is this model's shape).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Literal
from uuid import uuid4

from pydantic import BaseModel, Field

# What an answer says of its question's constraints, a line each under it: one not met and why,
# what they left out, what still applies from earlier in the thread. Written only through
# `constraint_note`, so a front end can set them apart (`split_constraint_notes`).
NOT_MET = "Not met — "
LEFT_OUT = "Left out under "
STILL_APPLYING = "Still applying from earlier in this thread: "
_CONSTRAINT_NOTE = re.compile(
    "^_((?:" + "|".join(re.escape(o) for o in (NOT_MET, LEFT_OUT, STILL_APPLYING)) + ").+)_$"
)


def constraint_note(text: str) -> str:
    """One note line (italic in markdown): `text` starts with NOT_MET, LEFT_OUT or
    STILL_APPLYING."""
    return f"_{text}_"


def split_constraint_notes(text: str) -> tuple[str, list[str]]:
    """The answer without its constraint notes, and the notes' own words, in order."""
    body: list[str] = []
    notes: list[str] = []
    for line in text.split("\n"):
        found = _CONSTRAINT_NOTE.match(line.strip())
        if found:
            notes.append(found.group(1))
        else:
            body.append(line)
    return ("\n".join(body).strip("\n") if notes else text), notes


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
    # names this answer within its conversation: its trace is kept under it ("How I answered")
    answer_id: str = Field(default_factory=lambda: uuid4().hex[:12])
