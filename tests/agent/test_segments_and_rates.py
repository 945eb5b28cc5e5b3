"""Parts and rates read right from a filing's tables and sentences (issue 25): a loss margin is
computed like any margin and said as a loss; an outflow asked as spending is the amount spent;
a rate stated as a change from one level to another gives each period its level. Every table
and sentence here is invented (other companies, other currencies, other wording)."""

from __future__ import annotations

from datetime import date

from manda.agent.compose.common import Ask
from manda.agent.compose.computed import answer as computed_answer
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.models import (
    Confidence,
    Document,
    DocumentStatus,
    Finding,
    FindingKind,
    Location,
    Nature,
    SearchHit,
)

DOC = Document(id="d1", deal_id="d", filename="Annual.pdf", content_hash="h", file_type="pdf",
               size_bytes=1, version_family="f", status=DocumentStatus.COMPLETED,
               doc_date=date(2024, 12, 31), fiscal_year_end="--12-31")


def _evidence(*texts: str) -> Evidence:
    hits = [SearchHit(chunk_id=f"c{i}", document_id=DOC.id, document=DOC.filename, text=text,
                      location=Location.for_page(20 + i), score=1.0)
            for i, text in enumerate(texts)]
    return Evidence(documents={DOC.id: DOC}, hits=hits)


# ---------------------------------------------------------------- loss margins

LOSS_STATEMENT = "\n".join([
    "Consolidated Statements of Operations",
    "(in thousands of euros)",
    "2024 | 2023",
    "Revenue | 2024: 84,000 | 2023: 70,000",
    "Loss from operations | 2024: (12,600) | 2023: (21,000)",
    "Net loss | 2024: (16,800) | 2023: (24,500)",
])


def test_a_net_loss_margin_is_the_net_loss_over_revenue_said_as_a_loss() -> None:
    ask = Ask.of(read_question("What was Kestrel Robotics' net loss margin in 2024?"))
    assert ask.frame.derived is not None and ask.frame.derived.name == "net loss margin"
    draft = computed_answer(ask, _evidence(LOSS_STATEMENT))
    assert draft is not None
    first = draft.text.splitlines()[0]
    assert first.startswith("Net loss margin was -20.0% (a loss)"), first
    assert "Working: net loss margin = (net income) ÷ revenue = (−16,800) ÷ 84,000" \
        in draft.text, draft.text


def test_an_operating_loss_margin_reads_the_loss_from_operations_row() -> None:
    ask = Ask.of(read_question("What was the operating loss margin in 2023?"))
    assert ask.frame.derived is not None and ask.frame.derived.name == "operating loss margin"
    draft = computed_answer(ask, _evidence(LOSS_STATEMENT))
    assert draft is not None
    assert draft.text.startswith("Operating loss margin was -30.0% (a loss)"), draft.text


def test_a_loss_row_printed_without_parentheses_is_still_a_loss() -> None:
    statement = "\n".join([
        "Statement of profit or loss", "(in millions)", "2024 | 2023",
        "Revenue | 2024: 250.0 | 2023: 200.0",
        "Net loss | 2024: 20.0 | 2023: 35.0",
    ])
    draft = computed_answer(Ask.of(read_question("What was the net margin in 2024?")),
                            _evidence(statement))
    assert draft is not None
    assert draft.text.startswith("Net margin was -8.0% (a loss)"), draft.text


# ---------------------------------------------------------------- outflows asked as spending

CASH_FLOWS = "\n".join([
    "Consolidated Statement of Cash Flows",
    "(in millions of Canadian dollars)",
    "2024 | 2023",
    "Acquisitions of businesses, net of cash acquired | 2024: (1,250) | 2023: (310)",
    "Purchases of property, plant and equipment | 2024: (842) | 2023: (765)",
    "Net cash used in investing activities | 2024: (2,004) | 2023: (1,011)",
])


def _lead(question: str, text: str) -> str:
    from manda.agent.compose.leads import row_lead
    from manda.agent.spans import rank_spans

    ask = Ask.of(read_question(question))
    evidence = _evidence(text)
    top = next(s for s in rank_spans(ask.frame, evidence) if s.row is not None)
    lines = row_lead(top, ask, evidence)
    assert lines is not None
    return lines[0]


