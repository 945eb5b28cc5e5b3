"""A metric is named as the asker named it, with the verb its name takes; a count is the whole's."""

from __future__ import annotations

import pytest

from manda.agent.compose.common import Ask, was
from manda.agent.compose.leads import as_named
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.selection import asked_label, read_fact, shown_as_named
from manda.finance.figures import Figure
from manda.models import Confidence, Document, Finding, FindingKind, Location


@pytest.mark.parametrize(("subject", "question", "wording"), [
    ("ebit", "What was Northbeam's operating income in fiscal 2025?", "operating income"),
    ("revenue", "What were Harbour's net sales last year?", "net sales"),
    ("adjusted ebitda", "And the adj. EBITDA for FY24?", "adj. EBITDA"),
    ("revenue", "What was EBITDA in 2024?", None),
])
def test_the_question_s_own_wording_of_a_line_item(subject: str, question: str,
                                                   wording: str | None) -> None:
    assert dict(read_question(question).named_as).get(subject) == wording


@pytest.mark.parametrize(("label", "wording", "shown"), [
    ("EBIT", "operating income", "Operating income"),
    ("Revenue", "net sales", "Net sales"),
    ("Adjusted EBITDA", "adj. ebitda", "Adj. EBITDA"),
    ("EBITDA", "ebitda", "EBITDA"),  # the same name: the vocabulary's capitals stand
    ("Revenue", None, "Revenue"),
])
def test_a_label_follows_the_asker_and_keeps_its_acronyms(label: str, wording: str | None,
                                                          shown: str) -> None:
    assert asked_label(label, wording) == shown


@pytest.mark.parametrize(("label", "verb"), [
    ("Revenue", "was"), ("Net sales", "were"), ("Operating expenses", "were"),
    ("Operating loss", "was"), ("Gross margin", "was"), ("ARR", "was"), ("Net assets", "were"),
])
def test_the_verb_agrees_with_the_line_item(label: str, verb: str) -> None:
    assert was(label) == verb


@pytest.mark.parametrize(("question", "subject", "label"), [
    ("What was Northbeam's operating income in fiscal 2025?", "ebit", "Operating income"),
    ("What were net sales in FY2024?", "revenue", "Net sales"),
    # how a deal team asks for a count is no name for it
    ("How many people do they employ?", "headcount", "Headcount"),
    # answers are worded in English: a French question's wording is not borrowed
    ("Quel était le résultat d'exploitation en 2024 ?", "ebit", "EBIT"),
])
def test_an_answer_names_the_line_item_as_asked(question: str, subject: str, label: str) -> None:
    assert Ask.of(read_question(question)).label_of(subject) == label


def test_of_the_headcounts_one_document_states_for_a_date_the_company_s_is_the_largest() -> None:
    """"With over 300 employees, our care team …" on p.10 and "we had 4,453 employees" on p.12:
    the team is part of the company, so the company's headcount is the larger count."""
    doc = Document(id="d_10k", deal_id="d", filename="Northgate_10-K_2021.pdf", content_hash="h",
                   file_type="pdf", size_bytes=1, version_family="10k")
    evidence = Evidence(documents={doc.id: doc})

    def count(value: float, page: int) -> Finding:
        return Finding(id=f"f_{page}", deal_id="d", document_id=doc.id, kind=FindingKind.METRIC,
                       subject="headcount", label="Headcount", period="as of 2021-12-31",
                       value=value, unit="people", value_text=f"{value:,.0f} employees",
                       excerpt="employees", location=Location.for_page(page), confidence=0.6,
                       confidence_level=Confidence.MEDIUM)

    evidence.add_findings([count(300, 10), count(4_453, 12)])
    reading = read_fact(evidence, "headcount", "as of 2021-12-31")
    assert reading is not None and reading.primary.value == 4_453


def _income(value: float, value_text: str, subject: str = "net income") -> Finding:
    return Finding(id="f_1", deal_id="d", document_id="d_ar", kind=FindingKind.METRIC,
                   subject=subject, label="Net income", period="FY2024", value=value,
                   unit="USD", value_text=value_text, excerpt="net loss",
                   location=Location.for_page(4), confidence=0.6,
                   confidence_level=Confidence.MEDIUM)


@pytest.mark.parametrize(("question", "finding", "shown"), [
    # asked for the loss: its size, in the words asked
    ("What was Harbour Ferries' net loss in 2024?", _income(-18.4e6, "$18.4 million"),
     "$18.4 million"),
    ("What was Harbour Ferries' net loss in 2024?", _income(-70_115_000, "$ (70,115)"),
     "$70.11M"),
    # asked for the income of a loss-making company: a negative figure, said to be a loss
    ("What was Harbour Ferries' net income in 2024?", _income(-18.4e6, "$18.4 million"),
     "-$18.4 million (a net loss)"),
    ("What was the operating income?", _income(-2.1e6, "$2.1M", "ebit"),
     "-$2.1M (an operating loss)"),
    ("What was Harbour Ferries' net income in 2024?", _income(5.2e6, "$5.2 million"),
     "$5.2 million"),
])
def test_a_loss_is_named_as_asked(question: str, finding: Finding, shown: str) -> None:
    ask = Ask.of(read_question(question))
    assert shown_as_named(finding, ask.label_of(finding.subject)) == shown


def test_a_preferred_row_leads_without_hiding_another_documents_conflict() -> None:
    """A comparison reads both periods from one row (`prefer_in_period`); a deck that states
    another figure for the same quarter is still a conflict the answer must show."""
    report = Document(id="d_rep", deal_id="d", filename="Q3_Report.pdf", content_hash="h1",
                      file_type="pdf", size_bytes=1, version_family="rep")
    deck = Document(id="d_deck", deal_id="d", filename="Deck.pptx", content_hash="h2",
                    file_type="pptx", size_bytes=1, version_family="deck")
    evidence = Evidence(documents={report.id: report, deck.id: deck})

    def revenue(doc: Document, value: float, row: str | None) -> Finding:
        return Finding(id=f"f_{doc.id}", deal_id="d", document_id=doc.id,
                       kind=FindingKind.METRIC, subject="revenue", label="Revenue",
                       period="Q3 2024", value=value, unit="EUR", value_text=f"€{value:,.0f}",
                       excerpt="Revenue", location=Location.for_page(2), confidence=0.9,
                       confidence_level=Confidence.HIGH,
                       attributes={"row": row} if row else {})

    evidence.add_findings([revenue(report, 5_200_000, "Revenue"), revenue(deck, 5_000_000, None)])
    reading = read_fact(evidence, "revenue", "Q3 2024",
                        prefer_in_period=lambda f: f.attributes.get("row") == "Revenue")
    assert reading is not None and reading.primary.value == 5_200_000
    assert [f.value for f in reading.conflicts] == [5_000_000]


def test_a_cost_a_reconciliation_deducts_is_stated_as_spent() -> None:
    """"Stock-based compensation expense (1,168)" among a reconciliation's items is $1.17
    billion spent, not "-$1.17 billion"; a net line keeps its sign."""
    deducted = Figure(written="(1,168)", value=-1_168_000_000, unit="USD", column="2021")
    assert as_named(deducted, "Stock-based compensation expense") == "$1.17 billion"
    assert as_named(deducted, "Other income (expense), net").startswith("-")
