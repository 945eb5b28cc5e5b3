"""Where a document states a figure: its primary statement first, then the other pages that say it.

A filing states one figure on several pages: the balance sheet, a note, the MD&A's summary table
and its prose ("Our long-term debt was $65.6 billion"). A banker checks a figure where the filing
states it authoritatively, so an answer cites the primary statement's page first (a page under a
statement's title: "Consolidated Balance Sheets", "Statements of Cash Flows"), then a note's
(under "Note 6 — Debt"), then the other pages that state the same value for the same period, and
a statement's row leads where a summary's row of the same value would. Page roles are read from
the page's headings, never from a filing's name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from manda.agent.compose.filings import NEAR_WORDS, own_filings
from manda.agent.evidence import Evidence, Source
from manda.agent.relevance import stems_of
from manda.agent.selection import Reading, findings_for
from manda.agent.spans import Span, heading_shaped, statement_row
from manda.agent.unusual import body
from manda.finance.amounts import Amount, find_amounts, same_as_written
from manda.finance.figures import Figure, StatementScale, column_date, column_year, read_figure
from manda.finance.fiscal import fiscal_year_named
from manda.finance.periods import year_of
from manda.finance.statements import StatementKind, named_statements
from manda.models import Finding
from manda.text import YEAR
from manda.vocabulary import vocabulary

__all__ = [
    "NOTE",
    "OTHER",
    "STATEMENT",
    "Stated",
    "by_authority",
    "cited",
    "figures_of",
    "finding_places",
    "own_filing_place",
    "page_role",
    "places_stating",
    "row_stated",
    "same_value",
    "sentence_sources",
    "sentence_stated",
    "statement_lead",
]

STATEMENT, NOTE, OTHER = 2, 1, 0  # how authoritatively a page states a figure
MAX_PLACES = 3  # a figure's citation names at most this many pages
MIN_DIGITS = 2  # a figure compared at one significant digit ("$2 billion") is no match
OWN_DIGITS = 3  # another filing's figure is the lead's when they agree to this many digits
_PRIMARY = {StatementKind.INCOME, StatementKind.BALANCE, StatementKind.CASH_FLOW,
            StatementKind.EQUITY}
_NOTE = vocabulary().cues("note_heading")  # "Note 6 — Debt", "Notes to Consolidated …"


@dataclass(frozen=True)
class Stated:
    """One figure a span states: its value in units, as written, and the fiscal years it is
    of (empty: a sentence that names no year, which speaks of its document's own year)."""

    value: float
    written: str
    years: frozenset[int]
    currency: str | None


def _role_of_headings(headings: Iterable[str]) -> int:
    role = OTHER
    for heading in headings:
        if any(kind in _PRIMARY for kind, _ in named_statements(heading)):
            return STATEMENT
        if _NOTE.begins(heading):
            role = NOTE
    return role


def page_role(evidence: Evidence, document_id: str, page: int | None) -> int:
    """How authoritatively a page states figures, by the headings its passages stand under or
    show: a primary statement's title (the balance sheet, the income or cash flow statement,
    the statement of equity), a note's heading, or neither (the MD&A, a summary, prose)."""
    if page is None:
        return OTHER
    headings: list[str] = []
    for hit in evidence.hits:
        if hit.document_id == document_id and hit.location.page == page:
            headings += list(hit.heading_path)
            headings += [line.strip() for line in body(hit.text).splitlines()
                         if heading_shaped(line.strip())]
    return _role_of_headings(headings)


def same_value(a: Stated, b: Stated) -> bool:
    """The same amount to the precision the less precise of the two writes it ("$65.6 billion"
    and "65,648" in millions), sign aside (a statement's parentheses, a sentence's "used in")."""
    if a.currency and b.currency and a.currency != b.currency:
        return False
    return same_as_written(a.value, a.written, b.value, b.written, least=MIN_DIGITS)


def _fiscal_year(header: str) -> int | None:
    day = column_date(header)
    return fiscal_year_named(day) if day is not None else column_year(header)


def row_stated(span: Span) -> list[Stated]:
    """A statement row's figures, each of its column's fiscal year (a change column is none)."""
    if span.row is None or not statement_row(span.row):
        return []
    change = vocabulary().cues("change_column")
    out = []
    for figure in span.figures():
        if figure.value is None or figure.unit == "%" or change.found(figure.column):
            continue
        year = _fiscal_year(figure.column)
        out.append(Stated(figure.value, figure.written,
                          frozenset({year}) if year is not None else frozenset(),
                          figure.unit if figure.unit not in (None, "shares") else None))
    return out


def sentence_stated(text: str) -> list[Stated]:
    """A sentence's amounts, each with the year it states it for: "$52.6 billion and $65.6
    billion as of December 31, 2024 and 2025" pairs them in order; a sentence of one year
    gives it to all; one whose years and amounts do not pair gives each all its years."""
    amounts: list[Amount] = [a for a in find_amounts(text) if a.currency and a.value]
    years = list(dict.fromkeys(int(y) for y in YEAR.findall(text)))
    out = []
    for i, amount in enumerate(amounts):
        own = frozenset({years[i]}) if len(years) == len(amounts) else frozenset(years)
        out.append(Stated(amount.value or 0.0, amount.text, own, amount.currency))
    return out


def _stated(span: Span) -> list[Stated]:
    return row_stated(span) if span.row is not None else sentence_stated(span.text)


def _of_year(stated: Stated, year: int | None, own_year: int | None) -> bool:
    if year is None:
        return not stated.years
    return year in stated.years or (not stated.years and year == own_year)


def _names_item(lead: Span, other: Span) -> bool:
    """`other` speaks of the lead's line item: one row's label holds the other's words
    ("Delivery" and "Delivery revenue"), a sentence holds the row's label, or it covers the
    question nearly as well as the lead does."""
    if lead.words and other.words >= NEAR_WORDS * lead.words:
        return True
    if lead.row is None:
        return False
    own = stems_of(lead.row.label)
    if other.row is not None:
        theirs = stems_of(other.row.label)
        return bool(own and theirs) and (own <= theirs or theirs <= own)
    return bool(own) and own <= stems_of(other.text)


def _states(other: Span, figures: Sequence[Stated], own_year: int | None) -> bool:
    """`other` states each of the figures for its year (a row: in the same column's year;
    a sentence: for the year it names, or its document's own year when it names none)."""
    said = _stated(other)
    for figure in figures:
        year = next(iter(figure.years)) if len(figure.years) == 1 else None
        if not any(same_value(figure, s) and _of_year(s, year, own_year) for s in said):
            return False
    return bool(figures)


def places_stating(lead: Span, figures: Sequence[Stated], ranked: Sequence[Span],
                   evidence: Evidence, *, own_year: int | None = None) -> list[Span]:
    """The other spans of the lead's document, on other pages, that state the lead's figures
    (each for its year) for the lead's line item: the best statement of each page."""
    out: dict[int | None, Span] = {}
    for span in ranked:
        if span.source.document_id != lead.source.document_id:
            continue
        page = span.source.page
        if page is None or page == lead.source.page or page in out:
            continue
        if _names_item(lead, span) and _states(span, figures, own_year):
            out[page] = span
    return list(out.values())


def figures_of(lead: Span, *chosen: Figure | None) -> list[Stated]:
    """The row's figures chosen to answer (the year asked, the year before), as stated."""
    stated = {s.written: s for s in row_stated(lead)}
    return [s for f in chosen if f is not None and (s := stated.get(f.written))]


def by_authority(lead: Span, others: Sequence[Span], evidence: Evidence) -> list[Span]:
    """The lead and the other places stating its figure: a primary statement's page first, then
    a note's, then the lead's own, then the sentences that state it in words (the discussion a
    banker reads beside the table), then other tables repeating it; each group in its
    ranking's order."""
    spans = [lead, *others]
    roles = [page_role(evidence, s.source.document_id, s.source.page) for s in spans]
    order = sorted(range(len(spans)), key=lambda i: (
        -roles[i], roles[i] == OTHER and i > 0 and spans[i].row is not None))
    return [spans[i] for i in order]


def cited(spans: Sequence[Span]) -> list[Source]:
    """The places to cite, at most `MAX_PLACES`."""
    return [s.source for s in spans][:MAX_PLACES]


def statement_lead(lead: Span, chosen: Figure, prior: Figure | None, ranked: Sequence[Span],
                   evidence: Evidence) -> tuple[Span, list[Source]]:
    """The row to lead with and the places to cite for a row's figure: a primary statement's
    (or a note's) row of the same value (and of the year before's, where it states that year
    too) leads in place of a summary's; the citation names the statement's page first, then a
    note's, then the others (the summary kept)."""
    figures = figures_of(lead, chosen, prior)
    if not figures:
        return lead, [lead.source]
    own_year = max((y for s in row_stated(lead) for y in s.years), default=None)
    others = [s for s in places_stating(lead, figures[:1], ranked, evidence, own_year=own_year)
              if s.row is None or len(figures) == 1 or not _has_year(s, figures[1])
              or _states(s, figures, own_year)]
    order = by_authority(lead, others, evidence)
    first = order[0]
    if first.row is None or (_states_change(lead) and not _states_change(first)):
        first = lead  # the statement's row leads only where it says all the lead says
    own = own_filing_place(lead, figures[0], ranked, evidence)
    if own is not None:  # the filing of the year asked states it as its own: it leads
        return (own if own.row is not None else first), cited([own, *order])
    return first, cited(order)


def own_filing_place(lead: Span, figure: Stated, ranked: Sequence[Span],
                     evidence: Evidence) -> Span | None:
    """Where the lead is a later filing's comparative column: the best span of the filing whose
    own period is the figure's year (`compose.filings`) that states the same figure for that
    year (a row in that year's column, a sentence of that year or of none) for the lead's
    item (a word of its label in the row's label or the sentence)."""
    if len(figure.years) != 1 or lead.row is None:
        return None
    year = next(iter(figure.years))
    own = own_filings(evidence, {year})
    if not own or lead.source.document_id in own:
        return None
    label = stems_of(lead.row.label)
    for span in ranked:
        if span.source.document_id not in own:
            continue
        words = stems_of(span.row.label) if span.row is not None else stems_of(span.text)
        if label & words and any(
                not (figure.currency and s.currency and figure.currency != s.currency) and
                same_as_written(figure.value, figure.written, s.value, s.written,
                                least=OWN_DIGITS) and _of_year(s, year, year)
                for s in _stated(span)):
            return span
    return None


def _states_change(span: Span) -> bool:
    """A row with a change column stated ("% change: 12%")."""
    change = vocabulary().cues("change_column")
    return any(change.found(f.column) and not f.none for f in span.figures())


def sentence_sources(lead: Span, years: set[int], ranked: Sequence[Span],
                     evidence: Evidence) -> list[Source]:
    """The places to cite for a quoted sentence's figure (its first amount of a year asked, or
    its first amount when it names no year and one year is asked): a statement's or a note's
    row stating it first, then the sentence's own page."""
    stated = sentence_stated(lead.text)
    figure = next((s for s in stated if s.years & years), None)
    if figure is None and len(years) == 1:
        figure = next((s for s in stated if not s.years), None)
        figure = Stated(figure.value, figure.written, frozenset(years), figure.currency) \
            if figure is not None else None
    if figure is not None:
        figure = Stated(figure.value, figure.written, figure.years & years or figure.years,
                        figure.currency)
    if figure is None or len(figure.years) != 1:
        return [lead.source]
    others = [s for s in places_stating(lead, [figure], ranked, evidence) if s.row is not None]
    return cited(by_authority(lead, others, evidence))


def _has_year(span: Span, figure: Stated) -> bool:
    """The row has a column of the figure's year (so it must state it too to agree)."""
    return any(figure.years & s.years for s in row_stated(span))


def finding_places(reading: Reading, evidence: Evidence) -> list[Finding]:
    """A read figure's statements in its own document, to cite: the other pages that state the
    same value for the same period (a statement's or a note's page before the one read, the
    sentences that say it in words before other tables that repeat it), at most `MAX_PLACES`."""
    primary = reading.primary
    if primary.value is None or primary.period is None or primary.location.page is None:
        return [primary]

    def stated(f: Finding) -> Stated:
        return Stated(f.value or 0.0, f.value_text or "", frozenset(), f.unit)

    pages: dict[int, Finding] = {}
    for f in findings_for(evidence, reading.subject, entity=primary.entity):
        page = f.location.page
        if f.document_id != primary.document_id or f.period != primary.period or \
                f.value is None or f.nature is not primary.nature or page is None or \
                page == primary.location.page or page in pages:
            continue
        if same_value(stated(primary), stated(f)):
            pages[page] = f
    found = [primary, *pages.values()]
    roles = [page_role(evidence, f.document_id, f.location.page) for f in found]
    order = sorted(range(len(found)), key=lambda i: (
        -roles[i], roles[i] == OTHER and i > 0 and "row" in found[i].attributes))
    return [found[i] for i in order][:MAX_PLACES]


_AS_WRITTEN = StatementScale("", 1.0, None, False, None)


def of_another_period(finding: Finding, period: str | None, evidence: Evidence) -> bool:
    """A figure a sentence states beside a table row of its page that names the same thing
    ("Included in restructuring charges is $2.0 million of severance", a footnote to
    "Restructuring charges | 2021: — | 2020: 3.5"): a footnote's figure is of the period its
    row states a figure for, so where the row states none for `period` (and some for
    another) and no row of the page states one for it, the sentence's figure is not of
    `period`, whatever its document's year."""
    year = year_of(period) if period else None
    if year is None or "row" in finding.attributes or finding.location.page is None:
        return False
    said, elsewhere = stems_of(finding.excerpt), False
    for other in evidence.usable_findings():
        label = other.attributes.get("row", "")
        if not label or other.document_id != finding.document_id or \
                other.location.page != finding.location.page or not stems_of(label) <= said:
            continue
        figures = [f for header, cell in _row_cells(other.excerpt)
                   if (f := read_figure(cell, header, label, _AS_WRITTEN)) is not None]
        asked = [f for f in figures if _fiscal_year(f.column) == year]
        if any(not f.none for f in asked):
            return False  # a row of its page states the period asked: the sentence may be of it
        elsewhere = elsewhere or (bool(asked) and any(not f.none for f in figures))
    return elsewhere


def _row_cells(excerpt: str) -> list[tuple[str, str]]:
    """A row finding's cells as ingestion writes them: "Label | 2021: — | 2020: 3.5"."""
    cells = []
    for part in excerpt.split(" | ")[1:]:
        header, colon, cell = part.partition(": ")
        if colon:
            cells.append((header.strip(), cell.strip()))
    return cells


def row_sources(span: Span, chosen: Sequence[Figure | None], rows: Sequence[Span],
                evidence: Evidence, *, limit: int = MAX_PLACES) -> list[Source]:
    """The places to cite for a row's chosen figures (a ranking's first item, a computed
    answer's input): the row's own and the other rows of its document that state each of
    them for its year, a statement's or a note's page first, at most `limit`."""
    figures = figures_of(span, *chosen)
    years = [y for s in figures for y in s.years]
    others = [s for s in places_stating(span, figures, rows, evidence,
                                        own_year=max(years, default=None))
              if s.row is not None]
    return cited(by_authority(span, others, evidence))[:limit]
