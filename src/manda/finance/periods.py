"""Reporting periods in one spelling ("Q3 2024", "FY2023", "H1 2024", "as of 2024-09-30").

Documents say "third quarter of 2024", "3Q24", "Q3'24" or "30.09.2024"; findings, follow-up
questions ("What about last year?") and conflict checks all need the same period to compare equal.
"""

from __future__ import annotations

import bisect
import calendar
import re
from datetime import date

__all__ = [
    "find_dates",
    "find_periods",
    "parse_date",
    "parse_period",
    "period_end",
    "period_sort_key",
    "previous_period",
    "same_quarter_last_year",
    "year_of",
]

_MONTHS = {
    "january": 1, "jan": 1, "januar": 1, "jänner": 1,
    "february": 2, "feb": 2, "februar": 2,
    "march": 3, "mar": 3, "märz": 3, "maerz": 3,
    "april": 4, "apr": 4,
    "may": 5, "mai": 5,
    "june": 6, "jun": 6, "juni": 6,
    "july": 7, "jul": 7, "juli": 7,
    "august": 8, "aug": 8,
    "september": 9, "sep": 9, "sept": 9,
    "october": 10, "oct": 10, "oktober": 10, "okt": 10,
    "november": 11, "nov": 11,
    "december": 12, "dec": 12, "dezember": 12, "dez": 12,
}
_MONTH = "(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_ORDINALS = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
}
_ORD = "(?:" + "|".join(_ORDINALS) + ")"
_YEAR4 = r"(?:19|20)\d{2}"
_YEAR = rf"(?:{_YEAR4}|\d{{2}})"
_APOS = r"['’]?"
_B = r"(?<![\w])"  # left word boundary that also works before digits
_E = r"(?![\w])"

_FLAGS = re.IGNORECASE

# Each pattern yields (normalised period) through a builder; order matters only for ties.
# A two-digit year needs an apostrophe or "FY" ("Q3'24", "Q3 FY24"): "Q3 12%" is no period.
_Y = rf"(?:(?:FY\s*)?['’]?\s*(?P<y4>{_YEAR4})|(?:FY\s*|['’]\s*)(?P<y2>\d{{2}}))"
_YC = rf"(?:['’]?\s*(?P<y4>{_YEAR4})|['’]?\s*(?P<y2>\d{{2}}))"  # after "3Q" / "1H"

_QUARTER = [
    re.compile(rf"{_B}Q(?P<n>[1-4])\s*(?:[-/]\s*)?(?:of\s+)?{_Y}{_E}", _FLAGS),
    re.compile(rf"{_B}(?P<n>[1-4])Q\s*{_YC}{_E}", _FLAGS),
    re.compile(rf"{_B}(?P<y4>{_YEAR4})\s*[-/ ]?\s*Q(?P<n>[1-4]){_E}", _FLAGS),
    re.compile(
        rf"{_B}(?P<o>{_ORD})\s+(?:fiscal\s+|financial\s+)?quarter\s*(?:of\s+|,\s*)?"
        rf"(?:fiscal\s+|FY\s*)?(?P<y4>{_YEAR4}){_E}",
        _FLAGS,
    ),
]
_HALF = [
    re.compile(rf"{_B}H(?P<n>[12])\s*(?:[-/]\s*)?{_Y}{_E}", _FLAGS),
    re.compile(rf"{_B}(?P<n>[12])H\s*{_YC}{_E}", _FLAGS),
    re.compile(
        rf"{_B}(?P<o>first|second|1st|2nd)\s+half(?:[\s-]+year)?\s*(?:of\s+|,\s*)?"
        rf"(?:fiscal\s+|FY\s*)?(?P<y4>{_YEAR4}){_E}",
        _FLAGS,
    ),
]
_YEAR_ENDED = re.compile(
    rf"{_B}(?:fiscal\s+|financial\s+)?year\s+end(?:ed|ing)\s+(?:on\s+)?"
    rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}\s*,?\s*|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s*|"
    rf"\d{{1,2}}[./]\d{{1,2}}[./])({_YEAR4}){_E}",
    _FLAGS,
)
_PART_ENDED = re.compile(
    rf"{_B}(?P<kind>quarter|three\s+months|3\s+months|half[\s-]year|six\s+months|6\s+months)"
    rf"\s+end(?:ed|ing)\s+(?:on\s+)?(?P<date>\d{{1,2}}(?:st|nd|rd|th)?\.?\s+{_MONTH}\s*,?\s*"
    rf"{_YEAR4}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s*{_YEAR4}|\d{{1,2}}[./]\d{{1,2}}[./]"
    rf"{_YEAR4}|{_YEAR4}-\d{{2}}-\d{{2}}){_E}",
    _FLAGS,
)
_FY = [
    re.compile(rf"{_B}FY\s*{_APOS}\s*({_YEAR})(?:[AEBFP])?{_E}", _FLAGS),
    re.compile(
        rf"{_B}(?:fiscal|financial|full|business)(?:[\s-]+year)?\s+(?:of\s+)?({_YEAR4}){_E}", _FLAGS
    ),
    re.compile(rf"{_B}(?:the\s+)?year\s+({_YEAR4}){_E}", _FLAGS),
    re.compile(rf"{_B}GJ\s*({_YEAR4}){_E}", _FLAGS),  # Geschäftsjahr
]
_DATES = [
    # 30 September 2024, 30th Sept. 2024, 30 Sep, 2024
    re.compile(rf"{_B}(\d{{1,2}})(?:st|nd|rd|th)?\.?\s+({_MONTH})\s*,?\s*({_YEAR4}){_E}", _FLAGS),
    # September 30, 2024
    re.compile(rf"{_B}({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?\s*,?\s*({_YEAR4}){_E}", _FLAGS),
    # 2024-09-30
    re.compile(rf"{_B}({_YEAR4})-(\d{{1,2}})-(\d{{1,2}}){_E}"),
    # 30.09.2024, 30/09/2024 (day first, as European data rooms write it)
    re.compile(rf"{_B}(\d{{1,2}})([./])(\d{{1,2}})\2({_YEAR4}){_E}"),
]
_AS_OF = re.compile(r"\b(?:as\s+(?:of|at)|at|on|per|stand(?:\s+per)?|stichtag)\s*:?\s*$", _FLAGS)
_ANNUAL_WORDS = re.compile(
    r"\b(?:annual|full[\s-]year|fiscal|financial\s+year|for\s+the\s+year|yearly|per\s+year)\b",
    _FLAGS,
)
_HEADER_YEAR = re.compile(
    rf"^\s*(?:FY\s*)?{_APOS}({_YEAR4})\s*(?:[AEBFP]|actual|actuals|budget|forecast|plan|"
    rf"outlook|projected|est\.?|estimate)?\s*$",
    _FLAGS,
)
_BARE_YEAR = re.compile(rf"{_B}(?:in|for|during)\s+({_YEAR4}){_E}", _FLAGS)


