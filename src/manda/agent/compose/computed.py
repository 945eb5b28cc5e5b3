"""Computed answers with their working: free cash flow, EBITDA, margins, working capital, DSO.

Each input is a statement row of the passages retrieved (`manda.finance.derived` names the rows
as filings write them), all from one document and one fiscal year, each figure at its
statement's scale and cited; the answer leads with the result and shows the formula in one line.
A metric the documents state themselves is quoted instead (`evidence_first`), never recomputed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise

from manda.agent.compose.common import Ask, Draft, with_assumption
from manda.agent.compose.lead_check import preferred_years
from manda.agent.compose.leads import a_change_column, asked_years, fiscal_year, unit_words, when
from manda.agent.compose.prose_inputs import stated_inputs
from manda.agent.compose.stated import row_sources
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.relevance import stems_of, term_in
from manda.agent.spans import Span, a_portion, every_span, statement_rows
from manda.finance.amounts import find_amounts
from manda.finance.derived import LINE_ITEMS as ITEM_LABELS
from manda.finance.derived import Derived, alternatives, line_item_of
from manda.finance.figures import Figure
from manda.finance.fiscal import fiscal_year_named
from manda.finance.signs import signed_as_named
from manda.finance.vocabulary import canonical_subject
from manda.text import letter_words
from manda.vocabulary import vocabulary


def answer(ask: Ask, evidence: Evidence) -> Draft | None:
    """The computed metric the question asks for, from one document's rows, or None."""
    if ask.frame.derived is None:
        return None
    rows = statement_rows(evidence)
    return next((draft for metric in alternatives(ask.frame.derived)
                 if (draft := _computed(metric, ask, evidence, rows)) is not None), None)


def _computed(metric: Derived, ask: Ask, evidence: Evidence, rows: list[Span]) -> Draft | None:
    """The metric from one document's rows (or the prose's stated inputs), or None."""
    inputs = list(dict.fromkeys([*metric.plus, *metric.minus, *([metric.over] if metric.over
                                                                  else [])]))
    asked = asked_years(ask)
    choices: list[tuple[tuple[int, str], int, dict[str, tuple[Span, Figure]]]] = []
    for doc_id in dict.fromkeys(s.source.document_id for s in rows):
        # a segment's row ("Operating income" of "Americas") is never the company's figure
        own = [s for s in rows if s.source.document_id == doc_id and not s.segment]
        picked = _inputs(own, inputs)
        if picked is None:
            continue
        years = set.intersection(*(_years(span) for span in picked.values()))
        year = next((y for y in preferred_years(ask) if y in years), None) if asked else \
            max(years, default=None)
        if year is None:
            continue
        figures = {item: (span, fig) for item, span in picked.items()
                   if (fig := _figure(span, year)) is not None}
        if len(figures) == len(inputs):
            doc = evidence.documents.get(doc_id)
            dated = doc.doc_date.isoformat() if doc and doc.doc_date else ""
            # the filing of the year asked is its report; a later one states it as a comparative
            own = bool(asked) and doc is not None and doc.doc_date is not None and \
                fiscal_year_named(doc.doc_date) == year
            choices.append(((year, own, dated), year, figures))
    if choices:
        _, year, figures = max(choices, key=lambda c: c[0])
    elif (stated := stated_inputs(evidence, inputs, asked)) is not None:
        figures = stated  # no statement row reads: the prose states each input
    else:
        return None
    lead_span, lead = figures[metric.plus[0]]
    figures[metric.plus[0]] = (lead_span, replace(lead, value=_base(metric, figures)))
    if not _plausible(metric, figures):
        return None
    stated = _stated_rate(metric, figures, rows, every_span(evidence)) if metric.rate else \
        _stated_ratio(metric, figures, rows)
    note = None if stated is None else vocabulary().answer(
        "computed_note_stated", ask.language, figure=stated[1].shown(),
        cite=cite([stated[0].source]))
    text = _working(metric, figures, evidence, ask.language, rows, note=note)
    if metric.unit == "currency" and not any(s.scale is not None and s.scale.line
                                             for s, _ in figures.values()) and not any(
            abs(f.value or 0.0) >= 1e6 for _, f in figures.values()):
        # no caption read says "in millions": the figures stand as the statement writes them
        text += " " + vocabulary().answer("scale_unread", ask.language)
    return Draft(text=with_assumption(ask.assumption, text))


