"""What one question retrieved: passages, findings, relations and documents, citable by place.

Every citation an answer may carry must point at a `Source` built here; the validation gate and
the grounding step accept nothing else, so a reference the retrieval never returned cannot reach
a person.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Protocol

from manda.answers import Citation, SuggestedAction
from manda.companies import RoomCompanies, room_companies
from manda.finance.fiscal import FiscalYearEnd
from manda.models import (
    Document,
    DocumentRole,
    Finding,
    FindingStatus,
    HeadingPath,
    Relation,
    RelationType,
    SearchHit,
)

_SPACE = re.compile(r"\s+")
_PAGE = re.compile(r"^(?:p|pp|page|pg)\.?\s*(\d+)$", re.IGNORECASE)
_SLIDE = re.compile(r"^slide\s*(\d+)(\s+notes)?$", re.IGNORECASE)


def normalise_file(name: str) -> str:
    return _SPACE.sub(" ", name.strip().strip("`'\"*")).lower()


def normalise_location(label: str) -> str:
    """`p.5` = `p. 5` = `page 5`; `Sheet!B7` compared without case or spaces."""
    text = _SPACE.sub(" ", label.strip().strip("`'\"*.,;")).lower()
    if m := _PAGE.match(text):
        return f"p.{m.group(1)}"
    if m := _SLIDE.match(text):
        return f"slide {m.group(1)}{' notes' if m.group(2) else ''}"
    return text.replace(" ", "")


@dataclass(frozen=True)
class Source:
    """One citable place the retrieval returned, with the text found there."""

    document: str
    document_id: str
    location: str
    page: int | None
    excerpt: str
    chunk_id: str | None = None
    finding_id: str | None = None
    heading_path: HeadingPath = ()  # the headings the excerpt stands under

    @property
    def key(self) -> tuple[str, str]:
        return normalise_file(self.document), normalise_location(self.location)

    def citation(self) -> Citation:
        return Citation(
            document=self.document,
            location=self.location,
            page=self.page,
            excerpt=self.excerpt,
            chunk_id=self.chunk_id,
            finding_id=self.finding_id,
        )


@dataclass
class EvidenceIds:
    """The ids of one question's citable places, stable for the whole question."""

    by_id: dict[str, Source] = field(default_factory=dict)
    _by_place: dict[tuple[str, ...], str] = field(default_factory=dict)
    shown: set[str] = field(default_factory=set)  # ids whose metadata the model has seen
    # ids whose passage or finding line was sent to the model whole: a later search that finds
    # them again names them instead of sending them twice
    given: set[str] = field(default_factory=set)

    def mint(self, source: Source) -> str:
        key = _place_key(source)
        known = self._by_place.get(key)
        if known is not None:
            return known
        ident = f"S{len(self.by_id) + 1}"
        self.by_id[ident] = source
        self._by_place[key] = ident
        return ident

    def valid(self) -> list[str]:
        return list(self.by_id)


def _place_key(source: Source) -> tuple[str, ...]:
    """A finding, a passage or a place: one id each (a place's findings share its passage's
    location, yet each is its own statement)."""
    if source.finding_id:
        return ("finding", source.finding_id)
    if source.chunk_id:
        return ("chunk", source.chunk_id)
    return ("place", *source.key)


class Admits(Protocol):
    """The question's admissibility rules (`manda.agent.constraints.Admission`)."""

    as_of: date | None  # "as of 31 March 2024": the position at that date

    def document_reason(self, document: Document) -> str | None: ...
    def finding_reason(self, finding: Finding, document: Document | None) -> str | None: ...


@dataclass(frozen=True)
class Excluded:
    """Something retrieved that the question's constraints kept out of the answer, and why."""

    document: str
    reason: str
    finding: Finding | None = None


