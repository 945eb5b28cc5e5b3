"""A balance asked whole where the passages state it in portions: the two portions added.

"Current portion of borrowings" and "Borrowings, net of current portion" are the two portions of
one line item (`manda.agent.spans.a_portion`, the words in the vocabulary's `portion_row`). Where
a question asks for the whole outstanding, no passage states it and a portion's row would lead,
the whole is the two portions' sum at the same date, each cited and the working in one line;
where only one portion is in hand, the lead says it is a portion, never the whole. The same holds
for a reading of extracted findings (`described`): a portion's row read as the line item is added
to its other portion, or said as the portion it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from manda.agent.compose.common import Ask, cite_findings, describe_reading
from manda.agent.compose.computed import unit_words
from manda.agent.compose.leads import a_change_column, pick_figure, row_lead, when
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.relevance import stems_of
from manda.agent.selection import Reading, findings_for, show
from manda.agent.spans import PORTION_ROW, Span, a_portion, statement_rows
from manda.agent.translate import period_phrase
from manda.finance.amounts import format_amount
from manda.finance.figures import Figure
from manda.models import Finding
from manda.text import letter_words
from manda.vocabulary import vocabulary

_JOINERS = vocabulary().words("portion_joiners")
_TERM = vocabulary().cues("term_portion_row")  # "Short-term", "Long-term"


def whole_of_portions(span: Span, ask: Ask, evidence: Evidence,
                      ranked: Sequence[Span] = ()) -> list[str] | None:
    """The lead lines for a portion's row where the whole is asked: the portions added, or the
    row said as the portion it is; None where the row is no portion or a portion is asked
    (`ranked`: the spans its figure's other places are cited from)."""
    if span.row is None or ask.frame.portion:
        return None
    rows = statement_rows(evidence)
    own = [s.row.label for s in rows if s.row is not None
           and s.source.document_id == span.source.document_id]
    if not a_portion(span.row.label) and not complement(span.row.label, own):
        return None
    named = _named_whole(own)
    figures = [f for f in span.figures() if not a_change_column(f.column)]
    chosen = pick_figure(figures, ask, span) if figures else None
    lines = row_lead(span, ask, evidence, ranked)
    if chosen is None or chosen.value is None or lines is None:
        return None
    whole = named(span.row.label)
    for other in rows:
        if other.row is None or other.source.document_id != span.source.document_id or \
                other.row.label == span.row.label or stems_of(
                named(other.row.label)) != stems_of(whole) or not (
                a_portion(other.row.label) or complement(other.row.label, own)):
            continue
        pair = next((f for f in other.figures() if f.column == chosen.column
                     and f.value is not None and f.unit == chosen.unit), None)
        if pair is not None:
            first = [(other, pair), (span, chosen)] if _above(other, span, rows) \
                else [(span, chosen), (other, pair)]
            return _added(whole, first, ask, evidence)
    return [lines[0], _only_a_portion(span.row.label, ask.language), *lines[1:]]


def complement(label: str, labels: Sequence[str]) -> bool:
    """A row named by its line item alone ("Deferred revenue") beside one row of its other
    portion only ("Deferred revenue, net of current portion"): a balance sheet lists the
    current portion under the bare name, so the bare row is that portion, not the whole. Where
    a third row of the line item is listed ("Current portion of …"), the bare row is the
    whole."""
    if term_twin(label, labels) is not None:
        return True  # "Long-term unearned revenue" beside "Short-term unearned revenue"
    if a_portion(label):
        return False
    name = stems_of(label)
    portions = {other for other in labels if a_portion(other)
                and stems_of(whole_name(other)) == name}
    return len(portions) == 1


def term_twin(label: str, labels: Sequence[str]) -> str | None:
    """The line item two rows of one statement split by term ("Unearned revenue" of "Short-term
    unearned revenue" beside "Long-term unearned revenue"): each row is a portion of it. None
    where the label opens with no term or no other row names the same item by another term."""
    rest = _after_term(label)
    if not rest:
        return None
    name = stems_of(rest)
    if not any(other != label and (said := _after_term(other)) and stems_of(said) == name
               for other in labels):
        return None
    return rest[:1].upper() + rest[1:]


def _after_term(label: str) -> str:
    """What a label names after the term that opens it ("unearned revenue"), "" for none."""
    text = label.strip()
    said = _TERM.starts(text)
    return text[said.end():].strip(" ,-") if said else ""


def _named_whole(labels: Sequence[str]) -> Callable[[str], str]:
    """The whole a row's label leaves, read beside the statement's other labels."""
    return lambda label: term_twin(label, labels) or whole_name(label)


def whole_name(label: str) -> str:
    """The line item a portion's label leaves without its portion words: "Borrowings" of
    "Current portion of borrowings" and of "Borrowings, net of current portion"."""
    words = letter_words(PORTION_ROW.pattern.sub(" ", label))
    while words and words[0].lower() in _JOINERS:
        words.pop(0)
    while words and words[-1].lower() in _JOINERS:
        words.pop()
    name = " ".join(words)
    return name[:1].upper() + name[1:]


def _above(a: Span, b: Span, rows: list[Span]) -> bool:
    """`a` stands above `b` in their statement (the ranked span is a scored copy of its row)."""
    def at(span: Span) -> int:
        return next((i for i, s in enumerate(rows) if s.source == span.source and s.row
                     and span.row and s.row.label == span.row.label), len(rows))
    return at(a) < at(b)


def _added(whole: str, parts: list[tuple[Span, Figure]], ask: Ask, evidence: Evidence
           ) -> list[str]:
    words, language = vocabulary(), ask.language
    (a, fa), (b, fb) = parts
    assert a.row is not None and b.row is not None
    value = (fa.value or 0.0) + (fb.value or 0.0)
    total = Figure("", value, fa.unit, fa.column)
    working = (f"{a.row.label} {fa.shown()} {cite([a.source])} + "
               f"{b.row.label} {fb.shown()} {cite([b.source])}")
    lead = words.answer("computed_result", language, metric=whole, result=total.shown(),
                        period=when(b, fb, evidence, language),
                        note=words.answer("computed_note", language), working=working)
    factor = (b.scale.factor if b.scale is not None else 1.0) or 1.0
    unit = unit_words(b.scale.line if b.scale is not None else "")
    formula = words.answer(
        "computed_working", language, metric=whole, names=f"{a.row.label} + {b.row.label}",
        terms=f"{_written(fa)} + {_written(fb)}", result=f"{value / factor:,.0f}",
        unit=f" ({unit})" if unit else "")
    return [lead, formula]


def _written(figure: Figure) -> str:
    return figure.written.replace("$", "").strip("() ")


def described(reading: Reading, evidence: Evidence, *, portion_asked: bool = False,
              assumption: str | None = None, language: str = "en") -> str:
    """The reading said as `describe_reading` says it, unless its figure is a portion's row and
    no portion is asked: then the two portions added, each cited, or the portion said as one."""
    primary = reading.primary
    same = [f for f in findings_for(evidence, reading.subject)
            if f.document_id == primary.document_id and f.period == primary.period]
    labels = sorted({_row(f) for f in same} - {""})
    row = _row(primary)
    # "Deferred revenue" beside "Deferred revenue, net of current portion" is a portion too
    if not row or not (a_portion(row) or complement(row, labels)) or portion_asked or \
            primary.value is None:
        return describe_reading(reading, evidence, assumption, language)
    named = _named_whole(labels)
    whole = named(row)
    other = next((f for f in same if f.unit == primary.unit and f.value is not None
                  and (r := _row(f)) and r != row and (a_portion(r) or complement(r, labels))
                  and stems_of(named(r)) == stems_of(whole)), None)
    words = vocabulary()
    if other is None:
        note = _only_a_portion(row, language)
        return f"{describe_reading(reading, evidence, assumption, language)} {note}"
    total = format_amount(primary.value + (other.value or 0.0), primary.unit)
    working = " + ".join(f"{_row(f)} {show(f)} {cite_findings([f], evidence)}"
                         for f in (primary, other))
    return words.answer("computed_result", language, metric=whole, result=total,
                        period=period_phrase(primary.period),
                        note=words.answer("computed_note", language), working=working)


def _row(finding: Finding) -> str:
    return str(finding.attributes.get("row") or "")


def _only_a_portion(label: str, language: str) -> str:
    """The lead's note that a row states a portion only ("current portion"), not the whole."""
    said = PORTION_ROW.search(label)
    return vocabulary().answer("portion_only", language, text=said.group(0) if said else label)


def portion_row_of(finding: Finding) -> str | None:
    """The row a finding was read from, where that row states a portion of its line item."""
    row = str(finding.attributes.get("row") or "")
    return row if row and a_portion(row) else None