def _inputs(rows: Sequence[Span], inputs: Sequence[str]) -> dict[str, Span] | None:
    picked: dict[str, Span] = {}
    for item in inputs:
        scored = [(line_item_of(s.row.label if s.row else "", item), i, s)
                  for i, s in enumerate(rows)]
        best = max(((n, -i, s) for n, i, s in scored if n), default=None, key=lambda t: t[:2])
        if best is None:
            return None
        picked[item] = best[2]
    return picked


def _years(span: Span) -> set[int]:
    return {y for f in span.figures() if not f.none and (y := fiscal_year(f.column)) is not None
            and f.unit != "%"}


def _figure(span: Span, year: int) -> Figure | None:
    return next((f for f in span.figures() if f.unit != "%" and not f.none
                 and fiscal_year(f.column) == year), None)


def _stated_ratio(metric: Derived, figures: dict[str, tuple[Span, Figure]],
                  rows: Sequence[Span]) -> tuple[Span, Figure] | None:
    """The ratio a question names in its own words as a table of its document states it: the
    first line's row in percent ("Sales and marketing | 2021: 27 %" of a table of each line as
    a percentage of revenue) for the year computed. None for a metric of `DERIVED`, or where no
    row states it."""
    if metric.asked or metric.over is None or metric.unit != "percent":
        return None
    span, figure = figures[metric.plus[0]]
    year = fiscal_year(figure.column)
    for other in rows:
        if other.row is None or other.source.document_id != span.source.document_id or \
                not line_item_of(other.row.label, metric.plus[0]):
            continue
        stated = next((f for f in other.figures() if f.unit == "%" and not f.none
                       and not a_change_column(f.column) and fiscal_year(f.column) == year), None)
        if stated is not None and year is not None:
            return other, stated
    return _ratio_row_under(span, metric, year, rows)


def _stated_rate(metric: Derived, figures: dict[str, tuple[Span, Figure]],
                 rows: Sequence[Span], spans: Sequence[Span]) -> tuple[Span, Figure] | None:
    """The rate as a table of the document states it for the year computed: a row that states
    the same percentage and either names the rate's first line ("Provision for income taxes |
    (1.1)%") or states that line's amount beside it (a reconciliation's "Total | $19,087 |
    19.6%"), else a line of its text that does so where its table was not read into cells.
    None where nothing stated agrees with the rate computed."""
    span, figure = figures[metric.plus[0]]
    year = fiscal_year(figure.column)
    if year is None or metric.over is None:
        return None
    ratio = (figure.value or 0.0) / _signed_base(metric, figures) * 100
    amount = abs(figure.value or 0.0)
    for other in rows:
        if other.row is None or other.source.document_id != span.source.document_id or \
                other is span:
            continue
        cells = [f for f in other.figures() if not f.none and not a_change_column(f.column)]
        stated = next((f for f in cells if f.unit == "%" and fiscal_year(f.column) == year
                       and abs(abs(f.value or 0.0) - abs(ratio)) < 0.06), None)
        if stated is None or (stated.value or 0.0) * ratio < 0:
            continue
        if line_item_of(other.row.label, metric.plus[0]) or any(
                f.unit != "%" and fiscal_year(f.column) == year
                and abs(abs(f.value or 0.0) - amount) <= 0.0005 * amount for f in cells):
            return other, stated
    return _rate_beside_amount(span, figure, ratio, spans)


