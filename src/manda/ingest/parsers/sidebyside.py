"""Two tables a page sets side by side, read one after the other.

A list printed in two halves to save room ("Alabama 23 3,153 Montana 7 777" under "State Stores
Square Feet State Stores Square Feet") reads, once its column gaps are lost, as rows of two
records run together: the second record's label reads as a figure's words and its figures as
the first record's. Under a header that says the same thing twice, each such line is cut in
two, the left halves are written first and then the right halves, under the header once, so
every record is a line of its own ("Montana 7 777").
"""

from __future__ import annotations

from collections.abc import Sequence

from manda.finance.figures import lone_cell

__all__ = ["side_by_side", "side_by_side_pages"]

MIN_ROWS = 2  # lines of two records before a header's halves count as two tables


def _twice(line: str) -> str | None:
    """The half of a header line that says the same thing twice ("A B A B": "A B"), or None."""
    tokens = line.split()
    half = len(tokens) // 2
    if half < 2 or len(tokens) % 2 or tokens[:half] != tokens[half:]:
        return None
    if not any(any(c.isalpha() for c in token) for token in tokens[:half]):
        return None
    return " ".join(tokens[:half])


def _records(line: str) -> list[tuple[str, list[str]]]:
    """The (label, figures) records a line holds in order: words, then figures, again."""
    records: list[tuple[list[str], list[str]]] = []
    for token in line.split():
        if lone_cell(token) and records and records[-1][0]:
            records[-1][1].append(token)
        elif records and not records[-1][1]:
            records[-1][0].append(token)
        else:
            records.append(([token], []))
    return [(" ".join(label), figures) for label, figures in records]


def _halves(line: str) -> tuple[str, str] | None:
    """A line of two records of as many figures each, as two lines; else None."""
    records = _records(line)
    if len(records) != 2 or not all(figures for _, figures in records):
        return None
    (left, left_figures), (right, right_figures) = records
    if len(left_figures) != len(right_figures) or not any(c.isalpha() for c in left + right):
        return None
    return f"{left} {' '.join(left_figures)}", f"{right} {' '.join(right_figures)}"


def side_by_side(text: str) -> str:
    """The page with each pair of tables set side by side under a twice-said header written as
    one table after the other (the header once, the left records, then the right ones); the
    lines after the pair (a total, a record left alone in the left half) stay as they are."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        header = _twice(lines[i])
        halves: list[tuple[str, str]] = []
        j = i + 1
        while header is not None and j < len(lines) and (cut := _halves(lines[j])) is not None:
            halves.append(cut)
            j += 1
        if header is None or len(halves) < MIN_ROWS:
            out.append(lines[i])
            i += 1
            continue
        out += [header, *(left for left, _ in halves), *(right for _, right in halves)]
        i = j
    return "\n".join(out)


def side_by_side_pages(pages: Sequence[str]) -> list[str]:
    return [side_by_side(page) for page in pages]
