"""What changed in a deal since a moment: new and replaced documents, restated figures, new and
resolved conflicts, findings approved and rejected, Q&A answered, facts told in threads, new red
flags and the IRL coverage before and after — most serious first, each with its source.

Read from what the deal holds (documents with their ingestion time, the relations between
findings) and from its audit log (decisions, answers, the conflicts each ingestion found or saw
go), so it needs no snapshot: any moment since the deal began can be asked about.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol

from manda.finance.amounts import format_amount, same_amount
from manda.ingest.relations import CONFLICT_FOUND, CONFLICT_RESOLVED
from manda.kg.port import Corpus, Findings, QAList, ReviewLog
from manda.models import (
    AuditEntry,
    Document,
    DocumentRole,
    DocumentStatus,
    Finding,
    QAItem,
    RelationType,
)

ChangeKind = Literal["conflict", "restated", "red_flag", "resolved", "replaced", "answered",
                     "document", "told", "rejected", "approved", "irl"]
# Most serious first: what a deal team must look at before anything else.
SEVERITY: dict[ChangeKind, int] = {
    "conflict": 0, "restated": 1, "red_flag": 2, "resolved": 3, "replaced": 4, "answered": 5,
    "document": 6, "told": 7, "rejected": 8, "approved": 9, "irl": 10,
}
PIPELINE = "pipeline"


class ChangeStore(Corpus, Findings, ReviewLog, QAList, Protocol):
    """The roles "what changed" reads: documents and passages, findings and their relations, the
    audit log and the Q&A list."""


@dataclass(frozen=True)
class ChangeItem:
    """One change, said for a person, with where it comes from."""

    kind: ChangeKind
    text: str  # "Revenue Q3 2024: TargetCo_Q3_2024_Report.pdf says €5.2M, Q&A #1 says €5.6M"
    source: str  # "TargetCo_Q3_2024_Report.pdf, p.1"; for a decision, whose it was
    at: datetime
    by: str | None = None  # the person, for decisions and answers recorded by someone

    @property
    def severity(self) -> int:
        return SEVERITY[self.kind]


@dataclass
class DealChanges:
    """Everything that changed in a deal between two moments, most serious first."""

    deal_id: str
    since: datetime
    until: datetime
    items: list[ChangeItem] = field(default_factory=list)
    coverage: tuple[tuple[int, int], tuple[int, int]] | None = None  # IRL (covered, total)
    since_reason: str = ""  # "since you last asked", "since 1 Nov 2024", "in the last 7 days"

    def __bool__(self) -> bool:
        return bool(self.items)

    def count(self, kind: ChangeKind) -> int:
        return sum(1 for i in self.items if i.kind == kind)

    def headline(self) -> str:
        """"2 new conflicts, 1 restated figure, 3 new documents, 2 answers" (or nothing)."""
        parts = [said] if (said := counted(self.items)) else []
        if self.count("irl") and self.coverage is not None:
            (was, total), (now, _) = self.coverage
            parts.append(f"IRL coverage {was}/{total} → {now}/{total}")
        return ", ".join(parts) or "nothing changed"


_COUNTED: dict[ChangeKind, tuple[str, str]] = {
    "conflict": ("new conflict", "new conflicts"),
    "restated": ("restated figure", "restated figures"),
    "red_flag": ("new red flag", "new red flags"),
    "resolved": ("conflict resolved", "conflicts resolved"),
    "replaced": ("document replaced", "documents replaced"),
    "answered": ("Q&A answer", "Q&A answers"),
    "document": ("new document", "new documents"),
    "told": ("fact told in a thread", "facts told in threads"),
    "rejected": ("finding rejected", "findings rejected"),
    "approved": ("finding approved", "findings approved"),
}


def counted(items: Sequence[ChangeItem]) -> str:
    """"1 new conflict, 14 new documents": changes counted by kind, most serious first (the
    IRL's coverage is said with its figures, not counted)."""
    parts = []
    for kind, (one, many) in _COUNTED.items():
        n = sum(1 for i in items if i.kind == kind)
        if n:
            parts.append(f"{n} {one if n == 1 else many}")
    return ", ".join(parts)


def shown(finding: Finding) -> str:
    if finding.value is not None and finding.unit:
        return format_amount(finding.value, finding.unit)
    return finding.value_text or ""


def _label(finding: Finding) -> str:
    return f"{finding.label} {finding.period}".strip() if finding.period else finding.label


def _where(finding: Finding, names: Mapping[str, str]) -> str:
    return f"{names.get(finding.document_id, '?')}, {finding.location.label}"


@dataclass
class _Deal:
    """What one reading of the deal holds, for the change rules below."""

    documents: list[Document]
    findings: dict[str, Finding]
    audit: list[AuditEntry]
    questions: list[QAItem]

    @property
    def names(self) -> dict[str, str]:
        return {d.id: d.filename for d in self.documents}


async def _read(graph: ChangeStore, deal_id: str) -> _Deal:
    documents = [d for d in await graph.list_documents(deal_id)
                 if d.status is DocumentStatus.COMPLETED]
    return _Deal(
        documents=documents,
        findings={f.id: f for f in await graph.list_findings(deal_id)},
        audit=await graph.list_audit(deal_id),
        questions=await graph.list_qa_items(deal_id),
    )


def _documents(deal: _Deal, since: datetime, replaced: Mapping[str, Document]
               ) -> list[ChangeItem]:
    items = []
    for doc in deal.documents:
        if doc.ingested_at <= since or doc.role is DocumentRole.QA_RESPONSE:
            continue  # an answer is told with its question, below
        if doc.role is DocumentRole.THREAD_NOTE:
            said = doc.metadata.get("told_by", "someone")
            items.append(ChangeItem("told", f"{doc.filename}: fact noted from {said} "
                                    "(waits for review)", doc.filename, doc.ingested_at))
        elif (older := replaced.get(doc.id)) is not None:
            text = (f"{doc.filename}: a new version replaces the one added "
                    f"{older.ingested_at:%-d %b %Y}" if older.filename == doc.filename
                    else f"{doc.filename} replaces {older.filename}")
            items.append(ChangeItem("replaced", text, doc.filename, doc.ingested_at))
        else:
            role = doc.role.label if doc.role is not DocumentRole.OTHER else "document"
            items.append(ChangeItem("document", f"{doc.filename} ({role}) added",
                                    doc.filename, doc.ingested_at))
    return items


async def _relations(graph: ChangeStore, deal_id: str, deal: _Deal, since: datetime
                     ) -> tuple[list[ChangeItem], dict[str, Document]]:
    """Restated figures from documents new since then, and documents they replaced."""
    new = {d.id: d for d in deal.documents if d.ingested_at > since}
    names = deal.names
    restated: dict[tuple[str, ...], tuple[dict[str, None], dict[str, None], datetime]] = {}
    replaced: dict[str, Document] = {}
    every = {d.id: d for d in deal.documents}
    for rel in await graph.list_relations(deal_id, type=RelationType.SUPERSEDES):
        if rel.between == "document":
            if rel.source_id in new and rel.target_id in every:
                replaced[rel.source_id] = every[rel.target_id]
            continue
        newer, older = deal.findings.get(rel.source_id), deal.findings.get(rel.target_id)
        if newer is None or older is None or newer.document_id not in new:
            continue
        if same_amount(newer.value or 0.0, older.value or 0.0):
            continue
        # one restatement said once, however many places of the two versions state it
        key = (_label(newer), shown(older), shown(newer), names.get(newer.document_id, "?"),
               names.get(older.document_id, "?"))
        now, was, _ = restated.setdefault(key, ({}, {}, new[newer.document_id].ingested_at))
        now[newer.location.label] = None
        was[older.location.label] = None
    items = [ChangeItem("restated", f"{label} restated from {before} to {after}",
                        f"{doc}, {', '.join(now)} (was {old_doc}, {', '.join(was)})", at)
             for (label, before, after, doc, old_doc), (now, was, at) in restated.items()]
    return items, replaced


_Groups = dict[tuple[ChangeKind, str, frozenset[str]], list[tuple[AuditEntry, list[Finding]]]]


def _one_figure_against_many(groups: _Groups) -> tuple[_Groups, dict[tuple, str]]:
    """Conflicts (new or resolved) of one line item that share a figure are one, that figure
    against the others ("€5.9M (Legal_Update.md) against €5.2M (…) and €5M (…)"), and a
    conflict between figures that line already lists joins it; with the shared figure of each
    merged one."""
    sharing: dict[tuple[ChangeKind, str, str], list[tuple[ChangeKind, str, frozenset[str]]]] = {}
    for key in groups:
        kind, label, values = key
        if len(values) == 2:
            for value in sorted(values):
                sharing.setdefault((kind, label, value), []).append(key)
    merged: _Groups = {}
    leads: dict[tuple, str] = {}
    taken: set[tuple[ChangeKind, str, frozenset[str]]] = set()
    def found(key: tuple[ChangeKind, str, frozenset[str]]) -> float:
        return max(entry.at for entry, _ in groups[key]).timestamp()

    # the figure shared most leads; between equals, the one whose conflicts are all newest
    order = sorted(sharing.items(), key=lambda kv: (-len(kv[1]), -min(map(found, kv[1]))))
    for (kind, label, value), keys in order:
        keys = [k for k in keys if k not in taken]
        if len(keys) < 2:
            continue
        taken.update(keys)
        key: tuple[ChangeKind, str, frozenset[str]] = (
            kind, label, frozenset().union(*(k[2] for k in keys)))
        merged[key] = [m for k in keys for m in groups[k]]
        leads[key] = value
    for key, members in groups.items():
        if key in taken:
            continue
        kind, label, values = key
        # "€5.2M against €5M" is already said by "€5.6M against €5.2M and €5M": one line
        wider = next((k for k in merged if k[:2] == (kind, label) and values <= k[2]), None)
        merged.setdefault(wider or key, []).extend(members)
    return merged, leads


def _conflicts(deal: _Deal, since: datetime) -> list[ChangeItem]:
    """Conflicts each ingestion found or saw go (the pipeline's own entries in the log), as
    they stand now: one figure against the others it disagrees with, said once."""
    last: dict[str, AuditEntry] = {}  # pair -> its latest entry
    for entry in deal.audit:
        if entry.action in (CONFLICT_FOUND, CONFLICT_RESOLVED):
            last[entry.subject_id] = entry
    groups: _Groups = {}
    known: set[tuple[str, frozenset[str]]] = set()  # disagreements open before `since`
    for pair, entry in last.items():
        sides = [deal.findings[i] for i in pair.split("|") if i in deal.findings]
        kind: ChangeKind = "conflict" if entry.action == CONFLICT_FOUND else "resolved"
        label = entry.detail.split(": ", 1)[0] if ": " in entry.detail else ""
        values = frozenset(shown(f) for f in sides) if len(sides) == 2 else frozenset({pair})
        if entry.at <= since:
            if kind == "conflict":
                known.add((label, values))
            continue
        groups.setdefault((kind, label, values), []).append((entry, sides))
    # a new document siding with one figure of a disagreement already open is no new conflict
    groups, leads = _one_figure_against_many({
        key: members for key, members in groups.items()
        if key[0] != "conflict" or key[1:] not in known})
    items = []
    for (kind, label, values), members in groups.items():
        at = max(e.at for e, _ in members)
        sides = [f for _, pair in members for f in pair]
        if len(sides) < 2 * len(members):  # a side no longer held: say what the log said
            text = "; ".join(dict.fromkeys(e.detail for e, _ in members))
            source = text
        else:
            by_value: dict[str, dict[str, None]] = {}
            for f in sides:
                by_value.setdefault(shown(f), {})[deal.names.get(f.document_id, "?")] = None
            said = {value: f"{value} ({', '.join(names)})" for value, names in by_value.items()}
            lead = leads.get((kind, label, values))
            if lead in said:  # the one figure first, the others it disagrees with after it
                others = [s for value, s in said.items() if value != lead]
                text = f"{label}: {said[lead]} against " + " and ".join(others)
            else:
                text = f"{label}: " + " against ".join(said.values())
            source = " · ".join(dict.fromkeys(_where(f, deal.names) for f in sides))
        if kind == "resolved":
            text = f"no longer in conflict — {text}"
        items.append(ChangeItem(kind, text, source, at))
    return items


def _decisions(deal: _Deal, since: datetime) -> list[ChangeItem]:
    items = []
    for entry in deal.audit:
        if entry.at <= since or entry.by == PIPELINE:
            continue
        if entry.action not in ("finding.approved", "finding.rejected"):
            continue
        finding = deal.findings.get(entry.subject_id)
        if finding is None:
            continue
        kind: ChangeKind = "approved" if entry.action == "finding.approved" else "rejected"
        why = f" ({entry.detail})" if kind == "rejected" and entry.detail else ""
        items.append(ChangeItem(kind, f"{_label(finding)}: {shown(finding)}{why}",
                                _where(finding, deal.names), entry.at, by=entry.by))
    return items


def _answers(deal: _Deal, since: datetime) -> list[ChangeItem]:
    by_id = {q.id: q for q in deal.questions}
    items, seen = [], set()
    for entry in reversed(deal.audit):
        if entry.at <= since or entry.action != "qa.answered" or entry.subject_id in seen:
            continue
        seen.add(entry.subject_id)
        item = by_id.get(entry.subject_id)
        if item is None:
            continue
        answer = " ".join((item.answer or entry.detail).split())
        answer = answer if len(answer) <= 160 else answer[:157] + "…"
        follow = " — needs a follow-up" if item.status == "closed" else ""
        source = item.answer_document or "the Q&A list"
        if item.answered_by:
            when = f" {item.answered_on.day} {item.answered_on:%b %Y}" if item.answered_on else ""
            source += f", answered{when} by {item.answered_by}"
        items.append(ChangeItem("answered", f"Q{item.number} {item.question} → “{answer}”"
                                f"{follow}", source, entry.at, by=entry.by))
    return list(reversed(items))


async def _red_flags(graph: ChangeStore, deal_id: str, deal: _Deal, since: datetime
                     ) -> list[ChangeItem]:
    """Red-flag topics the new documents state that the room did not before."""
    from manda.agent.evidence import Evidence  # the red-flag rules live with the agent
    from manda.agent.unusual import scan
    from manda.retrieval.hits import chunk_hit

    async def flagged(documents: Sequence[Document]) -> dict[str, tuple[str, str]]:
        evidence = Evidence(documents={d.id: d for d in documents})
        for doc in documents:
            evidence.add_hits([chunk_hit(c, doc.filename, via=["changes"])
                               for c in await graph.list_chunks(deal_id, doc.id)])
        return {item.topic.key: (f"{item.topic.flag_label}: “{item.statement}”",
                                 f"{item.source.document}, {item.source.location}")
                for item in scan(evidence)}

    new = [d for d in deal.documents if d.ingested_at > since and not d.is_irl]
    if not new:
        return []
    raised = await flagged(new)
    if not raised:
        return []
    before = await flagged([d for d in deal.documents if d.ingested_at <= since and not d.is_irl])
    at = max(d.ingested_at for d in new)
    return [ChangeItem("red_flag", text, source, at)
            for key, (text, source) in raised.items() if key not in before]


async def _coverage(graph: ChangeStore, deal_id: str, deal: _Deal, since: datetime
                    ) -> tuple[tuple[int, int], tuple[int, int]]:
    from manda.agent.evidence import Evidence
    from manda.agent.gaps import assess_coverage

    before_docs = {d.id: d for d in deal.documents if d.ingested_at <= since}
    every = Evidence(documents={d.id: d for d in deal.documents})
    now = await assess_coverage(graph, deal_id, every)  # type: ignore[arg-type]
    if not before_docs:
        return (0, now.total), (now.covered, now.total)
    was = await assess_coverage(graph, deal_id,  # type: ignore[arg-type]
                                Evidence(documents=before_docs))
    return (was.covered, was.total), (now.covered, now.total)


async def changes_since(
    graph: ChangeStore, deal_id: str, since: datetime, until: datetime, *,
    coverage: bool = True,
) -> DealChanges:
    """Everything that changed in the deal after `since`, most serious first (then newest)."""
    deal = await _read(graph, deal_id)
    restated, replaced = await _relations(graph, deal_id, deal, since)
    items = [*_conflicts(deal, since), *restated, *await _red_flags(graph, deal_id, deal, since),
             *_documents(deal, since, replaced), *_answers(deal, since), *_decisions(deal, since)]
    result = DealChanges(deal_id=deal_id, since=since, until=until)
    if coverage and any(d.ingested_at > since for d in deal.documents):
        result.coverage = await _coverage(graph, deal_id, deal, since)
        (was, total), (now, _) = result.coverage
        if was != now:
            items.append(ChangeItem("irl", f"IRL coverage {was}/{total} → {now}/{total}",
                                    "the IRL against the room", until))
    result.items = sorted(items, key=lambda i: (i.severity, -i.at.timestamp()))
    return result
