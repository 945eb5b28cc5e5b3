"""Balances and their movements: which side of a balance a row or sentence states, a portion
of a total, a roll-forward's movement, a forecast."""

from __future__ import annotations

from manda.agent.relevance import stems_of
from manda.finance.amounts import find_amounts
from manda.vocabulary import vocabulary

_MOVEMENT = vocabulary().cues("balance_movement")


_OPENING = vocabulary().cues("opening_balance")


_CLOSING = vocabulary().cues("closing_balance")


_TOTAL_START = vocabulary().cues("total_row_start")


_TOTAL_END = vocabulary().cues("total_row_end")


_PORTION_SECTION = vocabulary().cues("portion_section")  # "Current liabilities:"


_STATED_TOTAL = vocabulary().cues("stated_total")  # "our total unearned revenue … was"


_HOLDING = frozenset(stems_of(" ".join(vocabulary().words("holding_verbs"))))


# the words before a figure that say it is a change by that amount ("increased fulfillment
# costs by", "decreased"), not a level
_CHANGED_BY = vocabulary().cues("change_by") | vocabulary().cues("change_verb_before_figure")


def balance_side(text: str, *, row: bool) -> str | None:
    """"opening" or "closing" when the text says which end of its period a balance stands at
    ("Cash, beginning of period", "Balance at end of year", "solde de clôture"), else None. A
    sentence says it in more than a word ("the closing of the acquisition" is no balance)."""
    sides = [side for side, cues in (("opening", _OPENING), ("closing", _CLOSING))
             if any(row or " " in m.group(0).strip() for m in cues.finditer(text))]
    return sides[0] if len(sides) == 1 else None


PORTION_ROW = vocabulary().cues("portion_row")  # "current portion of", "net of current portion"


def a_portion(label: str) -> bool:
    """A row of a portion of its line item, not the whole: "Current portion of borrowings",
    "Borrowings, net of current portion", "Non-current lease liabilities", "davon"."""
    return PORTION_ROW.found(label)


def totals_row(label: str) -> bool:
    """A row that adds up the rows above it: "Total net sales", "Consolidated", "Summe"."""
    return _TOTAL_START.begins(label) or _TOTAL_END.ends(label)


_FORECAST = vocabulary().cues("forecast_stated")  # a sentence that states a forecast


def states_forecast(text: str) -> bool:
    """A sentence that states a forecast with a figure ("we expect capex of $5 billion"); not
    a figure stated as a fact before a sentence read with it that forecasts without one
    ("there was $16.9 billion of unrecognized cost. This compensation is … expected to be
    expensed in the next twelve months")."""
    return any(qualifies_figure(text, m.start()) for m in _FORECAST.finditer(text)) and \
        bool(find_amounts(text))


def qualifies_figure(text: str, at: int) -> bool:
    """A word at `at` (a forecast's, a hedge's) speaks of a figure of the text: one stands in
    its sentence or after it, or the text states none before its sentence."""
    start = text.rfind(". ", 0, at) + 1
    return bool(find_amounts(text[start:])) or not find_amounts(text[:start])


def a_movement(text: str) -> bool:
    """The words of a balance's movement ("proceeds from", "repayments of", "increase in")."""
    return _MOVEMENT.search(text) is not None
