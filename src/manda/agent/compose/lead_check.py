"""The lead's last check: a figure stated as the answer is the one asked, or it does not lead.

Every composer that leads with a passage's figure (the best span quoted or read as a row, a
finding read from a statement) asks here whether that figure answers the question's frame:

- its line item: a row whose label and heading name nothing of the metric asked
  ("Currency translation adjustment" for the income taxes paid) is another line item;
- a part or a whole: a figure read from a row that names less than the best span does
  ("Consolidated" net sales where the AWS row answers) is the whole, not the part asked;
- its period: a passage that names only years other than the one asked states another
  period's figure (a prior year, another filing's);
- its measure: a row or sentence that names the line item by a sibling of the qualifier the
  question puts on it ("Net lease cost" where the operating lease cost is asked) states another
  measure of it;
- its owner: a sentence whose amounts are each another noun's ("letters of credit … of $749
  million" in a sentence that names the credit facility asked) states no figure of it;
- its flow or its award: where a balance at a date is asked, a sentence whose figure is an
  event's amount ("the recognition of $2.5 billion in goodwill"); where one kind of equity award
  is asked, a sentence that names only another ("stock options and SARs" for the RSUs), or a
  figure of another measure of it (the stock's fair value for the options' exercise price);
- its kind: a passage with no amount at all (a table's heading, a standard's number, a page's
  or a footnote's number), or a share where an amount is asked, states no figure of it;
- its measure: where the question asks a figure of a measure (an area: "retail square feet"),
  a passage that names none of it, or states money only, or counts things in a band of it
  ("50,000 to 169,999 sq. ft. 1,576" stores), states another measure's figure;
- its part: a place or a segment the question names ("in Texas", "the International
  segment") that the passage does not name states another part's figure, or the whole's.

Where one misses, the answer says so in a line without figures, and the passages follow as
bullets with their places: a wrong figure is never stated as the answer.
"""

from __future__ import annotations

from manda.agent.awards import another_kind
from manda.agent.compose.common import Ask
from manda.agent.facets import unasked_facet, unmet_facet
from manda.agent.measures import measure_of, names_measure
from manda.agent.relevance import NOT_FOUND_BELOW, PERIOD_FORMS, says_change, stems_of, term_in
from manda.agent.spans import Span
from manda.agent.spans.ranking import sibling_said
from manda.agent.spans.sentences import figures_of_others, owners_line_items, table_run
from manda.finance.amounts import Amount, find_amounts
from manda.finance.fiscal import fiscal_year_named
from manda.finance.periods import (
    find_dates,
    period_end,
    period_kind,
    quarters_in,
    year_of,
)
from manda.finance.vocabulary import item_spec, metric_spec
from manda.models import Finding
from manda.text import YEAR, letter_words, said_in
from manda.vocabulary import vocabulary

__all__ = [
    "asked_years", "asks_figure", "guarded", "lead_miss", "names_less", "naming_terms",
    "other_facet", "preferred_years", "sibling_named", "states_figure",
]


def asked_years(ask: Ask) -> set[int]:
    """The fiscal years the question asks for (its frame's periods and its inherited one). A
    balance asked at a date is of its calendar year and of the fiscal year that date names:
    "as of January 31, 2026" is the column of a retail calendar's fiscal 2025."""
    asked: set[int] = set()
    for period in (*ask.frame.periods, *([ask.period] if ask.period else [])):
        if (y := year_of(period)) is not None:
            asked.add(y)
        if period_kind(period) == "as" and (day := period_end(period)) is not None:
            asked.add(fiscal_year_named(day))
    return asked


def preferred_years(ask: Ask) -> list[int]:
    """The years asked, the one to read first first: the fiscal year a balance's day names
    ("as of February 1, 2025" is a retail calendar's fiscal 2024 column, not its 2025 one,
    which ends in January 2026), then the latest."""
    named = {fiscal_year_named(day) for period in (*ask.frame.periods,
                                                   *([ask.period] if ask.period else []))
             if period_kind(period) == "as" and (day := period_end(period)) is not None}
    return sorted(asked_years(ask), key=lambda y: (y not in named, -y))


