"""A figure is cited where the document states it authoritatively (issue 25): the primary
statement's page first, then a note's, then the summary or discussion that repeats it for the same
period; a summary row gives way to the statement's row of the same figure. Every document below
is invented for the tests (other companies, other units, other wording than any filing)."""

from __future__ import annotations

from datetime import date

from annual_reports import annual_reports
from test_spans import _evidence as _passages

from manda.agent.compose import computed, ranking
from manda.agent.compose.common import Ask, value_sentence
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.stated import (
    NOTE,
    OTHER,
    STATEMENT,
    Stated,
    of_another_period,
    page_role,
    same_value,
    sentence_stated,
)
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.selection import read_fact
from manda.models import (
    Confidence,
    Document,
    DocumentStatus,
    Finding,
    FindingKind,
    Location,
    SearchHit,
)

DOC = Document(id="d7", deal_id="d", filename="Harrowgate_AR.pdf", content_hash="h",
               file_type="pdf", size_bytes=1, version_family="f",
               status=DocumentStatus.COMPLETED, doc_date=date(2025, 6, 30),
               fiscal_year_end="--06-30")

# p.30: the discussion of liquidity, p.31: the balance sheet, in thousands
LIQUIDITY = ("Liquidity and Capital Resources\n"
             "Borrowings under our senior term loan were $412.6 million and $388.2 million at "
             "June 30, 2024 and 2025, after scheduled repayments.")
POSITION = ("HARROWGATE HOLDINGS PLC\nCONSOLIDATED STATEMENTS OF FINANCIAL POSITION\n"
            "(in thousands)\nJune 30, 2025 | June 30, 2024\n"
            "Total current liabilities | June 30, 2025: $96,410 | June 30, 2024: $91,227\n"
            "Senior term loan, non-current | June 30, 2025: 388,214 | June 30, 2024: 412,577\n"
            "Total liabilities | June 30, 2025: $602,118 | June 30, 2024: $611,930")


def _evidence(*texts: str) -> Evidence:
    return _passages(*texts, doc=DOC)


def _ask(question: str) -> Ask:
    return Ask.of(read_question(question))


def _first(text: str) -> str:
    return text.splitlines()[0]


def test_a_statement_page_a_note_page_and_a_summary_page_are_told_apart_by_their_headings(
        ) -> None:
    evidence = _evidence(
        LIQUIDITY, POSITION,
        "Note 9 — Borrowings\nThe term loan bears interest at SONIA plus 2.25%.",
        "Segment Results of Operations\nRevenue by segment was as follows:",
        "Consolidated Statements of Cash Flows\n(in thousands)")
    roles = [page_role(evidence, DOC.id, page) for page in (30, 31, 32, 33, 34)]
    assert roles == [OTHER, STATEMENT, NOTE, OTHER, STATEMENT]
    assert page_role(evidence, DOC.id, 99) == OTHER  # a page not retrieved


def test_a_balance_sheet_figure_is_cited_at_the_statement_and_the_discussion_stating_it() -> None:
    ask = _ask("How much was outstanding under the senior term loan at June 30, 2025?")
    first = _first(evidence_answer(ask, _evidence(LIQUIDITY, POSITION)).text)
    assert "$388.21 million at 30 June 2025" in first, first
    assert "(sources: Harrowgate_AR.pdf p.31, Harrowgate_AR.pdf p.30)" in first, first


def test_a_summary_row_gives_way_to_the_statements_row_of_the_same_figures() -> None:
    summary = ("Selected cash flow data (in millions):\nFiscal year | 2024 | 2025\n"
               "Investing activities | 2024: (1,274) | 2025: (1,862)")
    statement = ("CONSOLIDATED STATEMENTS OF CASH FLOWS\n(in millions)\n2023 | 2024 | 2025\n"
                 "Net cash used in investing activities | 2023: (1,106) | 2024: (1,274) | "
                 "2025: (1,862)")
    ask = _ask("What was the cash flow from investing activities in fiscal 2025?")
    first = _first(evidence_answer(ask, _evidence(summary, statement)).text)
    assert first.startswith("Net cash used in investing activities was"), first
    assert "(sources: Harrowgate_AR.pdf p.31, Harrowgate_AR.pdf p.30)" in first, first


def test_the_same_value_of_another_year_or_another_line_item_is_not_cited() -> None:
    statement = ("CONSOLIDATED BALANCE SHEETS\n(in millions)\n2025 | 2024\n"
                 "Long-term borrowings | 2025: $7,150 | 2024: $6,980")
    other_year = "Our long-term borrowings were $7.15 billion at the end of fiscal 2023."
    other_item = "Goodwill was $7.2 billion at year end 2025, unchanged from the year before."
    ask = _ask("What were long-term borrowings at the end of 2025?")
    first = _first(evidence_answer(ask, _evidence(statement, other_year, other_item)).text)
    assert "$7.15 billion" in first or "$7.2 billion" in first, first
    assert "(source: Harrowgate_AR.pdf, p.30)" in first, first


