"""fact_lookup: one sourced sentence, plus the correction, conflict or forecast caveat it needs."""

from __future__ import annotations

import re

from manda.agent.compose.common import (
    Ask,
    Draft,
    approvals,
    best_sentences,
    cite_findings,
    describe_reading,
    mentions,
    no_data,
    qa_action,
    qa_offer,
    with_assumption,
)
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.selection import (
    Reading,
    best_of,
    choose_period,
    findings_for,
    in_text,
    periods_of,
    read_fact,
    show,
    subject_label,
)
from manda.agent.translate import period_name, period_phrase
from manda.agent.unusual import TOPICS, scan
from manda.finance.amounts import same_amount
from manda.models import Finding, FindingKind, Nature

ROLES = {
    "ceo": "chief executive officer",
    "cfo": "chief financial officer",
    "cto": "chief technology officer",
    "coo": "chief operating officer",
    "chairman": "chair",
    "founder": "founder",
    "auditor": "auditor",
}
ROLE_QUESTION = re.compile(r"\b(ceo|cfo|cto|coo|chairman|founder|auditor|chief \w+ officer)\b",
                     re.IGNORECASE)
_ASKS_ROLE = re.compile(r"\b(?:role|title|position|job|who is|who's|what does .* do)\b",
                        re.IGNORECASE)


def compose(ask: Ask, evidence: Evidence) -> Draft:
    if ask.entity and not mentions(evidence, ask.entity):
        return no_data(
            ask, evidence,
            why=f"no document of this deal mentions {ask.entity}.",
            category="General",
        )
    if ask.subject:
        return _metric(ask, evidence)
    return _topic(ask, evidence)


# ---------------------------------------------------------------- metrics


def _other_nature(ask: Ask, evidence: Evidence, reading: Reading) -> str:
    """"This was a forecast; actuals show …" when both exist for the period."""
    other = Nature.FORECAST if not reading.is_forecast else Nature.ACTUAL
    alt = read_fact(evidence, reading.subject, reading.period, entity=ask.entity, nature=other)
    if alt is None or alt.primary.nature is not other or same_amount(
        alt.primary.value or 0.0, reading.primary.value or 0.0
    ):
        return ""
    if other is Nature.FORECAST:
        return (f"{evidence.filename(alt.primary.document_id)} had forecast {show(alt.primary)} "
                f"for {period_name(reading.period)} {cite_findings([alt.primary], evidence)}; "
                f"actuals show {show(reading.primary)}.")
    return ""


def _metric(ask: Ask, evidence: Evidence) -> Draft:
    assert ask.subject is not None
    label = subject_label(ask.subject) or ask.subject
    pool = [f for f in findings_for(evidence, ask.subject, entity=ask.entity)
            if f.value is not None]
    if not pool:
        topical = _asked_topics(ask, evidence)
        if topical is not None:
            return topical
        return _from_passages(ask, evidence, f"no document states {in_text(label)}"
                              + (f" for {ask.period}" if ask.period else "") + ".")
    period = choose_period(pool, period=ask.period, partial=ask.frame.partial_period,
                           wants_forecast=ask.frame.wants_forecast)
    in_period = [f for f in pool if f.period == period]
    actual = any(f.nature is Nature.ACTUAL for f in in_period)
    wants = Nature.FORECAST if ask.frame.wants_forecast or not actual else Nature.ACTUAL
    reading = read_fact(evidence, ask.subject, period, entity=ask.entity, nature=wants)
    if reading is None:
        return _missing_period(ask, evidence, label, pool)
    text = describe_reading(reading, evidence, ask.assumption)
    for extra in (_other_nature(ask, evidence, reading), _one_time_note(evidence, reading)):
        if extra:
            text = f"{text} {extra}"
    return Draft(text=text, proposals=approvals([reading.primary]), rests_on=reading.findings)


EARNINGS = {"ebitda", "ebit", "net income", "ebitda margin", "operating expenses"}


def _one_time_note(evidence: Evidence, reading: Reading) -> str:
    """Earnings that include a one-time charge say so, with the adjusted figure when stated."""
    if reading.subject not in EARNINGS or reading.is_forecast:
        return ""
    charges = [f for f in findings_for(evidence, "one-time charges")
               if f.value is not None and f.period == reading.period]
    if not charges:
        return ""
    charge = best_of(charges, evidence)
    note = (f"This is after a one-time charge of {show(charge)} "
            f"{cite_findings([charge], evidence)}")
    adjusted = read_fact(evidence, "adjusted ebitda", reading.period) \
        if reading.subject == "ebitda" else None
    if adjusted is not None:
        note += (f"; excluding it, adjusted EBITDA was {show(adjusted.primary)} "
                 f"{cite_findings([adjusted.primary], evidence)}")
    return note + "."


def _missing_period(ask: Ask, evidence: Evidence, label: str, pool: list[Finding]) -> Draft:
    periods = periods_of(f for f in pool if f.nature is Nature.ACTUAL)
    forecasts = periods_of(f for f in pool if f.nature is Nature.FORECAST)
    have = ", ".join(periods[-5:]) or "no period"
    why = (f"no document states {in_text(label)} for {ask.period}. The room has it for {have}"
           + (f" (forecasts: {', '.join(forecasts)})" if forecasts else "") + ".")
    draft = no_data(ask, evidence, why=why, category="Financial")
    latest = read_fact(evidence, ask.subject or "", periods[-1]) if periods else None
    if latest is not None:
        lines = draft.text.split("\n")
        lines.insert(1, f"- Most recent: {describe_reading(latest, evidence)}")
        draft.text = "\n".join(lines)
        draft.rests_on = latest.findings
    return draft


