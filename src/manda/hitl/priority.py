"""How urgent a pending finding is for the person reviewing it: what the rubric found wrong with
it (invalid, low or medium confidence) and how much it matters (its subject, and its amount
against the size of the business), so that "high" is a short list worth doing first."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from manda.models import Confidence, Finding, FindingKind

Priority = Literal["high", "medium", "low"]
PRIORITIES: tuple[Priority, ...] = ("high", "medium", "low")

# Subjects a buyer prices or walks away over.
KEY_SUBJECTS = (
    "revenue", "ebitda", "net debt", "debt", "cash", "arr", "gross margin", "net income",
    "customer", "concentration", "change of control", "litigation", "claim", "covenant",
    "ownership", "share", "guarantee", "tax",
)
KEY_KINDS = {FindingKind.LITIGATION, FindingKind.CONTRACT, FindingKind.OWNERSHIP,
             FindingKind.CUSTOMER}
MINOR_KINDS = {FindingKind.DATE, FindingKind.FACT, FindingKind.PERSON}
MATERIAL_SHARE = 0.05  # an amount of 5% of revenue or more moves a valuation
NOTABLE_SHARE = 0.01


@dataclass(frozen=True)
class Urgency:
    """A finding's review priority and the reasons, shown beside it."""

    priority: Priority
    reasons: tuple[str, ...]


def scale_of(findings: Sequence[Finding]) -> float | None:
    """The deal's size: its largest annual revenue figure, when a document states one."""
    amounts = [
        f.value for f in findings
        if f.subject == "revenue" and f.value and (f.period or "").upper().startswith("FY")
    ]
    return max(amounts) if amounts else None


def urgency(finding: Finding, scale: float | None) -> Urgency:
    """Rubric points (0–2) plus materiality points (0–3): high from 4, medium from 2."""
    reasons: list[str] = []
    rubric = 0
    if finding.review_priority == "high":
        rubric = 2
        reasons.append(finding.attributes.get("review_reason") or "failed a check")
    elif finding.confidence_level is not Confidence.HIGH:
        rubric = 1
        reasons.append(f"{finding.confidence_level.value.lower()} confidence")
    material = 0
    subject = f"{finding.subject} {finding.label}".lower()
    if finding.kind in KEY_KINDS or any(k in subject for k in KEY_SUBJECTS):
        material += 2
        reasons.append(f"{finding.label} matters to the price")
    elif finding.kind in MINOR_KINDS:
        material -= 1
    currency = finding.unit not in (None, "%", "people", "shares", "x", "")
    if currency and finding.value and scale:
        share = abs(finding.value) / scale
        if share >= MATERIAL_SHARE:
            material += 1
            reasons.append(f"{share:.0%} of revenue")
        elif share < NOTABLE_SHARE:
            material -= 1
    score = rubric + material
    priority: Priority = "high" if score >= 4 else "medium" if score >= 2 else "low"
    return Urgency(priority, tuple(reasons))
