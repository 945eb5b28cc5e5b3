"""What a growth rate compares against: the same period a year earlier (year-on-year) or the
period just before (quarter-on-quarter, month-on-month). Two growth rates on different bases are
different facts, so they are never set against each other as a conflict."""

from __future__ import annotations

import re
from typing import Literal

from manda.vocabulary import vocabulary

Basis = Literal["yoy", "pop", ""]

_WORDS = vocabulary()
# "year on year", "vs prior year", "gegenüber Vorjahr", "sur un an", "interanual"
_YOY = _WORDS.cues("growth_year_on_year")
# "quarter on quarter", "sequentially", "Vorquartal", "trimestre précédent"
_POP = _WORDS.cues("growth_period_on_period")
_QUARTER = re.compile(r"\bQ([1-4])\s*[-/]?\s*((?:19|20)\d\d)\b", re.IGNORECASE)
# "compared with Q3 2023", "gegenüber Q3 2023": the quarter a rate is measured against
_COMPARED = _WORDS.cues("growth_compared").around(
    tail=r"\s+[Qq]([1-4])\s*[-/]?\s*((?:19|20)\d\d)")


_NEXT_RATE = re.compile(r"\d+(?:[.,]\d+)?\s?%")


def growth_basis(text: str, period: str | None, value_text: str | None = None) -> Basis:
    """The basis a growth rate in `text` (stated for `period`) is measured on; "" when unsaid.

    With `value_text`, the words right after that rate (up to the next rate) decide first, so
    "4% quarter on quarter and 18% year on year" gives each rate its own basis."""
    at = text.find(value_text) if value_text else -1
    if at >= 0:
        after = text[at + len(value_text or "") :]
        following = _NEXT_RATE.search(after)
        near = _basis_in(after[: following.start()] if following else after, period)
        if near:
            return near
    return _basis_in(text, period)


def _basis_in(text: str, period: str | None) -> Basis:
    if _YOY.search(text):
        return "yoy"
    if _POP.search(text):
        return "pop"
    own = _QUARTER.search(period or "")
    other = _COMPARED.search(text)
    if own and other:
        quarter, year = int(own.group(1)), int(own.group(2))
        then_quarter, then_year = int(other.group(1)), int(other.group(2))
        if then_quarter == quarter and then_year == year - 1:
            return "yoy"
        if (then_year * 4 + then_quarter) == (year * 4 + quarter) - 1:
            return "pop"
    return ""
