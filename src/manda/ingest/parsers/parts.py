"""Tables whose columns are parts of the whole (segments, regions), their period on the line above.

A segment note may print one table a year, each under its year alone on a line, its columns the
segments: "2025" / "Americas Europe GreaterChina Japan Rest ofAsia Pacific Corporate Total" /
"Net sales $178,353 $111,032 …". The text has lost the column gaps, and a name may have lost the
space between two of its words. The line of names is cut into as many names as the rows have
figures, each name where the document writes it elsewhere ("Rest of Asia Pacific", "Greater
China"), and the rows are written with their columns' names (`Net sales | Americas: $178,353 |
…`) under the year's line, so that extraction and the answers read each figure as that part's
line item for that year. A line of names that cannot be cut one way only is left as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from manda.finance.figures import column_header_line, lone_cell
from manda.ingest.parsers.base import row_line
from manda.ingest.segments import names_no_part

__all__ = ["part_columns"]

MIN_ROWS = 2  # rows of figures under the line of names
MIN_COLUMNS = 2
MAX_NAME_WORDS = 16  # a line of names, not a sentence
_CLOSES = (".", ":", ";", ",")


def part_columns(pages: Sequence[str]) -> list[str]:
    """The pages with each table of parts by column written as labelled rows."""
    known = _Known("\n".join(pages))
    return [_page(page, known) for page in pages]


def _page(text: str, known: _Known) -> str:
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        block = _block(lines, i, known)
        if block is None:
            out.append(lines[i])
            i += 1
            continue
        names, rows, end = block
        out.extend([lines[i], " | ".join(names)])
        out.extend(row_line(["", *names], [label, *values]) for label, values in rows)
        i = end
    return "\n".join(out)


def _block(lines: Sequence[str], i: int, known: _Known
           ) -> tuple[list[str], list[tuple[str, list[str]]], int] | None:
    """(names, rows, the line after the last row) of a table of parts starting at line `i`
    (its period's line); None where none starts there."""
    if i + 1 + MIN_ROWS >= len(lines) or not column_header_line(lines[i]):
        return None
    head = lines[i + 1].strip()
    if (not head or "|" in head or any(c.isdigit() for c in head) or head.endswith(_CLOSES)
            or len(head.split()) > MAX_NAME_WORDS):
        return None
    rows: list[tuple[str, list[str]]] = []
    j = i + 2
    while j < len(lines) and (row := _row(lines[j])) is not None and (
            not rows or len(row[1]) == len(rows[0][1])):
        rows.append(row)
        j += 1
    if len(rows) < MIN_ROWS or len(rows[0][1]) < MIN_COLUMNS:
        return None
    names = known.cut(head, len(rows[0][1]))
    if names is None or any(names_no_part(name) for name in names):
        return None  # "First Quarter Second Quarter …": periods, not parts
    return names, rows, j


def _row(line: str) -> tuple[str, list[str]] | None:
    """("Net sales", ["$178,353", "$111,032", …]): a label, then figures only."""
    tokens = line.split()
    k = len(tokens)
    while k > 0 and lone_cell(tokens[k - 1]):
        k -= 1
    label = " ".join(tokens[:k])
    if not label or "|" in label or not any(c.isalpha() for c in label):
        return None
    values = tokens[k:]
    return (label, values) if len(values) >= MIN_COLUMNS else None


@dataclass
class _Known:
    """The document's text with spaces taken out (punctuation kept as a break), to find where
    it writes a name that a line of names glued ("GreaterChina" is "Greater China")."""

    text: str
    _read: dict[str, tuple[str, list[int], str]] = field(default_factory=dict)

    def _without(self, head: str) -> tuple[str, list[int], str]:
        """The squashed text of every line but the lines of names themselves, each character's
        place, and that text."""
        if head not in self._read:
            kept = "\n".join(line for line in self.text.split("\n") if line.strip() != head)
            self._read[head] = (*_squash(kept), kept)
        return self._read[head]

    def cut(self, head: str, width: int) -> list[str] | None:
        """The names of a line of `width` names, each as the document writes it; None where
        no cut, or more than one, finds every name of two words or more in the document."""
        tokens = head.split()
        if len(tokens) < width:
            return None
        squashed, where, kept = self._without(head)
        best: list[tuple[int, list[str]]] = []
        for groups in _cuts(tokens, width):
            score = 0
            for group in groups:
                found = _squash(group)[0] in squashed
                if " " in group and not found:
                    break
                score += found
            else:
                best.append((score, groups))
        best.sort(key=lambda t: -t[0])
        if not best or (len(best) > 1 and best[0][0] == best[1][0]):
            return None
        return [_as_written(group, squashed, where, kept) for group in best[0][1]]


def _cuts(tokens: Sequence[str], width: int) -> list[list[str]]:
    """Every way to cut the tokens into `width` names, each starting with a capital (or a
    figure of its own): "ofAsia" goes on a name, never starts one."""
    if width == 1:
        return [[" ".join(tokens)]] if tokens and _starts(tokens[0]) else []
    out: list[list[str]] = []
    for k in range(1, len(tokens) - width + 2):
        if not _starts(tokens[0]):
            break
        out.extend([" ".join(tokens[:k]), *rest] for rest in _cuts(tokens[k:], width - 1))
    return out


def _starts(token: str) -> bool:
    return not token[:1].islower()


def _squash(text: str) -> tuple[str, list[int]]:
    """The text in lower case without its spaces, punctuation as "|", with each character's
    place in the text."""
    chars: list[str] = []
    where: list[int] = []
    for at, ch in enumerate(text):
        if ch.isalnum():
            chars.append(ch.lower())
            where.append(at)
        elif not ch.isspace() and (not chars or chars[-1] != "|"):
            chars.append("|")
            where.append(at)
    return "".join(chars), where


def _as_written(group: str, squashed: str, where: Sequence[int], text: str) -> str:
    """The name as the document writes it elsewhere, in the same letters ("Greater China" of
    "GreaterChina"); the name as the line writes it where the document never does."""
    key, bare = _squash(group)[0], group.replace(" ", "")
    at = squashed.find(key) if key else -1
    while at >= 0:
        written = " ".join(text[where[at]:where[at + len(key) - 1] + 1].split())
        if written.replace(" ", "") == bare:
            return written
        at = squashed.find(key, at + 1)
    return group
