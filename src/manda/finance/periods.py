"""Reporting periods in one spelling ("Dec 2023", "Q3 2024", "FY2023", "as of 2024-09-30").

Documents say "third quarter of 2024", "3Q24", "Q3'24" or "30.09.2024"; findings, follow-up
questions ("What about last year?") and conflict checks all need the same period to compare equal.
This is the one period reader: ingestion, questions and the answer gate read through it. Written
notation (Q3 2024, 3Q24, H1, FY24, 2023/24, dates, month columns) is read here; how each language
writes a period in words ("third quarter of 2024", "T3 2024", "exercice clos le 30 septembre
2023", "1. Quartal 2024", "ejercicio 2023") and month names come from the language files
(`periods:`, `months:`, read by `manda.finance.period_forms`).
"""

from __future__ import annotations

import bisect
import calendar
import re
from collections.abc import Callable
from datetime import date
from functools import lru_cache

from manda.finance.period_forms import ALONE_KINDS, FormReader, ordinals
from manda.text import YEAR
from manda.vocabulary import vocabulary
from manda.vocabulary.numbers import MULTIPLIER, THOUSANDS_UNITS, alternatives, unit_lead

__all__ = [
    "find_dates",
    "find_periods",
    "is_part_of_year",
    "month_period",
    "parse_date",
    "parse_period",
    "period_end",
    "period_sort_key",
    "previous_period",
    "quarters_in",
    "same_quarter_last_year",
    "year_of",
]

# Month names in every language the vocabulary reads ("March", "Mär", "juillet", "dic").
MONTHS: dict[str, int] = {w: m for w in vocabulary().month_names() if (m := vocabulary().month(w))}
MONTH_WORDS = "|".join(re.escape(w) for w in sorted(MONTHS, key=len, reverse=True))
MONTH = rf"(?:{MONTH_WORDS})\.?"
_MONTH = MONTH
# A word between a day, its month and its year ("30th of June", "31 de diciembre de 2025").
DATE_LINK = "|".join(re.escape(w) for w in sorted(vocabulary().words("date_link"), key=len,
                                                   reverse=True)) or r"(?!x)x"
LINK_BEFORE = rf"(?:(?:{DATE_LINK})\s+)?"  # before a month or a year
LINK_AFTER = rf"(?:\s+(?:{DATE_LINK}))?"  # after a day or a month
_YEAR4 = r"(?:19|20)\d{2}"
_ORDINAL_WORDS = ordinals()
_YEAR = rf"(?:{_YEAR4}|\d{{2}})"
_APOS = r"['’]?"
_B = r"(?<![\w])"  # left word boundary that also works before digits
_E = r"(?![\w])"

_FLAGS = re.IGNORECASE
# "FY", "GJ": a fiscal year's abbreviation, written against its year ("FY2024", "GJ 2024")
_FY_ABBREVIATION = "|".join(re.escape(w) for w in sorted(
    vocabulary().phrases("fiscal_year_abbreviations"), key=len, reverse=True))

# Each pattern yields (normalised period) through a builder; order matters only for ties.
# A two-digit year needs an apostrophe or "FY" ("Q3'24", "Q3 FY24"): "Q3 12%" is no period.
_Y = rf"(?:(?:FY\s*)?['’]?\s*(?P<y4>{_YEAR4})|(?:FY\s*|['’]\s*)(?P<y2>\d{{2}}))"
_YC = rf"(?:['’]?\s*(?P<y4>{_YEAR4})|['’]?\s*(?P<y2>\d{{2}}))"  # after "3Q" / "1H"

