"""The figure of the metric asked (issue 25): a statement's own row, not a row or sentence that
only shares a word with it; a statement extracted one cell per line read as rows; a table's
lines kept out of the sentences around them; a forecast never an actual; a retail fiscal year
said as the year it ends. None of it knows a company or a filing."""

from __future__ import annotations

from datetime import date

from manda.agent.compose.common import Ask
from manda.agent.compose.leads import row_lead
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.agent.unusual import sentences
from manda.ingest.parsers.stacked import stacked_pages, stacked_rows
from manda.models import Document, DocumentStatus, Location, SearchHit

DOC = Document(id="d1", deal_id="d", filename="Filing.pdf", content_hash="h", file_type="pdf",
               size_bytes=1, version_family="f", status=DocumentStatus.COMPLETED,
               doc_date=date(2023, 9, 30), fiscal_year_end="--09-30")
RETAIL = DOC.model_copy(update={"id": "d2", "filename": "Retail.pdf",
                                "doc_date": date(2026, 1, 31), "fiscal_year_end": "--02-01"})

# a balance sheet whose extraction put every cell on a line of its own
ONE_CELL_PER_LINE = "\n".join([
    "Consolidated Balance Sheets", "label", "2023-09-30", "2022-09-24",
    "Current assets:", "Cash and Cash Equivalents", "29965000000.0", "23646000000.0",
    "Level 2 - Corporate debt securities", "58243000000.0", "70427000000.0",
    "Total Non Current Assets", "209017000000.0", "217350000000.0",
    "Total Assets", "352583000000.0", "352755000000.0",
    "Retained Earnings", "-214000000.0", "-3068000000.0",
])


def _as_ingested(page: str) -> str:
    """A page one cell per line as ingestion writes it: each label's figures on its row."""
    return stacked_rows(page)[0]


def _evidence(*texts: str, doc: Document = DOC) -> Evidence:
    hits = [SearchHit(chunk_id=f"c{i}", document_id=doc.id, document=doc.filename, text=text,
                      location=Location.for_page(10 + i), score=1.0)
            for i, text in enumerate(texts)]
    return Evidence(documents={doc.id: doc}, hits=hits)


def test_a_statement_with_one_cell_per_line_is_read_as_rows_under_its_dated_columns() -> None:
    ask = Ask.of(read_question("What were total assets at the end of fiscal 2023?"))
    evidence = _evidence(_as_ingested(ONE_CELL_PER_LINE))
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and top.row.label == "Total Assets", top.text
    lines = row_lead(top, ask, evidence)
    assert lines is not None
    assert lines[0].startswith("Total Assets was 352.6 billion at 30 September 2023"), lines[0]
    negative = next(s for s in rank_spans(read_question("What were retained earnings?"),
                                          evidence) if s.row is not None)
    assert negative.figures()[0].value == -214000000.0  # a minus sign is kept


def test_a_tables_lines_are_no_part_of_the_sentence_after_them() -> None:
    page = "\n".join([
        "2026 2027 2028 Thereafter Total Estimated Fair Value as of December 31, 2025",
        "Money market funds $29,046 $— $— $— $29,046 $29,777",
        "Corporate debt securities 63,890 2,867 2,008 423 69,579 69,585",
        "Cash equivalents and marketable debt securities $106,493",
        "As of December 31, 2025, we had long-term debt with a face value of $68.8 billion,",
        "including the current portion, primarily consisting of fixed rate senior notes.",
        "Our lease liabilities were $87.3 billion. Our long-term debt was $52.6 billion and $65.6",
        "billion as of December 31, 2024 and 2025. See Note 4 — Leases and Note 6 —",
        "Debt for additional information.",
    ])
    said = sentences(page)
    assert ("As of December 31, 2025, we had long-term debt with a face value of $68.8 billion, "
            "including the current portion, primarily consisting of fixed rate senior notes."
            ) in said
    assert "Money market funds $29,046 $— $— $— $29,046 $29,777" in said
    # a sentence wrapped after a figure ("$65.6" / "billion as of …") still reads as one
    assert any(s.startswith("Our long-term debt was $52.6 billion and $65.6 billion as of")
               for s in said), said


def test_a_figure_that_only_shares_a_word_with_the_line_item_asked_is_no_answer() -> None:
    evidence = _evidence("\n".join([
        "Share-based compensation expense recognized in SG&A Expenses was $282 million, $307 "
        "million, and $255 million in 2025, 2024, and 2023, respectively.",
        "During 2025 and 2024, we deployed $0.4 billion and $1.0 billion to repurchase shares.",
    ]))
    top = rank_spans(read_question("How much did the company spend on share repurchases in "
                                   "2025?"), evidence)[0]
    assert "repurchase shares" in top.text, top.text


