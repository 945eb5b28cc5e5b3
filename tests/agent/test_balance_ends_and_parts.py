"""Which row of a statement answers (issue 25): a balance at the end of its period, not its
opening line, unless the opening is asked; the row of the part a question names, not the total,
and the total where the whole is asked. Invented companies, currencies and wordings."""

from __future__ import annotations

from datetime import date

from manda.agent.compose.common import Ask
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.spans import balance_side, rank_spans
from manda.models import Document, DocumentStatus, Location, SearchHit

DOC = Document(id="d1", deal_id="d", filename="Kestrel_Annual_Report_2024.pdf",
               content_hash="h", file_type="pdf", size_bytes=1, version_family="f",
               status=DocumentStatus.COMPLETED, doc_date=date(2024, 12, 31),
               fiscal_year_end="--12-31")

CASH_FLOW = "\n".join([
    "CONSOLIDATED STATEMENT OF CASH FLOWS", "(in thousands of euros)", "2023 | 2024",
    "Net cash from operating activities | 2023: 48,210 | 2024: 55,904",
    "Net increase in cash and cash equivalents | 2023: 6,115 | 2024: 9,872",
    "Cash and cash equivalents at beginning of year | 2023: 31,006 | 2024: 37,121",
    "Cash and cash equivalents at end of year | 2023: 37,121 | 2024: 46,993",
])

EQUITY = "\n".join([
    "CONSOLIDATED STATEMENT OF CHANGES IN EQUITY", "(in millions of Swiss francs)",
    "2023 | 2024",
    "Total equity at start of year | 2023: CHF 1,480 | 2024: CHF 1,612",
    "Net income | 2023: 201 | 2024: 244",
    "Dividends paid | 2023: (69) | 2024: (75)",
    "Total equity at close of year | 2023: CHF 1,612 | 2024: CHF 1,781",
])

SEGMENTS = "\n".join([
    "Revenue by segment is as follows (in millions):", "Revenue", "2023 | 2024",
    "Marine Systems | 2023: $1,204 | 2024: $1,388",
    "Rail Signalling | 2023: 846 | 2024: 903",
    "Aviation Services | 2023: 517 | 2024: 611",
    "Total revenue | 2023: $2,567 | 2024: $2,902",
])


def _evidence(*texts: str) -> Evidence:
    hits = [SearchHit(chunk_id=f"c{i}", document_id=DOC.id, document=DOC.filename, text=text,
                      location=Location.for_page(50 + i), score=1.0)
            for i, text in enumerate(texts)]
    return Evidence(documents={DOC.id: DOC}, hits=hits)


def _top_row(question: str, *texts: str) -> str:
    ranked = [s for s in rank_spans(read_question(question), _evidence(*texts))
              if s.row is not None]
    assert ranked, question
    return ranked[0].row.label  # type: ignore[union-attr]


def test_a_balance_at_year_end_is_read_from_the_closing_line_not_the_opening_one() -> None:
    assert _top_row("What were Kestrel's cash and cash equivalents at the end of 2024?",
                    CASH_FLOW) == "Cash and cash equivalents at end of year"
    assert _top_row("How much cash and cash equivalents did Kestrel hold in 2024?",
                    CASH_FLOW) == "Cash and cash equivalents at end of year"
    assert _top_row("What was Kestrel's total equity in 2024?",
                    EQUITY) == "Total equity at close of year"


def test_the_opening_line_answers_when_the_opening_balance_is_asked() -> None:
    assert _top_row("What were cash and cash equivalents at the beginning of 2024?",
                    CASH_FLOW) == "Cash and cash equivalents at beginning of year"


def test_the_lead_states_the_closing_figure() -> None:
    draft = evidence_answer(_ask("What were Kestrel's cash and cash equivalents at year end "
                                 "2024?"), _evidence(CASH_FLOW))
    first = draft.text.splitlines()[0]
    assert first.startswith("Cash and cash equivalents at end of year was EUR 46.99 million "
                            "in 2024"), first


def test_which_end_a_balance_stands_at_in_each_language() -> None:
    for text, side in (("Cash, beginning of period", "opening"),
                       ("Ending balance", "closing"),
                       ("Trésorerie à l'ouverture de l'exercice", "opening"),
                       ("Trésorerie à la clôture", "closing"),
                       ("Stand zum Ende des Geschäftsjahres", "closing"),
                       ("Anfangsbestand", "opening"),
                       ("Saldo al inicio del ejercicio", "opening"),
                       ("Efectivo al final del periodo", "closing")):
        assert balance_side(text, row=True) == side, text
    # a sentence says it in more than one word: a deal's closing is no balance
    assert balance_side("Fees of $12 million were paid at closing.", row=False) is None
    assert balance_side("Cash at the end of the year was $4.1 million.", row=False) == "closing"


def test_a_part_asked_is_read_from_its_row_and_the_whole_from_the_total() -> None:
    assert _top_row("What was Rail Signalling revenue in 2024?", SEGMENTS) == "Rail Signalling"
    assert _top_row("What was Kestrel's total revenue in 2024?", SEGMENTS) == "Total revenue"
    assert _top_row("What was Kestrel's revenue in 2024?", SEGMENTS) == "Total revenue"


def _ask(question: str) -> Ask:
    return Ask.of(read_question(question))


def test_the_answer_names_the_part_and_the_period() -> None:
    draft = evidence_answer(_ask("What was Rail Signalling revenue in 2024?"),
                            _evidence(SEGMENTS))
    first = draft.text.splitlines()[0]
    assert first.startswith("Revenue — Rail Signalling was $903.0 million in 2024"), first


def test_each_part_a_question_names_is_answered() -> None:
    draft = evidence_answer(_ask("What were Marine Systems and Aviation Services revenue in "
                                 "2024?"), _evidence(SEGMENTS))
    lines = draft.text.splitlines()
    assert "Marine Systems" in lines[0] or "Aviation Services" in lines[0], lines
    assert "$1.39 billion" in draft.text and "$611.0 million" in draft.text, draft.text
