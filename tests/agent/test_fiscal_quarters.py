"""A quarter asked by its last day, or by its fiscal number, in a year that does not end on 31
December (issue 25, item 5): the question's quarter is numbered as the company's fiscal year
numbers it, and so are the passages' quarters named by their last day. The companies and
passages are invented for the tests; none is a filing's."""

from __future__ import annotations

from datetime import date

from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.finance.fiscal import CALENDAR_YEAR, FiscalYearEnd
from manda.finance.periods import find_periods, quarters_in
from manda.models import Document, DocumentStatus, Location, SearchHit

MARCH = FiscalYearEnd(3, 31)  # a year that ends on 31 March
OCTOBER_WEEKS = FiscalYearEnd(10, 29)  # a 52/53-week year ending on the last Saturday of October


def _doc(year_end: str) -> Document:
    return Document(id="d1", deal_id="d", filename="Annual.pdf", content_hash="h",
                    file_type="pdf", size_bytes=1, version_family="f",
                    status=DocumentStatus.COMPLETED, doc_date=date(2025, 3, 31),
                    fiscal_year_end=year_end)


def _evidence(year_end: str, *pages: tuple[int, str]) -> Evidence:
    doc = _doc(year_end)
    hits = [SearchHit(chunk_id=f"c{page}", document_id=doc.id, document=doc.filename, text=text,
                      location=Location.for_page(page), score=1.0) for page, text in pages]
    return Evidence(documents={doc.id: doc}, hits=hits)


def test_the_quarter_a_day_ends_is_numbered_by_the_fiscal_year() -> None:
    assert MARCH.quarter_ended(date(2024, 6, 30)) == "Q1 2025"
    assert MARCH.quarter_ended(date(2024, 12, 31)) == "Q3 2025"
    assert MARCH.quarter_ended(date(2025, 3, 31)) == "Q4 2025"
    # a 52/53-week year's quarters end on a Saturday near a month's end
    assert OCTOBER_WEEKS.quarter_ended(date(2025, 2, 1)) == "Q1 2025"
    assert OCTOBER_WEEKS.quarter_ended(date(2025, 10, 25)) == "Q4 2025"
    assert FiscalYearEnd(10, 26).quarter_ended(date(2025, 11, 1)) == "Q4 2025"
    # a retail year ending in late January or early February is named by the year it starts in
    assert FiscalYearEnd(2, 1).quarter_ended(date(2025, 5, 3)) == "Q1 2025"
    assert FiscalYearEnd(1, 31).quarter_ended(date(2026, 1, 31)) == "Q4 2025"
    assert CALENDAR_YEAR.quarter_ended(date(2024, 9, 30)) == "Q3 2024"


def test_a_quarter_asked_by_its_last_day_is_the_fiscal_years_in_every_language() -> None:
    for question in ("What was revenue in the quarter ended December 31, 2024?",
                     "Quel était le chiffre d'affaires du trimestre clos le 31 décembre 2024 ?",
                     "Wie hoch war der Umsatz im am 31. Dezember 2024 endenden Quartal?",
                     "¿Cuáles fueron las ventas del trimestre terminado el 31 de diciembre de "
                     "2024?"):
        frame = read_question(question)
        assert "Q4 2024" in frame.periods, question  # the calendar's reading, read alone
        fiscal = frame.in_fiscal_year(MARCH)
        assert "Q3 2025" in fiscal.parts_of_year and "Q4 2024" not in fiscal.periods, question
        assert frame.in_fiscal_year(None) is frame  # no year end known: read as written
        assert frame.in_fiscal_year(CALENDAR_YEAR).parts_of_year == frame.parts_of_year
    # a quarter named by its number is the fiscal year's already
    named = read_question("What was revenue in the third quarter of fiscal 2025?")
    assert named.in_fiscal_year(MARCH).periods == named.periods == ("Q3 2025",)


def test_a_passages_quarter_named_by_its_last_day_is_its_documents_fiscal_quarter() -> None:
    said = "Revenue for the three months ended December 31, 2024 was €41.0 million."
    assert quarters_in(said, {2024}) == {"Q4 2024"}
    assert quarters_in(said, {2024}, MARCH.quarter_ended) == {"Q3 2025"}
    assert quarters_in("Le chiffre d'affaires du trimestre clos le 31 décembre 2024",
                       {2024}, MARCH.quarter_ended) == {"Q3 2025"}
    # named without its year: its number is the fiscal quarter's, its year the text's
    assert quarters_in("revenue for the three months ended December 31 rose", {2025},
                       MARCH.quarter_ended) == {"Q3 2025"}
    assert quarters_in("der Umsatz im Quartal endend zum 31. Dezember stieg", {2025},
                       MARCH.quarter_ended) == {"Q3 2025"}


def test_the_fiscal_quarter_asked_by_its_last_day_leads() -> None:
    evidence = _evidence(
        "--03-31",
        (12, "In the third quarter of fiscal 2025, the company recorded a restructuring charge "
             "of £4.2 million for the closure of its Leeds depot."),
        (13, "In the fourth quarter of fiscal 2025, the company recorded a restructuring charge "
             "of £1.1 million for the move of its Bristol office."))
    frame = read_question("How large a restructuring charge did the company record in the "
                          "quarter ended December 31, 2024?").in_fiscal_year(
        evidence.fiscal_year_end())
    assert frame.parts_of_year == ("Q3 2025",)
    assert "£4.2 million" in rank_spans(frame, evidence)[0].text


