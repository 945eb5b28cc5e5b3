"""The bar a composed answer must clear against what the passages themselves say best.

A metric answer composed from extracted findings stands when the span that states its figure is
about as good an answer to the question as the best span of the passages (`manda.agent.spans`):
"Revenue was $4.4 billion" from "changes in exchange rates increased net sales by $4.4 billion"
is a change, not the level; "Revenue was $416.2 billion" from "Total net sales" names less than
the row "Services | 2025: 109,158" for "What was services revenue?". Below the bar the best span
leads instead (`evidence_first`). A "not found" never stands while a span answers.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from manda.agent.compose.common import Ask, Draft
from manda.agent.compose.lead_check import names_less, naming_terms
from manda.agent.compose.leads import fiscal_year
from manda.agent.evidence import Evidence
from manda.agent.facets import unasked_facet, unmet_facet
from manda.agent.frame import company_word
from manda.agent.kinds import cause_after, states_means, states_reason
from manda.agent.qualifiers import contradicted
from manda.agent.relevance import (
    CLOSE_BELOW,
    NOT_FOUND_BELOW,
    says_change,
    stems_of,
    term_in,
)
from manda.agent.spans import (
    Span,
    a_movement,
    fits_kind,
    rank_spans,
    states_forecast,
    totals_row,
)
from manda.finance.amounts import find_amounts, same_amount
from manda.finance.equivalents import group_patterns
from manda.finance.fiscal import fiscal_year_named
from manda.finance.label_heads import label_subject
from manda.finance.periods import parse_period, year_of
from manda.finance.vocabulary import metric_spec
from manda.models import Document, Finding, Nature
from manda.passages import sentences_of
from manda.text import letter_words, without_asides
from manda.vocabulary import vocabulary


def stands(draft: Draft, ask: Ask, evidence: Evidence) -> bool:
    """Whether the composed `draft` stands against the best span of the passages: a "not found"
    does not while a span answers; a figure does not when what it was read from names less of
    the question than the best span (a coarser line item: "net sales" for "AWS net sales"), or
    states a change by that amount where the level is asked."""
    ranked = rank_spans(ask.frame, evidence)
    if ranked and draft.rests_on and _sibling_measure(draft.rests_on[0], ask):
        return False  # "Net lease cost" read, where the operating lease cost is asked
    if ranked and draft.rests_on and _other_facet(draft.rests_on[0], ask):
        return False  # the allowance's balance read, where its additions are asked
    if ranked and draft.rests_on and max(s.words for s in ranked) >= CLOSE_BELOW and \
            _forecast_over_actual(draft.rests_on[0], ranked[0], ask, evidence):
        return False  # the passages state the result the forecast was made for
    if not ranked or ranked[0].words < CLOSE_BELOW:
        return True  # no span answers better: the composed answer (or its "not found") stands
    if ask.frame.excluded and draft.rests_on and ranked[0].placed:
        return False  # what the metric leaves out is asked: its reconciling row, not its total
    if ask.frame.answer_kind in ("reason", "means") and fits_kind(ranked[0], ask.frame) and \
            not (states_reason if ask.frame.answer_kind == "reason" else states_means)(draft.text):
        # a cause or the actions taken asked: "Revenue was $383.3 billion" is neither, a span
        # gives one
        return False
    if ranked[0].words < NOT_FOUND_BELOW:
        # a span close to it only: the composed figure stands unless it is a change by that
        # amount where the level is asked
        return not (draft.rests_on and a_change(draft.rests_on[0])
                    and not asks_change(ask))
    if draft.offer_qa:
        # "not found" while a span answers, unless the question's own rules ("no forecasts",
        # "only audited") are what kept the figure out
        return evidence.admission is not None
    if draft.short:
        return False  # "its growth cannot be computed" while a span states it
    if not draft.rests_on:
        return True
    finding = draft.rests_on[0]
    if ranked[0].placed and fits_kind(ranked[0], ask.frame) and not any(
            _states(s, finding) for s in ranked[:1]):
        return False  # the part asked leads, not the whole the question places it in
    if a_change(finding) and not asks_change(ask):
        return False
    top = ranked[0]
    if ask.frame.answer_kind == "rate" and not _PERCENT.search(draft.text) and fits_kind(
            top, ask.frame):
        return False  # a rate asked ("how did they change?"), the draft gives none, a span does
    if any(_states(s, finding) for s in ranked[:1]):
        return True
    if _statement_states(top, finding):
        return False  # the statement's own row states the figure read elsewhere: it leads
    if _names_a_part(finding, top, ask):
        return False  # "Net product sales" read as revenue, where the company's revenue is asked
    if _statement_disagrees(top, finding):
        return False  # "a decrease to net income of $3.3 billion" is no net income: the row is
    if names_less(finding, top, ask, naming_terms(ask, top, change_words=False)):
        return False  # "Consolidated" net sales, where the "AWS" row answers: the whole
    return _names_all(finding, top, ask)


def _sibling_measure(finding: Finding, ask: Ask) -> bool:
    """The finding was read from a row or line named by a sibling of the qualifier the question
    puts on its line item ("Net lease cost", "Total income taxes paid"), or by no word of that
    qualifier ("Provision for income taxes" where the federal one is asked): another measure,
    or the whole of the measures."""
    if not ask.frame.qualified:
        return False
    said = " ".join(filter(None, [str(finding.attributes.get("row", "")), finding.label]))
    stems = stems_of(f"{said} {finding.subject}")
    return contradicted(ask.frame.qualified, said, stems) is not None or any(
        not any(term_in(t, stems) for t in stems_of(q.word)) for q in ask.frame.qualified)


def _other_facet(finding: Finding, ask: Ask) -> bool:
    """The finding's own words (its row's label, or its sentence) name none of the movement the
    question asks ("additions", "cash payments"), or its row names a movement the question
    does not, or its sentence a status ("proposed"): another figure of the item
    (`manda.agent.facets`)."""
    row = str(finding.attributes.get("row", ""))
    own = " ".join(filter(None, [row, finding.label, _own_words(finding)]))
    return unmet_facet(ask.frame.facets, own) is not None or unasked_facet(
        ask.frame.facets, row or _own_words(finding), row=bool(row)) is not None


def qualified_apart(draft: Draft, ask: Ask, evidence: Evidence) -> bool:
    """The best span is a row of the kind asked whose block heading names what the question
    qualifies its line item by ("excluding the effect of foreign exchange rates:" over
    "International 10 10") and the draft, computed from other rows, says none of it: the
    heading's row answers, the draft is another figure (the growth as reported)."""
    ranked = rank_spans(ask.frame, evidence)
    if not ranked or not draft.text:
        return False
    top = ranked[0]
    if top.row is None or not top.group or top.words < NOT_FOUND_BELOW or not fits_kind(
            top, ask.frame):
        return False
    heading, said = stems_of(top.group), stems_of(draft.text)
    label = stems_of(top.row.label)
    return any(term_in(t, heading) and not term_in(t, label) and not term_in(t, said)
               for t in naming_terms(ask, top, change_words=False))


