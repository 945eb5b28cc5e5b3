"""How every language writes an amount's unit (multipliers, thousands of a currency, scale and
currency words), read once from the language files' `numbers:` for the amount and period readers.

It sits below both (`manda.finance.amounts` reads periods, and a period's column header reads
these units: "Ist 2024 TEUR", "2024 £m"), so neither has to import the other for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from manda.vocabulary.cues import Cues, cues
from manda.vocabulary.load import load
from manda.vocabulary.model import NumberWords

__all__ = ["CODES", "CURRENCY_WORDS", "MULTIPLIER", "MULTIPLIERS", "MULTIPLIER_WORDS",
           "THOUSANDS_UNITS", "alternatives", "currency_of", "number_words", "scale_phrases",
           "unit_lead"]

# currency symbols and ISO codes: notation, the same in every language
CODES = {
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "£": "GBP", "gbp": "GBP",
    "$": "USD", "us$": "USD", "usd": "USD",
    "chf": "CHF",
}


def number_words() -> list[NumberWords]:
    """Every language's way of writing amounts, English first."""
    return [lang.numbers for lang in load().languages.values()]


def alternatives(words: Iterable[str]) -> str:
    """Words as one alternation, longest first, each as written (case matters: "M" vs "m")."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


def currency_of(unit: str) -> str:
    """The currency a unit such as "TEUR", "K€" or "TCHF" is of."""
    for code in ("EUR", "USD", "GBP", "CHF"):
        if unit.upper().endswith(code):
            return code
    return CODES.get(unit[-1:], "EUR")


# A word after a number that multiplies it ("million", "Mio.", "Md"), in every language.
MULTIPLIER_WORDS = [w for lang in number_words() for ws in lang.multipliers.values() for w in ws]
MULTIPLIERS: dict[str, int] = {
    w.lower().rstrip("."): factor for lang in number_words()
    for factor, words in lang.multipliers.items() for w in words}
# the multiplier words as one alternation, for grammars written around an amount
MULTIPLIER = alternatives(MULTIPLIER_WORDS)
# Thousands of a currency after the number ("4.620 TEUR", "3.200 T€", "5 200 K€").
THOUSANDS_UNITS: dict[str, str] = {
    w: currency_of(w) for lang in number_words() for w in lang.thousands_of_currency}
# A currency named in words ("euros", "d'euros", "pounds sterling").
CURRENCY_WORDS: dict[str, str] = {
    w.lower(): code for lang in number_words()
    for code, words in lang.currencies.items() for w in words}


def unit_lead() -> str:
    """The words before a unit, as one alternation ("in thousands", "en milliers d'euros")."""
    return "|".join(r"\s+".join(map(re.escape, w.split())) for w in sorted(
        load().words("unit_lead"), key=len, reverse=True))


def scale_phrases() -> Cues:
    """A unit line's scale as words: the word before a unit and a scale word of any language
    ("in millions", "en milliers d'euros", "in Tausend", "en miles de euros")."""
    return cues(f"{lead} {word}" for lead in load().phrases("unit_lead")
                for lang in number_words() for words in lang.scales.values() for word in words)
