"""Metrics a deal team computes from statement lines, and the lines as filings name them.

Free cash flow is operating cash flow less capex; EBITDA is operating income plus the D&A of the
cash flow statement; a margin is a line over revenue; working capital is current assets less
current liabilities, and the current ratio the one over the other; DSO is receivables over
revenue times 365; an effective tax rate is the tax charge over the income before tax. Each is
one row of `DERIVED`, named as questions name it in every language (`computed_asked:` of the
language files); `LINE_ITEMS` names each input the way statements write it, in every language
the vocabulary reads (a row label starts with one of them).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Literal

from manda.vocabulary import vocabulary
from manda.vocabulary.cues import Cues

__all__ = ["DERIVED", "LINE_ITEMS", "Derived", "alternatives", "asked_derived", "line_item_of",
           "named_formula", "named_ratio", "spent_ratio"]


@dataclass(frozen=True)
class Derived:
    """A computed metric: what it adds, subtracts, divides by, and how a question names it."""

    name: str
    asked: tuple[str, ...]  # how a question names it (whole words, any case)
    plus: tuple[str, ...]
    minus: tuple[str, ...] = ()
    over: str | None = None  # a ratio: divided by this line
    times: float = 1.0  # DSO: × 365
    unit: Literal["currency", "percent", "days", "times"] = "currency"
    # a rate over a line that may be a loss ("effective tax rate" on a pre-tax loss): the base
    # keeps its sign, and the metric is stated only as a percentage, never as an amount
    rate: bool = False


def _asked(name: str) -> tuple[str, ...]:
    """How a question names the metric, in every language (`computed_asked:` of the files)."""
    return vocabulary().computed_asked(name)


DERIVED: tuple[Derived, ...] = (
    Derived("FCF conversion", _asked("FCF conversion"), ("operating cash flow",), ("capex",),
            over="net income", unit="percent"),
    Derived("free cash flow", _asked("free cash flow"), ("operating cash flow",), ("capex",)),
    Derived("EBITDA margin", _asked("EBITDA margin"), ("operating income", "d&a"),
            over="revenue", unit="percent"),
    Derived("EBITDA", _asked("EBITDA"), ("operating income", "d&a")),
    # a loss margin is the margin of a loss: the same line over revenue, negative when it is one
    Derived("operating loss margin", _asked("operating loss margin"), ("operating income",),
            over="revenue", unit="percent"),
    Derived("net loss margin", _asked("net loss margin"), ("net income",), over="revenue",
            unit="percent"),
    Derived("operating margin", _asked("operating margin"), ("operating income",),
            over="revenue", unit="percent"),
    Derived("net margin", _asked("net margin"), ("net income",), over="revenue",
            unit="percent"),
    Derived("gross margin", _asked("gross margin"), ("gross profit",), over="revenue",
            unit="percent"),
    # where no gross profit line is stated, revenue less its cost (a metric's later rows of
    # the same name are read where an earlier one's lines are not: `alternatives`)
    Derived("gross margin", _asked("gross margin"), ("revenue",), ("cost of sales",),
            over="revenue", unit="percent"),
    # gross profit where no gross profit line is stated: revenue less its cost
    Derived("gross profit", _asked("gross profit"), ("revenue",), ("cost of sales",)),
    Derived("working capital", _asked("working capital"), ("current assets",),
            ("current liabilities",)),
    # a liquidity ratio is a multiple, never a percentage: current assets cover current
    # liabilities 0.94 times
    Derived("current ratio", _asked("current ratio"), ("current assets",),
            over="current liabilities", unit="times"),
    Derived("DSO", _asked("DSO"), ("receivables",), over="revenue", times=365, unit="days"),
    # the year's tax charge over the income before it (a filing's rate reconciliation states it
    # on a row named only "Total")
    Derived("effective tax rate", _asked("effective tax rate"), ("income tax expense",),
            over="pretax income", unit="percent", rate=True),
)

# How statements label each input, in every language (`statement_lines:` of the language files);
# a row whose label starts with one of these states it. Read once.
LINE_ITEMS: dict[str, tuple[str, ...]] = vocabulary().statement_lines()


def _words(phrase: str) -> str:
    return r"[\s\-]+".join(re.escape(w) for w in phrase.split())


@cache
def _asked_pattern(metric: Derived) -> re.Pattern[str]:
    names = "|".join(_words(a) for a in sorted(metric.asked, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{names})(?![\w-])", re.IGNORECASE)


def asked_derived(question: str) -> Derived | None:
    """The computed metric a question asks for, if any (the first, most specific, listed)."""
    from manda.finance.vocabulary import find_line_items

    for metric in DERIVED:
        if m := _asked_pattern(metric).search(question):
            if metric.name == "EBITDA" and any(
                    subject == "adjusted ebitda" and start <= m.start() and m.end() <= end
                    for subject, start, end in find_line_items(question)):
                # adjusted EBITDA ("Adj. EBITDA", "EBITDA ajusté", "bereinigtes EBITDA") is the
                # company's own measure, never computed
                return None
            return metric
    return None


def alternatives(metric: Derived) -> tuple[Derived, ...]:
    """The metric, then its other ways of computing under the same name (gross margin from
    revenue and cost of sales where no gross profit line is stated)."""
    return (metric, *(d for d in DERIVED if d.name == metric.name and d != metric))


def named_formula(question: str, less: Iterable[str]) -> Derived | None:
    """A metric the question computes in its own words, "operating cash flow less capex" (each
    side a statement line, `less` the words between them): the metric of `DERIVED` it is, else
    one of its own. None when either side names no statement line."""
    low = " ".join(question.lower().split())
    for word in less:
        for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", low):
            left = _line_named(low[:m.start()].rstrip(), end=True)
            right = _line_named(low[m.end():].lstrip(), end=False)
            if left is None or right is None or left[0] == right[0]:
                continue
            for metric in DERIVED:
                if metric.plus == (left[0],) and metric.minus == (right[0],) and not metric.over:
                    return metric
            return Derived(f"{left[1]} less {right[1]}", (), (left[0],), (right[0],))
    return None


def named_ratio(question: str, over: Cues) -> Derived | None:
    """A ratio the question names in its own words, "revenue as a percentage of gross bookings"
    (`over` the words between its two lines): the first line over the second, as a percentage.
    The second is a statement line; the first is one, else any line item the question names
    before the words ("R&D", "SG&A", "fulfillment costs": `_item_named`). None when the second
    names no statement line or nothing stands before the words."""
    low = " ".join(question.lower().split())
    for m in over.pattern.finditer(low):
        right = _line_named(low[m.end():].lstrip(), end=False)
        if right is None:
            continue
        before = low[:m.start()].rstrip()
        left = _line_named(before, end=True) or _item_named(before)
        if left is not None and left[0] != right[0]:
            name = f"{left[1]} {m.group(0)} {right[1]}"
            at = low.find(name)  # named as the question writes it ("SG&A", not "sg&a")
            said = " ".join(question.split())[at:at + len(name)] if at >= 0 else name
            return Derived(said, (), (left[0],), over=right[0], unit="percent")
    return None


def spent_ratio(question: str, share: Cues, spent: Cues) -> Derived | None:
    """A share of one line item that the question says was spent on another ("what share of
    net sales did it spend on R&D?", `share` the words before the whole, `spent` those before
    the part): the part over the whole, as a percentage. None where either names no line
    item. The question comes with its period phrases blanked ("in 2023")."""
    from manda.finance.vocabulary import find_line_items

    low = " ".join(question.lower().split())
    m = share.pattern.search(low)
    if m is None:
        return None
    whole = _line_named(low[m.end():].lstrip(), end=False)
    on = spent.pattern.search(low, m.end())
    if whole is None or on is None:
        return None
    after = low[on.end():].lstrip()
    # the part is named right after the verb ("la R&D": a determiner may open it), its words
    # running up to the next form word ("in")
    form = _form_words() - {"and"}
    words = list(itertools.dropwhile(lambda w: w in form, after.split()))
    head = " ".join(itertools.takewhile(lambda w: w not in form, words))
    part = next(((key, head[start:end]) for key, start, end in find_line_items(head)
                 if not head[:start].strip()), None) or _item_named(head)
    if part is None or part[0] == whole[0]:
        return None
    written = " ".join(question.split())
    said = [written[at:at + len(name)] if (at := low.find(name)) >= 0 else name
            for name in (part[1], whole[1])]
    return Derived(f"{said[0]} / {said[1]}", (), (part[0],), over=whole[0], unit="percent")


def _line_named(text: str, *, end: bool) -> tuple[str, str] | None:
    """The statement line `text` ends (or starts) with, by its name or a label of it: its key
    and the words naming it."""
    names = sorted(((n, key) for key, labels in LINE_ITEMS.items() for n in (key, *labels)),
                   key=lambda t: -len(t[0]))
    for name, key in names:
        at = len(text) - len(name) if end else 0
        if text[at:at + len(name)] == name and (
                (end and (at == 0 or not text[at - 1].isalnum()))
                or (not end and not text[len(name):len(name) + 1].isalnum())):
            return key, name
    return None


def line_item_of(label: str, item: str) -> int:
    """How specifically a row label states `item`: the length of the phrase it starts with
    (0 when it does not). "Total net sales" states revenue more specifically than "Net sales";
    "Operating income/(loss)" states operating income. An item no statement line lists (the
    first line of a ratio the question names, `_item_named`) is read by `_names_item`."""
    text = " ".join(re.sub(r"\(\w\)|[\u00ae\u2122*]", "", label).lower().split())
    if item not in LINE_ITEMS:
        return _names_item(text, item)
    best = 0
    for phrase in LINE_ITEMS.get(item, ()):
        if text == phrase or text.startswith((phrase + " ", phrase + ",", phrase + "/")):
            best = max(best, len(phrase))
    return best


def _item_named(text: str) -> tuple[str, str] | None:
    """The line item a question's words end with, where no statement line does ("what was the
    company's R&D", "SG&A", "fulfillment costs"): the words back to the first word of the
    question's form or a possessive ("Lyft's"), keyed by the metric they name where they name
    one ("research and development"), else by the words themselves. None when no word is
    left."""
    from manda.finance.vocabulary import find_line_items

    form = _form_words() - {"and"}  # "sales and marketing" is one line item
    words: list[str] = []
    for word in reversed(text.split()):
        if word in form or word.endswith(("'s", "’s", "'")):
            break
        words.insert(0, word)
    phrase = " ".join(words).strip(" ,;:?")
    if not phrase:
        return None
    found = find_line_items(phrase)
    if not found:
        return phrase, phrase
    key, start, end = found[-1]
    return key, phrase[start:end]


@cache
def _form_words() -> frozenset[str]:
    words = vocabulary()
    return frozenset(words.words("question_words") | words.words("stop_words"))


def _names_item(label: str, item: str) -> int:
    """How specifically a row label (lower case) states a line item no statement line lists:
    the length of its wording the label starts with, a metric's ("Research and development")
    or one of the item's group ("Selling, general and administrative" for "SG&A"); else the
    label's length where each of its words is one of the item's ("Fulfillment" of "fulfillment
    costs"). 0 when it does not state it."""
    from manda.finance.equivalents import group_patterns
    from manda.finance.vocabulary import find_line_items

    found = find_line_items(label)
    if found and found[0][1] == 0 and found[0][0] == item:
        return found[0][2]
    group = group_patterns(item)
    if any(p.fullmatch(item) for p in group):  # the item's own group, not one a word of it is
        for pattern in group:                  # ("sales" of "sales and marketing")
            if (m := pattern.match(label)) is not None:
                return m.end()
    own = [w for w in re.findall(r"[^\W\d_][\w&'-]*", label) if len(w) > 2]
    said = [w for w in re.findall(r"[^\W\d_][\w&'-]*", item) if len(w) > 2]
    if own and all(any(w[:5] == s[:5] for s in said) for w in own):
        return len(label)
    return 0
