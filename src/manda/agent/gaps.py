"""Gap identification: which checklist items the data room covers, by category.

The deal's IRL is the checklist when one was ingested (its rows, read from its chunks, whatever
its columns: Ref / Request / Status, Category / Item / Priority …); otherwise the default
checklist shipped in `checklist.yaml`. An item counts as covered only when a document of the room
(not the IRL itself) provides it — by its role (a cap table covers "cap table") or by what it
states — never by a mere mention ("tax returns will be uploaded"): an IRL row marked "Provided"
with nothing behind it is still a gap, and is reported as one; a row the IRL marks outstanding
("Open", "Offen", "En attente") is a gap whatever the room seems to hold. The words — column
names, statuses, evidence by deal topic, documents named by role — are the vocabulary's, in
every language it reads.
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
from manda.ingest.chunking import shown_text
from manda.kg.port import KnowledgeGraph
from manda.models import Document, DocumentRole, SearchHit
from manda.retrieval.hits import chunk_hit
from manda.text import name_words
from manda.vocabulary import Cues, Topic, cues, topic, vocabulary

_WORDS = vocabulary()
_FILLER = _WORDS.words("request_filler")  # words of a request that name nothing in particular
_OUTSTANDING = _WORDS.cues("request_outstanding")  # an IRL's status: still open
_PROVIDED = _WORDS.cues("request_provided")  # an IRL's status: answered


@dataclass(frozen=True)
class ChecklistItem:
    """One thing a due-diligence review expects to see."""

    category: str
    item: str
    evidence: tuple[str, ...]  # cue phrases (manda.vocabulary.cues)
    question: str
    match: tuple[str, ...] = ()
    strict: bool = False  # evidence is loose words: two of them must appear together
    ref: str | None = None  # IRL reference, e.g. "T-01"
    priority: str | None = None
    status: str | None = None  # as the IRL states it ("Provided", "Open")
    source: Source | None = None  # the IRL row it came from
    provided_by: tuple[DocumentRole, ...] = ()  # a document of this role is the item itself
    found_in: tuple[DocumentRole, ...] = ()  # documents of these roles state it in their content
    topic: str | None = None  # the deal topic it is about (topics.yaml)

    @property
    def title(self) -> str:
        return f"{self.ref} {self.item}" if self.ref else self.item


@dataclass
class ItemCoverage:
    item: ChecklistItem
    covered_by: list[Source] = field(default_factory=list)

    @property
    def outstanding(self) -> bool:
        """The IRL itself says the request is still open ("Outstanding", "Offen", "En attente"):
        a gap, whatever documents of the room seem to answer it (`covered_by`)."""
        return bool(self.item.status) and _OUTSTANDING.found(self.item.status or "")

    @property
    def covered(self) -> bool:
        return bool(self.covered_by) and not self.outstanding

    @property
    def status_mismatch(self) -> bool:
        """The IRL calls it provided, but nothing in the room provides it."""
        status = self.item.status or ""
        return not self.covered_by and not self.outstanding and _PROVIDED.found(status)


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


_CUE_SYNTAX = set("*|[]~#!")


def _plural(phrase: str) -> str:
    """A checklist phrase as a cue that also reads its plural ("tax return" → "tax returns")."""
    last = phrase.split()[-1] if phrase.split() else ""
    if _CUE_SYNTAX & set(phrase) or phrase.startswith("re:") or not last.isalpha():
        return phrase
    return f"{phrase.rsplit(' ', 1)[0]} {last}|{last}s" if " " in phrase else f"{last}|{last}s"


def _topic_words(t: Topic) -> tuple[str, ...]:
    """What shows a topic in a document, in every language: what states an item of it, else its
    own terms."""
    return (t.stated or t.terms).phrases


@cache
def default_checklist() -> tuple[ChecklistItem, ...]:
    """The shipped checklist: Financial, Tax, Legal, Commercial, HR, IP, IT/Cyber."""
    text = resources.files("manda.agent").joinpath("checklist.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    items: list[ChecklistItem] = []
    for category in data["categories"]:
        for entry in category["items"]:
            about = topic(entry["topic"]) if entry.get("topic") else None
            own = [_plural(p) for p in entry["evidence"]]
            items.append(
                ChecklistItem(
                    category=category["name"],
                    item=entry["item"],
                    evidence=tuple(dict.fromkeys(
                        [*own, *(_topic_words(about) if about else ())])),
                    question=entry["question"],
                    match=tuple(_plural(p) for p in entry.get("match", ())),
                    provided_by=tuple(DocumentRole(r) for r in entry.get("provided_by", ())),
                    found_in=tuple(DocumentRole(r) for r in entry.get("found_in", ())),
                    topic=about.key if about else None,
                )
            )
    return tuple(items)


# A request list's columns, whatever their names ("Request", "Anforderung", "Demande" …).
_CATEGORY_KEYS = _WORDS.cues("irl_category_column")
# Ranked: a "Request" column names the request even where an "Item" or "Document" column exists.
_REQUEST_KEYS = (
    _WORDS.cues("irl_request_column"),
    _WORDS.cues("irl_description_column"),
    _WORDS.cues("irl_item_column"),
)
_REF_KEYS = _WORDS.cues("irl_ref_column")  # the whole column name
_STATUS_KEYS = _WORDS.cues("irl_status_column")
_PRIORITY_KEYS = _WORDS.cues("irl_priority_column")
_REF_VALUE = re.compile(r"^[A-Z]{0,4}[\s\-.]?\d+(?:[.\-]\d+)*[a-z]?$", re.IGNORECASE)


def _header_names(lines: Sequence[str]) -> list[str] | None:
    """The column names of a table chunk: its one line of bare labels (no `key: value` part)."""
    keyed = {k for line in lines for k in _row_fields(line, None)[1]}
    for line in lines:
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) >= 2 and not any(": " in p for p in parts) and any(p in keyed
                                                                           for p in parts):
            return parts
    return None


def _row_fields(line: str, first_column: str | None) -> tuple[str | None, dict[str, str]]:
    """`F-01 | Category: Financial | Request: …` → ("F-01", {"Category": "Financial", …}).

    The first cell of a row is written without its column name; `first_column` names it.
    """
    parts = [p.strip() for p in line.split(" | ")]
    first = parts[0] if parts and ": " not in parts[0] else None
    fields: dict[str, str] = {}
    if first is not None and first_column:
        fields[first_column] = first
    for part in parts[1:] if first is not None else parts:
        key, sep, value = part.partition(": ")
        if sep and key and len(key) <= 40:
            fields[key] = value.strip()
    return first, fields


def _pick(fields: dict[str, str], column: Cues) -> str | None:
    return next((v for k, v in fields.items() if column.search(k) and v), None)


def _request(fields: dict[str, str]) -> str | None:
    for column in _REQUEST_KEYS:
        found = next((v for k, v in fields.items()
                      if column.search(k) and not _REF_KEYS.fullmatch(k) and v
                      and not _REF_VALUE.match(v)), None)
        if found:
            return found
    return None


def _ref(first: str | None, first_column: str | None, fields: dict[str, str]) -> str | None:
    named = next((v for k, v in fields.items() if _REF_KEYS.fullmatch(k) and v), None)
    if named:
        return named
    if first is not None and first_column is None and _REF_VALUE.match(first):
        return first  # an unnamed first column of reference numbers ("F-01", "1.2")
    return None


def irl_items(hits: Sequence[SearchHit]) -> list[ChecklistItem]:
    """The IRL's rows as checklist items, each borrowing the evidence and roles of the items it
    names; any column layout (Ref / Request / Status, Category / Item / Priority …) is read."""
    defaults = default_checklist()
    items: list[ChecklistItem] = []
    seen: set[str] = set()
    for hit in hits:
        source = Source(hit.document, hit.document_id, hit.location.label, hit.location.page,
                        hit.text, hit.chunk_id, heading_path=hit.heading_path)
        lines = hit.text.splitlines()
        header = _header_names(lines)
        keyed = {k for line in lines for k in _row_fields(line, None)[1]}
        first_column = header[0] if header and header[0] not in keyed else None
        for line in lines:
            if header is not None and (" | " not in line
                                       or [p.strip() for p in line.split(" | ")] == header):
                continue  # the chunk's context line, notes above the table, the header itself
            first, fields = _row_fields(line, first_column)
            request = _request(fields)
            if not request or request.lower() in seen:
                continue
            seen.add(request.lower())
            lowered = request.lower()
            borrowed = [d for d in defaults if any(_has_phrase(lowered, m) for m in d.match)]
            if not borrowed:  # named in another language: by the topic it is about
                borrowed = [d for d in defaults if d.topic and topic(d.topic).terms.found(request)]
            evidence = tuple(dict.fromkeys(p for d in borrowed for p in d.evidence))
            items.append(
                ChecklistItem(
                    category=_pick(fields, _CATEGORY_KEYS) or "General",
                    item=request,
                    evidence=evidence or _distinctive_words(request),
                    strict=not evidence,
                    question=f"Please provide: {request}.",
                    ref=_ref(first, first_column, fields),
                    priority=_pick(fields, _PRIORITY_KEYS),
                    status=_pick(fields, _STATUS_KEYS),
                    source=source,
                    provided_by=tuple(dict.fromkeys(
                        [*(r for d in borrowed for r in d.provided_by), *_roles_named(lowered)])),
                    found_in=tuple(dict.fromkeys(r for d in borrowed for r in d.found_in)),
                )
            )
    return items


def _roles_named(request: str) -> list[DocumentRole]:
    """A request that names a kind of document ("Jahresabschlüsse", "table de capitalisation")
    is provided by a document of that role."""
    return [k.role for k in _WORDS.role_specs.values() if k.requested.found(request)]


_LETTERS = re.compile(r"[^\W\d_][\w&\-]{3,}")


def _distinctive_words(request: str) -> tuple[str, ...]:
    words = _LETTERS.findall(request.lower())
    return tuple(w for w in words if w not in _FILLER)


def _has_phrase(text: str, phrase: str) -> bool:
    return cues([phrase]).found(text)


# ---------------------------------------------------------------- assessing coverage


def _filename_words(filename: str) -> str:
    stem = filename.rsplit(".", 1)[0]
    return name_words(stem)


# A sentence that asks for a document or promises it does not provide it.
_NOT_PROVIDED = _WORDS.cues("not_provided")
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


def _shows(item: ChecklistItem, text: str) -> bool:
    """One of the item's evidence phrases, stated (not asked for or promised) in `text`."""
    statements = " \n".join(m.group(0) for m in _SENTENCE.finditer(text)
                             if not _NOT_PROVIDED.search(m.group(0)))
    if item.strict and item.evidence:
        present = sum(1 for w in item.evidence if _has_phrase(statements, w))
        return present >= min(2, len(item.evidence))
    return cues(item.evidence).found(statements)