def asks_change(ask: Ask) -> bool:
    """The question asks how much something changed ("how fast did revenue grow?"), where a
    change is the answer; "what was the gross margin?" asks a rate, not its change."""
    return ask.frame.answer_kind == "rate" and any(says_change(t) for t in ask.frame.ranking.terms)


def _statement_states(span: Span, finding: Finding) -> bool:
    """The span is a row of a primary statement (a balance sheet, a cash flow statement) of the
    finding's document, on another page, that states the finding's figure for one of its
    periods: the figure's own place."""
    if span.row is None or not span.statements or finding.value is None:
        return False
    if span.source.document_id != finding.document_id:
        return False
    return any(f.value is not None and same_amount(f.value, finding.value)
               for f in span.figures())


def _names_a_part(finding: Finding, top: Span, ask: Ask) -> bool:
    """The finding was read from a row whose label names more than its line item and the
    question ("Net product sales" for revenue: a part of it), where the best span's row names
    none of those words: the part does not stand for the whole asked."""
    spec = metric_spec(finding.subject)
    if spec is None:
        return False
    named = stems_of(" ".join(spec.synonyms))
    asked = set(ask.frame.ranking.terms)
    row = str(finding.attributes.get("row") or "")
    if row:  # its words outside a parenthesised gloss ("Headcount (number, month end)")
        words = [w for w in letter_words(without_asides(row)) if len(w) >= 4]
    else:  # a sentence: the proper name right before the line item ("Microsoft Cloud gross
        # margin", "Delivery Gross Bookings") names the part it is of
        words = [w for w in _named_before(finding.excerpt, spec.synonyms)
                 if w.lower() not in {n.lower() for n in (ask.entity or "").split()}]
    more = [w for w in words
            if not term_in(w.lower(), named) and not any(term_in(t, stems_of(w)) for t in asked)
            and not totals_row(w)]
    best = stems_of(f"{top.group} {top.row.label}" if top.row is not None
                    else " ".join(_named_before(top.text, spec.synonyms)))
    return bool(more) and not any(term_in(w.lower(), best) for w in more)


