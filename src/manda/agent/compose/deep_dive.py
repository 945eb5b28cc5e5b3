"""deep_dive: a headed breakdown of one metric over time, its trend, and what is unusual in it."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from manda.agent.compose.common import (
    Ask,
    Draft,
    approvals,
    best_sentences,
    cite_findings,
    conflict_sentence,
    correction_sentence,
    with_assumption,
)
from manda.agent.compose.stated import of_another_period
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.selection import (
    Reading,
    best_of,
    findings_for,
    read_fact,
    same_kind_periods,
    series,
    show,
)
from manda.agent.translate import period_name
from manda.agent.unusual import scan
from manda.finance.amounts import format_amount
from manda.finance.periods import previous_period, same_quarter_last_year
from manda.models import Nature

_EARNINGS = {"ebitda", "adjusted ebitda", "ebit", "net income", "operating expenses",
             "ebitda margin", "one-time charges"}


def _lead(label: str, first: Reading, last: Reading, evidence: Evidence) -> str:
    """"Revenue rose 20.0% from €3M in Apr 2024 to €3.6M in Mar 2025 (sources: …)."."""
    a, b = last.primary.value or 0.0, first.primary.value or 0.0
    verb = "rose" if a > b else "fell" if a < b else "was unchanged"
    by = (f" {abs(a - b) / abs(b) * 100:.1f}%" if b and a != b and last.primary.unit != "%"
          else "")
    return (f"{label} {verb}{by} from {show(first.primary)} in {first.period} to "
            f"{show(last.primary)} in {last.period} "
            f"{cite_findings([first.primary, last.primary], evidence)}.")


def change(new: Reading, old: Reading) -> str:
    """"+€0.5M (+10.6%)": variance in absolute and % terms, from two stated values."""
    a, b = new.primary.value or 0.0, old.primary.value or 0.0
    unit = new.primary.unit
    diff = a - b
    if unit == "%":
        return f"{diff:+.1f} percentage points"
    sign = "+" if diff >= 0 else "-"
    absolute = f"{sign}{format_amount(abs(diff), unit)}"
    if not b:
        return absolute
    return f"{absolute} ({diff / abs(b) * 100:+.1f}%)"


def table(readings: Sequence[Reading], evidence: Evidence, label: str) -> list[str]:
    rows = [f"| Period | {label} | Source |", "|---|---|---|"]
    for r in readings:
        note = " (forecast)" if r.is_forecast else ""
        rows.append(f"| {period_name(r.period)} | {show(r.primary)}{note} | "
                    f"{cite_findings([r.primary], evidence)} |")
    return rows


def trend_lines(readings: Sequence[Reading]) -> list[str]:
    by_period = {r.period: r for r in readings}
    if len(readings) < 2:
        return []
    last = readings[-1]
    lines = []
    if last.period:
        prev = by_period.get(previous_period(last.period))
        if prev is not None:
            lines.append(f"- {last.period} vs {prev.period}: {change(last, prev)}")
        year_ago = by_period.get(same_quarter_last_year(last.period))
        if year_ago is not None and year_ago is not prev:
            lines.append(f"- {last.period} vs {year_ago.period}: {change(last, year_ago)}")
    first = readings[0]
    if first is not last and len(readings) > 2 and first.period not in (
            previous_period(last.period or ""), same_quarter_last_year(last.period or "")):
        lines.append(f"- Over the series, from {first.period} to {last.period}: "
                     f"{change(last, first)}")
    return lines


def anomaly_lines(ask: Ask, readings: Sequence[Reading], evidence: Evidence,
                  others: Sequence[Reading] = ()) -> list[str]:
    lines: list[str] = []
    one_time = [f for f in findings_for(evidence, "one-time charges") if f.value is not None]
    for previous, current in pairwise(readings):
        if (current.primary.value or 0) < (previous.primary.value or 0):
            line = (f"- {current.period}: down to {show(current.primary)} from "
                    f"{show(previous.primary)} in {previous.period}")
            charge = [f for f in one_time if f.period == current.period
                      and not of_another_period(f, current.period, evidence)]
            if charge and ask.subject in _EARNINGS:
                first = best_of(charge, evidence)
                line += (f", after a one-time charge of {show(first)} "
                         f"{cite_findings([first], evidence)}; excluding it, the dip is not "
                         "a trend")
            lines.append(line + ".")
    if ask.subject in _EARNINGS or ask.subject is None:
        for item in scan(evidence):
            if item.topic.key == "one_time_items":
                lines.append(f"- One-time item: {item.statement} {cite([item.source])}")
    for r in [*readings, *others]:
        for sentence in (correction_sentence(r, evidence), conflict_sentence(r, evidence)):
            if sentence:
                lines.append(f"- {r.period}: {sentence}")
    return lines


def compose(ask: Ask, evidence: Evidence) -> Draft:
    if not ask.subject:
        return _topic(ask, evidence)
    actuals = series(evidence, ask.subject, entity=ask.entity)
    if ask.period:
        actuals = [r for r in actuals if r.period == ask.period] or actuals
    readings = same_kind_periods(actuals)
    forecasts = series(evidence, ask.subject, nature=Nature.FORECAST, entity=ask.entity)
    if not readings and not forecasts:
        from manda.agent.compose import fact_lookup

        return fact_lookup.compose(ask, evidence)
    label = readings[0].label if readings else forecasts[0].label
    parts: list[str] = []
    if readings:
        if len(readings) >= 2:  # the answer first: where the series went, then the table
            parts += [_lead(label, readings[0], readings[-1], evidence), ""]
        parts += [f"**{label} by period**", "", *table(readings, evidence, label)]
        others = [r for r in actuals if r not in readings]
        if others:
            parts.append("Other periods: " + "; ".join(
                f"{r.period} {show(r.primary)} {cite_findings([r.primary], evidence)}"
                for r in others[-3:]))
        trend = trend_lines(readings)
        if trend:
            parts += ["", "**Trend**", *trend]
    others = [r for r in actuals if r not in readings]
    anomalies = anomaly_lines(ask, readings, evidence, others)
    if anomalies:
        parts += ["", "**Anomalies and caveats**", *anomalies]
    if forecasts:
        parts += ["", "**Forecast**"]
        for f in forecasts[-2:]:
            revised = correction_sentence(f, evidence)
            parts.append(f"- {f.period}: {show(f.primary)} — a forecast, not an actual "
                         f"{cite_findings([f.primary], evidence)}. {revised}".rstrip())
    rests = [r.primary for r in [*readings, *forecasts]]
    text = "\n".join(parts)
    if ask.assumption:
        text = with_assumption(ask.assumption, f"here is the breakdown.\n{text}")
    return Draft(text=text, proposals=approvals(rests), rests_on=rests)


def _topic(ask: Ask, evidence: Evidence) -> Draft:
    """A topic that is not a metric: what each document says about it, one heading each."""
    found = best_sentences(evidence, list(ask.frame.terms), limit=6)
    if not found:
        from manda.agent.compose import fact_lookup

        return fact_lookup.compose(ask, evidence)
    by_doc: dict[str, list[str]] = {}
    for sentence, source in found:
        by_doc.setdefault(source.document, []).append(f"- {sentence} {cite([source])}")
    parts: list[str] = []
    for document, lines in by_doc.items():
        parts += [f"**{document}**", *lines, ""]
    return Draft(text="\n".join(parts).strip())


__all__ = ["change", "compose", "read_fact"]
