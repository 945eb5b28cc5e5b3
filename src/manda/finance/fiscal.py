"""The company's fiscal year: its year-end day, learned from the documents, and its periods.

"FY2024" is the fiscal year that ends in 2024 — 31 December for most German companies, 31 March
for many UK ones, 30 June or 30 September for many US ones. Documents state the year end in a
few fixed ways ("for the year ended 30 June 2024", "FY to 31 March", "Geschäftsjahr vom 1. Juli
bis 30. Juni", "fiscal year ending September 30"); each statement is a vote and the most frequent
day wins, so one passing "year ended 31 December" in a footnote cannot outvote a whole room.
"""

from __future__ import annotations

import calendar
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from manda.finance.periods import (
    LINK_BEFORE,
    MONTH,
    MONTHS,
    find_dates,
    month_period,
    parse_period,
    period_end,
)
from manda.vocabulary import vocabulary

__all__ = [
    "CALENDAR_YEAR",
    "FiscalYearEnd",
    "fiscal_label",
    "fiscal_period_of_column",
    "fiscal_year_named",
    "label_fiscal_parts",
    "learn_fiscal_year_end",
    "month_range_period",
    "year_reported",
]

_MONTH = MONTH
WEEK_YEAR_SLACK = 6  # days a 52/53-week fiscal year's last day lies from its nominal year end
# A day and a month, either order, year optional: "30 June", "June 30", "30.06.", "31/03".
_DAY_MONTH = (
    rf"(?:(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\.?\s+{LINK_BEFORE}(?P<m1>{_MONTH})"
    rf"|(?P<m2>{_MONTH})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?"
    rf"|(?P<d3>\d{{1,2}})[./](?P<m3>\d{{1,2}})[./]?)"
)
_V = vocabulary()
# a fiscal year named in words or by its abbreviation ("fiscal year", "Geschäftsjahres", "GJ")
_FISCAL_YEAR = "(?:{}|{})".format(
    "|".join(rf"\b{re.escape(w)}\b" for w in _V.words("fiscal_year_abbreviations")),
    _V.cues("fiscal_year_words").slot)
# a span's first day: "1. Juli 2023", "1 July 2023", "July 1, 2023", "01.04.2024"
_FIRST_DAY = (rf"(?:\d{{1,2}}[./]\d{{1,2}}[./](?:\d{{2}}|\d{{4}})?|"
              rf"\d{{1,2}}\.?\s+{_MONTH}\s*\d{{0,4}}|{_MONTH}\s+\d{{1,2}},?\s*\d{{0,4}})")
# How each language states its year end (`year_end_*` cue sets); a statement a trailing window
# leads ("the last twelve months to 30 September") is no year end (`_TRAILING`).
_STATEMENTS = [
    # year ended 30 June 2024 · financial year ending 31 March · Jahresabschluss zum 31. Dezember
    re.compile(rf"{_V.cues('year_end_lead').slot}\s*:?\s*{_DAY_MONTH}", re.IGNORECASE),
    # twelve months ended 31 March 2024 · 12 months to 30 June
    re.compile(rf"{_V.cues('year_end_months').slot}\s+{_DAY_MONTH}", re.IGNORECASE),
    # FY to 31 March · FY ending June 30 · financial year to 31 March · year to 31 March 2024
    re.compile(rf"{_V.cues('year_end_to').slot}\s+{_DAY_MONTH}", re.IGNORECASE),
    # Geschäftsjahr vom 1. Juli 2023 bis 30. Juni 2024 · Geschäftsjahr endet am 30. Juni
    re.compile(rf"{_FISCAL_YEAR}[^\n]{{0,50}}?{_V.cues('year_end_link').slot}\s+{_DAY_MONTH}",
               re.IGNORECASE),
    # Geschäftsjahr 01.04.2024 – 31.03.2025 · fiscal year: 1 July 2023 - 30 June 2024 (a span)
    re.compile(rf"{_FISCAL_YEAR}[^\n\d]{{0,20}}{_FIRST_DAY}\s*(?:[-–—]|"
               rf"{_V.cues('range_to').slot})\s*{_DAY_MONTH}", re.IGNORECASE),
]


# "LTM Mar-25 = twelve months to March 31, 2025": a definition of a trailing window, however
# it is punctuated, which can end in any month.
_TRAILING = re.compile(rf"{vocabulary().cues('trailing_window').slot}[^.;\n]{{0,20}}$",
                       re.IGNORECASE)
