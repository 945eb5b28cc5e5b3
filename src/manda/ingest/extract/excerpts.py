"""Verbatim excerpts: 50–200 characters of the source around a value, cut on word boundaries.

Every finding is cited by an excerpt that must be found, character for character, in the text the
retrieval returns; these helpers cut sentences, size excerpts and find the chunk that holds one.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import lru_cache

from manda.models import Chunk
from manda.vocabulary import vocabulary

__all__ = [
    "MAX_EXCERPT",
    "MIN_EXCERPT",
    "ChunkLocator",
    "chunk_for",
    "excerpt_span",
    "find_verbatim",
    "paragraph_spans",
    "sentence_spans",
]

MIN_EXCERPT = 50
MAX_EXCERPT = 200

_WORDS = vocabulary()
_ABBREVIATIONS = _WORDS.words("abbreviations")  # a dot after them ends no sentence
_BREAK = re.compile(r"[.!?;](?=\s+[\"“(\[]?[A-Z0-9€£$•\-–])")
# "am 18. Juni 2025", "vom 1. April": a day written with a dot before its month ends no sentence.
_DAY_MONTH = _WORDS.cues("day_dot_months").around(head=r"\s+", tail=r"\.?")
_BULLET = re.compile(r"^\s*(?:[•▪◦·\-–*\uf0b7\uf0a7]|\d+[.)])\s+")


def _is_table_line(line: str) -> bool:
    return line.count(" | ") >= 1


def _line_spans(text: str) -> list[tuple[int, int]]:
    """Lines joined where a sentence wraps onto the next line.

    The next line continues this one unless this one ends a sentence, either is a bullet or a
    table row, or this one is short (a heading, a list item): a wrapped paragraph fills its lines.
    """
    spans: list[tuple[int, int]] = []
    pos = 0
    previous = ""
    for line in text.split("\n"):
        start, end = pos, pos + len(line)
        pos = end + 1
        if not line.strip():
            spans.append((start, start))
            previous = ""
            continue
        head = line.lstrip()[:1]
        continues = (
            bool(previous)
            and not previous.rstrip().endswith((".", "!", "?", ":", ";"))
            and not _BULLET.match(line)
            and not _is_table_line(line)
            and not _is_table_line(previous)
            and (head.islower() or head in "€£$(0123456789" or len(previous.rstrip()) >= 60)
        )
        if continues:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
        previous = line
    return [s for s in spans if s[1] > s[0]]


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each paragraph: a line, or lines a wrapped sentence runs across."""
    return _line_spans(text)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, bullet or table line of `text`, whitespace trimmed."""
    out: list[tuple[int, int]] = []
    for lstart, lend in _line_spans(text):
        cut = lstart
        for m in _BREAK.finditer(text, lstart, lend):
            word = re.search(r"([\w.]+)$", text[cut : m.start()])
            if word and word.group(1).lower().rstrip(".") in _ABBREVIATIONS:
                continue
            if (word and word.group(1).isdigit() and len(word.group(1)) <= 2
                    and text[m.start()] == "." and _DAY_MONTH.match(text, m.end())):
                continue
            out.append((cut, m.end()))
            cut = m.end()
        out.append((cut, lend))
    trimmed: list[tuple[int, int]] = []
    for s, e in out:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            trimmed.append((s, e))
    return trimmed


def _left(text: str, s: int) -> int:
    i = s
    while i > 0 and text[i - 1].isspace():
        i -= 1
    while i > 0 and not text[i - 1].isspace():
        i -= 1
    return i


def _right(text: str, e: int) -> int:
    i, n = e, len(text)
    while i < n and text[i].isspace():
        i += 1
    while i < n and not text[i].isspace():
        i += 1
    return i


def excerpt_span(
    text: str,
    start: int,
    end: int,
    *,
    bounds: tuple[int, int] | None = None,
    anchor: tuple[int, int] | None = None,
    min_len: int = MIN_EXCERPT,
    max_len: int = MAX_EXCERPT,
) -> tuple[int, int]:
    """The span of an excerpt that contains text[start:end] (the value).

    It is the sentence (`bounds`) when that fits in `max_len`, else a window around the value that
    keeps `anchor` (say, the metric's name) when it can. A short result first takes in whole
    neighbouring sentences or lines (the line above a table row: its header), then words, until it
    reaches `min_len`. Words are never cut, except a value longer than the limit.
    """
    s, e = start, end
    if anchor is not None and max(e, anchor[1]) - min(s, anchor[0]) <= max_len:
        s, e = min(s, anchor[0]), max(e, anchor[1])
    fits = bounds is not None and bounds[1] - bounds[0] <= max_len
    if bounds is not None and fits and bounds[0] <= s and e <= bounds[1]:
        s, e = bounds
    s, e = _snap(text, s, e)
    if e - s < min_len:
        s, e = _grow_by_units(text, s, e, min_len, max_len)
    s, e = _grow_by_words(text, s, e, min_len, max_len)
    if e - s > max_len:
        s, e = _window(text, start, end, max_len)
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


def _grow_by_units(text: str, s: int, e: int, min_len: int, max_len: int) -> tuple[int, int]:
    units, starts, ends = _units(text)
    first = bisect_right(ends, s)  # the first unit that ends after s
    last = max(bisect_left(starts, e) - 1, first)  # the last unit that starts before e
    while e - s < min_len:
        before = units[first - 1] if first > 0 else None
        after = units[last + 1] if last + 1 < len(units) else None
        table_row = " | " in text[s:e]
        for unit, side in ((before, -1), (after, 1)) if table_row else ((after, 1), (before, -1)):
            if unit is not None and max(e, unit[1]) - min(s, unit[0]) <= max_len:
                s, e = min(s, unit[0]), max(e, unit[1])
                first, last = (first - 1, last) if side < 0 else (first, last + 1)
                break
        else:
            break
    return s, e


def _grow_by_words(text: str, s: int, e: int, min_len: int, max_len: int) -> tuple[int, int]:
    grow_right = True
    while e - s < min_len:
        ns, ne = (s, _right(text, e)) if grow_right else (_left(text, s), e)
        if (ns, ne) == (s, e) or ne - ns > max_len:
            other = (_left(text, s), e) if grow_right else (s, _right(text, e))
            if other == (s, e) or other[1] - other[0] > max_len:
                break
            ns, ne = other
        s, e = ns, ne
        grow_right = not grow_right
    return s, e


@lru_cache(maxsize=32)
def _units(text: str) -> tuple[tuple[tuple[int, int], ...], list[int], list[int]]:
    spans = tuple(sentence_spans(text))
    return spans, [u[0] for u in spans], [u[1] for u in spans]


def _snap(text: str, s: int, e: int) -> tuple[int, int]:
    """Widen a span to whole words."""
    while s > 0 and not text[s - 1].isspace() and not text[s].isspace():
        s -= 1
    while e < len(text) and not text[e].isspace() and e > 0 and not text[e - 1].isspace():
        e += 1
    return s, e


def _window(text: str, start: int, end: int, max_len: int) -> tuple[int, int]:
    if end - start >= max_len:
        return start, start + max_len
    room = max_len - (end - start)
    s = max(0, start - room // 2)
    e = min(len(text), s + max_len)
    s = max(0, min(s, e - max_len))
    if s > 0 and not text[s - 1].isspace():
        nxt = text.find(" ", s, start)
        s = nxt + 1 if nxt != -1 else s
    if e < len(text) and not text[e].isspace():
        prev = text.rfind(" ", end, e)
        e = prev if prev != -1 else e
    return s, e


def find_verbatim(haystack: str, needle: str) -> tuple[int, int] | None:
    """Where `needle` occurs in `haystack`, exactly or up to whitespace (line breaks, runs)."""
    needle = needle.strip()
    if not needle:
        return None
    at = haystack.find(needle)
    if at != -1:
        return at, at + len(needle)
    words = needle.split()
    pattern = r"\s+".join(re.escape(w) for w in words)
    m = re.search(pattern, haystack)
    return (m.start(), m.end()) if m else None


def chunk_for(excerpt: str, chunks: Sequence[Chunk]) -> Chunk | None:
    """The first chunk whose text contains the excerpt verbatim."""
    for chunk in chunks:
        if excerpt in chunk.text:
            return chunk
    return None


class ChunkLocator:
    """Finds the chunk of a section that holds an excerpt without scanning every chunk.

    Chunks follow the section's text in order; each is indexed by where its last line ends in
    the section, so an excerpt ending at `end` is looked for in the few chunks ending after it
    first, and in all of them only if those do not hold it.
    """

    def __init__(self, text: str, chunks: Sequence[Chunk]) -> None:
        self._chunks = list(chunks)
        ends: list[tuple[int, int]] = []
        for i, chunk in enumerate(self._chunks):
            lines = [line.strip() for line in chunk.text.split("\n") if line.strip()]
            at = text.find(lines[-1]) if lines else -1
            ends.append((at + len(lines[-1]) if at != -1 else len(text), i))
        ends.sort()
        self._ends = [end for end, _ in ends]
        self._order = [self._chunks[i] for _, i in ends]

    def find(self, excerpt: str, end: int | None = None) -> Chunk | None:
        if end is not None:
            first = bisect_left(self._ends, end)
            for chunk in self._order[first : first + 3]:
                if excerpt in chunk.text:
                    return chunk
        return chunk_for(excerpt, self._chunks)
