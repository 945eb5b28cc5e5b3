"""How a company's fiscal year runs, said from the year ends its documents state: a 52/53-week
retail year that ends in the first days of February runs February to January and is named by
the year it starts in; a June year end runs July to June, named by the year it ends in."""

from __future__ import annotations

from manda.agent.compose import fact_lookup
from manda.agent.compose.common import Ask
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.models import Document, DocumentStatus, Location, SearchHit

DOC = Document(id="d1", deal_id="d", filename="Annual report.pdf", content_hash="h",
               file_type="pdf", size_bytes=1, version_family="f",
               status=DocumentStatus.COMPLETED)


def _answer(*texts: str) -> str:
    hits = [SearchHit(chunk_id=f"c{i}", document_id=DOC.id, document=DOC.filename, text=text,
                      location=Location.for_page(3 + i), score=1.0)
            for i, text in enumerate(texts)]
    ask = Ask.of(read_question("When does the company's fiscal year end?"))
    return fact_lookup.compose(ask, Evidence(documents={DOC.id: DOC}, hits=hits)).text


def test_a_retail_year_ending_in_early_february_runs_february_to_january() -> None:
    text = _answer("Our fiscal year ended February 1, 2025 and consisted of 52 weeks.",
                   "For the fiscal year ended February 1, 2025, comparable sales fell.")
    assert "runs from February to January" in text, text
    assert "named by the calendar year it starts in" in text, text


def test_a_june_year_end_runs_july_to_june_named_by_its_last_year() -> None:
    text = _answer("Results for the financial year ended 30 June 2024 were in line.")
    assert "ends on 30 June" in text and "runs from July to June" in text, text
    assert "named by the calendar year it ends in" in text, text
