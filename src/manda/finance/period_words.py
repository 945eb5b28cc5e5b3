"""Periods written in any language the vocabulary knows, read into Manda's labels.

`manda.finance.periods` reads the forms of English documents ("Q3 2024", "3Q24", "fiscal year
2023"); each language file's `periods` adds its own ("T3 2024", "tercer trimestre de 2024",
"3. Quartal 2024", "exercice 2023"), so an answer in French or Spanish names its periods as the
gate reads them.
"""

from __future__ import annotations

import re
from functools import cache

from manda.finance.periods import find_periods
from manda.vocabulary import vocabulary

_PLACEHOLDER = re.compile(r"(\{n\}|\{nth\}|\{year\})")


def periods_in(text: str, *, bare_years: bool = False) -> list[tuple[str, int, int]]:
    """Every period `text` states, as Manda's label with its span, in reading order: the
    English forms of `find_periods` and every language file's forms."""
    found = list(find_periods(text, bare_years=bare_years))
    for prefix, pattern in _forms():
        for m in pattern.finditer(text):
            label = _label(prefix, m)
            if label is not None:
                found.append((label, m.start(), m.end()))
    kept: list[tuple[str, int, int]] = []  # the longest of overlapping spans
    for item in sorted(dict.fromkeys(found), key=lambda t: (t[1] - t[2], t[1])):
        if all(item[2] <= k[1] or k[2] <= item[1] for k in kept):
            kept.append(item)
    return sorted(kept, key=lambda t: t[1])


def _label(prefix: str, m: re.Match[str]) -> str | None:
    year = m.group("year")
    if prefix == "FY":
        return f"FY{year}"
    groups = m.groupdict()
    n = int(groups["n"]) if groups.get("n") else _ordinals().get(
        (groups.get("nth") or "").lower())
    if n is None or not 1 <= n <= (4 if prefix == "Q" else 2):
        return None
    return f"{prefix}{n} {year}"


@cache
def _ordinals() -> dict[str, int]:
    return {word.lower(): n for lang in vocabulary().languages.values()
            for word, n in lang.periods.ordinals.items()}


@cache
def _forms() -> tuple[tuple[str, re.Pattern[str]], ...]:
    out = []
    for lang in vocabulary().languages.values():
        words = lang.periods
        for prefix, forms in (("Q", words.quarters), ("H", words.halves), ("FY", words.years)):
            out += [(prefix, _compile(form)) for form in forms]
    return tuple(out)


def _compile(form: str) -> re.Pattern[str]:
    """`{nth} trimestre [de] {year}` → a pattern: words apart by any space, [words] optional."""
    regex = ""
    tokens = form.split()
    for i, token in enumerate(tokens):
        if token.startswith("[") and token.endswith("]"):
            alternatives = "|".join(re.escape(a) for a in token[1:-1].split("|"))
            regex += rf"(?:(?:{alternatives})\s+)?"
            continue
        regex += "".join(_piece(p) for p in _PLACEHOLDER.split(token) if p)
        if i < len(tokens) - 1:
            regex += r"\s+"
    return re.compile(rf"(?<!\w){regex}(?!\w)", re.IGNORECASE)


def _piece(piece: str) -> str:
    if piece == "{n}":
        return r"(?P<n>[1-4])"
    if piece == "{nth}":
        words = sorted(_ordinals(), key=len, reverse=True)
        return "(?P<nth>" + "|".join(re.escape(w) for w in words) + ")"
    if piece == "{year}":
        return r"(?P<year>(?:19|20)\d{2})"
    return re.escape(piece)