def test_a_segment_ranking_cites_the_note_first_and_the_discussions_table_beside_it() -> None:
    discussion = ("Segment revenue (in millions)\n2024 | 2025 | % change\n"
                  "Cold chain | 2024: 640 | 2025: 902 | % change: 41%\n"
                  "Parcels | 2024: 1,180 | 2025: 1,305 | % change: 11%\n"
                  "Total revenue | 2024: $1,820 | 2025: $2,207 | % change: 21%")
    note = ("Note 4 — Segment Information\nRevenue by segment (in millions):\n"
            "2023 | 2024 | 2025\n"
            "Cold chain revenue | 2023: 511 | 2024: 640 | 2025: 902\n"
            "Parcels revenue | 2023: 1,022 | 2024: 1,180 | 2025: 1,305\n"
            "Total revenue | 2023: $1,533 | 2024: $1,820 | 2025: $2,207")
    ask = _ask("Which segment grew revenue fastest in 2025?")
    draft = ranking.answer(ask, _evidence(discussion, note))
    assert draft is not None
    first = _first(draft.text)
    assert "Cold chain" in first and "ranks first by growth" in first, first
    assert "(sources: Harrowgate_AR.pdf p.31, Harrowgate_AR.pdf p.30)" in first, first


def test_a_sentence_pairs_its_amounts_with_its_years_in_order() -> None:
    stated = sentence_stated("Deferred income was £3.1 million and £4.4 million at the end of "
                             "fiscal 2023 and 2024, respectively.")
    assert [(s.written, sorted(s.years)) for s in stated] == [
        ("£3.1 million", [2023]), ("£4.4 million", [2024])]
    unpaired = sentence_stated("Capital spending of €212 million in 2025 compared with 2024.")
    assert [sorted(s.years) for s in unpaired] == [[2024, 2025]]


def test_figures_agree_to_the_precision_the_less_precise_states() -> None:
    row = Stated(388_214_000.0, "388,214", frozenset({2025}), "USD")
    assert same_value(row, Stated(388_200_000.0, "$388.2 million", frozenset(), "USD"))
    assert not same_value(row, Stated(389_000_000.0, "$389.0 million", frozenset(), "USD"))
    assert not same_value(row, Stated(388_200_000.0, "€388.2 million", frozenset(), "EUR"))
    # one significant digit agrees with too much to say it is the same figure
    assert not same_value(Stated(2_140_000_000.0, "2,140", frozenset(), None),
                          Stated(2e9, "$2 billion", frozenset(), None))


def _finding(fid: str, page: int, value: float, written: str, excerpt: str,
             row: bool = False) -> Finding:
    return Finding(id=fid, deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
                   subject="net income", label="Net income", period="FY2025", value=value,
                   value_text=written, excerpt=excerpt, location=Location.for_page(page),
                   confidence=0.9, confidence_level=Confidence.HIGH,
                   attributes={"row": "Net loss", "column": "2025"} if row else {})


def test_a_read_figure_is_cited_at_its_statement_page_first() -> None:
    said = _finding("f1", 12, -48_300_000.0, "£48.3 million",
                    "Net loss for the year was £48.3 million.")
    table = _finding("f2", 57, -48_296_000.0, "(48,296)", "Net loss | 2025: (48,296)", row=True)
    other = _finding("f3", 19, -51_000_000.0, "£51.0 million",
                     "Net loss before the disposal was £51.0 million.")
    hits = [SearchHit(chunk_id=f"c{p}", document_id=DOC.id, document=DOC.filename, text=text,
                      location=Location.for_page(p), score=1.0)
            for p, text in ((12, "Financial review\nNet loss for the year was £48.3 million."),
                            (57, "Consolidated Statement of Income\n(in thousands)\n"
                                 "Net loss | 2025: (48,296)"),
                            (19, "Net loss before the disposal was £51.0 million."))]
    evidence = Evidence(documents={DOC.id: DOC}, hits=hits,
                        findings={f.id: f for f in (said, table, other)})
    reading = read_fact(evidence, "net income", "FY2025")
    assert reading is not None
    sentence = value_sentence(reading, evidence)
    assert "(sources: Harrowgate_AR.pdf p.57, Harrowgate_AR.pdf p.12)" in sentence, sentence
    assert "p.19" not in sentence


def test_a_summary_row_with_its_change_keeps_the_lead_and_cites_the_statement_first() -> None:
    summary = ("Revenue by product line (in millions):\n2025 | change | 2024\n"
               "Boilers | 2025: 2,418 | change: 9% | 2024: 2,219")
    statement = ("CONSOLIDATED STATEMENTS OF OPERATIONS\n(in millions)\n2025 | 2024\n"
                 "Boilers | 2025: 2,418 | 2024: 2,219")
    ask = _ask("How fast did boiler sales grow in 2025?")
    first = _first(evidence_answer(ask, _evidence(summary, statement)).text)
    assert "(+9%)" in first, first
    assert "(sources: Harrowgate_AR.pdf p.31, Harrowgate_AR.pdf p.30)" in first, first


