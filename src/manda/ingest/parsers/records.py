"""Tables of records a PDF text layer writes without column gaps, read into labelled rows.

A note lists its debt issues, grants or contracts one record a line under a header that names
each column in words: "Issuance Date Maturity Date Principal Amount Interest Rate (Fixed)" over
"March 2025 April 2035 $1,000 5.00%". Without the gaps, no reader after the parser can tell which
figure is the rate and which date the maturity, and retrieval never sees "Maturity Date" beside
"April 2035". `recorded_text` writes each such block as a table passage is written (the titles,
then "Issuance Date: March 2025 | Maturity Date: April 2035 | Principal Amount: $1,000 |
Interest Rate (Fixed): 5.00%"), where its header splits into titles at their last words (the
vocabulary's `record_column_ends`) and every line under it into as many dates and figures.
"""

from __future__ import annotations

from manda.finance.figures import joined_signs, lone_cell
from manda.finance.periods import find_periods
from manda.vocabulary import vocabulary

__all__ = ["recorded_text"]

_ENDS = vocabulary().words("record_column_ends")
_MIN_COLUMNS = 3
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


def recorded_text(text: str) -> str:
    """A page's text with its record tables written as labelled rows under their titles."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
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
