"""A retrieved passage knows where it sits (issue 25): the statements ingestion read its whole page
as travel with the hit (`SearchHit.statements`), so a few rows of a P&L retrieved alone are a flow
over the period in the document's currency and scale, a balance sheet's row is a balance at its
date, a note's table and a per-share or count row keep their own kind, and the line item's row of
the statement asked leads over the same figure in a note. None of it knows a company or a filing:
the documents below are written for the tests."""

from __future__ import annotations

from datetime import date

from manda.agent.compose.common import Ask, Draft
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.passages import stands
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.agent.spans.asked import _asked_statements
from manda.ingest.chunking import chunk_document
from manda.models import (
    Chunk,
    Confidence,
    Document,
    DocumentStatus,
    Finding,
    FindingKind,
    Location,
    ParsedDocument,
    SearchHit,
    Section,
)
from manda.retrieval.hits import chunk_hit, chunk_statements

DOC = Document(id="k1", deal_id="d", filename="Corvane_10-K.pdf", content_hash="h",
               file_type="pdf", size_bytes=1, version_family="f",
               status=DocumentStatus.COMPLETED, doc_date=date(2025, 12, 31),
               fiscal_year_end="--12-31")

# another page of the same filing: its MD&A states the filing's currency and scale
MDNA = "\n".join([
    "Results of Operations",
    "(in millions)",
    "Freight revenue grew to $6,214 million as shipments rose across the network.",
])

# three rows cut from the bottom of a statement of operations: no caption, no "$"
PNL_ROWS = "\n".join([
    "December 31, 2025 | December 31, 2024",
    "Freight revenue | December 31, 2025: 6,214 | December 31, 2024: 5,870",
    "Operating income | December 31, 2025: 902 | December 31, 2024: 811",
    "Diluted earnings per share | December 31, 2025: 3.12 | December 31, 2024: 2.64",
])

BALANCE_ROWS = "\n".join([
    "2025 | 2024",
    "Borrowings under credit facility | 2025: 1,150 | 2024: 1,320",
    "Total liabilities | 2025: 4,410 | 2024: 4,275",
])


def _hit(i: int, text: str, statements: tuple[str, ...] = ()) -> SearchHit:
    return SearchHit(chunk_id=f"c{i}", document_id=DOC.id, document=DOC.filename, text=text,
                     location=Location.for_page(40 + i), score=1.0, statements=statements)


def _ask(question: str) -> Ask:
    return Ask.of(read_question(question))


def _statement_tail() -> Chunk:
    """The last chunk of a long statement page: rows cut far below its caption and line items."""
    page = "\n".join([
        "CONSOLIDATED STATEMENTS OF OPERATIONS", "(in millions)",
        "Freight revenue | 6,214 | 5,870", "Cost of revenue | 4,102 | 3,955",
        "Gross profit | 2,112 | 1,915", "Research and development | 210 | 188",
        "Operating income | 902 | 811", "Net income | 640 | 577",
        *(f"Line {n} | {n} | {n}" for n in range(60)),
    ])
    parsed = ParsedDocument(filename="Corvane_10-K.pdf", file_type="pdf", units=1,
                            sections=[Section(text=page, location=Location.for_page(52))])
    chunks = chunk_document(parsed, deal_id="d", document_id=DOC.id, max_chars=300)
    assert len(chunks) > 2
    return chunks[-1]


def test_the_hit_carries_the_statements_ingestion_read_its_page_as() -> None:
    tail = _statement_tail()
    assert "Net income" not in tail.text
    assert [str(k) for k in chunk_statements(tail)] == ["income statement"]


def test_a_passage_reached_by_another_path_carries_them_too() -> None:
    """The role fallback, a kept note's passages and the change digest build their hits with the
    same builder as search: the page's statements travel, and the text is what a person sees."""
    tail = _statement_tail()
    hit = chunk_hit(tail, DOC.filename, via=["role"])
    assert hit.statements == ("income statement",) and hit.via == ["role"]
    assert not hit.text.startswith("[") and hit.text in tail.text
    indexed = chunk_hit(tail, DOC.filename, via=["checklist"], text=tail.text)
    assert indexed.text.startswith("[") and indexed.statements == hit.statements


