"""Gap identification: which checklist items the data room covers, by category.

The deal's IRL is the checklist when one was ingested (its rows, read from its chunks); otherwise
the default checklist shipped in `checklist.yaml`. An item counts as covered only when a document
of the room (not the IRL itself) shows it: an IRL row marked "Provided" with nothing behind it is
still a gap, and is reported as one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Literal

import yaml

from manda.agent.evidence import Evidence, Source
from manda.kg.port import KnowledgeGraph
from manda.models import Chunk, Document, SearchHit

_GENERIC = {
    "and", "the", "of", "for", "with", "from", "by", "incl", "including", "latest", "last",
    "all", "any", "other", "list", "lists", "report", "reports", "agreements", "agreement",
    "documents", "document", "details", "copies", "copy", "information", "provide", "please",
    "months", "years", "year", "current", "key", "main", "relevant", "overview", "their", "its",
}


@dataclass(frozen=True)
class ChecklistItem:
    """One thing a due-diligence review expects to see."""

    category: str
    item: str
    evidence: tuple[str, ...]
    question: str
    match: tuple[str, ...] = ()
    strict: bool = False  # evidence is loose words: two of them must appear together
    ref: str | None = None  # IRL reference, e.g. "T-01"
    priority: str | None = None
    status: str | None = None  # as the IRL states it ("Provided", "Open")
    source: Source | None = None  # the IRL row it came from

    @property
    def title(self) -> str:
        return f"{self.ref} {self.item}" if self.ref else self.item


@dataclass
class ItemCoverage:
    item: ChecklistItem
    covered_by: list[Source] = field(default_factory=list)

    @property
    def covered(self) -> bool:
        return bool(self.covered_by)

    @property
    def status_mismatch(self) -> bool:
        """The IRL calls it provided, but nothing in the room provides it."""
        status = (self.item.status or "").lower()
        return not self.covered and status in {"provided", "received", "done", "complete", "yes"}


@dataclass
class Coverage:
    origin: Literal["irl", "default"]
    items: list[ItemCoverage]
    irl_document: str | None = None
    irl_sources: list[Source] = field(default_factory=list)

    @property
    def covered(self) -> int:
        return sum(1 for i in self.items if i.covered)

    @property
    def total(self) -> int:
        return len(self.items)

    @property
    def gaps(self) -> list[ItemCoverage]:
        return [i for i in self.items if not i.covered]

    def by_category(self) -> dict[str, list[ItemCoverage]]:
        grouped: dict[str, list[ItemCoverage]] = {}
        for entry in self.items:
            grouped.setdefault(entry.item.category, []).append(entry)
        return grouped


# ---------------------------------------------------------------- the checklists


@cache
def default_checklist() -> tuple[ChecklistItem, ...]:
    """The shipped checklist: Financial, Tax, Legal, Commercial, HR, IP, IT/Cyber."""
    text = resources.files("manda.agent").joinpath("checklist.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    items: list[ChecklistItem] = []
    for category in data["categories"]:
        for entry in category["items"]:
            items.append(
                ChecklistItem(
                    category=category["name"],
                    item=entry["item"],
                    evidence=tuple(entry["evidence"]),
                    question=entry["question"],
                    match=tuple(entry.get("match", ())),
                )
            )
    return tuple(items)


_CATEGORY_KEYS = re.compile(r"categor|area|workstream|section|topic|stream", re.IGNORECASE)
_REQUEST_KEYS = re.compile(r"request|item|description|document|information|question|requirement",
                           re.IGNORECASE)
_STATUS_KEYS = re.compile(r"status|state|provided|received", re.IGNORECASE)
_PRIORITY_KEYS = re.compile(r"priority|prio|importance", re.IGNORECASE)


def _row_fields(line: str) -> tuple[str | None, dict[str, str]]:
    """`F-01 | Category: Financial | Request: …` → ("F-01", {"Category": "Financial", …})."""
    parts = [p.strip() for p in line.split(" | ")]
    first = parts[0] if parts and ":" not in parts[0] else None
    fields: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition(": ")
        if sep and key and len(key) <= 40:
            fields[key] = value.strip()
    return first, fields


def _pick(fields: dict[str, str], pattern: re.Pattern[str]) -> str | None:
    return next((v for k, v in fields.items() if pattern.search(k) and v), None)


def irl_items(hits: Sequence[SearchHit]) -> list[ChecklistItem]:
    """The IRL's rows as checklist items, each borrowing the evidence of the items it names."""
    defaults = default_checklist()
    items: list[ChecklistItem] = []
    seen: set[str] = set()
    for hit in hits:
        source = Source(hit.document, hit.document_id, hit.location.label, hit.location.page,
                        hit.text, hit.chunk_id)
        for line in hit.text.splitlines():
            ref, fields = _row_fields(line)
            request = _pick(fields, _REQUEST_KEYS)
            if not request or request.lower() in seen:
                continue
            seen.add(request.lower())
            lowered = request.lower()
            borrowed = [d for d in defaults if any(_has_phrase(lowered, m) for m in d.match)]
            evidence = tuple(dict.fromkeys(p for d in borrowed for p in d.evidence))
            items.append(
                ChecklistItem(
                    category=_pick(fields, _CATEGORY_KEYS) or "General",
                    item=request,
                    evidence=evidence or _distinctive_words(request),
                    strict=not evidence,
                    question=f"Please provide: {request}.",
                    ref=ref,
                    priority=_pick(fields, _PRIORITY_KEYS),
                    status=_pick(fields, _STATUS_KEYS),
                    source=source,
                )
            )
    return items


