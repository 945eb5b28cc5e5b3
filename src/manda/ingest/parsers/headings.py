"""Headings a page shows by layout (a larger or bolder font, a numbered title standing alone), and
the heading path each line of a paged document stands under, across pages.

A heading's rank orders it against the others: the larger its font, then bold before regular,
then the fewer numbers it carries ("3" before "3.2"; "Part II" before "Item 7") — so a document
needs no declared levels. Lines that repeat on many pages (running heads) are page furniture, not
headings. A table's caption (the lines just above it: "Consolidated Statements of Operations",
"(in millions, except per share data)") is one more heading over the table's own lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from manda.ingest.parsers.layout import (
    CAPTION_LINES,
    caption_heading,
    has_amount,
    is_title_line,
    without_column_headers,
)
from manda.models import HeadingPath, Section
from manda.vocabulary import vocabulary

MAX_TITLE_CHARS = 120
MAX_TITLE_WORDS = 16
LARGER = 1.15  # a line this much taller than the page's body text is set as a heading
FURNITURE_PAGES = 3  # a title on at least this many pages (and a third of them) is a running head

_SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or",
                          "the", "to", "vs", "with", "&", "-", "–", "—"})
_TABLE_ROW = " | "


@cache
def _numbering() -> tuple[re.Pattern[str], re.Pattern[str], frozenset[str]]:
    """(a numbered heading, a number and its title in two cells, the words of outermost parts),
    from the words every language numbers headings with (`heading_numbers` in the vocabulary:
    "Item 7A.", "Note 5", "Teil II")."""
    words = vocabulary().words("heading_numbers")
    number = (r"(?:(?P<word>" + "|".join(sorted(map(re.escape, words), key=len, reverse=True))
              + r")\s+)?(?P<number>\d{1,2}[A-Z]?(?:\.\d{1,2})*|(?<=\s)[IVX]{1,4})[.):]?")
    return (re.compile(rf"^{number}(?:\s+(?P<title>\S.*))?$", re.IGNORECASE),
            re.compile(rf"^{number} \| (?P<title>[^|]+)$", re.IGNORECASE),
            vocabulary().words("heading_parts"))


@dataclass(frozen=True)
class DrawnLine:
    """A line as the page draws it: its text, its font's height, and whether that font is bold."""

    text: str
    height: float
    bold: bool


@dataclass(frozen=True)
class PageFonts:
    """What the page's layout says about its lines: the body text's height and weight, and the
    lines set apart from it (taller or bolder)."""

    body_height: float
    body_bold: bool
    prominent: tuple[DrawnLine, ...]


@dataclass(frozen=True)
class HeadingMark:
    """A heading found on a page: the line it starts on, its rank (smaller is outer), its title."""

    line: int
    rank: tuple[float, int, int]
    title: str


def page_fonts(lines: Sequence[DrawnLine]) -> PageFonts:
    """The body text's height (the one most characters are set in) and the lines above it."""
    sizes: Counter[float] = Counter()
    bold_chars = 0
    total = 0
    for line in lines:
        chars = len(line.text.replace(" ", ""))
        sizes[round(line.height * 2) / 2] += chars
        total += chars
        bold_chars += chars if line.bold else 0
    if not total:
        return PageFonts(0.0, False, ())
    body = sizes.most_common(1)[0][0]
    body_bold = bold_chars * 2 > total
    prominent = tuple(line for line in lines if line.height >= body * LARGER
                      or (line.bold and not body_bold and line.height >= body * 0.95))
    return PageFonts(body, body_bold, prominent)


# ---------------------------------------------------------------- one page


def _title(line: str, *, continued: bool = False) -> tuple[str, int] | None:
    """(title, numbering depth) when `line` can be a heading: short, no amounts, no sentence.
    A `continued` line (the second line of a heading) may start in lower case."""
    numbered_line, number_cell, outer = _numbering()
    text = " ".join(line.split())
    if m := number_cell.match(text):  # "3.2   Litigation": the layout's gap became a cell
        text = f"{text[: m.start('title')].rstrip(' |')} {m.group('title')}"
    if (not text or len(text) > MAX_TITLE_CHARS or len(text.split()) > MAX_TITLE_WORDS
            or _TABLE_ROW in text or text.endswith((".", ",", ";", ":")) or _contents_line(text)
            or not (continued or text[0].isupper() or text[0].isdigit() or text[0] in "(§")):
        return None
    numbered = numbered_line.match(text)
    word = (numbered.group("word") or "").lower() if numbered else ""
    rest = (numbered.group("title") or "") if numbered else text
    if has_amount(rest) or sum(ch.isalpha() for ch in rest or word) < 2:
        return None
    if not numbered:
        return text, 1
    if word in outer:  # a part numbers items and sections, above them
        return text, 0
    if not rest and not word:
        return None  # a number alone
    return text, numbered.group("number").count(".") + 1


