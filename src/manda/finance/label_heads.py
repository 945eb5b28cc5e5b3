"""A row label's head: the line item a label IS, not one it names inside a longer label.

"Americas net sales", "Revenue, net", "Chiffre d'affaires net" and "Umsatzerlöse" are revenue;
"Net operating loss carryforwards" (a tax asset), "Cash paid for interest" (a payment), "Unearned
revenue" (a liability), "Proceeds from sales of marketable securities" and "Report de perte
d'exploitation" are none of the line items they contain. A label names line item X when X is the
head of the label's leading phrase, once the allowed qualifiers are set aside: total, net,
adjusted, a period, a unit, a parenthesised gloss, a leading number, a segment before X, a
complement after it ("Revenue from contracts with customers"). English and German put a noun
phrase's head last, French and Spanish first (`noun_head` of each language file); the words
(complements, qualifiers, what makes a line item another thing) are the language files'
`label_*` cue sets.
"""

from __future__ import annotations

import html
import re
from functools import cache, lru_cache
from itertools import pairwise

from manda.finance.periods import find_periods
from manda.finance.vocabulary import LINE_ITEMS, find_line_items, metric_spec
from manda.vocabulary import cues, vocabulary
from manda.vocabulary.numbers import CODES, CURRENCY_WORDS, MULTIPLIERS, THOUSANDS_UNITS
from manda.vocabulary.plurals import plural_phrase

__all__ = ["adds_another_thing", "an_included_part", "another_thing_beside", "head_before",
           "joins_line_items", "label_line_item", "label_subject"]

_WORDS = vocabulary()
_COMPLEMENT = _WORDS.cues("label_complement")  # "of", "attributable", "de", "sobre", "aus"
_COORDINATOR = _WORDS.cues("label_coordinator")  # "and", "et", "und"
_OTHER_THING = _WORDS.cues("label_other_thing")  # "unearned", "carryforwards", "différé"
_JOINERS = frozenset(_WORDS.words("list_joiners"))  # "and", "or", "und", "et"
_OTHER_COMPLEMENT = _WORDS.cues("label_other_complement")  # "of … securities", "per share"
_INCLUDES = _WORDS.cues("part_included")  # "includes", "of which", "enthält", "dont", "incluye"
_STATED_AS = _WORDS.cues("figure_stated_as")  # "was", "totaled", "beträgt", "s'élève à"
# the actual/budget words of a column header qualify a label's line item too ("EBITDA budget")
_QUALIFIER = _WORDS.cues("label_qualifier") | cues(
    w for lang in _WORDS.languages.values() for w in lang.periods.header_words)
_ADJECTIVES = frozenset(m.subject for m in LINE_ITEMS if m.adjective)

_GLOSS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
# "1.", "A.1)", "B. IV.", "a)", "•": a label's leading numbering or bullet
_NUMBERING = re.compile(r"^\s*(?:(?:(?:[IVXLC]+|[A-Za-z]|\d+)(?:\.\d+)*[.)]|[•▪·*–—-])\s*)+")
_FOOTNOTE = re.compile(r"[\s*†‡§¹²³⁴⁵⁶⁷⁸⁹⁰:]+$")
# where a label's leading phrase ends, whatever its language: a comma, a semicolon, a dash
# between spaces ("Revenue — Europe", "Deferred revenue - current"), an em or en dash
_STOP = re.compile(r"[,;|]|\s[-–—]+\s|[–—]")
_COLON = re.compile(r"(?<!\d):(?!\d)")
_SYMBOLS = "€$£¥%"


@cache
def _head_first_wordings() -> frozenset[str]:
    """Line-item wordings of the languages that put a noun phrase's head first."""
    return frozenset(
        _norm(w) for lang in _WORDS.languages.values() if lang.noun_head == "first"
        for words in lang.line_items.values() for s in words
        for w in (s, plural_phrase(s, lang.plural)) if w)


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


def _unit(token: str) -> bool:
    """A unit after a line item ("€m", "EUR", "TEUR", "k"): it says the scale, not the item."""
    word = token.strip(_SYMBOLS + ".()").lower()
    return not word or word in MULTIPLIERS or word in CODES or word in CURRENCY_WORDS or any(
        word == unit.lower() for unit in THOUSANDS_UNITS)


def _qualifiers_only(text: str) -> bool:
    """Nothing but qualifiers, units and punctuation: "net", "(€k)", "as reported", "%"."""
    rest = _QUALIFIER.pattern.sub(" ", text)
    return all(_unit(t) for t in re.split(r"[\s/]+", rest.strip(" .:-–—")) if t)


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _outside(start: int, end: int, items: list[tuple[str, int, int]]) -> bool:
    return not any(s < end and start < e for _, s, e in items)


