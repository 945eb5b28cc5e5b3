"""Whose document a file is (the filer or issuer it names itself for), and a room's companies.

A document's company is read once, when it is ingested, from where a document names its own
company: the registrant its cover page names ("Apple Inc." above "(Exact name of registrant as
specified in its charter)"), the company an earnings release's headline reports for ("Globex
reports third quarter results"), or a title block that is a company's name ("Tesla, Inc.",
"Vertex Distribution GmbH – Management accounts"). Names the text only mentions (a customer, an
auditor, a lender) are never read as its company; a document that names none has none.

A room's companies are the documents' ones, read together (`room_companies`): in a room of one
company nothing changes; where the deal names one of several companies (its target), the
documents that name none are the target's; two figures conflict, or correct one another, only
when their documents may be of the same company.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache

from manda.models import Document, ParsedDocument
from manda.vocabulary import vocabulary

__all__ = ["RoomCompanies", "company_key", "company_of", "room_companies", "same_company"]

_COVER_LINES = 80  # how far into the first pages a cover's registrant is looked for
_TITLE_LINES = 3  # the lines of a title block
_NAME_WORDS = 8  # a company's name is short
_KEY_WORD = re.compile(r"[^\W_]+")
_ROW_CELLS = " | "  # how a table row's cells stand in a section's text
_TITLE_BREAK = re.compile(r"\s+[–—|-]\s+|:\s+")  # "Vertex GmbH – Management accounts"


@cache
def _forms() -> frozenset[str]:
    """Legal forms and company words, lower-cased without their dots ("inc", "gmbh", "sa")."""
    words = vocabulary()
    return frozenset(w.lower().replace(".", "") for w in (
        *words.phrases("legal_forms"), *words.phrases("company_words")))


@cache
def _written_forms() -> dict[str, str]:
    """Each legal form as the vocabulary writes it ("GMBH" is shown "GmbH")."""
    return {w.lower().replace(".", ""): w for w in vocabulary().phrases("legal_forms")}


def company_of(parsed: ParsedDocument) -> str | None:
    """The company a document is of, as it names itself: the registrant of its cover, the
    company its headline reports for, or its title block's company; None when it names none."""
    lines = [line.strip() for section in parsed.sections[:3]
             for line in section.text.splitlines() if line.strip()][:_COVER_LINES]
    first: list[str] = []  # the title block: the first lines, above any table's rows
    for line in (parsed.sections[0].text if parsed.sections else "").splitlines():
        if _ROW_CELLS in line or len(first) == _TITLE_LINES:
            break  # a table's row names its own things (a customer list's first customer)
        if line.strip():
            first.append(line.strip())
    found = _registrant(lines) or _headline(first) or _title_block(first)
    return _shown(found) if found else None


def _registrant(lines: Sequence[str]) -> str | None:
    """The name a cover page gives as its registrant or issuer: the line above the caption
    "(Exact name of registrant as specified in its charter)", the words before it on its line,
    or the words after "Name of issuer:"."""
    marks = vocabulary().cues("registrant_marks")
    for index, line in enumerate(lines):
        mark = marks.search(line)
        if mark is None:
            continue
        after = line[mark.end():].lstrip()
        if after.startswith(":"):
            name = _name(after[1:])
            if name:
                return name
            continue
        before = line[:mark.start()]
        if "(" not in before:  # a caption stands in brackets under (or beside) the name
            continue
        if name := _name(before[:before.rindex("(")]):
            return name
        for above in reversed(lines[max(0, index - 2):index]):
            if name := _name(above):
                return name
    return None


def _headline(lines: Sequence[str]) -> str | None:
    """An earnings release's headline: the company, then what it reports ("Globex reports
    third quarter results", "Vertex SA publie ses résultats annuels")."""
    headline = vocabulary().cues("issuer_headline")
    for line in lines:
        found = headline.search(line)
        if found is not None and (name := _name(line[:found.start()])):
            return name
    return None


def _title_block(lines: Sequence[str]) -> str | None:
    """A title line that is a company's name, with its legal form ("Tesla, Inc.", "MICROSOFT
    CORP", "Vertex Distribution GmbH – Management accounts")."""
    for line in lines:
        head = _TITLE_BREAK.split(line, maxsplit=1)[0]
        name = _name(head)
        if name and len(name.split()) >= 2 and _bare(name.split()[-1]) in _forms():
            return name
    return None


def _bare(word: str) -> str:
    return word.strip(".,;:()").lower().replace(".", "")


def _name(text: str) -> str | None:
    """`text` when it reads as a company's name: a few words, the first capitalised, no
    sentence in it."""
    name = text.strip(" _-–—|•■()\t").rstrip(",;:")
    words = name.split()
    if not words or len(words) > _NAME_WORDS or not words[0][:1].isupper():
        return None
    if not any(c.isalpha() for c in name) or any(mark in name for mark in ("?", "!", ";", "  ")):
        return None
    # every word capitalised, a legal form, or a joining word ("&", "and", "de")
    joins = {"&", "and", "und", "et", "y", "de", "of", "the"}
    if not all(w[:1].isupper() or w[:1].isdigit() or w.lower() in joins
               or _bare(w) in _forms() for w in words):
        return None
    return name


