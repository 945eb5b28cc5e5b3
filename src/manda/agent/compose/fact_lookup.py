"""fact_lookup: one sourced sentence, plus the correction, conflict or forecast caveat it needs."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date, timedelta

from manda.agent.compose import (
    by_company,
    computed,
    evidence_first,
    passages,
    portions,
    ranking,
    segment_figures,
    segment_level,
)
from manda.agent.compose.common import (
    Ask,
    Draft,
    approvals,
    best_sentences,
    cite_findings,
    conflict_sentence,
    correction_sentence,
    describe_reading,
    mentions,
    no_data,
    qa_action,
    qa_offer,
    with_assumption,
)
from manda.agent.compose.leads import a_change_column
from manda.agent.compose.people import (
    current_first,
    holds_as,
    people,
    person_name,
    role_holder,
    role_of,
)
from manda.agent.compose.stated import of_another_period
from manda.agent.compose.topics import person_pay
from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import cite
from manda.agent.kinds import states_count
from manda.agent.relevance import CLOSE_BELOW, NOT_FOUND_BELOW, content_terms, stems_of, term_in
from manda.agent.selection import (
    Reading,
    best_of,
    choose_period,
    counted_years,
    findings_for,
    in_text,
    one_per_document,
    periods_of,
    read_fact,
    segment_label,
    show,
    subject_base,
    subject_label,
)
from manda.agent.spans import Span, fits_kind, rank_spans
from manda.agent.spans.balances import states_forecast
from manda.agent.spans.sentences import main_clause
from manda.agent.translate import period_name, period_phrase
from manda.agent.unusual import UnusualItem, scan, sentences, trim
from manda.finance.amounts import find_amounts, same_amount
from manda.finance.compare import comparable
from manda.finance.equivalents import group_patterns
from manda.finance.fiscal import (
    WEEK_YEAR_SLACK,
    FiscalYearEnd,
    fiscal_year_named,
    year_end_statements,
)
from manda.finance.periods import same_quarter_last_year
from manda.finance.vocabulary import canonical_subject, metric_spec
from manda.ingest.extract.names import ORG, without_title
from manda.models import Finding, FindingKind, Nature, SearchHit
from manda.text import letter_words
from manda.vocabulary import vocabulary


def compose(ask: Ask, evidence: Evidence) -> Draft:
    draft = _compose(ask, evidence)
    # a segment's own level asked ("the Intelligent Cloud segment's goodwill"): a lead that
    # names not both the segment and the line item (the company's total, another line of the
    # segment) gives way to the passages that do, else says that none does
    return segment_level.answer(ask, evidence, draft) or draft


def _compose(ask: Ask, evidence: Evidence) -> Draft:
    role = ask.frame.asked_role
    if role is not None and (not ask.entity or ask.entity.lower() in role.lower()
                             or ask.entity.split()[0].lower() in role.lower()
                             or not any(_matches(f, ask.entity) for f in people(evidence))):
        # "who audits Globex?", "who is the CFO of Globex?": the entity is the company whose
        # role is asked, not a person the documents name
        return _who_has_role(ask, evidence, role)
    if ask.entity and ask.frame.pay and not ask.subject:
        return _pay(ask, evidence)
    if ask.entity and not mentions(evidence, ask.entity):
        return no_data(
            ask, evidence,
            why=vocabulary().answer("not_mentioned", ask.language, name=ask.entity),
            category="General",
        )
    if (each := by_company.answer(ask, evidence, compose)) is not None:
        return each  # "net income in fiscal 2025" in a room of several companies' filings
    if (part := _of_named_part(ask, evidence)) is not None:
        return part
    if ask.subject and ask.frame.share_of and (share := segment_figures.share(ask, evidence)):
        return share  # a segment's share of the whole, from its row and the whole's
    if ask.subject and ask.frame.share_of and not _percent_findings(ask, evidence):
        # "what share of sales do the stores fulfil": a proportion of the metric, which the
        # metric's own figure does not answer; the sentence stating the share does, else the
        # part's row over the total's, computed with its working
        ranked = rank_spans(ask.frame, evidence)
        part = computed.part_terms(ask, evidence)
        if any(s.words >= NOT_FOUND_BELOW and _states_share(s) and _names_part(s, part)
               for s in ranked[:_STATED_REACH]):
            # a share the documents state ("more than 97 percent", "thirty percent") leads over
            # any computed one
            return evidence_first.answer(ask, evidence, prefer=_SHARE_STATED.pattern)
        return computed.share_of_total(ask, evidence) or evidence_first.answer(ask, evidence)
    if ask.frame.answer_kind in ("quarter", "method", "definition"):
        # "in which quarters is revenue highest?", "how does it measure the cost of its
        # inventory?", "what does it count as cash equivalents?": the sentence naming the
        # quarters, the method or what the term means answers, never the line item's figure for
        # the year nor a ranking of segments
        return evidence_first.answer(ask, evidence)
    if ask.frame.answer_kind == "ranking" and (ranked := ranking.answer(ask, evidence)):
        return ranked
    if ask.frame.answer_kind == "ranking" and ask.frame.segments and (
            ranked := segment_figures.rank(ask, evidence)) is not None:
        return ranked  # each segment's row read apart, or which segments' figures were not
    if ask.frame.answer_kind == "reason" and (ask.frame.change or ask.frame.growth):
        # "what drove the services revenue growth?": the sentence stating the cause answers,
        # never the growth computed from the line item's two years
        return evidence_first.answer(ask, evidence)
    if ask.subject and (ask.frame.change or ask.frame.growth) and (
            moved := segment_figures.change(ask, evidence)) is not None and (
                not passages.qualified_apart(moved, ask, evidence)):
        # a segment's line item against the year before, from its own row; not where a span
        # names what the question qualifies the change by and the rows do not ("excluding
        # foreign exchange": a growth the documents state, no computed one)
        return _with_reason(moved, ask, evidence)
    if ask.frame.effect:
        # the effect of a cause the question names: the sentence that states it with its
        # cause answers, not the line item's level
        return evidence_first.answer(ask, evidence)
    if ask.frame.answer_kind == "reason" and ask.frame.derived is not None:
        # "why did the services gross margin increase?": the sentence stating why answers,
        # never the margin computed from its parts
        return evidence_first.answer(ask, evidence)
    if (computed_draft := _computed(ask, evidence)) is not None:
        return computed_draft
    if ask.subject and (several := _several(ask, evidence)) is not None:
        return several
    if ask.subject:
        draft = _growth(ask, evidence) or _metric(ask, evidence)
        if passages.stands(draft, ask, evidence) and not segment_figures.one_of_several(
                ask, draft.rests_on):
            return _with_kin(draft, ask, evidence)
        return evidence_first.answer(ask, evidence, category="Financial")
    return _topic(ask, evidence)


def _with_reason(draft: Draft, ask: Ask, evidence: Evidence) -> Draft:
    """"How much did tablet sales grow, and why?": the figure composed, then the sentence that
    states why, the reason part's best span, where one does."""
    reason = next((p for p in ask.frame.asked_parts() if p.answer_kind == "reason"), None)
    if reason is None:
        return draft
    best = next((s for s in rank_spans(reason, evidence)[:3]
                 if s.row is None and fits_kind(s, reason)), None)
    if best is None or best.words < NOT_FOUND_BELOW or best.text in draft.text:
        return draft
    line = vocabulary().answer("span_runner_up", ask.language, document=best.source.document,
                               text=best.text, cite=cite([best.source]))
    return replace(draft, text=f"{draft.text}\n\n{line}")