def _rate_beside_amount(span: Span, figure: Figure, ratio: float,
                        spans: Sequence[Span]) -> tuple[Span, Figure] | None:
    """A line of the same document whose text states the rate's first line as written
    ("$19,087") with the rate right after it ("19.6%"): that percentage, as a figure."""
    digits = figure.written.strip("()$ ")
    for other in spans:
        if other.row is not None or other.source.document_id != span.source.document_id:
            continue
        found = find_amounts(other.text)
        for amount, after in pairwise(found):
            if amount.unit != "%" and amount.text.strip("()$ ") == digits and \
                    after.unit == "%" and abs(abs(after.value) - abs(ratio)) < 0.06:
                value = -abs(after.value) if ratio < 0 else abs(after.value)
                return other, Figure(after.text, value, "%", figure.column)
    return None


def _ratio_row_under(span: Span, metric: Derived, year: int | None,
                     rows: Sequence[Span]) -> tuple[Span, Figure] | None:
    """A row right under a row of the first line, in one passage of the document read, that
    states the ratio in percent of the line divided by ("Research and development $29,915"
    then "Percentage of total net sales 8%"): its figure for the year computed, or None."""
    if year is None or metric.over is None:
        return None
    for line, under in pairwise(rows):
        if line.row is None or under.row is None or \
                line.source.document_id != span.source.document_id or \
                under.source.chunk_id != line.source.chunk_id or \
                not line_item_of(line.row.label, metric.plus[0]) or not _names_item(
                    under.row.label, metric.over):
            continue
        figures = [f for f in under.figures() if not f.none and not a_change_column(f.column)]
        stated = next((f for f in figures if f.unit == "%" and fiscal_year(f.column) == year),
                      None)
        if stated is not None and all(f.unit == "%" for f in figures):
            return under, stated
    return None


def _names_item(label: str, item: str) -> bool:
    """The row label names the line item by any of its wordings, as whole words ("Percentage
    of total net sales" names revenue)."""
    said = f" {' '.join(letter_words(label.lower()))} "
    return any(f" {' '.join(letter_words(name.lower()))} " in said
               for name in (item, *ITEM_LABELS.get(item, ())))


def _working(metric: Derived, figures: dict[str, tuple[Span, Figure]],
             evidence: Evidence, language: str = "en", rows: Sequence[Span] = (),
             note: str | None = None) -> str:
    words = vocabulary()

    def where(item: str) -> str:
        """An input's citation: its statement's page first where a summary's row was read
        (`compose.stated`), beside the row read."""
        span, figure = figures[item]
        return cite(row_sources(span, (figure,), rows, evidence, limit=2) if rows and
                    span.row is not None else [span.source])

    computed = note or words.answer("computed_note", language)
    name = words.computed_name(metric.name, language)
    value = (figures[metric.plus[0]][1].value or 0.0) + sum(abs(figures[i][1].value or 0.0)
                                         for i in metric.plus[1:])
    value -= sum(abs(figures[i][1].value or 0.0) for i in metric.minus)
    lead_span, lead_fig = figures[metric.plus[0]]
    period = when(lead_span, lead_fig, evidence, language)
    parts = [f"{_input_name(i, figures, language)} "
             f"{lead_fig.shown() if i == metric.plus[0] else _shown(figures[i][1])}"
             f" {where(i)}" for i in [*metric.plus, *metric.minus]]
    signs = " + ".join(parts[:len(metric.plus)])
    if metric.minus:
        signs += " − " + " − ".join(parts[len(metric.plus):])
    if metric.over is None:
        result = Figure("", value, lead_fig.unit or "USD", lead_fig.column).shown()
        return (words.answer("computed_result", language, metric=_capital(name),
                             result=result, period=period, note=computed, working=signs)
                + "\n" + _formula(metric, figures, value, language))
    base = figures[metric.over][1]
    ratio = value / _signed_base(metric, figures) * metric.times
    shown = ratio_shown(metric, ratio, language)
    if metric.unit == "percent" and ratio < 0 and not metric.rate:
        shown += " " + words.answer("margin_of_a_loss", language)  # "-31.5% (a loss)"
    over = f"{_line(metric.over, language)} {_shown(base)} {where(metric.over)}"
    inner = signs if len(parts) > 1 else parts[0]
    days = " × 365" if metric.times == 365 else ""
    return (words.answer("computed_result", language, metric=_capital(name),
                         result=shown, period=period, note=computed,
                         working=f"({inner}) ÷ {over}{days}")
            + "\n" + _formula(metric, figures, value, language))


