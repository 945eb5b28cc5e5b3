"""A figure of the filing that covers the period asked (issue 25, wrong figures): where a room
holds two annual reports of one company, a sentence of the later one dated after the year asked
states its own period's balance, and a sentence that states the balance asked before an aside
("…, with $6.5 billion expected to be paid within 12 months") states it as a fact. The documents
are written for the tests."""

from __future__ import annotations

from datetime import date

from test_filings_leads import DOC, _ask

from manda.agent.evidence import Evidence
from manda.agent.spans import rank_spans
from manda.agent.spans.sentences import main_clause
from manda.models import Location, SearchHit

OLD = DOC.model_copy(update={"id": "old", "filename": "Annual_2023.pdf",
                             "doc_date": date(2023, 12, 31)})
NEW = DOC.model_copy(update={"id": "new", "filename": "Annual_2025.pdf",
                             "doc_date": date(2025, 12, 31)})


def _two_filings(old: str, new: str) -> Evidence:
    hits = [SearchHit(chunk_id=f"c-{doc.id}", document_id=doc.id, document=doc.filename,
                      text=text, location=Location.for_page(6), score=1.0)
            for doc, text in ((NEW, new), (OLD, old))]
    return Evidence(documents={OLD.id: OLD, NEW.id: NEW}, hits=hits)


_OLD = ("As of December 31, 2023, the balance of the transition tax payable was $22.0 billion, "
        "with $6.5 billion expected to be paid within 12 months.")
_NEW = ("As of December 31, 2025, the balance of the transition tax payable was $8.8 billion, "
        "which was payable within 12 months.")


def test_an_aside_after_the_figure_is_not_what_the_sentence_states() -> None:
    assert main_clause(_OLD).endswith("$22.0 billion")
    assert main_clause("We expect capital expenditures of $5 billion, with most in the second "
                       "half.") == "We expect capital expenditures of $5 billion"
    assert main_clause(_NEW) == _NEW


def test_the_year_asked_is_answered_from_the_filing_that_covers_it() -> None:
    evidence = _two_filings(_OLD, _NEW)
    ask = _ask("How much transition tax did the company still owe at the end of 2023?")
    assert "$22.0 billion" in rank_spans(ask.frame, evidence)[0].text


def test_a_question_without_a_year_is_of_the_latest_filing() -> None:
    evidence = _two_filings(_OLD, _NEW)
    ask = _ask("How much transition tax does the company still owe?")
    assert "$8.8 billion" in rank_spans(ask.frame, evidence)[0].text
