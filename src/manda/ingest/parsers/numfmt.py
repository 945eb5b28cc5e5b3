"""Spreadsheet cell values as Excel displays them: `4,600`, `38%`, `€1,250.50`, `(2,800)`.

Number formats are read the way Excel applies them: decimals, thousands grouping, percent,
literal text around the number (currency symbols, parentheses, `x`), and the negative
section when there is one (`#,##0;(#,##0)` shows -2800 as `(2,800)`). Deliberate
differences: a zero is always shown as a number (accounting formats would show `-`), the
thousands scaling of a trailing comma (`#,##0,`) is not applied so the cell's own value shows,
and fills, colours and conditions are ignored. Numbers without a format are shown without
float noise (4600.0 -> `4600`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

# One token of a format section: "quoted", \escaped, _padding, *fill, [bracket] or a character.
_TOKEN = re.compile(r'"([^"]*)"|\\(.)|_(.)|\*(.)|\[([^\]]*)\]|(.)', re.DOTALL)
_QUOTED = re.compile(r'"[^"]*"')
_PLACEHOLDERS = "0#?"
_GROUPING = re.compile(r"[0#?],[0#?]")
_DECIMALS = re.compile(r"\.([0#?]+)")


def display_value(value: object, number_format: str | None = None) -> str:
    """A cell's value on one line, numbers formatted by the cell's number format."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return format_number(value, number_format)
    if isinstance(value, datetime):
        if value.time() == time(0, 0):
            return value.date().isoformat()
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, time):
        return value.strftime("%H:%M") if value.second == 0 else value.strftime("%H:%M:%S")
    if isinstance(value, timedelta):
        return str(value)
    return " ".join(str(value).split())


def plain_number(value: float | int) -> str:
    """The number without float noise: 4600.0 -> `4600`, 0.1 + 0.2 -> `0.3`."""
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    text = f"{value:.12g}"
    if "e" in text:
        text = format(Decimal(text), "f")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class _Section:
    """One `;`-separated section of a number format, reduced to what the display needs."""

    before: str  # literal text before the digits
    after: str  # literal text after the digits
    has_digits: bool
    percent: bool
    decimals: int
    grouping: bool
    scientific: bool


def format_number(value: float | int, number_format: str | None) -> str:
    """The number as Excel shows it with `number_format` (see the module notes)."""
    sections = _sections(number_format or "General")
    first = sections[0]
    if value < 0 and len(sections) > 1 and sections[1].has_digits:
        return _apply(sections[1], abs(value))
    if value < 0:
        text = _apply(first, abs(value))
        return f"-{text}" if _nonzero(text) else text
    return _apply(first, value)


def _nonzero(text: str) -> bool:
    return any(ch in "123456789" for ch in text)


def _apply(section: _Section, value: float | int) -> str:
    number = value * 100 if section.percent else value
    if not section.has_digits or not math.isfinite(number):
        body = plain_number(number)
    elif section.scientific:
        body = f"{number:.{section.decimals}E}"
    else:
        # Excel rounds halves away from zero (3038.5 -> 3,039), Python's format to even.
        step = Decimal(1).scaleb(-section.decimals)
        rounded = Decimal(repr(number)).quantize(step, ROUND_HALF_UP)
        body = f"{rounded:,.{section.decimals}f}" if section.grouping \
            else f"{rounded:.{section.decimals}f}"
    if body.startswith("-") and not _nonzero(body):
        body = body[1:]  # -0.00 after rounding
    return f"{section.before}{body}{section.after}".strip()


@lru_cache(maxsize=512)
def _sections(number_format: str) -> tuple[_Section, ...]:
    return tuple(_parse_section(part) for part in _split_sections(number_format))


def _split_sections(number_format: str) -> list[str]:
    """Split on `;` outside quotes."""
    masked = _QUOTED.sub(lambda m: "x" * len(m.group(0)), number_format)
    parts: list[str] = []
    start = 0
    for i, ch in enumerate(masked):
        if ch == ";":
            parts.append(number_format[start:i])
            start = i + 1
    parts.append(number_format[start:])
    return parts


def _parse_section(section: str) -> _Section:
    if section.strip().lower() == "general":
        return _Section("", "", False, False, 0, False, False)
    before: list[str] = []
    digits: list[str] = []
    pending: list[str] = []  # literal text after a digit, unless more digits follow
    for match in _TOKEN.finditer(section):
        quoted, escaped, padding, fill, bracket, char = match.groups()
        if char is not None and char in _PLACEHOLDERS:
            digits.extend(pending)
            pending = []
            digits.append(char)
            continue
        if char is not None and char in ".,Ee+-" and digits:
            pending.append(char)
            continue
        literal = _literal(quoted, escaped, padding, fill, bracket, char)
        (pending if digits else before).append(literal)
    core = "".join(digits)
    after = "".join(ch for ch in "".join(pending) if ch not in ".,")
    text = "".join(before) + after
    decimals = _DECIMALS.search(core)
    return _Section(
        before="".join(before),
        after=after,
        has_digits=bool(digits),
        percent="%" in text,
        decimals=len(decimals.group(1)) if decimals else 0,
        grouping=_GROUPING.search(core) is not None,
        scientific="E" in core.upper(),
    )


def _literal(quoted: str | None, escaped: str | None, padding: str | None, fill: str | None,
             bracket: str | None, char: str | None) -> str:
    if quoted is not None:
        return quoted
    if escaped is not None:
        return escaped
    if padding is not None:
        return " "
    if fill is not None:
        return ""
    if bracket is not None:  # [$€-407] is a currency; [Red], [>=100] and [$-409] show nothing
        if bracket.startswith("$"):
            return bracket[1:].split("-", 1)[0]
        return ""
    return "" if char in (None, "@") else char