def test_a_line_dated_by_the_last_day_of_the_quarter_asked_leads() -> None:
    evidence = _evidence(
        "--03-31",
        (14, "Deferred income of £6,905 thousand is expected to be recognized as of September "
             "30, 2025."),
        (15, "Deferred income of £5,118 thousand is expected to be recognized as of December "
             "31, 2025."))
    for question, figure in (
            ("How much deferred income does the company expect to recognize in the quarter "
             "ending September 30, 2025?", "6,905"),
            ("How much deferred income does the company expect to recognize in Q3 of fiscal "
             "2026?", "5,118")):
        frame = read_question(question).in_fiscal_year(evidence.fiscal_year_end())
        top = rank_spans(frame, evidence)[0]
        assert figure in top.text, (question, top.text)


def test_a_passage_of_a_quarter_named_by_its_last_day_answers_its_fiscal_number() -> None:
    # a 52/53-week year that ends on the last Saturday of August
    evidence = _evidence(
        "--08-30",
        (30, "In the three months ended May 31, 2025, the company repurchased 2,950 thousand "
             "shares."),
        (31, "In the three months ended August 30, 2025, the company repurchased 3,705 thousand "
             "shares."))
    frame = read_question("How many shares did the company repurchase in Q4 fiscal 2025?")
    top = rank_spans(frame.in_fiscal_year(evidence.fiscal_year_end()), evidence)[0]
    assert "3,705" in top.text, top.text
    frame = read_question("How many shares did the company repurchase in the quarter ended "
                          "May 31, 2025?")
    assert frame.in_fiscal_year(evidence.fiscal_year_end()).parts_of_year == ("Q3 2025",)
    top = rank_spans(frame.in_fiscal_year(evidence.fiscal_year_end()), evidence)[0]
    assert "2,950" in top.text, top.text


def _evidence_of(year_end: str, reported: date, *pages: tuple[int, str]) -> Evidence:
    doc = _doc(year_end).model_copy(update={"doc_date": reported})
    hits = [SearchHit(chunk_id=f"c{page}", document_id=doc.id, document=doc.filename, text=text,
                      location=Location.for_page(page), score=1.0) for page, text in pages]
    return Evidence(documents={doc.id: doc}, hits=hits)


def test_the_day_a_documents_own_year_ends_dates_no_quarter() -> None:
    # a calendar year's annual report: its "as of December 31, 2025" dates the year's balances,
    # not the fourth quarter's figures
    evidence = _evidence_of(
        "--12-31", date(2025, 12, 31),
        (20, "Average revenue per member was €41.50 as of December 31, 2025."),
        (21, "Average revenue per member was €38.20 in the fourth quarter."))
    frame = read_question("What was average revenue per member in Q4 2025?")
    top = rank_spans(frame.in_fiscal_year(evidence.fiscal_year_end()), evidence)[0]
    assert "€38.20" in top.text, top.text
    # a later quarter's last day in the same report is a schedule's line of that quarter
    evidence = _evidence_of(
        "--12-31", date(2025, 12, 31),
        (22, "Deferred income of €7,020 thousand is expected to be recognized as of December 31, "
             "2026."),
        (23, "Deferred income of €2,410 thousand is expected to be recognized as of September "
             "30, 2026."))
    frame = read_question("How much deferred income does the company expect to recognize in "
                          "Q4 2026?")
    top = rank_spans(frame.in_fiscal_year(evidence.fiscal_year_end()), evidence)[0]
    assert "7,020" in top.text, top.text


def test_a_years_column_fits_a_quarter_asked_for_half() -> None:
    # the year's column states the year's figure, of which the quarter asked is only a part
    evidence = _evidence_of(
        "--03-31", date(2025, 3, 31),
        (10, "Our offices moved to Leeds in the first quarter of fiscal year 2025."),
        (11, "\n".join(["CONSOLIDATED INCOME STATEMENTS", "(in millions)", "2025 | 2024",
                        "Net income tax benefit | 2025: £3,300 | 2024: £—"])))

    def row_score(question: str) -> float:
        frame = read_question(question).in_fiscal_year(evidence.fiscal_year_end())
        return next(s.score for s in rank_spans(frame, evidence) if s.row is not None)

    year = row_score("What net income tax benefit did the company record in fiscal 2025?")
    quarter = row_score("What net income tax benefit did the company record in Q1 fiscal 2025?")
    assert quarter < year, (quarter, year)


def test_a_quarter_of_a_fiscal_year_written_out_is_that_quarter_in_every_language() -> None:
    for said in ("in the fourth quarter of fiscal year 2024", "au quatrième trimestre de "
                 "l'exercice 2024", "im vierten Quartal des Geschäftsjahres 2024",
                 "en el cuarto trimestre del ejercicio fiscal 2024"):
        assert [p for p, _, _ in find_periods(said)] == ["Q4 2024"], said
    assert [p for p, _, _ in find_periods("in fiscal year 2024")] == ["FY2024"]
    frame = read_question("How much deferred income will the company recognize in the fourth "
                          "quarter of fiscal year 2026?")
    assert frame.in_fiscal_year(MARCH).parts_of_year == ("Q4 2026",)
