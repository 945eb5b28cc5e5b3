"""People and their roles in prose: "Thomas Müller — Chief Financial Officer", "CFO: Jane Doe".

In a management or bios document, a person named without any role still becomes a finding (role
left empty, low confidence) so that a human fills the gap instead of it going unnoticed.
"""

from __future__ import annotations

import re

from manda.ingest.extract.candidates import Candidate, SectionView
from manda.ingest.extract.confidence import Evidence
from manda.ingest.extract.dedupe import canonical_entity
from manda.ingest.extract.excerpts import sentence_spans
from manda.ingest.extract.names import NAME, ROLE, best_name, is_person_name, strip_title
from manda.ingest.extract.officers import (
    Officer,
    honorific_roles,
    role_extent,
    role_period,
    roster_rows,
)
from manda.models import FindingKind, LocationKind
from manda.vocabulary import vocabulary

__all__ = ["people_candidates"]

_WORDS = vocabulary()
_SEP = r"\s*(?:—|–|-|,|:|\|)\s*"
# "our", "the new", "its interim" before a role; "Globex's" too
_ARTICLES = rf"(?:(?:(?i:{_WORDS.cues('role_articles').pattern.pattern})|[A-Z]\w+['’]s)\s+){{0,2}}"
_DEFINITE = rf"(?:(?i:{_WORDS.cues('definite_article').pattern.pattern})\s+)?"  # "the", "our"
_HOLDS = _WORDS.cues("holds_role")  # "is", "serves as", "was appointed", "a été nommée"
_PATTERNS: list[tuple[re.Pattern[str], Evidence]] = [
    (re.compile(rf"(?P<name>{NAME}){_SEP}{_DEFINITE}(?P<role>{ROLE})"), "statement"),
    (re.compile(rf"(?P<name>{NAME})\s*\(\s*(?P<role>{ROLE})\s*\)"), "statement"),
    (re.compile(rf"(?P<role>{ROLE})\s*(?::|—|–|\|)\s*(?P<name>{NAME})"), "statement"),
    (_HOLDS.around(head=rf"(?P<name>{NAME})\s+", tail=rf"\s+{_ARTICLES}(?P<role>{ROLE})"),
     "narrative"),
    (_WORDS.cues("definite_article").around(tail=rf"\s+(?P<role>{ROLE}),?\s+(?P<name>{NAME})"),
     "narrative"),
    # "The Board appointed Mark Poole as Chief Operating Officer effective January 1, 2025"
    (_WORDS.cues("appoints").around(
        tail=rf"[ \t]+(?P<name>{NAME})[ \t]+(?i:{_WORDS.cues('role_as').pattern.pattern})[ \t]+"
             rf"{_ARTICLES}(?P<role>{ROLE})"), "narrative"),
]
# "He has been CFO since 2019", "Elle est directrice financière": a role after a pronoun or a
# line's first name
_PRONOUN_ROLE = _HOLDS.around(
    head=rf"(?m)(?:(?<![\w])(?i:{_WORDS.cues('pronouns').pattern.pattern})|^\s*[A-Z]\w+)\s+",
    tail=rf"\s+{_ARTICLES}(?P<role>{ROLE})")
_LEADING_ROLE = re.compile(rf"^\s*(?:[-–—•,:]\s*)?(?P<role>{ROLE})\b")
# a name at the start of a biography: "Sarah Connor joined in 2018"
_BIO_VERB = _WORDS.cues("bio_verbs").around(head=rf"^(?P<name>{NAME})\s+")
_NAME_LINE = re.compile(rf"^(?P<name>{NAME})\s*[:\-–—]?\s*$")


def _candidate(view: SectionView, name: str, name_span: tuple[int, int], role: str,
               role_span: tuple[int, int] | None, bounds: tuple[int, int] | None,
               evidence: Evidence, since: str | None = None) -> Candidate:
    name = strip_title(name)
    attributes = {"role": role, **({"since": since} if since else {})}
    return Candidate(
        kind=FindingKind.PERSON,
        subject=f"person:{canonical_entity(name, 'person')}",
        label=f"{name} — {role}" if role else name,
        section=view.index,
        core=name_span,
        bounds=bounds,
        anchor=role_span,
        evidence=evidence if role else "mention",
        entity=name,
        attributes=attributes,
    )


def _sentence_of(spans: list[tuple[int, int]], pos: int) -> tuple[int, int] | None:
    for s, e in spans:
        if s <= pos < e:
            return s, e
    return None