def asks_figure(ask: Ask) -> bool:
    """The question asks for a figure: an amount or a rate, by its form or by its words ("what
    is the deal value of …"); not a count ("how many"), which says so in its own words."""
    if ask.frame.measure:
        return True  # "how many square feet": a figure of an area, not a count of things
    if ask.frame.counted:
        return False
    return ask.frame.answer_kind in ("figure", "rate") or (
        ask.frame.answer_kind is None and ask.frame.ranking.wants_amount)


def states_figure(text: str) -> bool:
    """The text states an amount: money, a share, a multiple or a number written with its
    thousands grouped; not a day of a date, a standard's or a section's number ("ASU
    2023-09", "Topic 740"), nor a footnote's or a page's. A share in words ("roughly forty
    percent") is one."""
    return any(_a_figure(a) for a in find_amounts(text)) or _SHARE_STATED.found(text)


_SHARE_STATED = vocabulary().cues("share_stated")


def _a_figure(amount: Amount) -> bool:
    """An amount that is a figure: with its currency or unit, or four digits or grouped ones."""
    if amount.currency or amount.unit:
        return True
    digits = amount.text.strip()
    return len(digits) >= _GROUPED_FROM or any(sep in digits for sep in ".,")


_GROUPED_FROM = 4  # "1091", "1,091", "1.7": a figure; "09", "740", "1": a number of another thing
# a row that names nothing of the line item asked is another one where it covers less than this
# of the question's words; a part's row ("Germany" of net sales) names what the question asks
_NAMES_LITTLE = 0.6


def lead_miss(span: Span, ask: Ask) -> str | None:
    """Why the span's figure would not answer the figure asked, as the answer's key that says
    so ("figure_not_stated", "lead_other_item", "figure_other_years"); None where it may."""
    if not asks_figure(ask):
        # a count asked ("how many shares … in the quarter ended …") is of a period as a figure
        # is: a sentence of another year's, or of the whole year's, is no count of it
        if not ask.frame.counted or span.is_row:
            return None
        if _table_run_of_another(span, ask):
            return "figure_table_run"
        return "figure_other_years" if _other_years(span, ask) else (
            "figure_whole_year" if _whole_year(span, ask) else None)
    if sibling_named(span, ask):
        return "lead_other_item"  # "Total income taxes paid" where the federal ones are asked
    if other_facet(span, ask):
        return "lead_other_item"  # the allowance's balance where its additions are asked
    if _other_measure(span, ask) or _part_unnamed(span, ask):
        return "figure_not_stated"
    if span.is_row:
        if span.words < _NAMES_LITTLE and not _names_line_item(span, ask):
            return "lead_other_item"
        if span.words < NOT_FOUND_BELOW and ask.frame.share_of:
            return "figure_not_stated"  # a row that covers too little of a part asked
        return None
    if not (states_figure(span.text) or _read_at_scale(span)) or _other_kind(span, ask):
        return "figure_not_stated"
    if _table_run_of_another(span, ask):
        return "figure_table_run"
    if ask.frame.answer_kind == "figure" and not ask.frame.counted and figures_of_others(
            span.text, naming_terms(ask, span, change_words=False)):
        return "lead_other_item"  # its amounts are another noun's ("letters of credit of …")
    if not ask.frame.counted and _of_other_items(span, ask):
        return "lead_other_item"  # "gross margin percentage decreased 1 point" for revenue
    if _other_years(span, ask):
        return "figure_other_years"
    if _whole_year(span, ask):
        return "figure_whole_year"
    if _unit_asked(ask) == "currency" and not (ask.frame.change or ask.frame.growth
                                               or ask.frame.effect) and not any(
            a.currency or (a.unit != "%" and _a_figure(a)) for a in find_amounts(span.text)) \
            and not _read_at_scale(span):
        # an amount asked, the passage states shares only (not a table's line read at its
        # money's scale: "Prepaid forward contracts … Level 1 18 23" under "(millions)")
        return "figure_not_stated"
    return None


