"""A statement row's figures as the statement means them: its caption's scale, signs and blanks.

"(In millions, except number of shares, which are reflected in thousands, and per-share amounts)"
above a statement makes `416,161` $416.2 billion, `$7.46` of a per-share row $7.46, and
`15,004,697` of a shares row 15.0 billion shares. Parentheses are negative, an em dash is "none"
(not zero), and a stated amount never reads as 0.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from manda.finance.amounts import (
    currency_from_text,
    parse_cell,
    scale_from_text,
    unit_line_scale,
)
from manda.finance.periods import find_dates
from manda.text import YEAR
from manda.vocabulary import vocabulary
from manda.vocabulary.numbers import (
    CURRENCY_WORDS,
    alternatives,
    number_words,
    scale_phrases,
    unit_lead,
)

__all__ = ["Figure", "StatementScale", "column_date", "column_header_line", "column_year",
           "ends_in_figure", "figure_row", "joined_signs", "lone_cell", "read_figure",
           "statement_scale", "states_the_whole"]

_WORDS = vocabulary()
# a scale word of any language, by its factor ("thousands": 1e3, "Millionen", "milliers")
_SCALES = {w.lower(): float(factor) for lang in number_words()
           for factor, words in lang.scales.items() for w in words}
# a caption line that announces the figures' unit: "(In millions, except per share data)",
# "(dollars in thousands)", "(in millions)", "(en milliers d'euros)": a unit lead and a scale
# word, or a scale word opening the brackets, after a currency or none
_UNIT_LINE = re.compile(
    rf"{scale_phrases().slot}|\((?:\$\s*|(?:{alternatives(CURRENCY_WORDS)})\s+)?"
    rf"(?:{unit_lead()}\s+)?(?:{alternatives(_SCALES)})(?!\w)", re.IGNORECASE)
_PER_SHARE = _WORDS.cues("per_share_row")  # "Diluted EPS", "Résultat par action"
# an award's figure for one unit: "Weighted-Average Exercise Price", "Grant Date Fair Value"
_PER_UNIT = _WORDS.cues("per_unit_column")
_SHARES = _WORDS.cues("shares_row")  # "Shares used in computing earnings per share"
# "number of shares, which are reflected in thousands": a shares row's own scale
_SHARES_SCALE = re.compile(rf"{_SHARES.slot}[^.;)]{{0,60}}?(?<!\w)(?:{unit_lead()})\s+"
                           rf"(?P<scale>{alternatives(_SCALES)})(?!\w)", re.IGNORECASE)
_COUNT_ROW = _WORDS.cues("count_row")  # a row that counts (employees, stores): no currency
_EXCEPT = _WORDS.cues("per_share_excepted")  # "except per share data"
_NONE = {"—", "–", "-", "—%", "n/a", "nm", "*"}


@dataclass(frozen=True)
class StatementScale:
    """What a statement's caption says of its figures."""

    line: str  # the caption line as written ("" when none was found)
    factor: float  # 1e6 for "in millions"
    currency: str | None
    per_share_excepted: bool  # "except per share data": per-share rows are as written
    shares_factor: float | None  # "shares in thousands": a shares row's own scale
    # a common-size table ("Revenue 100.0 % … Cost of revenue 51.4"): each figure a percentage
    # of its base row, whatever unit line stands above it
    shares_of_whole: bool = False


def statement_scale(lines: list[str]) -> StatementScale:
    """The unit line nearest the end of `lines` (the lines above a table), read."""
    for line in reversed(lines):
        if len(line) < 200 and (_UNIT_LINE.search(line) or unit_line_scale(line) != 1.0):
            shares = _SHARES_SCALE.search(line)
            return StatementScale(
                line=line.strip(),
                factor=scale_from_text(line),
                currency=currency_from_text(line),
                per_share_excepted=_EXCEPT.found(line),
                shares_factor=_SCALES[shares.group("scale").lower()] if shares else None,
            )
    return StatementScale("", 1.0, None, False, None)


