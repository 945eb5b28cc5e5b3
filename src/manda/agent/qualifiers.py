"""Which measure of a line item a question asks: its qualifier, and the siblings against it.

A question that puts a qualifier on its line item ("grant-date fair value", "federal income taxes
paid", "operating lease cost") asks for one measure of a thing that has several. A row or a
sentence that names the same thing by a sibling qualifier ("vesting-date fair value", "Total
income taxes paid", "Net lease cost") and never by the one asked states another measure: it is
no answer, however many of the question's other words it says.

The sibling sets are vocabulary (`sibling_measures` and `whole_measures` of each language's
file); a qualifier that is part of the line item's own name ("net income", "deferred revenue")
is the item, not a measure of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from manda.agent.relevance import PERIOD_FORMS, content_terms, stems_of, term_in
from manda.text import said_in
from manda.vocabulary import vocabulary
from manda.vocabulary.plurals import plural_phrase

__all__ = ["Qualified", "contradicted", "qualified_in", "unqualified"]


@dataclass(frozen=True)
class Qualified:
    """A qualifier the question puts on a line item, its siblings, and the words it qualifies."""

    word: str  # as the vocabulary writes it, lower-cased, hyphens as spaces ("grant date")
    siblings: tuple[str, ...]  # the other measures' qualifiers and the whole's ("vesting date")
    heads: tuple[str, ...]  # the question's terms it qualifies ("fair", "value")
    also: tuple[str, ...] = ()  # its other wordings ("fair values", "estimated fair value")


_HEADS = 2  # the question's terms after a qualifier that name what it qualifies


def _said(text: str) -> str:
    """A text as qualifiers are looked for in it: lower-cased, hyphens as spaces."""
    return " ".join(text.lower().replace("-", " ").split())


def _sets() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """Every language's sibling sets, each with its language's whole qualifiers."""
    return tuple((tuple(_said(w) for w in group), tuple(_said(w) for w in lang.whole_measures))
                 for lang in vocabulary().languages.values() for group in lang.sibling_measures)


def _values() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Every language's measures of one amount ("fair value", "carrying amount"), each member
    with its wordings."""
    return tuple(tuple(tuple(_said(w) for w in member.split("|")) for member in group)
                 for lang in vocabulary().languages.values() for group in lang.value_measures)


_SETS = _sets()
_VALUES = _values()
# the measures a statement's row states where it names none ("carrying amount")
_STATED = frozenset(_said(w) for lang in vocabulary().languages.values()
                    for w in lang.stated_measures)
_PLURALS = tuple(lang.plural for lang in vocabulary().languages.values())
_NOW = vocabulary().cues("now_asked")
_MEMBERS = frozenset(w for group, _ in _SETS for w in group)


def qualified_in(question: str, subjects: Iterable[str], *, now: bool = False) -> tuple[
        Qualified, ...]:
    """The qualifiers the question puts on what it asks ("federal" of "federal income taxes
    paid"), each with its siblings and the words it qualifies. Not a qualifier that is part of
    a line item's name the question names ("net" of "net income"), nor "current" where the
    question asks for the present ("the current cash position")."""
    said = _said(question)
    names = [_said(s) for s in subjects]
    found: dict[str, Qualified] = {}
    for group, wholes in _SETS:
        for word in group:
            if word in found or not said_in(word, said) or any(
                    said_in(word, name) for name in names):
                continue
            if now and _NOW.found(word):
                continue
            at = said.find(word)
            heads = _heads(said[at + len(word):]) or _heads(said[:at], last=True)
            if not heads:
                continue
            others = tuple(w for w in group if w != word and not said_in(w, said))
            found[word] = Qualified(word, (*others, *wholes), heads)
    return (*found.values(), *_values_in(said, names, tuple(found.values())))


def _values_in(said: str, names: list[str], others: tuple[Qualified, ...]) -> tuple[
        Qualified, ...]:
    """The measure of an amount the question names ("the fair value of its debt"), with the
    other measures as its siblings; not one another qualifier qualifies ("grant-date fair
    value"), nor one a line item's name the question names says."""
    found: list[Qualified] = []
    for group in _VALUES:
        for n, member in enumerate(group):
            word = next((w for w in member if said_in(w, said)), None)
            if word is None or any(said_in(w, name) for w in member for name in names) or any(
                    all(term_in(t, set(q.heads)) for t in content_terms(word)) for q in others):
                continue
            heads = _heads(said[said.find(word) + len(word):])
            siblings = tuple(w for m, other in enumerate(group) if m != n for w in other
                             if not said_in(w, said))
            if heads and siblings:
                found.append(Qualified(word, siblings, heads,
                                       tuple(w for w in member if w != word)))
                break
    return tuple(found)


def _heads(text: str, *, last: bool = False) -> tuple[str, ...]:
    """The first (or last) terms of the text that are no qualifier themselves."""
    terms = [t for t in content_terms(text) if not t.isdigit() and t not in PERIOD_FORMS
             and not any(term_in(t, {m}) or m.startswith(t) for m in _MEMBERS)]
    return tuple(terms[-_HEADS:] if last else terms[:_HEADS])


def _split(stems: set[str]) -> set[str]:
    """A text's stems with the parts of its hyphened words: "long-term" says "long" and
    "term", as a question's words are read."""
    return stems | {part for s in stems if "-" in s for part in s.split("-") if part}


def contradicted(asked: Iterable[Qualified], text: str, stems: set[str]) -> Qualified | None:
    """The qualifier asked that the text contradicts: it names what the qualifier qualifies (a
    word of it among `stems`) by a sibling ("Total income taxes paid", "Net lease cost") and
    never by the qualifier asked; None where it does not."""
    said, stems = _said(text), _split(stems)
    for q in asked:
        if any(said_in(w, said) for w in _with_plurals((q.word, *q.also))) or not any(
                term_in(h, stems) for h in q.heads):
            continue
        if any(said_in(s, said) for s in q.siblings):
            return q
    return None


def unqualified(asked: Iterable[Qualified], label: str, named: str) -> bool:
    """A row's label names what a qualifier asked qualifies and its name (`named`: its label
    with its block's heading) no word of the qualifier: the unqualified whole ("Provision for
    income taxes" where the current federal provision is asked)."""
    own, said = _split(stems_of(label)), stems_of(named)
    return any(any(term_in(h, own) for h in q.heads) and not any(
        term_in(t, said) for t in stems_of(q.word)) for q in asked if q.word not in _STATED)


def _with_plurals(words: Iterable[str]) -> tuple[str, ...]:
    """The wordings with their plurals in every language ("finance leases" of "finance
    lease"): a column titled in the plural names the qualifier asked."""
    return tuple(dict.fromkeys(f for w in words for f in (
        w, *filter(None, (plural_phrase(w, rule) for rule in _PLURALS)))))
