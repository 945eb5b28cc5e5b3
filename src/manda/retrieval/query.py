"""A search query read once: its line items and their other wordings, periods, statements, the
searches it splits into and the words that may name a document.

`HybridSearch` reads nothing of its query but this reading. It is kept per text, so a question's
frame (`manda.agent.frame`, which reads it first) and every search run with the question's own
text share one reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from manda.finance.equivalents import asked_line_items, expansions
from manda.finance.periods import find_periods
from manda.finance.statements import StatementKind, implied_items, question_statements
from manda.finance.vocabulary import find_subjects
from manda.retrieval.compound import sub_queries

__all__ = ["SearchQuery", "name_words", "read_query"]


@dataclass(frozen=True)
class SearchQuery:
    """What a search for `text` looks for, besides the text itself."""

    text: str
    expansions: tuple[str, ...]  # the other wordings of the line items it names
    subjects: frozenset[str]  # the metrics it names, in its words
    expanded_subjects: frozenset[str]  # … and in their other wordings
    periods: frozenset[str]
    statements: tuple[StatementKind, ...]  # the statements it names or implies
    statement_named: bool  # named outright ("the balance sheet"), not only implied
    line_items: tuple[str, ...]  # every wording of every line item it names or implies
    sub_queries: tuple[str, ...]  # the searches a compound question splits into
    name_words: frozenset[str]  # words that may name a document ("Apple", "10-K", "2025")


@lru_cache(maxsize=1024)
def read_query(text: str) -> SearchQuery:
    """The reading of one query (kept: the same text is read once)."""
    more = tuple(expansions(text))
    statements, named = question_statements(text)
    return SearchQuery(
        text=text,
        expansions=more,
        subjects=frozenset(s for s, _, _ in find_subjects(text)),
        expanded_subjects=frozenset(s for s, _, _ in find_subjects("; ".join([text, *more]))),
        periods=frozenset(p for p, _, _ in find_periods(text)),
        statements=tuple(statements),
        statement_named=named,
        line_items=tuple(dict.fromkeys([*asked_line_items(text), *implied_items(text)])),
        sub_queries=tuple(sub_queries(text)),
        name_words=frozenset(name_words(text)),
    )


_NAME_WORD = re.compile(r"[a-z]+|\d+")
_GENERIC_NAME_WORDS = frozenset({"pdf", "xlsx", "xls", "docx", "doc", "pptx", "csv", "md", "txt",
                                 "the", "and", "of", "inc", "corp", "corporation", "com", "ltd",
                                 "llc", "plc", "fy", "q", "k", "v"})


def name_words(text: str) -> set[str]:
    """Words of a file name or title, split at case, digit and punctuation ("FY2025" → fy, 2025)."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)
    return {w for w in _NAME_WORD.findall(spaced.lower())
            if w not in _GENERIC_NAME_WORDS and not (w.isdigit() and len(w) < 2)}
