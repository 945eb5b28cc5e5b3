"""Officers as filings and data rooms list them: a role in full, when it began, and the rows of a
"Name / Age / Position" table ("Jeffrey P. Bezos 62 Executive Chair"; "Brian C. Cornell Executive
Chair since February 2026. Chair of the Board and Chief Executive Officer from August 2014 to
January 2026. 67"), and "Mr. Jassy has served as President and Chief Executive Officer since July
2021" once the section has named Andrew R. Jassy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from manda.ingest.extract.names import ROLE, is_person_name, strip_title
from manda.vocabulary import vocabulary

__all__ = ["Officer", "RolePeriod", "honorific_roles", "role_extent", "role_period",
           "roster_rows"]

_WORDS = vocabulary()
_ROLE_AT = re.compile(ROLE)
_JOINERS = _WORDS.words("role_joiners")  # "and", "&", "of": inside a role, never its end
# a date a role began or ended: "July 2021", "February 1, 2026", "2019"
_DATE = r"[ \t]+(?P<date>(?:[A-Z][a-z]+\.?[ \t]+)?(?:\d{1,2},?[ \t]+)?(?:19|20)\d{2})(?!\d)"
_SINCE = _WORDS.cues("role_since").around(head=r"[ \t,]*", tail=_DATE)
_PAST = _WORDS.cues("role_past").around(head=r"[ \t,]*", tail=_DATE)
_SENIOR = _WORDS.cues("senior_role")  # "officer", "president": a part of a role
_TITLE_COLUMN = _WORDS.cues("title_header")
_NAME_COLUMN = _WORDS.cues("person_column")
_HOLDS = _WORDS.cues("holds_role")
_ARTICLES = rf"(?:(?i:{_WORDS.cues('role_articles').pattern.pattern})[ \t]+){{0,2}}"
_HOLDS_ROLE = _HOLDS.around(head=r"(?<![\w])", tail=rf"[ \t]+{_ARTICLES}(?P<role>{ROLE})")
_HONORIFIC = _WORDS.cues("honorifics").around(
    head=r"^[ \t]*", tail=r"\.?[ \t]+(?P<surname>[A-Z][\w'’\-]+)")


@dataclass(frozen=True)
class RolePeriod:
    since: str | None  # "July 2021": the role is held since then
    past: bool  # "from August 2014 to January 2026": a role no longer held


@dataclass(frozen=True)
class Officer:
    """One person's role as a section states it, with the spans of name, role and statement."""

    name: str
    name_span: tuple[int, int]
    role: str
    role_span: tuple[int, int]
    since: str | None
    bounds: tuple[int, int]


def _word_at(text: str, pos: int, stop: int) -> tuple[int, int]:
    """The next word after `pos` (skipping blanks and commas): its start and end."""
    start = pos
    while start < stop and text[start] in " \t,":
        start += 1
    end = start
    while end < stop and not text[end].isspace() and text[end] not in ",;":
        end += 1
    return start, end


def role_extent(text: str, start: int, end: int) -> int:
    """Where a role that starts at `start` and whose role words end at `end` really ends: its
    capitalised words and the words that join them ("Senior Vice President, Chief Global Affairs
    & Legal Officer", "President and Chief Executive Officer"), up to when it began ("since"), a
    full stop, an age or the end of the line. Anything else after it (a name, a verb) keeps the
    role as its role words end."""
    line_end = text.find("\n", end)
    stop = len(text) if line_end == -1 else line_end
    best, pos = end, end
    while pos < stop:
        w_start, w_end = _word_at(text, pos, stop)
        word = text[w_start:w_end]
        bare = word.rstrip(".")
        if not bare or not (bare[0].isupper() or bare.lower() in _JOINERS):
            break
        if bare.lower() not in _JOINERS:
            best = w_start + len(bare)
        pos = w_end
        if word.endswith(".") and not (len(bare) == 1 and bare.isupper()):
            break  # a full stop ends the role ("… Officer."), an initial does not
    if best == end:
        return end
    after_start, after_end = _word_at(text, best, stop)
    after = text[after_start:after_end]
    # "Douglas J. Herrington, CEO Worldwide Amazon Stores, adopted …": an apposition's comma
    closes = (text[best:best + 1] == "," and after[:1].islower()
              and not is_person_name(text[start:best].split(",")[-1].strip()))
    ends_here = (after_start >= stop or text[best:best + 1] in ".;" or after[:1].isdigit()
                 or closes or _SINCE.match(text, best) is not None
                 or _PAST.match(text, best) is not None)
    return best if ends_here else end


