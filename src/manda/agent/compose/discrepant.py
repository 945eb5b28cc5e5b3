"""Another place of the document that states a different figure for the measure the lead states.

A filing often states the metric asked twice, with different figures, because the two places
measure it differently: the cash-flow statement's "Common stock repurchased" (cash paid in the
year, shares withheld for taxes with it) against the discussion's "we repurchased … for $18.4
billion through our share repurchase programs"; a properties table's total by use against its
total by segment (which leaves out corporate facilities). An answer that leads with one of them
and never names the other states, half of the time, the figure the reader did not mean. So the
lead line names the other one too, with its place, in one short clause ("…; the filing also
states $22.2 billion (Common stock repurchased) (source: a.pdf, p.23).").

The other figure is found among the passages the answer already read (no new search): a
sentence or a row of a document the lead cites that covers the question's words about as well as
the lead's own place does, states a figure of the same kind (money against money, a bare number
against a bare number), for a year the lead speaks of (or for none), close to the lead's own
(`NEAR_RATIO`: a segment, a component row, a per-share figure or a change is far from it) and
not written the same. A row on the lead's own page must carry the lead row's label and column
(the two tables' totals), so a subtotal beside the lead is never one; a sentence that states a
forecast is never one. At most one other figure, for figure questions only, never for computed
answers (`derived`) or questions about a part (a segment, a named part).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from manda.agent.compose.common import Ask, Draft
from manda.agent.compose.corroborate import (
    MIN_DIGITS,
    _lead,
    _own_place,
    _page_scales,
    _Said,
    _said,
)
from manda.agent.compose.filings import NEAR_WORDS
from manda.agent.compose.leads import asked_years
from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import cite, find_markers
from manda.agent.relevance import CLOSE_BELOW, content_terms, stems_of, term_in
from manda.agent.spans import Span, rank_spans
from manda.agent.spans.balances import a_portion, states_forecast, totals_row
from manda.agent.spans.ranking import states_bound
from manda.answers import Intent
from manda.finance.amounts import (
    CURRENCY_SYMBOLS,
    Amount,
    same_as_written,
    significant_digits,
)
from manda.text import YEAR
from manda.vocabulary import vocabulary
from manda.vocabulary.cues import Cues

__all__ = ["NEAR_RATIO", "OtherFigure", "other_figure", "with_other_figure"]

# two measures of one thing differ by a withheld-tax slice or a corporate facility; a part, a
# subtotal of a few rows, a per-share figure or a change is further from the whole than this
NEAR_RATIO = 1.3
AREA = "area"  # the measure of a question for floor space (`QuestionFrame.measure`)


@dataclass(frozen=True)
class OtherFigure:
    """The other figure, as the lead line states it, and its place."""

    shown: str
    label: str  # a row's label ("Common stock repurchased"); "" for a sentence
    source: Source


def _paired(span: Span, said: Sequence[_Said]) -> list[_Said]:
    """A sentence's figures of one kind paired with its years in order where they pair one to
    one ("69 million shares and 95 million shares … for $18.4 billion and $28.0 billion" in
    "fiscal years 2023 and 2022"): the second amount is the second year's."""
    if span.row is not None:
        return list(said)
    years = list(dict.fromkeys(int(y) for y in YEAR.findall(span.text)))
    kinds: dict[tuple[str | None, bool], list[int]] = {}
    for i, d in enumerate(said):
        kinds.setdefault((d.currency, d.percent), []).append(i)
    out = list(said)
    for indices in kinds.values():
        if len(years) > 1 and len(indices) == len(years):
            for i, year in zip(indices, years, strict=True):
                out[i] = replace(said[i], years=frozenset({year}))
    return out


def _years_fit(said: _Said, years: set[int]) -> bool:
    return not said.years or not years or bool(said.years & years)


def _kind_fits(figure: Amount, said: _Said, row: bool) -> bool:
    if said.percent != (figure.unit == "%") or said.change:
        return False
    if figure.currency and said.currency and figure.currency != said.currency:
        return False
    if figure.currency and not said.currency:
        return False  # an amount of money is stated as one
    # a sentence's bare number is no amount of money, and the reverse; a row's currency is
    # its table's, often unprinted
    return row or bool(figure.currency) == bool(said.currency)


def _written(figure: Amount, said: _Said) -> bool:
    """`said` states `figure` as written: the same amount to the precision the less precise
    writes it, or a bare number the same digits at its table's scale ("67,169" of a table "in
    thousands")."""
    if same_as_written(figure.value or 0.0, figure.text, said.value, said.written):
        return True
    digits = "".join(c for c in figure.text if c.isdigit())
    return not figure.currency and len(digits) >= MIN_DIGITS + 2 and digits == "".join(
        c for c in said.written if c.isdigit())


def _approximate(text: str, written: str, about: Cues) -> bool:
    """The sentence writes the figure as a round guess ("over 400,000", "nearly 2,000",
    "environ 13")."""
    at = text.find(written)
    return at > 0 and about.ends(text[:at])


