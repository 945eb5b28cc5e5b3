"""Which financial statement a page is, and which one a question needs, so search can route.

A filing's pages are mostly prose; the few that answer "what was capex?" or "total assets?" are
the primary statements, a segment note, a proxy's vote results or an 8-K item. Ingestion labels a
page from its content (the rows only that statement carries); a question that names a statement
("balance sheet", "Bilanz") or implies one ("capex" lives in the cash flow statement) favours the
pages with that label. Labels are plain words, so they are also searchable text. The words are
the vocabulary's (`statements:` in each language file).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum
from functools import cache, lru_cache

from manda.text import letter_words
from manda.vocabulary import vocabulary
from manda.vocabulary.load import StatementCues

__all__ = [
    "StatementKind",
    "implied_items",
    "line_item_matcher",
    "named_statements",
    "page_statements",
    "question_statements",
    "row_labels",
    "states_line_item",
]


class StatementKind(StrEnum):
    INCOME = "income statement"
    BALANCE = "balance sheet"
    CASH_FLOW = "cash flow statement"
    EQUITY = "statement of stockholders equity"
    SEGMENT = "segment information"
    PROXY_VOTE = "proxy vote results"
    ITEM_8K = "form 8-k item"


# How many different rows only a statement carries make a page that statement (its words, in
# every language, are the vocabulary's `statements:`)
_ROWS_NEEDED = {
    StatementKind.INCOME: 4,
    StatementKind.BALANCE: 4,
    StatementKind.CASH_FLOW: 4,
    StatementKind.EQUITY: 4,
    StatementKind.SEGMENT: 2,
    StatementKind.PROXY_VOTE: 3,
    StatementKind.ITEM_8K: 2,
}


@cache
def _statements() -> tuple[tuple[StatementKind, StatementCues], ...]:
    return tuple((kind, vocabulary().statement_words(kind.value)) for kind in StatementKind)


def page_statements(text: str) -> list[StatementKind]:
    """The statements a page (or sheet, or slide) is, from the rows only they carry."""
    return list(_statements_of(text))


@lru_cache(maxsize=2048)
def _statements_of(text: str) -> tuple[StatementKind, ...]:
    """`page_statements`, kept per page: every row of an answer's passages asks it of its page."""
    return tuple(kind for kind, words in _statements()
                 if sum(1 for row in words.rows if row.search(text)) >= _ROWS_NEEDED[kind])


def named_statements(question: str) -> list[tuple[StatementKind, str]]:
    """Each statement a question names outright, with the words it names it by ("balance
    sheet" in "How much goodwill is on the balance sheet?")."""
    return [(kind, m.group(0)) for kind, words in _statements()
            if (m := words.names.search(question)) is not None]


def implied_items(question: str) -> list[str]:
    """The words of a question that imply a statement ("capex", "total assets", "inventory")."""
    return list(dict.fromkeys(asked for _, words in _statements()
                              for asked in words.asks.findall(question)))


def question_statements(question: str) -> tuple[list[StatementKind], bool]:
    """The statements a question names or implies, and whether it named one outright."""
    named = [kind for kind, words in _statements() if words.names.search(question)]
    if named:
        return named, True
    return [kind for kind, words in _statements() if words.asks.search(question)], False


# A table row: a label of words, then only figures to the end of the line ("Inventories 12,304
# 12,740", "Total assets $59,490 $57,769"), or a label line followed by a line that is one figure
# (XBRL-style "label" then "1618000000.0"). A sentence that mentions a figure is not a row.
_FIGURE = r"(?:\$\s*)?\(?-?\d[\d,.]*\)?%?"
_ROW = re.compile(
    rf"[ \t]*(?P<label>[^\W\d_][^\d$()]{{1,120}}?)[ \t:]*{_FIGURE}"
    rf"(?:[ \t]+(?:{_FIGURE}|[—–-]|%))*[ \t]*")
_LABEL = re.compile(r"[ \t]*(?P<label>[^\W\d_][^\d$()]{1,120}?)[ \t:]*")
_LONE_FIGURE = re.compile(rf"[ \t]*{_FIGURE}[ \t]*")
_ROW_STOP = frozenset({"of", "and", "the", "for", "to", "in", "on", "by", "from", "net", "total",
                       "a", "an", "at", "or"})
_ROW_SLACK = 2  # a row label may say at most this many times the line item's meaning words


def _row_words(text: str) -> list[str]:
    words = []
    for word in letter_words(text.lower().replace("’", "'")):
        if word in _ROW_STOP:
            continue
        if word.endswith("ies") and len(word) > 4:
            word = word[:-3] + "y"
        elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
            word = word[:-1]
        words.append(word)
    return words


def row_labels(text: str) -> list[list[str]]:
    """The meaning words of every table row label in a page's text (rows that state a figure)."""
    lines = text.split("\n")
    labels = []
    for i, line in enumerate(lines):
        if not line or not line.lstrip()[:1].isalpha():
            continue
        if row := _ROW.fullmatch(line):
            labels.append(row.group("label"))
        elif (i + 1 < len(lines) and (label := _LABEL.fullmatch(line))
              and _LONE_FIGURE.fullmatch(lines[i + 1])):
            labels.append(label.group("label"))
    return [words for words in (_row_words(label) for label in labels) if words]


def states_line_item(text: str, items: list[str]) -> bool:
    """Whether a table row of `text` is one of the line items (all its words, and few more).

    "Inventories 12,304 12,740" states "inventory"; "Payments for acquisition of property, plant
    and equipment (12,715)" states "payments for property, plant and equipment"; a prose sentence
    that mentions inventory does not state it.
    """
    return line_item_matcher(items)(text)


def line_item_matcher(items: list[str]) -> Callable[[str], bool]:
    """`states_line_item` for many passages: the items' words are read once."""
    wanted = list(dict.fromkeys(
        frozenset(words) for words in (_row_words(item) for item in items) if words))
    prefixes = [frozenset(word[:5] for word in w) for w in wanted]
    heads = sorted(set().union(*prefixes), key=len, reverse=True)
    find = re.compile("|".join(map(re.escape, heads))) if heads else None

    def states(text: str) -> bool:
        if find is None:
            return False
        # cheap test first: most passages do not contain the item's words at all
        present = set(find.findall(text.lower()))
        maybe = [w for w, need in zip(wanted, prefixes, strict=True) if need <= present]
        if not maybe:
            return False
        for label in _cached_row_labels(text):
            if any(w <= label and len(label) <= _ROW_SLACK * len(w) for w in maybe):
                return True
        return False

    return states


@lru_cache(maxsize=4096)
def _cached_row_labels(text: str) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(words) for words in row_labels(text))
