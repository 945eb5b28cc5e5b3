"""Names of people, organisations and roles as data rooms write them, found without a model.

Deterministic patterns, tuned to be cautious: a capitalised phrase is a person only when it looks
like "First Last" and none of its words is a heading word ("Key Dates", "Pending Litigation").
"""

from __future__ import annotations

import re

from manda.vocabulary import vocabulary

__all__ = [
    "NAME",
    "ORG",
    "ROLE",
    "best_name",
    "find_courts",
    "find_orgs",
    "find_roles",
    "is_person_name",
    "org_before",
    "strip_title",
]

_UP = "A-ZÄÖÜÀÁÂÉÈÊÍÓÔÚÇÑŠŽ"
_LOW = "a-zäöüßàáâãéèêëíìîïóòôõúùûçñšžøæ'’"
_WORD = rf"[{_UP}][{_LOW}]+(?:-[{_UP}][{_LOW}]+)?"
_PARTICLE = r"(?:von der|van der|von|van|de|der|den|di|da|du|le|la|zu|dos|del)"
_SP = r"[ \t]+"  # a name never runs across a line break
NAME = (
    rf"(?:(?:Dr|Prof|Mr|Mrs|Ms)\.?{_SP})?{_WORD}(?:{_SP}[{_UP}]\.)?"
    rf"(?:{_SP}{_PARTICLE})?(?:{_SP}{_WORD}){{1,2}}"
)
"""A person's name: "Thomas Müller", "Dr. Anna-Lena Weber", "Jan van der Berg"."""

_C_ROLE = r"Chief\s+(?:[A-Z][a-z]+\s+){1,3}Officer"
# Titles a language writes beside a name, as they are written in any case ("Geschäftsführerin",
# "directrice financière", "DAF"): the vocabulary's `titles`, beside the English grammar below.
_TITLES = vocabulary().cues("person_titles").pattern.pattern
_REMITS = vocabulary().cues("role_remits").pattern.pattern  # "Finanzen", "Vorsitzender"
ROLE = (
    r"(?:(?:Co-?[Ff]ounder|Founder)(?:\s*(?:and|&|,)\s*)?)?"
    r"(?:" + _C_ROLE + r"|CEO|CFO|COO|CTO|CRO|CMO|CPO|CIO|CHRO|CCO|CDO|CSO"
    r"|(?i:" + _TITLES + r")"
    r"|Managing\s+Director|General\s+Manager|General\s+Counsel"
    r"|Company\s+Secretary|(?:Executive\s+)?Chair(?:man|woman|person)?"
    r"(?:\s+of\s+the\s+(?:Supervisory\s+|Advisory\s+)?"
    r"Board)?|(?:Non-[Ee]xecutive\s+|Executive\s+|Independent\s+)?Director(?:\s+of\s+[A-Z]\w+"
    r"(?:\s+(?:and|&)\s+[A-Z]\w+)?)?|(?:Senior\s+|Executive\s+)?Vice\s+President(?:,?\s+[A-Z]\w+)?"
    r"|(?:S|E)?VP\s+[A-Z]\w+(?:\s+[A-Z]\w+)?|Head\s+of\s+[A-Z]\w+(?:\s+(?:and|&)\s+[A-Z]\w+)?"
    r"|President|Co-?[Ff]ounder|Founder|Board\s+Member|Member\s+of\s+the\s+(?:Management|"
    r"Supervisory|Executive|Advisory)\s+Board|Finance\s+Director|Financial\s+Controller"
    r"|Controller|Managing\s+Partner|Partner|Owner)"
    # "Geschäftsführerin Finanzen", "Managing Director (CFO)": the remit that says which one
    r"(?:\s+(?i:" + _REMITS + r")|\s*\((?:CEO|CFO|COO|CTO|(?i:" + _REMITS + r"))\))?"
)
"""A role: "Chief Financial Officer", "CFO", "Managing Director", "Head of Sales", "Founder"."""

_SUFFIX = (
    r"(?:GmbH\s*&\s*Co\.\s*KG|AG\s*&\s*Co\.\s*KG|GmbH|AG|SE|KGaA|KG|UG|Ltd\.?|Limited|plc|PLC|"
    r"LLP|LLC|Inc\.?|Corp\.?|Corporation|S\.A\.S\.|S\.A\.|SA|SAS|S\.à\s?r\.l\.|S\.r\.l\.|"
    r"S\.p\.A\.|B\.V\.|BV|N\.V\.|NV|Oy|AB|ASA|A/S|ApS|SARL|S\.A\.R\.L\.|EURL|SNC)"
)
# every language's legal forms ("S.L.", "SARL", "GmbH") and the small words inside a company's
# name ("Bank of Ireland", "Hortícolas del Segura"), from the vocabulary
_FORMS = "|".join(re.escape(f) for f in sorted(vocabulary().phrases("legal_forms"), key=len,
                                               reverse=True))
_SUFFIX = rf"(?:{_SUFFIX}|{_FORMS})"
# a word that is also an article ("der", "des") is no link: "Zwischen der Kessler GmbH" names
# Kessler, not "Zwischen der Kessler"
_ARTICLES = {w.lower() for w in vocabulary().words("article")}
_LINKS = "|".join(re.escape(w) for w in sorted(
    (w for w in vocabulary().words("name_links") if w.lower() not in _ARTICLES),
    key=len, reverse=True))
_ORG_WORD = rf"(?:[{_UP}][\w&'’\-]*|[{_UP}]\.|&|für|und|{_LINKS})"
ORG = rf"(?:[{_UP}][\w&'’\-]*)(?:[ \t]+{_ORG_WORD}){{0,4}}?,?[ \t]+{_SUFFIX}(?![\w])"
"""An organisation with its legal form: "Globex AG", "Initech Holdings Ltd", "Acme S.A."."""

