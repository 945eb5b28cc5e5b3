"""How the best span leads an answer: a row's figure stated for the period asked, a sentence quoted.

A table row leads with its line item, the figure of the period asked (else the latest) at its
statement's scale, the period in the company's own fiscal terms ("fiscal 2025, the year ended
31 January 2026"), and the year before beside it; the row follows as the statement writes it.
A sentence is quoted as it stands. Runners-up follow, each with its place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from manda.agent.compose.common import Ask, Draft, named_in, with_assumption
from manda.agent.compose.filings import earlier_filing_span
from manda.agent.compose.first_line import asks_overview, opens_with_heading
from manda.agent.compose.lead_check import asked_years, lead_miss, preferred_years
from manda.agent.compose.stated import sentence_sources, statement_lead
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.relevance import CLOSE_BELOW, NOT_FOUND_BELOW, stems_of, term_in
from manda.agent.spans import (
    Span,
    best_spans,
    fits_kind,
    label_periods,
    names_a_table,
    rank_spans,
    statement_row,
)
from manda.answers import Intent
from manda.finance.figures import Figure, column_date, column_year
from manda.finance.fiscal import fiscal_year_named
from manda.finance.periods import (
    find_dates,
    is_part_of_year,
    parse_period,
    period_end,
)
from manda.finance.signs import names_a_cost, names_a_loss
from manda.finance.vocabulary import metric_spec
from manda.vocabulary import vocabulary
from manda.vocabulary.numbers import number_words, scale_phrases


def lead_lines(spans: Sequence[Span], ask: Ask, evidence: Evidence,
               ranked: Sequence[Span] = ()) -> list[str]:
    """The lead span's line(s) and one line per runner-up. `ranked`: every span of the
    evidence, where the lead's figure is looked for on other pages (`compose.stated`), so it
    is cited at its primary statement first."""
    if not spans:
        return []
    first, words = spans[0], vocabulary()
    lines = row_lead(first, ask, evidence, ranked) if first.is_row else None
    if lines is None:
        sources = sentence_sources(first, asked_years(ask), ranked, evidence) if ranked \
            else [first.source]
        text = first.whole if ask.frame.answer_kind == "list" and first.whole else \
            as_read(first)
        lines = [words.answer("span_states", ask.language, document=first.source.document,
                              text=text, cite=at_scale(first, cite(sources)))]
    # no year asked of a company with filings of several periods: the latest leads, and what
    # the earlier filing stated for the same item follows it ("currently" asks the latest only)
    earlier = earlier_filing_span(first, ranked or spans, evidence) if not asked_years(ask) \
        and not ask.frame.now and ask.frame.answer_kind in ("figure", "rate") else None
    if earlier is not None:
        lines[0] += " " + words.answer("earlier_filing_states", ask.language,
                                       document=earlier.source.document, text=earlier.text,
                                       cite=cite([earlier.source]))
    parts: list[str] = []  # another part the question names, said as the lead is
    for s in spans[1:]:
        if s is earlier:
            continue
        said = row_lead(s, ask, evidence) if first.parts and s.parts and not (
            s.parts & first.parts) else None
        if said is not None:
            parts.append(said[0])
        else:
            lines.append(words.answer("span_runner_up", ask.language, document=s.source.document,
                                      text=as_read(s), cite=at_scale(s, cite([s.source]))))
    return [*lines[:1], *parts, *lines[1:]]


def as_read(span: Span) -> str:
    """The span's text as quoted: a row of tagged data ("Restricted stock units — 2023-09-30:
    5600000000.0") with each value in units written as a reader writes it ("$5.6 billion");
    any other text as stated."""
    if span.row is None:
        return span.text
    text = span.text
    for figure in span.figures():
        if _in_units(figure.written):
            text = text.replace(f": {figure.written}", f": {figure.shown()}", 1)
    return text


def _in_units(cell: str) -> bool:
    """A value printed in units by tagged data: "5600000000.0", "-233000000.0"."""
    digits, dot, tenths = cell.strip().lstrip("-").partition(".")
    return bool(dot) and tenths == "0" and digits.isdigit() and len(digits) >= _UNITS_DIGITS


_UNITS_DIGITS = 5  # the fewest digits of a value in units read so ("12000.0"; not "0.0")


def at_scale(span: Span, cited: str) -> str:
    """The citation of a table's line quoted as a sentence, its scale said before it: "… Level
    1 $4,611 $3,893” (millions) (source: …)", never a figure a thousand times off for a reader."""
    if span.row is not None or span.scale is None:
        return cited
    unit = unit_words(span.scale.line) or _scale_word(span.scale.line, span.scale.factor)
    return f"({unit}) {cited}" if unit else cited