def _read_at_scale(span: Span) -> bool:
    """A table's line read as a sentence under its money's unit line ("Prepaid forward
    contracts … Level 1 18 23" under "(millions)"): its bare figures are amounts."""
    return span.row is None and span.scale is not None and bool(span.currency)


def _table_run_of_another(span: Span, ask: Ask) -> bool:
    """A "sentence" that is a table's rows run together (`table_run`: column heads, row labels
    and figures side by side) whose figures open under a row that names less than half of what
    the question names ("Money market funds $2,386 $— …" where a Level 3 equity balance is
    asked), or under no label at all (a row's tail, "175 Total … 281 …"): the wall of figures is
    no statement of the one asked. A run whose first row names it ("Operating lease
    commitments $317.8 $67.6 …") states it first, and may lead."""
    if span.row is not None or (label := table_run(span.text)) is None:
        return False
    naming = [t for t in naming_terms(ask, span) if not term_in(t, _BALANCE_WORDS)]
    own = stems_of(label)
    return not naming or sum(term_in(t, own) for t in naming) * 2 < len(naming)


def _of_other_items(span: Span, ask: Ask) -> bool:
    """A sentence whose every figure is said of a line item, none of them the one asked
    ("gross margin percentage decreased 1 point driven by declines in Intelligent Cloud",
    where the segment's revenue is asked): it states another line item's figure. A figure
    said of no known line item, or of the one asked among others, may be the one asked."""
    asked = {s for s in ask.frame.subjects if item_spec(s) is not None or metric_spec(s)}
    figures = [a for a in find_amounts(span.text) if _a_figure(a)]
    if span.row is not None or not asked or not figures or span.text.endswith(_CUT):
        return False  # a sentence quoted cut short may state the one asked after the cut
    for amount in figures:
        items = owners_line_items(span.text, amount)
        if not items or items & asked or any(_kin(item, a) for item in items for a in asked):
            return False
    return True


_CUT = "…"  # how a sentence quoted cut short ends (`manda.agent.unusual.trim`)


def _kin(item: str, asked: str) -> bool:
    """One line item is the other's measure ("revenue growth" of "revenue", "gross margin
    percentage" of "gross margin"): the figure may answer it."""
    return said_in(item, asked) or said_in(asked, item)


def _other_kind(span: Span, ask: Ask) -> bool:
    """The sentence's figure is of another kind than the one asked: an event's amount where a
    balance at a date is asked ("the recognition of $2.5 billion in goodwill" for the goodwill
    balance as of a year end), another kind of award ("stock options and SARs" for the RSUs),
    or another measure of the award asked (the fair value of the stock for the options'
    exercise price)."""
    return another_kind(span.text, ask.frame.award, ask.frame.periods, span.source.excerpt)


def _other_measure(span: Span, ask: Ask) -> bool:
    """A figure of a measure asked ("square feet"), and the span states another: it names no
    word of the measure (the row's heading, its label or the sentence), or only in a label that
    writes a band of it ("50,000 to 169,999 sq. ft.": a count of the stores in the band), or its
    amounts are money only."""
    kind = ask.frame.measure
    if not kind:
        # none asked: a sentence whose every figure is of a measure ("stores larger than
        # 170,000 square feet", where a number of stores is asked) states another's
        figures = [a for a in find_amounts(span.text) if _a_figure(a)]
        return span.row is None and bool(figures) and all(
            measure_of(span.text, a.end) for a in figures)
    label = span.row.label if span.row is not None else ""
    if names_measure(kind, label) and find_amounts(label):
        return True  # "50,000 to 169,999 sq. ft. 1,576": the stores in a band of the measure
    # a row's measure is said over it, or by its columns ("Retail Square Feet (in thousands)")
    over = f"{span.group} {span.segment} {' '.join(span.row.cells)}" if span.row is not None \
        else f"{span.group} {span.segment} {span.text}"
    if not names_measure(kind, over) and not names_measure(kind, label):
        return True
    stated = [a for a in find_amounts(span.text) if _a_figure(a) or span.row is not None]
    return not any(not a.currency and a.unit != "%" for a in stated)


