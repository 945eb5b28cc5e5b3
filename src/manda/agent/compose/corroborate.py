"""The other pages of a document that state the figure an answer leads with, cited beside it.

A filing states most figures more than once: the discussion (the MD&A's prose and tables), the
statements and their notes, a risk factor that repeats a headcount. An answer cites the place
it read its figure; a banker also checks the page where the discussion states it ("AWS sales
increased 20%"), so the lead line names up to `MORE_PLACES` other pages of the same document
that state the same figure, for the same thing and period: the discussion's page first, then a
note's, then a statement's. They are found among the passages the answer already read (no new
search), each a sentence or a row that states the figure as written to the precision the less
precise of the two writes it, for a year the lead speaks of (or for none), and that covers the
question's words nearly as well as the lead's own place does — a number that merely recurs on
a page about something else is no statement of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from manda.agent.compose.common import Ask, Draft
from manda.agent.compose.filings import NEAR_WORDS
from manda.agent.compose.leads import asked_years, fiscal_year
from manda.agent.compose.stated import NOTE, OTHER, STATEMENT, page_role
from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import cite, find_markers
from manda.agent.relevance import CLOSE_BELOW, content_terms, stems_of, term_in
from manda.agent.spans import Span, every_span, rank_spans
from manda.agent.unusual import body
from manda.finance.amounts import Amount, currency_of_document, find_amounts, same_as_written
from manda.finance.figures import column_year, statement_scale
from manda.finance.fiscal import fiscal_year_named
from manda.text import YEAR
from manda.vocabulary import vocabulary

__all__ = ["MORE_PLACES", "MOST_PAGES", "corroborated", "places_corroborating"]

MORE_PLACES = 2  # other pages named beside the lead's own
MOST_PAGES = 4  # a document's pages the lead line names in all, its own and the others
LEAD_FIGURES = 3  # the lead line's first figures looked for elsewhere
MIN_DIGITS = 2  # "$2 billion" recurs too easily to be the same statement
# a discussion's page is the one a reader of the narrative checks, then a note's, a statement's
_ROLE_ORDER = {OTHER: 0, NOTE: 1, STATEMENT: 2}


@dataclass(frozen=True)
class _Said:
    """One figure a span states, with the years it may be of (empty: it names none)."""

    value: float
    written: str
    currency: str | None
    percent: bool
    years: frozenset[int]
    change: bool = False  # a row's change column: a rate of change, of no one year


def _row_said(span: Span) -> list[_Said]:
    change = vocabulary().cues("change_column")
    out = []
    for figure in span.figures():
        if figure.value is None:
            continue
        years = {y for y in (fiscal_year(figure.column), column_year(figure.column))
                 if y is not None}
        out.append(_Said(figure.value, figure.written,
                         figure.unit if figure.unit not in (None, "shares", "%") else None,
                         figure.unit == "%", frozenset(years),
                         change=bool(change.found(figure.column))))
    return out


def _sentence_said(text: str, own_year: int | None, factor: float = 1.0,
                   currency: str | None = None) -> list[_Said]:
    """A sentence's figures: paired with its years in order where they pair one to one
    ("$52.6 billion and $65.6 billion as of … 2024 and 2025"), else each with all of them and
    its document's own year ("… improving $1.8 billion from 2020 with Mobility Adjusted EBITDA
    profit of $1.6 billion" states the year it reports). A line of a table read as prose
    ("Gross profit … segment $1,141 $288", "Operating income 88,523 83,383 6%") is read also
    at its page's scale, in its document's currency."""
    amounts = [a for a in find_amounts(text) if a.value]
    if factor != 1.0:
        amounts += [a for a, b in zip(find_amounts(text, scale=factor, currency=currency),
                                      find_amounts(text), strict=False)
                    if a.value and a.value != b.value]
    years = list(dict.fromkeys(int(y) for y in YEAR.findall(text)))
    every = frozenset(years) | ({own_year} if years and own_year is not None else set())
    return [_Said(a.value, a.text, a.currency, a.unit == "%",
                  frozenset({years[i]}) if len(years) == len(amounts) else every)
            for i, a in enumerate(amounts)]


def _said(span: Span, factor: float = 1.0, currency: str | None = None) -> list[_Said]:
    if span.row is not None:
        return _row_said(span)
    own = fiscal_year_named(span.year_end) if span.year_end is not None else None
    return _sentence_said(span.text, own, factor, currency)


def _page_scales(spans: Sequence[Span], evidence: Evidence,
                 documents: set[str]) -> dict[tuple[str, int | None], tuple[float, str | None]]:
    """Each page's scale (its tables' rows', else the unit line its passages print: "(In
    millions, except percentages)") and its document's currency."""
    lines: dict[tuple[str, int | None], list[str]] = {}
    for hit in evidence.hits:
        if hit.document_id in documents:
            lines.setdefault((hit.document_id, hit.location.page), []).extend(
                body(hit.text).splitlines())
    currency = {doc: currency_of_document(t for (d, _), page in lines.items() if d == doc
                                          for t in page) for doc in documents}
    scales = {key: statement_scale(page).factor for key, page in lines.items()}
    for span in spans:
        if span.scale is not None and span.scale.factor != 1.0:
            scales[(span.source.document_id, span.source.page)] = span.scale.factor
    return {key: (factor, currency.get(key[0])) for key, factor in scales.items()}


