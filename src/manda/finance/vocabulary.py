"""The deal team's metric names: one canonical subject per metric, with the synonyms documents use.

"Sales", "turnover" and "net revenue" are all `revenue`; the answering agent and the extractors
both call `canonical_subject`, so a question and a finding meet on the same key.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from manda.vocabulary import vocabulary
from manda.vocabulary.model import LineItem, UnitKind

__all__ = ["METRICS", "MetricSpec", "UnitKind", "canonical_subject", "find_subjects",
           "metric_spec"]

MetricSpec = LineItem  # a metric's spec is its line item in the deal vocabulary
METRICS: tuple[MetricSpec, ...] = vocabulary().line_items
_BY_SUBJECT = {m.subject: m for m in METRICS}


def metric_spec(subject: str) -> MetricSpec | None:
    """The spec of a canonical subject ("revenue" → Revenue, currency)."""
    return _BY_SUBJECT.get(subject)


@cache
def _matcher() -> re.Pattern[str]:
    from manda.vocabulary import cues

    return cues(s for m in METRICS for s in m.synonyms).pattern


@cache
def _subject_cues() -> tuple[tuple[str, re.Pattern[str]], ...]:
    from manda.vocabulary import cues

    return tuple((m.subject, cues(m.synonyms).pattern) for m in METRICS)


@lru_cache(maxsize=4096)
def _subject_of(wording: str) -> str | None:
    """The metric a matched wording names ("Net sales" → revenue); the longest synonym wins."""
    for subject, pattern in _subject_cues():
        if pattern.fullmatch(wording):
            return subject
    return None


def find_subjects(text: str) -> list[tuple[str, int, int]]:
    """Every metric named in `text`: (canonical subject, start, end), longest name first wins."""
    out: list[tuple[str, int, int]] = []
    for m in _matcher().finditer(text):
        subject = _subject_of(" ".join(m.group(0).lower().split()))
        if subject is not None:
            out.append((subject, m.start(), m.end()))
    return out


def canonical_subject(text: str) -> str | None:
    """The canonical metric a text names: "Net sales" → "revenue", "Adj. EBITDA" → "adjusted
    ebitda".

    The longest synonym wins ("net revenue retention" over "net revenue", "cost of sales" over
    "sales"); None if the text names no known metric.
    """
    found = find_subjects(text)
    if not found:
        return None
    return max(found, key=lambda t: (t[2] - t[1], -t[1]))[0]
