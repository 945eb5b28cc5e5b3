"""comparison: a side-by-side table with the variance in absolute and % terms, sources below it."""

from __future__ import annotations

from manda.agent.compose import evidence_first, segment_figures
from manda.agent.compose.common import (
    Ask,
    Draft,
    approvals,
    cite_findings,
    conflict_sentence,
    correction_sentence,
    no_data,
)
from manda.agent.compose.deep_dive import change
from manda.agent.compose.leads import day_said, row_lead
from manda.agent.evidence import Evidence
from manda.agent.relevance import PERIOD_FORMS, content_terms
from manda.agent.selection import (
    CountedYears,
    Reading,
    balance_date,
    choose_period,
    counted_years,
    findings_for,
    in_text,
    periods_of,
    read_fact,
    show,
    subject_label,
)
from manda.agent.spans import rank_spans
from manda.agent.translate import dated, period_name
from manda.finance.periods import parse_date, previous_period, same_quarter_last_year
from manda.models import Finding, Nature
from manda.vocabulary import vocabulary

_DEFAULT_SUBJECTS = ("revenue", "ebitda")
# two figures of one line item this many times apart are not its two periods at one scale: one
# was read without its statement's scale ("1,500" of a table in millions) or is another thing
_SCALES_APART = 1000
_ROWS_READ = 12  # how far down the ranking a row naming the line item is looked for


def scales_apart(new: Reading, old: Reading) -> bool:
    """Whether two periods' figures of one line item are too far apart to be compared: a
    variance of +159,999,900% is a reading error, never a change to state (issue 25: a figure
    1,000× off never stands)."""
    a, b = abs(new.primary.value or 0.0), abs(old.primary.value or 0.0)
    if not a or not b or new.primary.unit == "%" or old.primary.unit == "%":
        return False
    return max(a, b) / min(a, b) >= _SCALES_APART


def _reported_vs_adjusted(subjects: list[str], ask: Ask) -> bool:
    """"Adjusted EBITDA against reported EBITDA": the same metric before and after adjustments
    ("reported and adjusted EBITDA" names the metric once)."""
    return any(s.startswith("adjusted ") and (s.removeprefix("adjusted ") in subjects
                                              or ask.frame.reported)
               for s in subjects)


def _subjects(ask: Ask) -> list[str]:
    subjects = list(ask.frame.subjects) or ([ask.subject] if ask.subject else [])
    return subjects or list(_DEFAULT_SUBJECTS)


def _periods(ask: Ask, evidence: Evidence, subjects: list[str]) -> list[str]:
    if len(ask.frame.periods) >= 2:
        return sorted(ask.frame.periods[:3], key=lambda p: periods_of_key(p))
    pool = [f for s in subjects for f in findings_for(evidence, s) if f.value is not None]
    counted = _counted(ask, evidence, subjects)
    if counted is not None:
        return counted.periods if len(counted.periods) >= 2 else [
            previous_period(counted.periods[0]) or counted.periods[0], counted.periods[0]]
    if ask.period is None and not ask.frame.periods and ask.frame.years_back:
        return []  # years counted back in a room that reports no full year: never quarters
    base = ask.period or choose_period(pool, period=None, partial=ask.frame.partial_period)
    if base is None:
        return []
    have = set(periods_of(pool))
    for other in (same_quarter_last_year(base), previous_period(base)):
        if other and (other in have or _stated_at(evidence, subjects, other, ask)):
            return [other, base]
    return [base]


def _stated_at(evidence: Evidence, subjects: list[str], period: str, ask: Ask) -> bool:
    """Whether the room states a subject for `period` as `read_fact` reads it: a balance asked
    for a year is the balance at the year's end ("as of 2020-12-31" answers FY2020), so "cash
    at the end of 2021 against a year earlier" has the prior year end to set beside it."""
    return any(read_fact(evidence, s, period, entity=ask.entity, nature=Nature.ACTUAL)
               is not None for s in subjects)