def _states(span: Span, figure: Amount, years: set[int], factor: float = 1.0, *,
            said_by: Sequence[_Said] | None = None) -> bool:
    """`span` states `figure` as written, for one of `years` (or for no year it names);
    `factor`: the scale of its page's tables (`said_by`: its figures, read already)."""
    percent = figure.unit == "%"
    for said in _said(span, factor) if said_by is None else said_by:
        if said.percent != percent or (said.change and not percent):
            continue
        if figure.currency and said.currency and figure.currency != said.currency:
            continue
        if span.row is None and bool(figure.currency) != bool(said.currency):
            continue  # a sentence's bare number is no amount of money, and the reverse
        if said.years and years and not said.years & years:
            continue
        # a rate is stated rounded ("increased 9%" for 9.1%): its thing and year tell it apart
        if same_as_written(figure.value, figure.text, said.value, said.written,
                           least=1 if percent else MIN_DIGITS):
            return True
    return False


def _lead_line(text: str) -> tuple[int, int]:
    """Where the draft's first line with words in it starts and ends."""
    start = 0
    for line in text.splitlines(keepends=True):
        if line.strip():
            return start, start + len(line.rstrip("\n"))
        start += len(line)
    return 0, 0


_CUTS = ("(", ":", ";", ",", "\u201c", '"', "\u2014", "\u00f7", "=")


def _labels(line: str, figures: Sequence[Amount]) -> list[list[str]]:
    """The words naming each figure: the question's kind of terms written just before it,
    back to the previous figure or a clause's break ("AWS operating income $45.6 billion");
    a figure with none before it is of the thing the one before it is ("AWS +19.7% ($128.7
    billion …")."""
    out: list[list[str]] = []
    last = 0
    for figure in figures:
        before = line[last:figure.start]
        cut = max(before.rfind(c) for c in _CUTS)
        terms = content_terms(before[cut + 1:])
        out.append(terms or (out[-1] if out else []))
        last = figure.end
    return out


@dataclass(frozen=True)
class _Lead:
    """The draft's lead line, where it stands, and what it states."""

    start: int
    end: int
    line: str
    figures: list[Amount]
    labels: list[list[str]]
    places: list[Source]
    years: set[int]


def _lead(draft: Draft, evidence: Evidence) -> _Lead | None:
    """The lead line of a draft that states figures and cites their places, else None."""
    start, end = _lead_line(draft.text)
    line = draft.text[start:end]
    if not line:
        return None
    figures, labels, places, years = _figures_and_places(line, evidence)
    if not figures or not places:
        return None
    return _Lead(start, end, line, figures, labels, places, years)


def _figures_and_places(line: str, evidence: Evidence) -> tuple[
        list[Amount], list[list[str]], list[Source], set[int]]:
    """The lead line's figures (outside its citations) with the words naming each, the places
    it cites, and the years it names."""
    markers = find_markers(line, evidence)
    places = [r.source for m in markers for r in m.references if r.source is not None]
    bare, last = "", 0
    for m in markers:
        bare += line[last:m.start] + " " * (m.end - m.start)
        last = m.end
    bare += line[last:]
    figures = [a for a in find_amounts(bare)
               if a.value and len([c for c in a.text if c.isdigit()]) >= MIN_DIGITS]
    years = {int(y) for y in YEAR.findall(bare)}
    figures = figures[:LEAD_FIGURES]
    return figures, _labels(bare, figures), places, years


def _own_place(span: Span, places: Sequence[Source]) -> bool:
    return any(span.source.document_id == p.document_id and span.source.page == p.page
               for p in places)


def _asked(label: Sequence[str], ask_stems: set[str]) -> bool:
    """The words the lead names its figure by are the question's own ("headcount" for "how
    many employees"): a place the question's words name as well may state it; a part the
    lead names beyond them ("Cloud" of "which segment grew fastest") must be said there."""
    return all(term_in(t, ask_stems) for t in label)


