"""Corrections, conflicts and confirmations between findings: SUPERSEDES, CONTRADICTS, SUPPORTS.

A pure function of a deal's documents and findings, recomputed after every ingestion so the order
in which files arrive never matters:

- a newer version of a document (see `versions`) SUPERSEDES the older one, and each of its findings
  SUPERSEDES the older document's finding for the same subject, period and entity;
- the same subject, period and entity in two documents with no SUPERSEDES between them and values
  that differ beyond rounding CONTRADICT each other (different periods never conflict; a forecast
  is never in conflict with an actual; nor are two table rows naming different line items);
- the same value from another document SUPPORTS it;
- none of these holds between two companies' documents (`manda.companies`): a parent's or a
  peer's figure is its own, not another statement of the target's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from manda.companies import RoomCompanies, room_companies
from manda.finance.amounts import format_amount, same_amount
from manda.finance.compare import comparable, different_line_items
from manda.finance.growth import growth_basis
from manda.ingest.corrections import resolve_correction_target
from manda.ingest.versions import version_info
from manda.models import Document, DocumentRole, Finding, FindingStatus, Relation, RelationType

# The audit log's record of a conflict one ingestion found, or saw go (what changed, later).
CONFLICT_FOUND = "conflict.found"
CONFLICT_RESOLVED = "conflict.resolved"


@dataclass
class RelationPlan:
    """The relations a deal should have, and the findings that are now superseded."""

    relations: list[Relation] = field(default_factory=list)
    superseded: set[str] = field(default_factory=set)

    def count(self, type_: RelationType, between: str = "finding") -> int:
        return sum(1 for r in self.relations if r.type is type_ and r.between == between)


def _fact_key(finding: Finding) -> tuple[str, str, str, str, str, str] | None:
    if finding.value is None or finding.period is None:
        return None
    return (
        finding.subject,
        finding.period,
        (finding.entity or "").lower(),
        finding.unit or "",
        finding.nature.value,
        _basis(finding),
    )


def _basis(finding: Finding) -> str:
    """A growth rate's basis (year-on-year or period-over-period): different facts apart."""
    if "growth" not in finding.subject:
        return ""
    return finding.attributes.get("basis") or growth_basis(
        finding.excerpt, finding.period, finding.value_text
    )


def document_supersessions(documents: Sequence[Document]) -> list[Relation]:
    """Each newer version supersedes the version just below it in its family; a file uploaded
    again under the same name with new content supersedes its earlier upload."""
    families: dict[str, list[Document]] = defaultdict(list)
    for doc in documents:
        if doc.role is DocumentRole.THREAD_NOTE:
            continue  # two things told in a thread are two facts, never versions of one
        families[version_info(doc.filename).family].append(doc)
    relations: list[Relation] = []
    for members in families.values():
        ordered = sorted(
            members, key=lambda d: (version_info(d.filename).rank, d.ingested_at, d.filename)
        )
        for older, newer in pairwise(ordered):
            same_rank = version_info(newer.filename).rank == version_info(older.filename).rank
            re_uploaded = newer.filename.lower() == older.filename.lower()
            if same_rank and not re_uploaded:
                continue
            relations.append(
                Relation(
                    deal_id=newer.deal_id,
                    type=RelationType.SUPERSEDES,
                    source_id=newer.id,
                    target_id=older.id,
                    between="document",
                    reason=(
                        f"{newer.filename} was uploaded again with new content"
                        if re_uploaded and same_rank
                        else f"{newer.filename} is a later version of {older.filename}"
                    ),
                )
            )
    return relations + _stated_supersessions(documents, relations)


def _stated_supersessions(
    documents: Sequence[Document], known: Sequence[Relation]
) -> list[Relation]:
    """SUPERSEDES from what documents say ("this version corrects the report of 12 March")."""
    pairs = {(r.source_id, r.target_id) for r in known}
    out: list[Relation] = []
    for newer in documents:
        for statement in newer.corrections:
            older = resolve_correction_target(statement, newer, documents)
            if older is None or (newer.id, older.id) in pairs or (older.id, newer.id) in pairs:
                continue
            pairs.add((newer.id, older.id))
            out.append(Relation(
                deal_id=newer.deal_id, type=RelationType.SUPERSEDES, source_id=newer.id,
                target_id=older.id, between="document",
                reason=(f"{newer.filename} ({statement.location.label}) says: "
                        f"“{statement.sentence}”"),
            ))
    return out