def _of_named_part(ask: Ask, evidence: Evidence) -> Draft | None:
    """"How big was Microsoft Cloud revenue?": a business named after its company is answered
    by the spans that name it, never by the company's own figure of the line item; None where
    no span naming it is close and of the kind asked (the other shapes answer then)."""
    named = evidence_first.naming_part(ask, evidence)
    if not any(s.words >= CLOSE_BELOW and fits_kind(s, ask.frame) for s in named[:3]):
        return None
    return evidence_first.answer(ask, evidence, category="Financial", spans=named)


def _with_kin(draft: Draft, ask: Ask, evidence: Evidence) -> Draft:
    """"EBITDA and the EBITDA margin", "NRR, GRR and logo churn": each other line item of the
    same family the question names is answered after the first, each from its own findings."""
    first = metric_spec(ask.subject or "")
    if first is None or not first.family or draft.offer_qa:
        return draft
    for subject in ask.frame.subjects:
        spec = metric_spec(subject)
        if subject == ask.subject or spec is None or spec.family != first.family:
            continue
        kin = _metric(replace(ask, subject=subject), evidence)
        if kin.offer_qa or not kin.rests_on:
            continue
        draft = replace(draft, text=f"{draft.text}\n\n{kin.text}",
                        proposals=[*draft.proposals, *kin.proposals],
                        rests_on=[*draft.rests_on, *kin.rests_on],
                        cautions=[*draft.cautions, *kin.cautions])
    return draft


def _computed(ask: Ask, evidence: Evidence) -> Draft | None:
    """A metric a deal team computes (free cash flow, EBITDA, a margin) that no finding holds:
    quoted where a document states it, else computed from its statement lines with the
    working shown."""
    metric = ask.frame.derived
    if metric is None:
        return None
    segment = segment_figures.asked(ask, evidence)
    if segment is not None and set(content_terms(segment)) <= set(
            content_terms(" ".join(metric.plus))):
        # "fulfillment costs as a percentage of net sales": a block headed by the line item's
        # own name ("Fulfillment") is no segment the question names
        segment = None
    if segment is not None:
        # a segment's metric ("AWS's operating margin"): stated for that segment, else
        # computed from its own rows, never the company's
        ranked = rank_spans(ask.frame, evidence)
        if ranked and ranked[0].words >= NOT_FOUND_BELOW and _states_metric(
                ranked[0], metric.asked) and segment_figures.names(ranked[0], segment):
            return evidence_first.answer(ask, evidence, category="Financial")
        return segment_figures.computed(ask, evidence)
    if (unread := segment_figures.unread(ask, evidence)) is not None:
        return unread  # a segment named whose rows were not read: never the company's figure
    subject = canonical_subject(metric.name)
    if subject in {canonical_subject(line) for line in (*metric.plus, *metric.minus,
                                                         *([metric.over] if metric.over else []))}:
        # "net loss margin" names the net loss it is computed from, not itself; "SG&A as a
        # percentage of sales" names the sales it is over
        subject = None
    rate = metric.unit == "percent"
    if subject is not None and any(f.value is not None and (not rate or _states_rate(f, evidence))
                                   for f in findings_for(evidence, subject, entity=ask.entity)):
        return None  # the room states it: the metric answer reads it
    ranked = rank_spans(ask.frame, evidence)
    if ranked and ranked[0].words >= NOT_FOUND_BELOW and _states_metric(
            ranked[0], metric.asked, percent=rate) and not (ranked[0].row is None and (
                passages.names_a_part(ranked[0].text, metric.name, evidence.scope_words))):
        return evidence_first.answer(ask, evidence, category="Financial")
    return computed.answer(ask, evidence)


