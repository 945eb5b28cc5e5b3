"""A question's frame reads its period apart from what it asks: a period phrase ("at fiscal year
end 2025", "à la clôture de l'exercice") is its period, never its subject nor its kind of answer;
"currently" asks for the company's latest document; a metric per unit of something ("revenue
per active rider") is that metric, not the line item its name contains; a count ("paying
members") is answered by its key-metrics row in its own unit, with the change asked.

Every question, sentence and document here is invented (a toll-road operator, a grocer, a
streaming service), in the four languages the vocabulary reads.
"""

from __future__ import annotations

from datetime import date

import pytest

from manda.agent.compose import computed, evidence_first
from manda.agent.compose.common import Ask
from manda.agent.constraints import ConstraintKind
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.ingest.parsers.flowed import flowed_rows
from manda.models import Document, DocumentStatus, Location, SearchHit


@pytest.mark.parametrize(("question", "period"), [
    ("How much revolver debt did Halvard Tolls carry at fiscal year end 2024?", "FY2024"),
    ("What was Brindle Grocers' cash at the end of 2022?", "FY2022"),
    ("What inventory did the company hold as of year-end 2023?", "FY2023"),
    ("How many subscribers did Quillstream have at the close of fiscal 2021?", "FY2021"),
    ("What were net sales for the twelve months ended June 30, 2024?", "FY2024"),
    ("Quelle était la dette nette en fin d'exercice 2024 ?", "FY2024"),
    ("Wie hoch war die Liquidität zum Geschäftsjahresende 2023?", "FY2023"),
    ("¿Cuál era la deuda financiera al cierre de 2022?", "FY2022"),
])
def test_a_period_phrase_is_the_period_asked_not_a_year_end_question(question: str,
                                                                     period: str) -> None:
    frame = read_question(question)
    assert frame.periods == (period,)
    assert not frame.year_end


@pytest.mark.parametrize("question", [
    "How much cash did Halvard Tolls hold at fiscal year-end?",
    "What was the order backlog as of the end of the fiscal year?",
    "Quelle était la trésorerie à la clôture de l'exercice ?",
    "Wie hoch waren die Vorräte zum Jahresende?",
    "¿Cuál era la caja al cierre del ejercicio?",
])
def test_a_year_end_without_a_year_is_a_point_in_time_not_the_year_end_asked(question: str
                                                                            ) -> None:
    assert not read_question(question).year_end


@pytest.mark.parametrize("question", [
    "When does Halvard Tolls' fiscal year end?",
    "Quand se termine l'exercice ?",
    "Wann endet das Geschäftsjahr?",
])
def test_the_year_end_itself_is_still_asked(question: str) -> None:
    assert read_question(question).year_end


@pytest.mark.parametrize(("question", "now"), [
    ("Which streaming plans does Quillstream currently offer?", True),
    ("What is the company's current dividend per share?", True),
    ("Who chairs the board today?", True),
    ("Quels magasins la société exploite-t-elle actuellement ?", True),
    ("Welche Produkte bietet die Gesellschaft derzeit an?", True),
    ("¿Qué productos vende actualmente la empresa?", True),
    ("What is the current portion of long-term debt?", False),  # a line item's "current"
    ("What were total current liabilities?", False),
    ("Which plans did Quillstream offer in fiscal 2022?", False),  # a period named
])
def test_now_asks_for_the_latest_document(question: str, now: bool) -> None:
    assert read_question(question).now is now


@pytest.mark.parametrize("question", [
    "What was Quillstream's revenue per paying member in Q3 2024?",
    "What was average revenue per user in the second quarter of 2023?",
    "What were Brindle Grocers' sales per square foot in fiscal 2023?",
    "What was EBITDA per employee in 2024?",
    "Wie hoch war der Umsatz pro Kunde im Geschäftsjahr 2024?",
    "Quel était le chiffre d'affaires par abonné en 2024 ?",
    "¿Cuáles fueron los ingresos por usuario en 2024?",
])
def test_a_metric_per_unit_is_not_the_line_item_its_name_contains(question: str) -> None:
    frame = read_question(question)
    assert frame.subjects == ()


@pytest.mark.parametrize("question", [
    "What was ARPU in Q3 2024?",
    "What was the dividend per share in fiscal 2024?",
])
def test_a_metric_per_unit_asked_with_what_was_is_a_figure(question: str) -> None:
    assert read_question(question).answer_kind == "figure"


def test_revenue_per_quarter_is_still_revenue() -> None:
    """"per year", "per quarter" name a period, not a unit the metric is divided by."""
    assert read_question("What was revenue per quarter in 2024?").subjects == ("revenue",)


