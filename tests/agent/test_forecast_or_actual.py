"""A forecast answers a question about results only where no document states the result
(issue 25): capex of a completed year is the cash-flow statement's line, not last year's plan for
it; a forecast still answers when guidance is asked or the year is ahead of every document.
Invented company, currency and wording (the company of test_balance_ends_and_parts)."""

from __future__ import annotations

from datetime import date

from test_balance_ends_and_parts import DOC

from manda.agent.compose import fact_lookup
from manda.agent.compose.common import Ask
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.models import (
    Confidence,
    Finding,
    FindingKind,
    Location,
    Nature,
    SearchHit,
)

CASH_FLOW = "\n".join([
    "CONSOLIDATED STATEMENT OF CASH FLOWS", "(in millions of euros)", "2023 | 2024",
    "Net cash from operating activities | 2023: 312.4 | 2024: 355.0",
    "Purchases of property, plant and equipment | 2023: (41.2) | 2024: (52.7)",
    "Net cash used in investing activities | 2023: (60.3) | 2024: (71.9)",
])
PLAN_2024 = ("Outlook. We expect capital expenditures of approximately €60 million in 2024, "
             "mainly for the new plant in Porto.")
PLAN_2025 = "Looking ahead, we expect capital expenditures of around €75 million in 2025."


def _evidence(*plans: tuple[str, str, float]) -> Evidence:
    hits = [SearchHit(chunk_id="c0", document_id=DOC.id, document=DOC.filename, text=CASH_FLOW,
                      location=Location.for_page(60), score=1.0)]
    findings = {}
    for i, (text, period, value) in enumerate(plans):
        hits.append(SearchHit(chunk_id=f"c{i + 1}", document_id=DOC.id, document=DOC.filename,
                              text=text, location=Location.for_page(20 + i), score=1.0))
        findings[f"f{i}"] = Finding(
            id=f"f{i}", deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
            subject="capex", label="Capex", value=value, value_text=f"€{value / 1e6:g} million",
            excerpt=text, location=Location.for_page(20 + i), period=period,
            nature=Nature.FORECAST, confidence=0.9, confidence_level=Confidence.HIGH)
    return Evidence(documents={DOC.id: DOC}, hits=hits, findings=findings)


def _first_line(question: str, evidence: Evidence) -> str:
    return fact_lookup.compose(Ask.of(read_question(question)), evidence).text.splitlines()[0]


def test_capex_of_a_completed_year_is_the_cash_flow_line_not_the_plan_for_it() -> None:
    evidence = _evidence((PLAN_2024, "FY2024", 60e6))
    for question in ("What were capital expenditures in 2024?",
                     "What was the company's capex in 2024?"):
        first = _first_line(question, evidence)
        assert "52.7 million" in first and "forecast" not in first, (question, first)


def test_a_forecast_answers_when_guidance_is_asked_or_the_year_is_ahead() -> None:
    assert "60 million" in _first_line("What capex is expected for 2024?",
                                       _evidence((PLAN_2024, "FY2024", 60e6)))
    first = _first_line("What will capital expenditures be in 2025?",
                        _evidence((PLAN_2025, "FY2025", 75e6)))
    assert "75 million" in first and "forecast" in first, first


def test_a_forecast_of_the_year_stands_where_the_documents_are_of_part_of_it() -> None:
    quarter = DOC.model_copy(update={"doc_date": date(2024, 9, 30)})  # a Q3 report
    evidence = _evidence((PLAN_2024, "FY2024", 60e6))
    evidence.documents = {quarter.id: quarter}
    first = _first_line("What were capital expenditures in 2024?", evidence)
    assert "60 million" in first and "forecast" in first, first


GUIDANCE = "\n".join([
    "First Quarter 2025 Guidance",
    "Operating income is expected to be between €16.5 million and €21.5 million, compared with "
    "€18.4 million in first quarter 2024.",
    "This guidance includes approximately €1 million of higher costs for the new plant in Porto.",
])

ANNUAL = "Operating income was €80.2 million in 2024."



def test_guidance_for_a_quarter_is_the_forecast_sentence_not_the_quarter_it_is_compared_with(
) -> None:
    """The extracted forecast was dated by the quarter it is compared with (Q1 2024), so no
    figure of Q1 2025 is extracted: the sentence stating the forecast answers, not "no document
    states it", and not the next sentence's figure of another thing."""
    hits = [SearchHit(chunk_id="c1", document_id=DOC.id, document=DOC.filename, text=GUIDANCE,
                      location=Location.for_page(30), score=1.0)]
    findings = {"f0": Finding(
        id="f0", deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC, subject="ebit",
        label="EBIT", value=18.4e6, value_text="€18.4 million", excerpt=GUIDANCE.splitlines()[1],
        location=Location.for_page(30), period="Q1 2024", nature=Nature.FORECAST,
        confidence=0.9, confidence_level=Confidence.HIGH), "f1": Finding(
        id="f1", deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC, subject="ebit",
        label="EBIT", value=80.2e6, value_text="€80.2 million", excerpt=ANNUAL,
        location=Location.for_page(12), period="FY2024", nature=Nature.ACTUAL,
        confidence=0.9, confidence_level=Confidence.HIGH)}
    hits.append(SearchHit(chunk_id="c2", document_id=DOC.id, document=DOC.filename, text=ANNUAL,
                          location=Location.for_page(12), score=1.0))
    evidence = Evidence(documents={DOC.id: DOC}, hits=hits, findings=findings)
    first = _first_line("What operating income range did the company guide to for the first "
                        "quarter of 2025?", evidence)
    assert "€16.5 million" in first and "€21.5 million" in first, first
    assert "I searched" not in first, first