def _counted(ask: Ask, evidence: Evidence, subjects: list[str]) -> CountedYears | None:
    """"Last year against the year before": full years counted back from the room's latest."""
    if ask.period is not None or ask.frame.periods or not ask.frame.years_back:
        return None
    pool = [f for s in subjects for f in findings_for(evidence, s) if f.value is not None]
    return counted_years(pool, ask.frame.years_back)


def periods_of_key(period: str) -> tuple:
    from manda.finance.periods import period_sort_key

    return period_sort_key(period)


def compose(ask: Ask, evidence: Evidence) -> Draft:
    if ask.subject and (moved := segment_figures.change(ask, evidence)) is not None:
        return moved  # a segment's line item for two years, from the segment's own row
    subjects = _subjects(ask)
    if _reported_vs_adjusted(subjects, ask):  # one metric on two definitions
        from manda.agent.compose.topics import reported_vs_adjusted

        draft = reported_vs_adjusted(ask, evidence)
        if draft is not None:
            return draft
    if ask.frame.wants_forecast and not ask.frame.versions:
        draft = _forecast_vs_actual(ask, evidence, subjects)
        if draft.rests_on or ask.frame.wants_actual or ask.frame.against_results:
            return draft
    if ask.frame.wants_forecast and len(ask.frame.periods) < 2:
        return _forecast_versions(ask, evidence, subjects)
    if not ask.frame.subjects and not ask.subject and _asks_other_things(ask):
        # "which peer group does it compare its shareholder return with?": a table of the
        # default metrics answers none of it; the passages that state what is asked lead
        return evidence_first.answer(ask, evidence, category="General")
    periods = _periods(ask, evidence, subjects)
    if not periods and ask.frame.years_back and not ask.frame.periods and ask.period is None:
        labels = " or ".join(in_text(subject_label(s) or s) for s in subjects)
        return no_data(ask, evidence, category="Financial",
                       why=f"no document states {labels} for a full year, so the years asked "
                       "for cannot be counted back in this room.")
    if len(periods) < 2 and len(subjects) == 1 and (
            row := _row_naming(ask.label_of(subjects[0]), ask, evidence)) is not None:
        # one date asked "against a year earlier", no finding of the year before: the
        # statement's row of the line item states both its columns
        return row
    if len(periods) < 2:
        # nothing to set side by side: the passages that state what is asked lead, quoted with
        # their place ("not found" only when none is close)
        return evidence_first.answer(
            ask, evidence, category="Financial",
            why="the room does not state the compared figures for two periods"
            + (f" (only {periods[0]})." if periods else "."))
    header = ["Metric", *periods, "Variance", "Variance %"]
    rows = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    notes: list[str] = []
    sources: list[str] = []
    rests = []
    lead = ""
    for subject in subjects:
        both = _rows_stating_all(evidence, subject, periods)
        readings = [read_fact(evidence, subject, p, entity=ask.entity, nature=Nature.ACTUAL,
                              prefer_in_period=(lambda f, both=both: _row_of(f) in both)
                              if both else None)
                    for p in periods]
        label = ask.label_of(subject)
        first, last = readings[0], readings[-1]
        if first is not None and last is not None and scales_apart(last, first):
            if len(subjects) == 1:  # the row that states both periods leads, quoted
                if (row := _row_naming(label, ask, evidence)) is not None:
                    return row
                return evidence_first.answer(
                    ask, evidence, category="Financial",
                    why=f"the figures read for {in_text(label)} ({show(first.primary)} and "
                    f"{show(last.primary)}) are over {_SCALES_APART:,} times apart, so they "
                    "are not its two periods at one scale.")
            rows.append(f"| {label} | " + " | ".join(["n/a"] * (len(periods) + 2)) + " |")
            notes.append(f"- {label} is not compared: the figures read for {periods[0]} and "
                         f"{periods[-1]} are over {_SCALES_APART:,} times apart.")
            continue
        cells = [show(r.primary) if r else "not stated" for r in readings]
        if first is not None and last is not None:
            variance = change(last, first)
            lead = lead or _lead(ask, evidence, label, first, last, variance)
            absolute, _, pct = variance.partition(" (")
            cells += [absolute, pct.rstrip(")") or "n/a"]
        else:
            cells += ["n/a", "n/a"]
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
        found = [r for r in readings if r is not None]
        rests += [r.primary for r in found]
        if found:
            sources.append(f"{label}: " + ", ".join(
                f"{r.period} {cite_findings([r.primary], evidence)}" for r in found))
        for r in found:
            for sentence in (correction_sentence(r, evidence), conflict_sentence(r, evidence)):
                if sentence:
                    notes.append(f"- {r.period} {in_text(label)}: {sentence}")
        missing = [p for p, r in zip(periods, readings, strict=True) if r is None]
        if missing and len(found) == 1 and _CHANGE_BY.found(found[0].primary.excerpt or ""):
            # "We ended 2023 with $29.09 billion …, an increase of $6.91 billion from the end
            # of 2022": the one period read states its change from the other, which the table
            # leaves blank; the sentence leads, quoted
            lead = lead or _stated_change(found[0].primary, ask, evidence)
        if missing:
            notes.append(f"- {label} is not stated for {', '.join(missing)} in the room.")
    if not rests:
        # no finding of it (a statement line is read by its row, never extracted): the row
        # that states it leads, both its columns said at their dates
        return evidence_first.answer(ask, evidence, category="Financial",
                                     why="none of the compared figures is stated.")
    parts = [*rows, "", "Sources — " + "; ".join(sources)]
    if (counted := _counted(ask, evidence, subjects)) is not None:
        parts[len(rows):len(rows)] = ["", counted.note]
    if lead:  # the change asked, in a sentence, above the table that shows it
        parts = [lead, "", *parts]
    if notes:
        parts += ["", "**Notes**", *notes]
    return Draft(text="\n".join(parts), proposals=approvals(rests), rests_on=rests)