def _phrase_end(text: str, start: int, items: list[tuple[str, int, int]]) -> tuple[int, int]:
    """Where the label's leading phrase ends, and where its complement does: at the first stop
    or complement word outside a line item's wording ("Cost of sales" keeps its "of")."""
    stops = [m.start() for m in _STOP.finditer(text, start) if _outside(m.start(), m.end(), items)]
    stop = min(stops, default=len(text))
    words = [m.start() for m in _COMPLEMENT.pattern.finditer(text, start)
             if m.start() < stop and _outside(m.start(), m.end(), items)]
    return (words[0] if words else stop), stop


def _conjuncts(text: str, start: int, end: int,
               items: list[tuple[str, int, int]]) -> list[tuple[int, int]]:
    """The phrase's coordinated heads: "Bank loans | overdrafts"."""
    cuts = [m for m in _COORDINATOR.pattern.finditer(text, start, end)
            if _outside(m.start(), m.end(), items)]
    bounds = [start, *(x for m in cuts for x in (m.start(), m.end())), end]
    return list(zip(bounds[::2], bounds[1::2], strict=True))


def _head_of_conjunct(text: str, start: int, end: int,
                      items: list[tuple[str, int, int]]) -> str | None:
    inside = [i for i in items if start <= i[1] and i[2] <= end]
    if not inside:
        return None
    rest = _blank(text[:end], [(s, e) for _, s, e in inside])[start:]
    if _OTHER_THING.search(rest):  # "Unearned …", "… carryforwards", "… différé"
        return None
    last = inside[-1]
    if _qualifiers_only(text[last[2]:end]):  # head last: "Americas net sales", "Umsatz gesamt"
        return last[0]
    first = inside[0]
    if _norm(text[first[1]:first[2]]) in _head_first_wordings():  # "Ventas netas de la zona"
        return first[0]
    return None


def _head_of_phrase(text: str) -> str | None:
    """The line item heading one phrase without glosses, or None."""
    periods = [(s, e) for _, s, e in find_periods(text, bare_years=True)]
    text = _blank(text, periods)
    items = find_line_items(text)
    if not items:
        return None
    start = len(text) - len(text.lstrip())
    # a leading qualifier outside every wording: "Current portion of long-term debt"
    while (m := _QUALIFIER.pattern.match(text, start)) and m.end() > start and \
            _outside(m.start(), m.end(), items):
        start = m.end() + len(text[m.end():]) - len(text[m.end():].lstrip())
    end, stop = _phrase_end(text, start, items)
    adjective = [s for s, b, e in items if s in _ADJECTIVES and start <= b and e <= end]
    if adjective:  # "Non-recurring legal settlement" is a one-time charge
        return adjective[0]
    if end < stop and _OTHER_COMPLEMENT.pattern.match(text, end):
        return None  # "Sales of property and equipment", "Net income per share"
    for a, b in _conjuncts(text, start, end, items):
        if (head := _head_of_conjunct(text, a, b, items)) is not None:
            return head
    return None


def _outside_glosses(text: str) -> str:
    """A label without its glosses, nested ones too: "Taux d'EBE (EBE / chiffre d'affaires)"
    is "Taux d'EBE"."""
    while (cut := _GLOSS.sub(" ", text)) != text:
        text = cut
    return text


def _head_of_part(part: str) -> str | None:
    """A label part's line item: named outside its glosses where it names one there at all
    ("Revenue (€k)", "Net income (loss)"), else by a gloss ("ERP implementation (one-off)")."""
    outside = _outside_glosses(part)
    if find_line_items(outside):
        return _head_of_phrase(outside)
    for gloss in _GLOSS.findall(part):
        if (head := _head_of_part(gloss[1:-1])) is not None:
            return head
    return None


@lru_cache(maxsize=8192)
def label_line_item(label: str) -> str | None:
    """The line item (metric or statement line) a row label is, by its head: "Total net sales"
    → revenue, "Less: cost of revenue" → cost of sales, "Unearned revenue" → deferred revenue,
    "Cash paid for interest" → None. Of "parent: child" the child speaks, else the parent
    ("Provisions: deferred tax", "Revenue: Americas")."""
    text = _NUMBERING.sub("", html.unescape(label))
    text = _FOOTNOTE.sub("", " ".join(text.split()))
    parts = [p.strip() for p in _COLON.split(text) if p.strip()]
    for part in reversed(parts):
        part = _NUMBERING.sub("", part)
        if (head := _head_of_part(part)) is not None:
            return head
    return None


def head_before(label: str, start: int, end: int) -> str | None:
    """The label's own head phrase where the words at `start:end` (a line item it names) stand
    only in its complement: "Payroll tax expense" of "Payroll tax expense related to stock-based
    compensation", "Amortization" of "Amortization of intangible assets"; None where they are
    in the head phrase itself ("Stock-based compensation expense", "Total stock-based
    compensation") or the label has no complement before them."""
    cut = 0
    for m in _COLON.finditer(label):  # "Adjusted to exclude: Payroll tax …": the last part speaks
        if m.end() <= start:
            cut = m.end()
    text = _NUMBERING.sub(lambda m: " " * len(m.group(0)), label[cut:])
    first, last = start - cut, end - cut
    items = [*find_line_items(text), ("", first, last)]
    lead = len(text) - len(text.lstrip())
    while (m := _QUALIFIER.pattern.match(text, lead)) and m.end() > lead and \
            _outside(m.start(), m.end(), items):
        lead = m.end() + len(text[m.end():]) - len(text[m.end():].lstrip())
    complement, _ = _phrase_end(text, lead, items)
    head = text[lead:complement].strip(" ,.:-–—")
    if complement > first or not head or _qualifiers_only(head):
        return None
    return head