def _part_unnamed(span: Span, ask: Ask) -> bool:
    """The question names a part of the company (a segment, "International"; a place, "in
    Texas") and the span names no word of it: the whole's figure, or another part's."""
    part = ask.frame.segment_named or ask.frame.place
    if not part:
        return False
    own = stems_of(f"{span.group} {span.segment} {span.row.label if span.row else ''} "
                   f"{span.text}")
    return not any(term_in(t, own) for t in stems_of(part))


def sibling_named(span: Span, ask: Ask) -> bool:
    """The span names the line item asked by a sibling of the qualifier the question puts on it
    ("The total vesting-date fair value of RSUs was …" where the grant-date fair value is
    asked), or names neither that qualifier nor what it qualifies: another measure of it, or
    another thing."""
    if not ask.frame.qualified:
        return False
    where = f"{span.group} {span.row.label}" if span.row is not None else span.text
    stems = stems_of(f"{span.group} {span.segment} {span.text}")
    if sibling_said(ask.frame.qualified, span, where, stems):
        return True
    # nor a span close to the question only, that says neither the measure asked nor what it
    # measures ("a new share repurchase program of up to $100 billion" where the grant-date
    # fair value is asked)
    return span.words < _NAMES_LITTLE and any(
        not any(term_in(t, stems) for t in (*stems_of(q.word), *q.heads))
        for q in ask.frame.qualified)


def other_facet(span: Span, ask: Ask) -> bool:
    """The span states another figure of the line item than the movement or status the
    question asks (`manda.agent.facets`): it names none of the movement asked (a balance, or a
    charge, where the cash payments are asked), or its row's label names a movement the
    question does not ("RSUs granted" where those outstanding are asked), or its sentence a
    status ("proposed")."""
    facets = ask.frame.facets
    if span.row is None:
        return unmet_facet(facets, span.text) is not None or unasked_facet(
            facets, span.text, row=False) is not None
    # a schedule names a movement by its column ("Additions") or its block's heading
    where = f"{span.group} {span.segment} {span.row.label} {' '.join(span.row.cells)}"
    return unmet_facet(facets, where) is not None or unasked_facet(
        facets, span.row.label, row=True) is not None


def guarded(lines: list[str], span: Span, ask: Ask) -> list[str]:
    """The lead's lines, with a line that says its figure is not the one asked first where it
    is not, and the lines as bullets after it."""
    miss = lead_miss(span, ask)
    if miss is None:
        return lines
    whole = miss == "figure_whole_year"
    if miss == "lead_other_item" and span.row is None:
        miss = "lead_other_item_said"  # a sentence: no row's name to give, cut mid-word
    said = vocabulary().answer(
        miss, ask.language, item=span.name() or span.text[:_ITEM_CHARS],
        listed=", ".join(str(y) for y in (sorted(_written_years(span), reverse=True) if whole
                                          else _other_years(span, ask))),
        period=", ".join(ask.frame.parts_of_year) if whole
        else ", ".join(str(y) for y in sorted(asked_years(ask))))
    return [said, *(line if line.startswith("- ") else f"- {line}" for line in lines)]


_ITEM_CHARS = 60


def _names_line_item(span: Span, ask: Ask) -> bool:
    """The row names the line item asked: by one of its wordings, or by a word of it, in its
    label or its heading, or by half the words the question names it by ("Regulatory credits"
    of "revenue from regulatory credits"). A question that names no known line item is not
    checked here."""
    specs = [(s, spec) for s in ask.frame.subjects if (spec := item_spec(s)) is not None]
    if not specs:
        return True
    about = f"{span.group} {span.segment} {span.row.label if span.row else ''}"
    if span.by_period and span.row is not None:
        # a row headed by its period names its line item by its column ("Three Months Ending
        # December 31, 2023" of "The expected future recognition of unearned revenue")
        about = f"{about} {' '.join(span.row.cells)}"
    said = " ".join(about.lower().split())
    if any(said_in(wording, said) for _, spec in specs for wording in spec.synonyms):
        return True
    own = stems_of(about)
    if any(term_in(term, own) for s, spec in specs
           for term in stems_of(" ".join([s, spec.label])) if len(term) > _SHORT):
        return True
    # a balance's words ("balance", "ending") are said of any line item's: "Ending balance" of
    # a valuation allowance names no goodwill of "goodwill balance"
    naming = [t for t in naming_terms(ask, span) if not term_in(t, _BALANCE_WORDS)]
    return bool(naming) and sum(term_in(t, own) for t in naming) * 2 >= len(naming)