def _role_nearby(text: str, start: int, limit: int = 400) -> tuple[str, tuple[int, int]] | None:
    """A role stated right after a name heading: leading ("Chief Financial Officer since
    2019") or in the first sentences ("He has been CFO since 2019")."""
    window = text[start : start + limit]
    cut = window.find("\n\n")
    window = window if cut == -1 else window[:cut]
    lead = _LEADING_ROLE.match(window)
    if lead is not None:
        return lead.group("role"), (start + lead.start("role"), start + lead.end("role"))
    pron = _PRONOUN_ROLE.search(window)
    if pron is not None:
        return pron.group("role"), (start + pron.start("role"), start + pron.end("role"))
    return None


def people_candidates(view: SectionView) -> list[Candidate]:
    """People with their roles; in a people context also the ones named without a role."""
    text = view.text
    spans = sentence_spans(text)
    out: list[Candidate] = []
    claimed: set[str] = set()
    taken: list[tuple[int, int]] = []
    for o in _officers(text, spans):
        taken.append(o.name_span)
        claimed.add(canonical_entity(strip_title(o.name), "person"))
        out.append(_candidate(view, o.name, o.name_span, o.role, o.role_span, o.bounds,
                              "statement", since=o.since))
    for pattern, evidence in _PATTERNS:
        for m in pattern.finditer(text):
            name, start = m.group("name"), m.start("name")
            if not is_person_name(strip_title(name)):
                tail = best_name(name)
                if tail is None:
                    continue
                name, start = tail[0], start + tail[1]
            span = (start, m.end("name"))
            if any(s < span[1] and span[0] < e for s, e in taken):
                continue
            taken.append(span)
            claimed.add(canonical_entity(strip_title(name), "person"))
            role_end = role_extent(text, m.start("role"), m.end("role"))
            out.append(_candidate(view, name, span, text[m.start("role"):role_end],
                                  (m.start("role"), role_end),
                                  _sentence_of(spans, span[0]), evidence,
                                  since=role_period(text, role_end).since))
    if view.people_context:
        out.extend(_unroled(view, spans, claimed, taken))
    return out


def _officers(text: str, spans: list[tuple[int, int]]) -> list[Officer]:
    """Each officer's role held now, once: from an officers table's row, and from "Mr. Jassy
    has served as … since July 2021" when it states the same role (or the table none), which
    adds when the role began."""
    rows = roster_rows(text)
    known = {r.name.split()[-1].lower(): r.name for r in rows}
    for line in text.split("\n"):  # a bio's heading names the person its sentences call "Ms. X"
        m = _NAME_LINE.match(line.strip().rstrip("."))
        if m is not None and is_person_name(strip_title(m.group("name"))):
            known.setdefault(m.group("name").split()[-1].lower(), strip_title(m.group("name")))
    told = {o.name: o for o in honorific_roles(text, spans, known)}
    out: list[Officer] = []
    for row in rows:
        said = told.pop(row.name, None)
        same = said is not None and said.role.lower() == row.role.lower()
        out.append(said if same and said.since and not row.since else row)
    return [*out, *told.values()]


def _unroled(view: SectionView, spans: list[tuple[int, int]], claimed: set[str],
             taken: list[tuple[int, int]]) -> list[Candidate]:
    """Name headings and bio sentences; a role is looked for in the lines that follow."""
    text = view.text
    out: list[Candidate] = []
    heads: list[tuple[str, int, int]] = []
    pos = 0
    for line in text.split("\n"):
        stripped = line.strip()
        start = pos + len(line) - len(line.lstrip())
        pos += len(line) + 1
        m = _NAME_LINE.match(stripped) or _BIO_VERB.match(stripped)
        if m is not None:
            heads.append((m.group("name"), start, start + len(m.group("name"))))
    label = view.section.location.label
    if view.section.location.kind is LocationKind.SECTION and is_person_name(label):
        at = text.find(label)
        if at != -1 and all(h[1] != at for h in heads):
            heads.insert(0, (label, at, at + len(label)))
    for name, s, e in heads:
        clean = strip_title(name)
        key = canonical_entity(clean, "person")
        if not is_person_name(clean) or key in claimed:
            continue
        if any(ts < e and s < te for ts, te in taken):
            continue
        claimed.add(key)
        found = _role_nearby(text, e)
        role, role_span = (found[0], found[1]) if found else ("", None)
        bounds = _sentence_of(spans, s)
        out.append(_candidate(view, name, (s, e), role, role_span, bounds, "narrative"))
    return out