def test_an_outflow_asked_as_spending_is_the_amount_spent() -> None:
    lead = _lead("How much did Borealis Freight spend on acquisitions in 2024?", CASH_FLOWS)
    assert lead.startswith("Acquisitions of businesses, net of cash acquired: "), lead
    assert "1.25 billion spent in 2024" in lead and "-" not in lead.split("(")[0], lead


def test_a_net_flow_asked_as_such_keeps_its_sign() -> None:
    lead = _lead("What was cash flow from investing activities in 2024?", CASH_FLOWS)
    assert lead.startswith("Net cash used in investing activities was"), lead
    assert "spent" not in lead, lead


def test_spending_is_asked_in_other_languages_too() -> None:
    lead = _lead("Combien Borealis Freight a-t-elle dépensé en acquisitions en 2024 ?",
                 CASH_FLOWS)
    assert "dépensés" in lead and "-" not in lead.split("(")[0], lead


def test_a_loss_margin_is_computed_where_the_room_states_the_loss_itself() -> None:
    """The net loss is stated (a finding); its margin is not: the margin is computed, not the
    loss answered in its place."""
    from manda.agent.compose.fact_lookup import compose
    from manda.models import Confidence, Finding, FindingKind, Nature

    loss = Finding(id="f1", deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
                   subject="net income", label="Net income", period="FY2024",
                   value=-16_800_000.0, unit="EUR", value_text="€16.8 million",
                   nature=Nature.ACTUAL, excerpt="Net loss was €16.8 million in 2024.",
                   location=Location.for_page(3), confidence=0.9,
                   confidence_level=Confidence.HIGH, extractor="offline")
    evidence = _evidence(LOSS_STATEMENT)
    evidence.findings[loss.id] = loss
    draft = compose(Ask.of(read_question("What was the net loss margin in 2024?")), evidence)
    assert draft.text.startswith("Net loss margin was -20.0% (a loss)"), draft.text


def test_a_margin_of_inputs_read_at_different_scales_is_not_stated() -> None:
    """An operating loss from a table "in millions" over a revenue row whose table states no
    unit line: the ratio would be thousands of per cent, so no margin is computed."""
    scaled = "\n".join(["Segment results", "(in millions)", "2024 | 2023",
                        "Loss from operations | 2024: (3,834) | 2023: (4,864)"])
    unscaled = "\n".join(["2024 | 2023", "Revenue | 2024: 17,455 | 2023: 11,139"])
    ask = Ask.of(read_question("What was the operating loss margin in 2024?"))
    assert computed_answer(ask, _evidence(scaled, unscaled)) is None


# ---------------------------------------------------------------- a segment named by its heading

SEGMENT_NOTE = "\n".join([
    "Reportable segment results are as follows (in millions):",
    "Marine Systems",
    "2024 | 2023",
    "Net sales | 2024: $2,410 | 2023: $2,180",
    "Operating income | 2024: $312 | 2023: $254",
    "Rail Services",
    "2024 | 2023",
    "Net sales | 2024: $1,105 | 2023: $1,240",
    "Operating income | 2024: $(48) | 2023: $61",
    "Consolidated",
    "2024 | 2023",
    "Net sales | 2024: $3,515 | 2023: $3,420",
    "Operating income | 2024: $264 | 2023: $315",
])


def test_a_segments_row_leads_a_question_naming_the_segment_with_its_name() -> None:
    lead = _lead("What was Rail Services' operating income in 2024?", SEGMENT_NOTE)
    assert lead.startswith("Rail Services — Operating income was -$48.0 million in 2024"), lead


def test_the_whole_is_answered_from_the_consolidated_block() -> None:
    lead = _lead("What were consolidated net sales in 2024?", SEGMENT_NOTE)
    assert "$3.52 billion" in lead and "—" not in lead.split(" was ")[0], lead