def ratio_shown(metric: Derived, ratio: float, language: str = "en") -> str:
    """A ratio as its metric states it: a margin in per cent, DSO in days, a multiple (the
    current ratio) in times ("0.94x")."""
    words = vocabulary()
    if metric.unit == "percent":
        return f"{ratio * 100:.1f}%"
    if metric.unit == "times":
        return words.answer("times", language, times=f"{ratio:.2f}")
    return words.answer("days", language, days=f"{ratio:.0f}")


# a margin beyond ±500% is no margin: its inputs were read at different scales ("(3,834)" of a
# table in millions over "17,455" of one whose unit line was not read)
_MARGIN_BOUND = 5.0


def _plausible(metric: Derived, figures: dict[str, tuple[Span, Figure]]) -> bool:
    if metric.over is None or metric.unit != "percent":
        return True
    value = (figures[metric.plus[0]][1].value or 0.0) + sum(
        abs(figures[i][1].value or 0.0) for i in metric.plus[1:]) - sum(
        abs(figures[i][1].value or 0.0) for i in metric.minus)
    base = abs(figures[metric.over][1].value or 0.0)
    return bool(base) and abs(value / base) <= _MARGIN_BOUND


def _base(metric: Derived, figures: dict[str, tuple[Span, Figure]]) -> float:
    """The metric's first input with its sign: an operating cash outflow or an operating loss
    stays negative; what is added to or taken from it counts by its size ("(298)" of capex is
    $298 million spent)."""
    span, figure = figures[metric.plus[0]]
    value = figure.value or 0.0
    if span.row is None:
        return value  # a sentence's figure is signed by its wording already (prose_inputs)
    others = _row_amounts(span)
    if metric.rate and len({v < 0 for v in others if v}) == 1:
        # a tax charge printed "(19,087)" in every year is the statement's way of deducting
        # it; only a row that prints both signs ("(Benefit from) provision") says a benefit
        return abs(value)
    return signed_as_named(value, span.row.label, others)  # "Net loss 1,009" is -1,009


def _signed_base(metric: Derived, figures: dict[str, tuple[Span, Figure]]) -> float:
    """What a ratio is over: its size, but a rate's base keeps its sign (a tax rate on a pre-tax
    loss is negative)."""
    assert metric.over is not None
    span, base = figures[metric.over]
    value = base.value or 1.0
    if not metric.rate:
        return abs(value)
    if span.row is None:
        return value
    return signed_as_named(value, span.row.label, _row_amounts(span))


def _row_amounts(span: Span) -> list[float]:
    """A row's amounts in every column, no percentage."""
    return [f.value for f in span.figures() if f.value is not None and f.unit != "%"]


def _line(key: str, language: str) -> str:
    """A statement line's name in the answer's language ("capital expenditures")."""
    return vocabulary().line_name(key, language)


def _input_name(item: str, figures: dict[str, tuple[Span, Figure]], language: str) -> str:
    """An input's name: its statement line's, or for a line item no statement line lists (the
    first line of a ratio the question names) the row read for it ("Selling, general and
    administrative" for "SG&A")."""
    span = figures[item][0]
    if item not in ITEM_LABELS and span.row is not None:
        return span.row.label.strip().rstrip(":")
    return _line(item, language)


def _capital(name: str) -> str:
    return name[:1].upper() + name[1:]


def _shown(figure: Figure) -> str:
    return Figure(figure.written, abs(figure.value or 0.0), figure.unit, figure.column).shown()


