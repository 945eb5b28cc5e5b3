"""A banker's phrasing of questions on real filings, read as the filing words it (found on the
dev half of bench/filings_answers.py; none of it knows a company or a filing)."""

from __future__ import annotations

from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.relevance import confidence, question_terms, rank
from manda.models import Document, DocumentStatus, Location, SearchHit

DOC = Document(id="d1", deal_id="d", filename="Filing.pdf", content_hash="h", file_type="pdf",
               size_bytes=1, version_family="f", status=DocumentStatus.COMPLETED)


def _confidence(question: str, text: str) -> float:
    hit = SearchHit(chunk_id="c1", document_id=DOC.id, document=DOC.filename, text=text,
                    location=Location.for_page(3), score=1.0)
    return confidence(rank(Evidence(documents={DOC.id: DOC}, hits=[hit]),
                           question_terms(question)))


def test_the_period_asked_need_not_be_repeated_by_the_passage_that_answers() -> None:
    text = "The balance sheet shows total assets of $352.6 billion."
    assert _confidence("What were the total assets at the end of fiscal 2023?", text) >= 0.45


def test_buy_back_spending_and_shrinking_are_said_the_filings_way() -> None:
    assert _confidence(
        "How many shares did the company buy back in fiscal 2025 and for how much?",
        "During 2025, the Company repurchased 402 million shares of its common stock for "
        "$89.3 billion.") >= 0.45
    assert _confidence("Why did R&D spending go up?",
                       "The year-over-year growth in R&D expense in 2023 was driven primarily "
                       "by increases in headcount-related expenses.") >= 0.45
    assert _confidence("Why did the Mac business shrink in 2023?",
                       "Mac net sales decreased 27% or $10.8 billion during 2023 compared to "
                       "2022 due primarily to lower net sales of laptops.") >= 0.45


def test_a_capitalised_possessive_is_a_name_even_when_it_is_a_common_word() -> None:
    assert read_question("What were Target's net sales in fiscal 2025?").entity == "Target"
    assert read_question("Who is Target's new CEO?").entity == "Target"
    assert read_question("What is the target's revenue?").entity is None
    assert read_question("What is the Company's revenue?").entity is None


def _evidence(text: str) -> Evidence:
    hit = SearchHit(chunk_id="c1", document_id=DOC.id, document=DOC.filename, text=text,
                    location=Location.for_page(52), score=1.0)
    return Evidence(documents={DOC.id: DOC}, hits=[hit])


def test_a_heading_does_not_lead_over_the_sentence_that_answers() -> None:
    from manda.agent.relevance import best

    evidence = _evidence("Stock Repurchase Activity\nIn March 2022, the Board authorized a "
                         "program to repurchase up to $10.0 billion of our common stock. There "
                         "were no repurchases of our common stock in 2023, 2024, or 2025.")
    lead = best(rank(evidence, question_terms("Did the company buy back any stock in 2025?")))[0]
    assert lead.text.startswith("There were no repurchases")


def test_who_audits_asks_for_the_auditor_and_the_signing_firm_is_named() -> None:
    from manda.agent.compose import Draft
    from manda.agent.compose.fact_lookup import _named_holder
    from manda.agent.topics import asked_role

    assert asked_role("Who audits the company and since when?") == "auditor"
    evidence = _evidence("/s/ Ernst & Young LLP\nWe have served as the Company's auditor "
                         "since 2009.\nSan Jose, California")
    draft = _named_holder(Draft(text="Filing.pdf states: “We have served as the Company's "
                                     "auditor since 2009.” (source: Filing.pdf, p.52)"),
                          evidence, "auditor", "en")
    assert draft.text.splitlines()[0].startswith("The auditor is Ernst & Young LLP")
    assert "since 2009" in draft.text
    # a consent's heading before the firm's name is no part of it; a name joined by "of" is
    consent = _evidence("Consent of Marlow Finch LLP, Independent Registered Public Accounting "
                        "Firm\nWe consent to the incorporation by reference of our report.")
    draft = _named_holder(Draft(text="Filing.pdf states: “We consent to …” (source: Filing."
                                     "pdf, p.90)"), consent, "auditor", "en")
    assert draft.text.splitlines()[0].startswith("The auditor is Marlow Finch LLP"), draft.text
    from manda.ingest.extract.names import without_title
    assert without_title("Bank of Ireland plc") == "Bank of Ireland plc"
    assert without_title("Rapport de Garnier Audit S.A.") == "Garnier Audit S.A."


def test_a_share_of_a_metric_is_not_the_metric() -> None:

    assert read_question("What share of sales do the stores fulfil?").share_of
    assert read_question("How much of merchandise sales come from owned brands?").share_of
    assert not read_question("How much revenue did the company make in 2025?").share_of