def _shown(name: str) -> str:
    """A name as a person writes it: "AMAZON.COM, INC." is shown "Amazon.com, Inc."."""
    if not name.isupper():
        return name
    written = _written_forms()
    out = []
    for word in name.split():
        bare = word.strip(".,").lower().replace(".", "")
        if bare in written and "." not in word.strip("."):
            out.append(word.replace(word.strip(".,"), written[bare]))
        else:
            out.append(word.capitalize())
    return " ".join(out)


@lru_cache(maxsize=4096)
def company_key(name: str) -> tuple[str, ...]:
    """A company's name as words to compare, without its legal form: "Amazon.com, Inc." →
    (amazon, com); "Vertex Distribution GmbH" → (vertex, distribution)."""
    words = [w.lower() for w in _KEY_WORD.findall(name.replace("'s", "").replace("’s", ""))]
    forms = _forms()
    return tuple(w for w in words if w not in forms and w != "the")


def same_company(a: str, b: str, links: Iterable[Sequence[str]] = ()) -> bool:
    """One company by its names: the words of one lead the other's ("Uber" and "Uber
    Technologies, Inc."), or the team said so (`Deal.entity_links`)."""
    ka, kb = company_key(a), company_key(b)
    if not ka or not kb:
        return False
    if _leads(ka, kb):
        return True
    return any(any(_leads(ka, company_key(n)) for n in group)
               and any(_leads(kb, company_key(n)) for n in group) for group in links)


def _leads(key: tuple[str, ...], other: tuple[str, ...]) -> bool:
    """The words of one name lead the other's."""
    short, long = sorted((key, other), key=len)
    return bool(short) and long[:len(short)] == short


@dataclass(frozen=True)
class RoomCompanies:
    """The company of each document of a room, as the room reads them together."""

    stated: Mapping[str, str] = field(default_factory=dict)  # document id → company it names
    target: str | None = None  # the deal's own company: documents that name none are its
    links: tuple[tuple[str, ...], ...] = ()  # names the team said are one company

    def of(self, document_id: str) -> str | None:
        """The company a document is of; None when the room cannot say."""
        return self.stated.get(document_id) or self.target

    @cached_property
    def _names(self) -> tuple[str, ...]:
        counts = Counter(self.stated.values())
        out: list[str] = []
        for name in [*([self.target] if self.target else []), *(n for n, _ in
                                                                 counts.most_common())]:
            if not any(same_company(name, known, self.links) for known in out):
                out.append(name)
        return tuple(out)

    def names(self) -> list[str]:
        """The room's companies, one name each: the deal's target first, then the most
        documents first."""
        return list(self._names)

    @property
    def several(self) -> bool:
        """The room holds documents of more than one company."""
        return len(self._names) > 1

    def same(self, document_a: str, document_b: str) -> bool:
        """May the two documents be of one company? (Not when each names another.)"""
        a, b = self.of(document_a), self.of(document_b)
        return a is None or b is None or same_company(a, b, self.links)

    def is_of(self, document_id: str, name: str) -> bool:
        """The document is of the company `name` names ("Apple": Apple Inc.'s filings)."""
        company = self.of(document_id)
        return company is not None and same_company(company, name, self.links)

    def is_target(self, document_id: str) -> bool:
        """The document is the deal's own company's."""
        return self.target is not None and self.is_of(document_id, self.target)

    def company(self, name: str) -> str | None:
        """The room's company `name` names, as the documents write it."""
        return next((c for c in self.names() if same_company(c, name, self.links)), None)


def room_companies(documents: Sequence[Document], deal_names: Iterable[str] = (),
                   links: Iterable[Sequence[str]] = ()) -> RoomCompanies:
    """The room's companies: each document's own; the documents that name none are the
    deal's target's (`deal_names`: the deal's id and name) where the room can tell which
    company that is. A room of one company, or none, reads as before: one company."""
    stated = {d.id: d.company for d in documents if d.company}
    if not stated:
        return RoomCompanies()
    groups = tuple(tuple(g) for g in links)
    names = RoomCompanies(stated=stated, links=groups).names()
    target = _target(names, documents, groups, [n for n in deal_names if n])
    if target is None and len(names) == 1:
        target = names[0]  # one company's room: every document is its
    return RoomCompanies(stated=stated, target=target, links=groups)


def _target(names: Sequence[str], documents: Sequence[Document],
            links: tuple[tuple[str, ...], ...], deal_names: Sequence[str]) -> str | None:
    """The deal's own company: the one the deal is named after, else the one most documents
    name, else the deal's name where the files that name no company carry it
    ("Vertex_Management_Accounts.xlsx" of the deal "vertex" beside its parent's report)."""
    named = [n for n in names if any(_names(deal, n) for deal in deal_names)]
    if named:
        return named[0] if len(named) == 1 else None
    counts = Counter(n for d in documents if d.company for n in names
                     if same_company(d.company, n, links))
    if most := next((n for n in names if counts[n] * 2 > len(documents)), None):
        return most
    unnamed = [set(company_key(d.filename.replace("_", " "))) for d in documents
               if not d.company]
    for deal in deal_names:
        for word in _deal_words(deal):
            if any(word in files for files in unnamed):
                return word.capitalize()
    return None


def _deal_words(deal: str) -> list[str]:
    return [w for w in company_key(deal.replace("-", " ").replace("_", " ")) if len(w) >= 4]


def _names(deal: str, company: str) -> bool:
    """A deal's id or name that names the company ("rheintal" names Rheintal Antriebstechnik
    GmbH; "project-falcon" names no one)."""
    key = company_key(company)
    return bool(key) and any(w == key[0] or w == "".join(key) for w in _deal_words(deal))