def _row_naming(label: str, ask: Ask, evidence: Evidence) -> Draft | None:
    """The best-ranked statement row whose line item names `label` ("Long-term debt and other
    borrowings" for debt), or whose label is a wording of the line item the question names
    ("Inventories" for inventory), led with both its columns: the figures of one row are at
    one scale."""
    ranked = rank_spans(ask.frame, evidence)
    named = label.lower()
    wordings = [p for _, patterns in ask.frame.line_items for p in patterns]
    for span in ranked[:_ROWS_READ]:
        if span.row is None or not (named in span.name().lower() or any(
                p.search(span.row.label) for p in wordings)):
            continue
        if (lines := row_lead(span, ask, evidence, ranked)) is not None:
            return Draft(text="\n".join(lines))
    return None


def _stated_change(finding: Finding, ask: Ask, evidence: Evidence) -> str:
    """The finding's sentence, quoted and cited, where it states the change from the period the
    room states no figure of."""
    doc = evidence.documents.get(finding.document_id)
    return vocabulary().answer("span_states", ask.language,
                               document=doc.filename if doc else finding.document_id,
                               text=" ".join((finding.excerpt or "").split()),
                               cite=cite_findings([finding], evidence))


def _row_of(finding: Finding) -> tuple[str | None, str]:
    return finding.chunk_id, str(finding.attributes.get("row") or "")


def _rows_stating_all(evidence: Evidence, subject: str, periods: list[str]
                      ) -> set[tuple[str | None, str]]:
    """The statement rows that state the subject for every period compared: two periods of
    one figure are read from one row ("Cash and cash equivalents" of both year ends), not one
    from a row and the other from a sentence that counts more ("cash, cash equivalents and
    investments")."""
    rows: set[tuple[str | None, str]] | None = None
    for period in periods:
        dates = {period, balance_date(subject, period, evidence)}
        found = {_row_of(f) for f in findings_for(evidence, subject)
                 if f.value is not None and f.attributes.get("row") and f.period in dates}
        rows = found if rows is None else rows & found
    return rows or set()