def _states_metric(span: Span, names: tuple[str, ...], *, percent: bool = False) -> bool:
    """The span states the metric by name: a sentence, or a row by its label or the heading
    it stands under ("Products" under "Gross margin percentage:"); a rate (`percent`) as a
    percentage ("Gross margin 146,052" is the amount a filing calls its gross margin)."""
    text = (f"{span.group} {span.row.label}" if span.row is not None else span.text).lower()
    units = [a.unit for header, value in span.row.cells.items() if not a_change_column(header)
             for a in find_amounts(value)] if span.row is not None else [
        a.unit for a in find_amounts(span.text)]
    return any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text) for n in names) and bool(
        units) and (not percent or "%" in units)


def _states_rate(finding: Finding, evidence: Evidence) -> bool:
    """The finding states a rate asked as the company's level of it: written as a percentage
    (a row a filing calls "Gross margin" states the amount), not a change ("increased $5.8
    billion or 12%") and not a business named after the company ("Microsoft Cloud gross
    margin percentage … 72%")."""
    return any(a.unit == "%" for a in find_amounts(finding.value_text or "")) and not (
        passages.a_change(finding) or passages.of_a_named_part(finding, evidence.scope_words))


_SHARE_STATED = vocabulary().cues("share_stated")
_STATED_REACH = 3  # how far down the best spans a stated share is looked for


def _states_share(span: Span) -> bool:
    """A share the span states: a sentence's ("more than 97 percent"), or a row's outside its
    change columns ("Research and development $29,915 14%": the 14% is its growth, no share)."""
    if span.row is None:
        return _SHARE_STATED.found(span.text)
    return any(_SHARE_STATED.found(value) for header, value in span.row.cells.items()
               if not a_change_column(header))


def _names_part(span: Span, part: Sequence[str]) -> bool:
    """The span names the part whose share is asked ("the U.K." of net sales), where the
    question names one: a table's "Percent of Net Sales" column of cost lines states no
    country's share."""
    said = stems_of(span.text if span.row is None else f"{span.group} {span.row.label}")
    return not part or any(term_in(t, said) for t in part)


def _percent_findings(ask: Ask, evidence: Evidence) -> bool:
    assert ask.subject is not None
    return any(f.unit == "%" for f in findings_for(evidence, ask.subject, entity=ask.entity))


# ---------------------------------------------------------------- metrics


def _several(ask: Ask, evidence: Evidence) -> Draft | None:
    """"What were revenue, gross profit and operating loss?": each metric the question names,
    one cited line each; a metric the room does not state is said to be missing. None when the
    question names one metric, or the room states fewer than two of those it names."""
    subjects = list(ask.frame.subjects)
    if len(subjects) < 2:
        return None
    parts: list[Draft] = []
    missing: list[str] = []
    for subject in subjects:
        one = replace(ask, subject=subject, assumption=None)
        if not any(f.value is not None for f in findings_for(evidence, subject,
                                                               entity=ask.entity)):
            missing.append(in_text(subject_label(subject) or subject))
            continue
        parts.append(_growth(one, evidence) or _metric(one, evidence))
    if len(parts) < 2:
        return None
    lines = [f"- {p.text}" for p in parts]
    if missing:
        lines.append(f"- No document states {' or '.join(missing)}"
                     + (f" for {period_name(ask.period)}." if ask.period else "."))
    text = with_assumption(ask.assumption, "\n".join(lines))
    return Draft(text=text, proposals=[a for p in parts for a in p.proposals],
                 offer_qa=any(p.offer_qa for p in parts),
                 rests_on=[f for p in parts for f in p.rests_on],
                 cautions=[c for p in parts for c in p.cautions])


def _other_nature(ask: Ask, evidence: Evidence, reading: Reading) -> str:
    """"… actuals show …" beside a forecast the question asked for, when the actual exists.

    An answer about an actual figure never adds a budget or forecast nobody asked for; a
    forecast reaches the answer only when asked, or when no actual exists (then the reading
    itself is the forecast and is labelled as one).
    """
    if not (reading.is_forecast and ask.frame.wants_forecast):
        return ""
    alt = read_fact(evidence, reading.subject, reading.period, entity=ask.entity,
                    nature=Nature.ACTUAL)
    if alt is None or alt.primary.nature is not Nature.ACTUAL or same_amount(
        alt.primary.value or 0.0, reading.primary.value or 0.0
    ):
        return ""
    return (f"Actuals for {period_name(reading.period)} show {show(alt.primary)} "
            f"{cite_findings([alt.primary], evidence)}.")