def _about(document: Document, hit: SearchHit) -> str:
    """What a passage is about: the file name, its heading, its first lines (a title, a table's
    caption and header) — where a document says what it is, not where it mentions things."""
    body = hit.text.split("\n")[1:] if hit.text.startswith("[") else hit.text.split("\n")
    return "\n".join([_filename_words(document.filename), hit.location.label, *body[:2]])


def _covering(item: ChecklistItem, room: Sequence[tuple[Document, list[SearchHit]]]
              ) -> list[SearchHit]:
    """The first passage of each document that provides the item, if any, best first.

    A document of a role that is the item provides it outright; one of a role that states such
    things provides it when a passage states it; any other only when a passage is about it.
    Documents of the item's own role come first, then final before draft, the newest and the
    latest version first: the line names what a reviewer should open.
    """
    found: list[tuple[Document, SearchHit]] = []
    for document, hits in room:
        if not hits:
            continue
        if document.role in item.provided_by:
            found.append((document, next((h for h in hits if _shows(item, h.text)), hits[0])))
            continue
        stated = document.role in item.found_in
        for hit in hits:
            if _shows(item, hit.text if stated else _about(document, hit)):
                found.append((document, hit))
                break

    def best_first(pair: tuple[Document, SearchHit]) -> tuple[bool, bool, bool, int, int]:
        document = pair[0]
        dated = document.doc_date.toordinal() if document.doc_date else 0
        return (document.role not in item.provided_by, not document.authoritative,
                document.draft, -dated, -document.version_rank)

    return [hit for _, hit in sorted(found, key=best_first)]


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
    shown: dict[str, str] = {}
    for document in documents:
        chunks = await graph.list_chunks(deal_id, document.id)
        shown.update((c.id, shown_text(c)) for c in chunks)
        # the indexed text, context line and all: it names the file the checklist matches
        hits = [chunk_hit(c, document.filename, via=["checklist"], text=c.text) for c in chunks]
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
    # matched on the whole chunk (its context line names the document's title and role);
    # what an answer quotes is what a person sees of it
    evidence.add_hits([h.model_copy(update={"text": shown.get(h.chunk_id, h.text)})
                       for h in used])
    irl_sources: list[Source] = []
    if origin == "irl":
        row_hits = [h for h in irl_hits
                    if any(e.item.source and e.item.source.chunk_id == h.chunk_id
                           for e in entries)]
        row_hits = [h.model_copy(update={"text": shown.get(h.chunk_id, h.text)})
                    for h in row_hits]
        evidence.add_hits(row_hits)
        irl_sources = [evidence.hit_source(h) for h in row_hits]
    evidence.note_search("searched_irl" if origin == "irl" else "searched_checklist",
                         count=len(room))
    coverage = Coverage(
        origin=origin,
        items=entries,
        irl_document=irl.filename if irl is not None and origin == "irl" else None,
        irl_sources=irl_sources,
    )
    evidence.coverage = coverage
    return coverage