def _scale_word(line: str, factor: float) -> str:
    """The word of a unit line that states its scale bare ("millions" of "(millions)
    Classification …"); "" where none does."""
    said = {w.lower() for lang in number_words() for w in lang.scales.get(int(factor), ())}
    return next((w for w in line.replace("(", " ").replace(")", " ").split()
                 if w.lower() in said), "")


def row_lead(span: Span, ask: Ask, evidence: Evidence,
             ranked: Sequence[Span] = ()) -> list[str] | None:
    """"Net sales — Services was $109.16 billion in fiscal 2025 (the year ended 27 September
    2025), against $96.17 billion in fiscal 2024 (source: …)." and the row as stated. A
    primary statement's row of the same figures among `ranked` leads in a summary row's place,
    and its page is cited first (`compose.stated`)."""
    read = _read_row(span, ask)
    if read is None:
        return None
    chosen, prior = read
    sources = [span.source]
    if ranked:
        lead, sources = statement_lead(span, chosen, prior, ranked, evidence)
        if lead is not span and (again := _read_row(lead, ask)) is not None:
            span, (chosen, prior) = lead, again
    words, language, item = vocabulary(), ask.language, span.name()
    outflow = chosen.value is not None and chosen.value < 0
    spent = ask.frame.spending and outflow
    # a cost asked ("capital expenditures", "dividends paid") is the amount paid, whatever sign
    # its cash-flow row prints it with
    paid = spent or (outflow and _cost_asked(ask))
    text = words.answer("row_spent" if spent else "row_figure", language,
                        item=named_in(item, language),
                        figure=as_named(chosen, item, spent=paid),
                        when=when(span, chosen, evidence, language))
    if prior is not None:
        text += words.answer("row_against", language, figure=as_named(prior, item, spent=paid),
                             when=when(span, prior, evidence, language))
    change = next((f for f in span.figures() if a_change_column(f.column) and not f.none
                   and f.unit == "%"), None)
    if change is not None and prior is not None:
        text += f" ({'+' if change.value and change.value > 0 else ''}{change.shown()})"
    elif prior is not None and ask.frame.intent is Intent.COMPARISON and not paid:
        text += moved(chosen, prior)  # the change asked, worked out from the row's two figures
    text += f" {cite(sources)}."
    if (part := _part_not_stated(span, chosen, ask)) is not None:
        text += " " + words.answer("part_not_stated", language, part=part)
    stated = words.answer("row_as_stated", language, text=as_read(span))
    if span.scale is not None and span.scale.line:
        stated += f" {span.scale.line}"
    return [text, stated]


def moved(new: Figure, old: Figure) -> str:
    """" (+$4.11 billion, +12.0%)": a row's figure against its other column's, by amount and
    by share of the earlier one where that is a positive amount; "" where either is none."""
    if new.value is None or old.value is None or new.unit == "%" or new.unit != old.unit:
        return ""
    delta = new.value - old.value
    amount = replace(new, value=abs(delta), written="").shown()
    said = f"{'+' if delta >= 0 else '-'}{amount}"
    if old.value > 0:
        said += f", {delta / old.value * 100:+.1f}%"
    return f" ({said})"


def _part_not_stated(span: Span, chosen: Figure, ask: Ask) -> str | None:
    """The quarter or half asked ("Q4 2025") where the row's figure is for the whole year: the
    part, to say the documents state the year, not it."""
    parts = ask.frame.parts_of_year
    if not parts or span.row is None or label_periods(span.row):
        return None
    said = parse_period(chosen.column) or ""
    return parts[0] if said.startswith("FY") else None


def _cost_asked(ask: Ask) -> bool:
    """The question asks a cost line item (capex, dividends paid, R&D), said as paid."""
    return any((spec := metric_spec(s)) is not None and spec.cost for s in ask.frame.subjects)