# "Q1 FY25 = Jul–Sep 2024", "Q1 FY2025 (July to September 2024)": the first quarter of a fiscal
# year begins the month after the year end.
_RANGE_TO = rf"(?:[-–—]|{_V.cues('range_to').slot})"  # "Jul–Sep", "July to September", "bis"
_FIRST_QUARTER = re.compile(
    rf"\bQ1\s*FY\s*['’]?\s*\d{{2,4}}\s*(?:=|:|\(|{_V.cues('span_is').slot})?\s*"
    rf"(?P<m>{_MONTH})\s*{_RANGE_TO}\s*{_MONTH}", re.IGNORECASE)


@dataclass(frozen=True)
class FiscalYearEnd:
    """The last day of the company's fiscal year, as (month, day)."""

    month: int
    day: int

    @property
    def is_calendar(self) -> bool:
        return (self.month, self.day) == (12, 31)

    @property
    def key(self) -> tuple[int, int]:
        return (self.month, self.day)

    def __str__(self) -> str:
        return f"{self.day} {date(2000, self.month, 1):%B}"

    def iso(self) -> str:
        """`--06-30`, the ISO 8601 spelling of a day in every year (what gets stored)."""
        return f"--{self.month:02d}-{self.day:02d}"

    @classmethod
    def from_iso(cls, text: str) -> FiscalYearEnd:
        month, day = text.removeprefix("--").split("-")
        return cls(int(month), int(day))

    def end_of(self, fiscal_year: int) -> date:
        """The last day of FY`fiscal_year` (the fiscal year that ends in that calendar year)."""
        try:
            return date(fiscal_year, self.month, self.day)
        except ValueError:  # 29 February in a year that has none
            return date(fiscal_year, self.month, 28)

    def fiscal_year_of(self, day: date) -> int:
        """The fiscal year a day belongs to: with a 30 June year end, 15 Dec 2023 is in FY2024."""
        return day.year if (day.month, day.day) <= self.key else day.year + 1

    def quarter_of(self, day: date) -> str:
        """The fiscal quarter a day falls in ("Q3 2025"): with a 27 September year end, May
        2025 is in Q3 of FY2025; in a calendar year, in Q2 2025."""
        offset = (day.month - (self.month % 12 + 1)) % 12
        return f"Q{offset // 3 + 1} {self.fiscal_year_of(day)}"

    def quarter_ended(self, day: date) -> str:
        """The fiscal quarter that ends on `day`, named as the fiscal year is ("fiscal 2025"):
        with a 30 June year end, the quarter ended 30 September 2023 is Q1 2024. A 52/53-week
        year's quarters end on a weekday near a month's end ("March 29, 2025", "May 3, 2025"),
        and so may its year end ("February 1, 2025" for a January year end): each is read as
        the month end it stands for. A retail year that ends in January is named by the year it
        starts in, as `fiscal_year_named` reads it (the quarter ended 3 May 2025 is Q1 2025)."""
        month_end, year_end_month = _nominal_month(day), _nominal_month(
            date(2000, self.month, self.day))
        offset = (month_end.month - (year_end_month.month % 12 + 1)) % 12
        year = month_end.year + (1 if month_end.month > year_end_month.month else 0)
        last = calendar.monthrange(year, year_end_month.month)[1]
        return f"Q{offset // 3 + 1} {fiscal_year_named(date(year, year_end_month.month, last))}"

    def ends_quarter(self, day: date) -> bool:
        """`day` is a fiscal quarter's last day, or a 52/53-week quarter's near its month end
        ("September 30, 2023" with a 30 June year end; "August 15" never)."""
        month_end = _nominal_month(day)
        if abs((month_end - day).days) > WEEK_YEAR_SLACK:
            return False
        year_end_month = _nominal_month(date(2000, self.month, self.day)).month
        return (month_end.month - year_end_month) % 3 == 0

    def nominal_end_near(self, day: date) -> date | None:
        """The nominal year end a 52/53-week year's last day stands for: such years end on a
        weekday within a week of it (Apple's "September 30, 2023" for a 24 September year end,
        a retailer's "February 3, 2024" for 31 January)."""
        for year in (day.year - 1, day.year, day.year + 1):
            last = calendar.monthrange(year, self.month)[1]
            end = date(year, self.month, min(self.day, last))
            if abs((day - end).days) <= WEEK_YEAR_SLACK:
                return end
        return None

    def is_year_end(self, day: date) -> bool:
        """The year-end day itself, or the month's last day for a month-end year end."""
        return (day.month, day.day) == self.key or (
            day.month == self.month and self.day >= 28 and day == period_end(
                month_period(day.year, day.month))
        )


CALENDAR_YEAR = FiscalYearEnd(12, 31)


