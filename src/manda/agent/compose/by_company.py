"""A figure asked of no company in a room of several companies' documents: each company's own
figure with its source, said by company, never as a conflict between them."""

from __future__ import annotations

from collections.abc import Callable

from manda.agent.compose.common import Ask, Draft
from manda.agent.compose.passages import document_covers
from manda.agent.evidence import Evidence
from manda.agent.relevance import NOT_FOUND_BELOW, PERIOD_FORMS, stems_of, term_in
from manda.agent.selection import findings_for, read_fact
from manda.agent.spans import rank_spans
from manda.finance.vocabulary import metric_spec
from manda.vocabulary import vocabulary


def answer(ask: Ask, evidence: Evidence, one: Callable[[Ask, Evidence], Draft]) -> Draft | None:
    """Each company's answer to a figure asked (`one`, as its documents alone answer it), one
    line a company, under a line that says why; the company's alone where a word of the
    question only its documents say ("iPhone"). None where the question names a company, the
    room is one company's or its deal's target leads, or fewer than two companies state it."""
    room = evidence.companies
    if (ask.entity or evidence.scope is not None or not room.several
            or room.target is not None
            or not (ask.subject or ask.frame.answer_kind == "figure")):
        return None
    metric = _metric(ask)
    owners = _stating(ask, evidence, metric)
    if owners is None or len(owners) < 2:
        return None
    if (only := _singled_out(ask, evidence)) is not None:
        return one(ask, _of_company(evidence, only))  # "iPhone revenue": Apple's, by its word
    parts: list[tuple[str, Draft]] = []
    for name in sorted(owners, key=room.names().index):
        view = _of_company(evidence, name)
        if metric is not None and read_fact(view, metric, ask.period) is None:
            continue  # this company states no figure for the period asked
        if metric is None and not all(
                any(document_covers(d, year) for d in view.documents.values())
                for year in _years(ask)):
            continue  # nor any document that could state the period asked
        draft = one(ask, view)
        if draft.offer_qa or (metric is not None and not draft.rests_on):
            continue
        # a passage's answer: its lead, the line that quotes and cites the figure
        parts.append((name, draft if metric else Draft(text=draft.text.splitlines()[0])))
    if len(parts) < 2:
        return None
    lead = vocabulary().answer("by_company", ask.language, count=len(room.names()))
    lines = [f"- **{name}**: {draft.text}" for name, draft in parts]
    return Draft(text="\n".join([lead, *lines]),
                 proposals=[a for _, d in parts for a in d.proposals],
                 rests_on=[f for _, d in parts for f in d.rests_on],
                 cautions=[c for _, d in parts for c in d.cautions])


def _metric(ask: Ask) -> str | None:
    """The metric asked, whose findings state it; a statement line ("total assets") is never
    extracted: the passages that state it answer for each company."""
    return ask.subject if ask.subject and metric_spec(ask.subject) is not None else None


def _stating(ask: Ask, evidence: Evidence, metric: str | None) -> dict[str, list[str]] | None:
    """The companies whose documents state what is asked, with those documents: a metric's
    findings, else the passages that answer it; None when a document of no company does."""
    room = evidence.companies
    if metric is not None:
        places = [f.document_id for f in findings_for(evidence, metric)
                  if f.value is not None]
    else:
        places = [s.source.document_id for s in rank_spans(ask.frame, evidence)
                  if s.words >= NOT_FOUND_BELOW]
    owners: dict[str, list[str]] = {}
    for document_id in places:
        company = room.of(document_id)
        if company is None:
            return None  # whose figure it is cannot be said
        name = room.company(company) or company
        if document_id not in owners.setdefault(name, []):
            owners[name].append(document_id)
    return owners


def _years(ask: Ask) -> set[int]:
    return set(ask.frame.period_years)


def _of_company(evidence: Evidence, name: str) -> Evidence:
    room = evidence.companies
    return evidence.of_documents(d for d in evidence.documents if room.is_of(d, name))


def _singled_out(ask: Ask, evidence: Evidence) -> str | None:
    """The one company whose documents alone say a word the question asks beyond its metric
    and period ("iPhone" of "iPhone revenue in fiscal 2025", or the company's own name written
    small), where no word points at another: its passages, its findings and its name read."""
    asked = ask.frame.ranking
    named = {t for group, _ in asked.said_otherwise for t in group}
    terms = [t for t in asked.terms if t not in asked.when and t not in named
             and t not in PERIOD_FORMS and not t.isdigit()]
    if not terms:
        return None
    said = _said_by_company(evidence)
    alone = {owner for term in terms if (owner := _owner(_saying(term, said))) is not None}
    return alone.pop() if len(alone) == 1 else None


def company_saying(name: str, evidence: Evidence) -> str | None:
    """The company whose word a name is, by the passages read ("Azure": Microsoft's, whose
    filing says it again and again), where no document is named after it; None where no
    company's passages say it, or several do about as often."""
    words = [w for w in stems_of(name) if not w.isdigit()]
    if not words or not evidence.companies.several:
        return None
    said = _said_by_company(evidence)
    owners = {_owner(_saying(word, said)) for word in words}
    return owners.pop() if len(owners) == 1 else None


def _said_by_company(evidence: Evidence) -> dict[str, list[set[str]]]:
    """Each company's texts read (passages, findings, file names), as the words they say."""
    room = evidence.companies
    said: dict[str, list[set[str]]] = {}
    texts = [(h.document_id, h.text) for h in evidence.hits]
    texts += [(f.document_id, f.excerpt) for f in evidence.usable_findings()]
    texts += [(d.id, f"{d.filename} {d.company or ''}") for d in evidence.documents.values()]
    for document_id, text in texts:
        if (company := room.of(document_id)) is not None:
            said.setdefault(room.company(company) or company, []).append(stems_of(text))
    return said


def _saying(term: str, said: dict[str, list[set[str]]]) -> dict[str, int]:
    return {name: sum(1 for stems in texts if term_in(term, stems))
            for name, texts in said.items()}


OWN_WORD_TIMES = 3  # a word one company's texts say this many times as often as all others'


def _owner(saying: dict[str, int]) -> str | None:
    """The company whose word it is: the only one whose texts say it, or the one whose texts
    say it far more often than all the others' ("AWS" in Amazon's passages, and once in a
    customer's risk factor about its cloud provider)."""
    ranked = sorted(((n, name) for name, n in saying.items() if n), reverse=True)
    if not ranked:
        return None
    (top, name), others = ranked[0], sum(n for n, _ in ranked[1:])
    return name if not others or (top >= OWN_WORD_TIMES and top >= OWN_WORD_TIMES * others) \
        else None
