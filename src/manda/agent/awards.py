"""A balance asked at a date and an equity award's kind and measure: what a sentence's figure is.

A question that asks the level a thing stands at on a date ("the goodwill balance of the
Mobility segment as of December 31, 2020", "options outstanding at year end") is not answered
by a sentence whose figure is an event's amount ("resulting in the recognition of $2.5 billion
in goodwill", "charges included $248 million of cash settled charges"): that is a flow of the
period, the balance's movement.

A question that names one kind of equity award (restricted stock units, performance units,
stock options, appreciation rights, an employee stock purchase plan's shares) is not
answered by a sentence that names only another kind ("the grant-date fair values of stock
options and SARs" for the RSUs'); nor, where it asks one measure of an award (its exercise
price, its grant-date fair value, its intrinsic value), by a sentence whose figures each
stand after another measure ("the fair value of the common stock of $42.73" for the options'
exercise price).

The words are vocabulary (`balance_asked`, `balance_stated`, `event_amount`, `award_kind_*`,
`award_measure_*` of each language's file).
"""

from __future__ import annotations

from dataclasses import dataclass

from manda.finance.amounts import find_amounts
from manda.finance.periods import period_kind
from manda.vocabulary import vocabulary

__all__ = ["AwardAsked", "another_kind", "award_asked", "award_kinds", "balance_asked",
           "other_award", "other_award_measure", "states_flow_only"]


@dataclass(frozen=True)
class AwardAsked:
    """What a question asks of a balance or an equity award, read once with the question
    (`QuestionFrame.award`): a word of a balance (at a date the frame's periods say), the kinds
    of award it names, the measures of an award it names, a figure of one share or unit."""

    balance_words: bool = False  # a word of a balance ("balance", "outstanding", "nonvested")
    kinds: frozenset[str] = frozenset()
    measures: frozenset[str] = frozenset()
    per_unit: bool = False


def award_asked(question: str) -> AwardAsked:
    """The question read for `AwardAsked`."""
    return AwardAsked(balance_words=_BALANCE_ASKED.found(question),
                      kinds=frozenset(award_kinds(question)),
                      measures=frozenset(m for _, m in _measures_in(question)),
                      per_unit=_PER_UNIT.found(question))

_BALANCE_ASKED = vocabulary().cues("balance_asked")
_PER_UNIT = vocabulary().cues("per_unit_asked")  # "per share", "weighted-average"
# a figure of one share or unit is written below this: one of millions is a total's
_PER_UNIT_BELOW = 10_000
_BALANCE_STATED = vocabulary().cues("balance_stated") | vocabulary().cues("closing_balance")
_EVENT = vocabulary().cues("event_amount")

# a performance unit is read before the restricted units it is a kind of ("performance-based
# restricted stock units" are no RSUs of their own)
_KINDS = tuple((kind, vocabulary().cues(f"award_kind_{kind}"))
               for kind in ("psu", "rsu", "sar", "option", "espp"))
# a measure that names another's words is read before it ("grant-date fair value" before
# "fair value")
_MEASURES = tuple((measure, vocabulary().cues(f"award_measure_{measure}"))
                  for measure in ("grant_value", "vesting_value", "exercise_price", "intrinsic",
                                  "fair_value"))


def another_kind(text: str, asked: AwardAsked, periods: tuple[str, ...] | list[str],
                 passage: str = "") -> bool:
    """The sentence's figure is of another kind than the one the question asks (`asked`, at
    its `periods`): an event's amount where a balance at a date is asked, another kind of
    award, or another measure of the award asked. `passage`: the passage the sentence is read
    in (a table's column titles name the measure of its lines)."""
    balance = asked.balance_words and any(period_kind(p) == "as" for p in periods)
    return (balance and states_flow_only(text)) or \
        other_award(text, asked.kinds) or other_award_measure(text, asked, passage)


def balance_asked(question: str, periods: tuple[str, ...] | list[str]) -> bool:
    """The question asks the level a thing stands at on a date: it names a date it stands at
    ("as of December 31, 2020") and a word of a balance ("balance", "outstanding",
    "nonvested")."""
    return any(period_kind(p) == "as" for p in periods) and _BALANCE_ASKED.found(question)


def _figures(text: str) -> list[tuple[int, int]]:
    """Where the text states figures: money, or numbers written with a decimal or grouping."""
    return [(a.start, a.end) for a in find_amounts(text)
            if a.currency or a.unit or any(sep in a.text for sep in ".,")]


def states_flow_only(text: str) -> bool:
    """The sentence states an event's amount (a word of an event in the clause before one of
    its figures: "the recognition of $2.5 billion", "charges included $248 million") and no
    balance at all (no "balance", "outstanding", "carrying", "accrued")."""
    if _BALANCE_STATED.found(text):
        return False
    last = 0
    for start, end in _figures(text):
        clause = text[max(last, text.rfind(",", 0, start) + 1,
                          text.rfind(";", 0, start) + 1):start]
        if _EVENT.found(clause):
            return True
        last = end
    return False


def award_kinds(text: str) -> set[str]:
    """The kinds of equity award the text names ("rsu", "psu", "option", "sar"); a kind named
    inside another's name ("performance-based restricted stock units") is that other's."""
    found: set[str] = set()
    for kind, words in _KINDS:
        if words.found(text):
            found.add(kind)
            text = words.pattern.sub(" ", text)
    return found


def other_award(text: str, asked: frozenset[str]) -> bool:
    """The question names a kind of award (`asked`) and the sentence names others only."""
    named = award_kinds(text)
    return bool(asked) and bool(named) and not (asked & named)


def _measures_in(text: str) -> list[tuple[int, str]]:
    """Where the text names a measure of an award, and which, in the order written."""
    found: list[tuple[int, str]] = []
    for measure, words in _MEASURES:
        for m in words.finditer(text):
            found.append((m.end(), measure))
        text = words.pattern.sub(lambda m: " " * len(m.group(0)), text)
    return sorted(found)


def other_award_measure(text: str, question: AwardAsked, passage: str = "") -> bool:
    """The question asks one measure of an award ("the weighted-average exercise price of
    options") and the sentence states figures of none of it: a figure of one share is asked
    and its amounts are totals ("a deferred tax asset of $1.1 billion"); each of its figures
    stands after another measure ("the fair value of the common stock of $42.73"); or it names
    no measure of an award at all, nor does the passage it is read in (a statement of equity's
    rows: "Exercise of stock options 6,924"; a table's line is measured by its column titles).
    A fair value named bare may be the one measured at grant or at vesting."""
    if not question.kinds:
        return False
    asked = set(question.measures)
    if len(asked) != 1:
        return False
    figures = _figures(text)
    if not figures:
        return False
    money = [a for a in find_amounts(text) if a.currency]
    if question.per_unit and money and all(a.value >= _PER_UNIT_BELOW for a in money):
        return True  # "a deferred tax asset of $1.1 billion" for a value per share
    measures = _measures_in(text)
    if not measures:
        return not _measures_in(passage)
    owners = [next((m for at, m in reversed(measures) if at <= start), None)
              for start, _ in figures]
    return all(owner is not None and not asked & {owner, *_NARROWER.get(owner, ())}
               for owner in owners)


# a measure named bare that may be one of these ("the fair value of RSUs granted" is their
# grant-date fair value)
_NARROWER = {"fair_value": {"grant_value", "vesting_value"}}