_QUARTER = [
    # "Q4 2024-25", "Q1 GJ 2024/25", "Q3 FY 2023/24": a quarter of a split fiscal year, labelled
    # by the year that fiscal year ends in (like "FY2024/25" → FY2025)
    re.compile(rf"{_B}Q(?P<n>[1-4])\s*(?:{_FY_ABBREVIATION})?\s*(?P<ya>{_YEAR4})(?:\s*[/\-–]\s*|\s)(?P<y2>\d{{2}})"
               rf"{_E}", _FLAGS),
    re.compile(rf"{_B}Q(?P<n>[1-4])\s*(?:[-/]\s*)?(?:of\s+)?{_Y}{_E}", _FLAGS),
    re.compile(rf"{_B}(?P<n>[1-4])Q\s*{_YC}{_E}", _FLAGS),
    re.compile(rf"{_B}(?P<y4>{_YEAR4})\s*[-/ ]?\s*Q(?P<n>[1-4]){_E}", _FLAGS),
]
_HALF = [
    re.compile(rf"{_B}H(?P<n>[12])\s*(?:[-/]\s*)?{_Y}{_E}", _FLAGS),
    re.compile(rf"{_B}(?P<n>[12])H\s*{_YC}{_E}", _FLAGS),
]
# A calendar date and a month of a year, as the language files' forms place them ("exercice
# clos le {date}", "LTM {month}")
_DATE_TEXT = (
    rf"\d{{1,2}}(?:st|nd|rd|th|er)?\.?\s+{LINK_BEFORE}{_MONTH}{LINK_AFTER}\s*,?\s*{_YEAR4}"
    rf"|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s*{_YEAR4}|\d{{1,2}}[./]\d{{1,2}}[./]{_YEAR4}"
    rf"|{_YEAR4}-\d{{2}}-\d{{2}}")
_MONTH_TEXT = (rf"{_DATE_TEXT}|{_MONTH}{LINK_AFTER}\s*(?:[-/'’]\s*)?{_YEAR4}"
               rf"|{_MONTH}\s*[-/'’]\s*\d{{2}}")
# Every language's periods in words ("third quarter of 2024", "exercice clos le 30 septembre
# 2023", "1. Quartal 2024", "últimos doce meses a marzo de 2025"): `periods:` in each file.
_FORMS = FormReader.compile({
    "{n}": "[1-4]", "{year}": _YEAR4, "{yy}": r"['’]\s*\d{2}", "{date}": _DATE_TEXT,
    "{month}": _MONTH_TEXT})
# A quarter named without its year ("the fourth quarter", "Q4", "three months ended December
# 31"): `quarter_alone:` in each file, `{monthday}` a month and its day without the year.
_MONTH_DAY = (rf"\d{{1,2}}(?:st|nd|rd|th|er)?\.?\s+{LINK_BEFORE}{_MONTH}(?!\s*,?\s*\d)"
              rf"|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?!\s*,?\s*\d)")
_ALONE = FormReader.compile({"{n}": "[1-4]", "{monthday}": _MONTH_DAY}, kinds=ALONE_KINDS)
# "FY2023/24", "2023/24", "GJ 2023/24", "FY 23-24": a fiscal year named by both calendar years it
# spans is labelled by the year it ends in, like "FY2024" (and like the audited "2024" column).
# "FY", "GJ" (written against the year: "FY2024"), or a fiscal year in words
_FISCAL_YEAR = "(?:{}|{})".format(
    "|".join(re.escape(w) for w in sorted(vocabulary().words("fiscal_year_abbreviations"),
                                          key=len, reverse=True)),
    vocabulary().cues("fiscal_year_words").slot)
_SPLIT_FY = re.compile(
    rf"{_B}(?:{_FISCAL_YEAR}\s*{_APOS}\s*)?"
    rf"(?P<a>{_YEAR4}|\d{{2}})\s*[/\-–]\s*(?P<b>{_YEAR4}|\d{{2}})(?:[AEBFP])?{_E}",
    _FLAGS,
)
# "GJ 2024 25", "FY 2023 24": a file name's split year once its dashes became spaces.
_SPLIT_FY_SPACED = re.compile(
    rf"{_B}{_FISCAL_YEAR}\s*(?P<a>{_YEAR4})\s+"
    rf"(?P<b>\d{{2}}){_E}", _FLAGS)