def label_subject(label: str) -> str | None:
    """The metric a row or column label is ("Americas net sales" → revenue), None where its
    head is no metric ("Net operating loss carryforwards", "Net cash used in investing
    activities")."""
    item = label_line_item(label)
    return item if item is not None and metric_spec(item) is not None else None


def adds_another_thing(label: str) -> bool:
    """A row label that says another thing beside its line item ("Cash, cash equivalents and
    restricted cash", "Unearned revenue"), or joins two line items ("Total liabilities and
    shareholders' equity"): more, or other, than the line item itself."""
    return _OTHER_THING.found(label) or joins_line_items(label)


def joins_line_items(label: str) -> bool:
    """A row label that joins two line items ("Debt and finance leases", "Total liabilities and
    shareholders' equity"): its figure is their sum, the figure of neither. A parenthesised
    gloss defines the label, it joins nothing ("Taux d'EBE (EBE / chiffre d'affaires)")."""
    label = _outside_glosses(label)
    named = find_line_items(label)
    return len({s for s, _, _ in named}) >= 2 and any(
        _COORDINATOR.pattern.search(label, a_end, b_start)
        for (_, _, a_end), (_, b_start, _) in pairwise(named))


def another_thing_beside(text: str, start: int, end: int) -> bool:
    """A sentence's line item made another thing by the word right beside it: a modifier before
    it ("restricted cash", "non-cash") or the noun after it ("operating loss carryforwards",
    "cash paid for income taxes", "cash proceeds", "revenue recognition")."""
    before = [m for m in _OTHER_THING.pattern.finditer(text, max(0, start - 30), end)
              if m.end() <= start and not text[m.end():start].strip(" -")]
    gap = len(text[end:]) - len(text[end:].lstrip(" -"))
    return bool(before) or (gap > 0 and _OTHER_THING.pattern.match(text, end + gap) is not None) \
        or _listed_with_another_thing(text, end)


def an_included_part(text: str, subject_end: int, amount_start: int) -> bool:
    """The amount is a part that the line item ending at `subject_end` includes: "our cash and
    cash equivalents balance includes short-term investments of $4.6 billion", "operating income
    includes charges of $2.5 billion" state the part's figure, not the subject's. Not where the
    subject's own verb follows the part ("Revenue, which includes services, was $4.1 billion"),
    nor across a table's cells ("Net loss including non-controlling interests | 2021: (570)")."""
    between = text[subject_end:amount_start]
    if subject_end > amount_start or "|" in between:
        return False
    verbs = list(_INCLUDES.pattern.finditer(between))
    if not verbs or _STATED_AS.pattern.search(between, verbs[-1].end()) is not None:
        return False
    # the part is named between the verb and its figure ("includes short-term investments of");
    # "a facility of £1.5m, of which £0.5m was drawn" names none: the figure is the subject's own
    return any(sum(c.isalpha() for c in word) >= _PART_NAME_LETTERS
               for word in between[verbs[-1].end():].split())


_PART_NAME_LETTERS = 4  # a word that names a part, not a complement ("of", "de", "von")


_LIST_REACH = 100  # how far after a line item a list of what its figure adds up may run
_LIST_ITEM_WORDS = 5  # a list's item is a few words; more is a clause


def _listed_with_another_thing(text: str, end: int) -> bool:
    """The line item listed with another thing its figure adds up: "cash, cash equivalents and
    unrestricted marketable securities, which totaled $148.3 billion" states the sum, no cash.
    A list of line items that each have a figure ("revenue and gross profit were …") is not."""
    rest = text[end:end + _LIST_REACH]
    cut = min((i for i in (rest.find(c) for c in ".;:()$") if i >= 0), default=len(rest))
    for part in rest[:cut].split(",")[:3]:
        words = part.split()
        joiner = next((i for i, w in enumerate(words) if w.lower() in _JOINERS), None)
        if joiner is None:
            if len(words) > _LIST_ITEM_WORDS:
                return False  # a clause, not a list
            continue
        listed = " ".join(words[joiner + 1:joiner + 1 + _LIST_ITEM_WORDS])
        if not listed or not _OTHER_THING.found(listed):
            return False
        # another line item of its own in the list: a figure each, not a sum
        return all(_OTHER_THING.found(listed[:start]) for _, start, _ in find_line_items(listed))
    return False