def _metric(ask: Ask, evidence: Evidence) -> Draft:
    assert ask.subject is not None
    label = ask.label_of(ask.subject)
    pool = [f for f in findings_for(evidence, ask.subject, entity=ask.entity)
            if f.value is not None]
    if not pool:
        topical = _asked_topics(ask, evidence)
        if topical is not None and _figure_stated_apart(ask, evidence, topical):
            # "how big was the one-time tax benefit?": the sentence stating that figure, not
            # the tax topic's statements, as a topic asked answers (`_topic`)
            topical = None
        topical = topical or _computed_margin(ask, evidence, label)
        if topical is not None:
            return topical
        return _from_passages(ask, evidence, f"no document states {in_text(label)}"
                              + (f" for {ask.period}" if ask.period else "") + ".")
    counted = None
    if ask.period is None and ask.frame.years_back:
        counted = counted_years(pool, ask.frame.years_back)
        if counted is None:
            return _no_full_year(ask, evidence, label, pool)
    period = counted.periods[-1] if counted else choose_period(
        pool, period=ask.period, partial=ask.frame.partial_period,
        wants_forecast=ask.frame.wants_forecast)
    in_period = [f for f in pool if f.period == period]
    actual = any(f.nature is Nature.ACTUAL for f in in_period)
    wants = Nature.FORECAST if ask.frame.wants_forecast or not actual else Nature.ACTUAL
    # a level asked is read from a level where any is stated, not from a change by an amount
    # ("changes in exchange rates increased net sales by $4.4 billion")
    level = None if passages.asks_change(ask) else (lambda f: not passages.a_change(f))
    reading = read_fact(evidence, ask.subject, period, entity=ask.entity, nature=wants,
                        prefer=level, prefer_in_period=_whole(ask))
    if reading is None:
        if counted is not None:
            ask = replace(ask, period=period)
        missing = _missing_period(ask, evidence, label, pool)
        ranked = rank_spans(ask.frame, evidence) if ask.frame.wants_forecast else []
        if ranked and ranked[0].row is None and states_forecast(main_clause(ranked[0].text)):
            # guidance asked ("what operating income did it guide to for Q1 2026?"), and the
            # best span states a forecast: its period is its heading's ("First Quarter 2026
            # Guidance"), which an extracted figure may miss for the period it is compared
            # with; that sentence answers, and "not stated" stands only when none is close
            stated = evidence_first.answer(ask, evidence, category="Financial",
                                           why=missing_why(ask, label, pool), spans=ranked)
            if not stated.offer_qa:  # confident: not the closest passage, nor nothing
                return stated
        return missing
    reading = replace(reading, label=segment_label(reading.primary, label))
    text = portions.described(reading, evidence, portion_asked=ask.frame.portion,
                              assumption=ask.assumption, language=ask.language)
    for extra in (_other_nature(ask, evidence, reading),
                  _one_time_note(evidence, reading, ask.language)):
        if extra:
            text = f"{text} {extra}"
    if counted is not None:
        text = f"{text}\n\n{counted.note}"
    return Draft(text=text, proposals=approvals([reading.primary]), rests_on=reading.findings)


# A margin no document states is computed from its two stated parts, and said to be.
MARGIN_OF = {"gross margin": "gross profit", "ebitda margin": "ebitda"}


def _computed_margin(ask: Ask, evidence: Evidence, label: str) -> Draft | None:
    """"What's the EBITDA margin?" in a room that states EBITDA and revenue but no margin."""
    part = MARGIN_OF.get(subject_base(ask.subject or ""))
    if part is None:
        return None
    have = {f.period for f in findings_for(evidence, part, entity=ask.entity)
            if f.value is not None and f.nature is Nature.ACTUAL and f.period}
    periods = [p for p in periods_of(f for f in findings_for(evidence, "revenue")
                                     if f.value is not None and f.nature is Nature.ACTUAL)
               if p in have and (ask.period is None or p == ask.period)]
    if not periods:
        return None
    period = periods[-1]
    value = read_fact(evidence, part, period, entity=ask.entity, nature=Nature.ACTUAL)
    revenue = read_fact(evidence, "revenue", period, nature=Nature.ACTUAL)
    if value is None or revenue is None or not revenue.primary.value:
        return None
    margin = (value.primary.value or 0.0) / revenue.primary.value * 100
    text = (f"{label} was {margin:.1f}% {period_phrase(period)}, computed from "
            f"{in_text(value.label)} of {show(value.primary)} "
            f"{cite_findings([value.primary], evidence)} and revenue of {show(revenue.primary)} "
            f"{cite_findings([revenue.primary], evidence)}; the documents give no margin of "
            "their own.")
    found = [value.primary, revenue.primary]
    return Draft(text=text, proposals=approvals(found), rests_on=found)


_GROWTH_OF = {"revenue growth": "revenue"}


def _a_flow(subject: str) -> bool:
    """An amount over a period whose growth a year on year means something (sales, EBITDA,
    bookings, capex), not a balance at a date nor a rate."""
    spec = metric_spec(subject)
    return spec is not None and spec.unit_kind == "currency" and not (spec.stock or spec.sheet)