def _year(text: str) -> int:
    value = int(text)
    if value < 100:
        return 2000 + value if value < 70 else 1900 + value
    return value


def _month(text: str) -> int:
    return _MONTHS[text.lower().rstrip(".")]


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _date_from_match(pattern_index: int, m: re.Match[str]) -> date | None:
    g = m.groups()
    if pattern_index == 0:
        return _safe_date(int(g[2]), _month(g[1]), int(g[0]))
    if pattern_index == 1:
        return _safe_date(int(g[2]), _month(g[0]), int(g[1]))
    if pattern_index == 2:
        return _safe_date(int(g[0]), int(g[1]), int(g[2]))
    first, second, year = int(g[0]), int(g[2]), int(g[3])
    if first <= 12 < second and g[1] == "/":  # 09/30/2024 can only be month first
        first, second = second, first
    return _safe_date(year, second, first)


def find_dates(text: str) -> list[tuple[date, int, int]]:
    """Calendar dates in `text` with their spans (day first where both readings are possible)."""
    found: list[tuple[date, int, int]] = []
    for index, pattern in enumerate(_DATES):
        for m in pattern.finditer(text):
            d = _date_from_match(index, m)
            if d is not None:
                found.append((d, m.start(), m.end()))
    return _non_overlapping(found)


def parse_date(text: str) -> date | None:
    """The first calendar date in `text`, if any."""
    dates = find_dates(text)
    return dates[0][0] if dates else None


def _numbered(m: re.Match[str]) -> tuple[str, int]:
    groups = m.groupdict()
    number = _ORDINALS[groups["o"].lower()] if groups.get("o") else int(groups["n"])
    return str(number), _year(groups.get("y4") or groups["y2"])


def _candidates(text: str) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    for prefix, patterns in (("Q", _QUARTER), ("H", _HALF)):
        for pattern in patterns:
            for m in pattern.finditer(text):
                number, year = _numbered(m)
                out.append((f"{prefix}{number} {year}", m.start(), m.end()))
    for m in _YEAR_ENDED.finditer(text):
        out.append((f"FY{m.group(1)}", m.start(), m.end()))
    for m in _PART_ENDED.finditer(text):
        end = parse_date(m.group("date"))
        if end is None:
            continue
        if m.group("kind").lower().startswith(("quarter", "three", "3")):
            out.append((f"Q{(end.month - 1) // 3 + 1} {end.year}", m.start(), m.end()))
        elif end.month in (6, 12):
            out.append((f"H{end.month // 6} {end.year}", m.start(), m.end()))
    for pattern in _FY:
        for m in pattern.finditer(text):
            out.append((f"FY{_year(m.group(1))}", m.start(), m.end()))
    for d, start, end in find_dates(text):
        prefix = _AS_OF.search(text[max(0, start - 20) : start])
        if prefix is not None:
            start = max(0, start - 20) + prefix.start()
        out.append((f"as of {d.isoformat()}", start, end))
    return out


