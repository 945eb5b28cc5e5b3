"""A figure asked of no company in a room of several companies' documents: each company's own
figure with its source, said by company, never as a conflict between them."""

from __future__ import annotations

from collections.abc import Callable

from manda.agent.compose.common import Ask, Draft
from manda.agent.evidence import Evidence
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
    parts: list[tuple[str, Draft]] = []
    for name in sorted(owners, key=room.names().index):
        view = evidence.of_documents(d for d in evidence.documents if room.is_of(d, name))
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