def test_a_pnl_row_retrieved_alone_is_a_flow_in_the_documents_currency_and_scale() -> None:
    evidence = Evidence(documents={DOC.id: DOC},
                        hits=[_hit(0, PNL_ROWS, ("income statement",)), _hit(1, MDNA)])
    ask = _ask("What was Corvane's operating income in 2025?")
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "$902.0 million" in first and "in 2025" in first
    assert "at 31 December" not in first


def test_without_its_place_the_same_rows_are_read_at_face_value() -> None:
    evidence = Evidence(documents={DOC.id: DOC}, hits=[_hit(0, PNL_ROWS), _hit(1, MDNA)])
    top = rank_spans(_ask("What was Corvane's operating income in 2025?").frame, evidence)[0]
    assert top.row is not None and top.row.label == "Operating income"
    assert not top.flow and top.scale is not None and top.scale.factor == 1.0


def test_a_per_share_row_of_the_pnl_keeps_its_own_kind() -> None:
    evidence = Evidence(documents={DOC.id: DOC},
                        hits=[_hit(0, PNL_ROWS, ("income statement",)), _hit(1, MDNA)])
    top = rank_spans(_ask("What were Corvane's diluted earnings per share in 2025?").frame,
                     evidence)[0]
    assert top.row is not None and top.row.label == "Diluted earnings per share"
    assert next(f.shown() for f in top.figures()) == "$3.12"


def test_a_balance_sheet_row_is_a_balance_at_its_columns_date() -> None:
    evidence = Evidence(documents={DOC.id: DOC},
                        hits=[_hit(0, BALANCE_ROWS, ("balance sheet",)), _hit(1, MDNA)])
    top = rank_spans(_ask("What were Corvane's total liabilities at the end of 2025?").frame,
                     evidence)[0]
    assert top.row is not None and top.row.label == "Total liabilities"
    assert not top.flow
    assert top.figures()[0].shown() == "$4.41 billion"


def test_a_note_table_in_thousands_keeps_its_own_scale_and_its_counts() -> None:
    note = "\n".join([
        "Note 9 — Accrued liabilities and operating data",
        "(in thousands)",
        "2025 | 2024",
        "Accrued payroll and benefits | 2025: 48,210 | 2024: 45,930",
        "Shipments handled | 2025: 1,204 | 2024: 1,350",
    ])
    evidence = Evidence(documents={DOC.id: DOC}, hits=[_hit(0, note), _hit(1, MDNA)])
    payroll = rank_spans(_ask("How much accrued payroll did Corvane have at the end of 2025?"
                              ).frame, evidence)[0]
    assert payroll.row is not None and payroll.row.label.startswith("Accrued payroll")
    assert payroll.figures()[0].shown() == "$48.21 million"  # thousands, not the 10-K's millions
    shipments = rank_spans(_ask("How many shipments did Corvane handle in 2025?").frame,
                           evidence)[0]
    assert shipments.row is not None and shipments.row.label == "Shipments handled"
    assert all(f.unit != "USD" for f in shipments.figures())


def test_the_statement_row_of_the_kind_asked_leads_over_a_note_of_the_same_figure() -> None:
    note = "\n".join([
        "Revenue by customer type (in millions)",
        "2025 | 2024",
        "Contract shippers | 2025: 4,020 | 2024: 3,790",
        "Spot shippers | 2025: 2,194 | 2024: 2,080",
        "Freight revenue | 2025: 6,214 | 2024: 5,870",
    ])
    pnl = "\n".join([
        "(in millions)",
        "2025 | 2024",
        "Freight revenue | 2025: $6,214 | 2024: $5,870",
        "Operating income | 2025: 902 | 2024: 811",
    ])
    evidence = Evidence(documents={DOC.id: DOC},
                        hits=[_hit(0, note), _hit(1, pnl, ("income statement",))])
    top = rank_spans(_ask("What was Corvane's freight revenue in 2025?").frame, evidence)[0]
    assert top.row is not None and top.source.page == 41
    # a balance asked: the balance sheet's row, not the P&L's
    sheet = Evidence(documents={DOC.id: DOC}, hits=[
        _hit(0, "2025 | 2024\nTotal liabilities | 2025: 4,410 | 2024: 4,275",
             ("income statement",)),
        _hit(1, "2025 | 2024\nTotal liabilities | 2025: 4,410 | 2024: 4,275",
             ("balance sheet",))])
    top = rank_spans(_ask("What were the total liabilities at the end of 2025?").frame, sheet)[0]
    assert top.source.page == 41


