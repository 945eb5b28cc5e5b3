"""Who signed a document: the parties its opening names, each with the term the document calls
it by ("Hallam Water Services Ltd … (the Buyer)", "Kessler Gusstechnik GmbH … (nachfolgend
Lieferant)"), and which of them is the target the deal is about."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from manda.grid.passages import DocumentText, Passage
from manda.ingest.extract.dedupe import canonical_entity
from manda.ingest.extract.names import find_orgs, is_person_name
from manda.vocabulary.cues import Cues, cues
from manda.vocabulary.grid import grid_vocabulary

__all__ = ["Party", "parties_of", "target_of"]

_PAREN = re.compile(r"\((?P<inner>[^()]{1,80})\)")
_QUOTED = r"\s*[«\"“„]\s*(?P<inner>[^»\"”“]{1,40}?)\s*[»\"”“]"
_NAME_WORDS = re.compile(r"[A-ZÄÖÜÉÈ][\w'’\-]+(?:\s+[A-ZÄÖÜÉÈ][\w'’\-]+){1,4}")


@dataclass(frozen=True)
class Party:
    """A party as the document's opening names it."""

    name: str
    term: str  # the defined term it is called by ("Buyer", "Lieferant", "Cordova")
    passage: Passage
    start: int  # where its name begins in the passage's text
    end: int  # where its defined term's parenthesis closes

    @property
    def quote(self) -> str:
        return self.passage.text[self.start:self.end]

    @property
    def key(self) -> str:
        return canonical_entity(self.name, "organisation").replace(" ", "")


def _term(inner: str) -> str | None:
    """The defined term in a parenthesis, or None when it is no term (a number, an address):
    a capitalised name ("the Buyer", "Cordova") or, in quotes, any short word ("you")."""
    quoted = any(q in inner for q in "\"“”„«»")
    text = _term_lead().sub("", inner.strip()).strip(" „\"“”'«»")
    if not text or any(c.isdigit() for c in text) or len(text.split()) > 4:
        return None
    return text if text[0].isupper() or (quoted and len(text.split()) <= 2) else None


def _name_in(segment: str) -> tuple[str, int] | None:
    """The party's name in the words before its defined term: an organisation with its legal
    form, else a person's name; with where it starts."""
    orgs = find_orgs(segment)
    if orgs:
        name, start, end = orgs[0]
        if joined := _joining().match(name):  # "ET Fernhill Components Ltd", "AND …"
            name, start = name[joined.end():], start + joined.end()
        if segment[end:end + 1] == "." and segment[end + 1:end + 2] in (",", " ", ";", ")") \
                and not segment[end + 1:].strip().startswith(tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")):
            name += "."  # "Cordova Irrigation Inc.", "Pellworth Industrial B.V."
        return name, start
    trimmed = _role_after_name().sub("", segment)
    runs = list(_NAME_WORDS.finditer(trimmed))
    for found in reversed(runs):
        if is_person_name(found.group(0)):
            return found.group(0), found.start()
    # a name with no legal form a reader knows ("Oldcastle Water Authority", "PENNOCK PUMPS,
    # INC."): the last run of capitalised words that does not name a kind of document
    kinds = _document_words()
    for found in reversed(runs):
        if not kinds.found(found.group(0)):
            joined = _joining().match(found.group(0))
            return (found.group(0)[joined.end():], found.start() + joined.end()) if joined \
                else (found.group(0), found.start())
    return None


@cache
def _term_lead() -> re.Pattern[str]:
    """What a defined term's parenthesis says before the term ("the", "hereinafter",
    "nachfolgend", "ci-après", "le", "l'"): the grid's `defined_as`, `term_leads` and
    `articles` words."""
    g = grid_vocabulary()
    words = (g.words("defined_as") | g.words("term_leads") | g.words("articles")).pattern.pattern
    return re.compile(rf"^(?:(?:{words})(?:\s+|(?<=['’])\s*)|[„\"“”'«]\s*)+", re.IGNORECASE)


@cache
def _marked() -> re.Pattern[str]:
    """A defined term without a parenthesis: "ci-après dénommée « le Prestataire »",
    "hereinafter referred to as "the Supplier"", "nachfolgend „Lieferant“"."""
    words = grid_vocabulary().words("defined_as").pattern.pattern
    return re.compile(rf"(?:{words}){_QUOTED}", re.IGNORECASE)


@cache
def _role_after_name() -> re.Pattern[str]:
    """The role a name is followed by ("… as Landlord", "… als Vermieter")."""
    words = grid_vocabulary().words("acting_as").pattern.pattern
    return re.compile(rf"\s+(?:{words})\s+[\w\s]{{2,30}}$", re.IGNORECASE)


@cache
def _joining() -> re.Pattern[str]:
    """A word an opening joins its parties with, in capitals before a name ("BETWEEN", "ET")."""
    return re.compile(rf"(?:{grid_vocabulary().words('joining').pattern.pattern})\s+",
                      re.IGNORECASE)


@cache
def _document_words() -> Cues:
    """Words that name a document, never a party ("SUPPLY AGREEMENT", "Deed of Variation")."""
    g = grid_vocabulary()
    return cues(p for k in g.kinds for p in k.titles.phrases) | g.kind("contract").names | \
        g.words("amendment_titles")


def _opening(text: DocumentText) -> list[Passage]:
    opening = [p for p in text.passages if p.preamble]
    return opening or text.passages[:2]


def parties_of(text: DocumentText) -> list[Party]:
    """The parties the document's opening names with a defined term, in order; where it gives
    none ("between Alder Foods Ltd and Birch Retail plc"), the organisations it names."""
    return _defined(text) or _named(text)


def _named(text: DocumentText) -> list[Party]:
    for passage in _opening(text):
        orgs = find_orgs(passage.text)
        if len(orgs) >= 2:
            return [Party(name, "", passage, start, end) for name, start, end in orgs]
    return []


def _defined(text: DocumentText) -> list[Party]:
    found: list[Party] = []
    for passage in _opening(text):
        boundary = 0
        marks = sorted([*_PAREN.finditer(passage.text), *_marked().finditer(passage.text)],
                       key=lambda m: m.start())
        for paren in marks:
            term = _term(paren.group("inner"))
            if term is None:
                continue
            begins = boundary
            named = _name_in(passage.text[begins:paren.start()])
            boundary = paren.end()
            if named is None:
                continue
            name, at = named
            found.append(Party(name, term, passage, begins + at, paren.end()))
    return found


def target_of(deal_id: str, documents: Iterable[Sequence[Party]]) -> set[str]:
    """The keys of the target's names: the party named in most of the documents (in at least two
    and more than half), else among the parties the one the deal is named after."""
    counts: Counter[str] = Counter()
    total = 0
    for parties in documents:
        total += 1
        counts.update({p.key for p in parties})
    if not counts:
        return set()
    top, seen = counts.most_common(1)[0]
    if seen >= 2 and seen * 2 > total:
        return {top}
    wanted = deal_id.lower().replace("-", "").replace("_", "")
    named = {key for key in counts if wanted and wanted in key}
    return named or ({top} if seen >= 2 else set())
