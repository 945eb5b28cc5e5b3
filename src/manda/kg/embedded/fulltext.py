"""Reduces any question a person types to the terms and phrases keyword search looks for.

Query languages (tantivy's, FTS5's: `AND`, `OR`, `NOT`, `NEAR`, `*`, `^`, `"`, `:`, parentheses)
turn raw user text into syntax errors or silently change its meaning, so the text is reduced to
word tokens, stop words are dropped, and text in double quotes (`"net sales"`) is kept as a
phrase: search adds a question's line-item equivalents that way (`manda.finance.equivalents`).
`keyword.py` builds the store's tantivy query from these, term by term; `match_expression`
renders the same reduction as an FTS5 MATCH expression for the FTS5 baselines the benchmarks
measure (`bench/_probe.py`'s BM25 over pages, `bench/channel_bench.py`).
"""

from __future__ import annotations

import re

from manda.text import words

MAX_TERMS = 32
MAX_PHRASES = 24

# Letters and digits only; everything else (punctuation, operators, quotes, `_`) separates
# tokens, as FTS5's unicode61 tokenizer does.
_QUOTED = re.compile(r'"([^"]*)"')

_STOP_WORDS_TEXT = """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its itself
    just me more most my myself near no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    tell show give please much many
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())


def query_terms(question: str) -> list[str]:
    """The distinct lower-case terms worth searching for, in the order they were written."""
    tokens = [t.lower() for t in words(question)]
    terms = [t for t in tokens if t not in STOP_WORDS] or tokens  # "IT?" still searches "it"
    return list(dict.fromkeys(terms))[:MAX_TERMS]


def query_phrases(question: str) -> list[str]:
    """The distinct multi-word phrases written in double quotes, as space-joined tokens."""
    phrases = []
    for quoted in _QUOTED.findall(question):
        tokens = [t.lower() for t in words(quoted)]
        if len(tokens) > 1:
            phrases.append(" ".join(tokens))
    return list(dict.fromkeys(phrases))[:MAX_PHRASES]


def match_expression(question: str) -> str | None:
    """`"q3" OR "2024" OR "revenue"` for "What was Q3 2024 revenue?"; None when nothing is left.

    A quoted phrase (`"net sales"`) is also matched as a phrase, its words next to each other,
    so a passage that has the phrase outranks one that has the words apart.
    """
    phrases = query_phrases(question)
    terms = query_terms(question)  # a phrase's words count alone too: quotes never hide a word
    parts = [f'"{term}"' for term in terms] + [f'"{phrase}"' for phrase in phrases]
    return " OR ".join(parts) if parts else None
