"""Rankings: "which segment grew most", "which category performed best", "which is largest".

Answered from the segment or category table of the passages: the table whose row best answers
the question (`manda.agent.spans`), its line items (totals left out) ranked by growth between
the fiscal year asked (else the latest) and the year before, or by size, with each figure and
the period, and the table cited.
"""

from __future__ import annotations

from manda.agent.compose.common import Ask, Draft, with_assumption
from manda.agent.compose.filings import own_filings
from manda.agent.compose.leads import fiscal_year, pick_figure, when
from manda.agent.compose.stated import row_sources
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.spans import Span, rank_spans, statement_row, statement_rows
from manda.agent.tables import read_tables
from manda.finance.figures import Figure
from manda.finance.label_heads import label_line_item
from manda.finance.vocabulary import line_item_of, only_a_line_item
from manda.ingest.extract.tables import is_total_row
from manda.vocabulary import vocabulary

MIN_ROWS = 2
_FOOTS = 0.002  # parts add up to their whole within this share of it ("may not foot")
_CONSOLIDATED = vocabulary().cues("consolidated_row")  # "Consolidated", "Konzern", "Groupe"


def answer(ask: Ask, evidence: Evidence) -> Draft | None:
    """The ranking the question asks for, or None when no table of several line items has it:
    the parts of one whole where a table adds its rows up (the line item asked broken down,
    or the parts beside the row asked), else a table's rows with its totals left out."""
    ranked = [s for s in rank_spans(ask.frame, evidence)
              if s.row is not None and statement_row(s.row)]
    # "which segment …": the segments' rows of one line, before any table's line items
    tops = [s for s in ranked if s.segment][:5] if ask.frame.segments else []
    if not ask.frame.subjects:  # "which segment grew most" names no line: its sales
        sales = [s for s in ranked if s.row is not None and _line(s.row.label) == "revenue"]
        tops = [*(s for s in tops if s in sales), *sales[:5], *tops]
    every = statement_rows(evidence)  # a segment's block that shares no word with the question
    found: list[tuple[list[tuple[Span, Figure, Figure | None, float]], bool]] = []
    for top in [*tops, *ranked[:5]]:
        heads = line_heads(top, evidence)
        if not _of_asked(heads.get(row_line(top), ""), ask):
            continue  # a block of another line item ("Gross profit"'s by segment, not revenue)
        parts = parts_of_a_whole(top, every, evidence)
        if parts and ask.frame.segments:
            parts = outer_parts(parts, every, evidence)  # a segment's lines are no segments
        # a table's other rows are no segments: "which segment …" ranks segments or nothing
        segments = _segments(top, [*ranked, *every])
        rows = (segments or parts or ([] if ask.frame.segments else [
            s for s in _siblings(top, ranked) if _of_asked(heads.get(row_line(s), ""), ask)]))
        lines = _ranked(rows, ask)
        if lines is not None:
            found.append((lines, bool(parts) and not segments))
    if not found:
        return None
    # one company's filings: the ranking of the filing whose own period is asked leads, where
    # a later filing's comparative columns rank the same year too (a later filing may restate)
    own = own_filings(evidence, set(ask.frame.period_years))
    found.sort(key=lambda f: f[0][0][0].source.document_id not in own)
    return Draft(text=with_assumption(ask.assumption,
                                      _text(_finest(found), ask, evidence, ranked)))


def _finest(found: list[tuple[list[tuple[Span, Figure, Figure | None, float]], bool]]
            ) -> list[tuple[Span, Figure, Figure | None, float]]:
    """Of the rankings read, the first, unless another breaks the same whole down finer: "which
    product group sold most" is asked of the note's seven groups, not of the income statement's
    products and services. Only the parts of a whole compete (`found`'s flag)."""
    first = found[0][0]
    if not found[0][1]:
        return first
    finer = [lines for lines, parts in found if parts and len(lines) > len(first)]
    return max(finer, key=len, default=first)


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
    """The line item a row is ("Operating income (loss)" and "Operating income" are one), else
    its own words."""
    return label_line_item(label) or label.strip().lower()


