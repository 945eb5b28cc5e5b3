"""The deal's people as the documents name them: who, in which role, the management team (from
bios, decks, team tables and "Name — Role" lines, a census's senior rows only), and the key roles
nobody holds. Read by the management and key-people answers and by the question planner.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from manda.agent.compose.common import (
    Ask,
    Draft,
    approvals,
    cite_findings,
    current,
    role_hits,
    role_rank,
    tables_of,
)
from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import cite
from manda.agent.topics import KEY_ROLES, MANAGEMENT, ROLE_EQUIVALENTS, ROLE_WORDS
from manda.agent.unusual import body, sentences, trim
from manda.ingest.extract.tables import is_total_row
from manda.injection import looks_like_instruction
from manda.models import DocumentRole, Finding, FindingKind
from manda.vocabulary import vocabulary

_F = re.IGNORECASE

_ROLE_ALIASES = {
    "ceo": "chief executive officer", "cfo": "chief financial officer",
    "coo": "chief operating officer", "cto": "chief technology officer",
    "cro": "chief revenue officer", "cmo": "chief marketing officer",
    "cpo": "chief product officer", "cio": "chief information officer",
    "chro": "chief human resources officer", "cco": "chief commercial officer",
    "md": "managing director", "gm": "general manager", "vp": "vice president",
    "chairman": "chair", "chairwoman": "chair", "chairperson": "chair",
}
# a column that states a role
TITLE_HEADER = vocabulary().cues("title_header").pattern


_FILLER = {"of", "the", "for", "and", "&"}


def role_key(text: str) -> str:
    """A role in one spelling: "CFO" = "Chief Financial Officer"; "VP, Sales" = "VP of Sales"."""
    words = re.sub(r"[^\w&\s]", " ", text.lower()).split()
    expanded = " ".join(_ROLE_ALIASES.get(w, w) for w in words if w not in _FILLER)
    return " ".join(w for w in expanded.split() if w not in _FILLER)


def holds_role(role: str | None, wanted: str) -> bool:
    """Does a stated role (“Chief Financial Officer & Co-founder”) name the wanted one? A key
    role counts under its equivalents: a Finance Director is the CFO, a Geschäftsführer the CEO."""
    if not role:
        return False
    have, want = role_key(role), role_key(wanted)
    if not want:
        return False
    if re.search(rf"(?<!\w){re.escape(want)}(?!\w)", have) is not None:
        return True
    for _, pattern in ROLE_EQUIVALENTS:
        if _whole(pattern, wanted) or _whole(pattern, want):
            return pattern.search(role) is not None
    return False


def _whole(pattern: re.Pattern[str], text: str) -> bool:
    """The pattern names all of `text` ("finance director"), not a part ("vice president …")."""
    m = pattern.search(text)
    return m is not None and len(m.group(0).strip()) >= len(text.strip()) - 1


def people(evidence: Evidence) -> list[Finding]:
    return [f for f in current(evidence.usable_findings(), evidence)
            if f.kind is FindingKind.PERSON or f.subject.startswith("person:")]


def role_of(finding: Finding) -> str | None:
    for key in ("role", "title", "position"):
        if finding.attributes.get(key):
            return finding.attributes[key]
    text = (finding.value_text or "").strip()
    if text:
        return text
    _, sep, tail = finding.label.partition(" — ")
    return tail.strip() if sep and tail.strip() else None


def since_of(finding: Finding) -> str | None:
    """When the person's stated role began ("July 2021"), as the document states it."""
    return finding.attributes.get("since") or None


def _since_key(finding: Finding) -> tuple[int, int]:
    words = (since_of(finding) or "").replace(",", " ").split()
    year = next((int(w) for w in words if w.isdigit() and len(w) == 4), 0)
    return year, next((m for w in words if (m := vocabulary().month(w))), 0)


def current_first(found: Sequence[Finding]) -> list[Finding]:
    """A person's statements with a role, the role held now first: the latest stated start
    ("Executive Chair since February 2026" before "Chair since 2014"), else as they came."""
    return sorted((f for f in found if role_of(f)), key=_since_key, reverse=True)


def holds_as(finding: Finding, article: str = "") -> str:
    """ "is CFO", or "has been Executive Chair since February 2026" when the start is stated;
    `article` ("the") goes before the role."""
    role, since = f"{article} {role_of(finding)}".strip(), since_of(finding)
    return f"has been {role} since {since}" if since else f"is {role}"