def _contents_line(text: str) -> bool:
    """"Risk Factors ....... 12": a table of contents' line, leaders and a page number."""
    return text.rstrip("0123456789 ").endswith(("...", "…")) and text[-1:].isdigit()


def is_caps(text: str) -> bool:
    """A line in capitals: "BOARD MINUTES", "1. ATTENDEES"."""
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 3 and all(ch.isupper() for ch in letters)


def is_title_case(text: str, max_words: int = 6) -> bool:
    """A short line whose words start in capitals, small words apart: "Cash Position"."""
    words = [w for w in re.split(r"\s+", text.rstrip(":")) if w]
    if not words or len(words) > max_words:
        return False
    return all(w[0].isupper() or not w[0].isalpha() or w.lower() in _SMALL_WORDS for w in words)


def _in_table(lines: Sequence[str], i: int) -> bool:
    """A line between table rows (a row label of its own: "Current assets") is no heading."""
    above = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
    below = [lines[j] for j in range(i + 1, min(len(lines), i + 4)) if lines[j].strip()]
    return _TABLE_ROW in above and any(_TABLE_ROW in line for line in below)


def _stands_alone(lines: Sequence[str], i: int) -> bool:
    """Set apart from prose: first on the page, or after a blank line or a finished sentence."""
    above = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), None)
    return above is None or not lines[i - 1].strip() or above.endswith((".", "!", "?", ":"))


def _plain_heading(lines: Sequence[str], i: int) -> tuple[str, int] | None:
    """A heading any text shows, whatever its font: a numbered title ("3.2 Litigation",
    "Item 7A. Quantitative and Qualitative Disclosures") or a line in capitals, standing alone."""
    found = _title(lines[i])
    if found is None or not _stands_alone(lines, i):
        return None
    text, depth = found
    numbered = _numbering()[0].match(text)
    if numbered:
        title = numbered.group("title") or ""
        if title and not (is_caps(title) or is_title_case(title, MAX_TITLE_WORDS)):
            return None
    elif not is_caps(text) or len(text.split()) > 10:
        return None
    return text, depth


def page_headings(text: str, fonts: PageFonts | None) -> list[HeadingMark]:
    """The headings of one page's text (as the parser wrote it), in reading order.

    `fonts` (None for a page read by OCR, or when the PDF library gives no layout) adds the
    lines its layout sets apart; a run of such lines set alike is one heading over two lines.
    """
    lines = text.split("\n")
    prominent: dict[str, DrawnLine] = {}
    for drawn in fonts.prominent if fonts else ():
        prominent.setdefault(_same_line(drawn.text), drawn)
    body = fonts.body_height if fonts else 0.0
    found: list[_Found | None] = []
    for i, line in enumerate(lines):
        drawn = prominent.get(_same_line(line))
        above = found[-1] if found else None
        continued = (drawn is not None and above is not None and above.by_font
                     and above.rank[:2] == (-round(drawn.height * 2) / 2, 0 if drawn.bold else 1))
        heading = _title(line, continued=continued) if drawn is not None else None
        if heading is None:
            drawn, heading = None, _plain_heading(lines, i)
        if heading is None or _in_table(lines, i):
            found.append(None)
            continue
        height = round((drawn.height if drawn else body) * 2) / 2
        rank = (-height, 0 if drawn and drawn.bold else 1, heading[1])
        found.append(_Found(i, rank, heading[0], drawn is not None))
    return _joined(found)


def _same_line(text: str) -> str:
    """A line as drawn and as written (column gaps made ` | `, control characters dropped)
    compare equal."""
    printable = "".join(ch for ch in text if ch.isprintable() or ch.isspace())
    return " ".join(printable.replace(" | ", " ").split())


@dataclass(frozen=True)
class _Found:
    line: int
    rank: tuple[float, int, int]
    title: str
    by_font: bool


PLAIN_RUN = 3  # this many plain numbered or capital lines in a row are a list or contents


def _joined(found: Sequence[_Found | None]) -> list[HeadingMark]:
    """Marks; a heading its font sets over two lines (the same rank, nothing between) is one,
    and a run of plain candidates line after line is a list or a table of contents."""
    marks: list[HeadingMark] = []
    i = 0
    while i < len(found):
        item = found[i]
        if item is None:
            i += 1
            continue
        j = i + 1
        while j < len(found) and (nxt := found[j]) is not None and nxt.by_font == item.by_font \
                and (not item.by_font or nxt.rank == item.rank):
            j += 1
        run = [f for f in found[i:j] if f is not None]
        if item.by_font:
            marks.append(HeadingMark(item.line, item.rank, " ".join(f.title for f in run)))
        elif len(run) < PLAIN_RUN:
            marks += [HeadingMark(f.line, f.rank, f.title) for f in run]
        i = j
    return marks