def _named_before(excerpt: str, synonyms: tuple[str, ...]) -> list[str]:
    """The capitalised words right before the first wording of the line item, in one run with
    it on its line, less the one that opens its sentence (capitalised for being first): "Cloud"
    of "Microsoft Cloud gross margin percentage …"."""
    low = excerpt.lower()
    hits = [at for s in synonyms if (at := low.find(s.lower())) > 0]
    if not hits or not excerpt[:min(hits)].endswith(" "):
        return []
    words = excerpt[:min(hits)].rsplit("\n", 1)[-1][:-1].split(" ")
    run: list[str] = []
    for at in range(len(words) - 1, -1, -1):
        before = " ".join(words[:at]).rstrip()
        if not (words[at].isalpha() and words[at][:1].isupper()) or not before or \
                before[-1] in ".:;!?":
            break
        run.insert(0, words[at])
    return run


def _statement_disagrees(span: Span, finding: Finding) -> bool:
    """The span is a table row of the finding's line item by its own label, in the finding's
    document, and states another figure for the finding's year, where the finding was read from
    a sentence (or the row is a primary statement's): the figure read from prose ("a decrease
    to net income and diluted EPS of $3.3 billion", "$248 million of cash settled charges") is
    some effect on the line item, not the line item itself."""
    if span.row is None or finding.value is None or finding.nature is not Nature.ACTUAL:
        return False  # a forecast may differ from the actual of part of its year
    if not span.statements and finding.attributes.get("row") is not None:
        return False  # two tables' rows: neither is the statement's own
    if span.source.document_id != finding.document_id or finding.period is None:
        return False
    if label_subject(span.row.label) != finding.subject:
        return False
    if not finding.period.startswith(("FY", "as of")):
        return False  # a quarter's or a month's figure: a row's year says nothing of it
    year = year_of(finding.period)
    stated = [f for f in span.figures() if f.value is not None and year is not None
              and fiscal_year(f.column) == year and _whole_year(f.column)]
    return bool(stated) and not any(same_amount(f.value or 0.0, finding.value) for f in stated)


def _whole_year(column: str) -> bool:
    """A column of a year or a year's end ("2025", "FY2025", "September 27, 2025"), not of a
    quarter, a half or a month of it."""
    period = parse_period(column)
    return period is None or period.startswith(("FY", "as of"))


# "Operating income increased $4.5 billion or 15%": the verb right before the figure
_CHANGED = vocabulary().cues("change_verb_before_figure")
_PERCENT = re.compile(r"\d\s?%|\bper\s?cent\b", re.IGNORECASE)
_CHANGE = vocabulary().cues("change_by")  # "increased net sales by", "a progressé de"
_CHANGED_OR = vocabulary().cues("change_in_percent_after_amount")  # "increased $5.8 billion or"


