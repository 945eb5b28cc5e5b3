"""The measure a figure is of, where it is neither money nor a count of things: an area
("retail square feet in Texas"), read from the vocabulary's `measure_kinds` and each kind's cue
set `measure_<kind>`. A question that asks a figure of one is answered only by a passage that
states a figure of it: a money amount or a count of stores beside it is another measure."""

from __future__ import annotations

import re
from functools import cache

from manda.vocabulary import Cues, vocabulary

__all__ = ["measure_asked", "measure_of", "measure_wordings", "names_measure"]


@cache
def _kinds() -> tuple[tuple[str, Cues], ...]:
    return tuple((kind, vocabulary().cues(f"measure_{kind}").accents_optional())
                 for kind in sorted(vocabulary().words("measure_kinds")))


def measure_asked(text: str) -> str:
    """The measure the question's figure is of ("area"); "" where it names none."""
    return next((kind for kind, cue in _kinds() if cue.found(text)), "")


def names_measure(kind: str, said: str) -> bool:
    """The words (a sentence, a row's label and the heading over it) name the measure."""
    return any(cue.found(said) for name, cue in _kinds() if name == kind)


def measure_of(text: str, end: int) -> str:
    """The measure an amount ending at `end` is written in ("170,000 square feet": "area");
    "" where no measure's word follows it."""
    after = text[end:]
    return next((kind for kind, cue in _kinds() if cue.starts(after)), "")


def measure_wordings(text: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each measure's words as the question writes them, and the pattern of every wording of
    that measure: "square footage" asked is said as "Retail Square Feet" or "sq. ft." too."""
    return tuple((" ".join(m.group(0) for m in cue.finditer(text)), cue.pattern)
                 for _, cue in _kinds() if cue.found(text))
