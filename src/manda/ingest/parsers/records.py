"""Tables of records a PDF text layer writes without column gaps, read into labelled rows.

A note lists its debt issues, grants or contracts one record a line under a header that names
each column in words: "Issuance Date Maturity Date Principal Amount Interest Rate (Fixed)" over
"March 2025 April 2035 $1,000 5.00%". Without the gaps, no reader after the parser can tell which
figure is the rate and which date the maturity, and retrieval never sees "Maturity Date" beside
"April 2035". `recorded_text` writes each such block as a table passage is written (the titles,
then "Issuance Date: March 2025 | Maturity Date: April 2035 | Principal Amount: $1,000 |
Interest Rate (Fixed): 5.00%"), where its header splits into titles at their last words (the
vocabulary's `record_column_ends`) and every line under it into as many dates and figures.

A table whose records have a label ("Description of Use Leased Square Footage (1) Owned Square
Footage Location" over "Office space 31,028 9,160 North America") is read the same way: the
titles ending in such words name the figures (the first title as long as the second, the words
before it the labels' title, those after the last the trailing words'), and each line of a
label, as many figures and words after them is written "Office space | Leased Square Footage
(1): 31,028 | Owned Square Footage: 9,160 | Location: North America".
"""

from __future__ import annotations

from itertools import pairwise

from manda.finance.figures import joined_signs, lone_cell, note_mark
from manda.finance.periods import find_periods
from manda.ingest.parsers.base import row_line
from manda.vocabulary import vocabulary

__all__ = ["recorded_text"]

_ENDS = vocabulary().words("record_column_ends")
_MIN_COLUMNS = 3
_MIN_LABELLED = 2  # figure columns (and records) of a table of labelled records
_TITLE_WORDS = 4  # the most words one column's title holds


def _ends(word: str) -> bool:
    return word.strip(",:;").lower() in _ENDS


def _titles(line: str) -> list[str] | None:
    """The column titles of a record table's header line, each ending in a title's last word
    ("Principal Amount") and a bracket after it its own ("Interest Rate (Fixed)"); None where
    the line is not cut into such titles whole."""
    if any(c.isdigit() for c in line):
        return None
    titles: list[str] = []
    current: list[str] = []
    aside = False
    for word in line.split():
        if aside or (not current and titles and word.startswith("(")):
            titles[-1] += f" {word}"  # "(Fixed)": the title before it
            aside = not word.endswith(")")
            continue
        current.append(word)
        if _ends(word):
            titles.append(" ".join(current))
            current = []
    if current or len(titles) < _MIN_COLUMNS or any(
            len(t.split()) > _TITLE_WORDS + 1 for t in titles):
        return None
    return titles


def _cells(line: str) -> list[str] | None:
    """A record line's cells in order: its dates and periods ("March 2025", "June 15, 2028")
    and its figures ("$1,000", "5.00%"); None where any word is neither."""
    text = joined_signs(line.strip())
    cells: list[tuple[int, str]] = [(start, text[start:end])
                                    for _, start, end in find_periods(text)]
    covered = [(start, start + len(cell)) for start, cell in cells]
    at = 0
    for token in text.split():
        start = text.index(token, at)
        at = start + len(token)
        if any(a <= start < b for a, b in covered):
            continue
        if token == "%" and cells and lone_cell(cells[-1][1]):
            cells[-1] = (cells[-1][0], f"{cells[-1][1]}%")  # "5.25 %": the figure's sign
        elif lone_cell(token):
            cells.append((start, token))
        else:
            return None
    return [cell for _, cell in sorted(cells)]


def _labelled_titles(line: str) -> tuple[str, list[str], str] | None:
    """(the labels' title, the figures' titles, the trailing words' title) of a labelled record
    table's header: at least two titles end in a title's last word (and a bracket after it), the
    first as long as the second; None for any other line."""
    words = line.split()
    if any(c.isdigit() for word in words if not note_mark(word) for c in word):
        return None
    ends = [k for k, word in enumerate(words) if _ends(word)]
    if len(ends) < _MIN_LABELLED:
        return None
    stops = [k + 1 if k + 1 < len(words) and note_mark(words[k + 1]) else k for k in ends]
    if any(b - a > _TITLE_WORDS for a, b in zip(stops, ends[1:], strict=False)):
        return None
    titles = [" ".join(words[a + 1:b + 1]) for a, b in pairwise(stops)]
    size = ends[1] - stops[0]  # the second title's words, its bracket left out
    first = ends[0] - size + 1
    if first < 1:
        return None
    titles.insert(0, " ".join(words[first:stops[0] + 1]))
    return " ".join(words[:first]), titles, " ".join(words[stops[-1] + 1:])


def _labelled_row(line: str, width: int, trailing: bool) -> list[str] | None:
    """[label, figure, …, trailing words] of a labelled record line with `width` figures (and
    words after them where the header names a trailing column: a total may have none); None for
    any other line."""
    words = joined_signs(line.strip()).split()
    k = next((i for i, w in enumerate(words) if lone_cell(w) and not note_mark(w)), None)
    if k is None or k == 0 or k + width > len(words):
        return None
    figures = words[k:k + width]
    rest = " ".join(words[k + width:])
    if not all(lone_cell(f) for f in figures) or (rest and not trailing) or any(
            c.isdigit() for c in rest) or not any(c.isalpha() for c in " ".join(words[:k])):
        return None
    return [" ".join(words[:k]), *figures, *([rest] if rest else [])]


def _labelled(lines: list[str], i: int) -> tuple[list[str], list[list[str]]] | None:
    """The header and rows of a labelled record table starting at line `i`, or None."""
    found = _labelled_titles(lines[i])
    if found is None:
        return None
    corner, titles, after = found
    rows: list[list[str]] = []
    for line in lines[i + 1:]:
        row = _labelled_row(line, len(titles), bool(after)) if line.strip() else None
        if row is None:
            break
        rows.append(row)
    if len(rows) < _MIN_LABELLED:
        return None
    return [corner, *titles, *([after] if after else [])], rows


def recorded_text(text: str) -> str:
    """A page's text with its record tables written as labelled rows under their titles."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if (labelled := _labelled(lines, i)) is not None:
            header, records = labelled
            out.append(" | ".join(header))
            out.extend(row_line(["", *header[1:]], row) for row in records)
            i += 1 + len(records)
            continue
        titles = _titles(lines[i])
        rows: list[list[str]] = []
        if titles is not None:
            for line in lines[i + 1:]:
                cells = _cells(line) if line.strip() else None
                if cells is None or len(cells) != len(titles):
                    break
                rows.append(cells)
        if not rows:
            out.append(lines[i])
            i += 1
            continue
        assert titles is not None
        out.append(" | ".join(titles))
        out.extend(" | ".join(f"{t}: {c}" for t, c in zip(titles, cells, strict=True))
                   for cells in rows)
        i += 1 + len(rows)
    return "\n".join(out)