@dataclass(frozen=True)
class Figure:
    """One cell of a statement row, read."""

    written: str  # as the cell states it: "(1,337)", "$7.46", "—"
    value: float | None  # in units (dollars, shares, percent points); None for "none"
    unit: str | None  # "USD", "%", "shares" or None for a plain count
    column: str  # the column header: "2025", "September 27,2025"

    @property
    def none(self) -> bool:
        return self.value is None

    def shown(self) -> str:
        """How a deal team reads it: "$416.2 billion", "(4)%" as "-4%", "none" for a dash."""
        if self.value is None:
            return "none"
        if self.unit == "%":
            return f"{_trim(self.value, 1)}%"
        magnitude = abs(self.value)
        sign = "-" if self.value < 0 else ""
        symbol = "$" if self.unit == "USD" else ("" if self.unit in (None, "shares")
                                                 else f"{self.unit} ")
        for factor, word in ((1e9, "billion"), (1e6, "million")):
            if magnitude >= factor:
                if factor == 1e9 and magnitude >= 1e10:  # $416.2 billion, $65.6 billion
                    digits = f"{_half_up(magnitude / factor, '0.1'):,.1f}"
                else:
                    digits = f"{_half_up(magnitude / factor):,.2f}"
                    digits = digits[:-1] if digits.endswith("0") else digits  # 307.00 → 307.0
                number = f"{sign}{symbol}{digits} {word}"
                return f"{number} shares" if self.unit == "shares" else number
        number = f"{sign}{symbol}{_trim(magnitude, 2)}"
        return f"{number} shares" if self.unit == "shares" else number


def _half_up(value: float, places: str = "0.01") -> Decimal:
    """Rounded as a person rounds: 12.715 → 12.72."""
    return Decimal(repr(value)).quantize(Decimal(places), rounding=ROUND_HALF_UP)


def _trim(value: float, decimals: int) -> str:
    text = f"{value:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def read_figure(cell: str, column: str, label: str, scale: StatementScale, *,
                table_currency: str | None = None) -> Figure | None:
    """The cell's figure at the statement's scale, or None when the cell is no figure."""
    text = cell.strip()
    if not text:
        return None
    if text in _NONE or text.replace(" ", "").lstrip("$€£") in _NONE:  # "$ —" is none too
        return Figure(text, None, None, column)
    percent = text.endswith("%") or text.endswith("%)")
    amount = parse_cell(text.replace("%", "").replace("$", "").strip())
    if amount is None:
        return None
    value = amount.value
    if percent or scale.shares_of_whole:
        return Figure(text, value, "%", column)
    shares = bool(_SHARES.search(label))  # "Shares used in computing earnings per share"
    per_share = bool(_PER_SHARE.search(label) or _PER_UNIT.search(label)) and not shares
    if per_share:
        factor = 1.0 if scale.per_share_excepted or "." in text else scale.factor
    elif shares:
        factor = scale.shares_factor or scale.factor
    else:
        factor = scale.factor
    if _in_units(text):
        factor = 1.0  # "78509000000.0": a tagged value in units, whatever caption is near
    currency = None if shares or (_COUNT_ROW.search(label) and not per_share) else (
        "USD" if "$" in text else (scale.currency or table_currency))
    unit = "shares" if shares else currency
    scaled = value * factor
    if scaled == 0 and re.search(r"[1-9]", text):
        scaled = value  # a stated amount never reads as zero
    return Figure(text, scaled, unit, column)


def states_the_whole(figures: Sequence[str]) -> bool:
    """A common-size table's base row: it states 100% in every column of figures ("Revenue
    100.0 % 100.0 %"), so the rows beside it are shares of it, not amounts."""
    cells = [f.replace(" ", "") for f in figures if f.strip()]
    return len(cells) >= 2 and all(
        c.endswith("%") and c.rstrip("%") in ("100", "100.0", "100.00") for c in cells)