def _read_row(span: Span, ask: Ask) -> tuple[Figure, Figure | None] | None:
    """A statement row's figure of the year asked and the one of the year before."""
    if span.row is None or not statement_row(span.row):
        return None  # a record (a lease, a person) is quoted as it stands
    figures = measured(
        [f for f in span.figures() if not a_change_column(f.column)], ask.frame.ranking.terms)
    chosen = pick_figure(figures, ask, span) if figures else None
    if chosen is None:
        return None
    return chosen, _year_before(figures, chosen, span)


def as_named(figure: Figure, item: str, *, spent: bool = False) -> str:
    """A row's figure in its line's words: a "Net loss" row's (1,009,359) is a net loss of
    $1.01 billion, not a net loss of -$1.01 billion; an outflow asked as spending
    ("Repurchase of stock (408)" for "how much was spent on buybacks?"), or a cost a
    reconciliation deducts ("Stock-based compensation expense (1,168)"), is the amount spent."""
    if figure.value is not None and figure.value < 0 and (
            spent or names_a_loss(item) or names_a_cost(item)):
        return replace(figure, value=-figure.value).shown()
    return figure.shown()


def a_change_column(header: str) -> bool:
    """A column of changes: "change", "% change", "2025/2024", "2025 vs 2024"."""
    return vocabulary().cues("change_column").found(header)


def _measure_words(column: str) -> frozenset[str]:
    """What a column measures, without its period: "Retail Square Feet (a) January 31, 2026":
    retail, square, feet."""
    for _, start, end in reversed(find_dates(column)):
        column = column[:start] + " " + column[end:]
    return frozenset(s for s in stems_of(column) if len(s) > 2 and not s.isdigit())


def measured(figures: Sequence[Figure], terms: Sequence[str]) -> list[Figure]:
    """A row's figures under the measure the question names, where its columns measure several
    things ("Stores | Retail Square Feet", "Leased | Owned", a group's periods under each): the
    columns whose words the question says most, and fewest it does not; every figure where no
    one measure is named."""
    words = {f.column: _measure_words(f.column) for f in figures}
    if len(set(words.values())) < 2:
        return list(figures)

    def key(measure: frozenset[str]) -> tuple[int, int]:
        said = sum(1 for w in measure if any(term_in(t, {w}) or term_in(w, {t}) for t in terms))
        return said, said - len(measure)

    keys = {m: key(m) for m in set(words.values())}
    best = max(keys.values())
    if best[0] == 0 or sum(1 for k in keys.values() if k == best) > 1:
        return list(figures)
    return [f for f in figures if keys[words[f.column]] == best]


def pick_figure(figures: Sequence[Figure], ask: Ask, span: Span) -> Figure | None:
    """The figure of the year asked (the fiscal year a balance's day names, else the latest of
    two asked, whichever column the statement prints first), else of the latest year the row
    states, else the first."""
    asked = asked_years(ask)
    dated = [(fy, f) for f in figures if (fy := fiscal_year(f.column)) is not None]
    if any(part_column(f.column) for _, f in dated):
        return _pick_part(dated, asked, ask.frame.parts_of_year)
    for year in preferred_years(ask):
        if (figure := next((f for fy, f in dated if fy == year), None)) is not None:
            return figure
    if asked and dated:
        return None  # the row states other years only: not the figure asked for
    if dated:
        return max(dated, key=lambda t: t[0])[1]
    return figures[0]


def part_column(header: str) -> str | None:
    """The quarter or half a column names ("Q4 2021" of "Q1 2021 … Q4 2021"), else None: a
    year's column, or a date's."""
    period = parse_period(header)
    return period if period is not None and is_part_of_year(period) else None


def _pick_part(dated: Sequence[tuple[int, Figure]], asked: set[int], parts: Sequence[str]
               ) -> Figure | None:
    """Among columns of quarters or halves, the one asked: the part the question names
    ("Q4 2021" leads the Q4 2021 column, never Q1 2021's, the first of that year); a year asked
    without a part is no quarter's figure (None: the row is quoted, not led by a quarter); none
    asked, the latest part."""
    named = [(part_column(f.column), f) for _, f in dated]
    if parts:
        wanted = {parse_period(p) or p for p in parts}  # "Q4 FY2025" is the column "Q4 2025"
        return next((f for p, f in named if p in wanted), None)
    if asked:
        return None
    ends = [(end, f) for p, f in named if p is not None and (end := period_end(p)) is not None]
    return max(ends, key=lambda t: t[0])[1] if ends else None


def fiscal_year(header: str) -> int | None:
    """The fiscal year a column header names (a date by its company's year naming)."""
    day = column_date(header)
    return fiscal_year_named(day) if day is not None else column_year(header)


