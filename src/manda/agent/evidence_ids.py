"""Evidence by id: every place the model is shown gets a short id (`S3`) with its metadata.

The model cites `[S3]`; `expand_ids` turns the ids back into the house citation format
"(source: file, location)" before the gate and the person see the answer, so an id can never
point anywhere the retrieval did not return, and a location is never re-typed by the model.
Tool results are rendered in the house format first (as the offline composer writes it) and
`to_ids` swaps each marker for its id, with a legend of the ids a result shows for the first
time: file, location, date, status (draft / final / audited), superseded_by.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import date

from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import cite, find_markers
from manda.finance.fiscal import FiscalYearEnd, year_reported
from manda.models import Document, DocumentRole

# `[S3]`, `[S3, S7]`, `[S3; S7]`, `[S3][S7]` (the last read as two markers next to each other)
ID_MARK = re.compile(r"\s?\[(?P<ids>S\d+(?:\s*[,;]\s*S\d+)*)\]")
_ID = re.compile(r"S\d+")


def document_status(document: Document | None) -> str:
    """How far a document may be relied on, in the deal team's words."""
    if document is None:
        return "unknown"
    if document.draft:
        return "draft"
    if document.role is DocumentRole.AUDITED_STATEMENTS:
        return "final, audited"
    if document.role is DocumentRole.BUDGET_FORECAST:
        return "forecast"
    if document.authoritative or document.version_rank > 0:
        return "final"
    return "not stated"


def document_period(document: Document | None) -> str | None:
    """The fiscal year an annual report reports ("year ended Sep 2023"), read from its date
    and its company's year end; None for any other document, or when they cannot say."""
    if (document is None or document.role is not DocumentRole.AUDITED_STATEMENTS
            or document.doc_date is None or not document.fiscal_year_end):
        return None
    try:
        year_end = FiscalYearEnd.from_iso(document.fiscal_year_end)
    except ValueError:
        return None
    return year_reported(document.doc_date, year_end)


def document_owner(document_id: str, evidence: Evidence) -> str | None:
    """The company a document is of, where the room holds several companies' documents (in a
    room of one company every document is its own, and saying so is noise)."""
    room = evidence.companies
    return room.of(document_id) if room.several else None


ROOM_LISTED = 40  # documents the room's list names before "… and N more"


def room_documents(evidence: Evidence) -> str:
    """The room's documents by company, each annual report with the year it reports, where the
    model must pick among them: a room of several companies, or of several annual reports of
    one (`<room_documents>`, quoted data); "" otherwise."""
    room = evidence.companies
    documents = list(evidence.documents.values())
    periods = {d.id: document_period(d) for d in documents}
    if not room.several and sum(1 for p in periods.values() if p) < 2:
        return ""
    documents.sort(key=lambda d: (room.of(d.id) or "~", d.doc_date or date.min, d.filename))
    by_company: dict[str, list[str]] = {}
    for doc in documents[:ROOM_LISTED]:
        period = f" ({periods[doc.id]})" if periods[doc.id] else ""
        by_company.setdefault(room.of(doc.id) or "no company stated", []).append(
            _safe(" ".join(doc.filename.split())) + period)
    lines = [f"{company}: " + "; ".join(files) for company, files in by_company.items()]
    if len(documents) > ROOM_LISTED:
        lines.append(f"… and {len(documents) - ROOM_LISTED} more (list_documents)")
    return "<room_documents>\n" + "\n".join(lines) + "\n</room_documents>"


def metadata(source: Source, evidence: Evidence) -> dict[str, str]:
    """The attributes an id carries: file, location, the company (in a room of several) and
    the fiscal year an annual report reports, date, status, superseded_by."""
    doc = evidence.documents.get(source.document_id)
    out = {"file": source.document, "loc": source.location}
    if company := document_owner(source.document_id, evidence):
        out["company"] = company
    if period := document_period(doc):
        out["period"] = period
    if doc is not None and doc.doc_date is not None:
        out["dated"] = doc.doc_date.isoformat()
    out["status"] = document_status(doc)
    if doc is not None and doc.role is not DocumentRole.OTHER:
        out["role"] = doc.role.value
    newer = evidence.superseded_by.get(source.document_id)
    if newer:
        out["superseded_by"] = ", ".join(newer)
    return out


def place_attributes(source: Source) -> str:
    """`file="a.pdf" loc="p.4"`: where a passage stands (safe in a tag)."""
    return f'file="{_safe(source.document)}" loc="{_safe(source.location)}"'


def document_attributes(source: Source, evidence: Evidence) -> str:
    """`file="a.pdf" company=… period=… dated="2024-09-30" status="final" …`: what a
    passage's document is, said once for all its passages (safe in a tag)."""
    return " ".join(f'{k}="{_safe(v)}"' for k, v in metadata(source, evidence).items()
                    if k != "loc")