def _non_overlapping(items: list[tuple[object, int, int]]) -> list:  # type: ignore[type-arg]
    """Keep the longest of overlapping spans, then order by position."""
    chosen: list[tuple[object, int, int]] = []
    starts: list[int] = []  # of `chosen`, kept in order: an overlap can only be a neighbour
    for item in sorted(items, key=lambda t: (-(t[2] - t[1]), t[1])):
        i = bisect.bisect_left(starts, item[1])
        before_ok = i == 0 or chosen[i - 1][2] <= item[1]
        after_ok = i == len(chosen) or item[2] <= chosen[i][1]
        if before_ok and after_ok:
            chosen.insert(i, item)
            starts.insert(i, item[1])
    return chosen


def find_periods(text: str, *, bare_years: bool = False) -> list[tuple[str, int, int]]:
    """Every period stated in `text`, normalised, with its span, in reading order.

    A bare year ("in 2023") counts as FY only with `bare_years=True` (or in an annual phrase such
    as "fiscal year 2023"): "founded in 2015" is not a reporting period.
    """
    found = _candidates(text)
    if bare_years or _ANNUAL_WORDS.search(text):
        for m in _BARE_YEAR.finditer(text):
            found.append((f"FY{m.group(1)}", m.start(1), m.end(1)))
    return _non_overlapping(found)


def parse_period(text: str) -> str | None:
    """Normalise one period phrase: "3Q24" → "Q3 2024", "fiscal year 2023" → "FY2023".

    A text that is only a year (a column header such as "2023", "2023A" or "FY2025 Budget") is an
    annual period; otherwise the first period found in the text is returned.
    """
    header = _HEADER_YEAR.match(text)
    if header is not None:
        return f"FY{header.group(1)}"
    periods = find_periods(text)
    return periods[0][0] if periods else None


# ---------------------------------------------------------------- arithmetic on periods

_Q_RE = re.compile(r"^Q([1-4]) (\d{4})$")
_H_RE = re.compile(r"^H([12]) (\d{4})$")
_FY_RE = re.compile(r"^FY(\d{4})$")
_ASOF_RE = re.compile(r"^as of (\d{4})-(\d{2})-(\d{2})$")


def _as_of(period: str) -> date | None:
    m = _ASOF_RE.match(period)
    return _safe_date(int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def period_end(period: str) -> date | None:
    """The last day a normalised period covers (a quarter's, half's or year's end; the date)."""
    if m := _Q_RE.match(period):
        return _month_end(int(m.group(2)), int(m.group(1)) * 3)
    if m := _H_RE.match(period):
        return _month_end(int(m.group(2)), int(m.group(1)) * 6)
    if m := _FY_RE.match(period):
        return date(int(m.group(1)), 12, 31)
    return _as_of(period)


def year_of(period: str | None) -> int | None:
    """The calendar year a normalised period belongs to."""
    if not period:
        return None
    end = period_end(period)
    return end.year if end else None


def previous_period(period: str) -> str | None:
    """The period just before: Q1 2024 → Q4 2023, H1 2024 → H2 2023, FY2024 → FY2023.

    For a date, the previous quarter end if the date is one; otherwise there is no "previous".
    """
    if m := _Q_RE.match(period):
        q, y = int(m.group(1)), int(m.group(2))
        return f"Q{q - 1} {y}" if q > 1 else f"Q4 {y - 1}"
    if m := _H_RE.match(period):
        h, y = int(m.group(1)), int(m.group(2))
        return f"H1 {y}" if h == 2 else f"H2 {y - 1}"
    if m := _FY_RE.match(period):
        return f"FY{int(m.group(1)) - 1}"
    d = _as_of(period)
    if d is not None and d.month % 3 == 0 and d == _month_end(d.year, d.month):
        month, year = (d.month - 3, d.year) if d.month > 3 else (12, d.year - 1)
        return f"as of {_month_end(year, month).isoformat()}"
    return None


def same_quarter_last_year(period: str) -> str | None:
    """The same period one year earlier: Q3 2024 → Q3 2023, as of 2024-09-30 → as of 2023-09-30."""
    if m := _Q_RE.match(period):
        return f"Q{m.group(1)} {int(m.group(2)) - 1}"
    if m := _H_RE.match(period):
        return f"H{m.group(1)} {int(m.group(2)) - 1}"
    if m := _FY_RE.match(period):
        return f"FY{int(m.group(1)) - 1}"
    d = _as_of(period)
    if d is None:
        return None
    day = min(d.day, calendar.monthrange(d.year - 1, d.month)[1])
    return f"as of {date(d.year - 1, d.month, day).isoformat()}"


_GRANULARITY = {"Q": 0, "H": 1, "F": 2, "a": 3}


def period_sort_key(period: str | None) -> tuple[int, int, str]:
    """Chronological order by period end; unknown periods first, shorter periods before longer."""
    if not period:
        return (0, 0, "")
    end = period_end(period)
    if end is None:
        return (0, 0, period)
    return (end.toordinal(), _GRANULARITY.get(period[0], 9), period)