def _from_passages(ask: Ask, evidence: Evidence, why: str) -> Draft:
    terms = list(ask.frame.terms)
    found = best_sentences(evidence, terms, limit=1)
    if found and ask.subject:
        words = (subject_label(ask.subject) or "").lower().split()
        found = [(s, src) for s, src in found if any(w in s.lower() for w in words)]
    if not found:
        return no_data(ask, evidence, why=why, category="Financial")
    sentence, source = found[0]
    text = f"{source.document} states: “{sentence}” {cite([source])}"
    return Draft(text=with_assumption(ask.assumption, text))


# ---------------------------------------------------------------- people, contracts, topics


def _people(evidence: Evidence) -> list[Finding]:
    return [f for f in evidence.usable_findings()
            if f.kind is FindingKind.PERSON or f.subject.startswith("person:")]


def _role_of(finding: Finding) -> str | None:
    for key in ("role", "title", "position"):
        if finding.attributes.get(key):
            return finding.attributes[key]
    text = (finding.value_text or "").strip()
    return text or None


def _person_name(finding: Finding) -> str:
    if finding.entity:
        return finding.entity
    return finding.label.split(" — ")[0].split(" - ")[0]


def _topic(ask: Ask, evidence: Evidence) -> Draft:
    question = ask.question
    role_match = ROLE_QUESTION.search(question)
    if role_match and not ask.entity:
        return _who_has_role(ask, evidence, role_match.group(1).lower())
    if ask.entity:
        person = [f for f in _people(evidence) if _matches(f, ask.entity)]
        if person or _ASKS_ROLE.search(question):
            return _person(ask, evidence, person)
        entity_findings = [f for f in evidence.usable_findings()
                           if f.value is not None and _matches(f, ask.entity)]
        if entity_findings:
            return _entity_facts(ask, evidence, entity_findings)
    asked = [t for t in TOPICS if t.asked.search(question)]
    if asked:
        topical = _asked_topics(ask, evidence)
        if topical is not None:
            return topical
        topic = asked[0]
        return no_data(ask, evidence, why=f"no document describes {topic.label.lower()} items.",
                       category=topic.category)
    must = [ask.entity] if ask.entity else []
    found = best_sentences(evidence, list(ask.frame.terms), limit=2, must=must)
    if not found:
        about = " ".join(ask.frame.terms[:4])
        return no_data(ask, evidence, why=f"none of the passages found mentions “{about}”."
                       if about else "no passage speaks to it.")
    lines = [f"{src.document} states: “{s}” {cite([src])}" for s, src in found[:1]]
    return Draft(text=with_assumption(ask.assumption, "\n".join(lines)))


def _asked_topics(ask: Ask, evidence: Evidence) -> Draft | None:
    """Litigation, covenants, change of control…: the best statement of each topic asked."""
    asked = [t for t in TOPICS if t.asked.search(ask.question)]
    items = [i for i in scan(evidence) if i.topic in asked]
    if not items:
        return None
    lines = [f"{i.topic.label}: {i.statement} {cite([i.source])}" for i in items]
    return Draft(text=with_assumption(ask.assumption, "\n".join(lines)))


def _matches(finding: Finding, entity: str) -> bool:
    wanted = entity.lower()
    blob = " ".join(filter(None, [finding.entity, finding.subject, finding.label])).lower()
    return wanted in blob or (len(wanted.split()[0]) > 3 and wanted.split()[0] in blob)


def _who_has_role(ask: Ask, evidence: Evidence, role: str) -> Draft:
    wanted = ROLES.get(role, role)
    holders = [f for f in _people(evidence)
               if wanted in " ".join(filter(None, [_role_of(f), f.label, f.excerpt])).lower()]
    if holders:
        best = holders[0]
        name = _person_name(best)
        title = _role_of(best) or wanted.title()
        return Draft(
            text=with_assumption(ask.assumption,
                                 f"{name} is the {title} {cite_findings([best], evidence)}."),
            proposals=approvals([best]), rests_on=[best],
        )
    found = best_sentences(evidence, [*wanted.split(), *ask.frame.terms], limit=1,
                           must=[wanted])
    if found:
        sentence, source = found[0]
        return Draft(text=f"{source.document} states: “{sentence}” {cite([source])}")
    return no_data(ask, evidence, why=f"no document names the {wanted}.", category="HR")


def _person(ask: Ask, evidence: Evidence, person: list[Finding]) -> Draft:
    assert ask.entity is not None
    with_role = [f for f in person if _role_of(f)]
    if with_role:
        best = with_role[0]
        return Draft(
            text=with_assumption(
                ask.assumption,
                f"{_person_name(best)} is {_role_of(best)} {cite_findings([best], evidence)}."),
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
    where = cite_findings(_distinct_docs(same)[:2], evidence)
    when = f" {period_phrase(best.period)}" if best.period else ""
    text = f"{best.label}: {show(best)}{when} {where}."
    return Draft(text=with_assumption(ask.assumption, text), proposals=approvals([best]),
                 rests_on=same)


def _distinct_docs(findings: list[Finding]) -> list[Finding]:
    seen: set[str] = set()
    out = []
    for f in findings:
        if f.document_id not in seen:
            seen.add(f.document_id)
            out.append(f)
    return out


__all__ = ["compose", "qa_action", "qa_offer"]
