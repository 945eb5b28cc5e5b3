"""synthesis: an aggregated summary across documents, and what is missing from it."""

from __future__ import annotations

from manda.agent.compose.common import (
    Ask,
    Draft,
    approvals,
    best_sentences,
    cite_findings,
    mentions,
    no_data,
    qa_action,
)
from manda.agent.evidence import Evidence
from manda.agent.gaps import Coverage
from manda.agent.grounding import cite
from manda.agent.selection import Reading, choose_period, findings_for, read_fact, show
from manda.agent.translate import period_phrase
from manda.agent.unusual import scan
from manda.models import Finding, Nature
from manda.vocabulary import vocabulary

# The headline metrics of a financial profile, in the order a deal team reads them.
PROFILE: tuple[str, ...] = (
    "revenue", "ebitda", "gross margin", "net income", "arr", "net revenue retention", "cash",
    "debt", "headcount",
)
ANNUAL: tuple[str, ...] = ("revenue", "ebitda", "net income")


def latest(evidence: Evidence, subject: str, *, nature: Nature = Nature.ACTUAL,
           full_year: bool = False) -> Reading | None:
    pool = [f for f in findings_for(evidence, subject) if f.value is not None
            and f.nature is nature and (not full_year or (f.period or "").startswith("FY"))]
    if not pool:
        return None
    period = choose_period(pool, period=None, wants_forecast=nature is Nature.FORECAST)
    return read_fact(evidence, subject, period, nature=nature)


def reading_line(reading: Reading, evidence: Evidence) -> str:
    note = ""
    if reading.corrected_from:
        old = reading.corrected_from[0]
        note = (f"; corrected from {show(old)} in {evidence.filename(old.document_id)} "
                f"{cite_findings([old], evidence)}")
    if reading.conflicts:
        other = reading.conflicts[0]
        note += (f"; conflicts with {show(other)} in {evidence.filename(other.document_id)} "
                 f"{cite_findings([other], evidence)}")
    kind = " (forecast)" if reading.is_forecast else ""
    entity = reading.primary.entity
    label = f"{reading.label} — {entity}" if entity and entity.lower() not in \
        reading.label.lower() else reading.label
    when = f" {period_phrase(reading.period)}" if reading.period else ""
    return (f"- {label}{kind}: {show(reading.primary)}{when} "
            f"{cite_findings([reading.primary, *reading.support[:1]], evidence)}{note}")


def compose(ask: Ask, evidence: Evidence) -> Draft:
    if ask.entity and not ask.subject:
        return _about_entity(ask, evidence)
    subjects = list(ask.frame.subjects) or list(PROFILE)
    lines: list[str] = []
    missing: list[str] = []
    rests: list[Finding] = []
    for subject in subjects:
        reading = latest(evidence, subject)
        if reading is None:
            missing.append(subject)
            continue
        lines.append(reading_line(reading, evidence))
        rests.append(reading.primary)
    years: list[str] = []
    for subject in [s for s in subjects if s in ANNUAL]:
        year = latest(evidence, subject, full_year=True)
        if year is not None:
            years.append(reading_line(year, evidence))
            rests.append(year.primary)
    outlook: list[str] = []
    for subject in subjects[:2]:
        forecast = latest(evidence, subject, nature=Nature.FORECAST)
        if forecast is not None:
            outlook.append(reading_line(forecast, evidence))
            rests.append(forecast.primary)
    risks = [f"- {i.topic.flag_label}: {i.statement} {cite([i.source])}" for i in scan(evidence)]
    if not lines and not outlook and not risks:
        return no_data(ask, evidence, why="no extracted figures match it.", category="Financial")
    parts = ["**Key figures (most recent actuals)**", *lines]
    if years:
        parts += ["", "**Last full year**", *years]
    if outlook:
        parts += ["", "**Outlook (forecasts, not actuals)**", *outlook]
    if risks:
        parts += ["", "**Points to note**", *risks[:5]]
    gap_text, proposals = _missing(evidence, missing)
    parts += ["", "**What is missing**", *gap_text]
    return Draft(text="\n".join(parts), proposals=proposals + approvals(rests),
                 offer_qa=bool(proposals), rests_on=rests)


def _missing(evidence: Evidence, subjects: list[str]) -> tuple[list[str], list]:
    lines: list[str] = []
    proposals = []
    if subjects:
        lines.append("- Not stated in any document: " + ", ".join(subjects) + ".")
    coverage = evidence.coverage
    if isinstance(coverage, Coverage) and coverage.gaps:
        open_items = "; ".join(g.item.title for g in coverage.gaps[:6])
        lines.append(f"- Open checklist items ({len(coverage.gaps)}/{coverage.total}): "
                     f"{open_items}.")
        proposals = [qa_action(g.item.question, g.item.category) for g in coverage.gaps]
        lines.append("Shall I add the open items to the Q&A list?")
    if not lines:
        lines.append("- Nothing obvious: every headline metric is stated.")
    return lines, proposals


def _about_entity(ask: Ask, evidence: Evidence) -> Draft:
    assert ask.entity is not None
    if not mentions(evidence, ask.entity):
        return no_data(ask, evidence, why=vocabulary().answer("not_mentioned", ask.language,
                                                               name=ask.entity))
    wanted = ask.entity.lower()
    facts = [f for f in evidence.usable_findings()
             if f.value is not None and f.unit
             and wanted in " ".join(filter(None, [f.entity, f.subject, f.label])).lower()]
    lines = []
    seen: set[tuple[str, float | None]] = set()
    for finding in facts:
        if (finding.subject, finding.value) in seen:
            continue
        seen.add((finding.subject, finding.value))
        when = f" {period_phrase(finding.period)}" if finding.period else ""
        lines.append(f"- {finding.label}: {show(finding)}{when} "
                     f"{cite_findings([finding], evidence)}")
    for sentence, source in best_sentences(evidence, [*ask.entity.split(), *ask.frame.terms],
                                           limit=4, must=[ask.entity.split()[0]]):
        lines.append(f"- {sentence} {cite([source])}")
    lines = list(dict.fromkeys(lines))
    if not lines:
        return no_data(ask, evidence, why=f"{ask.entity} is named, but nothing more is stated.")
    shown = lines[:8]
    named_in = sorted({s.document for s in evidence.sources() if any(
        s.document in line for line in shown)})
    lead = (f"What the room says about {ask.entity}, from {len(named_in)} document"
            f"{'s' if len(named_in) != 1 else ''}:") if named_in else \
        f"What the room says about {ask.entity}:"
    text = "\n".join([lead, *shown, "",
                      f"Shall I add a request for full details on {ask.entity} to the Q&A list?"])
    question = f"Please provide full details on {ask.entity} (contracts, terms, exposure)."
    return Draft(text=text, proposals=[qa_action(question, "Commercial"), *approvals(facts)],
                 offer_qa=True, rests_on=facts)
