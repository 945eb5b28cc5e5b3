"""The part of a long passage the model is shown: the run of lines the search was for.

A page's passages are merged into one hit, often longer than what one excerpt may carry; its
first lines are then not always the ones asked about (a note's table under a page of prose).
The window kept is the run of whole lines, within the limit, that holds most of the search's
words (and of the line items' other wordings: "capex" finds "purchases of property and
equipment"), under the passage's first line (a caption or heading says what the rest is).
"""

from __future__ import annotations

from collections.abc import Iterable

from manda.finance.equivalents import expansions
from manda.text import words
from manda.vocabulary import vocabulary

STEM = 5  # words match on their first letters: "acquire", "acquired", "acquisition"
GAP = "…"

_FUNCTION_WORDS = vocabulary().words("question_words") | vocabulary().words("stop_words")


def search_words(texts: Iterable[str]) -> frozenset[str]:
    """The stems of what a search looked for: its words and the other wordings of the line
    items it names, without question and function words."""
    stems: set[str] = set()
    for text in texts:
        for phrase in (text, *expansions(text)):
            stems |= {w[:STEM] for w in words(phrase.lower())
                      if len(w) > 2 and w not in _FUNCTION_WORDS}
    return frozenset(stems)


def passage_window(text: str, stems: frozenset[str], limit: int) -> str:
    """`text` whole when it fits in `limit` characters; else its first line and the run of
    whole lines after it that fits and holds most of `stems` (the earliest such run), with
    "…" where lines were left out."""
    if len(text) <= limit or not stems:
        return text
    first, *lines = text.split("\n")
    if not lines:
        return text
    room = limit - len(first) - 2 * (len(GAP) + 1)
    weights = [len(stems & {w[:STEM] for w in words(line.lower())}) for line in lines]
    best = (-1, 0, 0)  # (words held, start, end)
    end = 0
    size = 0
    held = 0
    for start in range(len(lines)):
        if end < start:
            end, size, held = start, 0, 0
        while end < len(lines) and size + len(lines[end]) + 1 <= room:
            size += len(lines[end]) + 1
            held += weights[end]
            end += 1
        if held > best[0]:
            best = (held, start, end)
        if end > start:
            size -= len(lines[start]) + 1
            held -= weights[start]
    _, start, end = best
    if start == 0 or end <= start:  # the head holds the most: as before
        return text
    shown = [first, GAP, *lines[start:end]]
    if end < len(lines):
        shown.append(GAP)
    return "\n".join(shown)