def test_the_companys_figure_asked_without_the_word_consolidated_is_the_whole() -> None:
    """"What was operating income in 2024?": a segment block's row is a part of it, whatever
    its figures; the consolidated block answers."""
    lead = _lead("What was the company's operating income in 2024?", SEGMENT_NOTE)
    assert "$264.0 million" in lead and "—" not in lead.split(" was ")[0], lead


def test_a_total_row_states_the_whole_over_the_rows_it_adds_up() -> None:
    """A statement's "Total net sales" row and its part rows ("Net product sales") both read as
    revenue: the total leads, whichever the page prints with a "$"."""
    from manda.agent.selection import read_fact
    from manda.models import Confidence, Finding, FindingKind, FindingStatus, Location

    def row(fid: str, value: float, written: str, total: bool) -> Finding:
        return Finding(id=fid, deal_id="d", document_id="d1", kind=FindingKind.METRIC,
                       subject="revenue", label="Revenue", period="FY2024", value=value,
                       unit="USD", value_text=written, excerpt=written,
                       status=FindingStatus.APPROVED, location=Location.for_page(37),
                       confidence=0.95, confidence_level=Confidence.HIGH,
                       attributes={"total": "yes"} if total else {})

    part = row("f1", 2_410_000_000.0, "$2,410", total=False)
    whole = row("f2", 3_515_000_000.0, "3,515", total=True)
    evidence = _evidence("Net product sales | 2024: $2,410\nTotal net sales | 2024: 3,515")
    evidence.findings.update({part.id: part, whole.id: whole})
    reading = read_fact(evidence, "revenue", "FY2024")
    assert reading is not None and reading.primary.id == "f2"


# ---------------------------------------------------------------- a rate named like an amount

AMOUNT_NAMED_MARGIN = "\n".join([
    "Summary Results of Operations",
    "(in millions, except percentages)",
    "2024 | 2023",
    "Revenue | 2024: 84,000 | 2023: 70,000",
    "Gross margin | 2024: 58,000 | 2023: 47,000",
    "Operating income | 2024: 30,000 | 2023: 24,000",
])


def _rate_finding(value: float, written: str, excerpt: str, row: str = "") -> Finding:
    return Finding(id=f"g-{written}", deal_id="d", document_id=DOC.id,
                   kind=FindingKind.METRIC, subject="gross margin", label="Gross margin",
                   period="FY2024", value=value, unit="%", value_text=written,
                   nature=Nature.ACTUAL, excerpt=excerpt, attributes={"row": row} if row else {},
                   location=Location.for_page(20), confidence=0.9,
                   confidence_level=Confidence.HIGH, extractor="offline")


def test_a_margin_asked_of_a_filing_that_calls_its_gross_profit_gross_margin_is_computed() -> None:
    """A filing whose "Gross margin" row states an amount (58,000), whose prose states the
    margin percentage of a business named after the company ("Kestrel Cloud gross margin
    percentage … 71%") and the margin's changes ("increased $11.0 billion or 23%"): the
    company's margin asked as a percentage is computed from the two rows (69.0%), never the
    amount, the part's 71% or a change's 23%."""
    from manda.agent.compose.fact_lookup import compose

    evidence = _evidence(AMOUNT_NAMED_MARGIN,
                         "Kestrel Cloud gross margin percentage increased 3 points to 71%.",
                         "Gross margin increased $11.0 billion or 23% driven by Kestrel Cloud.")
    evidence.scope_words = frozenset({"kestrel"})
    for finding in (
            _rate_finding(58_000.0, "58,000", "Gross margin | 2024: 58,000 | 2023: 47,000",
                          row="Gross margin"),
            _rate_finding(71.0, "71%", "Kestrel Cloud gross margin percentage increased 3 "
                                       "points to 71%."),
            _rate_finding(23.0, "23%", "Gross margin increased $11.0 billion or 23% driven by "
                                       "Kestrel Cloud.")):
        evidence.findings[finding.id] = finding
    for question in ("What was Kestrel's gross margin as a percentage of revenue in 2024?",
                     "What was Kestrel's gross margin percentage in 2024?"):
        draft = compose(Ask.of(read_question(question)), evidence)
        first = draft.text.splitlines()[0]
        assert first.startswith("Gross margin was 69.0%"), (question, draft.text)
