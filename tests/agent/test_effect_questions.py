"""A question that asks what a named cause did to a line item ("How much did the new lease
accounting lift EBITDA?") is answered by the sentence that states the effect with its cause,
not by the line item's level; a question about the line item's own change is not one."""

from __future__ import annotations

from datetime import date

import pytest

from manda.agent.compose import fact_lookup
from manda.agent.compose.common import Ask
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.models import (
    Confidence,
    Document,
    DocumentStatus,
    Finding,
    FindingKind,
    FindingStatus,
    Location,
    SearchHit,
)

DOC = Document(id="d1", deal_id="d", filename="Annual report 2024.pdf", content_hash="h",
               file_type="pdf", size_bytes=1, version_family="f",
               status=DocumentStatus.COMPLETED, doc_date=date(2025, 3, 1))


@pytest.mark.parametrize(("question", "effect"), [
    ("How much did the switch to the new fleet lift Kestrel's EBITDA in 2024?", True),
    ("What impact did the warehouse fire have on net income?", True),
    ("What was the effect of currency movements on revenue?", True),
    ("How much did the acquisition of Brightline add to revenue?", True),
    ("Quel impact la grève a-t-elle eu sur le résultat net ?", True),
    ("Welche Auswirkung hatte der Brand auf das EBITDA?", True),
    ("¿Qué impacto tuvo la huelga en el EBITDA?", True),
    # the line item right before a noun of effect, its cause after it
    ("What was the operating income impact of moving the depots to leased sites?", True),
    ("What was the net income effect of the new pension scheme?", True),
    ("What was the revenue impact?", False),
    ("How much did revenue increase in 2024?", False),
    ("How much did EBITDA improve?", False),
    ("What was net income in 2024?", False),
])
def test_an_effect_is_asked_when_the_line_item_follows_the_verb_of_effect(
        question: str, effect: bool) -> None:
    assert read_question(question).effect is effect


def _level_and_effect(effect: str) -> Evidence:
    """EBITDA's level (a finding and its row, p.12) beside a sentence stating an effect on it
    (p.7)."""
    level = Finding(id="f1", deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
                    subject="ebitda", label="EBITDA", period="FY2024", value=41_200_000.0,
                    unit="EUR", excerpt="EBITDA | 2024: 41,200", status=FindingStatus.APPROVED,
                    location=Location.for_page(12), confidence=0.95,
                    confidence_level=Confidence.HIGH)
    hits = [
        SearchHit(chunk_id="c1", document_id=DOC.id, document=DOC.filename,
                  text="EBITDA | 2024: 41,200 | 2023: 36,900", location=Location.for_page(12),
                  score=1.0),
        SearchHit(chunk_id="c2", document_id=DOC.id, document=DOC.filename, text=effect,
                  location=Location.for_page(7), score=0.9),
    ]
    return Evidence(documents={DOC.id: DOC}, hits=hits, findings={level.id: level})


def test_the_sentence_stating_the_effect_leads_over_the_line_items_level() -> None:
    evidence = _level_and_effect("The switch to the new electric fleet lowered fuel costs and "
                                 "lifted EBITDA by €3.1 million in 2024.")
    ask = Ask.of(read_question("How much did the switch to the new fleet lift EBITDA in 2024?"))
    first = fact_lookup.compose(ask, evidence).text.splitlines()[0]
    assert "3.1 million" in first and "41" not in first, first


def test_a_line_items_impact_of_a_named_cause_is_the_sentence_of_that_cause() -> None:
    """"What was the EBITDA impact of the new fleet?": the sentence stating the fleet's effect
    on EBITDA, not EBITDA's level."""
    evidence = _level_and_effect("The effect of the switch to the new electric fleet in 2024 "
                                 "was an increase in EBITDA of €3.1 million.")
    ask = Ask.of(read_question("What was the EBITDA impact of switching to the new fleet?"))
    first = fact_lookup.compose(ask, evidence).text.splitlines()[0]
    assert "3.1 million" in first and "41" not in first, first


def test_an_effect_in_percent_on_one_of_the_line_items_a_sentence_lists_leads() -> None:
    """"How much did currency hurt operating income?": a sentence whose subject lists the line
    item among others, with the effect in percent ("… and operating income included an
    unfavourable currency impact of 3%, 4% and 5%, respectively"), answers, not the line item's
    level."""
    level = "EBITDA | 2024: 41,200 | 2023: 36,900"
    evidence = _level_and_effect("Revenue, gross margin and EBITDA included an unfavourable "
                                 "currency impact of 3%, 4% and 5%, respectively.")
    ask = Ask.of(read_question("How much did currency movements hurt EBITDA in 2024?"))
    top = rank_spans(ask.frame, evidence)[0]
    assert "unfavourable currency impact" in top.text and level not in top.text
    first = fact_lookup.compose(ask, evidence).text.splitlines()[0]
    assert "5%" in first and "41" not in first, first


def test_an_effect_asked_is_the_change_by_an_amount_not_a_forecast_in_basis_points() -> None:
    """"What was the impact of currency movements on EBITDA in 2024?": the sentence stating the
    change by an amount ("… lowered EBITDA by €2.4 million in 2024") answers; a guidance
    guidance sentence's effect in basis points, read with the forecast before it, does not lead
    over it, nor is the change by an amount taken for a level that was not asked."""
    evidence = _level_and_effect("Changes in exchange rates lowered EBITDA by €2.4 million in "
                                 "2024.")
    evidence.hits.append(SearchHit(
        chunk_id="c3", document_id=DOC.id, document=DOC.filename, location=Location.for_page(9),
        text="EBITDA is expected to be between €44.0 million and €47.0 million in 2025. This "
             "guidance anticipates an unfavourable impact of approximately 60 basis points from "
             "exchange rates.", score=0.95))
    ask = Ask.of(read_question("What was the impact of exchange rates on EBITDA in 2024?"))
    assert ask.frame.effect
    first = fact_lookup.compose(ask, evidence).text.splitlines()[0]
    assert "2.4 million" in first and "basis points" not in first, first