def _year_before(figures: Sequence[Figure], chosen: Figure, span: Span) -> Figure | None:
    year = fiscal_year(chosen.column)
    if year is None:
        return None
    # a quarter's column stands beside the same quarter of the year before ("Q4 2020")
    part = _part_name(chosen.column)
    return next((f for f in figures if fiscal_year(f.column) == year - 1
                 and f.column != chosen.column and _part_name(f.column) == part), None)


def _part_name(header: str) -> str | None:
    """A part column's quarter or half without its year ("Q4" of "Q4 2021")."""
    period = part_column(header)
    return period.split()[0] if period is not None else None


def when(span: Span, figure: Figure, evidence: Evidence, language: str = "en") -> str:
    """The figure's period in words: "in fiscal 2025 (the year ended 27 September 2025)",
    "at 31 December 2025", "in 2025"."""
    words = vocabulary()

    def say(key: str, **values: object) -> str:
        return words.answer(key, language, **values)

    part = parse_period(figure.column)
    year = column_year(figure.column)
    if span.row is not None and year is not None and label_periods(span.row):
        # a metric's table by period: "Three Months Ended June 30" in the column "2024"
        part = parse_period(f"{span.row.label}, {year}") or part
    if part is not None and not part.startswith(("FY", "as of")):
        return say("period_in", period=part)  # a quarter, a half, a month: as the column says
    day = column_date(figure.column)
    if day is not None:
        fiscal = fiscal_year_named(day)
        if not span.flow:
            return say("period_at", day=day_said(day, language))
        if day.month == 12 and day.day == 31:
            return say("period_in", period=day.year)
        return say("fiscal_year_ended", year=fiscal, day=day_said(day, language))
    year = column_year(figure.column)
    if year is None:
        return say("period_column", column=figure.column)
    month_day = _fiscal_year_end(span, evidence)
    if not span.flow and month_day is not None and month_day != (2, 29):
        # a balance sheet's column "2025" is its balances at the fiscal year's end
        stated = _stated_year_ends(span, evidence, month_day).get(year)
        retail = fiscal_year_named(date(2001, *month_day)) != 2001
        return say("period_at", day=day_said(stated or date(year + retail, *month_day), language))
    if month_day is None or month_day >= (12, 28):
        return say("period_in", period=year)
    stated = _stated_year_ends(span, evidence, month_day).get(year)
    if stated is not None:
        return say("fiscal_year_ended", year=year, day=day_said(stated, language))
    # a retail year ends early the next year: fiscal 2025 is the year ending January 2026
    ends = year + 1 if fiscal_year_named(date(2001, *month_day)) != 2001 else year
    return say("fiscal_year_ending", year=year, month=_month(month_day[0], language),
               month_lower=_month(month_day[0], language).lower(), end_year=ends)


def _fiscal_year_end(span: Span, evidence: Evidence) -> tuple[int, int] | None:
    """The (month, day) the document's fiscal year ends on, as the room learned it, else as
    its columns date it."""
    doc = evidence.documents.get(span.source.document_id)
    if doc is not None and doc.fiscal_year_end:
        month, day = (int(x) for x in doc.fiscal_year_end.strip("-").split("-"))
        return month, day
    if span.year_end is not None:
        return span.year_end.month, span.year_end.day
    return None


_NEAR_DAYS = 10  # a 52/53-week year ends within a week of its usual day


def _stated_year_ends(span: Span, evidence: Evidence, month_day: tuple[int, int]
                      ) -> dict[int, date]:
    """The year ends the document's passages state, by the fiscal year each ends ("January 31,
    2026" ends Target's fiscal 2025): dates within days of its usual year end only, so a
    filing's signature date or a dividend's payment date is no year end."""
    out: dict[int, tuple[int, date]] = {}
    for hit in evidence.hits:
        if hit.document_id != span.source.document_id:
            continue
        for day, _, _ in find_dates(hit.text.replace(",2", ", 2")):
            usual = date(day.year, *month_day) if month_day != (2, 29) else date(day.year, 3, 1)
            gap = min(abs((day - usual.replace(year=y)).days)
                      for y in (day.year - 1, day.year, day.year + 1))
            if gap <= _NEAR_DAYS:
                fiscal = fiscal_year_named(day)
                if fiscal not in out or gap < out[fiscal][0]:
                    out[fiscal] = (gap, day)
    return {fiscal: day for fiscal, (_, day) in out.items()}


