"""How text can hide what it says: invisible characters, compatibility forms, and letters of other
scripts drawn like Latin ones.

Two uses, one table each way. Text shown to a person keeps every invisible character visible
(`show_invisible`), so two file names that differ only by a zero-width space never look alike.
Text matched against patterns (the prompt-injection detector) is brought to one form first
(`matching_form`): invisible characters dropped, NFKC compatibility forms folded (fullwidth,
mathematical and circled letters become plain ones), and Cyrillic, Greek and other look-alike
letters read as the Latin letters they are drawn like (Unicode's confusables, through the
`confusable-homoglyphs` package), so "ig\u200bnore" and "іgnore" (Cyrillic і) read "ignore".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

# Unicode's format characters (general category Cf, as of Unicode 14): zero-width space, joiners
# and non-joiner, bidi controls, word joiner and invisible operators, byte-order mark, soft
# hyphen, interlinear annotation marks, tag characters, and a few script-specific marks.
FORMAT_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD), (0x070F, 0x070F),
    (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD),
    (0x110CD, 0x110CD), (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001), (0xE0020, 0xE007F),
)
# Characters of other categories that draw nothing: the combining grapheme joiner, the Hangul
# fillers, and the Mongolian variation selectors.
BLANK_RANGES: tuple[tuple[int, int], ...] = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x3164, 0x3164), (0xFFA0, 0xFFA0), (0x180B, 0x180D),
    (0x180F, 0x180F),
)
# Control characters (newline and tab kept).
CONTROL_RANGES: tuple[tuple[int, int], ...] = ((0x00, 0x08), (0x0B, 0x1F), (0x7F, 0x9F))

SHOWN_AS = "\ufffd"  # the mark a hidden character is shown as


def _code_points(ranges: Iterable[tuple[int, int]]) -> list[int]:
    return [c for low, high in ranges for c in range(low, high + 1)]


INVISIBLE: frozenset[int] = frozenset(_code_points((*FORMAT_RANGES, *BLANK_RANGES)))
_SHOWN = dict.fromkeys(_code_points((*FORMAT_RANGES, *BLANK_RANGES, *CONTROL_RANGES)), SHOWN_AS)
_DROPPED = dict.fromkeys(INVISIBLE)


def show_invisible(text: str) -> str:
    """`text` with every control, format and blank character shown as a visible mark."""
    return text.translate(_SHOWN)


def _char_class(code_points: Iterable[int]) -> str:
    return "".join(re.escape(chr(c)) for c in sorted(code_points))


# a first look in C: most text has none of these, and is then left as it is
_ANY_HIDDEN = re.compile(f"[{_char_class(INVISIBLE | set(range(0xE0000, 0xE0080)))}]")


def drop_invisible(text: str) -> str:
    """`text` without the characters that draw nothing (controls, newlines and tabs kept)."""
    return text.translate(_DROPPED) if _ANY_HIDDEN.search(text) else text


TAG_TEXT = {c: chr(c - 0xE0000) for c in range(0xE0020, 0xE007F)}  # ASCII hidden as tags


def matching_form(text: str) -> str:
    """The form patterns are matched in: ASCII hidden in tag characters read out, invisible
    characters dropped, NFKC, look-alike letters of other scripts read as Latin. For matching
    only: never shown, never stored."""
    if text.isascii():
        return text  # nothing hidden, nothing to fold (controls are kept, as everywhere)
    if _ANY_HIDDEN.search(text):
        text = drop_invisible(text.translate(TAG_TEXT))
    folded = unicodedata.normalize("NFKC", text)
    if folded.isascii():
        return folded
    return folded.translate(_latin_look_alikes())


@cache
def _latin_look_alikes() -> dict[int, str]:
    """Letter of another script → the ASCII letter or digit it is drawn like (Unicode's
    confusables), for the letters a Latin word can be spelled with."""
    from confusable_homoglyphs import categories, confusables

    table: dict[int, str] = {}
    for character, homoglyphs in confusables.confusables_data.items():
        if len(character) != 1 or character.isascii():
            continue
        if categories.alias(character) in ("LATIN", "COMMON"):
            continue
        latin = [h["c"] for h in homoglyphs if len(h["c"]) == 1 and h["c"].isascii()
                 and h["c"].isalnum()]
        if latin:
            # Unicode draws I, l and 1 alike (its skeleton is "l"): a capital reads as I
            table[ord(character)] = "I" if latin[0] == "l" and character.isupper() else latin[0]
    return table