def test_what_a_cause_did_to_the_line_item_is_no_statements_level() -> None:
    pnl = "\n".join(["(in millions)", "2025 | 2024",
                     "Operating income | 2025: $902 | 2024: $811"])
    effect = ("The change in the estimated useful lives of our trucks increased operating income "
              "by $64 million in 2025.")
    evidence = Evidence(documents={DOC.id: DOC},
                        hits=[_hit(0, pnl, ("income statement",)), _hit(1, effect)])
    ask = _ask("How much did the longer truck lives lift Corvane's operating income?")
    assert "$64 million" in rank_spans(ask.frame, evidence)[0].text


def test_a_segment_note_is_no_pnl_and_a_segment_asked_asks_no_statement() -> None:
    rows = "(in millions)\n2025 | 2024\nFreight revenue | 2025: $6,214 | 2024: $5,870"
    evidence = Evidence(documents={DOC.id: DOC}, hits=[
        _hit(0, rows, ("income statement", "segment information")),
        _hit(1, rows, ("income statement",))])
    top = rank_spans(_ask("What was Corvane's freight revenue in 2025?").frame, evidence)[0]
    assert top.source.page == 41
    segment = _ask("What was the Truckload segment's freight revenue in 2025?").frame
    assert _asked_statements(segment) == set()


def test_a_figure_read_without_its_caption_gives_way_to_the_row_at_its_scale() -> None:
    pnl = "\n".join(["CONSOLIDATED STATEMENTS OF OPERATIONS", "(in millions)", "2025 | 2024",
                     "Operating income | 2025: $902 | 2024: $811"])
    evidence = Evidence(documents={DOC.id: DOC}, hits=[_hit(0, pnl, ("income statement",))])
    ask = _ask("What was Corvane's operating income in 2025?")
    unscaled = Finding(id="f1", deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
                       subject="ebit", label="Operating income", value=902, value_text="$902",
                       period="FY2025", excerpt="Operating income $902 $811",
                       location=Location.for_page(40), confidence=0.9,
                       confidence_level=Confidence.HIGH, attributes={"row": "Operating income"})
    assert not stands(Draft(text="Operating income was $902 in FY2025.", rests_on=[unscaled]),
                      ask, evidence)
    scaled = unscaled.model_copy(update={"value": 902e6})
    assert stands(Draft(text="Operating income was $902.0 million in FY2025.", rests_on=[scaled]),
                  ask, evidence)


def test_a_balance_sheet_column_of_a_year_is_its_fiscal_year_end() -> None:
    evidence = Evidence(documents={DOC.id: DOC},
                        hits=[_hit(0, BALANCE_ROWS, ("balance sheet",)), _hit(1, MDNA)])
    first = evidence_answer(_ask("What were the total liabilities at the end of 2025?"),
                            evidence).text.splitlines()[0]
    assert "$4.41 billion at 31 December 2025" in first
    retail = DOC.model_copy(update={"fiscal_year_end": "--01-31", "doc_date": date(2026, 3, 1)})
    evidence = Evidence(documents={DOC.id: retail},
                        hits=[_hit(0, BALANCE_ROWS, ("balance sheet",)), _hit(1, MDNA)])
    first = evidence_answer(_ask("What were the total liabilities at the end of fiscal 2025?"),
                            evidence).text.splitlines()[0]
    assert "at 31 January 2026" in first
