"""A figure asked of no company in a room of several companies' documents: each company's own
figure with its source, said by company, never as a conflict between them."""

from __future__ import annotations

from collections.abc import Callable

from manda.agent.compose.common import Ask, Draft
from manda.agent.evidence import Evidence
from manda.agent.relevance import PERIOD_FORMS, stems_of, term_in
from manda.agent.selection import findings_for, read_fact
from manda.vocabulary import vocabulary


def answer(ask: Ask, evidence: Evidence, one: Callable[[Ask, Evidence], Draft]) -> Draft | None:
    """Each company's answer to `ask` (`one`, as its documents alone answer it), one line a
    company, under a line that says why; None where the question names a company, the room
    is one company's or its deal's target leads, or fewer than two companies state the figure.
    A figure of a document that names no company leaves the room as it was read before."""
    room = evidence.companies
    if (ask.subject is None or ask.entity or evidence.scope is not None or not room.several
            or room.target is not None):
        return None
    owners: dict[str, list[str]] = {}
    for finding in findings_for(evidence, ask.subject):
        company = room.of(finding.document_id)
        if finding.value is None:
            continue
        if company is None:
            return None  # whose figure it is cannot be said
        name = room.company(company) or company
        if finding.document_id not in owners.setdefault(name, []):
            owners[name].append(finding.document_id)
    if len(owners) < 2:
        return None
    if (only := _singled_out(ask, evidence)) is not None:
        return one(ask, _of_company(evidence, only))  # "iPhone revenue": Apple's, by its word
    parts: list[tuple[str, Draft]] = []
    for name in sorted(owners, key=room.names().index):
        view = _of_company(evidence, name)
        if read_fact(view, ask.subject, ask.period) is None:
            continue  # this company states no figure for the period asked
        draft = one(ask, view)
        if draft.rests_on and not draft.offer_qa:
            parts.append((name, draft))
    if len(parts) < 2:
        return None
    lead = vocabulary().answer("by_company", ask.language, count=len(room.names()))
    lines = [f"- **{name}**: {draft.text}" for name, draft in parts]
    return Draft(text="\n".join([lead, *lines]),
                 proposals=[a for _, d in parts for a in d.proposals],
                 rests_on=[f for _, d in parts for f in d.rests_on],
                 cautions=[c for _, d in parts for c in d.cautions])


def _of_company(evidence: Evidence, name: str) -> Evidence:
    room = evidence.companies
    return evidence.of_documents(d for d in evidence.documents if room.is_of(d, name))


def _singled_out(ask: Ask, evidence: Evidence) -> str | None:
    """The one company whose passages alone say a word the question asks beyond its metric and
    period ("iPhone" of "iPhone revenue in fiscal 2025"), where no word points at another."""
    asked = ask.frame.ranking
    named = {t for group, _ in asked.said_otherwise for t in group}
    terms = [t for t in asked.terms if t not in asked.when and t not in named
             and t not in PERIOD_FORMS and not t.isdigit()]
    if not terms:
        return None
    room = evidence.companies
    said: dict[str, set[str]] = {}  # each company's passages' words
    for hit in evidence.hits:
        if (company := room.of(hit.document_id)) is not None:
            said.setdefault(room.company(company) or company, set()).update(stems_of(hit.text))
    if len(said) < 2:
        return None  # the passages of one company only: no word tells companies apart
    alone = set()
    for term in terms:
        saying = {name for name, stems in said.items() if term_in(term, stems)}
        if len(saying) == 1:
            alone |= saying
    return alone.pop() if len(alone) == 1 else None
