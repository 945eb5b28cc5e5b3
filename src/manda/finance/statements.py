"""Which financial statement a page is, and which one a question needs, so search can route.

A filing's pages are mostly prose; the few that answer "what was capex?" or "total assets?" are
the primary statements, a segment note, a proxy's vote results or an 8-K item. Ingestion labels a
page from its content (the line items only that statement carries); a question that names a
statement ("balance sheet") or implies one ("capex" lives in the cash flow statement) favours the
pages with that label. Labels are plain words, so they are also searchable text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from manda.text import letter_words

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


@dataclass(frozen=True)
class _Signature:
    kind: StatementKind
    lines: tuple[str, ...]  # line items only this statement states (regexes, lower case)
    needed: int  # how many distinct ones make a page that statement
    named: str  # how a question names the statement
    implied: str  # what a question asks that this statement answers


_SIGNATURES: tuple[_Signature, ...] = (
    _Signature(
        StatementKind.INCOME,
        (r"cost of (?:revenue|sales|goods sold)", r"gross (?:profit|margin)",
         r"operating income|income from operations|operating profit",
         r"income before (?:income )?tax|provision for income tax",
         r"net (?:income|earnings|loss)\b",
         r"(?:basic|diluted)\b.{0,40}per share|earnings per share",
         r"research and development", r"selling, general and administrative",
         r"total (?:net )?(?:revenue|revenues|net sales)|net sales|total costs and expenses"),
        4,
        r"income statements?|statements? of (?:income|operations|earnings)|p\s*&\s*l|"
        r"profit and loss",
        r"\beps\b|earnings per share|gross (?:profit|margin)|operating (?:income|margin)|"
        r"net (?:income|earnings)|cost of (?:revenue|sales)|r\s*&\s*d|research and development|"
        r"sg\s*&\s*a|selling, general|effective tax rate|income tax|interest expense",
    ),
    _Signature(
        StatementKind.BALANCE,
        (r"total assets", r"total liabilities", r"total current assets",
         r"total current liabilities", r"retained earnings|accumulated deficit",
         r"(?:stockholders|shareholders)['’]? equity", r"accounts receivable",
         r"property,? (?:plant )?and equipment,? net", r"goodwill", r"inventor(?:y|ies)"),
        4,
        r"balance sheets?|statements? of financial position",
        r"total assets|total liabilities|(?:stockholders|shareholders)['’]? equity|"
        r"current assets|current liabilities|receivables|inventor(?:y|ies)|goodwill|"
        r"long-term debt|book value|working capital|cash and cash equivalents at",
    ),
    _Signature(
        StatementKind.CASH_FLOW,
        (r"operating activities", r"investing activities", r"financing activities",
         r"depreciation(?:,| and) amortization", r"stock-based compensation|share-based",
         r"(?:purchases|payments|additions) (?:of|for|to) property",
         r"cash(?:, cash equivalents(?: and restricted cash)?)? (?:at|,) (?:beginning|end)",
         r"repurchases? of (?:common )?stock|common stock repurchased"),
        4,
        r"cash[- ]flows? statements?|statements? of cash flows?",
        r"capex|capital expenditures?|free cash flow|\bfcf\b|operating cash flow|"
        r"cash (?:flow )?from operations|cash provided by|buybacks?|repurchas|dividends paid|"
        r"purchases of property|depreciation|\bd\s*&\s*a\b|stock-based|share-based|\bsbc\b",
    ),
    _Signature(
        StatementKind.EQUITY,
        (r"balances?,? (?:as of|at) ", r"additional paid-in capital", r"treasury stock",
         r"accumulated other comprehensive", r"dividends declared", r"common stock issued"),
        4,
        r"statements? of (?:stockholders|shareholders)['’]? equity|changes in equity",
        r"additional paid-in capital|treasury stock|comprehensive income",
    ),
    _Signature(
        StatementKind.SEGMENT,
        (r"\bsegments?\b", r"reportable segment|operating segment|segment information",
         r"segment (?:revenue|operating income|results)"),
        2,
        r"segment (?:note|information|results|reporting)",
        r"\bsegments?\b|by (?:region|geography|business)|geographic",
    ),
    _Signature(
        StatementKind.PROXY_VOTE,
        (r"votes? for\b|\bfor\b.{0,40}\bagainst\b", r"abstain", r"broker non-votes?",
         r"withheld", r"(?:annual|special) meeting", r"proposal (?:no\.? ?)?\d"),
        3,
        r"proxy (?:statement|vote)|vote results|voting results|shareholder vote",
        r"\bvot(?:e|es|ed|ing)\b|proposal|say[- ]on[- ]pay|elected directors|annual meeting",
    ),
    _Signature(
        StatementKind.ITEM_8K,
        (r"item [1-9]\.\d\d\b", r"form 8-k|current report", r"pursuant to section 13 or 15\(d\)"),
        2,
        r"8-k|current report",
        r"\bitem [1-9]\.\d\d\b|material definitive agreement|departure of directors|"
        r"results of operations and financial condition|regulation fd",
    ),
)

_COMPILED = tuple(
    (s, tuple(re.compile(line, re.I) for line in s.lines), re.compile(s.named, re.I),
     re.compile(s.implied, re.I))
    for s in _SIGNATURES
)


def page_statements(text: str) -> list[StatementKind]:
    """The statements a page (or sheet, or slide) is, from the line items it states."""
    kinds: list[StatementKind] = []
    for signature, lines, _, _ in _COMPILED:
        if sum(1 for line in lines if line.search(text)) >= signature.needed:
            kinds.append(signature.kind)
    return kinds


def named_statements(question: str) -> list[tuple[StatementKind, str]]:
    """Each statement a question names outright, with the words it names it by ("balance
    sheet" in "How much goodwill is on the balance sheet?")."""
    return [(s.kind, m.group(0)) for s, _, name, _ in _COMPILED
            if (m := name.search(question)) is not None]


def implied_items(question: str) -> list[str]:
    """The words of a question that imply a statement ("capex", "total assets", "inventory")."""
    return list(dict.fromkeys(m.group(0) for _, _, _, implied in _COMPILED
                              for m in implied.finditer(question)))


def question_statements(question: str) -> tuple[list[StatementKind], bool]:
    """The statements a question names or implies, and whether it named one outright."""
    named = [s.kind for s, _, name, _ in _COMPILED if name.search(question)]
    if named:
        return named, True
    return [s.kind for s, _, _, implied in _COMPILED if implied.search(question)], False


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
