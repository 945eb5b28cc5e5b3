"""Whether two stated values of one metric can disagree at all, or measure different things.

Two documents that give EBITDA as 860 and 200,000 for the same period do not conflict: one of them
is read at another scale (a "$000" table taken as dollars) or covers another scope. A real
disagreement between documents is a revision or an estimate, never two orders of magnitude.
"""

from __future__ import annotations

import re

COMPARABLE_RATIO = 50.0  # beyond this, values are at different scales or scopes


def comparable(a: float | None, b: float | None, unit_a: str | None = None,
               unit_b: str | None = None) -> bool:
    """Can `a` and `b` be two statements of the same figure (same unit, same order)?"""
    if a is None or b is None:
        return False
    if unit_a and unit_b and unit_a != unit_b:
        return False
    if a == 0 or b == 0:
        return True
    if (a < 0) != (b < 0):
        return True  # a profit and a loss disagree, whatever their size
    ratio = abs(a) / abs(b) if abs(a) >= abs(b) else abs(b) / abs(a)
    return ratio < COMPARABLE_RATIO


_FILLER = {"total", "group", "consolidated", "reported", "the", "of", "and", "&", "in", "at"}


def _line_words(row: str) -> frozenset[str]:
    without = re.sub(r"\([^)]*\)", " ", row.lower())  # "Net debt (negative = net cash)"
    return frozenset(w for w in re.findall(r"[a-zà-ÿ0-9]+", without) if w not in _FILLER)


def different_line_items(row_a: str | None, row_b: str | None) -> bool:
    """Two table rows that name different things ("Net debt" and "Net debt including leases",
    "Term loan" and "Bank loans and overdrafts") are two figures, not two statements of one."""
    if not row_a or not row_b:
        return False
    a, b = _line_words(row_a), _line_words(row_b)
    return bool(a) and bool(b) and a != b
