"""One name per person and organisation: "Thomas Mueller" is "Thomas Müller", "Globex AG" "Globex".

Documents spell names differently; without this the graph would hold two CFOs and two customers.
Placeholders ("the Company", "Management", "TBD") are not entities at all and are dropped.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Literal

from rapidfuzz import fuzz

from manda.models import Finding, FindingKind
from manda.vocabulary import vocabulary

__all__ = [
    "EntityResolver",
    "canonical_entity",
    "is_placeholder",
    "merge_person_findings",
    "same_organisation",
    "same_person",
    "unify_entities",
]

EntityType = Literal["person", "organisation"]

_TRANSLITERATE = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "oe",
                                "å": "aa", "œ": "oe", "ł": "l", "đ": "d"})
# a person's titles before the name, in every language ("Dr. Prof.", "Herr Dipl.-Ing.", "Mme")
_TITLES = vocabulary().cues("honorifics").around(head=r"^(?:", tail=r"\.?\s+)+")
_LEGAL_SUFFIXES = (
    r"gmbh\s*&\s*co\.?\s*kg(?:aa)?", r"ag\s*&\s*co\.?\s*kg", r"gmbh", r"ag", r"se", r"kg", r"kgaa",
    r"ug", r"ohg", r"e\.?\s?v", r"ltd", r"limited", r"plc", r"llp", r"llc", r"lp", r"inc",
    r"incorporated", r"corp", r"corporation", r"co", r"company", r"s\.?\s?a\.?\s?s", r"s\.?\s?a",
    r"s\.?\s?[aà]\s?r\.?\s?l", r"s\.?\s?r\.?\s?l", r"s\.?\s?p\.?\s?a", r"b\.?\s?v", r"n\.?\s?v",
    r"oy", r"ab", r"asa", r"a/s", r"aps", r"sarl", r"sas", r"sa", r"holding", r"holdings",
    r"group",
)
_SUFFIX_RE = re.compile(
    r"(?:[\s,]+(?:" + "|".join(_LEGAL_SUFFIXES) + r")\.?)+\s*$", re.IGNORECASE
)
_PLACEHOLDERS = {
    "the company", "company", "the target", "target", "the seller", "seller", "sellers",
    "the sellers", "the buyer", "buyer", "the purchaser", "purchaser", "management",
    "the management", "management team", "the group", "group", "the business", "business",
    "the issuer", "the client", "client", "the customer", "customer", "counterparty",
    "the counterparty", "n/a", "na", "n.a.", "tbd", "tba", "tbc", "unknown", "none", "various",
    "other", "others", "-", "—", "?", "name", "[name]", "xxx", "redacted", "confidential",
    "the shareholder", "shareholder", "shareholders", "employee", "employees", "staff",
    "the board", "board", "he", "she", "they", "it", "we", "us",
}


def _plain(text: str) -> str:
    lowered = text.casefold().translate(_TRANSLITERATE)
    decomposed = unicodedata.normalize("NFKD", lowered)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _squash(text: str) -> str:
    return " ".join(re.sub(r"[^\w&/ ]+", " ", text).split())


def is_placeholder(name: str | None) -> bool:
    """True for names that stand for no one in particular: "the Company", "Management", "TBD"."""
    if name is None:
        return True
    cleaned = " ".join(name.strip().strip("\"'“”‘’()[]").split()).casefold()
    if not cleaned or not any(c.isalpha() for c in cleaned):
        return True
    return cleaned in _PLACEHOLDERS or cleaned.rstrip(".") in _PLACEHOLDERS


def _strip_suffixes(name: str) -> str:
    stripped = _SUFFIX_RE.sub("", name).strip(" ,")
    return stripped or name


def canonical_entity(name: str, kind: EntityType | None = None) -> str:
    """A stable key for a name: "Dr. Thomas Müller" → "thomas mueller", "Globex AG" → "globex".

    Organisations lose their legal form; people lose their titles. With no `kind`, both are
    stripped (a person's name carries neither).
    """
    text = " ".join(name.split())
    if kind in (None, "person"):
        text = _TITLES.sub("", text)
    if kind in (None, "organisation"):
        text = _strip_suffixes(text)
    return _squash(_plain(text))


def same_person(a: str, b: str) -> bool:
    """Two spellings of one person: umlauts, titles, case and small typos; "T. Müller" too."""
    ka, kb = canonical_entity(a, "person"), canonical_entity(b, "person")
    if not ka or not kb:
        return False
    if ka == kb:
        return True
    ta, tb = ka.split(), kb.split()
    if len(ta) >= 2 and len(tb) >= 2 and ta[-1] == tb[-1]:
        fa, fb = ta[0].rstrip("."), tb[0].rstrip(".")
        if (len(fa) == 1 and fb.startswith(fa)) or (len(fb) == 1 and fa.startswith(fb)):
            return True
    return fuzz.ratio(ka, kb) >= 94


def same_organisation(a: str, b: str) -> bool:
    """Two spellings of one organisation: "Globex AG", "GLOBEX", "Globex Corp." are one."""
    ka, kb = canonical_entity(a, "organisation"), canonical_entity(b, "organisation")
    if not ka or not kb:
        return False
    return ka == kb or fuzz.ratio(ka, kb) >= 92


def _preferred(names: Iterable[str]) -> str:
    """The display spelling of a cluster: the most complete one (accents kept, legal form kept)."""
    return max(names, key=lambda n: (any(ord(c) > 127 for c in n), len(n), n))


class EntityResolver:
    """Clusters names as they arrive and answers with one display name per cluster."""

    def __init__(self, kind: EntityType) -> None:
        self._kind = kind
        self._clusters: list[list[str]] = []

    def _same(self, a: str, b: str) -> bool:
        return same_person(a, b) if self._kind == "person" else same_organisation(a, b)

    def add(self, name: str) -> str:
        """Record a name; return the display name of its cluster."""
        for cluster in self._clusters:
            if any(self._same(name, member) for member in cluster):
                if name not in cluster:
                    cluster.append(name)
                return _preferred(cluster)
        self._clusters.append([name])
        return name

    def resolve(self, name: str) -> str:
        """The display name of the cluster a name belongs to (the name itself if unknown)."""
        for cluster in self._clusters:
            if any(self._same(name, member) for member in cluster):
                return _preferred(cluster)
        return name


_PERSON_KINDS = {FindingKind.PERSON}
_ORG_KINDS = {FindingKind.CONTRACT, FindingKind.CUSTOMER, FindingKind.LITIGATION,
              FindingKind.OWNERSHIP}


def unify_entities(findings: Sequence[Finding]) -> list[Finding]:
    """Give every spelling of one person or organisation the same `entity` across findings."""
    people, orgs = EntityResolver("person"), EntityResolver("organisation")
    for f in findings:
        if f.entity and f.kind in _PERSON_KINDS:
            people.add(f.entity)
        elif f.entity and f.kind in _ORG_KINDS:
            orgs.add(f.entity)
    out: list[Finding] = []
    for f in findings:
        if f.entity and f.kind in _PERSON_KINDS:
            resolved = people.resolve(f.entity)
        elif f.entity and f.kind in _ORG_KINDS:
            resolved = orgs.resolve(f.entity)
        else:
            resolved = f.entity
        out.append(f if resolved == f.entity else f.model_copy(update={"entity": resolved}))
    return out


def _person_rank(f: Finding) -> tuple[int, int, float, int]:
    """A stated role first, then one stated with when it began ("since July 2021")."""
    return (1 if f.attributes.get("role") else 0, 1 if f.attributes.get("since") else 0,
            f.confidence, -len(f.label))


def merge_person_findings(findings: Sequence[Finding]) -> list[Finding]:
    """One PERSON finding per person of a batch: the one with a role and the highest confidence.

    The others' places are kept in `attributes["also_in"]` (document id @ location), their other
    roles in `attributes["other_roles"]`; findings of other kinds pass through untouched.
    """
    resolver = EntityResolver("person")
    groups: dict[str, list[Finding]] = {}
    order: list[str | int] = []
    for f in findings:
        if f.kind is FindingKind.PERSON and f.entity:
            resolver.add(f.entity)
    for i, f in enumerate(findings):
        if f.kind is FindingKind.PERSON and f.entity:
            key = canonical_entity(resolver.resolve(f.entity), "person")
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append(f)
        else:
            order.append(i)
    out: list[Finding] = []
    for item in order:
        if isinstance(item, int):
            out.append(findings[item])
            continue
        members = groups[item]
        best = max(members, key=_person_rank)
        others = [m for m in members if m is not best]
        if not others:
            out.append(best)
            continue
        attributes = dict(best.attributes)
        places = [f"{m.document_id}@{m.location.label}" for m in others]
        roles = sorted({m.attributes.get("role", "") for m in others}
                       - {"", best.attributes.get("role", "")})
        attributes["also_in"] = "; ".join(dict.fromkeys(places))
        if roles:
            attributes["other_roles"] = "; ".join(roles)
        display = resolver.resolve(best.entity or "")
        out.append(best.model_copy(update={"attributes": attributes, "entity": display}))
    return out
