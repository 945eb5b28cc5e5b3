"""Which tables of a page are a segment's: blocks of the same rows under short headings.

A segment note prints one block of rows per segment ("North America", "Région Sud", "Cloud
Services"), each under its heading line, the first under the note's lead-in and unit line
("Information on reportable segments … (in millions):"). Ingestion (findings) and the answer's
spans read the same blocks the same way, so a segment's row is never the company's figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from manda.finance.amounts import scale_from_text
from manda.finance.periods import parse_period
from manda.finance.vocabulary import canonical_subject
from manda.ingest.parsers.layout import is_title_line
from manda.text import YEAR
from manda.vocabulary import vocabulary

__all__ = ["Block", "names_no_part", "segments"]

_WORDS = vocabulary()
_SEGMENT_WORDS = _WORDS.cues("segment_words")  # "segment", "secteur", "Segment", "segmento"
_WHOLE_HEADING = _WORDS.cues("whole_heading")  # "Consolidated", "Total", "Konzern", "Groupe"
# a block of a period or a version ("2024", "Fourth Quarter", "Budget") is no segment's
_NOT_A_PART = (_WORDS.cues("quarter_words") | _WORDS.cues("half_year_words")
               | _WORDS.cues("month_words") | _WORDS.cues("forecast_column")
               | _WORDS.cues("actuals_column"))
_LEAD_IN_LINES = 3  # how many lines above a run's first heading may say "segments"
_HEADING_WORDS = 6  # a segment's heading is a name, not a sentence


@dataclass(frozen=True)
class Block:
    """One table of a page: the lines written between the table before it and itself (for the
    first, the lines above it), and its rows' labels."""

    above: tuple[str, ...]
    labels: frozenset[str]


def segments(blocks: Sequence[Block]) -> list[tuple[str, int]]:
    """Each block's segment ("" for none) and the index of the first block of its run (-1 when
    it stands in none).

    A run is a series of blocks sharing row labels, each under one short heading line of its
    own, the first one under the run's lead-in. Its headings are segments' when the run holds
    two blocks or more, or when its lead-in speaks of segments; a heading that names the whole
    ("Consolidated", "Total") or a line item is in the run, but names no segment.
    """
    out: list[tuple[str, int]] = [("", -1)] * len(blocks)
    i = 0
    while i < len(blocks):
        first = _heading(blocks[i].above, alone=False)
        if first is None:
            i += 1
            continue
        run = [(i, first)]
        j = i + 1
        while j < len(blocks) and blocks[j].labels & blocks[i].labels and (
                heading := _heading(blocks[j].above, alone=True)) is not None:
            run.append((j, heading))
            j += 1
        lead_in = "\n".join(blocks[i].above[:-1][-_LEAD_IN_LINES:])
        if len(run) >= 2 or _SEGMENT_WORDS.found(lead_in):
            for k, heading in run:
                whole = _WHOLE_HEADING.begins(heading) or canonical_subject(heading)
                out[k] = ("" if whole else heading, i)
        i = j
    return out


def _heading(above: Sequence[str], *, alone: bool) -> str | None:
    """The short title line right above a block ("AWS"); with `alone`, the only line between
    it and the block before. None for a sentence, a figure, a unit line or a period."""
    lines = [line.strip() for line in above if line.strip()]
    if not lines or (alone and len(lines) != 1):
        return None
    line = lines[-1]
    if len(line.split()) > _HEADING_WORDS or not is_title_line(line) or line.startswith("(") \
            or scale_from_text(line) != 1.0 or YEAR.search(line) or _NOT_A_PART.found(line) \
            or parse_period(line) is not None:
        return None
    return line


def names_no_part(name: str, year: str = "") -> bool:
    """A column or heading that names a period or a version ("Fourth Quarter", "Budget",
    "2024"; "Q1" under the line of its `year`), not a part of the company."""
    return bool(YEAR.search(name) or _NOT_A_PART.found(name) or parse_period(name) is not None
                or (year and parse_period(f"{name} {year}") is not None))
