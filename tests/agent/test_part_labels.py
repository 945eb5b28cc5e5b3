"""The row that leads is the one asked (issue 25): a part asked beside a total that names it with
another part, or the same part's row of another line item. A row a chunk's cut repeats under
the tail of its label ("maintenance and other segment revenue 9,070" of "Total equipment &
maintenance and other segment revenue 9,070") is that total read a second time, never the
part's own row; a row whose label names a part only ("Maintenance and other") is of its
caption's line item ("Cost of Revenue"), not of the one asked. None of it knows a company or a
filing: the passages below are written for the tests."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from manda.agent.compose.common import Ask
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.fact_lookup import compose
from manda.agent.compose.lead_check import lead_miss
from manda.agent.compose.leads import as_read, at_scale
from manda.agent.compose.segment_level import joined_with_another
from manda.agent.evidence import Evidence, Source
from manda.agent.frame import read_question
from manda.agent.spans import Span, every_span, rank_spans
from manda.agent.spans.sentences import names_among_others
from manda.agent.tables import Row
from manda.models import Document, DocumentStatus, Location, SearchHit

DOC = Document(id="d1", deal_id="d", filename="Annual.pdf", content_hash="h", file_type="pdf",
               size_bytes=1, version_family="f", status=DocumentStatus.COMPLETED,
               doc_date=date(2025, 12, 31), fiscal_year_end="--12-31")

HEAD = "(Dollars in millions)\n2025 | 2024 | change | change %"
SEGMENT = "\n".join([
    HEAD,
    "Equipment sales | 2025: $8,258 | 2024: $7,604 | change: $654 | change %: 9%",
    "Maintenance and other | 2025: 812 | 2024: 655 | change: 157 | change %: 24%",
    "Total equipment &amp; maintenance and other segment revenue | 2025: 9,070 | 2024: 8,259 | "
    "change: 811 | change %: 10%",
])
CUT = "\n".join([
    HEAD,
    "maintenance and other segment revenue | 2025: 9,070 | 2024: 8,259 | change: 811 | "
    "change %: 10%",
    "Storage segment revenue | 2025: 1,204 | 2024: 990 | change: 214 | change %: 22%",
])
REVENUES = "\n".join([
    "Revenues",
    "2025-12-31 | 2024-12-31",
    "Maintenance and other | 2025-12-31: 812000000.0 | 2024-12-31: 655000000.0",
])
COST = "\n".join([
    "Cost of Revenue",
    "2025-12-31 | 2024-12-31",
    "Maintenance and other | 2025-12-31: 798000000.0 | 2024-12-31: 640000000.0",
])


def _evidence(*pages: tuple[int, str]) -> Evidence:
    hits = [SearchHit(chunk_id=f"c{i}", document_id=DOC.id, document=DOC.filename, text=text,
                      location=Location.for_page(page), score=1.0)
            for i, (page, text) in enumerate(pages)]
    return Evidence(documents={DOC.id: DOC}, hits=hits)


def _labels(evidence: Evidence) -> list[str]:
    return [s.row.label for s in every_span(evidence) if s.row is not None]


def test_a_row_repeated_under_the_tail_of_its_label_is_read_once_as_the_whole_row() -> None:
    labels = _labels(_evidence((7, SEGMENT), (7, CUT)))
    assert "maintenance and other segment revenue" not in labels, labels
    assert "Total equipment &amp; maintenance and other segment revenue" in labels, labels
    assert "Storage segment revenue" in labels, labels


def test_a_tail_glued_under_its_tables_heading_is_the_whole_row_too() -> None:
    glued = CUT.replace("maintenance and other segment revenue |",
                        "Revenues and other segment revenue |")
    labels = _labels(_evidence((7, SEGMENT), (7, glued)))
    assert "Revenues and other segment revenue" not in labels, labels
    # a label the other only totals stays: "Plant and equipment, net" under its total
    plant = "\n".join([HEAD, "Plant and equipment, net | 2025: 410 | 2024: 380 | change: 30 | "
                        "change %: 8%", "Total plant and equipment, net | 2025: 410 | 2024: 380 | "
                        "change: 30 | change %: 8%"])
    assert "Plant and equipment, net" in _labels(_evidence((7, plant))), plant


def test_a_tail_stays_where_its_whole_row_is_not_read_or_its_cells_differ() -> None:
    assert "maintenance and other segment revenue" in _labels(_evidence((7, CUT)))
    other_page = _labels(_evidence((7, SEGMENT), (8, CUT)))
    assert "maintenance and other segment revenue" in other_page, other_page
    moved = CUT.replace("2025: 9,070", "2025: 9,071")
    assert "maintenance and other segment revenue" in _labels(_evidence((7, SEGMENT), (7, moved)))


def test_the_parts_own_row_leads_over_the_total_that_names_it_with_another_part() -> None:
    ask = Ask.of(read_question("How much revenue did the maintenance and other business bring "
                               "in during 2025?"))
    evidence = _evidence((7, SEGMENT), (7, CUT))
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and top.row.label == "Maintenance and other", top.text
    first = compose(ask, evidence).text.splitlines()[0]
    assert "$812" in first and "9.07" not in first, first


def test_a_part_named_only_by_its_label_is_of_its_captions_line_item() -> None:
    ask = Ask.of(read_question("How much revenue did the maintenance and other business bring "
                               "in during 2025?"))
    top = rank_spans(ask.frame, _evidence((14, COST), (13, REVENUES)))[0]
    assert "812000000" in top.text, top.text
    cost = Ask.of(read_question("What was the cost of revenue of the maintenance and other "
                                "business in 2025?"))
    top = rank_spans(cost.frame, _evidence((14, COST)))[0]
    assert "798000000" in top.text, top.text


FAIR_VALUE = "\n".join([
    "Instruments Measured on a Recurring Basis Fair Value as of",
    "(millions) Classification Measurement Level December 31, 2025 December 31, 2024",
    "Money market holdings (a) Cash and Cash Equivalents Level 1 $2,205 $1,980",
    "Prepaid widget contracts (b) Other Current Assets Level 1 41 37",
])
HOLDINGS = ("Our cash and cash equivalents balance includes money market holdings of $2.2 billion "
            "and $2.0 billion as of December 31, 2025 and 2024, respectively.")


def test_a_table_line_read_as_a_sentence_is_quoted_with_its_scale() -> None:
    line = next(s for s in every_span(_evidence((55, FAIR_VALUE)))
                if s.text.startswith("Prepaid widget contracts"))
    assert line.scale is not None and line.scale.factor == 1e6, line.scale
    assert at_scale(line, "(source: Annual.pdf, p.55)") == "(millions) (source: Annual.pdf, p.55)"
    prose = next(s for s in every_span(_evidence((36, HOLDINGS))) if s.row is None)
    assert prose.scale is None and at_scale(prose, "(source)") == "(source)"


def test_a_line_item_named_with_and_is_one_thing_not_a_list_of_parts() -> None:
    pairs = [("cash", "balance")]
    assert not names_among_others(HOLDINGS, pairs, ["cash", "balance"])
    listed = "Our cash, securities and receivables balance was $3.1 billion at year end."
    assert names_among_others(listed, pairs, ["cash", "balance"])


def test_the_sentence_stating_the_part_at_its_scale_leads_over_the_table_line() -> None:
    ask = Ask.of(read_question("How much of the company's year-end cash balance was money "
                               "market holdings?"))
    top = rank_spans(ask.frame, _evidence((55, FAIR_VALUE), (36, HOLDINGS)))[0]
    assert top.text.startswith("Our cash and cash equivalents balance"), top.text


def test_a_tagged_value_in_units_is_quoted_as_a_reader_writes_it() -> None:
    row = Row(label="Restricted stock units",
              cells={"2025-12-31": "5600000000.0", "2024-12-31": "6400000000.0"}, line="")
    span = Span("Restricted stock units — 2025-12-31: 5600000000.0; 2024-12-31: 6400000000.0",
                Source(document="Annual.pdf", document_id=DOC.id, location="p.12", page=12,
                       excerpt=""), row=row,
                currency="USD")
    assert as_read(span) == ("Restricted stock units — 2025-12-31: 5.6 billion; 2024-12-31: "
                             "6.4 billion"), as_read(span)
    written = replace(span, text="Restricted stock units — 2025: 5,600; 2024: 6,400",
                      row=Row(label="Restricted stock units",
                              cells={"2025": "5,600", "2024": "6,400"}, line=""))
    assert as_read(written) == written.text


def test_a_label_joining_the_segment_to_another_part_is_their_total() -> None:
    assert joined_with_another("Total equipment &amp; maintenance and other segment revenue",
                               "maintenance and other")
    assert joined_with_another("Umsatz Geräte und Wartung", "Geräte")
    assert not joined_with_another("Maintenance and other", "maintenance and other")
    assert not joined_with_another("Storage and logistics segment revenue",
                                   "storage and logistics")


def test_a_table_line_at_its_money_scale_states_the_amount_asked() -> None:
    ask = Ask.of(read_question("What was the fair value of the company's prepaid widget "
                               "contracts as of December 31, 2025?"))
    evidence = _evidence((55, FAIR_VALUE))
    line = next(s for s in every_span(evidence) if s.text.startswith("Prepaid widget"))
    assert lead_miss(line, ask) is None
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "Prepaid widget contracts" in first and "(millions)" in first, first