def parts_of_a_whole(top: Span, rows: list[Span], evidence: Evidence) -> list[Span]:
    """The rows of `top`'s table that add up to another of its rows: `top`'s own parts where
    it is that whole ("Merchandise sales" over its categories), else the parts it is one of
    ("Services" beside "iPhone", adding up to "Total net sales"). Empty where the table adds
    nothing up. A whole stands under its parts, or over them (a data tag's dump). `rows`: every
    statement row of the passages."""
    table = _in_table_order(top, rows, evidence)
    values = [_values(s) for s in table]
    groups: list[tuple[int, list[int]]] = []
    for at in range(len(table)):
        # the parts right above a total first: two tables of one whole stand one after the
        # other ("Consolidated" under the groups, then the countries under it again)
        runs = [*(list(range(at - n, at)) for n in range(MIN_ROWS, len(table))),
                *(list(range(at + 1, at + 1 + n)) for n in range(MIN_ROWS, len(table)))]
        run = next((r for r in runs if r and r[0] >= 0 and r[-1] < len(table)
                    and _adds_up([values[i] for i in r], values[at])
                    and not _an_identity([table[i] for i in r])), None)
        if run is not None:
            groups.append((at, run))
    own = next((t for t, s in enumerate(table) if _same_row(s, top)), None)
    if own is None:
        return []
    for whole, run in groups:
        if whole == own:
            return [table[i] for i in run]
    return next(([table[i] for i in run] for _, run in groups if own in run), [])


def outer_parts(parts: list[Span], rows: list[Span], evidence: Evidence) -> list[Span]:
    """Where `parts` add up to a row that is itself one of a larger whole's parts ("Automotive
    sales" and "Automotive leasing" adding up to "Automotive revenues", which stands beside
    "Energy generation and storage" and "Services and other" adding up to the total revenues):
    the larger whole's parts, each a segment's line, not the lines of one; else `parts`."""
    table = _in_table_order(parts[0], rows, evidence)
    values = [_values(s) for s in table]
    inner = [i for i, s in enumerate(table) if any(_same_row(s, p) for p in parts)]
    if len(inner) != len(parts):
        return parts
    whole = next((i for i in (inner[-1] + 1, inner[0] - 1) if 0 <= i < len(table)
                  and _adds_up([values[j] for j in inner], values[i])), None)
    if whole is None:
        return parts

    def label(i: int) -> str:
        row = table[i].row
        return row.label if row is not None else ""

    item = _line(label(whole))
    for length in range(MIN_ROWS, len(table)):
        for start in range(whole - length + 1, whole + 1):
            run = list(range(start, start + length))
            if start < 0 or run[-1] >= len(table) or set(run) & set(inner):
                continue
            # the larger whole is of the same line item ("Revenues" over "Automotive
            # revenues"; not "Total revenues" over cost rows and "Gross profit")
            if any(_adds_up([values[i] for i in run], values[j]) and _line(label(j)) == item
                   for j in range(len(table)) if j not in run) and \
                    not _an_identity([table[i] for i in run]):
                return [table[i] for i in run]
    return parts


def _an_identity(parts: list[Span]) -> bool:
    """Parts that are line items of their own ("Operating expenses" and "Operating income"
    adding up to "Net sales"): an identity of the statement, no breakdown to rank."""
    return sum(1 for s in parts if s.row is not None and only_a_line_item(s.row.label)) >= 2