def _lead(ask: Ask, evidence: Evidence, label: str, old: Reading, new: Reading,
          variance: str) -> str:
    """"Revenue was €5.2M in Q3 2024, against €4.7M in Q3 2023 (+€500k, +10.6%)": the first
    metric's change, with its sources, where a bare table header would otherwise stand first."""
    words, language = vocabulary(), ask.language
    text = words.answer("row_figure", language, item=label, figure=show(new.primary),
                        when=_when(new, language))
    text += words.answer("row_against", language, figure=show(old.primary),
                         when=_when(old, language))
    return f"{text} ({_moved(variance)}) {cite_findings([new.primary, old.primary], evidence)}."


def _when(reading: Reading, language: str) -> str:
    """"in FY2025" for a flow; a balance at the day its figure stands at ("at 31 December
    2025"), not "in FY2025"."""
    stated = reading.primary.period or ""
    if stated.startswith("as of ") and (day := parse_date(stated[6:])) is not None:
        return vocabulary().answer("period_at", language, day=day_said(day, language))
    return vocabulary().answer("period_in", language, period=period_name(reading.period))


def _moved(variance: str) -> str:
    """"+€500k (+10.6%)" said in one parenthesis: "+€500k, +10.6%"."""
    absolute, _, pct = variance.partition(" (")
    return f"{absolute}, {pct.rstrip(')')}" if pct else absolute


# "an increase of $6.91 billion from the end of 2022"
_CHANGE_BY = vocabulary().cues("change_from_period")
_COMPARING = vocabulary().cues("intent_comparison") | vocabulary().cues("intent_comparison_weak")


def _asks_other_things(ask: Ask) -> bool:
    """The question names something besides periods, the company and the comparison itself
    ("peer group", "shareholder return"), which no default metric's table answers."""
    when = set(ask.frame.ranking.when) | PERIOD_FORMS | set(content_terms(ask.entity or ""))
    return any(not _COMPARING.found(term) and not set(content_terms(term)) <= when
               for term in ask.frame.terms)


def _both_periods(evidence: Evidence, subject: str) -> list[str]:
    """Periods for which the room holds a forecast and an actual of `subject`."""
    pool = [f for f in findings_for(evidence, subject) if f.value is not None]
    planned = {f.period for f in pool if f.nature is Nature.FORECAST and f.period}
    done = {f.period for f in pool if f.nature is Nature.ACTUAL and f.period}
    return sorted(planned & done, key=periods_of_key)


def _forecast_vs_actual(ask: Ask, evidence: Evidence, subjects: list[str]) -> Draft:
    """A forecast or budget figure beside the actual for the same period, from the documents
    that state each, with the variance in absolute and % terms."""
    rows = ["| Metric | Period | Forecast / budget | Actual | Variance | Variance % |",
            "|---|---|---|---|---|---|"]
    sources: list[str] = []
    rests = []
    notes: list[str] = []
    lead = ""
    for subject in subjects:
        periods = _both_periods(evidence, subject)
        if ask.period:
            periods = [p for p in periods if p == ask.period]
        elif ask.frame.partial_period:
            periods = [p for p in periods if p.startswith(f"{ask.frame.partial_period} ")]
        if not periods:
            continue
        period = periods[-1]
        plan = read_fact(evidence, subject, period, nature=Nature.FORECAST)
        actual = read_fact(evidence, subject, period, nature=Nature.ACTUAL)
        if plan is None or actual is None or not plan.is_forecast or actual.is_forecast:
            continue
        label = ask.label_of(subject)
        variance = change(actual, plan)
        absolute, _, pct = variance.partition(" (")
        rows.append(f"| {label} | {period_name(period)} | {show(plan.primary)} | "
                    f"{show(actual.primary)} | {absolute} | {pct.rstrip(')') or 'n/a'} |")
        lead = lead or (f"{label} was {show(actual.primary)} in {period_name(period)} against "
                        f"a forecast of {show(plan.primary)} ({_moved(variance)}) "
                        f"{cite_findings([actual.primary, plan.primary], evidence)}.")
        plan_doc = evidence.document_of(plan.primary)
        sources.append(
            f"{label}: forecast in {evidence.filename(plan.primary.document_id)} "
            f"{dated(plan_doc)} {cite_findings([plan.primary], evidence)}, actual in "
            f"{evidence.filename(actual.primary.document_id)} "
            f"{cite_findings([actual.primary], evidence)}".replace("  ", " "))
        for reading in (plan, actual):
            for sentence in (correction_sentence(reading, evidence),
                             conflict_sentence(reading, evidence)):
                if sentence:
                    notes.append(f"- {label} {period_name(period)}: {sentence}")
        if plan.primary.document_id == actual.primary.document_id:
            notes.append(f"- {label}: the forecast and the actual come from the same document.")
        rests += [plan.primary, actual.primary]
    if not rests:
        pool = [f for s in subjects for f in findings_for(evidence, s) if f.period]
        planned = sorted({f.period for f in pool if f.nature is Nature.FORECAST},
                         key=periods_of_key)
        done = sorted({f.period for f in pool if f.nature is Nature.ACTUAL}, key=periods_of_key)
        asked = ask.period or ask.frame.partial_period
        why = ("no period has both a forecast and an actual in the room"
               + (f" for {asked}" if asked else "")
               + (f"; forecasts cover {', '.join(planned[-4:])}" if planned else "")
               + (f"; actuals cover {', '.join(done[-4:])}" if done else "") + ".")
        return no_data(ask, evidence, why=why, category="Financial")
    text = "\n".join([lead, "", *rows, "", "Sources — " + "; ".join(sources), "",
                      "Variance is actual minus forecast; the forecast is a plan, the actual "
                      "the reported result.", *notes])
    return Draft(text=text, proposals=approvals(rests), rests_on=rests)