_ORG_RE = re.compile(ORG)
_ROLE_RE = re.compile(ROLE)
_NAME_RE = re.compile(rf"^{NAME}$")

# Capitalised words that start headings and titles, never names ("Key Dates", "Pending
# Litigation", "Bilan Actif"): the vocabulary's `not_name_words`, in every language.
_NOT_NAME_WORDS = vocabulary().words("not_name_words")


_LINK_WORDS = {w.lower() for w in vocabulary().words("name_links")}
_TITLE_WORDS = {w.lower() for w in vocabulary().words("firm_title_words")} | {
    w.lower() for w in vocabulary().words("article")}


def without_title(name: str) -> str:
    """An organisation's name without the title a heading writes before it and a link word
    ("Consent of PricewaterhouseCoopers LLP" → "PricewaterhouseCoopers LLP"); a name whose
    own words join by a link ("Bank of Ireland plc") is kept whole."""
    words = name.split()
    for at, word in enumerate(words[:-1]):
        plain = word.strip(".,").lower()
        if plain in _LINK_WORDS and at:
            return " ".join(words[at + 1:])
        if plain not in _TITLE_WORDS:
            break
    return name


def is_person_name(text: str) -> bool:
    """A capitalised "First [M.] Last" phrase whose words are not heading or business words."""
    text = " ".join(text.split())
    if not _NAME_RE.match(text):
        return False
    words = [w.strip(".").lower() for w in re.split(r"[\s\-]+", text)]
    words = [w for w in words if w not in {"dr", "prof", "mr", "mrs", "ms"} and len(w) > 1]
    return len(words) >= 2 and not any(w in _NOT_NAME_WORDS for w in words)


def best_name(text: str) -> tuple[str, int] | None:
    """The longest run of trailing words of `text` that is a person's name, with its offset:
    "Team Anna Schmidt" → ("Anna Schmidt", 5)."""
    words = list(re.finditer(r"\S+", text))
    for i in range(len(words) - 1):
        candidate = text[words[i].start() :]
        if is_person_name(candidate):
            return candidate, words[i].start()
    return None


# "Dr. Anna Weber"; "The Globex Corporation", "with Initech GmbH": words before a name
_HONORIFICS = re.compile(rf"^(?:{vocabulary().cues('honorifics').slot}\.?\s+)+", re.IGNORECASE)
_ORG_LEAD = re.compile(rf"{vocabulary().cues('org_lead').slot}\s+", re.IGNORECASE)
_NAME_LEAD = re.compile(rf"{vocabulary().cues('name_lead').slot}\s+", re.IGNORECASE)


def strip_title(name: str) -> str:
    """ "Dr. Anna Weber" → "Anna Weber"."""
    return _HONORIFICS.sub("", name.strip())


def find_orgs(text: str) -> list[tuple[str, int, int]]:
    """Organisations named with their legal form, with spans, leading "The" removed."""
    out: list[tuple[str, int, int]] = []
    for m in _ORG_RE.finditer(text):
        start, name = m.start(), m.group(0)
        lead = _ORG_LEAD.match(name)
        if lead:
            start, name = start + lead.end(), name[lead.end() :]
        if re.match(rf"[{_UP}]", name):
            out.append((name.rstrip(",."), start, start + len(name.rstrip(",."))))
    return out


_COURTS = vocabulary().cues("courts")
_PLACE_LINK = vocabulary().cues("place_link")  # "High Court of Justice", "tribunal de Lyon"
_PLACE = re.compile(rf"[ \t]+(?:[{_UP}][\w\-]+|[IVX]+\b)")  # "Munich", "München I"
_LINK = re.compile(r"[ \t]+([\w'’]+)")


def _place_after(text: str, end: int, words: int = 2) -> int:
    """Where a court's name ends once the place that follows it is read ("Munich", "of
    Justice", "de Lyon", "München I"): at most `words` places, each after a linking word."""
    for _ in range(words):
        link = _LINK.match(text, end)
        at = link.end() if link is not None and _PLACE_LINK.fullmatch(link.group(1)) else end
        place = _PLACE.match(text, at)
        if place is None:
            break
        end = place.end()
    return end


def find_courts(text: str) -> list[tuple[str, int, int]]:
    """Courts and arbitral bodies named in `text`, with the place that follows their name:
    "Regional Court Munich", "High Court of Justice", "Landgericht München I", "ICC"."""
    out: list[tuple[str, int, int]] = []
    for m in _COURTS.finditer(text):
        end = _place_after(text, m.end())
        if _PLACE_LINK.fullmatch(m.group(0).split()[-1]) and end == m.end():
            continue  # "court of" with no place is no court's name
        out.append((text[m.start():end], m.start(), end))
    return out


def find_roles(text: str) -> list[tuple[str, int, int]]:
    """Roles named in `text` with their spans."""
    return [(m.group(0), m.start(), m.end()) for m in _ROLE_RE.finditer(text)]


_CAP_RUN = re.compile(rf"((?:[{_UP}][\w&'’\-.]*\s+){{0,3}}[{_UP}][\w&'’\-.]*)\s*$")


def org_before(text: str, pos: int) -> tuple[str, int, int] | None:
    """The capitalised run that ends right before `pos` ("Globex" in "Globex accounts for")."""
    m = _CAP_RUN.search(text[max(0, pos - 80) : pos])
    if m is None:
        return None
    name = m.group(1)
    lead = _NAME_LEAD.match(name)
    offset = max(0, pos - 80) + m.start(1)
    if lead:
        name, offset = name[lead.end() :], offset + lead.end()
    if not name or name.lower() in _NOT_NAME_WORDS:
        return None
    return name, offset, offset + len(name)
