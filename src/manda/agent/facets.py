"""What a question asks of its line item beyond its name, and the leads that state something else.

A line item has movements (the additions to an allowance, the cash payments against an accrual,
the RSUs granted, vested or forfeited) and statuses (a fine proposed, against the one paid): a
question that names one of them asks for that figure, and one that names none asks for the item
itself. A part's word in a row's label ("Senior term loan, non-current") is no facet: where no
other row states the item, that row is its balance.

- met: where the question names a movement ("the additions to the valuation allowance", "paid
  in cash against the accrual"), a lead that names none of its wordings (the allowance's
  balance, a charge recorded) states another figure;
- unasked: a row whose label names a movement the question does not ("RSUs granted" where
  those outstanding are asked), or a sentence whose figure is of a status it does not ("a
  proposed $59 million fine" where the payment is asked), states another figure than the one
  asked.

The facets are vocabulary (`facets_asked`, `facets_row_unasked`, `facets_said_unasked` of each
language's cues), each a facet's wordings joined by "|".
"""

from __future__ import annotations

from collections.abc import Iterable

from manda.text import said_in
from manda.vocabulary import vocabulary

__all__ = ["facets_in", "unasked_facet", "unmet_facet"]


def _facets(name: str) -> tuple[tuple[str, ...], ...]:
    """A facet list's entries, each its wordings a question names it by, then after a ">" the
    other wordings a lead meets it by ("pay in cash" is met by "Income taxes paid")."""
    return tuple(sorted(tuple(_said(w) for w in entry.replace(">", "|").split("|"))
                        for entry in vocabulary().words(name)))


def _asked_by(name: str) -> tuple[tuple[str, ...], ...]:
    """The wordings a question names each facet of the list by: those before its ">"."""
    return tuple(sorted(tuple(_said(w) for w in entry.split(">")[0].split("|"))
                        for entry in vocabulary().words(name)))


def _said(text: str) -> str:
    """A text as facets are looked for in it: lower-cased, hyphens as spaces."""
    return " ".join(text.lower().replace("-", " ").split())


_ASKED = _facets("facets_asked")
_ROW_UNASKED = _facets("facets_row_unasked")
_SAID_UNASKED = _facets("facets_said_unasked")
_ALL = tuple(dict.fromkeys((*_asked_by("facets_asked"), *_ROW_UNASKED, *_SAID_UNASKED)))
# a balance at a date asked ("outstanding as of", "at the end of"): a row of a movement
# of it states another figure; a question that asks no balance may be answered by one
_BALANCE = tuple(_said(w) for w in vocabulary().words("facets_balance_asked"))
BALANCE = "="  # the facet that stands for a balance asked


def _names(facet: tuple[str, ...], said: str) -> bool:
    return any(said_in(w, said) for w in facet)


def facets_in(question: str) -> tuple[str, ...]:
    """The facets the question names, each as its first wording ("additions")."""
    said = _said(question)
    balance = (BALANCE,) if _names(_BALANCE, said) else ()
    return (*dict.fromkeys(f[0] for f in _ALL if _names(f, said)), *balance)


def unmet_facet(asked: Iterable[str], text: str) -> str | None:
    """The movement asked (of `asked`, the question's facets) that the text names by none of
    its wordings: the text states another figure than that movement's. None where it names
    each."""
    said, asked = _said(text), set(asked)
    return next((f[0] for f in _ASKED if f[0] in asked and not _names(f, said)), None)


def unasked_facet(asked: Iterable[str], text: str, *, row: bool) -> str | None:
    """The movement a row's label (`row`), or the status a sentence, names that the
    question (`asked`, its facets) does not: the figure of that, not of the item asked. A row's
    only where a balance is asked ("RSUs granted" may answer a grant-date fair value asked)."""
    said, asked = _said(text), set(asked)
    if row and BALANCE not in asked:
        return None
    return next((f[0] for f in (_ROW_UNASKED if row else _SAID_UNASKED)
                 if f[0] not in asked and _names(f, said)), None)