def _formula(metric: Derived, figures: dict[str, tuple[Span, Figure]], value: float,
             language: str = "en") -> str:
    """The formula in one line, in the statement's own figures ("111,482 − 12,715 = 98,767")."""
    def written(item: str) -> str:
        said = figures[item][1].written.replace("$", "").strip("()")
        signed = item == metric.plus[0] or (metric.rate and item == metric.over)
        negative = signed and (figures[item][1].value or 0.0) < 0
        return f"−{said}" if negative else said

    terms = " + ".join(written(i) for i in metric.plus)
    if metric.minus:
        terms += " − " + " − ".join(written(i) for i in metric.minus)
    names = " + ".join(_input_name(i, figures, language) for i in metric.plus)
    if metric.minus:
        names += " − " + " − ".join(_line(i, language) for i in metric.minus)
    if metric.over:
        names = f"({names}) ÷ {_line(metric.over, language)}" + (" × 365" if metric.times == 365
                                                          else "")
        terms = f"({terms}) ÷ {written(metric.over)}" + (" × 365" if metric.times == 365
                                                        else "")
    line = next((s.scale.line for s, _ in figures.values() if s.scale and s.scale.line), "")
    unit = unit_words(line) if metric.unit != "times" else ""  # a multiple has no scale
    result = (f"{value:,.0f}" if metric.over is None
              else f"{value / _signed_base(metric, figures) * metric.times:.3f}")
    if metric.over is None and not any(s.is_row for s, _ in figures.values()):
        result = Figure("", value, next(iter(figures.values()))[1].unit, "").shown()
    elif metric.over is None:
        scale = next((s.scale.factor for s, _ in figures.values() if s.scale), 1.0) or 1.0
        result = f"{value / scale:,.0f}"
    words = vocabulary()
    return words.answer("computed_working", language,
                        metric=words.computed_name(metric.name, language), names=names,
                        terms=terms, result=result, unit=f" ({unit})" if unit else "")


def share_of_total(ask: Ask, evidence: Evidence) -> Draft | None:
    """"What share of net sales came from Services?": the part's row over the line item's total
    row of the same table, for the year asked, each cited and the working in one line; None
    when no table retrieved states both."""
    subject = ask.subject
    if subject is None or subject not in ITEM_LABELS:
        return None
    part_terms = _part_terms(ask, evidence, subject)
    # a part the question names as a line item of its own ("what share of revenue did they
    # spend on research and development"): that line item's row, whatever else its words say
    named = [s for s in ask.frame.subjects if s != subject]
    if not part_terms and not named:
        return None
    rows = [s for s in statement_rows(evidence) if s.row is not None]
    asked = set(ask.frame.period_years)
    best: tuple[tuple[int, int, int, int], Span, Figure, Span, Figure] | None = None
    item = stems_of(" ".join(ITEM_LABELS[subject]))
    for total in rows:
        specific = _total_of(total, subject, rows)
        if not specific:
            continue
        for part in rows:
            if (part.source.document_id, part.source.location) != (
                    total.source.document_id, total.source.location) or part.row is None:
                continue
            label = stems_of(part.row.label)
            if named:
                # the line item named, even where its label begins with the total's word
                # ("Sales and marketing" of a share of sales)
                if canonical_subject(part.row.label) not in named:
                    continue
            elif line_item_of(part.row.label, subject) or not any(
                    term_in(t, label) for t in part_terms) or not _part_of(part, total, rows):
                continue
            years = _years(part) & _years(total)
            year = max(asked & years) if asked & years else (
                None if asked else max(years, default=None))
            if year is None:
                continue
            shown, whole = _figure(part, year), _figure(total, year)
            if shown is None or whole is None or not whole.value or shown.unit != whole.unit:
                continue
            # the row naming more of the part's words, and fewer words the question does not
            # say, is the part asked: "Net service sales", not "Third-party seller services",
            # for "net service sales"
            covered = sum(1 for t in part_terms if term_in(t, label))
            unasked = sum(1 for w in label if not term_in(w, item) and not any(
                term_in(t, {w}) for t in ask.frame.ranking.terms))
            key = (year, covered, -unasked, specific)
            if best is None or key > best[0]:
                best = (key, part, shown, total, whole)
    if best is None:
        return None
    _, part, shown, total, whole = best
    assert part.row is not None and total.row is not None
    words, language = vocabulary(), ask.language
    ratio = abs(shown.value or 0.0) / abs(whole.value or 1.0)
    name, of = part.row.label.strip().rstrip(":"), total.row.label.strip().rstrip(":")
    if not line_item_of(of, subject):  # "Consolidated" is the consolidated revenue
        of = f"{of} {subject}"
    metric = words.answer("share_of_total", language, part=name, total=of.lower())
    working = (f"{name} {_shown(shown)} {cite([part.source])} ÷ {of.lower()} {_shown(whole)} "
               f"{cite([total.source])}")
    line = part.scale.line if part.scale is not None else ""
    unit = unit_words(line)
    formula = words.answer(
        "computed_working", language, metric=metric, names=f"{name} ÷ {of.lower()}",
        terms=f"{shown.written.replace('$', '').strip('()')} ÷ "
              f"{whole.written.replace('$', '').strip('()')}",
        result=f"{ratio:.3f}", unit=f" ({unit})" if unit else "")
    text = words.answer("computed_result", language, metric=metric if metric[1:2].isupper()
                        else _capital(metric),
                        result=f"{ratio * 100:.1f}%", period=when(part, shown, evidence, language),
                        note=words.answer("computed_note", language), working=working)
    return Draft(text=with_assumption(ask.assumption, f"{text}\n{formula}"))


