"""A segment's own level of a line item ("goodwill of the Intelligent Cloud segment").

The company's total of the line item, or the segment's figure of another line item, is no
answer to it: the lead must name both the segment and the line item asked. Where the composed
lead does not, the passages that name both answer it, quoted; where none does, the answer says
that the passages read state no such figure for the segment, with what was read for it, and
never leads the total.
"""

from __future__ import annotations

import re

from manda.agent.compose import evidence_first
from manda.agent.compose.common import Ask, Draft, with_assumption
from manda.agent.compose.segment_figures import (
    SegmentLine,
    asked_segment,
    name_terms,
    names,
    same_segment,
    segment_lines,
)
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.relevance import NOT_FOUND_BELOW, content_terms
from manda.agent.spans import rank_spans
from manda.vocabulary import vocabulary

_REACH = 12  # how far down the ranking a span naming the segment and the line item is looked for
_FOUND = 6
_PERCENT = "%"  # how many of the segment's lines read are named where its figure is not stated


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
    if not segment or not name_terms(segment):
        return None
    items = [patterns for _, patterns in frame.line_items]
    if not items:
        return None
    if _names_both(first, segment, items):
        return None
    both = [s for s in rank_spans(frame, evidence)[:_REACH]
            if s.words >= NOT_FOUND_BELOW and names(s, segment)
            and _names_both(f"{s.group} {s.segment} {s.text}", segment, items)]
    if both:
        return evidence_first.answer(ask, evidence, category="Financial", spans=both)
    return _missing(ask, segment, lines)


def _names_both(text: str, segment: str, items: list[tuple[re.Pattern[str], ...]]) -> bool:
    """The text names the segment by all its words and the line item by one of its wordings."""
    own = set(content_terms(text))
    return all(t in own for t in name_terms(segment)) and any(
        p.search(text) for patterns in items for p in patterns)


def _missing(ask: Ask, segment: str, lines: list[SegmentLine]) -> Draft:
    """No passage read states the line item for the segment: said so, with what was read of
    the segment, never the company's figure."""
    words, language = vocabulary(), ask.language
    subject = ask.subject or ""
    line = next((said for s, said in ask.frame.named_as if s == subject), subject)
    read = list(dict.fromkeys(f"{x.segment} {x.line} {cite([x.span.source])}" for x in lines
                              if same_segment(x.segment, segment)))
    found = "; ".join(read[:_FOUND]) or words.answer("nothing_read", language)
    return Draft(text=with_assumption(ask.assumption, words.answer(
        "segment_level_missing", language, segment=segment, line=line, found=found)),
        short=True)
