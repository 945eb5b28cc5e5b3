"""The confidence rubric: how much a finding is worth given where and how it was stated.

HIGH (≥ 0.8) is a formal statement in an authoritative document (audited statements, management
accounts, the cap table); MEDIUM (0.5–0.8) a presentation, summary or forecast; LOW (< 0.5)
narrative, a single passing mention, notes or minutes. Each document role's authority is in
`manda/vocabulary/roles.yaml`. A draft, a forecast or an incomplete statement can never rise above
what its evidence allows; the review pipeline checks findings against the same ceiling
(`ceiling_for`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from manda.ingest.extract.profile import DocumentProfile
from manda.models import DocumentRole, Finding, Nature

__all__ = [
    "Evidence",
    "ceiling_for",
    "provenance_attributes",
    "recorded_role",
    "score",
]

Evidence = Literal["table", "statement", "narrative", "mention"]
"""table: a cell of a table; statement: one sentence that names metric, value and period (or a
"Name — Role" line); narrative: prose that needs context to read (period from the heading or
the file); mention: something named without the facts that make it usable (a person, no role)."""

# Findings stored before the one document classification recorded a kind of document; each
# reads as the role that now stands for it.
_FORMER_KINDS: dict[str, DocumentRole] = {
    "annual_report": DocumentRole.AUDITED_STATEMENTS,
    "quarterly_report": DocumentRole.MANAGEMENT_ACCOUNTS,
    "financials": DocumentRole.MANAGEMENT_ACCOUNTS,
    "cap_table": DocumentRole.CAP_TABLE,
    "presentation": DocumentRole.PRESENTATION,
    "legal": DocumentRole.LEGAL_MEMO,
    "forecast": DocumentRole.BUDGET_FORECAST,
    "other": DocumentRole.OTHER,
    "minutes": DocumentRole.BOARD_MINUTES,
    "irl": DocumentRole.IRL,
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
    value = min(profile.spec.authority, _EVIDENCE_CAP[evidence])
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
    return {"doc_role": profile.role.value, "evidence": evidence, "draft": draft}


def recorded_role(attributes: Mapping[str, str]) -> DocumentRole | None:
    """The role of the document a finding was stated in, as the finding recorded it."""
    if (role := attributes.get("doc_role")) in DocumentRole.__members__.values():
        return DocumentRole(role)
    return _FORMER_KINDS.get(attributes.get("doc_kind", ""))


def ceiling_for(finding: Finding) -> float:
    """The highest confidence the finding's recorded evidence allows (`provenance_attributes`)."""
    attrs: Mapping[str, str] = finding.attributes
    role = recorded_role(attrs)
    evidence = attrs.get("evidence")
    if role is None or evidence not in _EVIDENCE_CAP:
        return UNKNOWN_CAP
    profile = DocumentProfile(role=role, draft=attrs.get("draft") == "yes")
    return score(profile, evidence, nature=finding.nature)  # type: ignore[arg-type]