def _charge(fid: str, page: int, period: str, value: float, written: str, excerpt: str,
            row: str = "") -> Finding:
    return Finding(id=fid, deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
                   subject="one-time charges", label="One-time charges", period=period,
                   value=value, value_text=written, excerpt=excerpt,
                   location=Location.for_page(page), confidence=0.9,
                   confidence_level=Confidence.HIGH,
                   attributes={"row": row, "column": period[2:]} if row else {})


def test_a_footnotes_figure_takes_the_period_its_row_states() -> None:
    row = _charge("r1", 44, "FY2024", 12_400_000.0, "12.4",
                  "Integration costs | 2025: — | 2024: 12.4 | 2023: —", row="Integration costs")
    note = _charge("n1", 44, "FY2025", 8_100_000.0, "$8.1 million",
                   "Included in integration costs is $8.1 million of advisory fees.")
    elsewhere = _charge("n2", 45, "FY2025", 5_000_000.0, "$5.0 million",
                        "Included in integration costs is $5.0 million of retention awards.")
    evidence = Evidence(documents={DOC.id: DOC}, findings={f.id: f for f in (row, note,
                                                                               elsewhere)})
    assert of_another_period(note, "FY2025", evidence)  # the row states none for 2025
    assert not of_another_period(note, "FY2024", evidence)
    assert not of_another_period(elsewhere, "FY2025", evidence)  # no row on its page
    stated = _charge("r2", 44, "FY2025", 3_000_000.0, "3.0",
                     "Integration costs | 2025: 3.0 | 2024: 12.4", row="Integration costs")
    evidence.findings[stated.id] = stated
    assert not of_another_period(note, "FY2025", evidence)  # a row that states 2025 too


def test_a_computed_inputs_summary_row_is_cited_at_its_statement_page_too() -> None:
    summary = ("Free cash flow reconciliation (in millions):\n2024 | 2025\n"
               "Net cash provided by operating activities | 2024: 3,318 | 2025: 3,742\n"
               "Purchases of property and equipment | 2024: (905) | 2025: (1,127)")
    statement = ("CONSOLIDATED STATEMENTS OF CASH FLOWS\n(in millions)\n2023 | 2024 | 2025\n"
                 "Net cash provided by operating activities | 2023: 2,960 | 2024: 3,318 | "
                 "2025: 3,742\n"
                 "Purchases of property and equipment | 2023: (840) | 2024: (905) | "
                 "2025: (1,127)")
    draft = computed.answer(_ask("What was free cash flow in 2025?"),
                            _evidence(summary, statement))
    assert draft is not None
    first = _first(draft.text)
    assert "$2.62 billion" in first, first
    # each input: the statement's page, then the summary's beside it
    assert first.count("(sources: Harrowgate_AR.pdf p.31, Harrowgate_AR.pdf p.30)") == 2, first


def test_a_computed_figure_of_a_year_is_read_from_that_years_filing() -> None:
    """Two annual reports of one company both state fiscal 2023's cash flows (the later one as
    a comparative): free cash flow of fiscal 2023 is read from, and cited to, fiscal 2023's
    report, the year's own; with no year asked, the newest report is read."""
    older, later = annual_reports()

    def statement(years: tuple[int, ...], cash: tuple[str, ...], capex: tuple[str, ...]) -> str:
        header = " | ".join(str(y) for y in years)
        return ("CONSOLIDATED STATEMENTS OF CASH FLOWS\n(in millions)\n" + header + "\n"
                "Net cash provided by operating activities | "
                + " | ".join(f"{y}: {c}" for y, c in zip(years, cash, strict=True)) + "\n"
                "Purchases of property and equipment | "
                + " | ".join(f"{y}: {c}" for y, c in zip(years, capex, strict=True)))

    hits = [SearchHit(chunk_id=f"c{doc.id}", document_id=doc.id, document=doc.filename,
                      text=text, location=Location.for_page(page), score=1.0)
            for doc, text, page in (
                (later, statement((2023, 2024, 2025), ("2,960", "3,318", "3,742"),
                                  ("(840)", "(905)", "(1,127)")), 61),
                (older, statement((2021, 2022, 2023), ("2,410", "2,702", "2,960"),
                                  ("(702)", "(788)", "(840)")), 44))]
    evidence = Evidence(documents={older.id: older, later.id: later}, hits=hits)
    draft = computed.answer(_ask("What was free cash flow in fiscal 2023?"), evidence)
    assert draft is not None
    first = _first(draft.text)
    assert "$2.12 billion" in first and "Harrowgate_AR_2023.pdf, p.44" in first, first
    assert "Harrowgate_AR_2025.pdf" not in first, first
    draft = computed.answer(_ask("What was free cash flow?"), evidence)
    assert draft is not None and "Harrowgate_AR_2025.pdf" in _first(draft.text)
