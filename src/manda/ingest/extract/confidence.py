"""The confidence rubric: how much a finding is worth given where and how it was stated.

HIGH (≥ 0.8) is a formal statement in an authoritative document (audited, annual or quarterly
report, a financial-statements table, the cap table); MEDIUM (0.5–0.8) a presentation, summary or
forecast; LOW (< 0.5) narrative, a single passing mention, notes or minutes. A draft, a forecast
or an incomplete statement can never rise above what its evidence allows; the review pipeline
checks findings against the same ceiling (`ceiling_for`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from manda.ingest.extract.profile import DocumentKind, DocumentProfile
from manda.models import Finding, Nature

__all__ = [
    "Evidence",
    "ceiling_for",
    "provenance_attributes",
    "score",
]

Evidence = Literal["table", "statement", "narrative", "mention"]
"""table: a cell of a table; statement: one sentence that names metric, value and period (or a
"Name — Role" line); narrative: prose that needs context to read (period from the heading or
the file); mention: something named without the facts that make it usable (a person, no role)."""

BASE: dict[DocumentKind, float] = {
    "annual_report": 0.92,
    "quarterly_report": 0.9,
    "financials": 0.88,
    "cap_table": 0.88,
    "presentation": 0.7,
    "legal": 0.68,
    "forecast": 0.65,
    "other": 0.6,
    "minutes": 0.4,
    "irl": 0.3,
}
_EVIDENCE_CAP: dict[Evidence, float] = {
    "table": 1.0,
    "statement": 1.0,
    "narrative": 0.78,
    "mention": 0.45,
}
DRAFT_PENALTY = 0.15
DRAFT_CAP = 0.75
FORECAST_CAP = 0.75
UNKNOWN_CAP = 0.79  # a finding that does not say where it came from is never auto-approved


def score(
    profile: DocumentProfile, evidence: Evidence, *, nature: Nature = Nature.ACTUAL
) -> float:
    """The confidence score of a statement of `evidence` type in a document of `profile`."""
    value = min(BASE[profile.kind], _EVIDENCE_CAP[evidence])
    if evidence == "narrative":
        value -= 0.05
    if profile.draft:
        value = min(value - DRAFT_PENALTY, DRAFT_CAP)
    if nature is Nature.FORECAST:
        value = min(value, FORECAST_CAP)
    return round(max(0.05, value), 2)


def provenance_attributes(profile: DocumentProfile, evidence: Evidence) -> dict[str, str]:
    """What a finding records about its evidence, so a validator can re-derive its ceiling."""
    draft = "yes" if profile.draft else "no"
    return {"doc_kind": profile.kind, "evidence": evidence, "draft": draft}


def ceiling_for(finding: Finding) -> float:
    """The highest confidence the finding's recorded evidence allows (`provenance_attributes`)."""
    attrs: Mapping[str, str] = finding.attributes
    kind = attrs.get("doc_kind")
    evidence = attrs.get("evidence")
    if kind not in BASE or evidence not in _EVIDENCE_CAP:
        return UNKNOWN_CAP
    profile = DocumentProfile(
        authoritative=False, draft=attrs.get("draft") == "yes", is_irl=kind == "irl",
        kind=kind,  # type: ignore[arg-type]
    )
    return score(profile, evidence, nature=finding.nature)  # type: ignore[arg-type]