# ---------------------------------------------------------------- the latest document


def _doc(ident: str, name: str, dated: date) -> Document:
    return Document(id=ident, deal_id="d", filename=name, content_hash=ident, file_type="pdf",
                    size_bytes=1, version_family=ident, status=DocumentStatus.COMPLETED,
                    doc_date=dated)


# two annual reports of one streaming service, and another company's later one; the file
# names say nothing of the period (the documents' own dates do)
OLDER = _doc("a", "Quillstream_annual_report_A.pdf", date(2022, 2, 28))
NEWER = _doc("b", "Quillstream_annual_report_B.pdf", date(2024, 2, 29))
OTHER = _doc("c", "Brindle_annual_report.pdf", date(2025, 3, 31))
PLANS_THEN = "Quillstream offers three streaming plans: Basic, Standard and Premium."
PLANS_NOW = "Quillstream offers two streaming plans: Standard with adverts and Premium."


def _evidence(*placed: tuple[Document, str], scope: frozenset[str] | None,
              room: tuple[Document, ...] = (OLDER, NEWER, OTHER)) -> Evidence:
    hits = [SearchHit(chunk_id=f"c{i}", document_id=doc.id, document=doc.filename, text=text,
                      location=Location.for_page(5 + i), score=1.0)
            for i, (doc, text) in enumerate(placed)]
    return Evidence(documents={d.id: d for d in room}, hits=hits, scope=scope)


def test_currently_is_answered_from_the_company_s_latest_document() -> None:
    """The room holds a later document of another company: the company's own latest leads."""
    evidence = _evidence((OLDER, PLANS_THEN), (NEWER, PLANS_NOW),
                         scope=frozenset({OLDER.id, NEWER.id}))
    ranked = rank_spans(read_question("Which streaming plans does Quillstream currently offer?"),
                        evidence)
    assert ranked[0].source.document_id == NEWER.id
    older = next(s for s in ranked if s.source.document_id == OLDER.id)
    assert ranked[0].score - older.score > 0.3  # not a tie: the older one is out of date


def test_an_earlier_period_named_is_answered_from_its_own_document() -> None:
    evidence = _evidence((OLDER, "In fiscal 2021 Quillstream offered three streaming plans."),
                         (NEWER, "In fiscal 2023 Quillstream offered two streaming plans."),
                         scope=frozenset({OLDER.id, NEWER.id}))
    ranked = rank_spans(read_question("Which streaming plans did Quillstream offer in fiscal "
                                      "2021?"), evidence)
    assert ranked[0].source.document_id == OLDER.id


def test_with_no_period_the_latest_document_wins_a_tie() -> None:
    """A room of one company's documents (no scope): the same sentence in both, the later
    document's leads."""
    said = "Quillstream offers three streaming plans to its members."
    evidence = _evidence((OLDER, said), (NEWER, said), scope=None, room=(OLDER, NEWER))
    ranked = rank_spans(read_question("What streaming plans does Quillstream offer?"), evidence)
    assert ranked[0].source.document_id == NEWER.id


# ---------------------------------------------------------------- a count in its own unit


# a streaming service's key-metrics page, flowed as its PDF prints it: dollars in the prose
# above, the table's title run on from the sentence before it, counts in thousands by quarter
# and the page's number after the last row
METRICS_PAGE = """Revenue grew to $1,210.5 million in 2023, and we ended the year with $880.2
million in cash. Paying members are the core measure of our reach. Paying Members
2023
2022 2022 to 2023 %
Change
(in thousands, except for dollar amounts and percentages)
Three Months Ended March 31
4,210 3,905 7.8% Three Months Ended June 30
4,388 3,950 11.1% Three Months Ended September 30
4,502 4,020 12.0% Three Months Ended December 31
4,655 4,101 13.5% 41"""
STREAMING = _doc("q", "Quillstream_annual_report_2023.pdf", date(2023, 12, 31))


def test_a_count_asked_is_its_key_metric_row_in_its_own_unit_with_the_change() -> None:
    page = flowed_rows(METRICS_PAGE)
    evidence = Evidence(documents={STREAMING.id: STREAMING}, scope=frozenset({STREAMING.id}),
                        scope_words=frozenset({"quillstream"}),
                        hits=[SearchHit(chunk_id="c", document_id=STREAMING.id,
                                        document=STREAMING.filename, text=page,
                                        location=Location.for_page(41), score=1.0)])
    frame = read_question("How many paying members did Quillstream have in Q4 2023, and how "
                          "did that compare with a year earlier?")
    lead = rank_spans(frame, evidence)[0]
    assert lead.row is not None and "4,655" in lead.text
    assert [f.unit for f in lead.figures() if f.unit != "%"] == [None, None]  # no dollars
    first = evidence_first.answer(Ask.of(frame), evidence, category="General").text
    first = first.splitlines()[0]
    assert first.startswith("Paying Members")  # its title, not the sentence before it
    assert "4.66 million" in first and "13.5%" in first and "$" not in first