# A month of a year: "December 2023", "Dec 2023", "Dec-23", "Dec'23" (a monthly column header).
_MONTH_YEAR = re.compile(
    rf"{_B}(?P<m>{_MONTH}){LINK_AFTER}\s*(?:[-/'’]\s*)?(?P<y4>{_YEAR4}){_E}"
    rf"|{_B}(?P<m2>{_MONTH})\s*[-/'’]\s*(?P<y2>\d{{2}}){_E}",
    _FLAGS,
)
# Only as a whole header cell: "2023-12", "12/2023", "12.2023".
_NUMERIC_MONTH = re.compile(
    rf"^\s*(?:(?P<y4>{_YEAR4})-(?P<m>0?[1-9]|1[0-2])|(?P<m2>0?[1-9]|1[0-2])[/.](?P<y4b>{_YEAR4}))"
    rf"\s*$"
)
# Only as a whole header cell: "Apr 24", "Dez 24" (a DATEV/BWA month column: month, space, a
# two-digit year). In running text "May 24" is a day, so find_periods never reads it so.
_MONTH_SPACE_YEAR = re.compile(rf"^\s*(?P<m>{_MONTH})\s+(?P<y2>\d{{2}})\s*$", _FLAGS)
# "YTD Jun-24", "LTM Sep 2024", "to March 2024", "Date: March 2024": not that month's figures.
_NOT_A_MONTH_BEFORE = re.compile(
    rf"(?:{vocabulary().cues('not_a_month_before').slot}\s*:?|[-–—]|\d+\s*m)\s*$", _FLAGS)
_MONTH_ABBREVIATIONS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                        "Nov", "Dec")
_FY = re.compile(rf"{_B}(?:{_FY_ABBREVIATION})\s*{_APOS}\s*({_YEAR})(?:[AEBFP])?{_E}", _FLAGS)
_DATES = [
    # 30 September 2024, 30th Sept. 2024, 30 Sep, 2024
    re.compile(rf"{_B}(\d{{1,2}})(?:st|nd|rd|th|er)?\.?\s+{LINK_BEFORE}({_MONTH}){LINK_AFTER}\s*,?\s*"
               rf"({_YEAR4}){_E}", _FLAGS),
    # September 30, 2024
    re.compile(rf"{_B}({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?\s*,?\s*({_YEAR4}){_E}", _FLAGS),
    # 2024-09-30
    re.compile(rf"{_B}({_YEAR4})-(\d{{1,2}})-(\d{{1,2}}){_E}"),
    # 30.09.2024, 30/09/2024 (day first, as European data rooms write it)
    re.compile(rf"{_B}(\d{{1,2}})([./])(\d{{1,2}})\2({_YEAR4}){_E}"),
]
_AS_OF = re.compile(rf"{vocabulary().cues('as_of_lead').slot}\s*:?\s*$", _FLAGS)
_ANNUAL_WORDS = vocabulary().cues("annual_words")
_HEADER_WORDS = "(?:[AEBFP]|(?:{})\\.?)".format("|".join(re.escape(w) for w in sorted(
    {w for lang in vocabulary().languages.values() for w in lang.periods.header_words},
    key=len, reverse=True)))
_HEADER_YEAR = re.compile(
    rf"^\s*(?:{_HEADER_WORDS}\s+)?(?:FY\s*)?{_APOS}({_YEAR4})\s*(?:{_HEADER_WORDS})?\s*$",
    _FLAGS,
)
# Units a column header may carry beside its period: "2024 £m", "FY24 ($000)", "Ist 2024 TEUR",
# "2024 (en K€)": a currency's sign or code with a multiplier, thousands of a currency, a
# multiplier and its currency, '000; their words from every language's `numbers:`.
_HEADER_CURRENCY = r"(?:US\$|€|£|\$|EUR|USD|GBP|CHF)"
_HEADER_UNITS = re.compile(
    rf"(?<![^\W\d_])\(?\s*(?:(?:{unit_lead()})\s+)?(?:{_HEADER_CURRENCY}\s?['’]?(?:000s?|{MULTIPLIER})?|"
    rf"{alternatives(THOUSANDS_UNITS)}|(?:{MULTIPLIER})\.?\s?{_HEADER_CURRENCY}?|['’]000s?)"
    r"\s*\)?(?![\w])",
    _FLAGS,
)
_BARE_YEAR_LEAD = "|".join(r"\s+".join(map(re.escape, w.split())) for w in sorted(
    {w for lang in vocabulary().languages.values() for w in lang.periods.bare_year_leads},
    key=len, reverse=True))
