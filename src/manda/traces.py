"""How one answer was reached — its trace — kept beside the conversation so a person can ask later.

The agent records it while answering (`manda.agent.trace`), the memory port stores the last few
per conversation with the conversation's expiry, and the front ends show it: `manda ask --trace`,
the "How I answered" modal in Slack. Scores here are retrieval scores, shown only in the trace.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from manda.models import heading_trail

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
    heading_path: list[str] = Field(default_factory=list)  # the headings it stands under
    score: float
    channels: list[str] = Field(default_factory=list)  # vector, bm25, graph, rerank, role
    channel_scores: dict[str, float] = Field(default_factory=dict)  # each before fusion
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
    inputs: list[str] = Field(default_factory=list)  # derived: the stated numbers it comes from


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
    cautions: list[str] = Field(default_factory=list)  # what the answer said of its constraints
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


def _tokens(input_tokens: int, output_tokens: int, cache_read: int, cache_write: int) -> str:
    text = f"{input_tokens:,} in / {output_tokens:,} out"
    if cache_read or cache_write:
        text += f" (cache {cache_read:,} read, {cache_write:,} written)"
    return text


def _cost(cost: float | None) -> str:
    return "price unknown" if cost is None else f"${cost:.4f}"


def _under(passage: TracePassage) -> str:
    """` (under Legal summary › Litigation)`, or nothing when it stands under no heading."""
    return f" (under {heading_trail(tuple(passage.heading_path))})" if passage.heading_path else ""


def _channel_scores(passage: TracePassage) -> str:
    if not passage.channel_scores:
        return ""
    shown = ", ".join(f"{name} {score:.3g}" for name, score in passage.channel_scores.items())
    return f" ({shown})"


def trace_sections(trace: AnswerTrace) -> list[tuple[str, list[str]]]:
    """The trace as titled groups of plain lines, in the order a reader follows the answer;
    the CLI prints them and the Slack modal shows them (each escaping for its medium)."""
    sections: list[tuple[str, list[str]]] = []
    intent = [f"{trace.intent} — {trace.intent_why}" if trace.intent_why else trace.intent]
    if trace.followup == "inherited":
        carried = ", ".join(trace.carried_over) or "the thread's context"
        intent.append(f"Follow-up: carried over {carried}"
                      + (f' (stated as "{trace.assumption}")' if trace.assumption else ""))
    elif trace.followup == "clarify":
        intent.append("Follow-up: ambiguous, so Manda asked which was meant")
    else:
        intent.append("Fresh question: nothing carried over from the thread")
    sections.append(("Intent", intent))
    if trace.constraints:
        sections.append(("Constraints", [
            c.text + (" (carried over from the thread)" if c.carried else "")
            for c in trace.constraints]))
    if trace.plan:
        sections.append(("Plan", list(trace.plan)))
    if trace.tool_calls:
        sections.append(("Tool calls", [
            f"{c.name}({', '.join(f'{k}={v!r}' for k, v in c.arguments.items())}) → "
            f"{c.result_chars:,} chars, {c.passages} new passage(s), {c.findings} new "
            f"finding(s), {c.ms:.0f} ms" + (" — failed" if c.error else "")
            for c in trace.tool_calls]))
    if trace.passages:
        sections.append(("Passages", [
            f"{'✓ cited ' if p.cited else ''}{p.document}, {p.location}{_under(p)} — score "
            f"{p.score:.3f} "
            f"via {' + '.join(p.channels) or 'unknown'}{_channel_scores(p)}"
            for p in trace.passages]))
    checks = [f"{'passed' if c.ok else 'failed'}: {c.name}"
              + (f" — {'; '.join(c.details)}" if c.details else "") for c in trace.checks]
    checks += [f"removed (never retrieved): {r}" for r in trace.dropped_references]
    if checks:
        sections.append(("Validation", checks))
    if trace.cautions:
        sections.append(("Cautions shown under the answer", list(trace.cautions)))
    if trace.numbers:
        sections.append(("Grounding", [
            f"{n.text} → {n.source}" if n.source else f"{n.text} → {n.how}"
            + (f" from {', '.join(n.inputs)}" if n.inputs else "") for n in trace.numbers]))
    steps = []
    for s in trace.steps:
        used = _tokens(s.input_tokens, s.output_tokens, s.cache_read_tokens, s.cache_write_tokens)
        model = f", {used}, {_cost(s.cost_usd)}" if s.input_tokens or s.output_tokens else ""
        steps.append(f"{s.name}: {s.ms:.0f} ms{model}")
    used = _tokens(trace.input_tokens, trace.output_tokens, trace.cache_read_tokens,
                   trace.cache_write_tokens)
    steps.append(f"total: {trace.latency_ms:,} ms, {used}, {_cost(trace.cost_usd)} — answered "
                 f"by {trace.answered_by}")
    sections.append(("Steps, tokens and cost", steps))
    if trace.notices:
        sections.append(("Notices", list(trace.notices)))
    if trace.truncated:
        sections.append(("Shortened to keep the trace small", list(trace.truncated)))
    return sections