def test_a_period_phrase_s_words_say_when_not_what_is_asked() -> None:
    """"at the end of 2021", "as of the end of the fiscal year": they narrow which passage, a
    passage need not repeat them (a row with "2021" in another sense is not the debt asked)."""
    frame = read_question("How much long-term debt did Halvard Tolls have at the end of 2021?")
    assert "2021" in frame.ranking.when and "debt" not in frame.ranking.when
    at = read_question("How much cash did Halvard Tolls hold as of the end of the fiscal year?")
    assert {"fiscal", "year"} <= at.ranking.when and "cash" not in at.ranking.when


@pytest.mark.parametrize(("question", "period"), [
    ("What were net sales for the year ended January 29, 2022?", "FY2021"),
    ("Capex for the fiscal year ended February 3, 2024?", "FY2023"),
    ("What was operating income for the year ended 1 February 2025?", "FY2024"),
    ("What were net sales for the year ended June 30, 2024?", "FY2024"),
    ("What was revenue for the year ended December 31, 2023?", "FY2023"),
])
def test_a_year_asked_by_its_last_day_is_the_year_that_day_names(question: str,
                                                                 period: str) -> None:
    """A year that ends in January or the first days of February (a retail calendar) is named
    by the year it starts in, as its statements' columns are read; any other by its end."""
    assert read_question(question).periods == (period,)


def _grocer(table: str) -> Evidence:
    """A grocer's statement page; its fiscal years end in late January."""
    doc = Document(id="g1", deal_id="d", filename="Brindle_Annual.pdf", content_hash="h",
                   file_type="pdf", size_bytes=1, version_family="f",
                   status=DocumentStatus.COMPLETED, doc_date=date(2026, 1, 31),
                   fiscal_year_end="--01-31")
    hit = SearchHit(chunk_id="c1", document_id=doc.id, document=doc.filename, text=table,
                    location=Location.for_page(40), score=1.0)
    return Evidence(documents={doc.id: doc}, hits=[hit])


def test_a_retail_year_asked_by_its_last_day_is_answered_from_its_own_column() -> None:
    """"The year ended February 1, 2025" of a grocer whose columns are "2025 | 2024" (its years
    end in late January) is the 2024 column, not the 2025 one."""
    evidence = _grocer("CONSOLIDATED STATEMENTS OF OPERATIONS\n(millions)\n2025 | 2024\n"
                       "Net sales | 2025: $48,310 | 2024: $51,207\n"
                       "Operating income | 2025: $2,145 | 2024: $2,602")
    ask = Ask.of(read_question("What were net sales for the year ended February 1, 2025?"))
    first = evidence_first.answer(ask, evidence).text.splitlines()[0]
    assert "51.2" in first and "48.3" not in first


# a grocer's balance sheet at a retail year end (fiscal 2025 ends January 31, 2026)
GROCER_POSITION = ("CONSOLIDATED STATEMENTS OF FINANCIAL POSITION\n(millions)\n"
                   "January 31, 2026 | February 1, 2025\n"
                   "Total current assets | January 31, 2026: $9,410 | February 1, 2025: $9,012\n"
                   "Total current liabilities | January 31, 2026: $8,125 | "
                   "February 1, 2025: $8,377")


def test_a_balance_computed_at_a_retail_year_end_reads_that_dates_column() -> None:
    """Working capital "at January 31, 2026" of a grocer is computed from the balance sheet's
    "January 31, 2026" column (fiscal 2025's), not left uncomputed for want of a 2026 one."""
    evidence = _grocer(GROCER_POSITION)
    ask = Ask.of(read_question("What was the working capital at January 31, 2026?"))
    draft = computed.answer(ask, evidence)
    assert draft is not None
    first = draft.text.splitlines()[0]
    assert "1.29 billion" in first and "computed" in first, first