_CONSOLIDATED = vocabulary().cues("consolidated_row")  # "Consolidated", "Konzern", "Groupe"


def _total_of(total: Span, subject: str, rows: Sequence[Span]) -> int:
    """How specifically the row is the line item's total (`line_item_of`): by its label, else
    a "Consolidated" row of a note's breakdown whose figures are the line item's own in the same
    document ("Consolidated $716,924" under the countries, as "Total net sales" states it)."""
    assert total.row is not None
    specific = line_item_of(total.row.label, subject)
    if specific or not _CONSOLIDATED.found(total.row.label):
        return specific
    own = {(fiscal_year(f.column), f.value) for f in total.figures()
           if f.unit != "%" and not f.none}
    return int(any(
        other.row is not None and other.source.document_id == total.source.document_id
        and line_item_of(other.row.label, subject)
        and own & {(fiscal_year(f.column), f.value) for f in other.figures()
                   if f.unit != "%" and not f.none} for other in rows))


def _part_of(part: Span, total: Span, rows: Sequence[Span]) -> bool:
    """The row is a part of the total: it names no line item other than the total's
    ("Merchandising cost of sales" is cost of sales, no part of sales) and stands above the
    total it adds up to, as a category's row stands above "Total net sales" (a cost row below
    "Net sales" is none of it), unless its label says it is a portion ("of which", "davon")."""
    assert part.row is not None and total.row is not None
    own = canonical_subject(part.row.label)
    if own is not None and own != canonical_subject(total.row.label):
        return False  # "Net service sales" is of "Total net sales": revenue's own part
    return rows.index(part) < rows.index(total) or a_portion(part.row.label)


def part_terms(ask: Ask, evidence: Evidence) -> list[str]:
    """The question's words that may name the part whose share of its line item is asked."""
    if ask.subject is None or ask.subject not in ITEM_LABELS:
        return []
    return _part_terms(ask, evidence, ask.subject)


def _part_terms(ask: Ask, evidence: Evidence, subject: str) -> list[str]:
    """The question's words that may name the part ("Services"): not the line item's, not the
    period's, not the company's (a row of another unit, "Percentage of total net sales" or
    "Shares used", is no part of an amount)."""
    asked = ask.frame.ranking
    item = stems_of(" ".join(ITEM_LABELS[subject]))
    return [t for t in asked.terms if t not in asked.when and not term_in(t, item)
            and t.removesuffix("'s").removesuffix("'") not in evidence.scope_words
            and not t.isdigit() and t not in ask.frame.share_words]  # "share" of "what share"