def _superseded_documents(doc_relations: Iterable[Relation]) -> dict[str, set[str]]:
    """For each document, every document it supersedes directly or through a chain."""
    direct: dict[str, set[str]] = defaultdict(set)
    for rel in doc_relations:
        direct[rel.source_id].add(rel.target_id)
    closure: dict[str, set[str]] = {}

    def visit(doc_id: str) -> set[str]:
        if doc_id not in closure:
            closure[doc_id] = set()
            for older in direct.get(doc_id, ()):
                closure[doc_id] |= {older} | visit(older)
        return closure[doc_id]

    for doc_id in list(direct):
        visit(doc_id)
    return closure


def plan_relations(documents: Sequence[Document], findings: Sequence[Finding]) -> RelationPlan:
    """Compute every relation of a deal from its documents and findings."""
    between_documents = document_supersessions(documents)
    plan = plan_finding_relations(documents, between_documents, findings)
    plan.relations[:0] = between_documents
    return plan


def plan_finding_relations(
    documents: Sequence[Document],
    between_documents: Sequence[Relation],
    findings: Sequence[Finding],
    companies: RoomCompanies | None = None,
) -> RelationPlan:
    """The relations between `findings`, given the documents' SUPERSEDES. Findings of
    different subjects are never related, so a deal's findings may come one subject at a time;
    nor are two companies' figures (`companies`: the room's, read from `documents` when not
    given), which neither confirm, contradict nor correct one another."""
    plan = RelationPlan()
    replaces = _superseded_documents(between_documents)
    by_doc = {d.id: d for d in documents}
    room = companies if companies is not None else room_companies(documents)

    groups: dict[tuple[str, ...], list[Finding]] = defaultdict(list)
    for finding in findings:
        key = _fact_key(finding)
        if key is not None:
            groups[key].append(finding)

    versions = _versions_of(replaces)
    for members in groups.values():
        # a rejected reading corrects nothing; its conflicts and confirmations are kept (the
        # store does not count them while it stays rejected) so an undone rejection counts again
        decided = [f for f in members if f.status is not FindingStatus.REJECTED]
        for a, b in _version_pairs(decided, versions):
            if room.same(a.document_id, b.document_id):
                _supersede(plan, a, b, replaces, by_doc)
    for members in groups.values():
        live = [f for f in members if f.id not in plan.superseded]
        _compare_clusters(plan, live, replaces, by_doc, room)
    return plan


def _versions_of(replaces: dict[str, set[str]]) -> dict[str, set[str]]:
    """For each document, the other documents it supersedes or is superseded by."""
    versions: dict[str, set[str]] = defaultdict(set)
    for newer, olders in replaces.items():
        for older in olders - {newer}:
            versions[newer].add(older)
            versions[older].add(newer)
    return versions


def _version_pairs(
    members: Sequence[Finding], versions: dict[str, set[str]]
) -> Iterator[tuple[Finding, Finding]]:
    """The pairs of `members` from two versions of a document, in `combinations` order: only
    those are looked at, where all pairs would grow with the square of the documents restating
    a fact (a 10,000-page room restates one figure in hundreds)."""
    if not versions:
        return
    positions: dict[str, list[int]] = defaultdict(list)
    for index, finding in enumerate(members):
        positions[finding.document_id].append(index)
    for index, a in enumerate(members):
        later = sorted(
            j
            for other in versions.get(a.document_id, ())
            for j in positions.get(other, ())
            if j > index
        )
        for j in later:
            yield a, members[j]


