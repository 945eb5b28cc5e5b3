"""A segment's own level of a line item ("goodwill of the Intelligent Cloud segment").

The company's total of the line item, or the segment's figure of another line item, is no
answer to it: the lead must name both the segment and the line item asked. Where the composed
lead does not, the passages that name both answer it, quoted; else the segment's row among the
rows printed under the line item's total that add up to it; where none does, the answer says
that the passages read state no such figure for the segment, with what was read for it, and
never leads the total.
"""

from __future__ import annotations

import html
import re

from manda.agent.compose import evidence_first
from manda.agent.compose.common import Ask, Draft, with_assumption
from manda.agent.compose.leads import fiscal_year, when
from manda.agent.compose.segment_figures import (
    SegmentLine,
    asked_segment,
    name_terms,
    names,
    of_line,
    same_segment,
    segment_lines,
)
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.relevance import NOT_FOUND_BELOW, content_terms
from manda.agent.spans import Span, rank_spans, statement_rows
from manda.finance.figures import Figure
from manda.vocabulary import vocabulary

_REACH = 12  # how far down the ranking a span naming the segment and the line item is looked for
_FOUND = 6  # how many of the segment's lines read are named where its figure is not stated
_PERCENT = "%"
_PARTS = 8  # how many rows under a total are read as its parts
_SLACK = 0.001  # how far a run of parts may add up from its total (rounding)


def answer(ask: Ask, evidence: Evidence, draft: Draft) -> Draft | None:
    """The draft's replacement where the question asks a segment's level of a line item and
    the draft's first line names not both; None where the draft stands (it names both, or the
    question asks no segment's line item)."""
    frame = ask.frame
    if ask.subject is None or frame.derived is not None or frame.change or frame.growth or \
            frame.answer_kind not in ("figure", None):
        return None
    first = next((line for line in draft.text.splitlines() if line.strip()), "")
    if frame.share_of and _PERCENT in first:
        return None  # "what share of sales came from AWS": a proportion, said as one
    lines = segment_lines(evidence)
    segment = frame.segment_named or asked_segment(ask, lines, evidence.scope_words)
    if not segment or not name_terms(segment) or _several(segment, lines):
        return None
    items = [patterns for _, patterns in frame.line_items]
    if not items:
        return None
    if _names_both(first, segment, items) or _its_row_leads(first, segment, ask.subject, lines):
        return None
    both = [s for s in rank_spans(frame, evidence)[:_REACH]
            if s.words >= NOT_FOUND_BELOW and names(s, segment)
            and _names_both(f"{s.group} {s.segment} {s.text}", segment, items)
            and not (s.row is not None and joined_with_another(s.row.label, segment))]
    if both:
        return evidence_first.answer(ask, evidence, category="Financial", spans=both)
    if (found := _part_under_total(ask, evidence, segment, items)) is not None:
        return found
    return _missing(ask, segment, lines)


def _part_under_total(ask: Ask, evidence: Evidence, segment: str,
                      items: list[tuple[re.Pattern[str], ...]]) -> Draft | None:
    """The segment's row among the rows printed right under the line item's total that add up
    to it in every column (a data-tag dump's "Goodwill 67,886" over "More Personal Computing
    12,642", "Productivity and Business Processes 24,775", "Intelligent Cloud 30,469"): the
    segment's share of that line item, said with the total it is part of. None where no run of
    rows under the total adds up to it or none of them names the segment."""
    runs: dict[str, list[Span]] = {}
    for span in statement_rows(evidence):
        if span.row is not None:
            runs.setdefault(span.source.chunk_id or span.source.location, []).append(span)
    own = name_terms(segment)
    for run in runs.values():
        for at, total in enumerate(run):
            assert total.row is not None
            if not any(p.search(total.row.label) for patterns in items for p in patterns):
                continue
            parts = _adding_up(total, run[at + 1:at + 1 + _PARTS])
            named = [s for s in parts if s.row is not None
                     and all(t in content_terms(s.row.label) for t in own)]
            if named:
                return _part_text(ask, evidence, segment, named[0], total)
    return None


def _amounts(span: Span) -> list[Figure]:
    """The row's figures that are amounts (no share)."""
    return [f for f in span.figures() if f.value is not None and f.unit != _PERCENT]


def _values(span: Span) -> list[float]:
    return [f.value for f in _amounts(span) if f.value is not None]