_BALANCE_WORDS = stems_of(" ".join(vocabulary().words("balance_words")))


def naming_terms(ask: Ask, span: Span, *, change_words: bool = True) -> list[str]:
    """The question's terms that name what it asks of: not its period, a number ("(#112)"), nor
    the filer's name ("Apple's", read in the span's document name, "Apple_10-K_FY2025.pdf");
    nor its words of change ("increase") where `change_words` is False."""
    company = stems_of(" ".join(letter_words(span.source.document)))
    return [t for t in ask.frame.ranking.terms
            if t not in ask.frame.ranking.when and t not in PERIOD_FORMS
            and (change_words or not says_change(t))
            and not t.isdigit() and not term_in(t, company)]


_SHORT = 2


def _other_years(span: Span, ask: Ask) -> list[int]:
    """The years the passage names (or the sentence before it does), latest first, where none
    of them is a year asked: another period's figure ("granted in 2024 and 2023" for fiscal
    2025); [] where it names a year asked, or none. A date names its calendar year and the
    fiscal year it ends ("January 31, 2026" ends a retailer's fiscal 2025)."""
    asked = asked_years(ask)
    if not asked:
        return []
    named = {int(y) for y in YEAR.findall(span.text)} or set(span.dated_by)
    for day, _, _ in find_dates(span.text):
        named |= {day.year, fiscal_year_named(day)}
    return [] if named & asked else sorted(named, reverse=True)


def _written_years(span: Span) -> set[int]:
    """The years the sentence itself writes."""
    return {int(y) for y in YEAR.findall(span.text)}


def _whole_year(span: Span, ask: Ask) -> bool:
    """A quarter or half asked ("Q3 2025", "the quarter ended September 27, 2025"), and the
    sentence states a year's figure: it names a year and no part of one ("During 2025, the
    Company repurchased 402 million shares")."""
    if not ask.frame.parts_of_year:
        return False
    # the years the sentence itself writes: one that names none ("Of this total, $1.1 billion
    # related to …") goes on from a sentence before it, which may name the quarter
    named = _written_years(span)
    return bool(named) and not quarters_in(span.text, named)


def _unit_asked(ask: Ask) -> str | None:
    """The unit of the figure asked ("currency", "percent"): a ratio's it derives ("R&D as a
    percentage of sales"), a rate's, else the line item's, where the question names one."""
    if ask.frame.derived is not None:
        return ask.frame.derived.unit
    if ask.frame.answer_kind == "rate" or ask.frame.share_of:
        return "percent"
    if ask.frame.spending:
        return "currency"  # "how much did it spend to buy Transplace?": an amount of money
    specs = [spec for s in ask.frame.subjects if (spec := item_spec(s)) is not None]
    return specs[0].unit_kind if specs else None


def names_less(finding: Finding, top: Span, ask: Ask, naming: list[str]) -> bool:
    """A figure read from a row of a table ("Consolidated" of a segments table) whose own words
    name less of the question than the best span's row does ("AWS" of it): the whole, not the
    part asked. `naming`: the question's terms that name what it asks of."""
    row = str(finding.attributes.get("row", ""))
    if not row or top.row is None:
        return False
    spec = metric_spec(finding.subject)
    own = stems_of(" ".join(filter(None, [row, finding.label, finding.subject,
                                          *(spec.synonyms if spec is not None else ())])))
    best = stems_of(f"{top.group} {top.segment} {top.row.label}")
    return any(term_in(t, best) and not term_in(t, own) for t in naming)