def test_the_statements_row_of_the_line_item_leads_over_a_note_that_names_it() -> None:
    evidence = _evidence(
        "(in millions)\n2024 | 2025\nTotal current liabilities | 2024: 179,433 | 2025: 196,135\n"
        "Long-term debt | 2024: 52,623 | 2025: 65,648\n"
        "Repayments of long-term debt | 2024: (9,182) | 2025: (5,021)",
        "Interest expense was $2.4 billion and $2.3 billion in 2024 and 2025 and was primarily "
        "related to debt and finance leases.")
    ranked = rank_spans(read_question("How much long-term debt was there at the end of 2025?"),
                        evidence)
    assert ranked[0].row is not None and ranked[0].row.label == "Long-term debt", ranked[0].text


def test_a_forecast_leads_a_guidance_question_and_never_an_actual() -> None:
    evidence = _evidence("\n".join([
        "Net sales are expected to be between $173.5 billion and $178.5 billion in the first "
        "quarter of 2026.",
        "Net sales were $716.9 billion in 2025, compared with $638.0 billion in 2024.",
    ]))
    guidance = rank_spans(read_question("What net sales guidance was given for Q1 2026?"),
                          evidence)[0]
    assert "expected to be between" in guidance.text, guidance.text
    actual = rank_spans(read_question("What were net sales in 2025?"), evidence)[0]
    assert "were $716.9 billion" in actual.text, actual.text


def test_a_retail_fiscal_year_is_said_as_the_year_it_ends() -> None:
    evidence = _evidence(
        "Consolidated Statements of Cash Flows\n(millions)\n2025 | 2024\n"
        "Repurchase of stock | 2025: (408) | 2024: (1,007)",
        "As of January 31, 2026 and February 1, 2025, we held $5.0 billion of cash.",
        doc=RETAIL)
    ask = Ask.of(read_question("How much was spent on share repurchases in 2025?"))
    top = rank_spans(ask.frame, evidence)[0]
    lines = row_lead(top, ask, evidence)
    assert lines is not None
    assert "in fiscal 2025 (the year ended 31 January 2026)" in lines[0], lines[0]
    # parentheses are negative (an outflow); asked what was spent, the answer is the amount
    # spent; the statement prints no "$", the filing states its figures in it
    assert top.figures()[0].value == -408_000_000
    assert "$408.0 million spent" in lines[0] and "-$" not in lines[0], lines[0]


def test_a_share_of_the_total_is_computed_from_the_part_and_total_rows_with_its_working() -> None:
    from manda.agent.compose.fact_lookup import compose

    evidence = _evidence("\n".join([
        "The following table shows net sales by category (dollars in millions):",
        "2025 | 2024",
        "iPhone | 2025: $209,586 | 2024: $201,183",
        "Services | 2025: 109,158 | 2024: 96,169",
        "Total net sales | 2025: $416,161 | 2024: $391,035",
    ]))
    draft = compose(Ask.of(read_question("What share of net sales came from Services in 2025?")),
                    evidence)
    first, working = draft.text.splitlines()[:2]
    assert first.startswith("Services's share of total net sales was 26.2% in fiscal 2025 (the "
                            "year ending September 2025)"), first
    assert "Services $109.2 billion (source: Filing.pdf, p.10)" in first
    assert working == ("Working: Services's share of total net sales = Services ÷ total net sales"
                       " = 109,158 ÷ 416,161 = 0.262 (dollars in millions)."), working


def test_a_passage_cut_below_its_headers_takes_the_filings_headers_of_as_many_columns() -> None:
    cash_flow = "\n".join(["Consolidated Statements of Cash Flows", "label", "2023-12-31",
                           "2022-12-31", "2021-12-31", "Depreciation, amortization and impairment",
                           "4667000000.0", "3747000000.0", "2911000000.0",
                           "Net cash provided by operating activities", "13256000000.0",
                           "14724000000.0", "11497000000.0"])
    cut = "\n".join(["Total revenues", "96773000000.0", "81462000000.0", "53823000000.0",
                     "Gross profit", "17660000000.0", "20853000000.0", "13606000000.0",
                     "Operating Income", "8891000000.0", "13656000000.0", "6523000000.0",
                     "Net income", "14997000000.0", "12583000000.0", "5644000000.0"])
    ask = Ask.of(read_question("What was EBITDA in 2023?"))
    from manda.agent.compose.computed import answer as computed_answer

    draft = computed_answer(ask, _evidence(*stacked_pages([cash_flow, cut])))
    assert draft is not None
    assert draft.text.startswith("EBITDA was $13.6 billion in 2023 (computed"), draft.text
    assert "operating income 8.89 billion (source: Filing.pdf, p.11)" in draft.text