def _near(figure: Amount, value: float, said: _Said) -> bool:
    """`said` is near the lead's figure (`value`: as the lead's own place reads it, at its
    table's scale) and not written the same."""
    for a in {abs(value), abs(figure.value or 0.0) if figure.currency else abs(value)}:
        b = abs(said.value)
        if not a or not b or max(a, b) / min(a, b) > NEAR_RATIO:
            return False
    return not _written(figure, said)


def _a_part(span: Span, part: Cues, of_total: Cues) -> bool:
    """A span that states a part of the measure or no measure of the year: a forecast, a
    programme's size or what remains of it (no amount spent), a sentence opening on the whole
    it takes a part of ("Of the shares repurchased, $8.1 billion …"), a portion's row, a
    segment's block."""
    if span.row is None:
        return states_forecast(span.text) or states_bound(span.text) or \
            part.begins(span.text) or of_total.found(span.text)
    return a_portion(span.row.label) or bool(span.segment)


def _unsummed(label: str) -> str:
    """A row's label without the words that say it adds up the rows above it ("Total")."""
    for match in reversed(list(vocabulary().cues("total_row_start").finditer(label))):
        label = label[:match.start()] + label[match.end():]
    return label


def _column_terms(column: str) -> set[str]:
    return {t for t in content_terms(column) if not any(c.isdigit() for c in t)}


def _label_terms(span: Span) -> set[str]:
    return set(content_terms(span.row.label)) if span.row is not None else set()


