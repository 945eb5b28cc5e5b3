"""What Claude is told about each document: its company (in a room of several) and the year an
annual report reports, said once per document; ids of one place named together."""

from __future__ import annotations

from datetime import date

from manda.agent.evidence import Evidence
from manda.agent.evidence_ids import document_period, legend, room_documents
from manda.agent.tools import render_passages
from manda.finance.fiscal import FiscalYearEnd, year_reported
from manda.models import Document, DocumentRole, Location, SearchHit

JANUARY = FiscalYearEnd(1, 31)  # a retailer's year: the Saturday nearest 31 January
JUNE = FiscalYearEnd(6, 30)


def test_a_report_dated_at_its_year_end_reports_that_year() -> None:
    assert year_reported(date(2025, 2, 1), JANUARY) == "year ended 1 Feb 2025"  # 52/53 weeks
    assert year_reported(date(2024, 6, 30), JUNE) == "year ended 30 Jun 2024"


def test_a_filing_dated_weeks_after_its_year_end_reports_the_year_before_it() -> None:
    assert year_reported(date(2024, 9, 12), JUNE) == "year ended Jun 2024"
    assert year_reported(date(2025, 3, 20), FiscalYearEnd(12, 31)) == "year ended Dec 2024"


def test_a_date_far_from_any_year_end_says_no_year() -> None:
    assert year_reported(date(2024, 2, 14), JUNE) is None  # seven months on: a half-year?


def _document(name: str, company: str, dated: date, year_end: str,
              role: DocumentRole = DocumentRole.AUDITED_STATEMENTS) -> Document:
    return Document(id=f"d_{name.removesuffix('.pdf').lower()}", deal_id="deal", filename=name,
                    content_hash=name, file_type="pdf", size_bytes=1, doc_date=dated,
                    version_family=name, role=role, fiscal_year_end=year_end, company=company)


def test_only_an_annual_report_names_the_year_it_reports() -> None:
    annual = _document("Kestrel_AR_2024.pdf", "Kestrel Foods plc", date(2024, 9, 3), "--06-30")
    deck = _document("Kestrel_Deck.pdf", "Kestrel Foods plc", date(2024, 9, 3), "--06-30",
                     role=DocumentRole.PRESENTATION)
    assert document_period(annual) == "year ended Jun 2024"
    assert document_period(deck) is None


def _hit(document: Document, page: int, text: str) -> SearchHit:
    return SearchHit(chunk_id=f"{document.id}_c{page}", document_id=document.id,
                     document=document.filename, location=Location.for_page(page), text=text,
                     score=1.0)


def test_passages_of_two_companies_name_each_document_once_with_its_company_and_year() -> None:
    kestrel = _document("report_a.pdf", "Kestrel Foods plc", date(2024, 9, 3), "--06-30")
    osprey = _document("report_b.pdf", "Osprey Retail Inc.", date(2025, 2, 1), "--01-31")
    evidence = Evidence(documents={d.id: d for d in (kestrel, osprey)})
    shown = render_passages([_hit(kestrel, 4, "Revenue rose to £412.0 million."),
                             _hit(osprey, 31, "Net sales were $8,214 million."),
                             _hit(kestrel, 9, "Net debt stood at £96.5 million.")],
                            None, evidence)
    assert shown.count('<document file="report_a.pdf"') == 1
    assert ('<document file="report_a.pdf" company="Kestrel Foods plc" '
            'period="year ended Jun 2024" dated="2024-09-03"') in shown
    assert 'company="Osprey Retail Inc." period="year ended 1 Feb 2025"' in shown
    assert '<excerpt id="S1" file="report_a.pdf" loc="p.4">' in shown
    assert '<excerpt id="S3" file="report_a.pdf" loc="p.9">' in shown


def test_a_room_of_one_company_does_not_name_it_on_every_document() -> None:
    annual = _document("report_a.pdf", "Kestrel Foods plc", date(2024, 9, 3), "--06-30")
    evidence = Evidence(documents={annual.id: annual})
    shown = render_passages([_hit(annual, 4, "Revenue rose to £412.0 million.")], None,
                            evidence)
    assert "company=" not in shown and 'period="year ended Jun 2024"' in shown


def test_the_legend_names_a_document_once_and_each_place_with_its_ids() -> None:
    annual = _document("report_a.pdf", "Kestrel Foods plc", date(2024, 9, 3), "--06-30")
    evidence = Evidence(documents={annual.id: annual})
    ids = [evidence.ids.mint(evidence.hit_source(_hit(annual, page, f"line {n}")))
           for n, page in enumerate((4, 4, 9))]
    text = legend(ids, evidence)
    assert text.count("report_a.pdf") == 1
    assert "period year ended Jun 2024" in text
    assert f"[{ids[0]}, {ids[1]}] p.4; [{ids[2]}] p.9" in text


def test_the_room_lists_its_files_by_company_and_year_where_the_model_must_choose() -> None:
    older = _document("Kestrel_2023.pdf", "Kestrel Foods plc", date(2023, 9, 5), "--06-30")
    newer = _document("Kestrel_2024.pdf", "Kestrel Foods plc", date(2024, 9, 3), "--06-30")
    other = _document("osprey.pdf", "Osprey Retail Inc.", date(2025, 2, 1), "--01-31")
    listed = room_documents(Evidence(documents={d.id: d for d in (newer, other, older)}))
    assert ("Kestrel Foods plc: Kestrel_2023.pdf (year ended Jun 2023); Kestrel_2024.pdf "
            "(year ended Jun 2024)") in listed
    assert "Osprey Retail Inc.: osprey.pdf (year ended 1 Feb 2025)" in listed
    one_year = Evidence(documents={newer.id: newer})
    assert room_documents(one_year) == ""  # one company, one year: nothing to choose
    two_years = Evidence(documents={d.id: d for d in (older, newer)})
    assert "Kestrel_2023.pdf (year ended Jun 2023)" in room_documents(two_years)
