"""When a document was written, read from its first lines: `Date: 15 October 2024`, `as of ...`.

Order of preference in the opening text: a labelled date (`Date:`, `Dated`, `as of`, `as at`,
`effective`), then the first full date anywhere that does not end a period ("quarter ended
March 31, 2025" is what the document covers), then a month and year. A month and year alone
(`September 2024`) gives the FIRST day of that month. Failing all, an ISO date in the filename.
Slash dates are read only when unambiguous (`31/12/2024`, `12/31/2024`); `03/04/2024` is skipped.
In the data rows of a table only labelled dates count (`As of: 30 June 2024`): a column of
joining dates says nothing about when the file was written.
"""

from __future__ import annotations

import re
from datetime import date

from manda.finance.periods import LINK_AFTER, LINK_BEFORE, MONTH_WORDS, MONTHS
from manda.models import ParsedDocument
from manda.vocabulary import vocabulary

HEAD_CHARS = 3_000

_MONTH = rf"(?P<month>{MONTH_WORDS})\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d{2})"

_FULL_DATES = [
    re.compile(rf"\b{_DAY}\s+{LINK_BEFORE}{_MONTH}{LINK_AFTER},?\s+{_YEAR}\b",  # 15 October 2024
               re.IGNORECASE),
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.IGNORECASE),  # October 15, 2024
    re.compile(r"\b(?P<year>(?:19|20)\d{2})-(?P<mnum>\d{1,2})-(?P<day>\d{1,2})\b"),  # 2024-09-30
    re.compile(r"\b(?P<day>\d{1,2})\.(?P<mnum>\d{1,2})\.(?P<year>(?:19|20)\d{2})\b"),  # 30.09.2024
    re.compile(r"\b(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<year>(?:19|20)\d{2})\b"),  # 31/12/2024
]
_MONTH_YEAR = re.compile(rf"\b{_MONTH}{LINK_AFTER}\s+{_YEAR}\b", re.IGNORECASE)
# the words that label a document's own date ("Date:", "as of", "Stand:", "en date du")
_LABEL = vocabulary().cues("document_date_label").around(tail=r"\s*[:\-–]?\s*")
_FILENAME_DATE = re.compile(r"(?<!\d)((?:19|20)\d{2})[-_]?(\d{2})[-_]?(\d{2})(?!\d)")


def detect_document_date(parsed: ParsedDocument) -> date | None:
    """The document's own date from its opening text (or its filename), or None."""
    head, prose = _head_text(parsed)
    for label in _LABEL.finditer(head):
        found = _first_full_date(head[label.end() : label.end() + 40], anchored=True)
        if found is None:
            found = _month_year(head[label.end() : label.end() + 30], anchored=True)
        if found is not None:
            return found
    found = _first_full_date(prose, anchored=False) or _month_year(prose, anchored=False)
    return found or _from_filename(parsed.filename)


def _head_text(parsed: ParsedDocument) -> tuple[str, str]:
    """The opening text, and the same without the data rows of tables."""
    parts: list[str] = []
    prose: list[str] = []
    size = 0
    for section in parsed.sections:
        if size >= HEAD_CHARS:
            break
        parts.append(section.text)
        size += len(section.text)
        if section.table and len(section.table) > 1:
            lines = section.text.split("\n")
            prose.append("\n".join(lines[: max(len(lines) - (len(section.table) - 1), 0)]))
        else:
            prose.append(section.text)
    return "\n".join(parts)[:HEAD_CHARS], "\n".join(prose)[:HEAD_CHARS]


# "for the quarter ended March 31, 2025 … April 18, 2025": a date that ends the period a document
# covers is not the day it was written, when the opening text gives another.
_NEAR_PERIOD_END_DAYS = 366  # a report is written within a year of the period it covers
_PERIOD_END_BEFORE = vocabulary().cues("period_end_before")  # "ended", "clos le", "zum"


def _first_full_date(text: str, *, anchored: bool) -> date | None:
    best: tuple[int, date] | None = None
    period_end: tuple[int, date] | None = None
    for pattern in _FULL_DATES:
        for match in pattern.finditer(text):
            if anchored and match.start() > 0:
                break
            found = _to_date(match)
            if found is None:
                continue
            if not anchored and _PERIOD_END_BEFORE.ends(text[max(0, match.start() - 20):
                                                               match.start()]):
                if period_end is None or match.start() < period_end[0]:
                    period_end = (match.start(), found)
                continue
            if best is None or match.start() < best[0]:
                best = (match.start(), found)
            break
    if best is not None and period_end is not None and abs(
            (best[1] - period_end[1]).days) > _NEAR_PERIOD_END_DAYS:
        return period_end[1]  # a far date is another event (an expiry), not the writing
    chosen = best or period_end
    return chosen[1] if chosen else None


def _month_year(text: str, *, anchored: bool) -> date | None:
    for match in _MONTH_YEAR.finditer(text):
        if anchored and match.start() > 0:
            return None
        month = MONTHS[match.group("month").lower()]
        return date(int(match.group("year")), month, 1)
    return None


def _to_date(match: re.Match[str]) -> date | None:
    groups = match.groupdict()
    year = int(groups["year"])
    if groups.get("month"):
        month = MONTHS[groups["month"].lower()]
        day = int(groups["day"])
    elif groups.get("mnum"):
        month, day = int(groups["mnum"]), int(groups["day"])
    else:
        a, b = int(groups["a"]), int(groups["b"])
        if a > 12 >= b:
            day, month = a, b
        elif b > 12 >= a:
            month, day = a, b
        else:
            return None  # 03/04/2024: day-first or month-first cannot be told apart
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _from_filename(filename: str) -> date | None:
    match = _FILENAME_DATE.search(filename)
    if match is None:
        return None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None
