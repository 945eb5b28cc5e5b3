"""Extractor → validator → decision maker: which findings are promoted and which wait for a person.

A LangGraph `StateGraph` built by `build_review_graph`: `extract` takes the candidates (or asks
the extractor), `validate` checks each one (excerpt 50–200 characters and quoting its value,
confidence no higher than its evidence allows, the fields its kind needs), `refine` fixes what can
be fixed (trims or re-cuts an excerpt, lowers a confidence) and sends it back, and `decide`
approves HIGH-confidence complete findings (audited, `by="pipeline"`) and queues the rest for a
human. Refinement is bounded twice: `max_refinements` per finding, and LangGraph's
`recursion_limit` for the whole loop; whatever is still unsettled then goes to a person.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypedDict

from langgraph.errors import GraphRecursionError
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from manda.ingest.decisions import HELD
from manda.ingest.extract import Extractor, run_extractor
from manda.ingest.extract.confidence import ceiling_for, recorded_role
from manda.ingest.extract.dedupe import is_placeholder
from manda.ingest.extract.excerpts import MAX_EXCERPT, MIN_EXCERPT, excerpt_span, find_verbatim
from manda.models import (
    AuditEntry,
    Chunk,
    Confidence,
    Document,
    DocumentRole,
    Finding,
    FindingKind,
    FindingStatus,
    ParsedDocument,
    stable_id,
)

__all__ = [
    "FindingValidator",
    "Problem",
    "ReviewItem",
    "ReviewOutcome",
    "ReviewState",
    "build_review_graph",
    "decide",
    "run_review_pipeline",
]

log = logging.getLogger(__name__)

DEFAULT_RECURSION_LIMIT = 25
PIPELINE = "pipeline"

ProblemCode = Literal[
    "excerpt_too_short", "excerpt_too_long", "excerpt_missing_value", "confidence_above_evidence",
    "confidence_level_mismatch", "missing_fields", "placeholder_entity",
]


@dataclass(frozen=True)
class Problem:
    """Something wrong with a finding, said so a reviewer understands it."""

    code: ProblemCode
    message: str


_REQUIRED: dict[FindingKind, tuple[str, ...]] = {
    FindingKind.METRIC: ("subject", "period", "value"),
    FindingKind.HEADCOUNT: ("period", "value"),
    FindingKind.OWNERSHIP: ("entity", "value"),
    FindingKind.PERSON: ("entity", "role"),
    FindingKind.CONTRACT: ("entity",),
    FindingKind.LITIGATION: ("entity|value", "status"),
    FindingKind.CUSTOMER: ("value", "entity|scope"),
    FindingKind.DATE: ("date|period",),
    FindingKind.FACT: ("label",),
}


def _present(finding: Finding, name: str) -> bool:
    value: Any = getattr(finding, name, None) if name in Finding.model_fields else (
        finding.attributes.get(name)
    )
    return value is not None and (not isinstance(value, str) or bool(value.strip()))


def _squash(text: str) -> str:
    return " ".join(text.split()).casefold()


class FindingValidator:
    """The validation step's rules, and the fixes it can make on its own."""

    def __init__(self, *, min_excerpt: int = MIN_EXCERPT, max_excerpt: int = MAX_EXCERPT) -> None:
        self.min_excerpt = min_excerpt
        self.max_excerpt = max_excerpt

    def check(self, finding: Finding) -> list[Problem]:
        """Everything that keeps the finding from being promoted automatically."""
        problems: list[Problem] = []
        size = len(finding.excerpt)
        if size < self.min_excerpt:
            problems.append(Problem("excerpt_too_short",
                                    f"the excerpt is {size} characters, below {self.min_excerpt}"))
        if size > self.max_excerpt:
            problems.append(Problem("excerpt_too_long",
                                    f"the excerpt is {size} characters, above {self.max_excerpt}"))
        quoted = finding.value_text or finding.entity
        if quoted and _squash(quoted) not in _squash(finding.excerpt):
            problems.append(Problem("excerpt_missing_value",
                                    f"the excerpt does not show '{quoted}'"))
        ceiling = ceiling_for(finding)
        if finding.confidence > ceiling + 1e-9:
            problems.append(Problem(
                "confidence_above_evidence",
                f"confidence {finding.confidence:.2f} is above the {ceiling:.2f} its evidence "
                "allows",
            ))
        if finding.confidence_level is not Confidence.from_score(finding.confidence):
            problems.append(Problem("confidence_level_mismatch",
                                    "the confidence level does not match its score"))
        missing = [
            need.replace("|", " or ") for need in _REQUIRED.get(finding.kind, ())
            if not any(_present(finding, name) for name in need.split("|"))
        ]
        if missing:
            problems.append(Problem("missing_fields",
                                    f"a {finding.kind.value} needs {', '.join(missing)}"))
        if finding.entity is not None and is_placeholder(finding.entity):
            problems.append(Problem("placeholder_entity",
                                    f"'{finding.entity}' names no one in particular"))
        return problems

    def refine(self, finding: Finding, problems: Sequence[Problem],
               source: str | None = None) -> Finding:
        """The finding with what can be fixed fixed; anything else is left for a person."""
        codes = {p.code for p in problems}
        update: dict[str, Any] = {}
        if codes & {"excerpt_too_long", "excerpt_too_short", "excerpt_missing_value"}:
            excerpt = self._recut(finding, source)
            if excerpt is not None and excerpt != finding.excerpt:
                update["excerpt"] = excerpt
        confidence = finding.confidence
        if "confidence_above_evidence" in codes:
            confidence = ceiling_for(finding)
            update["confidence"] = confidence
        if codes & {"confidence_above_evidence", "confidence_level_mismatch"}:
            update["confidence_level"] = Confidence.from_score(confidence)
        return finding.model_copy(update=update) if update else finding

    def _recut(self, finding: Finding, source: str | None) -> str | None:
        """A new verbatim excerpt around the value: cut from the source, or trimmed from itself."""
        quoted = finding.value_text or finding.entity or ""
        text, near = finding.excerpt, 0
        if source is not None:
            at = find_verbatim(source, finding.excerpt)
            if at is not None:
                text, near = source, at[0]
        if not quoted:
            return None
        hit = _nearest(text, quoted, near)
        if hit is None:
            return None
        s, e = excerpt_span(text, hit[0], hit[1], min_len=self.min_excerpt,
                            max_len=self.max_excerpt)
        return text[s:e]