def _clusters(findings: Sequence[Finding]) -> list[list[Finding]]:
    """Group equal values (within rounding); each cluster's first member is its anchor, a
    rejected reading only when the cluster has nothing else (its relations do not count)."""
    ordered = sorted(findings, key=lambda f: (f.status is FindingStatus.REJECTED, -f.confidence,
                                              f.document_id, f.id))
    clusters: list[list[Finding]] = []
    for finding in ordered:
        home = next(
            (c for c in clusters if same_amount(c[0].value or 0.0, finding.value or 0.0)), None
        )
        if home is None:
            clusters.append([finding])
        else:
            home.append(finding)
    return clusters


def _compare_clusters(
    plan: RelationPlan,
    live: Sequence[Finding],
    replaces: dict[str, set[str]],
    by_doc: dict[str, Document],
    room: RoomCompanies,
) -> None:
    """Confirmations point at their cluster's anchor and conflicts at the other clusters' anchors
    (of the same company: another company's figure is no statement of this one).

    Linear in the findings (times the few distinct values), where all pairs would grow with the
    square of the documents restating a fact.
    """
    clusters = _clusters(live)
    related: set[frozenset[str]] = set()
    for index, cluster in enumerate(clusters):
        for member in cluster:
            targets = [cluster[0]] + [other[0] for j, other in enumerate(clusters) if j != index]
            for target in targets:
                pair = frozenset((member.id, target.id))
                if (target.document_id == member.document_id or pair in related
                        or not room.same(member.document_id, target.document_id)):
                    continue
                related.add(pair)
                _compare(plan, member, target, replaces, by_doc)


def _shown(finding: Finding) -> str:
    return format_amount(finding.value or 0.0, finding.unit)


def _supersede(
    plan: RelationPlan,
    a: Finding,
    b: Finding,
    replaces: dict[str, set[str]],
    by_doc: dict[str, Document],
) -> None:
    if b.document_id in replaces.get(a.document_id, set()):
        newer, older = a, b
    elif a.document_id in replaces.get(b.document_id, set()):
        newer, older = b, a
    else:
        return
    where = by_doc[newer.document_id].filename
    reason = (
        f"restated unchanged in {where}"
        if same_amount(newer.value or 0.0, older.value or 0.0)
        else f"corrected from {_shown(older)} to {_shown(newer)} in {where}"
    )
    plan.relations.append(_finding_relation(RelationType.SUPERSEDES, newer, older, reason))
    plan.superseded.add(older.id)


# A balance whose sign is only how a table shows it: a net debt bridge brackets the cash it
# deducts ("(3,150)"), a balance sheet the debt it owes; a net figure's sign is its meaning.
_SIGNLESS = {"cash", "debt"}


def _compare(
    plan: RelationPlan,
    a: Finding,
    b: Finding,
    replaces: dict[str, set[str]],
    by_doc: dict[str, Document],
) -> None:
    if b.document_id in replaces.get(a.document_id, set()) or a.document_id in replaces.get(
        b.document_id, set()
    ):
        return
    a_value, b_value = a.value or 0.0, b.value or 0.0
    if a.subject.partition(":")[0] in _SIGNLESS:
        a_value, b_value = abs(a_value), abs(b_value)
    if same_amount(a_value, b_value):
        plan.relations.append(
            _finding_relation(RelationType.SUPPORTS, a, b, "same value in another document")
        )
        return
    if not comparable(a.value, b.value, a.unit, b.unit):
        return  # different scales or scopes (860 vs 200,000): not a disagreement
    if different_line_items(a.attributes.get("row"), b.attributes.get("row")):
        return  # "Net debt" and "Net debt including leases": two line items, not a disagreement
    reason = (
        f"{by_doc[a.document_id].filename} says {_shown(a)}, "
        f"{by_doc[b.document_id].filename} says {_shown(b)}"
    )
    plan.relations.append(_finding_relation(RelationType.CONTRADICTS, a, b, reason))


def _finding_relation(
    type_: RelationType, source: Finding, target: Finding, reason: str
) -> Relation:
    return Relation(
        deal_id=source.deal_id,
        type=type_,
        source_id=source.id,
        target_id=target.id,
        between="finding",
        reason=reason,
    )