def test_a_loss_row_leads_with_the_size_of_the_loss() -> None:
    """A statement one cell per line, its signs set apart ("$ (70,115)"): asked for the net loss,
    the answer says the loss ($70.12 million), not a net loss of -$70.12 million."""
    statement = "\n".join([
        "Consolidated Statements of Operations",
        "(in thousands)",
        "2023", "2022",
        "Revenue", "$ 412,800", "$ 377,050",
        "Net loss", "$ (70,115)", "$ (94,212)",
    ])
    ask = Ask.of(read_question("What was the net loss in fiscal 2023?"))
    evidence = _evidence(_as_ingested(statement))
    top = next(s for s in rank_spans(ask.frame, evidence) if s.row is not None)
    assert top.row is not None and top.row.label == "Net loss", top.text
    assert top.figures()[0].value == -70_115_000
    lines = row_lead(top, ask, evidence)
    assert lines is not None and "$70.12 million" in lines[0] and "-$" not in lines[0], lines


def test_a_word_a_span_says_in_full_is_not_counted_again_for_half() -> None:
    """A line item named in a sentence (in full) and by its heading (for half) is said once:
    the proceeds sentence does not cover the whole of a question about the debt balance."""
    evidence = _evidence(
        "Financing Activities\nCash inflows from financing activities resulted from proceeds "
        "from long-term debt of $5.1 billion in 2025.",
        "As of December 31, 2025, the company had debt outstanding of $41.2 billion.")
    ranked = rank_spans(read_question(
        "How much long-term debt did the company have outstanding at the end of 2025?"), evidence)
    proceeds = next(s for s in ranked if s.text.startswith("Cash inflows"))
    assert proceeds.words < 1.0, proceeds.words
    assert ranked[0].text.startswith("As of December 31, 2025"), ranked[0].text


def test_a_statement_that_prints_no_currency_is_in_the_document_s() -> None:
    """A euro filing's statement "(in thousands)" with bare figures: its rows are in euros, the
    currency the filing's figures are stated in, not in no currency and not in dollars."""
    evidence = _evidence(
        "Consolidated income statement\n(in thousands)\n2024 | 2023\n"
        "Revenue | 2024: 48,600 | 2023: 42,300",
        "Revenue grew to €48.6 million, and EBITDA reached €9.1 million; a US customer paid "
        "in dollars.")
    ask = Ask.of(read_question("What was revenue in 2024?"))
    top = next(s for s in rank_spans(ask.frame, evidence) if s.row is not None)
    lines = row_lead(top, ask, evidence)
    assert lines is not None and "EUR 48.6 million" in lines[0], lines


def test_a_row_of_nothing_but_zeros_does_not_answer_how_much() -> None:
    """A fair-value table lists the item with nil figures ("Cash | 0 | 0" under its marketable
    securities): the balance sheet's row with the item's figures answers."""
    evidence = _evidence(
        "Marketable securities by level\n2025 | 2024 | 2023 | 2022\n"
        "Cash and cash equivalents | 2025: 0 | 2024: 0 | 2023: 0 | 2022: 0\n"
        "Level 1 funds | 2025: 1,204 | 2024: 1,990 | 2023: 1,870 | 2022: 1,650",
        "Balance sheet (in thousands)\n2025 | 2024\n"
        "Cash and cash equivalents | 2025: 48,210 | 2024: 39,870\n"
        "Trade receivables | 2025: 22,400 | 2024: 20,100")
    ask = Ask.of(read_question("How much cash and cash equivalents did the company hold in 2025?"))
    top = next(s for s in rank_spans(ask.frame, evidence) if s.row is not None)
    assert top.row is not None and "48,210" in top.text, top.text


def test_a_share_spent_on_a_named_line_item_divides_that_items_row() -> None:
    """"What share of revenue did they spend on research and development?": the R&D row over
    revenue, not another expense row the question's other words ("spend") may match."""
    from manda.agent.compose.fact_lookup import compose

    evidence = _evidence("\n".join([
        "Consolidated statements of operations (in thousands)",
        "2024 | 2023",
        "Revenue | 2024: 1,250,000 | 2023: 1,010,000",
        "Research and development | 2024: 212,500 | 2023: 190,300",
        "Sales and marketing | 2024: 301,000 | 2023: 288,000",
        "Total costs and expenses | 2024: 1,402,000 | 2023: 1,260,000",
        "Net loss | 2024: (152,000) | 2023: (250,000)",
    ]))
    draft = compose(Ask.of(read_question(
        "What share of revenue did the company spend on research and development in 2024?")),
        evidence)
    first = draft.text.splitlines()[0]
    assert "17.0%" in first and "Research and development" in first, first