def _shown(said: _Said, currency: str | None) -> str:
    """A figure as a person writes it: as written where that carries its unit ("$89.3
    billion"), else, where the lead's is an amount of money (`currency`), from its value at its
    table's scale ("$22.2 billion" for "22,245" in millions); else as written."""
    symbol = CURRENCY_SYMBOLS.get(currency or "", currency or "")
    if not symbol or any(c.isalpha() or c in "$€£" for c in said.written):
        return said.written.strip("()")
    value = abs(said.value)
    for factor, scale in ((1e9, "billion"), (1e6, "million")):
        if value >= factor:
            whole = len(str(int(value // factor)))
            places = min(2, max(1, significant_digits(said.written) - whole))
            return f"{symbol}{value / factor:,.{places}f} {scale}"
    return said.written.strip("()")


def _stating(span: Span, said: Sequence[_Said], figure: Amount) -> list[int]:
    """The indices of `said` (a span's figures) that state `figure` as written."""
    return [i for i, d in enumerate(said)
            if _kind_fits(figure, d, span.row is not None) and _written(figure, d)]


def _column_of(span: Span, said: _Said) -> set[str]:
    return next((_column_terms(f.column) for f in span.figures() if f.written == said.written),
                set())


def _same_column(span: Span, index: int, said: _Said,
                 own_rows: Sequence[tuple[Span, int, _Said]]) -> bool:
    """A row's figure sits where the lead row's figure does: in a column named as its ("Owned
    Square Footage"), years aside, or in the same place of a row of as many figures (a second
    table's header names its first column by the table's own first header)."""
    mine = _column_of(span, said)
    for own, i, d in own_rows:
        theirs = _column_of(own, d)
        if (mine and mine == theirs) or not mine or not theirs:
            return True
        if i == index and len(own.figures()) == len(span.figures()):
            return True
    return False


def _asked_fit(span: Span, said: _Said, asked: Sequence[str]) -> int:
    """How many of the question's words the column of a row's figure says ("owned" of "owned
    square footage" in "Owned Square Footage")."""
    if span.row is None:
        return 0
    column = stems_of(next((f.column for f in span.figures() if f.written == said.written), ""))
    return sum(1 for t in asked if term_in(t, column))


def other_figure(figures: Sequence[Amount], places: Sequence[Source], years: set[int],
                 ranked: Sequence[Span], evidence: Evidence, asked: Sequence[str] = (),
                 lead: str = "") -> OtherFigure | None:
    """The best span of `ranked` (the question's spans, best first) in a document the lead
    cites that states a different figure of the same measure as one of the lead's figures
    (the one a row's column names by the question's words `asked` first), a row whose label
    says no word that neither the question nor the `lead` line says ("… not yet settled"), a
    sentence that covers the question's words as well as the lead's own place: a sentence where
    the lead's own place is a row, and the reverse, before one of the lead's own kind (the
    discussion beside the statements); None where none does."""
    documents = {p.document_id for p in places}
    ours = [s for s in ranked if s.source.document_id in documents and s.source.page is not None]
    if not ours:
        return None
    scales = _page_scales(ours, evidence, documents)
    said = {id(s): _paired(s, _said(s, *scales.get((s.source.document_id, s.source.page),
                                                  (1.0, None))))
            for s in ours}
    named = stems_of(lead) | set(asked)
    part = vocabulary().cues("portion_opening")
    about = vocabulary().cues("approximately")
    of_total = vocabulary().cues("portion_of_total")
    leads = []
    kinds = [(f.currency, f.unit) for f in figures]
    for at, figure in enumerate(figures):
        order = kinds[:at].count(kinds[at])  # the lead's first figure of its kind leads
        if figure.unit == "%":
            continue  # a rate stated otherwise is another definition, not another measure
        # the lead's own spans: at its places, stating its figure
        own = [(s, i, said[id(s)][i]) for s in ours if _own_place(s, places)
               for i in _stating(s, said[id(s)], figure)]
        if own:
            fit = max(_asked_fit(s, d, asked) for s, _, d in own)
            if order and not fit:
                continue  # the lead's later figures: its prior year, its whole, a change
            leads.append((-fit, order, figure, own))
    for _, _, figure, own in sorted(leads, key=lambda lead: lead[:2]):
        top = max(s.words for s, _, _ in own)
        bar = max(CLOSE_BELOW, NEAR_WORDS * top)
        value = own[0][2].value
        own_rows = [(s, i, d) for s, i, d in own if s.row is not None]
        own_kinds = {s.row is not None for s, _, _ in own}
        # the rows anywhere that state the lead's figure: a row beside one of them is another
        # line of its table (a part, a subtotal), or another table's total of the same label
        stating = [s for s in ours if s.row is not None and _stating(s, said[id(s)], figure)]
        found: list[tuple[int, int, OtherFigure]] = []
        for rank, span in enumerate(ours):
            if span.words < bar or any(span is s for s, _, _ in own):
                continue
            if span.row is None and span.words < top:
                continue
            if span.row is not None and not all(term_in(t, named)
                                                for t in stems_of(_unsummed(span.row.label))):
                continue
            if _a_part(span, part, of_total):
                continue
            row = span.row is not None
            beside = [s for s in stating if s.source == span.source]
            if row and beside and not any(_label_terms(span) == _label_terms(s) for s in beside):
                continue
            # a part of the lead's total row is no other measure of it
            if row and any(totals_row(s.row.label) for s, _, _ in own_rows
                           if s.row is not None) \
                    and not totals_row(span.row.label if span.row is not None else ""):
                continue
            for index, d in enumerate(said[id(span)]):
                if not (_kind_fits(figure, d, row) and _years_fit(d, years)
                        and _near(figure, value, d)):
                    continue
                if any(_written(f, d) for f in figures):
                    continue  # the lead states it already (the prior year, another figure)
                if not row and _approximate(span.text, d.written, about):
                    continue  # "over 400,000 team members" rounds 415,000; no other count
                if row and own_rows and not _same_column(span, index, d, own_rows):
                    continue
                label = span.row.label.strip() if span.row is not None else ""
                if beside and label:
                    column = next((f.column for f in span.figures() if f.written == d.written),
                                  "")
                    label = f"{label} \u2014 {column.strip()}" if column.strip() else label
                found.append((int(own_kinds == {row}), rank, OtherFigure(
                    _shown(d, figure.currency), label, span.source)))
                break
        if found:
            return min(found, key=lambda f: f[:2])[2]
    return None


def with_other_figure(draft: Draft, ask: Ask, evidence: Evidence) -> Draft:
    """`draft` with its lead line naming the other place's figure of the measure it leads with,
    for a figure question whose answer is not computed."""
    frame = ask.frame
    if not (frame.spending or frame.measure == AREA or frame.counted):
        # what was paid against what a programme spent; a total area by use; a count of
        # things two places of a filing state differently ("offices in 13 countries", "12")
        return draft
    if frame.answer_kind != "figure" or ask.intent is not Intent.FACT_LOOKUP \
            or frame.derived is not None or frame.segments or frame.named_part \
            or frame.segment_named:
        return draft
    lead = _lead(draft, evidence)
    if lead is None:
        return draft
    start, end, line = lead.start, lead.end, lead.line
    figures, places, years = lead.figures, lead.places, lead.years
    ranked = rank_spans(frame, evidence)
    found = other_figure(figures, places, asked_years(ask) or years, ranked, evidence,
                         frame.ranking.terms, line)
    if found is None:
        return draft
    if found.source in [r.source for m in find_markers(line, evidence) for r in m.references]:
        where = ""
    else:
        where = f" {cite([found.source])}"
    key = "other_figure_row" if found.label else "other_figure"
    shown = found.shown
    if frame.counted and shown[-1:].isdigit():
        shown = f"{shown} {' '.join(frame.counted)}"  # "13 countries", as the lead counts them
    said = vocabulary().answer(key, ask.language, figure=shown, label=found.label)
    lead = line.rstrip()
    stop = "" if lead.endswith((".", "!", "?")) else "."
    added = f"{lead}{stop} {said}{where}."
    return replace(draft, text=draft.text[:start] + added + draft.text[end:])