def _nominal_month(day: date) -> date:
    """The month end a period's last day stands for: a day in a month's first week ends the
    month before (a 52/53-week period's "May 3"), any other day its own month."""
    if day.day <= WEEK_YEAR_SLACK + 1:
        day = day.replace(day=1) - timedelta(days=1)
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])
ANNUAL_REPORT_LAG_DAYS = 120  # an annual report is dated at its year end or within 4 months


def fiscal_year_named(day: date) -> int:
    """The fiscal year a year end names: a year that ends in January or the first days of
    February (a retail calendar) is named by the calendar year it starts in ("fiscal 2022" is
    the year ended 28 January 2023); any other by the year it ends in."""
    if day.month == 1 or (day.month == 2 and day.day <= WEEK_YEAR_SLACK + 1):
        return day.year - 1
    return day.year


def year_reported(dated: date, year_end: FiscalYearEnd) -> str | None:
    """The fiscal year an annual report of `dated` reports, as a person names it: "year ended
    31 Jan 2026" when it is dated at a year end (a 52/53-week year's last day too), "year
    ended Sep 2023" when dated in the months after one (a filing's date); None when dated too
    far from any year end to say."""
    if year_end.nominal_end_near(dated) is not None:
        return f"year ended {dated.day} {dated:%b %Y}"
    last = year_end.end_of(year_end.fiscal_year_of(dated) - 1)
    if 0 < (dated - last).days <= ANNUAL_REPORT_LAG_DAYS:
        return f"year ended {last:%b %Y}"
    return None


def _day_month(m: re.Match[str]) -> tuple[int, int] | None:
    g = m.groupdict()
    try:
        if g.get("d1"):
            day, month = int(g["d1"]), MONTHS[g["m1"].lower().rstrip(".")]
        elif g.get("d2"):
            day, month = int(g["d2"]), MONTHS[g["m2"].lower().rstrip(".")]
        else:
            day, month = int(g["d3"]), int(g["m3"])
        date(2000, month, day)  # 29 February is a valid year end in a leap year
    except (KeyError, ValueError, TypeError):
        return None
    return month, day


def year_end_statements(text: str) -> list[FiscalYearEnd]:
    """Every fiscal-year end `text` states, in reading order."""
    found: list[tuple[int, FiscalYearEnd]] = []
    for pattern in _STATEMENTS:
        for m in pattern.finditer(text):
            day_month = _day_month(m)
            if day_month is not None and not _TRAILING.search(text[max(0, m.start() - 30):
                                                                    m.start()]):
                found.append((m.start(), FiscalYearEnd(*day_month)))
    for m in _FIRST_QUARTER.finditer(text):
        last = (MONTHS[m.group("m").lower().rstrip(".")] - 2) % 12 + 1
        found.append((m.start(), FiscalYearEnd(last, calendar.monthrange(2001, last)[1])))
    return [fye for _, fye in sorted(found, key=lambda t: t[0])]


def learn_fiscal_year_end(texts: Iterable[str]) -> FiscalYearEnd | None:
    """The year end most often stated across `texts`; None when none states one."""
    votes: Counter[FiscalYearEnd] = Counter()
    for text in texts:
        votes.update(year_end_statements(text))
    if not votes:
        return None
    return max(votes.items(), key=lambda kv: (kv[1], kv[0].is_calendar))[0]


_MONTH_RANGE = re.compile(
    rf"(?<![\w])(?P<m1>{_MONTH})\s*(?:[-'’ ]?\s*(?P<y1>(?:19|20)\d{{2}})\s*)?"
    rf"{_RANGE_TO}\s*(?P<m2>{_MONTH})\s*[-'’ ]?\s*"
    rf"(?P<y>(?:19|20)\d{{2}}|\d{{2}})(?![\w])",
    re.IGNORECASE,
)