def legend_lines(idents: Iterable[str], evidence: Evidence) -> list[str]:
    """One line per document, its metadata once and then each place with the ids it gives:
    `a.pdf (dated 2024-03-20; status final): [S3, S4] p.4; [S7] p.9`."""
    documents: dict[tuple[str, str], dict[str, list[str]]] = {}
    for ident in idents:
        meta = metadata(evidence.ids.by_id[ident], evidence)
        about = "; ".join(f"{k} {v}" for k, v in meta.items() if k not in ("file", "loc"))
        places = documents.setdefault((meta["file"], about), {})
        places.setdefault(meta["loc"], []).append(ident)
    return [f"{file} ({about}): " + "; ".join(f"[{', '.join(ids)}] {loc}"
                                              for loc, ids in places.items())
            for (file, about), places in documents.items()]


def valid_ids(evidence: Evidence, limit: int = 40) -> list[str]:
    """The ids the model was shown, with their places: what a rewrite may cite."""
    shown = [i for i in evidence.ids.by_id if i in evidence.ids.shown]
    lines = [f"[{i}] {evidence.ids.by_id[i].document}, {evidence.ids.by_id[i].location}"
             for i in shown[:limit]]
    if len(shown) > limit:
        lines.append(f"… and {len(shown) - limit} more given in the tool results above")
    return lines


def _safe(value: str) -> str:
    return re.sub(r'[<>"]', "'", value)


def id_of(source: Source, evidence: Evidence) -> str:
    return evidence.ids.mint(source)


def to_ids(text: str, evidence: Evidence) -> str:
    """`text` with each house marker "(source: file, loc)" written as the ids of its places,
    and a legend of the ids shown here for the first time."""
    out: list[str] = []
    cursor = 0
    fresh: list[str] = []
    for marker in find_markers(text, evidence):
        idents = []
        for ref in marker.references:
            if ref.source is None:
                continue
            ident = id_of(ref.source, evidence)
            idents.append(ident)
            if ident not in evidence.ids.shown:
                evidence.ids.shown.add(ident)
                fresh.append(ident)
        out.append(text[cursor:marker.start])
        out.append(" [" + ", ".join(dict.fromkeys(idents)) + "]" if idents else "")
        cursor = marker.end
    out.append(text[cursor:])
    return "".join(out) + legend(fresh, evidence)


def legend(idents: Iterable[str], evidence: Evidence) -> str:
    lines = legend_lines(idents, evidence)
    if not lines:
        return ""
    return "\n<evidence_ids>\n" + "\n".join(lines) + "\n</evidence_ids>"


@dataclass(frozen=True)
class UnknownId:
    ident: str
    claim: str  # the sentence it stood beside


def expand_ids(text: str, evidence: Evidence) -> tuple[str, list[UnknownId]]:
    """`[S3]` → "(source: file, loc)"; ids this question never showed are left out of the text
    and returned with the claim they stood beside (the gate sends that claim back)."""
    unknown: list[UnknownId] = []
    out: list[str] = []
    cursor = 0
    matches = list(ID_MARK.finditer(text))
    i = 0
    while i < len(matches):
        # `[S3][S7]`: adjacent brackets are one marker of several places
        group = [matches[i]]
        while i + 1 < len(matches) and matches[i + 1].start() == group[-1].end():
            i += 1
            group.append(matches[i])
        i += 1
        start, end = group[0].start(), group[-1].end()
        sources: list[Source] = []
        for m in group:
            for ident in _ID.findall(m["ids"]):
                source = evidence.ids.by_id.get(ident)
                if source is None:
                    unknown.append(UnknownId(ident, _claim(text, start)))
                elif source not in sources:
                    sources.append(source)
        out.append(text[cursor:start])
        marker = cite(sources)
        out.append(f" {marker}" if marker else "")
        cursor = end
    out.append(text[cursor:])
    return "".join(out), unknown


def _claim(text: str, at: int) -> str:
    """The sentence ending at `at` (what a citation stood beside)."""
    begin = max(text.rfind(stop, 0, at) for stop in (". ", "\n", "! ", "? "))
    sentence = text[begin + 1:at].strip(" .\n")
    return sentence if len(sentence) <= 160 else "…" + sentence[-159:]


TextSink = Callable[[str], Awaitable[None]]


class IdStream:
    """A text sink that expands ids as the answer streams: text after an unfinished `[` waits
    until its `]` (or anything that makes it no id) arrives."""

    HOLD = 40  # an id marker is never longer than this

    def __init__(self, sink: TextSink, evidence: Evidence) -> None:
        self._sink = sink
        self._evidence = evidence
        self._held = ""

    async def __call__(self, delta: str) -> None:
        text = self._held + delta
        cut = _open_marker(text)
        ready, self._held = text[:cut], text[cut:]
        if ready:
            expanded, _ = expand_ids(ready, self._evidence)
            await self._sink(expanded)

    async def flush(self) -> None:
        if self._held:
            held, self._held = self._held, ""
            await self._sink(expand_ids(held, self._evidence)[0])


def _open_marker(text: str) -> int:
    """Where a marker that may still be completing starts (the text's end when none)."""
    at = text.rfind("[")
    if at == -1 or "]" in text[at:] or len(text) - at > IdStream.HOLD:
        return len(text)
    if re.fullmatch(r"\[(?:S\d*(?:\s*[,;]\s*)?)*", text[at:]):
        # a space before it belongs to the marker (expand_ids takes it with the marker)
        return at - 1 if at and text[at - 1] == " " else at
    return len(text)
