"""One company's filings told apart by the period each reports.

Where the room holds several filings of the company asked about (a 10-K for fiscal 2023 and one
for fiscal 2025), a year asked is answered from the filing whose own period it is, even where a
later filing's comparative columns state it too (a later filing may restate); and a question
that names no year is answered from the latest, with what the earlier filing stated beside it.
"""

from __future__ import annotations

from collections.abc import Sequence

from manda.agent.evidence import Evidence
from manda.agent.relevance import stems_of
from manda.agent.spans import Span
from manda.finance.amounts import find_amounts
from manda.finance.fiscal import fiscal_year_named

__all__ = ["earlier_filing_span", "filing_years", "older_filing", "own_filings"]

# a span states the figure for the item asked when it covers the question's words nearly as
# well as the lead does (its own label or sentence may word the item otherwise): an earlier
# filing's span speaks of the lead's item so, and so does another place stating the lead's figure
NEAR_WORDS = 0.8


def filing_years(evidence: Evidence) -> dict[str, int]:
    """The fiscal year each dated document of the company asked about reports (the question's
    scope, else the room), by document id."""
    return {d.id: fiscal_year_named(d.doc_date) for d in evidence.documents.values()
            if d.doc_date and (evidence.scope is None or d.id in evidence.scope)}


def own_filings(evidence: Evidence, years: set[int]) -> set[str]:
    """The documents whose own period is one of the years asked, where the company has filings
    of more than one period (one filing is no choice)."""
    dated = filing_years(evidence)
    if len(set(dated.values())) < 2:
        return set()
    return {i for i, year in dated.items() if year in years}


def older_filing(evidence: Evidence, document_id: str) -> bool:
    """The document is a filing of the company of an earlier period than its latest one."""
    dated = filing_years(evidence)
    own = dated.get(document_id)
    return own is not None and own < max(dated.values())


def earlier_filing_span(lead: Span, ranked: Sequence[Span], evidence: Evidence) -> Span | None:
    """Where the lead is of the company's latest filing and the question names no year: the best
    span of an earlier filing of the company that states an amount for the lead's item (its
    label's words, else the question's words nearly as well as the lead covers them)."""
    dated = filing_years(evidence)
    lead_year = dated.get(lead.source.document_id)
    if lead_year is None or lead_year < max(dated.values()):
        return None
    said = stems_of(lead.row.label) if lead.row is not None else set()
    for span in ranked:
        year = dated.get(span.source.document_id)
        if year is None or year >= lead_year or not _states_amount(span):
            continue
        label = stems_of(span.row.label) if span.row is not None else set()
        if (said and label and (said <= label or label <= said)) or (
                lead.words and span.words >= NEAR_WORDS * lead.words):
            return span
    return None


def _states_amount(span: Span) -> bool:
    if span.row is not None:
        return any(f.value is not None for f in span.figures())
    return any(a.currency and a.value for a in find_amounts(span.text))
