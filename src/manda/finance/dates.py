"""Dates as data rooms write them, with the precision they were given ("14 May 2024", "Q3 2024",
"mid-2023", "early December"): a span from its first to its last possible day, never a guess.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date
from typing import Literal

from manda.finance.periods import LINK_AFTER, MONTH, MONTHS, find_dates, find_periods
from manda.vocabulary import vocabulary

__all__ = ["DateMention", "DateSpan", "Precision", "find_date_mentions", "fiscal_year_span"]

Precision = Literal["day", "month", "quarter", "half", "year"]
_RANK: dict[str, int] = {"day": 0, "month": 1, "quarter": 2, "half": 3, "year": 4}

_MONTH = MONTH
_YEAR = r"(?:19|20)\d{2}"
_I = re.IGNORECASE
_V = vocabulary()
# which part of a month or year a word names: "early", "Anfang", "début"; "mid", "Mitte",
# "mediados de"; "late", "Ende", "fin de"
_EARLY, _MID, _LATE = (_V.cues(f"date_part_{part}") for part in ("early", "mid", "late"))
_MODIFIER = rf"(?P<mod>{(_EARLY | _MID | _LATE).slot})"
_MONTH_YEAR = re.compile(
    rf"(?<![\w]){_MODIFIER}?\s*-?\s*(?P<m>{_MONTH})(?:{LINK_AFTER}\s*(?P<y>{_YEAR}))?(?![\w])", _I)
_MOD_YEAR = re.compile(rf"(?<![\w]){_MODIFIER}\s*-?\s*(?P<y>{_YEAR})(?![\w])", _I)
# A bare year is a date only where the words make it one: "in 2023", "since 2015", "Joined: 2019".
_BARE_YEAR = re.compile(
    rf"(?<![\w]){_V.cues('year_date_lead').slot}\s*:?\s+(?P<y>{_YEAR})(?![\w\-/]|\.\d)", _I)


@dataclass(frozen=True)
class DateSpan:
    """The first and last day a date expression can mean, and the unit it was given in."""

    start: date
    end: date
    precision: Precision
    fiscal: bool = False

    @property
    def label(self) -> str:
        """`2024-06-14`, `2024-06`, `2024-Q3`, `2024-H1`, `2024` or `FY2024`."""
        s = self.start
        if self.precision == "day":
            return s.isoformat()
        if self.precision == "month":
            return f"{s.year:04d}-{s.month:02d}"
        if self.precision == "quarter":
            return f"{s.year:04d}-Q{(s.month - 1) // 3 + 1}"
        if self.precision == "half":
            return f"{s.year:04d}-H{1 if s.month <= 6 else 2}"
        return f"FY{self.end.year}" if self.fiscal else f"{s.year:04d}"

    def overlaps(self, other: DateSpan) -> bool:
        return self.start <= other.end and other.start <= self.end

    def finer(self, other: DateSpan) -> bool:
        """True when this span is more precise than `other` (a day beats a month)."""
        return (_RANK[self.precision], self.end - self.start) < (
            _RANK[other.precision], other.end - other.start)


@dataclass(frozen=True)
class DateMention:
    """A date expression found in a text: its span of days and where it stands in the text."""

    span: DateSpan
    start: int
    end: int


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _month_part(year: int, month: int, modifier: str | None) -> tuple[date, date]:
    last = calendar.monthrange(year, month)[1]
    if not modifier:
        return date(year, month, 1), date(year, month, last)
    if _EARLY.fullmatch(modifier):
        return date(year, month, 1), date(year, month, 10)
    if _MID.fullmatch(modifier):
        return date(year, month, 11), date(year, month, 20)
    return date(year, month, 21), date(year, month, last)


def _year_part(year: int, modifier: str) -> tuple[date, date]:
    if _EARLY.fullmatch(modifier):
        return date(year, 1, 1), date(year, 4, 30)
    if _MID.fullmatch(modifier):
        return date(year, 5, 1), date(year, 8, 31)
    return date(year, 9, 1), date(year, 12, 31)


def fiscal_year_span(year: int, year_end: tuple[int, int] = (12, 31)) -> DateSpan:
    """FY`year` as the twelve months ending on the company's fiscal-year end in `year`."""
    month, day = year_end
    end = date(year, month, min(day, calendar.monthrange(year, month)[1]))
    start_month = month % 12 + 1
    start = date(year if start_month == 1 else year - 1, start_month, 1)
    return DateSpan(start, end, "year", fiscal=True)


def _period_span(period: str, year_end: tuple[int, int]) -> DateSpan | None:
    if m := re.fullmatch(r"Q([1-4]) (\d{4})", period):
        q, y = int(m.group(1)), int(m.group(2))
        return DateSpan(date(y, 3 * q - 2, 1), _month_end(y, 3 * q), "quarter")
    if m := re.fullmatch(r"H([12]) (\d{4})", period):
        h, y = int(m.group(1)), int(m.group(2))
        return DateSpan(date(y, 6 * h - 5, 1), _month_end(y, 6 * h), "half")
    if m := re.fullmatch(r"FY(\d{4})", period):
        return fiscal_year_span(int(m.group(1)), year_end)
    return None  # "as of" periods are calendar dates, found as such


def _taken(spans: list[tuple[int, int]], s: int, e: int) -> bool:
    return any(s < te and ts < e for ts, te in spans)


def find_date_mentions(
    text: str, *, context_year: int | None = None, year_end: tuple[int, int] = (12, 31)
) -> list[DateMention]:
    """Every date expression in `text`, most precise reading first where two overlap.

    A month without a year ("early December") takes `context_year` (the year of the document it
    stands in); with none known it is no date at all.
    """
    found: list[DateMention] = []
    taken: list[tuple[int, int]] = []

    def add(span: DateSpan, s: int, e: int) -> None:
        if not _taken(taken, s, e):
            found.append(DateMention(span, s, e))
            taken.append((s, e))

    for d, s, e in find_dates(text):
        add(DateSpan(d, d, "day"), s, e)
    for m in _MONTH_YEAR.finditer(text):
        year = int(m.group("y")) if m.group("y") else context_year
        if year is None or (m.group("y") is None and len(m.group("m").rstrip(".")) < 4
                            and m.group("mod") is None):
            continue  # "Mar" alone is too often not a month
        start, end = _month_part(year, MONTHS[m.group("m").lower().rstrip(".")], m.group("mod"))
        add(DateSpan(start, end, "month"), m.start(), m.end())
    for period, s, e in find_periods(text):
        span = _period_span(period, year_end)
        if span is not None:
            add(span, s, e)
    for m in _MOD_YEAR.finditer(text):
        start, end = _year_part(int(m.group("y")), m.group("mod"))
        add(DateSpan(start, end, "year"), m.start(), m.end())
    for m in _BARE_YEAR.finditer(text):
        y = int(m.group("y"))
        add(DateSpan(date(y, 1, 1), date(y, 12, 31), "year"), m.start("y"), m.end("y"))
    return sorted(found, key=lambda mention: mention.start)