def day_said(day: date, language: str = "en") -> str:
    month = _month(day.month, language)  # French and Spanish write it in lower case
    return vocabulary().answer("day", language, day=day.day, month=month,
                               month_lower=month.lower(), year=day.year)


def _month(number: int, language: str) -> str:
    """A month's name in the answer's language (its language file's first word for it)."""
    languages = vocabulary().languages
    own = languages.get(language)
    names = (own.months.get(number) if own is not None else None) or \
        languages["en"].months[number]
    return names[0].capitalize()


LISTED_KINDS = ("figure", "rate", "date", "person", "reason", "means", "quarter", "method",
                "definition")
_STATED = (*LISTED_KINDS, "place")  # a kind a span must state to lead


def led_by_best_span(draft: Draft, ask: Ask, evidence: Evidence, *,
                     listing: bool = True) -> Draft:
    """A listing (a topic's statements, the deal's key dates, the management team) answering a
    question that asks for one thing (a figure, a rate, a date, a person, a reason): the span
    that best answers it leads, above the listing, when it is confident and of the kind asked
    and the listing's own first line does not already state it. A listing that opens with its
    heading ("Insurance in the documents:", a table's header row) is led so by the best span for
    any question that asks one thing, not the topic's overview; a span of another kind than
    asked does not lead it. `listing=False`: a draft of any shape, led only when its first line
    is a heading."""
    listed = listing and ask.frame.answer_kind in LISTED_KINDS
    # a transaction asked ("what facility did it enter into in October 2025?") is one thing
    # too: a listing of the line item's balances is led by the span that states it
    if not listed and not (opens_with_heading(draft.text) and not asks_overview(ask)) and not (
            listing and ask.frame.transaction):
        return draft
    ranked = [s for s in rank_spans(ask.frame, evidence) if not names_a_table(s)]
    # a heading says nothing, so a span close to the bar (as the closest passage would lead a
    # plain answer) says more than it
    if not ranked or ranked[0].words < (NOT_FOUND_BELOW if listed else CLOSE_BELOW):
        return draft
    top = ranked[0]
    if ask.frame.answer_kind in _STATED and not fits_kind(top, ask.frame):
        return draft
    first = next((line for line in draft.text.splitlines() if line.strip()), "")
    if top.text[:60] in first or (listed and fits_kind(Span(first, top.source), ask.frame)):
        return draft  # its own first line answers already ("£0.5m is drawn on the revolver")
    spans = _each_asked(top, ask, evidence, ranked)
    if lead_miss(spans[0], ask) is not None:
        return draft  # its figure is not the one asked: the listing stands without it
    lead, *others = lead_lines(spans, ask, evidence, ranked)
    lead = "\n".join([with_assumption(ask.assumption, lead), *others])
    return replace(draft, text=f"{lead}\n\n{draft.text}")


def _each_asked(top: Span, ask: Ask, evidence: Evidence, ranked: Sequence[Span]) -> list[Span]:
    """The spans that lead: "When do the notes mature, and what interest do they pay?" is led by
    the best span of what it asks first, where one answers it closely and in the kind it asks,
    and the whole question's best spans follow it; else the whole question's best alone."""
    parts = ask.frame.asked_parts()
    if len(parts) < 2:
        return [top]
    own = [s for s in rank_spans(parts[0], evidence) if not names_a_table(s)]
    first = own[0] if own else None
    if first is None or first.text == top.text or first.words < NOT_FOUND_BELOW or (
            parts[0].answer_kind in _STATED and not fits_kind(first, parts[0])):
        return [top]
    return [first, *(s for s in best_spans(ranked, limit=3) if s.text != first.text)][:3]


_SCALE = scale_phrases()  # "in millions", "en milliers d'euros", "in Tausend"


def unit_words(line: str) -> str:
    """A statement's unit as its unit line words it ("(In millions, except per share amounts)"
    gives "In millions, except per share amounts"); "" when the line states no scale in words."""
    found = _SCALE.search(line)
    if found is None:
        return ""
    start = found.start()
    while start > 0 and (line[start - 1].isalnum() or line[start - 1] in "_$ "):
        start -= 1
    end = line.find(")", found.end())
    return line[start:end if end >= 0 else len(line)].strip("() ")
