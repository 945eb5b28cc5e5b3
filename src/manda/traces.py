"""How one answer was reached — its trace — kept beside the conversation so a person can ask later.

The agent records it while answering (`manda.agent.trace`), the memory port stores the last few
per conversation with the conversation's expiry, and the front ends show it: `manda ask --trace`,
the "How I answered" modal in Slack. Scores here are retrieval scores, shown only in the trace.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

MAX_TRACE_BYTES = 48_000  # one stored trace, as JSON
MAX_TRACES = 20  # traces kept per conversation (the latest answers)
EXCERPT_CHARS = 160


class TraceStep(BaseModel):
    """One node of the answering graph as it ran: how long it took and what the model used."""

    name: str
    ms: float
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float | None = 0.0  # None: the model has no price listed


class TraceToolCall(BaseModel):
    """One tool the plan or the model ran, with its arguments and how much it returned."""

    step: str  # the graph node that ran it: retrieve, tool_loop
    turn: int = 0  # the model turn (or offline plan) it belongs to; 0 for the first search
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result_chars: int = 0
    passages: int = 0  # new passages it brought into the evidence
    findings: int = 0  # new findings it brought
    error: bool = False
    ms: float = 0.0


class TracePassage(BaseModel):
    """A passage the retrieval returned, with its fused score and the channels that found it."""

    document: str
    location: str
    score: float
    channels: list[str] = Field(default_factory=list)  # vector, bm25, graph, rerank, role
    cited: bool = False
    excerpt: str = ""


class TraceConstraint(BaseModel):
    """An instruction of the question the answer had to meet ("in one sentence")."""

    kind: str
    text: str
    carried: bool = False  # inherited from an earlier question of the thread


class TraceCheck(BaseModel):
    """One check before sending: a validation gate pass or a constraint, and what it found."""

    name: str
    ok: bool
    details: list[str] = Field(default_factory=list)


class TraceNumber(BaseModel):
    """A number the answer states and where it comes from."""

    text: str
    source: str | None = None  # "file, location"
    how: str = "stated"  # stated in the source | derived from stated numbers | not grounded


class AnswerTrace(BaseModel):
    """Everything that led to one answer, in the order it happened."""

    answer_id: str
    conversation_id: str
    deal_id: str
    question: str
    at: str
    answered_by: str = "offline"
    intent: str
    intent_why: str = ""
    followup: str = "fresh"  # fresh | inherited | clarify
    carried_over: list[str] = Field(default_factory=list)  # "period Q3 2024"
    assumption: str | None = None
    plan: list[str] = Field(default_factory=list)
    tool_calls: list[TraceToolCall] = Field(default_factory=list)
    searched: list[str] = Field(default_factory=list)
    passages: list[TracePassage] = Field(default_factory=list)
    constraints: list[TraceConstraint] = Field(default_factory=list)
    checks: list[TraceCheck] = Field(default_factory=list)
    dropped_references: list[str] = Field(default_factory=list)
    numbers: list[TraceNumber] = Field(default_factory=list)
    steps: list[TraceStep] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float | None = 0.0
    latency_ms: int = 0
    truncated: list[str] = Field(default_factory=list)  # what was cut to keep the trace small

    def size(self) -> int:
        return len(self.model_dump_json().encode())

    def fitted(self, max_bytes: int = MAX_TRACE_BYTES) -> AnswerTrace:
        """This trace within `max_bytes` as JSON: long lists and excerpts are cut first, and
        what was cut is said in `truncated`."""
        trace = self
        if trace.size() <= max_bytes:
            return trace
        cuts = [
            ("passages", 12),
            ("tool_calls", 12),
            ("numbers", 20),
            ("passages", 4),
            ("checks", 6),
            ("tool_calls", 4),
            ("searched", 8),
            ("numbers", 6),
        ]
        trace = trace.model_copy(deep=True)
        for passage in trace.passages:
            passage.excerpt = _short(passage.excerpt, 80)
        for call in trace.tool_calls:
            call.arguments = {k: _short(str(v), 120) for k, v in call.arguments.items()}
        for field, keep in cuts:
            if trace.size() <= max_bytes:
                break
            items = getattr(trace, field)
            if len(items) > keep:
                setattr(trace, field, items[:keep])
                trace.truncated.append(f"{field}: first {keep} of {len(items)} kept")
        if trace.size() > max_bytes:  # a question or notices of extraordinary length
            trace.question = _short(trace.question, 500)
            trace.notices = [_short(n, 300) for n in trace.notices[:5]]
            for check in trace.checks:
                check.details = [_short(d, 200) for d in check.details[:5]]
            trace.truncated.append("long texts shortened")
        return trace


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def excerpt_of(text: str, limit: int = EXCERPT_CHARS) -> str:
    """A passage's first words on one line, for a trace."""
    return _short(" ".join(text.split()), limit)