def _forecast_over_actual(finding: Finding, top: Span, ask: Ask, evidence: Evidence) -> bool:
    """A forecast read for a question about results, where the best span states the figure
    as a result ("Purchases of property and equipment" for "capex in 2024", not "we expect
    capex of $60 million in 2024") in a document that covers the period asked: the actual
    leads. A forecast stands where guidance is asked or the period is still ahead of every
    document that could state it."""
    if finding.nature is not Nature.FORECAST or ask.frame.wants_forecast:
        return False
    if not fits_kind(top, ask.frame) or (top.row is None and states_forecast(top.text)):
        return False
    years = set(ask.frame.period_years) or (
        {y} if finding.period and (y := year_of(finding.period)) is not None else set())
    doc = evidence.documents.get(top.source.document_id)
    if doc is None or doc.doc_date is None:
        return not years
    return all(_covers(doc.doc_date, doc.fiscal_year_end, y) for y in years)


def document_covers(document: Document, year: int) -> bool:
    """The document can state fiscal `year`'s result (an undated one may)."""
    return document.doc_date is None or _covers(document.doc_date, document.fiscal_year_end,
                                                year)


def _covers(day: date, year_end: str | None, year: int) -> bool:
    """A document of `day` can state fiscal `year`'s result: it is of a later fiscal year, or
    dated at that year's end (within a week: 52/53-week years); a third-quarter report is not."""
    fiscal = fiscal_year_named(day)
    if fiscal != year:
        return fiscal > year
    month, dd = (int(year_end[2:4]), int(year_end[5:7])) if year_end and len(year_end) == 7 \
        else (12, 31)
    end_year = year + 1 if fiscal_year_named(date(year, month, min(dd, 28))) < year else year
    return day >= date(end_year, month, min(dd, 28)) - timedelta(days=7)


def said_as_change(before: str) -> bool:
    """The words before a figure say it is a change by that amount ("increased net sales by",
    "decreased", "a foreign currency impact of"), not a level."""
    return _CHANGE.ends(before) or _CHANGED.ends(before) or _CHANGED_OR.ends(before)


def of_a_named_part(finding: Finding, own: frozenset[str]) -> bool:
    """The finding, read from a sentence, is the figure of a business named after its company
    (`names_a_part`), not the company's."""
    return not finding.attributes.get("row") and names_a_part(finding.excerpt, finding.subject,
                                                              own)


def names_a_part(text: str, subject: str, own: frozenset[str]) -> bool:
    """"Microsoft Cloud gross margin percentage increased 2 points to 72%": the sentence names
    the line item `subject` of a business called after its company (the company's name, then a
    name of its own), whose figure is not the company's (`own`: the company's name, word by
    word)."""
    if not own:
        return False
    starts = {m.start() for pattern in group_patterns(subject) for m in pattern.finditer(text)}
    for start in sorted(starts):
        run: list[str] = []
        for word in reversed(text[:start].split()):
            if not word[:1].isupper():
                break
            run.insert(0, word)
        if len(run) >= 2 and run[0].lower() in own and not all(company_word(w)
                                                                for w in run[1:]):
            return True
    return False


def a_change(finding: Finding) -> bool:
    """"Changes in exchange rates increased net sales by $4.4 billion": the figure is a change,
    not the line item's level; so is a balance's movement beside its figure ("proceeds from
    long-term debt of $5.1 billion", "a $3.93 billion increase in proceeds from debt")."""
    written = (finding.value_text or "").strip()
    at = finding.excerpt.find(written) if written else -1
    if at < 0:
        return False
    if at > 0 and said_as_change(finding.excerpt[:at]):
        return True
    spec = metric_spec(finding.subject)
    if spec is None or not (spec.stock or spec.sheet):
        return False
    clause = _clause(finding.excerpt, at, at + len(written))
    return a_movement(clause)


