"""Citation markers: written as `(source: f, loc)` / `(sources: a p.5, b B15)`, and read back.

The composer writes markers with `cite()`; the gate reads every marker with `find_markers()` and
keeps only references to places the retrieval returned; `ground()` turns the surviving markers
into the answer's `Citation` list, in order of first use.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from manda.agent.evidence import Evidence, Source, normalise_file, normalise_location
from manda.answers import Citation
from manda.finance.amounts import find_amounts
from manda.vocabulary import vocabulary


def _marker_words() -> list[str]:
    """The word a marker opens with, in every language ("source", "Quellen", "fuente"),
    longest first: an answer's markers are written in its language and read in any."""
    languages = vocabulary().languages.values()
    words = {w.lower() for lang in languages
             for key in ("source_one", "source_many") if (w := lang.answers.get(key))}
    return sorted(words, key=len, reverse=True)


_MARKER = re.compile(r"\s?\((?P<kw>" + "|".join(map(re.escape, _marker_words()))
                     + r")\s*:\s*(?P<body>[^()]*(?:\([^()]*\)[^()]*)*)\)", re.IGNORECASE)
_FILE_LIKE = re.compile(
    r"[\w][\w\-.()&+ ]*?\.(?:pdf|xlsx|xlsm|xls|docx|doc|pptx|ppt|csv|txt|md|eml|msg)\b",
    re.IGNORECASE,
)
_GAP_BEFORE_STOP = re.compile(r"[ \t]+(?=[.,;:])")
_CELL = re.compile(r"^(?P<sheet>.+)!(?P<col>[a-z]+)(?P<row>\d+)$")
_RANGE = re.compile(r"^(?P<sheet>.+)!(?P<c1>[a-z]+)(?P<r1>\d+):(?P<c2>[a-z]+)(?P<r2>\d+)$")


@dataclass(frozen=True)
class Reference:
    """One file-and-place named inside a marker."""

    document: str
    location: str
    source: Source | None  # the retrieved place it points to, None when hallucinated


@dataclass(frozen=True)
class Marker:
    start: int
    end: int
    references: tuple[Reference, ...]


def cite(sources: Sequence[Source]) -> str:
    """The marker for places: `(source: a.pdf, p.5)` or `(sources: a.pdf p.5, b.xlsx B15)`."""
    unique: list[Source] = []
    for source in sources:
        if all(source.key != u.key for u in unique):
            unique.append(source)
    if not unique:
        return ""
    if len(unique) == 1:
        return f"(source: {unique[0].document}, {unique[0].location})"
    return "(sources: " + ", ".join(f"{s.document} {s.location}" for s in unique) + ")"


def in_language(text: str, language: str) -> str:
    """`text` with each marker opening in `language`'s word ("(source: a.pdf, p.5)" reads
    "(Quelle: a.pdf, p.5)" in German): the answer's last step, so every check before it reads
    the house form; `find_markers` and `footnoted` read every language's."""
    if language == "en":
        return text
    words = vocabulary()

    def said(m: re.Match[str]) -> str:
        many = m.group("kw").lower() == words.answer("source_many", "en").lower()
        word = words.answer("source_many" if many else "source_one", language)
        return m.group(0).replace(m.group("kw"), word, 1)

    return _MARKER.sub(said, text)


def _col_number(col: str) -> int:
    number = 0
    for ch in col:
        number = number * 26 + (ord(ch) - 96)
    return number


def _cell_in_range(cell: str, area: str) -> bool:
    c, r = _CELL.match(cell), _RANGE.match(area)
    if c is None or r is None or c["sheet"] != r["sheet"]:
        return False
    col, row = _col_number(c["col"]), int(c["row"])
    return (_col_number(r["c1"]) <= col <= _col_number(r["c2"])
            and int(r["r1"]) <= row <= int(r["r2"]))


@lru_cache(maxsize=4096)
def _values(text: str) -> frozenset[float]:
    return frozenset(round(a.value, 2) for a in find_amounts(text))


def _best(sources: list[Source], context: str, evidence: Evidence) -> Source:
    """Of several statements at one place, the one whose numbers the cited sentence states
    (in its excerpt, or as its finding's value when a slide or table shares one excerpt)."""
    if len(sources) == 1 or not context:
        return sources[0]
    wanted = _values(context)

    def states(source: Source) -> int:
        finding = evidence.findings.get(source.finding_id or "")
        value = finding.value if finding is not None else None
        return int(value is not None and round(value, 2) in wanted)

    return max(sources, key=lambda s: len(wanted & _values(s.excerpt)) * 2 + states(s) * 2
               - (s.finding_id is None))


