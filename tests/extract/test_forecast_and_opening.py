"""What a filing's sentence or statement row states, as a finding (issue 25): an amount stated as
a result in a sentence that goes on to a plan is an actual; a forecast's words make a forecast
only of the amounts they govern; a roll-forward's opening line of a year is the balance at the
year before's end. Invented companies, currencies and wordings."""

from __future__ import annotations

from datetime import date

from manda.ingest.chunking import chunk_document
from manda.ingest.extract.offline import OfflineExtractor
from manda.models import Document, Finding, Location, Nature, ParsedDocument, Section

DEAL = "d"


def _findings(filename: str, *texts: str) -> list[Finding]:
    sections = [Section(text=t, location=Location.for_page(i + 1)) for i, t in enumerate(texts)]
    parsed = ParsedDocument(filename=filename, file_type="pdf", sections=sections,
                            units=len(sections), doc_date=date(2025, 2, 20))
    doc = Document(id=Document.make_id(DEAL, filename), deal_id=DEAL, filename=filename,
                   content_hash=filename, file_type="pdf", size_bytes=1,
                   version_family=filename.lower(), doc_date=parsed.doc_date)
    chunks = chunk_document(parsed, deal_id=DEAL, document_id=doc.id)
    return OfflineExtractor().extract(doc, parsed, chunks)


def _of(findings: list[Finding], value: float) -> Finding:
    found = [f for f in findings if f.value == value]
    assert found, [(f.subject, f.value, f.period) for f in findings]
    return found[0]


def test_a_result_in_a_sentence_that_goes_on_to_a_plan_is_an_actual() -> None:
    findings = _findings(
        "Harbourline_Annual_Report_2024.pdf",
        "Liquidity\nCapital expenditures were $42.1 million in 2024, which we expect to "
        "increase to support our new terminals.\nRevenue is expected to be between €410 million "
        "and €430 million in 2025, compared with €395 million in 2024.\nWe expect capital "
        "expenditures in 2025 of approximately $60 million.")
    assert _of(findings, 42_100_000.0).nature is Nature.ACTUAL
    assert _of(findings, 60_000_000.0).nature is Nature.FORECAST
    assert _of(findings, 395_000_000.0).nature is Nature.ACTUAL  # what the outlook compares with
    assert all(f.nature is Nature.FORECAST for f in findings
               if f.value in (410_000_000.0, 420_000_000.0, 430_000_000.0))


def test_an_opening_line_said_after_its_item_is_the_balance_at_the_year_befores_end() -> None:
    page = "\n".join([
        "CONSOLIDATED STATEMENTS OF CASH FLOWS", "(in millions)", "2023 | 2024",
        "Net cash provided by operating activities | 2023: $812 | 2024: $905",
        "Net increase in cash and cash equivalents | 2023: 313 | 2024: 363",
        "Cash and cash equivalents, beginning of year | 2023: 1,204 | 2024: 1,517",
        "Cash and cash equivalents, end of year | 2023: $1,517 | 2024: $1,880",
    ])
    findings = [f for f in _findings("Corvel_Freight_10-K_2024.pdf", page)
                if f.subject == "cash"]
    by_period = {f.period: f.value for f in findings}
    assert by_period.get("as of 2024-12-31") == 1_880_000_000.0, by_period
    assert by_period.get("as of 2023-12-31") == 1_517_000_000.0, by_period
    assert by_period.get("as of 2022-12-31") == 1_204_000_000.0, by_period  # the year before



def test_what_a_receipt_came_from_is_no_line_item_of_its_own() -> None:
    """"Proceeds from sales … of $5.4 billion" is a cash receipt, not revenue of $5.4 billion;
    the revenue the same page states is still read."""
    findings = _findings(
        "Northgate_10-K_2021.pdf",
        "Total revenue was $3.2 billion in 2021, an increase of 36% year-over-year.\n"
        "Cash provided by investing activities included proceeds from sales and maturities of "
        "marketable securities of $5.4 billion in 2020.")
    revenue = {f.value for f in findings if f.subject == "revenue"}
    assert 3_200_000_000.0 in revenue and 5_400_000_000.0 not in revenue


def test_the_date_a_loan_falls_due_does_not_date_its_amount() -> None:
    """"… a $1.1 billion tranche with a maturity date of February 25, 2027, and a $1.5 billion
    tranche …": 2027 is when the first tranche falls due, not when the second stood at $1.5B."""
    findings = _findings(
        "Northgate_10-K_2021.pdf",
        "In February 2021, we refinanced our senior secured term loans. The $2.6 billion is "
        "comprised of (i) a $1.1 billion tranche with a maturity date of February 25, 2027, "
        "replacing the 2016 Senior Secured Term Loan, and (ii) a $1.5 billion tranche with a "
        "maturity date of April 4, 2025, replacing the 2018 Senior Secured Term Loan.")
    dated = {(f.value, f.period) for f in findings if f.subject == "debt"}
    assert dated and not any(period and ("2027" in period or "2025" in period)
                             for _, period in dated), dated
