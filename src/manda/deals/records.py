"""What the deal operations return: a channel's binding, a page of the review queue, a deal at a
glance, what a new document or a re-run of the checks changed. Plain values, so the modules that
build them (`service`, `actions`, `qa_import`) need not import each other for their types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from manda.hitl.priority import Priority, Urgency
from manda.models import Document, Finding, FindingStatus, QAItem


@dataclass(frozen=True)
class Reanalysis:
    """What running the checks again found: the document read again, new findings, conflicts."""

    document: str | None
    new_findings: int
    conflicts: int  # conflicts in the deal now
    new_conflicts: int
    resolved: int
    superseded: int

    def summary(self) -> str:
        read = (f"read {self.document} again: {self.new_findings} new finding"
                f"{'s' if self.new_findings != 1 else ''} (waiting for review); "
                if self.document else "")
        return (f"{read}checked corrections and conflicts again: {self.new_conflicts} new "
                f"conflict{'s' if self.new_conflicts != 1 else ''}, {self.resolved} resolved, "
                f"{self.superseded} figure{'s' if self.superseded != 1 else ''} newly "
                f"superseded; {self.conflicts} conflict{'s' if self.conflicts != 1 else ''} "
                "in the deal")


@dataclass(frozen=True)
class Binding:
    """A channel linked to a deal: the deal it was linked to before, whether the deal is new,
    and whether anything changed (linking a channel to its own deal again changes nothing)."""

    channel_key: str
    deal_id: str
    previous: str | None
    created: bool
    changed: bool


@dataclass(frozen=True)
class ReviewFilter:
    """Which pending findings a person wants to work through: a priority, a document (part of
    its name), a subject (part of it or its label)."""

    priority: Priority | None = None
    document: str | None = None
    subject: str | None = None

    def __bool__(self) -> bool:
        return bool(self.priority or self.document or self.subject)

    def describe(self) -> str:
        parts = [f"{self.priority} priority" if self.priority else ""]
        parts += [f"document “{self.document}”" if self.document else ""]
        parts += [f"subject “{self.subject}”" if self.subject else ""]
        return ", ".join(p for p in parts if p)


@dataclass(frozen=True)
class ReviewPage:
    """One page of the findings waiting for a person, with the names of their documents, each
    one's priority (rubric and materiality) and the heading its excerpt sits under."""

    deal_id: str
    findings: list[Finding]
    total: int
    offset: int
    document_names: dict[str, str]
    urgency: dict[str, Urgency] = field(default_factory=dict)
    headings: dict[str, str] = field(default_factory=dict)
    where: ReviewFilter = field(default_factory=ReviewFilter)
    counts: dict[str, int] = field(default_factory=dict)  # pending per priority, unfiltered

    @property
    def has_more(self) -> bool:
        return self.offset + len(self.findings) < self.total


@dataclass(frozen=True)
class DealOverview:
    """What a person sees of a deal at a glance (the Slack Home tab)."""

    deal_id: str
    documents: list[Document]
    pending: list[Finding]
    qa_items: list[QAItem]

    @property
    def document_names(self) -> dict[str, str]:
        return {d.id: d.filename for d in self.documents}


@dataclass(frozen=True)
class PendingEvidence:
    """Findings an answer rests on that still wait for a person, and their documents' names."""

    findings: list[Finding] = field(default_factory=list)
    document_names: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Figure:
    """One figure a document states: what, for when, as written (with its unit), and status."""

    label: str
    period: str | None
    shown: str
    status: FindingStatus


@dataclass(frozen=True)
class Change:
    """A correction or conflict a new document created, with the other side's source."""

    kind: Literal["corrects", "corrected by", "conflicts with"]
    label: str
    period: str | None
    here: str  # the value in the new document
    there: str  # the other document's value
    other_source: str  # "file, location"


@dataclass(frozen=True)
class DocumentChanges:
    """What a newly ingested document brought to the deal, for the person who dropped it."""

    filename: str
    role: str  # in words: "audited statements", "management accounts", "presentation"
    draft: bool
    figures: list[Figure]
    changes: list[Change]
    pending: int
    approved: int
