"""What the offline rules hand to the extractor before a candidate becomes a `Finding`.

A rule says what it found and where in the section's text (value span, sentence, anchor); the
extractor turns that into an excerpt, a chunk, an id and a confidence in one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from manda.finance.amounts import scale_from_text
from manda.finance.fiscal import FiscalYearEnd
from manda.ingest.extract.confidence import Evidence
from manda.ingest.parsers.layout import is_note_line
from manda.models import FindingKind, Location, Nature, Section
from manda.vocabulary import vocabulary

__all__ = ["FORECAST_WORDS", "Candidate", "SectionView", "caption_block", "compared_with",
           "says_forecast"]

_WORDS = vocabulary()
# words that speak about the future: "budget", "outlook", "will reach"; Prognose; prévisions
FORECAST_WORDS = _WORDS.cues("forecast_words")
# "above budget", "ahead of plan", "than expected", "über Plan", "supérieur au budget": a
# comparison with a plan is still an actual (the comparing words end right before the plan's)
_COMPARED = _WORDS.cues("forecast_compared").around(
    tail=rf"\s+(?:(?i:{_WORDS.cues('definite_article').pattern.pattern})\s+)?$")
# "target" in lower case only, and not "the target": in a data room the Target is the company.
_TARGET_WORD = _WORDS.cues("forecast_target")
_TARGET_ARTICLE = _WORDS.cues("target_article")


def _target_word(text: str) -> list[re.Match[str]]:
    def after_article(before: str) -> bool:
        end = len(before.rstrip())
        return any(a.end() == end and a.group(0).islower()
                   for a in _TARGET_ARTICLE.finditer(before))
    return [m for m in _TARGET_WORD.finditer(text) if m.group(0).islower()
            and not after_article(text[max(0, m.start() - 12):m.start()])]


def says_forecast(text: str) -> bool:
    """True when a sentence or header speaks about the future rather than reports the past."""
    hits = [*FORECAST_WORDS.finditer(text), *_target_word(text)]
    return any(not _COMPARED.search(text[max(0, m.start() - 25) : m.start()]) for m in hits)


def compared_with(before: str) -> bool:
    """The words right before a figure set it up as a comparison ("compared with $18.4 billion",
    "above budget"): what it is compared with is a result, whatever the sentence forecasts."""
    return _COMPARED.search(before) is not None


_CAPTION_LINES = 8  # a page's caption block is short: company, statement, unit line, period


def caption_block(text: str) -> list[str]:
    """A section's lines above its first row (a line of cells): "Table of Contents / ACME INC.
    / CONSOLIDATED STATEMENTS OF CASH FLOWS / (in millions) / Year Ended December 31", whose
    unit line scales every table of the page; at least its first two lines."""
    lines = text.split("\n", _CAPTION_LINES)[:_CAPTION_LINES]
    block = next((i for i, line in enumerate(lines) if "|" in line), len(lines))
    return lines[:max(block, 2)]


def scale_of_note_lines(text: str) -> float:
    """The scale the first unit line among `text`'s lines announces ("(in millions)",
    "USD 000s"); a line that states a figure ("sales grew by $4.9 billion") is no unit line."""
    for line in text.split("\n"):
        if is_note_line(line) and not _wrapped_on(line):
            scale = scale_from_text(line)
            if scale != 1.0:
                return scale
    return 1.0


def _wrapped_on(line: str) -> bool:
    """A line a sentence wrapped onto, its amount's scale word first ("million in 2021 as
    compared to the prior year", after "… by $942.9"): no unit line, though it states no
    figure of its own."""
    words = line.split()
    return (len(words) > 3 and words[0][:1].islower()
            and scale_from_text(words[0]) != 1.0 and words[1].lower() != "of")


@dataclass
class SectionView:
    """One parser section as the rules see it, with what its heading and document tell them."""

    index: int
    section: Section
    period: str | None  # from the section's heading line, else the document's
    period_source: str  # "heading", "document" or ""
    forecast: bool  # the whole document or section is a forecast
    people_context: bool  # a management / team / bios document or section
    scale: float = 1.0
    currency: str | None = None
    target_hint: str = ""  # the target's name as the file name starts ("targetco"), lowercased
    periodic: bool = False  # a periodic report: its title period applies to what it states
    caption: str = ""  # a table section's caption: the lines just before it (title, unit line)
    fiscal_year_end: FiscalYearEnd | None = None  # the company's, when the room states it
    decimal_comma: bool = False  # the document writes numbers the German way ("EUR 500.000")
    signed: str | None = None  # "as of 2023-03-14": the date an agreement says it is dated
    issued: date | None = None  # the document's own date (a letter's, an e-mail's)

    @property
    def text(self) -> str:
        return self.section.text


@dataclass
class Candidate:
    """A fact a rule found in one section, before it is sized, sourced and scored."""

    kind: FindingKind
    subject: str
    label: str
    section: int
    core: tuple[int, int]  # the span of the value (or the name) in the section's text
    evidence: Evidence
    bounds: tuple[int, int] | None = None  # the sentence or table line around it
    anchor: tuple[int, int] | None = None  # what the excerpt should keep if it can (the label)
    period: str | None = None
    value: float | None = None
    unit: str | None = None
    value_text: str | None = None
    entity: str | None = None
    attributes: dict[str, str] = field(default_factory=dict)
    nature: Nature = Nature.ACTUAL
    location: Location | None = None  # a table cell; None means the section's location
    penalty: float = 0.0  # taken off the rubric's score (a period inferred from the file name)
