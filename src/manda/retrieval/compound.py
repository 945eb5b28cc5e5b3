"""Split a compound question into the searches it needs, so each part finds its own page.

"Is the gross margin improving over the last two years?" needs gross profit and revenue;
"What were revenue and net income in 2023?" needs two line items that sit on different pages
of some filings. Each sub-query keeps the rest of the question (company, period, statement)
and swaps in one metric; `HybridSearch` runs them all and fuses the lists.
"""

from __future__ import annotations

from manda.finance.vocabulary import find_subjects, metric_spec
from manda.vocabulary import vocabulary

__all__ = ["COMPONENTS", "sub_queries"]

#: Ratios and derived figures, with the line items they are computed from.
COMPONENTS: dict[str, tuple[str, ...]] = {
    "gross margin": ("gross profit", "revenue"),
    "ebitda margin": ("ebitda", "revenue"),
    "revenue growth": ("revenue",),
    "free cash flow": ("operating cash flow", "capital expenditures"),
    "net debt": ("debt", "cash and cash equivalents"),
    "leverage": ("net debt", "ebitda"),
    "working capital": ("current assets", "current liabilities"),
}
_TREND = vocabulary().cues("trend_asked")  # a trend or a comparison, in any language
MAX_SUB_QUERIES = 4


def sub_queries(question: str) -> list[str]:
    """The searches besides the question itself; empty when it asks for one thing.

    Several metrics named → one search per metric, each with the question's other words; a
    derived metric asked about as a trend or computed from parts → its components too.
    """
    found = _distinct_subjects(question)
    if not found:
        return []
    rest = _without(question, [(start, end) for _, start, end in found])
    out: list[str] = []
    if len(found) > 1:
        out += [f"{question[start:end]} {rest}" for _, start, end in found]
    for subject, _, _ in found:
        parts = COMPONENTS.get(subject)
        if parts and (len(found) > 1 or _TREND.found(question) or subject not in _STATED):
            out += [f"{part} {rest}" for part in parts]
    return list(dict.fromkeys(q.strip() for q in out if q.strip()))[:MAX_SUB_QUERIES]


# A filing states these itself (a margin table, a non-GAAP reconciliation); the components are
# searched for only when the question asks for a trend or names several things.
_STATED = frozenset({"gross margin", "ebitda margin", "free cash flow", "revenue growth"})


def _distinct_subjects(question: str) -> list[tuple[str, int, int]]:
    seen: set[str] = set()
    out: list[tuple[str, int, int]] = []
    for subject, start, end in find_subjects(question):
        spec = metric_spec(subject)
        key = spec.subject if spec else subject
        if key not in seen:
            seen.add(key)
            out.append((subject, start, end))
    return out


def _without(text: str, spans: list[tuple[int, int]]) -> str:
    kept, last = [], 0
    for start, end in sorted(spans):
        kept.append(text[last:start])
        last = end
    kept.append(text[last:])
    return " ".join(w for w in "".join(kept).split() if w.lower() not in _JOINERS)


_JOINERS = frozenset({"and", "or", "both", "&"})