@pytest.mark.parametrize(("question", "shown"), [
    ("What was the current ratio at January 31, 2026?", "1.16x"),
    ("Quel était le ratio de liquidité générale au 31 janvier 2026 ?", "1.16 fois"),
])
def test_the_current_ratio_is_current_assets_over_current_liabilities_in_times(
        question: str, shown: str) -> None:
    """"Current ratio" is computed from the balance sheet's two totals, as a multiple (1.16x),
    with its working; never a percentage, a scale, or the passage of another ratio."""
    evidence = _grocer(GROCER_POSITION)
    ask = Ask.of(read_question(question))
    draft = computed.answer(ask, evidence)
    assert draft is not None
    assert shown in draft.text.splitlines()[0] and "%" not in draft.text, draft.text
    assert "9,410" in draft.text and "8,125" in draft.text and "millions" not in draft.text


@pytest.mark.parametrize(("question", "year_end"), [
    ("What subsequent events did Quillstream disclose after its fiscal year end?", False),
    ("What has happened since year-end?", False),
    ("Was geschah nach dem Bilanzstichtag?", False),
    ("Que s'est-il passé après la clôture de l'exercice ?", False),
    ("¿Qué ocurrió después del cierre del ejercicio?", False),
    ("When does Quillstream's fiscal year end?", True),
    ("Wann endet das Geschäftsjahr?", True),
])
def test_what_happened_after_a_year_end_asks_no_year_end(question: str, year_end: bool) -> None:
    """"After its fiscal year end" says when the thing asked happened; it does not ask when
    the year ends (the answer had been the company's year-end day)."""
    assert read_question(question).year_end is year_end


@pytest.mark.parametrize(("question", "period", "name"), [
    ("Halvard capex 2025?", "FY2025", "Halvard"),
    ("Quillstream free cash flow 2023?", "FY2023", "Quillstream"),
    ("Net sales 2024?", "FY2024", None),
    ("Revenue 2023/24?", "FY2024", None),
    ("How much did Halvard sell in Europe in fiscal 2023?", "FY2023", "Halvard"),
])
def test_a_terse_questions_year_after_its_line_item_is_its_period(question: str, period: str,
                                                                  name: str | None) -> None:
    """"Amazon capex 2025?": the bare year right after the line item dates it, as one right
    before it does ("its 2023 revenue"); the capital that opens a line item's own name ("Net
    sales") names no company."""
    frame = read_question(question)
    assert frame.periods == (period,)
    assert (frame.entity or frame.opening_name) == name


@pytest.mark.parametrize("question", [
    "What were Brindle Grocers' gross uncertain tax positions as of February 1, 2025?",
    "What were Brindle Grocers' gross uncertain tax positions as at 1 February 2025?",
])
def test_a_balance_asked_as_of_a_day_is_that_day_s_period(question: str) -> None:
    """"As of February 1, 2025" asks the balance on that day, as "at February 1, 2025" does:
    its period, read apart from the instruction that keeps out what is later."""
    frame = read_question(question)
    assert frame.periods == ("as of 2025-02-01",)
    assert frame.constraints.get(ConstraintKind.AS_OF) is not None


def test_a_balance_asked_as_of_a_retail_year_end_reads_that_year_s_column() -> None:
    """A grocer's roll-forward in fiscal-year columns ("2025 | 2024"; its years end in late
    January): the balance "as of February 1, 2025" is the 2024 column's end of period."""
    evidence = _grocer("Reconciliation of Gross Uncertain Tax Positions (millions)\n2025 | 2024\n"
                       "Balance at beginning of period | 2025: $517 | 2024: $468\n"
                       "Additions for the current year | 2025: $41 | 2024: $77\n"
                       "Balance at end of period | 2025: $529 | 2024: $517")
    ask = Ask.of(read_question(
        "What was the balance of gross uncertain tax positions as of February 1, 2025?"))
    first = evidence_first.answer(ask, evidence).text.splitlines()[0]
    assert "517" in first and "529" not in first, first


@pytest.mark.parametrize(("question", "periods"), [
    ("How much principal was outstanding at the end of fiscal 2025 on Halvard's notes from its "
     "2013 to 2023 debt issuances?", ("FY2025",)),
    ("What was the principal of the 2014–2022 notes at the end of fiscal 2024?", ("FY2024",)),
    ("Principal des emprunts 2012 à 2020 dette fin 2024 ?", ("FY2024",)),
    ("What was Halvard's 2022 to 2023 revenue growth?", ("FY2023",)),  # two years a filing shows
])
def test_a_wide_span_of_years_before_a_line_item_names_which_not_when(
        question: str, periods: tuple[str, ...]) -> None:
    """"its 2013 to 2023 debt issuances": a span of years wider than a filing's columns says
    which notes, not that 2023 is asked."""
    assert read_question(question).periods == periods
