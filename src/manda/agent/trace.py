"""Records an answer's trace as the graph runs, and turns the finished run into an `AnswerTrace`.

Nodes are not changed to be traced: `timed` wraps each node (its latency, the tokens it used, the
gate results it returned), tool calls are noted where the `ToolBox` runs them (`tool_call`), and
everything else — intent, follow-up, passages, grounding — is read from the final state. Nothing
is run twice. With no recorder in the state, all of this does nothing.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from manda.agent.evidence import Evidence
from manda.agent.validate import GateResult
from manda.answers import Answer, AnswerNumber
from manda.llm.port import TokenUsage
from manda.traces import (
    AnswerTrace,
    TraceCheck,
    TraceConstraint,
    TraceNumber,
    TracePassage,
    TraceStep,
    TraceToolCall,
    excerpt_of,
)

MAX_PASSAGES = 30
MAX_ARGUMENT_CHARS = 300

_recording: ContextVar[TraceRecorder | None] = ContextVar("manda_trace", default=None)


@dataclass
class GateAttempt:
    origin: str
    result: GateResult


@dataclass
class TraceRecorder:
    """What only the running graph knows: step timings, tool calls and every gate attempt."""

    steps: list[TraceStep] = field(default_factory=list)
    tool_calls: list[TraceToolCall] = field(default_factory=list)
    gates: list[GateAttempt] = field(default_factory=list)
    turns: int = 0  # model turns (or offline plans) run so far
    offline_turns: set[int] = field(default_factory=set)
    step: str = ""

    def plan(self) -> list[str]:
        """The tools each turn ran, in order: the offline plan, or what Claude chose per turn."""
        lines: list[str] = []
        by_turn: dict[int, list[str]] = {}
        for call in self.tool_calls:
            if call.step == "retrieve":
                lines.append(f"search first: {_call_text(call)}")
            else:
                by_turn.setdefault(call.turn, []).append(_call_text(call))
        for turn, calls in sorted(by_turn.items()):
            who = "offline plan" if turn in self.offline_turns else f"Claude, turn {turn}"
            lines.append(f"{who}: " + "; ".join(calls))
        return lines


def _call_text(call: TraceToolCall) -> str:
    args = ", ".join(f"{k}={v!r}" for k, v in call.arguments.items())
    return f"{call.name}({args})"


Node = Callable[..., Awaitable[dict[str, Any]]]


def timed(name: str, node: Node) -> Node:
    """`node`, recording its latency, token use and gate result when the state has a recorder."""

    @functools.wraps(node)
    async def run(state: Mapping[str, Any], **kwargs: Any) -> dict[str, Any]:
        recorder = state.get("trace")
        if not isinstance(recorder, TraceRecorder):
            return await node(state, **kwargs)
        usage: TokenUsage | None = state.get("usage")
        before = _tokens(usage)
        recorder.step = name
        if name == "tool_loop":
            recorder.turns += 1
            if state.get("use_offline"):
                recorder.offline_turns.add(recorder.turns)
        token = _recording.set(recorder)
        started = time.perf_counter()
        try:
            update = await node(state, **kwargs)
        finally:
            _recording.reset(token)
            after = _tokens(usage)
            used = [a - b for a, b in zip(after, before, strict=True)]
            recorder.steps.append(TraceStep(
                name=name, ms=round((time.perf_counter() - started) * 1000, 2),
                input_tokens=used[0], output_tokens=used[1], cache_read_tokens=used[2],
                cache_write_tokens=used[3]))
        gate = update.get("gate") if isinstance(update, dict) else None
        if isinstance(gate, GateResult):
            origin = update.get("origin") or state.get("origin") or ""
            recorder.gates.append(GateAttempt(str(origin), gate))
        return update

    return run


def _tokens(usage: TokenUsage | None) -> tuple[int, int, int, int]:
    if usage is None:
        return (0, 0, 0, 0)
    return (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens,
            usage.cache_write_tokens)


@contextmanager
def tool_call(name: str, arguments: Mapping[str, Any], evidence: Evidence
              ) -> Iterator[Callable[[str, bool], None]]:
    """Around one tool run: call the yielded function with its result (and whether it failed)."""
    recorder = _recording.get()
    hits, findings = len(evidence.hits), len(evidence.findings)
    started = time.perf_counter()
    outcome: dict[str, Any] = {"content": "", "error": True}

    def done(content: str, error: bool = False) -> None:
        outcome.update(content=content, error=error)

    try:
        yield done
    finally:
        if recorder is not None:
            step = recorder.step or "tool_loop"
            recorder.tool_calls.append(TraceToolCall(
                step=step, turn=0 if step == "retrieve" else recorder.turns, name=name,
                arguments={k: _argument(v) for k, v in arguments.items()},
                result_chars=len(outcome["content"]), error=bool(outcome["error"]),
                passages=len(evidence.hits) - hits, findings=len(evidence.findings) - findings,
                ms=round((time.perf_counter() - started) * 1000, 2)))


def _argument(value: Any) -> Any:
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    text = str(value)
    return text if len(text) <= MAX_ARGUMENT_CHARS else text[: MAX_ARGUMENT_CHARS - 1] + "…"


# ---------------------------------------------------------------- the finished trace


def build_trace(final: Mapping[str, Any], recorder: TraceRecorder, answer: Answer, *,
                answer_id: str, at: str, price: Callable[[TokenUsage], float | None]
                ) -> AnswerTrace:
    """The trace of one finished run, from its final state and what the recorder saw."""
    evidence: Evidence = final["evidence"]
    resolution = final["resolution"]
    frame = final["frame"]
    # the question as read (without the instructions a constraint took out of it), once
    why = frame.intent_reason
    if resolution.kind == "clarify":
        why = "the follow-up could mean two periods, so Manda asks which"
    elif resolution.intent != frame.intent:
        why = f"carried over from the thread ({resolution.intent.value}); the question alone: {why}"
    cited = {c.chunk_id for c in answer.citations if c.chunk_id}
    cited_places = {(c.document, c.location) for c in answer.citations}
    passages = sorted(evidence.hits, key=lambda h: -h.score)
    steps = [_priced(s, price) for s in recorder.steps]
    total = TokenUsage(answer.usage.input_tokens, answer.usage.output_tokens,
                       answer.usage.cache_read_tokens, answer.usage.cache_write_tokens)
    plan = recorder.plan()
    if final.get("use_offline") and not any(c.step != "retrieve" for c in recorder.tool_calls):
        plan.append("no further tools: the offline composer answered from what was found")
    return AnswerTrace(
        answer_id=answer_id,
        conversation_id=answer.conversation_id,
        deal_id=final["deal_id"],
        question=final["question"],
        at=at,
        answered_by=answer.model,
        intent=answer.intent.value,
        intent_why=why,
        followup=resolution.kind,
        carried_over=_carried(frame, resolution),
        assumption=resolution.assumption,
        plan=plan,
        tool_calls=recorder.tool_calls,
        searched=list(evidence.searched),
        passages=[
            TracePassage(document=h.document, location=h.location.label,
                         heading_path=list(h.heading_path), score=h.score,
                         channels=list(h.via), channel_scores=dict(h.channel_scores),
                         cited=h.chunk_id in cited or (h.document, h.location.label)
                         in cited_places,
                         excerpt=excerpt_of(h.text))
            for h in passages[:MAX_PASSAGES]
        ],
        constraints=_constraints(final.get("constraints"), final.get("constraints_carried")),
        checks=_checks(recorder, final.get("constraint_checks")),
        cautions=[c.text for c in answer.cautions],
        dropped_references=[f"{r.document}, {r.location}" for g in recorder.gates
                            for r in g.result.dropped],
        numbers=[_traced(n) for n in answer.numbers],
        steps=steps,
        notices=list(answer.notices),
        input_tokens=total.input_tokens,
        output_tokens=total.output_tokens,
        cache_read_tokens=total.cache_read_tokens,
        cache_write_tokens=total.cache_write_tokens,
        cost_usd=price(total),
        latency_ms=answer.usage.latency_ms,
    )


def _traced(number: AnswerNumber) -> TraceNumber:
    """A number of the answer as its trace shows it: where it is stated, or how it was got."""
    if number.source is not None:
        return TraceNumber(text=number.text, how="stated",
                           source=f"{number.source.document}, {number.source.location}")
    if number.computed:
        return TraceNumber(text=number.text, how="derived", inputs=list(number.inputs))
    return TraceNumber(text=number.text, how="not grounded")


def _priced(step: TraceStep, price: Callable[[TokenUsage], float | None]) -> TraceStep:
    used = TokenUsage(step.input_tokens, step.output_tokens, step.cache_read_tokens,
                      step.cache_write_tokens)
    return step.model_copy(update={"cost_usd": price(used) if used.total else 0.0})


def _carried(frame: Any, resolution: Any) -> list[str]:
    """What the question took from the thread instead of saying it."""
    if resolution.kind != "inherited":
        return []
    out = []
    if resolution.subject and not frame.subjects:
        out.append(f"subject {resolution.subject}")
    if resolution.period and not frame.periods:
        out.append(f"period {resolution.period}")
    if resolution.entity and not frame.entity:
        out.append(f"company {resolution.entity}")
    if resolution.intent != frame.intent:
        out.append(f"intent {resolution.intent.value}")
    return out


def _constraints(found: Any, carried: Any) -> list[TraceConstraint]:
    """The constraints in force (`manda.agent.constraints`), when the question or its thread
    stated any; read by shape, so the trace needs nothing else from that module."""
    inherited = list(carried or ())
    out = []
    for item in getattr(found, "items", None) or ():
        kind = getattr(item, "kind", "")
        describe = getattr(item, "describe", None)
        text = describe() if callable(describe) else str(getattr(item, "phrase", kind))
        out.append(TraceConstraint(kind=str(getattr(kind, "value", kind)), text=text,
                                   carried=item in inherited))
    return out


def _checks(recorder: TraceRecorder, constraint_checks: Any) -> list[TraceCheck]:
    checks = []
    for n, attempt in enumerate(recorder.gates, start=1):
        who = {"model": "Claude's answer", "offline": "the offline answer",
               "clarification": "the clarifying question"}.get(attempt.origin, "the answer")
        details = list(attempt.result.errors)
        if attempt.result.dropped:
            details.append(f"{len(attempt.result.dropped)} reference(s) the retrieval never "
                           "returned were removed")
        if attempt.result.skipped:  # validate.LOOSER_OFFLINE: held by how it was composed
            details.append("checked for a model's answer only: "
                           + ", ".join(attempt.result.skipped))
        checks.append(TraceCheck(name=f"validation gate {n}: {who}", ok=attempt.result.ok,
                                 details=details))
    for item in constraint_checks or ():
        constraint = getattr(item, "constraint", None)
        describe = getattr(constraint, "describe", None)
        name = describe() if callable(describe) else str(constraint or "constraint")
        details = [str(item.reason)] if getattr(item, "reason", "") else []
        if getattr(item, "disclosed", False):
            details.append("the answer says which and why")
        checks.append(TraceCheck(name=f"constraint: {name}", ok=bool(getattr(item, "met", False)),
                                 details=details))
    return checks