def _growth(ask: Ask, evidence: Evidence) -> Draft | None:
    """"How fast is revenue growing?", "revenue growth": the latest period against the same
    period a year before, computed from the two stated figures (a stated growth rate first)."""
    subject = subject_base(ask.subject or "")
    base = _GROWTH_OF.get(subject) or (subject if _a_flow(subject) else None)
    if base is None or (subject == base and not ask.frame.growth):
        return None
    if subject != base and [f for f in findings_for(evidence, subject) if f.value is not None]:
        return None  # a document states the growth rate: the lookup answers with it
    pool = [f for f in findings_for(evidence, base, entity=ask.entity)
            if f.value is not None and f.nature is Nature.ACTUAL]
    counted = counted_years(pool, ask.frame.years_back) if ask.frame.years_back else None
    period = (counted.periods[-1] if counted else None) or ask.period or choose_period(
        pool, period=None, partial=ask.frame.partial_period)
    if period is None:
        return None
    latest = period
    stated = set(periods_of(pool))
    if not (counted or ask.period or ask.frame.partial_period):
        # the latest period with a comparative a year before (FY2024 when H1 FY2025 has none)
        period = next((p for p in reversed(periods_of(pool))
                       if same_quarter_last_year(p) in stated), period)
    prior = same_quarter_last_year(period)
    new = read_fact(evidence, base, period, entity=ask.entity, nature=Nature.ACTUAL)
    label = ask.label_of(base)
    if new is None:
        return None
    # the year before as the same documents state it (a statement's comparative column), else
    # wherever the room states it: two documents' figures may be of different scopes
    old = unlike = None  # `unlike`: a figure of another order, another scope, not a year before
    if prior:
        for documents in ({new.primary.document_id}, None):
            found = read_fact(evidence, base, prior, entity=ask.entity, nature=Nature.ACTUAL,
                              documents=documents)
            if found is None:
                continue
            if comparable(new.primary.value, found.primary.value, new.primary.unit,
                          found.primary.unit):
                old = found
                break
            unlike = unlike or found
    if old is None or not old.primary.value:
        why = (f" ({show(unlike.primary)} {cite_findings([unlike.primary], evidence)} is of "
               "another order: another scope or company)" if unlike is not None else "")
        text = (f"The room states {in_text(label)} for {period_name(period)} but not for "
                f"{period_name(prior) if prior else 'the year before'}{why}, so its growth "
                f"cannot be computed. {describe_reading(new, evidence)}")
        return Draft(text=text, proposals=approvals([new.primary]), rests_on=new.findings,
                     short=True)
    rate = ((new.primary.value or 0.0) - old.primary.value) / abs(old.primary.value) * 100
    verb = "grew" if rate >= 0 else "fell"
    text = (f"{label} {verb} {abs(rate):.1f}% {period_phrase(period)} (computed): "
            f"{show(new.primary)} {cite_findings([new.primary], evidence)} against "
            f"{show(old.primary)} {period_phrase(prior)} {cite_findings([old.primary], evidence)}.")
    extra = [s for s in (correction_sentence(new, evidence), conflict_sentence(new, evidence))
             if s]
    if latest != period and (last := read_fact(evidence, base, latest, entity=ask.entity,
                                               nature=Nature.ACTUAL)) is not None:
        extra.append(f"The latest figure, {show(last.primary)} for {period_name(latest)} "
                     f"{cite_findings([last.primary], evidence)}, has no comparative a year "
                     "earlier in the room.")
        found_latest = [last.primary]
    else:
        found_latest = []
    if extra:
        text += " " + " ".join(extra)
    found = [new.primary, old.primary, *found_latest]
    return Draft(text=text, proposals=approvals(found),
                 rests_on=[*new.findings, *old.findings, *found_latest])


EARNINGS = {"ebitda", "ebit", "net income", "ebitda margin", "operating expenses"}


def _one_time_note(evidence: Evidence, reading: Reading, language: str = "en") -> str:
    """Earnings that include a one-time charge say so, with the adjusted figure when stated."""
    if reading.subject not in EARNINGS or reading.is_forecast:
        return ""
    charges = [f for f in findings_for(evidence, "one-time charges")
               if f.value is not None and f.period == reading.period
               and not of_another_period(f, reading.period, evidence)]
    if not charges:
        return ""
    charge = best_of(charges, evidence)
    words = vocabulary()
    note = words.answer("one_time_charge", language, charge=show(charge),
                        cite=cite_findings([charge], evidence))
    adjusted = read_fact(evidence, "adjusted ebitda", reading.period) \
        if reading.subject == "ebitda" else None
    if adjusted is not None:
        note += words.answer("one_time_adjusted", language, figure=show(adjusted.primary),
                             cite=cite_findings([adjusted.primary], evidence))
    return note + "."


def _no_full_year(ask: Ask, evidence: Evidence, label: str, pool: list[Finding]) -> Draft:
    """"Last year" in a room that reports no full year of the metric: said, with the latest
    figure it does report and a request for the full year — never a quarter passed off as it."""
    periods = periods_of(f for f in pool if f.nature is Nature.ACTUAL)
    latest = read_fact(evidence, ask.subject or "", periods[-1]) if periods else None
    if latest is None:
        return no_data(ask, evidence, category="Financial",
                       why=f"no document states {in_text(label)} for a full year.")
    request = f"Please provide {in_text(label)} for the last full financial year."
    text = (f"The room states {in_text(label)} for {', '.join(periods[-4:])} only, not for a "
            f"full year, so “last year” is not stated. The latest: "
            f"{describe_reading(latest, evidence)}\n\n{qa_offer(language=ask.language)}")
    return Draft(text=text, proposals=[qa_action(request, "Financial"),
                                       *approvals([latest.primary])],
                 offer_qa=True, rests_on=latest.findings)


def missing_why(ask: Ask, label: str, pool: list[Finding]) -> str:
    """Why the period asked has no figure: the periods the room states it for."""
    periods = periods_of(f for f in pool if f.nature is Nature.ACTUAL)
    forecasts = periods_of(f for f in pool if f.nature is Nature.FORECAST)
    have = ", ".join(periods[-5:]) or "no period"
    return (f"no document states {in_text(label)} for {ask.period}. The room has it for {have}"
            + (f" (forecasts: {', '.join(forecasts)})" if forecasts else "") + ".")