def _forecast_versions(ask: Ask, evidence: Evidence, subjects: list[str]) -> Draft:
    """Two versions of a forecast side by side: the revision and how much it moved."""
    rows = ["| Metric | Period | Earlier forecast | Revised forecast | Variance | Variance % |",
            "|---|---|---|---|---|---|"]
    sources: list[str] = []
    rests = []
    lead = ""
    for subject in subjects:
        pool = [f for f in findings_for(evidence, subject) if f.nature is Nature.FORECAST]
        period = ask.period or (periods_of(pool)[-1] if pool else None)
        reading = read_fact(evidence, subject, period, nature=Nature.FORECAST) if period else None
        if reading is None or not reading.is_forecast:
            continue
        label = ask.label_of(subject)
        if reading.corrected_from:
            old = reading.corrected_from[0]
            old_reading = Reading(subject, label, period, old)
            variance = change(reading, old_reading)
            absolute, _, pct = variance.partition(" (")
            rows.append(f"| {label} | {period_name(period)} | {show(old)} | "
                        f"{show(reading.primary)} | {absolute} | {pct.rstrip(')') or 'n/a'} |")
            lead = lead or (f"The {in_text(label)} forecast for {period_name(period)} was revised "
                            f"from {show(old)} to {show(reading.primary)} ({_moved(variance)}) "
                            f"{cite_findings([reading.primary, old], evidence)}.")
            old_doc = evidence.document_of(old)
            new_doc = evidence.document_of(reading.primary)
            sources.append(
                f"{label}: earlier {dated(old_doc)} {cite_findings([old], evidence)}, "
                f"revised {dated(new_doc)} {cite_findings([reading.primary], evidence)}")
            rests += [reading.primary, old]
        else:
            rows.append(f"| {label} | {period_name(period)} | — | {show(reading.primary)} | "
                        "n/a | n/a |")
            sources.append(f"{label}: {cite_findings([reading.primary], evidence)}")
            rests.append(reading.primary)
    if not rests:
        return no_data(ask, evidence, why="the room holds no forecast for these metrics.",
                       category="Financial")
    text = "\n".join([*([lead, ""] if lead else []), *rows, "",
                      "Sources — " + "; ".join(sources), "",
                      "All figures are forecasts, not actuals; the revised version corrects "
                      "the earlier one."])
    return Draft(text=text, proposals=approvals(rests), rests_on=rests)