def person_name(finding: Finding) -> str:
    if finding.entity:
        return finding.entity
    return finding.label.split(" — ")[0].split(" - ")[0]


def _team(evidence: Evidence) -> dict[str, list[Finding]]:
    """People by name, each with the statements of them (those with a role first)."""
    team: dict[str, list[Finding]] = {}
    for f in people(evidence):
        team.setdefault(f.subject, []).append(f)
    for found in team.values():  # the fullest statement first, from a bio or a presentation
        found.sort(key=lambda f: (role_of(f) is None, role_rank(evidence, f, MANAGEMENT),
                                  -len(role_of(f) or ""), evidence.filename(f.document_id)))
    return team


def _table_people(evidence: Evidence) -> list[tuple[str, str, Source]]:
    """(name, role, source) from tables with a name column and a role/title column."""
    out: list[tuple[str, str, Source]] = []
    for table, hit in tables_of(role_hits(evidence, MANAGEMENT.roles)):
        doc = evidence.documents.get(hit.document_id)
        if doc is not None and doc.role is DocumentRole.EMPLOYEE_CENSUS:
            continue  # a census lists everyone; the team is in bios and presentations
        if not table.has_header(TITLE_HEADER):
            continue
        for row in table.rows:
            title = row.get(TITLE_HEADER)
            if title and row.label and not is_total_row(row.label):
                out.append((row.label, title[1], evidence.hit_source(hit)))
    return out


_SENIOR = vocabulary().cues("senior_role")


def _in_team(evidence: Evidence, found: list[Finding], role: str | None) -> bool:
    """A census lists every employee: from it, only senior roles join the management team."""
    if any(role_rank(evidence, f, MANAGEMENT) < 2 or not _from_census(evidence, f)
           for f in found):
        return True
    return bool(role and _SENIOR.search(role))


def _from_census(evidence: Evidence, finding: Finding) -> bool:
    doc = evidence.documents.get(finding.document_id)
    return doc is not None and doc.role is DocumentRole.EMPLOYEE_CENSUS


Member = tuple[str, str | None, list[Source], list[Finding]]


def team_members(evidence: Evidence) -> list[Member]:
    """The management team: (name, role, sources, findings) from bios, decks and senior rows."""
    team = _team(evidence)
    members: list[Member] = []
    for found in team.values():
        name = person_name(found[0])
        role = next((r for f in found if (r := role_of(f))), None)
        if not _in_team(evidence, found, role):
            continue
        docs: list[Finding] = []
        for f in found:
            if f.document_id not in {d.document_id for d in docs}:
                docs.append(f)
        members.append((name, role, [evidence.finding_source(f) for f in docs[:2]], found))
    known = {m[0].lower() for m in members}
    for name, role, source in [*_table_people(evidence), *_line_people(evidence)]:
        if name.lower() not in known:
            known.add(name.lower())
            members.append((name, role, [source], []))
    return members


_PERSON = r"(?-i:[A-Z][a-zà-ÿ'’-]+(?: [A-Z][a-zà-ÿ'’-]+){1,3})"
_NAME_ROLE = re.compile(rf"^\s*(?:[-•*]\s*)?(?P<name>{_PERSON})\s*(?:—|–|-|:|,|\|)\s*"
                        r"(?P<role>[^.;|]{3,60}?)\s*$", _F)
_ROLE_NAME = re.compile(rf"^\s*(?:[-•*]\s*)?(?P<role>[^.;:|]{{3,60}}?)\s*:\s*(?P<name>{_PERSON})"
                        r"\.?\s*$", _F)


def _line_people(evidence: Evidence) -> list[tuple[str, str, Source]]:
    """(name, role, source) from "Name — Role" headings of bios and organisation slides (and
    "Role: Name" lines), wherever the extractor did not take them as people."""
    out: list[tuple[str, str, Source]] = []
    for hit in role_hits(evidence, MANAGEMENT.roles):
        doc = evidence.documents.get(hit.document_id)
        if doc is None or doc.role not in MANAGEMENT.roles or (
                doc.role is DocumentRole.EMPLOYEE_CENSUS):
            continue
        for line in body(hit.text).splitlines():
            m = _NAME_ROLE.match(line) or _ROLE_NAME.match(line)
            if m is None or looks_like_instruction(line):
                continue
            role = m.group("role").strip()
            if _SENIOR.search(role) or ROLE_WORDS.fullmatch(role):
                out.append((m.group("name").strip(), role, evidence.hit_source(hit)))
    return out