def _missing_period(ask: Ask, evidence: Evidence, label: str, pool: list[Finding]) -> Draft:
    periods = periods_of(f for f in pool if f.nature is Nature.ACTUAL)
    draft = no_data(ask, evidence, why=missing_why(ask, label, pool), category="Financial")
    latest = read_fact(evidence, ask.subject or "", periods[-1]) if periods else None
    if latest is not None:
        lines = draft.text.split("\n")
        lines.insert(1, f"- Most recent: {describe_reading(latest, evidence)}")
        draft.text = "\n".join(lines)
        draft.rests_on = latest.findings
    return draft


def _whole(ask: Ask) -> Callable[[Finding], bool] | None:
    """A whole balance's row before a portion's, where no portion is asked."""
    return None if ask.frame.portion else (lambda f: portions.portion_row_of(f) is None)


def _from_passages(ask: Ask, evidence: Evidence, why: str) -> Draft:
    """A metric with no extracted value: the passage that states it, if retrieval is confident.
    A statement line (no metric: "shareholders' equity") is never extracted, and its row may
    word it otherwise ("Total shareholders' investment"): the ranking alone finds it."""
    label = subject_label(ask.subject) if ask.subject and metric_spec(ask.subject) else None
    return evidence_first.answer(ask, evidence, category="Financial", why=why, must=label)


# ---------------------------------------------------------------- people, contracts, topics


def _topic(ask: Ask, evidence: Evidence) -> Draft:
    if ask.entity:
        person = [f for f in people(evidence) if _matches(f, ask.entity)]
        if person or ask.frame.person_role:
            return _person(ask, evidence, person)
    if ask.frame.year_end:
        stated = _year_end(ask, evidence)
        if stated is not None:
            return stated
    asked = ask.frame.flag_topics
    if asked:
        topical = _asked_topics(ask, evidence)
        if topical is not None and not _figure_stated_apart(ask, evidence, topical) and not (
                ask.frame.counted and not states_count(topical.text, ask.frame.counted)):
            # "how many jobs did the restructuring cut?": the topic's statements answer only
            # where they state a number of the things counted
            return topical
    if ask.entity:
        entity_findings = [f for f in evidence.usable_findings()
                           if f.value is not None and _matches(f, ask.entity)]
        if entity_findings and _about_a_figure(ask, entity_findings):
            return _entity_facts(ask, evidence, entity_findings)
    category = asked[0].category if asked else "General"
    return evidence_first.answer(ask, evidence, category=category, must=ask.entity)


def _figure_stated_apart(ask: Ask, evidence: Evidence, topical: Draft) -> bool:
    """A figure asked of a topic ("how much has it paid to settle the claims?"): the sentence
    that states it answers, not the topic's statements, where none of them is that sentence."""
    if ask.frame.answer_kind != "figure":
        return False
    ranked = rank_spans(ask.frame, evidence)
    if not ranked or ranked[0].words < NOT_FOUND_BELOW or not fits_kind(ranked[0], ask.frame):
        return False
    return " ".join(ranked[0].text.split()[:8]) not in " ".join(topical.text.split())


_YEAR_END_RULE = vocabulary().cues("year_end_rule")  # "the Saturday nearest January 31"


def _year_end(ask: Ask, evidence: Evidence) -> Draft | None:
    """The fiscal year end the retrieved passages state, most often stated first, with the
    sentences that state it; where a passage states the rule a 52/53-week year ends by ("Our
    fiscal year ends on the Saturday nearest January 31"), that rule, as stated, leads: the
    day differs from year to year."""
    votes: dict[FiscalYearEnd, list[Source]] = {}
    rule: str | None = None
    for hit in evidence.hits:
        for sentence in sentences(hit.text):
            for fye in dict.fromkeys(year_end_statements(sentence)):
                votes.setdefault(fye, []).append(evidence.hit_source(hit))
            if rule is None and _YEAR_END_RULE.found(sentence):
                source = evidence.hit_source(hit)
                rule = vocabulary().answer("span_states", ask.language, document=source.document,
                                           text=trim(sentence), cite=cite([source]))
    if not votes:
        return Draft(text=with_assumption(ask.assumption, rule)) if rule else None
    fye, sources = max(votes.items(), key=lambda kv: len(kv[1]))
    month = date(2001, fye.month, 1)
    if fye.day <= WEEK_YEAR_SLACK + 1:  # a 52/53-week year ending in a month's first days
        month = (month - timedelta(days=1)).replace(day=1)  # runs to the month before's end
    first = (month + timedelta(days=31)).replace(day=1)
    named = "starts" if fiscal_year_named(date(2001, fye.month, fye.day)) == 2000 else "ends"
    text = (f"The fiscal year ends on {fye.day} {date(2001, fye.month, 1):%B}: each fiscal "
            f"year runs from {first:%B} to {month:%B} and is named by the calendar year it "
            f"{named} in {cite(list(dict.fromkeys(sources))[:3])}.")
    return Draft(text=with_assumption(ask.assumption, f"{rule}\n{text}" if rule else text))


def _about_a_figure(ask: Ask, findings: list[Finding]) -> bool:
    """The question names what one of the entity's figures is about (its share, its revenue)."""
    terms = {t for t in ask.frame.terms if t not in (ask.entity or "").lower().split()}
    if not terms:
        return True
    blob = " ".join(f"{f.label} {f.subject}" for f in findings).lower()
    return any(t[:5] in blob for t in terms)


