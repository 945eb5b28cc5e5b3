"""A document as the grid reads it: its clauses in order, each with its place (page, clause
number, the heading it stands under), rebuilt from the stored passages of its ingestion.

Chunks overlap a little and repeat their context line; here each parser section is put back
together once, then cut where a clause begins: a numbered paragraph (`12.2`, `(3)` under
`§ 12`), a heading line, or a Word paragraph. Where a chunk carries the heading path ingestion
read (`heading_path`), that is the heading; else the heading line seen last on the page.
A quote is then found in the document by its words (spacing and quote marks aside), which is how
the grid checks that every quote stands in its document verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from manda.ingest.chunking import shown_text
from manda.ingest.extract.excerpts import sentence_spans
from manda.models import Chunk, Location, LocationKind

__all__ = ["DocumentText", "Passage", "normalised", "read_document"]

PREAMBLE = "start of document"
_CLAUSE = re.compile(r"^(?P<n>\d{1,3}(?:\.\d{1,3})+)\.?\s+\S")
_SUBCLAUSE = re.compile(r"^\((?P<n>\d{1,2}|[a-z]|[ivx]{1,4})\)\s+\S")
_NUMBERED = re.compile(r"^(?P<n>§\s*\d{1,3}[a-z]?|\d{1,3}\.?|[IVXL]{1,5}\.|"
                       r"[A-Z][^\W\d_]{2,12}\s+\d{1,3}[a-z]?)(?=\s|[–\-:.])")
_FOOTER = re.compile(r"\b(?:page|seite|p\.)\s*\d+\s*(?:of|von|/|sur)\s*\d+\b", re.IGNORECASE)
_HEADING_WORDS = 10
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "„": '"', "«": '"', "»": '"',
                         "\u00a0": " "})


def normalised(text: str) -> str:
    """Words as a reader compares them: one space between words, straight quote marks."""
    return " ".join(text.translate(_QUOTES).split())


@dataclass(frozen=True)
class Passage:
    """One clause or paragraph: its text, where it stands, and its sentences."""

    index: int
    text: str
    location: Location
    heading: str = ""
    heading_path: tuple[str, ...] = ()
    clause: str | None = None
    preamble: bool = False
    sentences: tuple[tuple[int, int], ...] = field(default=(), repr=False)

    def sentence_texts(self) -> list[str]:
        return [self.text[s:e] for s, e in self.sentences] or [self.text]


@dataclass
class DocumentText:
    """Every passage of one document, and where a quote stands in it."""

    passages: list[Passage]
    _flat: str = field(default="", repr=False)
    _starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        parts, starts, at = [], [], 0
        for passage in self.passages:
            text = normalised(passage.text)
            starts.append(at)
            parts.append(text)
            at += len(text) + 1
        self._flat = " ".join(parts)
        self._starts = starts

    @property
    def text(self) -> str:
        return self._flat

    def __bool__(self) -> bool:
        return bool(self._flat.strip())

    def find(self, quote: str) -> Passage | None:
        """The passage where `quote` stands (its words, in order, spacing and quote marks
        aside; letter case too when nothing matches exactly); None when it is not there."""
        wanted = normalised(quote).strip(" .;,")
        if not wanted:
            return None
        at = self._flat.find(wanted)
        if at < 0:
            at = self._flat.lower().find(wanted.lower())
        if at < 0:
            return None
        index = max(i for i, start in enumerate(self._starts) if start <= at) if self._starts \
            else 0
        return self.passages[index]

    def contains(self, quote: str) -> bool:
        return self.find(quote) is not None


def read_document(chunks: Sequence[Chunk]) -> DocumentText:
    """The document's passages from its stored chunks (in their order)."""
    passages: list[Passage] = []
    for section in _sections(chunks):
        passages += _passages(section, start=len(passages), first=not passages)
    return DocumentText(passages)


@dataclass
class _Section:
    location: Location
    text: str
    heading_path: tuple[str, ...]