_BARE_YEAR = re.compile(rf"{_B}(?:{_BARE_YEAR_LEAD})\s+({_YEAR4}){_E}", _FLAGS)


def _year(text: str) -> int:
    value = int(text)
    if value < 100:
        return 2000 + value if value < 70 else 1900 + value
    return value


def _month(text: str) -> int:
    return MONTHS[text.lower().rstrip(".")]


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


def _numbered(m: re.Match[str]) -> tuple[str, int] | None:
    groups = m.groupdict()
    number = int(groups["n"])
    if groups.get("ya"):  # a split fiscal year: the second year must follow the first
        first = int(groups["ya"])
        second = first // 100 * 100 + int(groups["y2"])
        return (str(number), second) if second == first + 1 else None
    return str(number), _year(groups.get("y4") or groups["y2"])


def _candidates(text: str) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    for prefix, patterns in (("Q", _QUARTER), ("H", _HALF)):
        for pattern in patterns:
            for m in pattern.finditer(text):
                if (numbered := _numbered(m)) is not None:
                    out.append((f"{prefix}{numbered[0]} {numbered[1]}", m.start(), m.end()))
    for low, high in _year_windows(text):  # every form in words names a year, read near it
        for m in _FORMS.pattern.finditer(text, low, high):
            if (label := _form_label(*_FORMS.read(m))) is not None:
                out.append((label, m.start(), m.end()))
    for m in (*_SPLIT_FY.finditer(text), *_SPLIT_FY_SPACED.finditer(text)):
        first, second = _year(m.group("a")), _year(m.group("b"))
        if len(m.group("b")) == 2:
            second = first // 100 * 100 + int(m.group("b"))
        if second == first + 1 and (len(m.group("a")) == 4 or m.group(0)[:1].isalpha()):
            out.append((f"FY{second}", m.start(), m.end()))
    for m in _FY.finditer(text):
        out.append((f"FY{_year(m.group(1))}", m.start(), m.end()))
    for m in _MONTH_YEAR.finditer(text):
        if _NOT_A_MONTH_BEFORE.search(text[max(0, m.start() - 30) : m.start()]):
            continue
        month = _month(m.group("m") or m.group("m2"))
        year = _year(m.group("y4") or m.group("y2"))
        out.append((month_period(year, month), m.start(), m.end()))
    for d, start, end in find_dates(text):
        prefix = _AS_OF.search(text[max(0, start - 20) : start])
        if prefix is not None:
            start = max(0, start - 20) + prefix.start()
        out.append((f"as of {d.isoformat()}", start, end))
        # "as of December 31, 2025 and 2024": the years listed after a date are its day in them
        while (joined := _joined_year(text, end)) is not None:
            end = joined + 4
            if (day := _safe_date(int(text[joined:end]), d.month, d.day)) is not None:
                out.append((f"as of {day.isoformat()}", joined, end))
    return out


# A year as the forms in words write it ("2024", "’24", "Mar-25"), and how far a form reaches
# before and after it ("the last twelve months ended as of 31 December 2024")
_YEAR_ANCHOR = re.compile(rf"{_YEAR4}|['’\-/]\s*\d{{2}}(?!\d)")
_BEFORE_YEAR, _AFTER_YEAR = 90, 40


def _year_windows(text: str) -> list[tuple[int, int]]:
    """The stretches of `text` around its years, merged where they overlap."""
    out: list[tuple[int, int]] = []
    for m in _YEAR_ANCHOR.finditer(text):
        low, high = max(0, m.start() - _BEFORE_YEAR), min(len(text), m.end() + _AFTER_YEAR)
        if out and low <= out[-1][1]:
            out[-1] = (out[-1][0], high)
        else:
            out.append((low, high))
    return out