def resolve_reference(document: str, location: str, evidence: Evidence,
                      context: str = "") -> Source | None:
    """The retrieved place a written reference names, if the retrieval returned it.

    `context` is the text the reference follows; it picks the right excerpt when several
    findings sit at the same place (a page with many figures)."""
    index = evidence.source_index()
    key = (normalise_file(document), normalise_location(location))
    if key in index:
        return _best(index[key], context, evidence)
    wanted = key[1]
    for (doc, loc), sources in index.items():
        if doc == key[0] and (_cell_in_range(wanted, loc) or _cell_in_range(loc, wanted)):
            return sources[0]
    return None


def _split_body(body: str, known: Sequence[str]) -> list[tuple[str, str]]:
    """(file, location) pairs of a marker body, anchored on the filenames the retrieval knows."""
    lowered = body.lower()
    anchors: list[tuple[int, int, str]] = []
    for name in known:  # longest first
        start = 0
        while (at := lowered.find(name.lower(), start)) != -1:
            end = at + len(name)
            if all(end <= a or at >= b for a, b, _ in anchors):
                anchors.append((at, end, body[at:end]))
            start = end
    for m in _FILE_LIKE.finditer(body):
        name = m.group(0).strip()
        at = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
        if all(m.end() <= a or at >= b for a, b, _ in anchors):
            anchors.append((at, m.end(), name))
    anchors.sort()
    pairs: list[tuple[str, str]] = []
    for i, (_, end, name) in enumerate(anchors):
        stop = anchors[i + 1][0] if i + 1 < len(anchors) else len(body)
        location = body[end:stop].strip(" ,;:\u2013\u2014-")
        pairs.append((name, location))
    return pairs


def find_markers(text: str, evidence: Evidence) -> list[Marker]:
    """Every citation marker in `text`, each reference resolved against the evidence."""
    known = evidence.known_files()
    markers: list[Marker] = []
    previous_end = 0
    for m in _MARKER.finditer(text):
        start = max(previous_end, text.rfind("\n", 0, m.start()) + 1)
        context = text[start:m.start()]
        refs = tuple(
            Reference(doc, loc, resolve_reference(doc, loc, evidence, context))
            for doc, loc in _split_body(m.group("body"), known)
        )
        markers.append(Marker(m.start(), m.end(), refs))
        previous_end = m.end()
    return markers


def drop_unretrieved(text: str, evidence: Evidence) -> tuple[str, list[Reference]]:
    """Rewrite `text` without references the retrieval never returned; return those dropped."""
    dropped: list[Reference] = []
    out: list[str] = []
    cursor = 0
    for marker in find_markers(text, evidence):
        good = [r.source for r in marker.references if r.source is not None]
        dropped += [r for r in marker.references if r.source is None]
        if len(good) == len(marker.references) and good:
            continue
        out.append(text[cursor:marker.start])
        replacement = cite(good)
        out.append(f" {replacement}" if replacement else "")
        cursor = marker.end
        if not replacement and (gap := _GAP_BEFORE_STOP.match(text, cursor)):
            cursor = gap.end()  # "claim (source: gone) ." reads "claim." (only there)
    out.append(text[cursor:])
    return "".join(out), dropped


def cited_sources(text: str, evidence: Evidence) -> list[Source]:
    """The retrieved places the markers of `text` point to, in order of first use."""
    seen: list[Source] = []
    for marker in find_markers(text, evidence):
        for ref in marker.references:
            if ref.source is not None and all(ref.source.key != s.key for s in seen):
                seen.append(ref.source)
    return seen


def strip_markers(text: str) -> str:
    return _MARKER.sub("", text)


def ground(text: str, evidence: Evidence) -> list[Citation]:
    """The answer's citations: every surviving marker's place, with the excerpt found there."""
    return [source.citation() for source in cited_sources(text, evidence)]


def footnoted(text: str, known_files: Sequence[str] = ()) -> tuple[str, list[tuple[str, str]]]:
    """`text` with each marker replaced by footnote numbers (` [1]`, ` [2][3]`), and the (file,
    location) each number stands for, numbered in order of first use; a place cited twice keeps
    its first number. `known_files` anchor file names that do not look like file names."""
    known = sorted(set(known_files), key=len, reverse=True)
    notes: list[tuple[str, str]] = []
    numbers: dict[tuple[str, str], int] = {}
    out: list[str] = []
    cursor = 0
    for m in _MARKER.finditer(text):
        refs = _split_body(m.group("body"), known)
        if not refs:
            continue
        marks = []
        for document, location in refs:
            key = (normalise_file(document), normalise_location(location))
            if key not in numbers:
                notes.append((document, location))
                numbers[key] = len(notes)
            marks.append(f"[{numbers[key]}]")
        out.append(text[cursor:m.start()])
        out.append(" " + "".join(dict.fromkeys(marks)))
        cursor = m.end()
    out.append(text[cursor:])
    return "".join(out), notes