def _asked_topics(ask: Ask, evidence: Evidence) -> Draft | None:
    """Litigation, covenants, change of control…: the best statement of each topic asked."""
    asked = ask.frame.flag_topics
    items = [i for i in scan(evidence, every=True) if i.topic in asked]
    if ask.entity:  # "the Globex contract": the statement about Globex, not another one
        key = ask.entity.split()[0].lower()
        named = [i for i in scan(evidence, about=key, every=True) if i.topic in asked]
        items = named or items
    if not items:
        return None
    lines = []
    for i in items:
        party = _party_unnamed(i, evidence)
        label = f"{i.topic.flag_label} ({party})" if party else i.topic.flag_label
        lines.append(f"{label}: {i.statement} {cite([i.source])}")
    return Draft(text=with_assumption(ask.assumption, "\n".join(lines)))


def _party_unnamed(item: UnusualItem, evidence: Evidence) -> str | None:
    """The counterparty of the contract a statement is about, where the statement does not name
    it: "En cas de changement de contrôle …, le Client pourra résilier le contrat-cadre" is the
    contract with Laiteries du Vercors that the sentence before names, as its finding knows."""
    said = " ".join(item.statement.rstrip(" …").split()).lower()
    for f in evidence.usable_findings():
        if not (f.kind is FindingKind.CONTRACT and f.entity
                and f.document_id == item.source.document_id
                and f.entity.lower() not in said):
            continue
        # the finding's excerpt is a window: it holds the statement's start, or ends inside it
        excerpt = " ".join(f.excerpt.split()).lower()
        if said[:30] in excerpt or excerpt[-30:] in said:
            return f.entity
    return None


def _matches(finding: Finding, entity: str) -> bool:
    """The finding is of the person asked: the whole name, else the surname ("Jeff Bezos" is
    "Jeffrey P. Bezos"); a first name alone names nobody ("Brian Cornell" is not "Brian T.
    Olsavsky")."""
    wanted = entity.lower()
    blob = " ".join(filter(None, [finding.entity, finding.subject, finding.label])).lower()
    surname = wanted.split()[-1] if wanted.split() else ""
    return wanted in blob or (len(surname) > 2 and re.search(
        rf"(?<!\w){re.escape(surname)}(?!\w)", blob) is not None)


_LEGAL_FORM = r"\b(?:AG|GmbH|Ltd|plc|Inc|LLC|LLP|KG|Co|SE|S\.?A|N\.?V|B\.?V)\b\.?"


def _who_has_role(ask: Ask, evidence: Evidence, role: str) -> Draft:
    """Who holds the role asked; when nobody does, say so and name who is there instead."""
    draft = role_holder(ask, evidence, role) or _role_as_finding(ask, evidence, role)
    if draft is not None:
        draft.text = with_assumption(ask.assumption, draft.text)
        return draft
    # an organisation in the role ("the auditor", "the lender"), in the documents' words ("des
    # Abschlussprüfers", "Wirtschaftsprüfungsgesellschaft"): the passage that names it, and the
    # next best when the question also asks about something else ("… and is the opinion clean?")
    patterns = group_patterns(role.lower())
    named = {m.group(0) for h in evidence.hits for p in patterns if (m := p.search(h.text))}
    if named:
        why = f"no passage names the {role} closely enough."
        # the passage where a firm's legal name carries the role ("… GmbH
        # Wirtschaftsprüfungsgesellschaft", "… LLP, independent auditors") names who holds it
        firm = re.compile(rf"{_LEGAL_FORM}[\s,&]+(?:[\w&.]+[\s,]+){{0,2}}?(?:"
                          + "|".join(p.pattern for p in patterns) + ")", re.I)
        also = [own for own, _ in ask.frame.line_items
                if not any(p.search(own) for p in patterns)]
        if not also:
            draft = evidence_first.answer(ask, evidence, category="General",
                                          must=" ".join(named), limit=1, why=why, prefer=firm)
            return draft if draft.offer_qa else _named_holder(draft, evidence, role, ask.language)
        # two questions in one: each part answered from its own best passage
        who = evidence_first.answer(replace(ask, frame=ask.frame.about(f"Who is the {role}?")),
                                    evidence,
                                    category="General", must=" ".join(named), limit=1, why=why,
                                    prefer=firm)
        if not who.offer_qa:
            who = _named_holder(who, evidence, role, ask.language)
        rest = evidence_first.answer(replace(ask, frame=ask.frame.about(also[0])), evidence,
                                     limit=1)
        if who.offer_qa or rest.offer_qa or rest.text == who.text:
            return who if not who.offer_qa else evidence_first.answer(
                ask, evidence, category="General", must=" ".join(named), limit=2, why=why)
        who.text = f"{who.text}\n{rest.text}"
        return who
    named: dict[str, Finding] = {}
    for f in people(evidence):
        title = role_of(f) or ""
        have = named.get(person_name(f))
        if title and (have is None or len(title) > len(role_of(have) or "")):
            named[person_name(f)] = f
    question = vocabulary().answer("role_question", ask.language, role=role)
    if not named:
        return no_data(ask, evidence,
                       why=vocabulary().answer("role_unnamed", ask.language, role=role),
                       category="HR", question=question)
    listed = [f"- {n} — {role_of(f)} {cite_findings([f], evidence)}"
              for n, f in list(named.items())[:6]]
    text = "\n".join([vocabulary().answer("role_none", ask.language, role=role),
                      *listed, f"{qa_offer(language=ask.language)} (“{question}”)"])
    return Draft(text=with_assumption(ask.assumption, text),
                 proposals=[qa_action(question, "HR")], offer_qa=True)