def _distinctive_words(request: str) -> tuple[str, ...]:
    words = re.findall(r"[a-z][a-z&\-]{3,}", request.lower())
    return tuple(w for w in words if w not in _GENERIC)


@cache
def _phrase_re(phrase: str) -> re.Pattern[str]:
    parts = [re.escape(p) for p in re.split(r"[\s\-]+", phrase.strip())]
    return re.compile(r"(?<![\w])" + r"[\s\-]+".join(parts) + r"s?(?![\w])", re.IGNORECASE)


def _has_phrase(text: str, phrase: str) -> bool:
    return bool(_phrase_re(phrase).search(text))


# ---------------------------------------------------------------- assessing coverage


def _chunk_hit(chunk: Chunk, filename: str) -> SearchHit:
    return SearchHit(
        chunk_id=chunk.id, document_id=chunk.document_id, document=filename,
        location=chunk.location, text=chunk.text, score=0.0, via=["checklist"],
    )


def _filename_words(filename: str) -> str:
    stem = filename.rsplit(".", 1)[0]
    return re.sub(r"[_\-.]+", " ", stem)


def _covering(item: ChecklistItem, room: Sequence[tuple[Document, list[SearchHit]]]
              ) -> list[SearchHit]:
    """The first passage of each document that shows the item, if any."""
    found: list[SearchHit] = []
    for document, hits in room:
        name = _filename_words(document.filename)
        for hit in hits:
            text = f"{name}\n{hit.text}"
            if item.strict and item.evidence:
                present = sum(1 for w in item.evidence if _has_phrase(text, w))
                ok = present >= min(2, len(item.evidence))
            else:
                ok = any(_has_phrase(text, p) for p in item.evidence)
            if ok:
                found.append(hit)
                break
    return found


def _latest_irl(documents: Sequence[Document]) -> Document | None:
    irls = [d for d in documents if d.is_irl]
    if not irls:
        return None
    return max(irls, key=lambda d: (d.version_rank, d.doc_date or d.ingested_at.date(),
                                    d.filename))


async def assess_coverage(graph: KnowledgeGraph, deal_id: str, evidence: Evidence) -> Coverage:
    """Coverage of the deal's IRL (or the default checklist) by the documents of the room."""
    if not evidence.documents:
        evidence.documents = {d.id: d for d in await graph.list_documents(deal_id)}
    documents = sorted(evidence.documents.values(), key=lambda d: d.filename)
    irl = _latest_irl(documents)
    room: list[tuple[Document, list[SearchHit]]] = []
    irl_hits: list[SearchHit] = []
    for document in documents:
        hits = [_chunk_hit(c, document.filename)
                for c in await graph.list_chunks(deal_id, document.id)]
        if document.is_irl:
            if irl is not None and document.id == irl.id:
                irl_hits = hits
            continue
        room.append((document, hits))
    checklist: Sequence[ChecklistItem] = irl_items(irl_hits) if irl_hits else ()
    origin: Literal["irl", "default"] = "irl" if checklist else "default"
    if not checklist:
        checklist = default_checklist()
    entries: list[ItemCoverage] = []
    used: list[SearchHit] = []
    for item in checklist:
        covering = _covering(item, room)
        used += covering
        entries.append(ItemCoverage(item, [evidence.hit_source(h) for h in covering]))
    evidence.add_hits(used)
    irl_sources: list[Source] = []
    if origin == "irl":
        row_hits = [h for h in irl_hits
                    if any(e.item.source and e.item.source.chunk_id == h.chunk_id
                           for e in entries)]
        evidence.add_hits(row_hits)
        irl_sources = [evidence.hit_source(h) for h in row_hits]
    evidence.note_search(
        f"the {'IRL' if origin == 'irl' else 'default due-diligence checklist'} against "
        f"{len(room)} documents"
    )
    coverage = Coverage(
        origin=origin,
        items=entries,
        irl_document=irl.filename if irl is not None and origin == "irl" else None,
        irl_sources=irl_sources,
    )
    evidence.coverage = coverage
    return coverage