def _form_label(kind: str, values: dict[str, str]) -> str | None:
    """The label a language file's form reads: "third quarter of 2024" → "Q3 2024", "exercice
    clos le 30 septembre 2023" → "FY2023", "LTM March 2025" → "LTM Mar 2025"."""
    if kind in ("quarters", "halves", "years"):
        year = values.get("year") or str(_year(values.get("yy", "").strip("'’ \t")))
        if kind == "years":
            return f"FY{year}"
        n = int(values["n"]) if "n" in values else _ORDINAL_WORDS.get(values.get("nth", "").lower())
        last = 4 if kind == "quarters" else 2
        return f"{'Q' if kind == 'quarters' else 'H'}{n} {year}" if n and 1 <= n <= last else None
    if kind == "trailing":
        month = _month_of_text(values["month"])
        return f"LTM {month_period(*month)}" if month else None
    end = parse_date(values["date"])
    if end is None:
        return None
    if kind == "year_ended":
        return f"FY{end.year}"
    if kind == "quarter_ended":
        return f"Q{(end.month - 1) // 3 + 1} {end.year}"
    return f"H{end.month // 6} {end.year}" if end.month in (6, 12) else None


def _month_of_text(text: str) -> tuple[int, int] | None:
    """(year, month) of "31 March 2025", "March 2025" or "Mar-25"."""
    if (day := parse_date(text)) is not None:
        return day.year, day.month
    m = _MONTH_YEAR.search(text)
    if m is None:
        return None
    return _year(m.group("y4") or m.group("y2")), _month(m.group("m") or m.group("m2"))


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
    return list(_periods_in(text, bare_years))


@lru_cache(maxsize=4096)
def _periods_in(text: str, bare_years: bool) -> tuple[tuple[str, int, int], ...]:
    """`find_periods`, kept per text: a table's rows are read for their periods many times."""
    found = _candidates(text)
    if bare_years or _ANNUAL_WORDS.search(text):
        for m in _BARE_YEAR.finditer(text):
            found.append((f"FY{m.group(1)}", m.start(1), m.end(1)))
            found.extend(years_joined_after(text, m.end(1)))  # "in 2024 and 2025"
    if bare_years:
        # "beliefen sich 2025 bzw. 2024 auf …": years joined by the respective word between
        # them are a list of periods without a word before the first
        for m in YEAR.finditer(text):
            listed = years_joined_after(text, m.end(), respective=True)
            if listed:
                found.extend([(f"FY{m.group(1)}", m.start(1), m.end(1)), *listed])
    return tuple(_non_overlapping(found))


_LIST_JOINERS = frozenset(vocabulary().words("list_joiners"))  # "and", "or", "et", "und"
# "2025 bzw. 2024": the respective word between the items of each list (German)
RESPECTIVE_JOINERS = frozenset(vocabulary().words("respective_joiners"))
_JOINED_GAP = 6  # ", and " between two years of one list
_RESPECTIVE_GAP = 2 + max(map(len, RESPECTIVE_JOINERS), default=0)  # " beziehungsweise "


def years_joined_after(text: str, end: int, *, respective: bool = False
                        ) -> list[tuple[str, int, int]]:
    """The years listed after a year ending at `end` ("… 2025 and 2024", "… 2025 bzw. 2024"),
    each as a period; with `respective`, only a list whose joiner is the respective word."""
    found: list[tuple[str, int, int]] = []
    while (joined := _joined_year(text, end)) is not None:
        if respective and not found and \
                text[end:joined].strip(" ,").lower() not in RESPECTIVE_JOINERS:
            return []
        found.append((f"FY{text[joined:joined + 4]}", joined, joined + 4))
        end = joined + 4
    return found