# ---------------------------------------------------------------- the whole document


def _furniture_key(text: str) -> str:
    """A line without its numbers: "Page 3 of 12" and "Page 4 of 12" are one running line."""
    return " ".join("".join(ch for ch in text.lower() if not ch.isdigit()).split())


def running_lines(pages: Sequence[str]) -> set[str]:
    """Short lines that come back on many pages (a running head, a footer, a link back to the
    contents), by `_furniture_key`: never headings, never captions."""
    counts: Counter[str] = Counter()
    for text in pages:
        counts.update({_furniture_key(line) for line in text.split("\n")
                       if line.strip() and len(line) <= MAX_TITLE_CHARS and _TABLE_ROW not in line})
    least = max(FURNITURE_PAGES, len(pages) / 3)
    return {key for key, n in counts.items() if n >= least and key}


def place_headings(sections: Sequence[Section], marks: Sequence[Sequence[HeadingMark]]) -> None:
    """Give each page section the heading path it starts under and where, within it, the path
    changes: at each heading, and over each captioned table (then back)."""
    furniture = running_lines([section.text for section in sections])
    stack: list[HeadingMark] = []
    for section, page_marks in zip(sections, marks, strict=True):
        lines = section.text.split("\n")
        at = {m.line: m for m in page_marks if _furniture_key(m.title) not in furniture}
        paths: list[HeadingPath] = []
        for i in range(len(lines)):
            if (mark := at.get(i)) is not None:
                while stack and stack[-1].rank >= mark.rank:
                    stack.pop()
                stack.append(mark)
            paths.append(tuple(m.title for m in stack))
        for start, end, caption in captioned_tables(lines, furniture):
            base = paths[start]
            over = (*base[:-1], caption) if base and caption.startswith(base[-1]) else (
                *base, caption)
            paths[start:end] = [over] * (end - start)
        _furniture_joins_what_follows(lines, paths, furniture)
        section.heading_path = paths[0] if paths else tuple(m.title for m in stack)
        section.heading_changes = [(i, path) for i, path in enumerate(paths)
                                   if i and path != paths[i - 1]]


def _furniture_joins_what_follows(lines: Sequence[str], paths: list[HeadingPath],
                                  furniture: set[str]) -> None:
    """A running head (or a blank line) before a page's first heading stands with that heading,
    so it is never a passage of its own."""
    following: HeadingPath | None = None
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i].strip()
        if line and _furniture_key(line) not in furniture:
            following = paths[i]
        elif following is not None:
            paths[i] = following


TABLE_GAP = 3  # a table goes on after this many short lines (a sub-heading: "Investing activities")


def captioned_tables(lines: Sequence[str], furniture: set[str] = frozenset()
                     ) -> list[tuple[int, int, str]]:
    """(first caption line, line after the table, caption) of each table with a caption just
    above it. A table is two or more ` | ` lines in a row, going on over short lines between
    its parts (sub-headings, repeated column headers); the years over its columns are not part
    of its caption, nor are lines that repeat on every page."""
    out: list[tuple[int, int, str]] = []
    i = 0
    while i < len(lines):
        end = _table_end(lines, i)
        if end is None:
            i += 1
            continue
        above: list[str] = []
        first = i
        k = i - 1
        while k >= 0 and len(above) < CAPTION_LINES:
            line = lines[k].strip()
            if line and _furniture_key(line) in furniture:
                break
            title = without_column_headers(line)
            if line and not title:
                k -= 1  # the years over the columns: part of the table's header
                continue
            if line and not is_title_line(title):
                break
            if line:
                above.insert(0, title)
                first = k
            k -= 1
        caption = caption_heading(above)
        if caption:
            out.append((first, end, caption))
        i = end
    return out


def _table_end(lines: Sequence[str], i: int) -> int | None:
    """The line after the table starting at `i` (None when no table starts there)."""
    j = i
    while j < len(lines) and _TABLE_ROW in lines[j]:
        j += 1
    if j - i < 2:
        return None
    while True:  # its next part, after a few short lines that are not sentences
        gap = j
        while gap < len(lines) and gap - j < TABLE_GAP and _TABLE_ROW not in lines[gap] \
                and len(lines[gap]) <= MAX_TITLE_CHARS \
                and not lines[gap].rstrip().endswith((".", "!", "?")):
            gap += 1
        if gap == j or gap >= len(lines) or _TABLE_ROW not in lines[gap]:
            return j
        j = gap
        while j < len(lines) and _TABLE_ROW in lines[j]:
            j += 1