def _in_table_order(top: Span, rows: list[Span], evidence: Evidence) -> list[Span]:
    """`top`'s table's rows with figures in the same columns, as the passage prints them."""
    text = _passage_text(top, evidence)
    columns = set(top.row.cells) if top.row is not None else set()
    out: dict[int, Span] = {}
    for span in rows:
        if span.row is None or span.source.chunk_id != top.source.chunk_id or \
                set(span.row.cells) != columns or not span.row.line:
            continue
        at = text.find(span.row.line)
        while at >= 0 and at in out and out[at] is not span:
            at = text.find(span.row.line, at + 1)  # the same line twice: two tables' totals
        if at >= 0:
            out.setdefault(at, span)
    table = [out[at] for at in sorted(out)]
    # a line read twice (a passage that repeats it) is one row, not two parts of the whole
    return [s for i, s in enumerate(table) if i == 0 or not _one_line(s, table[i - 1])]


def _one_line(span: Span, other: Span) -> bool:
    return span.row is not None and other.row is not None and \
        (span.row.label, span.row.cells) == (other.row.label, other.row.cells)


def _passage_text(span: Span, evidence: Evidence) -> str:
    """The whole text of the passage a span was read from."""
    return next((h.text for h in evidence.hits if h.chunk_id == span.source.chunk_id), "")


def _same_row(span: Span, other: Span) -> bool:
    return (span.row is not None and other.row is not None
            and span.source.chunk_id == other.source.chunk_id
            and (span.row.label, span.row.line) == (other.row.label, other.row.line))


def _values(span: Span) -> dict[str, float]:
    return {f.column: f.value for f in span.figures()
            if f.unit != "%" and not f.none and f.value is not None}


def _adds_up(parts: list[dict[str, float]], whole: dict[str, float]) -> bool:
    """The parts' figures add up to the whole's in every column they all state (a rounding's
    difference aside), and to something."""
    columns = [c for c in whole if all(c in p for p in parts)]
    return bool(columns) and all(
        whole[c] and abs(sum(p[c] for p in parts) - whole[c]) <= abs(whole[c]) * _FOOTS
        for c in columns)


def _siblings(top: Span, spans: list[Span]) -> list[Span]:
    """The line items of `top`'s table: same passage, same columns, no totals."""
    columns = set(top.row.cells) if top.row is not None else set()
    out: list[Span] = []
    for span in spans:
        if span.row is None or span.source.chunk_id != top.source.chunk_id:
            continue
        if set(span.row.cells) != columns or a_total(span.row.label):
            continue
        if all(span.row.label != s.row.label for s in out if s.row is not None):
            out.append(span)
    return out


def line_heads(top: Span, evidence: Evidence) -> dict[str, str]:
    """The line item each row of `top`'s passage breaks down, by the row's line: a statement
    lists a line item's parts after the row that names it ("Gross profit" then "Automotive",
    "Energy"), its total first or last, so the rows from one line item's row to the next are
    one block; rows under no such row are the block of the line item their table's caption
    names ("Revenues")."""
    text = _passage_text(top, evidence)
    out: dict[str, str] = {}
    for table in read_tables(text):
        head = next((c for c in reversed(table.caption) if label_line_item(c)), "")
        for row in table.rows:
            if row.cells and _names_line_item(row.label):
                head = row.label
            out.setdefault(row.line.strip(), head)
    return out


def row_line(span: Span) -> str:
    return span.row.line.strip() if span.row is not None else ""


def _names_line_item(label: str) -> bool:
    """A row that is a line item of its own ("Gross profit", "Total cost of revenue"), not one
    of a line item's parts ("Automotive", "Services and other", "Automotive sales"): the line
    item it is, named first or after a total's word."""
    return label_line_item(label) is not None and (
        line_item_of(label) is not None or is_total_row(label))


def _of_asked(head: str, ask: Ask) -> bool:
    """Whether a block's line item is the one asked, where the question and the block name
    one (a metric or a statement line: "Total assets" is no block of revenue)."""
    asked, named = set(ask.frame.subjects), label_line_item(head) if head else None
    return not asked or named is None or named in asked


def a_total(label: str) -> bool:
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