_UNITS_DIGITS = 7  # a statement at a scale prints no unseparated figure this long


def _in_units(text: str) -> bool:
    """A figure written in full units with no thousands separator ("78509000000.0", as tagged
    data prints it): no statement's scale applies to it."""
    whole, point, fraction = text.strip("()$€£- ").partition(".")
    return bool(point) and fraction.isdigit() and whole.isdigit() and len(whole) >= _UNITS_DIGITS


def column_year(header: str) -> int | None:
    """The year a column header names: "2025", "September 27,2025", "Dec. 31, 2024"."""
    years = [int(m.group(0)) for m in YEAR.finditer(header)]
    return years[-1] if years else None


def column_date(header: str) -> date | None:
    dates = find_dates(header.replace(",2", ", 2"))
    return dates[-1][0] if dates else None


# a figure cell of a table whose column gaps were lost: "$29,046", "(408)", "3.73%", "$—"
_CELL = r"(?:-?\$?\(?-?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?%?|-?\$?\(?-?\d+(?:\.\d+)?\)?%?|\$?[—–]%?)"
_ONE_CELL = re.compile(rf"^{_CELL}$")
_ENDS_IN_CELL = re.compile(rf"(?:^|\s){_CELL}\s*$")
_YEAR_HEADER = re.compile(r"(?:FY\s?)?(?:19|20)\d{2}")


# "$ (1,009,359)", "$ 27", "$ —": a statement's currency sign set apart from its figure
_SPACED_SIGN = re.compile(r"(?<![\w$€£])([$€£])[ \t]+(?=[(\d—–])")


def joined_signs(text: str) -> str:
    """A statement's figures with their currency signs joined to them ("$ (1,009,359)" is
    "$(1,009,359)", "$ —" is "$—"), so each reads as one figure cell."""
    return _SPACED_SIGN.sub(r"\1", text)


def lone_cell(text: str) -> bool:
    """The text is one figure cell and nothing else: "352583000000.0", "(408)", "—"."""
    return bool(_ONE_CELL.match(text.strip()))


def note_mark(token: str) -> bool:
    """A footnote's number in brackets after a row's label ("Other commitments (3) 2,956 …"),
    which reads as a cell of (3) where the row's cells are counted from its end."""
    return 3 <= len(token) <= 4 and token[0] == "(" and token[-1] == ")" and token[1:-1].isdigit()


def opens_with_note_mark(line: str) -> bool:
    """A footnote under a table: the line opens with a note's mark in brackets, a number or one
    or two small letters ("(b)Calculated using the effective tax rates …", "(2) Includes …")."""
    text = line.lstrip()
    close = text.find(")")
    mark = text[1:close]
    return text.startswith("(") and 2 <= close <= 3 and (
        mark.isdigit() or (mark.isalpha() and mark.islower()))


def ends_in_figure(line: str) -> bool:
    """The line's last word is a figure cell: "… securities $106,493"."""
    return bool(_ENDS_IN_CELL.search(line))


def figure_row(line: str) -> bool:
    """A line ending in a run of figure cells (a table row that lost its column gaps): two with
    digits, or three of any ("—" too): "Money market funds $29,046 $— $29,046"."""
    run = []
    for token in reversed(line.split()):
        if not _ONE_CELL.match(token):
            break
        run.append(token)
    return len(run) >= 3 or sum(1 for t in run if any(c.isdigit() for c in t)) >= 2


def column_header_line(line: str) -> bool:
    """A line that is one column's header and nothing else: "2023-09-30", "2025", "FY2024"."""
    text = line.strip()
    if not text or len(text) > 20:
        return False
    return bool(_YEAR_HEADER.fullmatch(text)) or (
        column_date(text) is not None and sum(c.isalpha() for c in text) <= 9)