def _clause(text: str, start: int, end: int) -> str:
    """The words around a figure within its clause (to the sentence's or a semicolon's edge)."""
    before = re.split(r"[.;:]\s", text[:start])[-1][-120:]
    after = re.split(r"[.;:]\s", text[end:])[0][:40]
    return f"{before} {text[start:end]} {after}"


def _states(span: Span, finding: Finding) -> bool:
    """The span is where the finding was read, and states its figure."""
    if span.source.document_id != finding.document_id or (
            finding.location.page is not None and span.source.page != finding.location.page):
        return False
    if finding.value is None:
        return False
    if span.row is not None:  # its figures at its statement's scale: "$77,670" under "(in
        # millions)" is $77.67 billion, not a finding of $77,670 read without the caption
        return any(f.value is not None and same_amount(f.value, finding.value)
                   for f in span.figures())
    written = (finding.value_text or "").strip()
    if written and written in span.text:
        return True
    return any(same_amount(a.value, finding.value) for a in find_amounts(span.text))


def _own_words(finding: Finding) -> str:
    """What a finding read from a sentence says of its own figure: its sentence of the excerpt,
    up to the cause it gives after the figure ("Server products and cloud services revenue
    increased 19%", not "… driven by Azure"); another sentence of the passage ("LinkedIn revenue
    increased 10%") names another thing's figure. A row's finding, or one whose figure is not
    found in a sentence, keeps its whole excerpt."""
    written = (finding.value_text or "").strip()
    if not written or finding.attributes.get("row"):
        return finding.excerpt
    for sentence in sentences_of(finding):
        at = sentence.text.find(written)
        if at < 0:
            continue
        cause = cause_after(sentence.text)
        return sentence.text[:cause.start()] if cause is not None and cause.start() > at \
            else sentence.text
    return finding.excerpt


def _names_all(finding: Finding, top: Span, ask: Ask) -> bool:
    """A finding whose place no span holds stands when its own words name everything the best
    span answers of the question (so a coarser line item does not stand for a finer one)."""
    spec = metric_spec(finding.subject)
    named = " ".join(spec.synonyms) if spec is not None else ""
    own = stems_of(" ".join(filter(None, [finding.label, finding.subject, _own_words(finding),
                                          str(finding.attributes.get("row", "")), named])))
    # a row's block heading qualifies what its label names ("International" under "Growth,
    # excluding the effect of foreign exchange rates:")
    best = stems_of(f"{top.group} {top.row.label}" if top.row is not None else top.text)
    asked = [t for t in naming_terms(ask, top, change_words=False) if term_in(t, best)]
    covered = all(term_in(t, own) for t in asked)
    about = f"{top.group} {top.row.label} {top.text}" if top.row is not None else top.text
    if spec is not None and not any(
            re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", about, re.IGNORECASE)
            for s in spec.synonyms):
        # the best span is about something else ("profit before tax"): no finer statement of
        # this metric stands against the finding; but a row that names what the question
        # qualifies its metric by ("iPhone" of "iPhone revenue") and the finding does not is
        # the finer statement, though its label omits the metric's own word; so is a sentence
        # that states the rate asked of what the question names ("LinkedIn revenue increased
        # 10%" for LinkedIn's revenue growth) in other words than the metric's
        return covered or not ((fits_kind(top, ask.frame) or _row_names_every(top, ask, named))
                               and (top.row is not None or ask.frame.answer_kind == "rate"))
    return covered


def _row_names_every(top: Span, ask: Ask, named: str) -> bool:
    """A question of no particular kind ("how did credit card profit sharing revenue change?")
    whose every word beyond its metric, period and company the best span's row label says, a
    figure beside it: that row is the line item asked, not the metric's total."""
    if ask.frame.answer_kind is not None or top.row is None or not any(
            f.value is not None for f in top.figures()):
        return False
    label, metric = stems_of(top.row.label), stems_of(named)
    qualifiers = [t for t in naming_terms(ask, top, change_words=False)
                  if t not in ask.frame.change_words and not term_in(t, metric)]
    return bool(qualifiers) and all(term_in(t, label) for t in qualifiers)