_ORG_RE = re.compile(ORG)
_NEAR = 300  # characters either side of the role word in which its holder's name is looked for
_SIGNED = vocabulary().cues("signed_by")  # "/s/", "for and on behalf of"
_LEGAL_WORDS = vocabulary().words("legal_forms") | vocabulary().words("company_words") | {
    "and", "the", "of"}


def _holder_line(role: str, holder: str, language: str) -> str:
    """"The auditor is Ernst & Young LLP", "Abschlussprüfer: Hegele & Brandt GmbH"."""
    return vocabulary().answer("role_holder", language, role=role, holder=holder)


def _name_words(name: str | None) -> set[str]:
    """A name's distinctive words ("Uber Technologies, Inc." → uber, technologies)."""
    return {w for w in letter_words((name or "").lower())
            if len(w) > 2 and w not in _LEGAL_WORDS}


def _named_holder(draft: Draft, evidence: Evidence, role: str, language: str) -> Draft:
    """The organisation in the role, named first: the firm nearest a wording of the role in the
    passages ("/s/ Ernst & Young LLP … We have served as the Company's auditor since 2009",
    "engaged Deloitte & Touche LLP, an independent registered public accounting firm"), where
    the answer does not already open by naming it."""
    if draft.text.startswith(_holder_line(role, "", language).strip()):
        return draft
    patterns = group_patterns(role.lower())
    best: tuple[tuple[bool, int], str, SearchHit] | None = None
    for hit in evidence.hits:
        text = " ".join(hit.text.split())  # "/s/ Pricewaterhouse Coopers\nLLP" as one name
        doc = evidence.documents.get(hit.document_id)
        own = _name_words(doc.company if doc is not None else None)
        firms = [m for m in _ORG_RE.finditer(text) if not own & _name_words(m.group(0))]
        for pattern in patterns:
            for said in pattern.finditer(text):
                for firm in firms:
                    gap = max(firm.start() - said.end(), said.start() - firm.end(), 0)
                    # the firm that signs ("/s/ Ernst & Young LLP") before one merely named
                    rank = (not _SIGNED.ends(text[:firm.start()]), gap)
                    if gap <= _NEAR and (best is None or rank < best[0]):
                        best = (rank, without_title(firm.group(0)), hit)
    if best is None:
        return draft
    _, firm, hit = best
    first = _holder_line(role, firm, language)
    return replace(draft, text=f"{first} {cite([evidence.hit_source(hit)])}.\n{draft.text}")


def _role_as_finding(ask: Ask, evidence: Evidence, role: str) -> Draft | None:
    """A role held by an organisation and extracted as a fact ("auditor": the firm)."""
    found = [f for f in findings_for(evidence, role.lower()) if f.value_text]
    if not found:
        return None
    first = best_of(found, evidence)
    same = [f for f in found if f.value_text == first.value_text]
    holder = _holder_line(role, first.value_text or "", ask.language)
    return Draft(text=f"{holder} {cite_findings(same, evidence)}.",
                 proposals=approvals(same), rests_on=same)


def _pay(ask: Ask, evidence: Evidence) -> Draft:
    assert ask.entity is not None
    draft = person_pay(ask, evidence)
    if draft is not None:
        return draft
    named = mentions(evidence, ask.entity)
    why = (f"{ask.entity} is named in the data room, but no retrieved table or passage states "
           f"{ask.entity}'s pay." if named else
           vocabulary().answer("not_mentioned", ask.language, name=ask.entity))
    return no_data(ask, evidence, why=why, category="HR",
                   question=f"What is {ask.entity}'s total compensation (base, bonus, benefits)?")


def _person(ask: Ask, evidence: Evidence, person: list[Finding]) -> Draft:
    assert ask.entity is not None
    with_role = current_first(person)
    if with_role:
        best = with_role[0]
        return Draft(
            text=with_assumption(
                ask.assumption,
                f"{person_name(best)} {holds_as(best)} {cite_findings([best], evidence)}."),
            proposals=approvals([best]), rests_on=[best],
        )
    closest = best_sentences(evidence, [*ask.entity.split(), *ask.frame.terms], limit=2,
                             must=[ask.entity.split()[-1]])
    name = ask.entity
    why = (f"{name} is named in the data room, but no document states a role or title for "
           f"{name}" + (" (where the documents list roles, it is left empty)." if person else "."))
    return no_data(ask, evidence, why=why, category="HR",
                   question=f"What is {name}'s role and title at the company?", closest=closest)


def _entity_facts(ask: Ask, evidence: Evidence, findings: list[Finding]) -> Draft:
    terms = set(ask.frame.terms)
    ranked = sorted(
        findings,
        key=lambda f: (sum(1 for t in terms if t in f.label.lower() or t in f.subject),
                       f.period or ""),
        reverse=True,
    )
    best = ranked[0]
    subject = best.subject
    same = [f for f in findings if f.subject == subject and f.period == best.period]
    where = cite_findings(one_per_document(same)[:2], evidence)
    when = f" {period_phrase(best.period)}" if best.period else ""
    text = f"{best.label}: {show(best)}{when} {where}."
    return Draft(text=with_assumption(ask.assumption, text), proposals=approvals([best]),
                 rests_on=same)



__all__ = ["compose", "qa_action", "qa_offer"]