def _names(span: Span, label: Sequence[str]) -> bool:
    """`span` names the thing the lead names its figure by: a sentence says every word of it;
    a row's heading and label do, or the row's own label is a part of it ("Delivery" of
    "Delivery revenue")."""
    if not label:
        return False
    if span.row is None:
        stems = stems_of(span.text)
        return all(term_in(t, stems) for t in label)
    named = stems_of(f"{span.segment} {span.group} {span.row.label}")
    if all(term_in(t, named) for t in label):
        return True
    own = stems_of(span.row.label)
    return bool(own) and all(any(term_in(t, {o}) for t in label) for o in own)


def places_corroborating(figures: Sequence[Amount], labels: Sequence[Sequence[str]],
                         places: Sequence[Source], years: set[int], spans: Sequence[Span],
                         ranking: Callable[[], Sequence[Span]], evidence: Evidence, *,
                         cited: Sequence[Source] = (), asked: Sequence[str] = ()
                         ) -> list[Source]:
    """The other pages of the cited documents whose sentences or rows (of `spans`) state the
    lead's figures for the same thing — by the words the lead names it by, or named as well
    by the question's words as where the answer read it (`ranking` scores them, read only
    where a span needs it): at most `MORE_PLACES`, and `MOST_PAGES` with the lead's own, the
    discussion's first; none of `places` or of `cited`. `asked`: the question's words, which
    name the lead's thing where its own words are theirs."""
    ask_stems = set(asked)
    documents = {p.document_id for p in places}
    known = {(p.document_id, p.page) for p in [*places, *cited]}
    scales = _page_scales(spans, evidence, documents)
    # the spans of the cited documents, each with its figures read once
    ours = [s for s in spans if s.source.document_id in documents and s.source.page is not None]
    said = {id(s): _said(s, *scales.get((s.source.document_id, s.source.page), (1.0, None)))
            for s in ours}
    scored: dict[tuple[str, int | None, str], float] = {}

    def words(span: Span) -> float:
        if not scored:
            scored.update({(r.source.document_id, r.source.page, r.text): r.words
                           for r in ranking()} or {("", None, ""): 0.0})
        return scored.get((span.source.document_id, span.source.page, span.text), 0.0)

    found: dict[tuple[str, int], tuple[int, int, int, Source]] = {}
    for rank, (figure, label) in enumerate(zip(figures, labels, strict=True)):
        stating = [s for s in ours if _states(s, figure, years, said_by=said[id(s)])]
        bar: float | None = None
        for span in stating:
            page = span.source.page
            key = (span.source.document_id, page or 0)
            if (span.source.document_id, page) in known:
                continue
            if not _names(span, label):
                if not _asked(label, ask_stems):
                    continue  # a part the question does not name ("Cloud") must be said
                share = words(span)  # the ranking read
                if bar is None:
                    # as well named by the question's words as where the answer read it (or,
                    # where it read a finding, as the best passage the question found)
                    own = [words(s) for s in stating if _own_place(s, places)]
                    top = max(scored.values(), default=1.0)
                    bar = max(CLOSE_BELOW, NEAR_WORDS * max(own, default=top))
                if share < bar:
                    continue
            role = _ROLE_ORDER[page_role(evidence, span.source.document_id, page)]
            order = (role, rank, page or 0, span.source)
            if key not in found or order[:3] < found[key][:3]:
                found[key] = order
    chosen = sorted(found.values(), key=lambda o: o[:3])
    own = len({(p.document_id, p.page) for p in places})
    return [o[3] for o in chosen][:max(0, min(MORE_PLACES, MOST_PAGES - own))]


def corroborated(draft: Draft, ask: Ask, evidence: Evidence) -> Draft:
    """`draft` with its lead line citing the other pages of its document that state the figure
    it leads with ("The same figures are on other pages too (sources: a.pdf p.24, …)")."""
    lead = _lead(draft, evidence)
    if lead is None:
        return draft
    start, end, line = lead.start, lead.end, lead.line
    figures, labels, places, years = lead.figures, lead.labels, lead.places, lead.years
    spans = every_span(evidence)
    if not spans:
        return draft
    # a page the answer cites below (a runner-up quoting it) is cited already
    cited = [r.source for m in find_markers(draft.text, evidence) for r in m.references
             if r.source is not None]
    more = places_corroborating(figures, labels, places, years | asked_years(ask), spans,
                                lambda: rank_spans(ask.frame, evidence), evidence, cited=cited,
                                asked=ask.frame.ranking.terms)
    if not more:
        return draft
    said = vocabulary().answer("also_stated", ask.language)
    lead = line.rstrip()
    stop = "" if lead.endswith((".", "!", "?")) else "."
    added = f"{lead}{stop} {said} {cite(more)}."
    return replace(draft, text=draft.text[:start] + added + draft.text[end:])

