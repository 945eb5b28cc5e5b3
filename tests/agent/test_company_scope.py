"""A room holding several companies' documents: a question naming one is answered from its own.

Six 10-K filings of five issuers in one deal (bench/filings_answers.py) asked "What was Apple's
capex?" got Target's figure, or "not found" because a filing calls itself "the Company", never
"Apple". The company a question names scopes the evidence to the documents named after it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.graph import company_documents, company_words, name_words
from manda.agent.relevance import confidence, question_terms, rank
from manda.agent.spans import rank_spans
from manda.app import Manda
from manda.config import Settings
from manda.models import Document, DocumentStatus, Location, SearchHit


def _doc(filename: str, path: str | None = None) -> Document:
    return Document(id=Document.make_id("d", filename), deal_id="d", filename=filename,
                    content_hash=filename, file_type="pdf", size_bytes=1, path=path or filename,
                    version_family=filename,
                    status=DocumentStatus.COMPLETED)


def test_the_documents_named_after_a_company_are_its_scope() -> None:
    docs = [_doc("Apple_10-K_FY2025.pdf"), _doc("Apple_10-K_FY2023.pdf"),
            _doc("Target_10-K_FY2025.pdf"), _doc("TargetCo_Q3_Report.pdf"),
            _doc("CV.pdf", path="3 People/Markus Weber/CV.pdf")]
    evidence = Evidence(documents={d.id: d for d in docs})
    assert company_documents("Apple", evidence) == {docs[0].id, docs[1].id}
    assert company_documents("Target", evidence) == {docs[2].id}  # not TargetCo's files
    assert company_documents("Markus Weber", evidence) is None  # a person, not a company
    assert company_documents("Globex", evidence) is None  # no file carries the name
    only = Evidence(documents={docs[0].id: docs[0]})
    assert company_documents("Apple", only) is None  # the whole room: nothing to narrow
    assert name_words("TargetCo_Q3_2024_Report.pdf") == ["targetco", "q", "3", "2024",
                                                         "report", "pdf"]


def test_the_scoped_company_name_is_not_a_word_its_documents_must_repeat() -> None:
    doc = _doc("Northbeam_10-K.pdf")
    text = ("The year-over-year growth in R&D expense was driven primarily by increases in "
            "headcount-related expenses.")
    hit = SearchHit(chunk_id="c1", document_id=doc.id, document=doc.filename, text=text,
                    location=Location.for_page(5), score=1.0)
    question = "Why did Northbeam's R&D expense go up?"
    plain = Evidence(documents={doc.id: doc}, hits=[hit])
    scoped = Evidence(documents={doc.id: doc}, hits=[hit], scope=frozenset({doc.id}),
                      scope_words=frozenset({"northbeam"}))
    asked = question_terms(question)
    assert confidence(rank(scoped, asked)) > confidence(rank(plain, asked))
    assert confidence(rank(scoped, asked)) == 1.0


def test_a_business_named_after_its_company_keeps_its_own_words() -> None:
    docs = [_doc("Northbeam_10-K_FY2025.pdf"), _doc("Southgate_10-K_FY2025.pdf")]
    evidence = Evidence(documents={d.id: d for d in docs})
    scope = company_documents("Northbeam Freight", evidence)
    assert scope == {docs[0].id}
    # "Northbeam's revenue": the filing says "the Company", never its name
    assert company_words("Northbeam", scope, evidence) == {"northbeam"}
    # "Northbeam Freight's EBITDA": the company's name may go unsaid, the business's may not
    assert company_words("Northbeam Freight", scope, evidence) == {"northbeam"}
    rows = ("(In millions)\n2025 | 2024\nSegment adjusted EBITDA:\n"
            "Mobility | 2025: $1,596 | 2024: $1,169\nFreight | 2025: (130) | 2024: (227)\n"
            "Adjusted EBITDA | 2025: $(774) | 2024: $(2,528)")
    hit = SearchHit(chunk_id="c1", document_id=docs[0].id, document=docs[0].filename,
                    text=rows, location=Location.for_page(61), score=1.0)
    frame = read_question("What was Northbeam Freight's adjusted EBITDA in 2025?")
    scoped = Evidence(documents={docs[0].id: docs[0]}, hits=[hit], scope=scope,
                      scope_words=company_words("Northbeam Freight", scope, evidence))
    best = rank_spans(frame, scoped)[0]
    assert best.row is not None and best.row.label == "Freight"


def _capex_room(tmp_path: Path, *companies: tuple[str, str, str]) -> Path:
    """A room of one annual report a company, each stating its capex (and why)."""
    room = tmp_path / "room"
    room.mkdir()
    for name, capex, why in companies:
        (room / f"{name}_Annual_Report_2025.md").write_text(
            f"# {name} Inc. annual report 2025\n\nThe Company's capital expenditures were "
            f"${capex} billion in 2025{why}.\n", encoding="utf-8")
    return room


async def test_a_question_naming_one_company_is_answered_from_its_documents(
    tmp_path: Path,
) -> None:
    room = _capex_room(tmp_path, ("Northbeam", "4.1", ", driven by new distribution centres"),
                       ("Southgate", "9.7", ", driven by store remodels"))
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("two", [room])
        answer = await app.answers.ask("two", "What was Northbeam's capex in 2025?")
    assert "4.1" in answer.answer.splitlines()[0] and "9.7" not in answer.answer
    assert {c.document for c in answer.citations} == {"Northbeam_Annual_Report_2025.md"}


@pytest.mark.parametrize(("question", "common_question"), [
    ("Target's capex in 2025?", "Company's capex in 2025?"),
    ("Target capex in 2025?", "Company capex in 2025?"),
])
async def test_a_company_whose_name_is_a_common_word_opens_the_question(
        tmp_path: Path, question: str, common_question: str) -> None:
    """"Target's capex in 2025?" and the terse "Target capex in 2025?": the opening capital is
    the sentence's, and "target" is a deal team's common word, so the word before the line item
    asked (possessive or not) names a company only where the room holds that company's
    documents; it does here, so they answer (it had been "the question names no company", each
    company's figure listed). A word that names no company there ("Company capex") narrows
    nothing."""
    room = _capex_room(tmp_path, ("Target", "4.1", ""), ("Summit", "9.7", ""))
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("two", [room])
        answer = await app.answers.ask("two", question)
        common = await app.answers.ask("two", common_question)
    assert "4.1" in answer.answer.splitlines()[0] and "9.7" not in answer.answer
    assert {c.document for c in answer.citations} == {"Target_Annual_Report_2025.md"}
    assert "4.1" in common.answer and "9.7" in common.answer


def test_a_terse_questions_opening_word_is_the_name_it_asks_about() -> None:
    assert read_question("Target 2025 capex?").opening_name == "Target"
    assert read_question("Net sales in 2025?").opening_name is None  # the line item's own word


def test_a_table_figure_is_shown_with_the_scale_its_table_states() -> None:
    from manda.agent.selection import show
    from manda.models import Confidence, Finding, FindingKind

    def finding(value: float, text: str) -> Finding:
        return Finding(id="f", deal_id="d", document_id="x", kind=FindingKind.METRIC,
                       subject="revenue", label="Revenue", period="FY2025", value=value,
                       unit="USD", value_text=text, excerpt=text, location=Location.for_page(1),
                       confidence=0.9, confidence_level=Confidence.HIGH)

    assert show(finding(416_161_000_000, "$416,161")) == "$416.16bn"  # "(in millions)" table
    assert show(finding(5_200_000, "$5.2M")) == "$5.2M"  # the document's own wording
    assert show(finding(1_790, "$1,790")) == "$1,790"


def test_a_business_named_after_its_company_scopes_to_that_companys_files() -> None:
    docs = [_doc("Microsoft_10-K_FY2023.pdf"), _doc("Apple_10-K_FY2023.pdf"),
            _doc("CV.pdf", path="3 People/Markus Weber/CV.pdf")]
    evidence = Evidence(documents={d.id: d for d in docs})
    assert company_documents("Microsoft Cloud", evidence) == {docs[0].id}
    assert company_documents("Markus Weber", evidence) is None  # the person's own folder
