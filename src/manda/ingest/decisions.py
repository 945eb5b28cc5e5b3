"""A person's review decision outlives a new reading of its figure, and nothing else does.

Findings are keyed by what was read where (`Finding.make_id`: document, place, subject, period,
value), so a document read again yields the same ids for what it still states: a decision on
one of those still applies. A new upload of a document (a later version, or the same file with
new content) is other content: a decision carries to its finding only when that finding states
the same fact unchanged — same kind, subject, period, entity, unit, nature and value — since the
person judged exactly that reading. A changed value is new evidence and is reviewed afresh.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from manda.finance.amounts import same_amount
from manda.models import (
    Finding,
    FindingStatus,
    Relation,
    RelationType,
    ReviewDecision,
    ReviewDecisionKind,
)

__all__ = ["HELD", "STATUS_OF", "carried_decisions", "same_fact"]

HELD = "held"  # Finding.attributes: why this one finding may not be promoted automatically

STATUS_OF = {
    ReviewDecisionKind.APPROVE: FindingStatus.APPROVED,
    ReviewDecisionKind.REJECT: FindingStatus.REJECTED,
}


def _identity(finding: Finding) -> tuple[str, ...]:
    return (finding.kind.value, finding.subject, finding.period or "",
            (finding.entity or "").lower(), finding.unit or "", finding.nature.value)


def same_fact(old: Finding, new: Finding) -> bool:
    """The new reading states exactly what the old one did (numbers within rounding)."""
    if _identity(old) != _identity(new):
        return False
    if old.value is None or new.value is None:
        return old.value is None and new.value is None and (
            " ".join(old.value_text.split()).lower() == " ".join(new.value_text.split()).lower())
    return same_amount(old.value, new.value)


def carried_decisions(
    decided: Iterable[tuple[Finding, ReviewDecision]],
    findings: Sequence[Finding],
    document_supersessions: Iterable[Relation],
    undecided: set[str],
) -> list[tuple[Finding, ReviewDecision]]:
    """(new finding, its decision) for each person's decision on a finding of a replaced
    document whose newer version restates that fact unchanged; `undecided` are the ids that
    have no decision yet (only those receive one)."""
    newer_of: dict[str, list[str]] = defaultdict(list)
    for rel in document_supersessions:
        if rel.between == "document" and rel.type is RelationType.SUPERSEDES:
            newer_of[rel.target_id].append(rel.source_id)
    by_document: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        by_document[f.document_id].append(f)
    out: list[tuple[Finding, ReviewDecision]] = []
    for old, decision in decided:
        for newer in newer_of.get(old.document_id, ()):
            match = next((f for f in by_document[newer] if f.id in undecided
                          and same_fact(old, f)), None)
            if match is None:
                continue
            undecided.discard(match.id)
            out.append((match, ReviewDecision(
                finding_id=match.id, deal_id=match.deal_id, decision=decision.decision,
                by=decision.by, carried_from=old.id,
                reason=(f"carried over: the same figure was "
                        f"{STATUS_OF[decision.decision].value} in the earlier version"
                        + (f" ({decision.reason})" if decision.reason else "")),
            )))
    return out
