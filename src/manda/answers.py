"""What the answering agent returns: markdown, intent, grounded citations and suggested actions.

The Slack adapter renders these; the CLI prints them (`manda ask --json` is this model's shape).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal
from uuid import uuid4

from pydantic import BaseModel, Field

# What an answer says of its question's constraints, kept apart from its text (`Answer.cautions`):
# one not met and why, what they left out, what still applies from earlier in the thread. Each
# caution's words start with its kind's lead, so it reads whole wherever it is shown.
NOT_MET = "Not met — "
LEFT_OUT = "Left out under "
STILL_APPLYING = "Still applying from earlier in this thread: "
CautionKind = Literal["not_met", "left_out", "still_applying"]
_LEAD: dict[str, str] = {"not_met": NOT_MET, "left_out": LEFT_OUT,
                         "still_applying": STILL_APPLYING}


class Caution(BaseModel):
    """One thing the answer says of its question's constraints, in the deal team's words."""

    kind: CautionKind
    text: str  # starts with the kind's lead: "Not met — at least 2 sources: …"


def caution(kind: CautionKind, said: str) -> Caution:
    """A caution of `kind` whose words are its lead followed by `said`."""
    return Caution(kind=kind, text=f"{_LEAD[kind]}{said}")


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


class NumberSource(BaseModel):
    """The cited place whose excerpt, or the finding extracted there, states a number."""

    document: str
    location: str
    finding_id: str | None = None


class AnswerNumber(BaseModel):
    """A number the answer states, as the validation gate read it (amounts, rates and ratios;
    small counts such as "3 of 5 items" are Manda's own arithmetic and not listed): as written,
    its value and unit, and where it comes from, or what the answer computed it from."""

    text: str  # as the answer writes it: "€5.2M"
    value: float  # normalised as `Finding.value`: 5_200_000.0
    currency: str | None = None  # ISO code: "EUR"
    unit: str | None = None  # "%", "x", "people"
    source: NumberSource | None = None  # where it is stated; None when computed or ungrounded
    computed: bool = False  # a difference, change, ratio or sum of numbers the answer states
    inputs: list[str] = Field(default_factory=list)  # those numbers, as the answer writes them

    @property
    def grounded(self) -> bool:
        """Stated in a cited place, or computed from numbers that are."""
        return self.source is not None or self.computed


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
    # each number the answer states, mapped to its source by the validation gate: the bot, the
    # deal service and the trace read it here instead of parsing `answer` again
    numbers: list[AnswerNumber] = Field(default_factory=list)
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
    # what the answer says of those constraints (not met, left out, still applying), apart from
    # its text: each front end shows them in its own way, never inside the streamed text
    cautions: list[Caution] = Field(default_factory=list)
    # names this answer within its conversation: its trace is kept under it ("How I answered")
    answer_id: str = Field(default_factory=lambda: uuid4().hex[:12])
