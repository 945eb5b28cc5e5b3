"""Rankings: "which segment grew most", "which category performed best", "which is largest".

Answered from the segment or category table of the passages: the table whose row best answers
the question (`manda.agent.spans`), its line items (totals left out) ranked by growth between
the fiscal year asked (else the latest) and the year before, or by size, with each figure and
the period, and the table cited.
"""

from __future__ import annotations

from manda.agent.compose.common import Ask, Draft, with_assumption
from manda.agent.compose.leads import fiscal_year, pick_figure, when
from manda.agent.compose.stated import row_sources
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.spans import Span, rank_spans, statement_row, statement_rows
from manda.finance.figures import Figure
from manda.finance.label_heads import label_line_item
from manda.finance.vocabulary import only_a_line_item
from manda.ingest.extract.tables import is_total_row
from manda.vocabulary import vocabulary

MIN_ROWS = 2
_CONSOLIDATED = vocabulary().cues("consolidated_row")  # "Consolidated", "Konzern", "Groupe"
_SEGMENT_ASKED = vocabulary().cues("segment_words")  # "segment", "by region", "Sparte"


def answer(ask: Ask, evidence: Evidence) -> Draft | None:
    """The ranking the question asks for, or None when no table of several line items has it."""
    ranked = [s for s in rank_spans(ask.frame, evidence)
              if s.row is not None and statement_row(s.row)]
    # "which segment …": the segments' rows of one line, before any table's line items
    tops = [s for s in ranked if s.segment][:5] if _SEGMENT_ASKED.found(ask.frame.text) else []
    if not ask.frame.subjects:  # "which segment grew most" names no line: its sales
        sales = [s for s in ranked if s.row is not None and _line(s.row.label) == "revenue"]
        tops = [*(s for s in tops if s in sales), *sales[:5], *tops]
    every = statement_rows(evidence)  # a segment's block that shares no word with the question
    for top in [*tops, *ranked[:5]]:
        rows = _segments(top, [*ranked, *every]) or _siblings(top, ranked)
        lines = _ranked(rows, ask)
        if lines is not None:
            return Draft(text=with_assumption(ask.assumption,
                                              _text(lines, ask, evidence, ranked)))
    return None


def _segments(top: Span, spans: list[Span]) -> list[Span]:
    """Where `top` is a segment's row ("Operating income" under "AWS"): the same line's row of
    each segment of its document, one per segment, named by its segment."""
    if not top.segment or top.row is None:
        return []
    columns, line, out = set(top.row.cells), _line(top.row.label), {}
    for span in spans:
        if span.segment and span.row is not None and \
                span.source.document_id == top.source.document_id and \
                _line(span.row.label) == line and set(span.row.cells) == columns:
            out.setdefault(span.segment, span)
    return list(out.values()) if len(out) >= MIN_ROWS else []


def _line(label: str) -> str:
    """The line item a row is ("Operating income (loss)" and "Operating income" are one)."""
    return label_line_item(label) or label.strip().lower()


def _siblings(top: Span, spans: list[Span]) -> list[Span]:
    """The line items of `top`'s table: same passage, same columns, no totals."""
    columns = set(top.row.cells) if top.row is not None else set()
    out: list[Span] = []
    for span in spans:
        if span.row is None or span.source.chunk_id != top.source.chunk_id:
            continue
        if set(span.row.cells) != columns or _a_total(span.row.label):
            continue
        if all(span.row.label != s.row.label for s in out if s.row is not None):
            out.append(span)
    return out


def _a_total(label: str) -> bool:
    """A row that adds its siblings up: a total's words ("Total", "All other", "Summe",
    "Sous-total"), the whole group's ("Consolidated"), or only the line item the table breaks
    down ("Net sales", "Chiffre d'affaires")."""
    name = label.strip().rstrip(":")
    return is_total_row(name) or _CONSOLIDATED.begins(name) or only_a_line_item(name)


def _ranked(rows: list[Span], ask: Ask) -> list[tuple[Span, Figure, Figure | None, float]] | None:
    by, top_first = ask.frame.rank_by, ask.frame.top_first
    out: list[tuple[Span, Figure, Figure | None, float]] = []
    for span in rows:
        figures = [f for f in span.figures() if f.unit != "%" and not f.none]
        chosen = pick_figure(figures, ask, span) if figures else None
        if chosen is None or chosen.value is None:
            continue
        year = fiscal_year(chosen.column)
        prior = next((f for f in figures if year is not None
                      and fiscal_year(f.column) == year - 1), None)
        if by == "growth":
            if prior is None or not prior.value or prior.value < 0 or chosen.value < 0:
                continue  # a loss's "growth" says nothing of which grew most
            measure = (chosen.value - prior.value) / abs(prior.value) * 100
        else:
            measure = chosen.value
        out.append((span, chosen, prior, measure))
    if len(out) < MIN_ROWS:
        return None
    out.sort(key=lambda t: t[3], reverse=top_first)
    return out


def _text(lines: list[tuple[Span, Figure, Figure | None, float]], ask: Ask,
          evidence: Evidence, ranked: list[Span]) -> str:
    by, top_first = ask.frame.rank_by, ask.frame.top_first
    words, language = vocabulary(), ask.language
    first_span, first, first_prior, _ = lines[0]
    period = when(first_span, first, evidence, language)
    # the first item's table and the other tables of its document stating its figures for
    # both years (a segment note and the MD&A's segment table), a statement's or note's first
    sources = cite(row_sources(first_span, (first, first_prior), ranked, evidence)
                   + [s.source for s, _, _, _ in lines])
    items = []
    for span, figure, prior, measure in lines:
        label = span.segment or (span.row.label if span.row is not None else "")
        if by == "growth" and prior is not None:
            items.append(words.answer("ranking_growth_item", language, item=label,
                                      change=f"{measure:+.1f}%", figure=figure.shown(),
                                      prior=prior.shown()))
        else:
            items.append(words.answer("ranking_size_item", language, item=label,
                                      figure=figure.shown()))
    how = "growth" if by == "growth" else "size"
    place = "first" if top_first else "last"
    lead = words.answer(f"ranks_{place}_by_{how}", language, item=items[0], period=period,
                        cite=sources)
    ranked = "; ".join(f"{n}. {item}" for n, item in enumerate(items, start=1))
    order = "ranked_highest_first" if top_first else "ranked_lowest_first"
    return f"{lead}\n{words.answer(order, language, ranked=ranked)}"