def _joined_year(text: str, end: int) -> int | None:
    """Where the next year of a list of years starts ("2024 and 2025", "2023, 2024", "2025 bzw.
    2024"), if one follows `end` with only a comma or a joiner between."""
    at = end
    while at < len(text) and at - end <= max(_JOINED_GAP, _RESPECTIVE_GAP) and \
            not text[at].isdigit():
        at += 1
    year = text[at:at + 4]
    words = text[end:at].replace(",", " ").split()
    if at == end or len(year) < 4 or not year.isdigit() or text[at + 4:at + 5].isdigit() \
            or not 1900 <= int(year) <= 2100:
        return None
    listed = (len(words) == 1 and (words[0].lower() in RESPECTIVE_JOINERS or (
        words[0].lower() in _LIST_JOINERS and at - end <= _JOINED_GAP))) or (
        not words and "," in text[end:at] and at - end <= _JOINED_GAP)
    return at if listed else None


@lru_cache(maxsize=16384)
def parse_period(text: str) -> str | None:
    """Normalise one period phrase: "3Q24" → "Q3 2024", "fiscal year 2023" → "FY2023".

    A text that is only a year (a column header such as "2023", "2023A", "FY2025 Budget" or
    "Actual 2023") is an annual period, and so is a split year ("2023/24" → "FY2024", the year it
    ends in); a month ("Dec-23", "December 2023", "2023-12") is "Dec 2023"; otherwise the first
    period found in the text is returned. A whole cell "Apr 24" / "Dez 24" is a month too (a
    BWA's column), which running text never reads so ("May 24" there is a day).
    """
    header = _HEADER_YEAR.match(text) or _HEADER_YEAR.match(_HEADER_UNITS.sub(" ", text))
    if header is not None:
        return f"FY{header.group(1)}"
    spaced = _MONTH_SPACE_YEAR.match(text)
    if spaced is not None:
        return month_period(_year(spaced.group("y2")), _month(spaced.group("m")))
    numeric = _NUMERIC_MONTH.match(text)
    if numeric is not None:
        year = int(numeric.group("y4") or numeric.group("y4b"))
        return month_period(year, int(numeric.group("m") or numeric.group("m2")))
    periods = find_periods(text)
    return periods[0][0] if periods else None


# ---------------------------------------------------------------- arithmetic on periods

_M_RE = re.compile(r"^(" + "|".join(_MONTH_ABBREVIATIONS) + r") (\d{4})$")
_Q_RE = re.compile(r"^Q([1-4]) (\d{4})$")
_H_RE = re.compile(r"^H([12]) (\d{4})$")
_FY_RE = re.compile(r"^FY(\d{4})$")
_ASOF_RE = re.compile(r"^as of (\d{4})-(\d{2})-(\d{2})$")