def _nearest(text: str, needle: str, near: int) -> tuple[int, int] | None:
    starts = []
    at = text.find(needle)
    while at != -1:
        starts.append(at)
        at = text.find(needle, at + 1)
    if not starts:
        return None
    best = min(starts, key=lambda s: abs(s - near))
    return best, best + len(needle)


# ---------------------------------------------------------------- state


Stage = Literal["check", "refine", "valid", "human"]


@dataclass(frozen=True)
class ReviewItem:
    """One finding on its way through the graph."""

    finding: Finding
    stage: Stage = "check"
    refinements: int = 0
    problems: tuple[Problem, ...] = ()
    reason: str = ""


class ReviewState(TypedDict, total=False):
    deal_id: str
    candidates: list[Finding] | None  # already extracted; otherwise the extractor is asked
    document: Document
    parsed: ParsedDocument
    chunks: list[Chunk]
    sources: dict[str, str]  # chunk id → text, so an excerpt can be re-cut from its source
    items: list[ReviewItem]
    findings: list[Finding]
    audit: list[AuditEntry]
    hold: str | None  # why nothing of this batch is promoted automatically (see `decide`)


@dataclass
class ReviewOutcome:
    """What the pipeline decided: every finding with its status, and the audit of promotions."""

    findings: list[Finding] = field(default_factory=list)
    audit: list[AuditEntry] = field(default_factory=list)

    @property
    def approved(self) -> list[Finding]:
        return [f for f in self.findings if f.status is FindingStatus.APPROVED]

    @property
    def pending(self) -> list[Finding]:
        return [f for f in self.findings if f.status is FindingStatus.PENDING]


# ---------------------------------------------------------------- decision


def _why_approved(finding: Finding) -> str:
    evidence = {"table": "a table cell", "statement": "a formal statement"}.get(
        finding.attributes.get("evidence", ""), "a statement")
    role = recorded_role(finding.attributes)
    kind = role.label if role is not None and role is not DocumentRole.OTHER else "document"
    return (f"high confidence: {evidence} in a {kind}; all fields a {finding.kind.value} needs "
            "are present; the excerpt quotes the value")


def decide(
    items: Sequence[ReviewItem], deal_id: str, *, hold: str | None = None
) -> tuple[list[Finding], list[AuditEntry]]:
    """Promote valid HIGH findings (with an audit entry); queue everything else for a person.

    `hold` says why none of this batch may be promoted however sure it is (a dropped document
    that is not audited, signed or final): each valid finding then waits with that reason; a
    finding's own `HELD` attribute does the same for it alone (its passage addresses an
    assistant)."""
    findings: list[Finding] = []
    audit: list[AuditEntry] = []
    batch_hold = hold
    for item in items:
        finding = item.finding
        hold = finding.attributes.get(HELD) or batch_hold
        if finding.status is not FindingStatus.PENDING:
            findings.append(finding)  # already decided by someone; the pipeline never overrides
            continue
        if item.stage == "valid" and finding.confidence_level is Confidence.HIGH and not hold:
            reason = _why_approved(finding)
            findings.append(finding.model_copy(update={"status": FindingStatus.APPROVED}))
            audit.append(AuditEntry(
                id=stable_id("a", deal_id, "finding.auto_approved", finding.id),
                deal_id=deal_id,
                action="finding.auto_approved",
                subject_id=finding.id,
                by=PIPELINE,
                detail=reason,
            ))
            continue
        if item.stage == "valid" and hold and finding.confidence_level is Confidence.HIGH:
            reason = hold
        elif item.stage == "valid":
            reason = f"{finding.confidence_level.value.lower()} confidence: a person should confirm"
        else:
            reason = item.reason or "needs a person"
        high = item.stage != "valid" or finding.confidence_level is Confidence.LOW
        attributes = {**finding.attributes, "review_reason": reason}
        findings.append(finding.model_copy(update={
            "status": FindingStatus.PENDING,
            "review_priority": "high" if high else "normal",
            "attributes": attributes,
        }))
    return findings, audit