def _sections(chunks: Sequence[Chunk]) -> list[_Section]:
    """Each parser section once: its chunks' bodies joined, the overlap between them dropped."""
    sections: list[_Section] = []
    last_key: tuple[int, str] | None = None
    for chunk in sorted(chunks, key=lambda c: c.ordinal):
        body = shown_text(chunk)
        key = (chunk.section, chunk.location.label)
        path = tuple(getattr(chunk, "heading_path", ()) or ())
        if sections and key == last_key:
            sections[-1].text = _joined(sections[-1].text, body)
        else:
            sections.append(_Section(chunk.location, body, path))
        last_key = key
    return sections


def _joined(before: str, after: str) -> str:
    """`after` appended to `before` without the part of it that repeats `before`'s end."""
    longest = min(len(before), len(after), 400)
    for size in range(longest, 0, -1):
        if before.endswith(after[:size]) and (size > 20 or size == len(after)):
            return before + after[size:]
    return f"{before}\n{after}"


def _heading_line(line: str, following: str | None) -> bool:
    """A line that heads a part of the document: short, no sentence end, and numbered or in
    capitals ("12. Termination", "§ 12 Laufzeit und Kündigung", "Article 8 – Résiliation")."""
    words = line.split()
    if not words or len(words) > _HEADING_WORDS or line.rstrip()[-1] in ".;,:" \
            or _CLAUSE.match(line) or _SUBCLAUSE.match(line) or _FOOTER.search(line):
        return False
    if following is not None and following[:1].islower():
        return False  # a wrapped line of a sentence
    letters = [c for c in line if c.isalpha()]
    return bool(_NUMBERED.match(line)) or (bool(letters) and all(c.isupper() for c in letters))


def _number_of(heading: str) -> str | None:
    found = _NUMBERED.match(heading)
    return found.group("n").rstrip(".").strip() if found else None


def _passages(section: _Section, *, start: int, first: bool) -> list[Passage]:
    word_section = section.location.kind is LocationKind.SECTION
    preamble_section = word_section and section.location.label == PREAMBLE
    lines = [ln.strip() for ln in section.text.split("\n")]
    heading = "" if not word_section or preamble_section else section.location.label
    path = section.heading_path
    in_preamble = first or preamble_section
    pieces: list[tuple[str, str, str | None, bool]] = []  # (text, heading, clause, preamble)
    current: list[str] = []
    clause: str | None = None

    def flush() -> None:
        nonlocal current
        text = " ".join(current).strip()
        if text:
            pieces.append((text, heading, clause, in_preamble))
        current = []

    for n, line in enumerate(lines):
        following = next((ln for ln in lines[n + 1:] if ln), None)
        if not line:
            if not word_section:
                flush()
            continue
        if _FOOTER.search(line) and len(line.split()) <= 14:
            continue
        if word_section and n == 0 and line == section.location.label:
            continue  # a Word section's own heading: its label already
        if not word_section and _heading_line(line, following):
            flush()
            if pieces or current or heading:
                in_preamble = False
            heading, clause = line, _number_of(line) if _NUMBERED.match(line) else None
            if not pieces and start == 0 and not _NUMBERED.match(line):
                in_preamble = True  # the title over the parties
            continue
        if (found := _CLAUSE.match(line)) is not None:
            flush()
            clause = found.group("n")
            in_preamble = False
        elif (sub := _SUBCLAUSE.match(line)) is not None:
            flush()
            number = _number_of(heading) if heading else None
            clause = f"{number} ({sub.group('n')})" if number else f"({sub.group('n')})"
            in_preamble = False
        elif word_section:
            flush()
        current.append(line)
    flush()
    out: list[Passage] = []
    for text, under, number, pre in pieces:
        out.append(Passage(
            index=start + len(out), text=text, location=section.location,
            heading=under if not pre else "", clause=number,
            heading_path=path or ((under,) if under and not pre else ()), preamble=pre,
            sentences=tuple(sentence_spans(text)),
        ))
    return out