class SearchNote(str):
    """A search run, in English words (the trace's, and the model's), that an answer says in its
    own language: `key` names its wording in the language files (`answers:`), `values` fill it;
    a value `subjects` is a tuple of subject keys, `roles` one of document roles, each said by
    its name in the language."""

    key: str
    values: dict[str, Any]

    def __new__(cls, key: str, **values: Any) -> SearchNote:
        note = super().__new__(cls, _said(key, "en", values))
        note.key, note.values = key, values
        return note

    def said_in(self, language: str) -> str:
        return _said(self.key, language, self.values)


def _said(key: str, language: str, values: dict[str, Any]) -> str:
    from manda.vocabulary import vocabulary

    words = vocabulary()
    shown = {k: ", ".join(words.subject_name(s, language) for s in v) if k == "subjects"
             else ", ".join(words.role_label(DocumentRole(r), language) for r in v)
             if k == "roles" else v
             for k, v in values.items()}
    return words.answer(key, language, **shown)


@dataclass
class Evidence:
    """Everything retrieved for one question, deduplicated; the only material an answer may use."""

    hits: list[SearchHit] = field(default_factory=list)
    findings: dict[str, Finding] = field(default_factory=dict)
    documents: dict[str, Document] = field(default_factory=dict)
    relations: list[Relation] = field(default_factory=list)
    searched: list[str] = field(default_factory=list)  # what was looked for, in words
    proposals: list[SuggestedAction] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # what a limit cut short
    notices: list[str] = field(default_factory=list)  # degraded retrieval, said out loud
    coverage: object | None = None  # a `gaps.Coverage` once find_gaps ran
    timeline: object | None = None  # a `manda.timeline.Timeline` once get_timeline ran
    # the timeline's events an "as of" left out (`manda.timeline.position_at`), to say so
    timeline_left_out: list[Any] = field(default_factory=list)
    dated: list[Source] = field(default_factory=list)  # where the timeline's events are said
    catalog: dict[str, Finding] | None = None  # every finding of the deal, read once if needed
    # searches already run, by (query, k), with the passages each found: a repeated search is
    # answered from here, never run (or sent) again
    queries: dict[tuple[str, int], list[SearchHit]] = field(default_factory=dict)
    tool_calls: list[str] = field(default_factory=list)  # tools run, by name (for the answer log)
    admission: Admits | None = None  # "only audited", "as of", "no forecasts": what may be used
    excluded: list[Excluded] = field(default_factory=list)  # what those rules kept out
    # the documents of the company the question names, when the room holds several companies'
    # documents ("Apple's capex" in a room of several issuers' filings); None: the whole room
    scope: frozenset[str] | None = None
    scope_words: frozenset[str] = frozenset()  # that company's name, lowercased word by word
    # What qualifies a figure where it stands but is said beside it (a slide's speaker notes:
    # "Q3 is a preliminary estimate"), by (document id, location label); read, never cited.
    annotations: dict[tuple[str, str], str] = field(default_factory=dict)
    # how close in meaning each candidate span is to the question (cosine by the deal's
    # embedder, `manda.agent.meaning`), by the span's text; empty when nothing weighed them
    meaning: dict[str, float] = field(default_factory=dict)
    # the deal topics each retrieved passage is about by its meaning (its stored vector against
    # each topic's prototype, `manda.agent.meaning.weigh_topics`), by chunk id
    topics_by_meaning: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the short ids (`S3`) the model cites places by (`manda.agent.evidence_ids`)
    ids: EvidenceIds = field(default_factory=EvidenceIds)
    # the later versions that supersede a document, by document id (file names)
    superseded_by: dict[str, list[str]] = field(default_factory=dict)
    versions_read: bool = False  # `superseded_by` was read from the deal's relations
    # the deal's id and name, and the names its team said are one company: which company of
    # the room is the deal's own (`manda.companies.room_companies`)
    deal_names: tuple[str, ...] = ()
    entity_links: tuple[tuple[str, ...], ...] = ()
    _index: dict[tuple[str, str], list[Source]] | None = field(default=None, repr=False)
    _companies: RoomCompanies | None = field(default=None, repr=False)

    @property
    def companies(self) -> RoomCompanies:
        """The company of each document of the room, read together (read once)."""
        if self._companies is None:
            self._companies = room_companies(list(self.documents.values()), self.deal_names,
                                             self.entity_links)
        return self._companies

    def fiscal_year_end(self) -> FiscalYearEnd | None:
        """The room's fiscal year end, as the documents retrieved were read with it (most
        often stated wins; None when none states one); of the company asked about, where the
        question names one of the several companies whose documents the room holds (`scope`)."""
        scope = self.scope if self.companies.several else None
        votes = Counter(d.fiscal_year_end for d in self.documents.values() if d.fiscal_year_end
                        and (scope is None or d.id in scope))
        if not votes:
            return None
        return FiscalYearEnd.from_iso(max(votes.items(), key=lambda kv: (kv[1], kv[0]))[0])

    def of_documents(self, document_ids: Iterable[str]) -> Evidence:
        """This evidence as one company's documents hold it: its passages and findings there
        only, read as a question naming that company reads them (`scope`); citations and
        what is noted are shared with this evidence."""
        ids = frozenset(document_ids)
        return replace(
            self, scope=ids, documents={k: d for k, d in self.documents.items() if k in ids},
            hits=[h for h in self.hits if h.document_id in ids],
            findings={k: f for k, f in self.findings.items() if f.document_id in ids},
            _index=None)

    def narrow_to(self, document_ids: Iterable[str]) -> None:
        """Read from now on as a question naming one company reads the room (`scope`): the
        passages and findings of other documents already read are set aside."""
        ids = frozenset(document_ids)
        self.scope = ids
        self.hits = [h for h in self.hits if h.document_id in ids]
        self.findings = {k: f for k, f in self.findings.items() if f.document_id in ids}
        self._index = None

    # ---- adding
    def admits_hit(self, hit: SearchHit) -> bool:
        """May an answer rest on this passage? Recorded with its reason when not."""
        if self.scope is not None and hit.document_id not in self.scope:
            return False  # another company's document: never evidence for this one
        doc = self.documents.get(hit.document_id)
        why = self.admission.document_reason(doc) if self.admission and doc else None
        if why:
            self._exclude(Excluded(hit.document, why))
        return why is None

    def admits_finding(self, finding: Finding) -> bool:
        if self.scope is not None and finding.document_id not in self.scope:
            return False
        why = (self.admission.finding_reason(finding, self.documents.get(finding.document_id))
               if self.admission else None)
        if why:
            self._exclude(Excluded(self.filename(finding.document_id), why, finding))
        return why is None

    def _exclude(self, item: Excluded) -> None:
        if all((e.document, e.reason, e.finding and e.finding.id) != (
                item.document, item.reason, item.finding and item.finding.id)
               for e in self.excluded):
            self.excluded.append(item)

    def add_hits(self, hits: Iterable[SearchHit]) -> list[SearchHit]:
        known = {h.chunk_id for h in self.hits}
        new = [h for h in hits if h.chunk_id not in known and self.admits_hit(h)]
        self.hits.extend(new)
        self._index = None
        return new

    def add_findings(self, findings: Iterable[Finding]) -> list[Finding]:
        new = [f for f in findings if f.id not in self.findings and self.admits_finding(f)]
        for finding in new:
            self.findings[finding.id] = finding
        self._index = None
        return new

    def add_relations(self, relations: Iterable[Relation]) -> None:
        known = {(r.type, r.source_id, r.target_id) for r in self.relations}
        for rel in relations:
            if (rel.type, rel.source_id, rel.target_id) not in known:
                self.relations.append(rel)
                known.add((rel.type, rel.source_id, rel.target_id))

    def note_search(self, key: str, **values: Any) -> None:
        """A search run, by its wording's key in the language files (`answers:`)."""
        what = SearchNote(key, **values)
        if what not in self.searched:
            self.searched.append(what)

    def propose(self, action: SuggestedAction) -> None:
        same = (action.type, action.question, action.finding_id)
        if all((a.type, a.question, a.finding_id) != same for a in self.proposals):
            self.proposals.append(action)

    # ---- reading
    def filename(self, document_id: str) -> str:
        doc = self.documents.get(document_id)
        return doc.filename if doc else document_id

    def document_of(self, finding: Finding) -> Document | None:
        return self.documents.get(finding.document_id)

    def usable_findings(self) -> list[Finding]:
        """Findings a statement may rest on: not rejected, from a document the deal still holds."""
        return [
            f for f in self.findings.values()
            if f.status is not FindingStatus.REJECTED and f.document_id in self.documents
        ]

    def relations_of(self, finding_id: str, type_: RelationType | None = None) -> list[Relation]:
        return [
            r for r in self.relations
            if r.between == "finding"
            and (type_ is None or r.type is type_)
            and finding_id in (r.source_id, r.target_id)
        ]

    def successor(self, finding_id: str) -> Finding | None:
        """The finding that corrects this one (SUPERSEDES points newer → older)."""
        for rel in self.relations_of(finding_id, RelationType.SUPERSEDES):
            if rel.target_id == finding_id and rel.source_id in self.findings:
                return self.findings[rel.source_id]
        return None

    def predecessor(self, finding_id: str) -> Finding | None:
        """The finding this one corrects."""
        for rel in self.relations_of(finding_id, RelationType.SUPERSEDES):
            if rel.source_id == finding_id and rel.target_id in self.findings:
                return self.findings[rel.target_id]
        return None

    def latest(self, finding: Finding) -> Finding:
        """Follow corrections to the newest version of a finding."""
        seen = {finding.id}
        current = finding
        while (newer := self.successor(current.id)) is not None and newer.id not in seen:
            seen.add(newer.id)
            current = newer
        return current

    def conflicts_of(self, finding_id: str) -> list[Finding]:
        out: list[Finding] = []
        for rel in self.relations_of(finding_id, RelationType.CONTRADICTS):
            other = rel.target_id if rel.source_id == finding_id else rel.source_id
            if other in self.findings:
                out.append(self.findings[other])
        return out

    # ---- citable places
    def finding_source(self, finding: Finding) -> Source:
        return Source(
            document=self.filename(finding.document_id),
            document_id=finding.document_id,
            location=finding.location.label,
            page=finding.location.page,
            excerpt=finding.excerpt,
            chunk_id=finding.chunk_id,
            finding_id=finding.id,
            heading_path=finding.heading_path,
        )

    def hit_source(self, hit: SearchHit) -> Source:
        return Source(
            document=hit.document,
            document_id=hit.document_id,
            location=hit.location.label,
            page=hit.location.page,
            excerpt=hit.text,
            chunk_id=hit.chunk_id,
            heading_path=hit.heading_path,
        )

    def sources(self) -> list[Source]:
        """Every citable place, findings first (their excerpts are the exact sentences)."""
        out = [self.finding_source(f) for f in self.usable_findings()]
        out += [self.hit_source(h) for h in self.hits]
        out += [s for s in self.dated if not self.admission or (
            (doc := self.documents.get(s.document_id)) is None
            or self.admission.document_reason(doc) is None)]
        return out

    def source_index(self) -> dict[tuple[str, str], list[Source]]:
        if self._index is None:
            index: dict[tuple[str, str], list[Source]] = {}
            for source in self.sources():
                index.setdefault(source.key, []).append(source)
            self._index = index
        return self._index

    def known_files(self) -> list[str]:
        names = {h.document for h in self.hits}
        names |= {self.filename(f.document_id) for f in self.usable_findings()}
        return sorted(names, key=len, reverse=True)