# ---------------------------------------------------------------- the graph


def build_review_graph(
    *,
    validator: FindingValidator | None = None,
    max_refinements: int = 2,
    extractor: Extractor | None = None,
) -> CompiledStateGraph:
    """The review pipeline as a compiled graph; run it with a `recursion_limit` in its config."""
    check = validator or FindingValidator()

    async def extract(state: ReviewState) -> dict[str, Any]:
        candidates = state.get("candidates")
        if candidates is None:
            if extractor is None or "document" not in state or "parsed" not in state:
                raise ValueError("the review graph needs candidates or an extractor and document")
            candidates = await run_extractor(
                extractor, state["document"], state["parsed"], state.get("chunks", [])
            )
        return {"items": [ReviewItem(finding=f) for f in candidates]}

    async def validate(state: ReviewState) -> dict[str, Any]:
        items: list[ReviewItem] = []
        for item in state["items"]:
            if item.stage != "check":
                items.append(item)
                continue
            problems = tuple(check.check(item.finding))
            if not problems:
                items.append(replace(item, stage="valid", problems=()))
            elif item.refinements >= max_refinements:
                summary = "; ".join(p.message for p in problems)
                items.append(replace(item, stage="human", problems=problems,
                                     reason=f"still wrong after {item.refinements} "
                                            f"refinements: {summary}"))
            else:
                items.append(replace(item, stage="refine", problems=problems))
        return {"items": items}

    async def refine(state: ReviewState) -> dict[str, Any]:
        sources = state.get("sources") or {}
        items: list[ReviewItem] = []
        for item in state["items"]:
            if item.stage != "refine":
                items.append(item)
                continue
            source = sources.get(item.finding.chunk_id or "")
            fixed = check.refine(item.finding, item.problems, source)
            items.append(replace(item, finding=fixed, stage="check",
                                 refinements=item.refinements + 1))
        return {"items": items}

    async def decide_node(state: ReviewState) -> dict[str, Any]:
        findings, audit = decide(state["items"], state["deal_id"], hold=state.get("hold"))
        return {"findings": findings, "audit": audit}

    def after_validate(state: ReviewState) -> Literal["refine", "decide"]:
        return "refine" if any(i.stage == "refine" for i in state["items"]) else "decide"

    graph = StateGraph(ReviewState)
    graph.add_node("extract", extract)
    graph.add_node("validate", validate)
    graph.add_node("refine", refine)
    graph.add_node("decide", decide_node)
    graph.add_edge(START, "extract")
    graph.add_edge("extract", "validate")
    graph.add_conditional_edges("validate", after_validate, ["refine", "decide"])
    graph.add_edge("refine", "validate")
    graph.add_edge("decide", END)
    return graph.compile()


async def run_review_pipeline(
    findings: Sequence[Finding],
    *,
    deal_id: str,
    validator: FindingValidator | None = None,
    max_refinements: int = 2,
    recursion_limit: int = DEFAULT_RECURSION_LIMIT,
    sources: Mapping[str, str] | None = None,
    graph: CompiledStateGraph | None = None,
    hold: str | None = None,
) -> ReviewOutcome:
    """Validate and decide a batch of candidate findings of one deal.

    If the refinement loop does not settle within `recursion_limit` graph steps, every finding
    not yet validated goes to a person with that reason; nothing is lost.
    """
    compiled = graph or build_review_graph(validator=validator, max_refinements=max_refinements)
    state: ReviewState = {
        "deal_id": deal_id,
        "candidates": list(findings),
        "sources": dict(sources or {}),
        "hold": hold,
    }
    last: dict[str, Any] = {"items": [ReviewItem(finding=f) for f in findings]}
    try:
        async for values in compiled.astream(
            state, config={"recursion_limit": recursion_limit}, stream_mode="values"
        ):
            last = values
    except GraphRecursionError:
        log.warning("review loop for deal %s hit the recursion limit of %d steps",
                    deal_id, recursion_limit)
        reason = (f"refinement did not settle within the pipeline's limit of {recursion_limit} "
                  "steps")
        items = [
            i if i.stage in ("valid", "human") else replace(i, stage="human", reason=reason)
            for i in last.get("items") or [ReviewItem(finding=f) for f in findings]
        ]
        decided, audit = decide(items, deal_id, hold=hold)
        return ReviewOutcome(findings=decided, audit=audit)
    return ReviewOutcome(findings=list(last.get("findings", [])), audit=list(last.get("audit", [])))