def month_range_period(text: str, fiscal_year_end: FiscalYearEnd | None = None) -> str | None:
    """A span of months as a period of the fiscal year: "Apr–Jun 2024" is Q2 2024 in a calendar
    year and Q1 2025 (of FY2025) with a 31 March year end; six months are a half, twelve a year
    ("Apr 2024–Mar 2025" with a 30 June year end is "LTM Mar 2025").
    """
    m = _MONTH_RANGE.search(text)
    if m is None:
        return None
    first = MONTHS[m.group("m1").lower().rstrip(".")]
    last = MONTHS[m.group("m2").lower().rstrip(".")]
    year = int(m.group("y")) if len(m.group("y")) == 4 else 2000 + int(m.group("y"))
    length = (last - first) % 12 + 1
    if m.group("y1"):  # "Apr 2024–Mar 2025": both years stated, so the span may be a year
        length = (year * 12 + last) - (int(m.group("y1")) * 12 + first) + 1
        if length != 12:
            return None
    fye = fiscal_year_end or CALENDAR_YEAR
    start_month = fye.month % 12 + 1
    offset = (first - start_month) % 12
    fiscal_year = fye.fiscal_year_of(date(year, last, 1))
    if length == 12 and offset == 0:
        return f"FY{fiscal_year}"
    if length == 12:  # twelve months that are not a fiscal year: the trailing twelve months
        return f"LTM {month_period(year, last)}"
    if length == 6 and offset % 6 == 0:
        return f"H{offset // 6 + 1} {fiscal_year}"
    if length == 3 and offset % 3 == 0:
        return f"Q{offset // 3 + 1} {fiscal_year}"
    return None


def fiscal_period_of_column(header: str, fiscal_year_end: FiscalYearEnd | None, *,
                            flow: bool) -> str | None:
    """The period a column header names, read with the company's fiscal year.

    "2023", "FY23", "2022/23" are fiscal years as parse_period reads them. A date header
    ("30 June 2024", "31.03.2024") is a balance-sheet date for a stock (cash, debt), but for a
    flow (revenue, EBITDA) it can only mean the period that ends there: the fiscal year when the
    date is the year end (or the header says "year ended"), the month when it is a month's first
    day (how spreadsheets store a month column: 2024-04-01 is April 2024).
    """
    fye = fiscal_year_end or CALENDAR_YEAR
    ranged = month_range_period(header, fye)
    if ranged is not None:
        return ranged
    period = parse_period(header)
    if (stacked := _month_under_band(header, period)) is not None:
        return stacked
    if period is None or not flow or not period.startswith("as of"):
        return period
    dates = find_dates(header)
    if not dates:
        return period
    day = dates[0][0]
    if fye.is_year_end(day) or _YEAR_HEADER.found(header):
        return f"FY{fye.fiscal_year_of(day)}"
    if day.day == 1:  # a spreadsheet's month column holds the month's first day (2024-04-01)
        return month_period(day.year, day.month)
    if (end := fye.nominal_end_near(day)) is not None:
        return f"FY{fye.fiscal_year_of(end)}"
    return period


# a column header that names a whole year ("Year to 31 March 2024", "Jahr")
_YEAR_HEADER = vocabulary().cues("year_header")
_PART_OF_YEAR = re.compile(r"^[QH][1-4] ")


def _month_under_band(header: str, period: str | None) -> str | None:
    """A month column under a quarter's or half's band ("Q1 FY25" over "2024-02-29", read as
    one header): the month whose first or last day the column names, not the quarter."""
    dates = find_dates(header)
    if period is None or not _PART_OF_YEAR.match(period) or len(dates) != 1:
        return None
    day = dates[0][0]
    last = calendar.monthrange(day.year, day.month)[1]
    return month_period(day.year, day.month) if day.day in (1, last) else None


# Manda's own spelling of a part of a year ("Q2 2025", "H1 2025"), not inside a word or a label
# that already says "FY", nor inside a quotation or a citation (a document's own words)
_PART = re.compile(r"(?<![\w-])(?P<part>[QH][1-4]) (?P<year>(?:19|20)\d{2})(?![\w-])")
_KEPT = re.compile(r"“[^”]*”|\(sources?: [^()]*(?:\([^()]*\)[^()]*)*\)|`[^`]*`")


def fiscal_label(period: str, fiscal_year_end: FiscalYearEnd | None) -> str:
    """"Q2 2025" → "Q2 FY2025" where the fiscal year does not end on 31 December: a banker
    reads a bare "Q2 2025" as April-June 2025, which a June year end's Q2 is not."""
    if fiscal_year_end is None or fiscal_year_end.is_calendar:
        return period
    return _PART.sub(lambda m: f"{m['part']} FY{m['year']}", period)


def label_fiscal_parts(text: str, fiscal_year_end: FiscalYearEnd | None) -> str:
    """Every fiscal quarter and half an answer states, written as the fiscal year's
    (`fiscal_label`); quotations and citations stay as their documents wrote them."""
    if fiscal_year_end is None or fiscal_year_end.is_calendar:
        return text
    out: list[str] = []
    at = 0
    for kept in _KEPT.finditer(text):
        out.append(fiscal_label(text[at : kept.start()], fiscal_year_end))
        out.append(kept.group(0))
        at = kept.end()
    out.append(fiscal_label(text[at:], fiscal_year_end))
    return "".join(out)
