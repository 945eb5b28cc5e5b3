"""The deal team's metric names: one canonical subject per metric, with the synonyms documents use.

"Sales", "turnover" and "net revenue" are all `revenue`; the answering agent and the extractors
both call `canonical_subject`, so a question and a finding meet on the same key.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from manda.vocabulary import vocabulary
from manda.vocabulary.model import LineItem, UnitKind

__all__ = ["LINE_ITEMS", "METRICS", "MetricSpec", "UnitKind", "asked_items", "canonical_subject",
           "find_line_items", "find_subjects", "item_spec", "line_item_of", "metric_spec",
           "names_alone", "only_a_line_item"]

MetricSpec = LineItem  # a metric's spec is its line item in the deal vocabulary
LINE_ITEMS: tuple[LineItem, ...] = vocabulary().line_items
METRICS: tuple[MetricSpec, ...] = tuple(m for m in LINE_ITEMS if m.metric)
_BY_SUBJECT = {m.subject: m for m in METRICS}
_LINES = {m.subject: m for m in LINE_ITEMS}


def metric_spec(subject: str) -> MetricSpec | None:
    """The spec of a canonical subject ("revenue" → Revenue, currency)."""
    return _BY_SUBJECT.get(subject)


def item_spec(subject: str) -> LineItem | None:
    """The line item of a subject, a metric or a statement line ("inventory" → Inventory, a
    balance-sheet line)."""
    return _LINES.get(subject)


@cache
def _matcher() -> re.Pattern[str]:
    from manda.vocabulary import cues

    return cues(s for m in LINE_ITEMS for s in m.synonyms).pattern


@cache
def _subject_cues() -> tuple[tuple[str, re.Pattern[str]], ...]:
    from manda.vocabulary import cues

    return tuple((m.subject, cues(m.synonyms).pattern) for m in LINE_ITEMS)


@lru_cache(maxsize=4096)
def _subject_of(wording: str) -> str | None:
    """The metric a matched wording names ("Net sales" → revenue); the longest synonym wins."""
    for subject, pattern in _subject_cues():
        if pattern.fullmatch(wording):
            return subject
    return None


def find_line_items(text: str) -> list[tuple[str, int, int]]:
    """Every line item named in `text`, metrics and statement lines alike: (subject, start,
    end), the longest wording first ("créances clients" is trade receivables, not clients)."""
    return list(_line_items_in(text))


@lru_cache(maxsize=8192)
def _line_items_in(text: str) -> tuple[tuple[str, int, int], ...]:
    """`find_line_items`, kept per text: an answer reads the same findings' excerpts many times
    over (each candidate figure of each finding), and one scan of the whole vocabulary's
    wordings is its most expensive step."""
    out: list[tuple[str, int, int]] = []
    for m in _matcher().finditer(text):
        if _negated(text, m.start()):
            continue  # "non-cash" charges are no cash
        subject = _subject_of(" ".join(m.group(0).lower().split()))
        if subject is not None:
            out.append((subject, m.start(), m.end()))
    return tuple(out)


_NEGATING = vocabulary().words("negating_prefixes")  # "non" of "non-cash"


def _negated(text: str, start: int) -> bool:
    """A negating prefix is joined to the name at `start` by a hyphen ("non-cash")."""
    if start < 2 or text[start - 1] not in "-‑":
        return False
    word = text[:start - 1].split()[-1:] or [""]
    return word[0].lower() in _NEGATING


def find_subjects(text: str) -> list[tuple[str, int, int]]:
    """Every metric named in `text`: (canonical subject, start, end), longest name first wins."""
    return [found for found in find_line_items(text) if found[0] in _BY_SUBJECT]


def names_alone(wording: str, subject: str) -> bool:
    """Whether a wording names its line item in a question by itself: in two words or more, or
    as the line item's label or its plural ("inventories"). A single word of another wording may
    name something else ("stock" may be shares, "equity" a stake, "debtors" people)."""
    said = " ".join(wording.lower().replace("’", "'").split())
    label = _LINES[subject].label.lower()
    return len(said.split()) >= 2 or said in (label, _plural(label))


@cache
def _plural(label: str) -> str | None:
    from manda.vocabulary.plurals import plural_phrase

    return plural_phrase(label, vocabulary().languages["en"].plural)


def asked_items(text: str) -> list[tuple[str, int, int]]:
    """Every line item a question names, as `find_line_items` reads it: each metric, and each
    statement line (a balance sheet's "total assets", "inventories", "goodwill") of an amount
    named by itself (`names_alone`)."""
    return [(s, a, b) for s, a, b in find_line_items(text)
            if s in _BY_SUBJECT or (_LINES[s].unit_kind == "currency"
                                    and names_alone(text[a:b], s))]


def only_a_line_item(label: str) -> bool:
    """The whole label is one line item's wording ("Net sales", "Chiffre d'affaires"): in a table
    that breaks the line item down, its total row."""
    name = label.strip().rstrip(":")
    return any(start == 0 and end == len(name) for _, start, end in find_line_items(name))


def line_item_of(label: str) -> LineItem | None:
    """The line item a row label starts with ("Trade debtors" → trade receivables)."""
    found = find_line_items(label)
    if not found or label[:found[0][1]].strip(" -–•*:0123456789.()"):
        return None
    return _LINES[found[0][0]]


def canonical_subject(text: str) -> str | None:
    """The canonical metric a text names: "Net sales" → "revenue", "Adj. EBITDA" → "adjusted
    ebitda".

    The longest synonym wins ("net revenue retention" over "net revenue", "cost of sales" over
    "sales"), named outside a parenthesised gloss when it can; None if the text names no known
    metric.
    """
    outside = _GLOSS.sub(" ", text)
    # a label that names a statement line outside its gloss is that line, even one that is no
    # metric ("Net cash provided by (used in) investing activities" is no net cash)
    named = find_line_items(outside) if outside != text else []
    found = [f for f in named if f[0] in _BY_SUBJECT] if named else find_subjects(text)
    if not found:
        return None
    return max(found, key=lambda t: (t[2] - t[1], -t[1]))[0]


# a label's parenthesised gloss defines it ("Taux d'EBE (EBE / chiffre d'affaires)"): the label
# names its metric outside it when it can
_GLOSS = re.compile(r"\([^()]*\)")