def _as_of(period: str) -> date | None:
    m = _ASOF_RE.match(period)
    return _safe_date(int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def month_period(year: int, month: int) -> str:
    """The normal spelling of a month: "Dec 2023"."""
    return f"{_MONTH_ABBREVIATIONS[month - 1]} {year}"


def period_kind(period: str | None) -> str:
    """What kind of period: "month" for "Mar 2025", else its letters ("FY", "Q", "H", "LTM")."""
    if not period:
        return "?"
    if _M_RE.match(period):
        return "month"
    return period[:3].rstrip("0123456789 ") or "?"


def _month_of(period: str) -> tuple[int, int] | None:
    m = _M_RE.match(period)
    return (int(m.group(2)), _MONTH_ABBREVIATIONS.index(m.group(1)) + 1) if m else None


def period_end(period: str, fiscal_year_end: tuple[int, int] | None = None) -> date | None:
    """The last day a normalised period covers (a month's, quarter's, half's or year's end).

    `fiscal_year_end` is (month, day) of the company's year end, learned from its documents
    (see `manda.finance.fiscal`); "FY2024" then ends on that day of 2024, not on 31 December,
    and its quarters and halves are the fiscal year's ("Q1 2025" with a 31 March year end ends
    on 30 June 2024).
    """
    if (ym := _month_of(period)) is not None:
        return _month_end(*ym)
    if period.startswith("LTM ") and (ym := _month_of(period[4:])) is not None:
        return _month_end(*ym)
    if m := _FY_RE.match(period):
        if fiscal_year_end is not None:
            month, day = fiscal_year_end
            return _safe_date(int(m.group(1)), month, day) or _month_end(int(m.group(1)), month)
        return date(int(m.group(1)), 12, 31)
    if (m := _Q_RE.match(period)) or (m := _H_RE.match(period)):
        months = 3 if period[0] == "Q" else 6
        last = int(m.group(1)) * months  # month of the fiscal year the part ends in (1-12)
        year_end_month = fiscal_year_end[0] if fiscal_year_end else 12
        month = (year_end_month + last - 1) % 12 + 1  # the calendar month `last` falls in
        year = int(m.group(2)) - (1 if month > year_end_month else 0)
        return _month_end(year, month)
    return _as_of(period)


# a part of a year as Manda spells it, of a calendar or a fiscal year: "Q4 2025", "Q4 FY2025",
# "H1 2024"
_PART_OF_YEAR = re.compile(r"^[QH][1-4] (?:FY)?\d{4}$")


def is_part_of_year(period: str) -> bool:
    """A quarter or half of a year ("Q4 2025", "Q4 FY2025", "H1 2024"), not a year or a date."""
    return bool(_PART_OF_YEAR.match(period)) and not period.startswith(("H3", "H4"))


def quarters_in(text: str, years: set[int] | frozenset[int] = frozenset(),
                dated: Callable[[date], str] | None = None) -> set[str]:
    """The quarters and halves a text states: those it writes with their year ("Q3 2025",
    "third quarter of 2025"), and those it names without one ("the fourth quarter", "Q4",
    "three months ended December 31") as the quarter of each of `years` (the years the text or
    its document states).

    `dated` reads a quarter named by its last day ("the three months ended September 27,
    2025") as its document's fiscal year numbers it (`FiscalYearEnd.quarter_ended`): Q4 2025
    of a year that ends in late September, where the calendar's reading is Q3 2025."""
    found = [(p, a, b) for p, a, b in find_periods(text) if is_part_of_year(p)]
    out = {p for p, _, _ in found}
    if dated is not None:
        out = {_dated_part(p, text[a:b], dated) for p, a, b in found}
    for m in _ALONE.pattern.finditer(text):
        if any(a < m.end() and m.start() < b for _, a, b in found):
            continue  # the quarter of a year the text writes ("fourth quarter of 2024")
        _, values = _ALONE.read(m)
        if "monthday" in values:
            day = re.search(_MONTH, values["monthday"], _FLAGS)
            number = (_month(day.group(0)) - 1) // 3 + 1 if day else None
            if dated is not None and (last := find_dates(f"{values['monthday']}, 2000")):
                number = int(dated(last[0][0])[1])  # its fiscal quarter's number
        elif "n" in values:
            number = int(values["n"])
        else:
            number = _ORDINAL_WORDS.get(values.get("nth", "").lower())
        if number is not None and 1 <= number <= 4:
            out |= {f"Q{number} {year}" for year in years}
    return out


def _dated_part(period: str, said: str, dated: Callable[[date], str]) -> str:
    """A quarter as `dated` reads it where its words name its last day ("the quarter ended
    September 27, 2025"), else as read."""
    days = find_dates(said)
    return dated(days[-1][0]) if period.startswith("Q") and days else period


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
    if (ym := _month_of(period)) is not None:
        year, month = ym
        return month_period(year, month - 1) if month > 1 else month_period(year - 1, 12)
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
    if (ym := _month_of(period)) is not None:
        return month_period(ym[0] - 1, ym[1])
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


_GRANULARITY = {"Q": 1, "H": 2, "F": 3, "a": 4}


def period_sort_key(period: str | None) -> tuple[int, int, str]:
    """Chronological order by period end; unknown periods first, shorter periods before longer."""
    if not period:
        return (0, 0, "")
    end = period_end(period)
    if end is None:
        return (0, 0, period)
    granularity = 0 if _M_RE.match(period) else _GRANULARITY.get(period[0], 9)
    return (end.toordinal(), granularity, period)