def missing_key_roles(members: Sequence[Member]) -> list[str]:
    """The key roles (CEO, CFO and their equivalents) no member holds."""
    return [label for label, pattern in KEY_ROLES
            if not any(role and pattern.search(role) for _, role, _, _ in members)]


_BACKGROUND = vocabulary().cues("person_background")


def person_background(evidence: Evidence, name: str) -> tuple[str, Source] | None:
    """The bio sentence that says most of where a person comes from (joined, previously …)."""
    last = name.split()[-1].lower() if name.split() else ""
    best: tuple[int, str, Source] | None = None
    for hit in role_hits(evidence, (DocumentRole.MANAGEMENT_BIOS,)):
        for sentence in sentences(hit.text):
            lowered = sentence.lower()
            if last not in lowered or "|" in sentence or looks_like_instruction(sentence):
                continue
            score = _BACKGROUND.count(sentence)
            if score and (best is None or score > best[0]):
                best = (score, trim(sentence, 200), evidence.hit_source(hit))
    return (best[1], best[2]) if best else None


def _of_a_division(role: str | None, wanted: str) -> bool:
    """ "CEO Amazon Web Services", "Chief Executive Officer, Europe": the role asked, of a part of
    the company (words follow it), not of the company."""
    if not role:
        return False
    have, want = role_key(role), role_key(wanted)
    at = have.find(want) if want else -1
    if at >= 0:
        return bool(have[at + len(want):].strip())
    for _, pattern in ROLE_EQUIVALENTS:
        if _whole(pattern, wanted) or _whole(pattern, want):
            m = pattern.search(role)
            return m is not None and bool(role[m.end():].strip(" ,.;&"))
    return False


def holder(evidence: Evidence, wanted: str) -> list[Finding]:
    """The statements of the person who holds `wanted`, the one saying it held now first; the
    company's holder comes before a division's ("CEO Amazon Web Services")."""
    holders = [match for found in _team(evidence).values()
               if (match := [f for f in current_first(found) if holds_role(role_of(f), wanted)])]
    holders.sort(key=lambda match: _of_a_division(role_of(match[0]), wanted))
    return holders[0] if holders else []


def holder_line(evidence: Evidence, match: list[Finding], language: str = "en") -> str:
    """ "Andrew R. Jassy has been the President and Chief Executive Officer since July 2021 (…)",
    in the question's language ("Klaus Brenner ist Geschäftsführer (…)")."""
    role, since = role_of(match[0]), since_of(match[0])
    holds = vocabulary().answer("holds_role_since" if since else "holds_role", language,
                                role=role, since=since)
    return f"{person_name(match[0])} {holds} {cite_findings(match[:2], evidence)}."


def adds_to(sentence: str, name: str, role: str | None) -> bool:
    """A background sentence says more than the name and role beside it ("… since July 2021,
    CEO Amazon Web Services from April 2016 …"), not just them again (an officers table's row:
    "Jim Lee Executive Vice President and Chief Financial Officer since September 2024.")."""
    if not role or role not in sentence:
        return True
    rest = sentence.replace(role, " ")
    for word in name.split():
        rest = rest.replace(word, " ")
    return len(" ".join(rest.split())) >= 30


def role_holder(ask: Ask, evidence: Evidence, wanted: str) -> Draft | None:
    """Who holds one named role; never someone holding another role."""
    match = holder(evidence, wanted)
    if match:
        best = match[0]
        text = holder_line(evidence, match, ask.language)
        background = person_background(evidence, person_name(best))
        if background is not None and adds_to(background[0], person_name(best), role_of(best)):
            text += f" Background: “{background[0]}” {cite([background[1]])}"
        return Draft(text=text, proposals=approvals([best]), rests_on=[best])
    for name, role, source in _table_people(evidence):
        if holds_role(role, wanted):
            return Draft(text=f"{name} is the {role} {cite([source])}.")
    for table, hit in tables_of(evidence.hits):  # a census row with a title column
        if not table.has_header(TITLE_HEADER):
            continue
        for row in table.rows:
            title = row.get(TITLE_HEADER)
            if title and holds_role(title[1], wanted):
                source = evidence.hit_source(hit)
                return Draft(text=f"{row.label} is the {title[1]} ({row.render()}) "
                                  f"{cite([source])}.")
    return None