def _adding_up(total: Span, below: list[Span]) -> list[Span]:
    """The rows right below `total` whose figures add up to its own in every column, two at
    least; none where no such run follows it."""
    whole = _values(total)
    if not whole or not any(whole):
        return []
    sums, parts = [0.0] * len(whole), []
    for span in below:
        values = _values(span)
        if len(values) != len(whole):
            return []
        sums = [a + b for a, b in zip(sums, values, strict=True)]
        parts.append(span)
        if len(parts) >= 2 and all(abs(a - b) <= _SLACK * max(abs(b), 1.0)
                                   for a, b in zip(sums, whole, strict=True)):
            return parts
    return []


def _part_text(ask: Ask, evidence: Evidence, segment: str, part: Span, total: Span) -> Draft:
    """"Intelligent Cloud's goodwill was $30.5 billion at 30 June 2023, one of the rows that
    add up to Goodwill ($67.9 billion)", cited, the row as stated after it."""
    asked = set(ask.frame.period_years)
    figures, wholes = _amounts(part), _amounts(total)
    at = next((n for n, f in enumerate(figures) if fiscal_year(f.column) in asked), 0)
    words, language = vocabulary(), ask.language
    assert total.row is not None
    text = words.answer("segment_part_of_total", language, segment=segment, line=_line_named(ask),
                        figure=figures[at].shown(),
                        when=when(part, figures[at], evidence, language),
                        label=total.row.label, total=wholes[at].shown(),
                        cite=cite([part.source]))
    stated = words.answer("span_states", language, document=part.source.document,
                          text=part.text, cite=cite([part.source]))
    return Draft(text=with_assumption(ask.assumption, f"{text}\n{stated}"))


def _its_row_leads(first: str, segment: str, subject: str, lines: list[SegmentLine]) -> bool:
    """The lead names the segment and states a figure of the segment's own row of the line item
    asked ("Automotive leasing was $2.12 billion" of "Automotive leasing" under "Revenues")."""
    if not all(t in set(content_terms(first)) for t in name_terms(segment)):
        return False
    return any(figure.value is not None and figure.shown() in first
               for line in of_line(lines, segment, subject) for figure in line.span.figures())


def _several(segment: str, lines: list[SegmentLine]) -> bool:
    """The name asked covers several segments read ("North America and International"), not one
    whose own name joins words ("Productivity and Business Processes"): their rows answer it,
    each its own."""
    own = set(content_terms(segment))
    said = {frozenset(terms) for line in lines
            if (terms := name_terms(line.segment)) and set(terms) <= own}
    return sum(1 for name in said if not any(name < other for other in said)) >= 2


def joined_with_another(label: str, segment: str) -> bool:
    """The label names the segment joined to another part ("Total automotive & services and
    other segment revenue" of "services and other"): the parts' total, not the segment's own."""
    text = " ".join(html.unescape(label).split())
    at = text.lower().find(segment.lower())
    if at < 0:
        return False
    before, after = text[:at].split(), text[at + len(segment):].split()
    return (len(before) >= 2 and before[-1].lower() in _JOINERS) or (
        len(after) >= 2 and after[0].lower() in _JOINERS)


_JOINERS = vocabulary().words("label_joiners")  # "and", "&", "und", "et", "y"


def _names_both(text: str, segment: str, items: list[tuple[re.Pattern[str], ...]]) -> bool:
    """The text names the segment by all its words and the line item by one of its wordings."""
    own = set(content_terms(text))
    return all(t in own for t in name_terms(segment)) and any(
        p.search(text) for patterns in items for p in patterns)


def _missing(ask: Ask, segment: str, lines: list[SegmentLine]) -> Draft:
    """No passage read states the line item for the segment: said so, with what was read of
    the segment, never the company's figure."""
    words, language = vocabulary(), ask.language
    read = list(dict.fromkeys(f"{x.segment} {x.line} {cite([x.span.source])}" for x in lines
                              if same_segment(x.segment, segment)))
    found = "; ".join(read[:_FOUND]) or words.answer("nothing_read", language)
    return Draft(text=with_assumption(ask.assumption, words.answer(
        "segment_level_missing", language, segment=segment, line=_line_named(ask), found=found)),
        short=True)


def _line_named(ask: Ask) -> str:
    """The line item asked, in the question's own words ("goodwill")."""
    subject = ask.subject or ""
    return next((said for s, said in ask.frame.named_as if s == subject), subject)