def role_period(text: str, end: int) -> RolePeriod:
    """When the role that ends at `end` was held: "since July 2021", or "from … to …" (past)."""
    since = _SINCE.match(text, end)
    if since is not None:
        return RolePeriod(since=since.group("date"), past=False)
    return RolePeriod(since=None, past=_PAST.match(text, end) is not None)


def _lines(text: str) -> list[tuple[int, str]]:
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((pos, line))
        pos += len(line) + 1
    return out


def _is_header(line: str) -> bool:
    """ "Name Age Position", "Name Title and Recent Business Experience Age": a table's header
    with a name column and a title column, flattened onto one line."""
    return (len(line) <= 120 and _NAME_COLUMN.pattern.match(line.strip()) is not None
            and _TITLE_COLUMN.search(line) is not None)


def _row(text: str, at: int, line: str) -> Officer | None:
    """A row of an officers table: a name, perhaps the age, and the role it opens with."""
    stop = at + len(line)
    ends: list[int] = []
    pos = at
    while len(ends) < 5:
        w_start, w_end = _word_at(text, pos, stop)
        if w_start >= w_end:
            break
        ends.append(w_end)
        pos = w_end
    lead = len(line) - len(line.lstrip())
    for end in ends[1:]:  # the shortest name after which a role opens
        name = text[at + lead:end].rstrip(".,")
        if not is_person_name(strip_title(name)):
            continue
        r_start, r_end = _word_at(text, end, stop)
        if text[r_start:r_end].isdigit():  # the age column
            r_start = _word_at(text, r_end, stop)[0]
        role = _ROLE_AT.match(text, r_start)
        if role is None:
            continue
        role_end = role_extent(text, r_start, role.end())
        period = role_period(text, role_end)
        if period.past or _elsewhere(text[r_start:role_end]):
            return None
        return Officer(name=name, name_span=(at + lead, at + lead + len(name)),
                       role=text[r_start:role_end], role_span=(r_start, role_end),
                       since=period.since, bounds=(at, stop))
    return None


def _elsewhere(role: str) -> bool:
    """ "President, Marshall University": a director's position at another organisation (its
    last part names no role), not a role held at the company."""
    parts = role.split(",")
    return len(parts) > 1 and _ROLE_AT.search(parts[-1]) is None and not _SENIOR.search(parts[-1])


def roster_rows(text: str) -> list[Officer]:
    """The rows of every officers table of the section that are a person with a role held now."""
    out: list[Officer] = []
    header = False
    for at, line in _lines(text):
        if _is_header(line):
            header = True
            continue
        if header and (row := _row(text, at, line)) is not None:
            out.append(row)
    return out


def honorific_roles(text: str, spans: list[tuple[int, int]],
                    known: dict[str, str]) -> list[Officer]:
    """ "Mr. Jassy has served as President and Chief Executive Officer since July 2021": a role
    held now, of a person the section has named in full (`known`: surname → name), read from a
    sentence that starts with an honorific and the surname."""
    out: list[Officer] = []
    for s, e in spans:
        ref = _HONORIFIC.match(text[s:e])
        if ref is None or (name := known.get(ref.group("surname").lower())) is None:
            continue
        for clause in _HOLDS_ROLE.finditer(text, s + ref.end(), e):
            role_end = role_extent(text, clause.start("role"), clause.end("role"))
            period = role_period(text, role_end)
            if period.past:
                continue
            out.append(Officer(name=name, name_span=(s + ref.start("surname"),
                                                     s + ref.end("surname")),
                               role=text[clause.start("role"):role_end],
                               role_span=(clause.start("role"), role_end),
                               since=period.since, bounds=(s, e)))
            break
    return out
