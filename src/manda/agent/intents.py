"""A question's intent, from the intent cues of every language the product reads.

Intents are inferred, never asked for. The cues are data (`manda/vocabulary/languages/*.yaml`,
`intent_*` cue sets); the order in which intents are tried is the one rule kept here: the first
intent whose cue the question uses wins ("summarise the red flags" is due diligence).
"""

from __future__ import annotations

from manda.answers import Intent
from manda.vocabulary import Cues, vocabulary

__all__ = ["INTENT_CUES", "cued_intent"]

_WORDS = vocabulary()
INTENT_CUES: tuple[tuple[Intent, Cues], ...] = tuple(
    (intent, _WORDS.cues(f"intent_{intent.value}")) for intent in (
        Intent.GAP_IDENTIFICATION, Intent.DUE_DILIGENCE, Intent.COMPARISON, Intent.SYNTHESIS,
        Intent.DEEP_DIVE, Intent.EXPLORATION))
# "against" alone compares only two periods ("Q3 against Q3 last year"), never "claims against"
_WEAK_COMPARISON = _WORDS.cues("intent_comparison_weak")


def cued_intent(text: str, *, periods: int) -> tuple[Intent, str] | None:
    """The intent a cue of the question names, with the cue, or None. `periods`: how many
    periods the question names (a weak comparison word needs two)."""
    for intent, cue in INTENT_CUES:
        if intent is Intent.COMPARISON and (weak := _WEAK_COMPARISON.search(text)) \
                and not cue.found(text):
            if periods >= 2:
                return intent, weak.group(0)
            continue
        if found := cue.search(text):
            return intent, found.group(0)
    return None
