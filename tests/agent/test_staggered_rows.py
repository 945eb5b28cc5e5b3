"""Staggered table rows (issue 25): a PDF text layer can write each row's label at the end of the
line above its figures. Such a block is re-cut into rows under the year columns its header names,
and read at its caption's scale; a table written row by row reads as before. The tables below
are invented for the tests; none is a filing's."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.spans import rank_spans
from manda.agent.tables import read_tables
from manda.ingest.parsers.staggered import staggered_text, unstaggered

STAGGERED = "\n".join([
    "Selected Operating Data",
    "Year Ended December 31,",
    "(In millions, except percentages)",
    "2023 2024 2023 to 2024 %",
    "Change Parcels Shipped",
    "1,204 1,377 14 % Net Revenue",
    "$ 8,410 $ 9,025 7 % Loss attributable to Northwind",
    "Holdings plc $ (412) $ (95) 77 % Warehouse Contribu",
    "tion $ 1,033 $ 1,288 25 % Freight Adjusted EBITDA",
    "$ (57) $ 14 125 % See",
    "the notes to these figures for how each measure is defined.",
])


def _rows(text: str) -> dict[str, dict[str, str]]:
    # as ingestion stores the page: its staggered blocks re-cut
    return {row.label: row.cells for table in read_tables(staggered_text(text))
            for row in table.rows}


def test_a_staggered_block_is_read_as_rows_under_its_years() -> None:
    rows = _rows(STAGGERED)
    assert rows["Parcels Shipped"] == {"2023": "1,204", "2024": "1,377", "change": "14%"}
    assert rows["Net Revenue"] == {"2023": "$8,410", "2024": "$9,025", "change": "7%"}
    # a label run on into the next line's words is one label; its negative cells keep their sign
    assert rows["Loss attributable to Northwind Holdings plc"] == {
        "2023": "$(412)", "2024": "$(95)", "change": "77%"}
    # a label broken mid-word stays one label, its parts spaced
    assert rows["Warehouse Contribu tion"]["2024"] == "$1,288"
    assert rows["Freight Adjusted EBITDA"] == {"2023": "$(57)", "2024": "$14", "change": "125%"}
    lines = unstaggered(STAGGERED.splitlines())
    # the words after the last figures open the prose line below, as one sentence
    assert "See the notes to these figures for how each measure is defined." in lines
    assert "(In millions, except percentages)" in lines


def test_two_change_columns_and_a_group_heading() -> None:
    text = "\n".join([
        "Results of Operations",
        "Constant Currency (in thousands)",
        "2024 2025 2024 to 2025 % 2024 to 2025 % Constant Currency Sales",
        "$ 2,500 $ 3,100 24 % 21 % Operating costs",
        "Cost of sales",
        "1,100 1,240 13 % 12 % Selling expenses",
        "(300) (290) 3 % 2 % Total operating costs",
        "1,400 1,530 9 % 8 %",
    ])
    # the header's words before the first label are the header's ("Constant Currency")
    tables = read_tables(staggered_text(text))
    rows = {row.label: row.cells for table in tables for row in table.rows}
    assert rows["Sales"] == {"2024": "$2,500", "2025": "$3,100", "change": "24%",
                             "change 2": "21%"}
    assert rows["Operating costs"] == {}  # a heading over the label of the line below
    assert rows["Cost of sales"]["2025"] == "1,240"
    assert rows["Selling expenses"]["2024"] == "(300)"
    assert rows["Total operating costs"]["2025"] == "1,530"


def test_a_table_written_row_by_row_reads_as_before() -> None:
    plain = "\n".join([
        "Year Ended December 31,",
        "2024 2025",
        "Revenue $ 2,500 $ 3,100",
        "Cost of sales 1,100 1,240",
        "Office space 31,028 9,160 North America",
        "Office space 26,495 1,802 International",
        "Sales grew 24% from 2024, led by Europe.",
    ])
    assert unstaggered(plain.splitlines()) == plain.splitlines()
    piped = "\n".join(["(in millions)", "2025 | 2024",
                       "Revenue | 2025: $3,100 | 2024: $2,500",
                       "Cost of sales | 2025: 1,240 | 2024: 1,100"])
    assert unstaggered(piped.splitlines()) == piped.splitlines()
    assert [r.render() for t in read_tables(piped) for r in t.rows] == [
        "Revenue — 2025: $3,100; 2024: $2,500", "Cost of sales — 2025: 1,240; 2024: 1,100"]


def test_prose_with_figures_and_capitals_is_no_staggered_block() -> None:
    prose = [
        "Revenue was $9.0 billion in 2024 Compared",
        "with 2023 the increase of 7 % Was driven by",
        "volume growth 14 % and 12 % In Europe",
    ]
    assert unstaggered(prose) == prose


def test_a_staggered_row_leads_the_answer_at_its_caption_scale() -> None:
    evidence = _evidence(staggered_text(STAGGERED))
    ask = _ask("What was Northwind's net revenue in 2024?")
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and top.row.label == "Net Revenue"
    draft = evidence_answer(ask, evidence)
    first = draft.text.splitlines()[0]
    assert "9.03 billion" in first or "9,025 million" in first
    loss = evidence_answer(_ask("What was the loss attributable to Northwind in 2024?"),
                           evidence)
    assert "$95.0 million in 2024" in loss.text.splitlines()[0]


def test_a_block_without_a_header_of_years_right_above_it_is_left_as_written() -> None:
    # the years of a caption and of a row's name are no columns
    captioned = [
        "Maturities as of Year ended December 31, 2024",
        "Term loans",
        "1,250 3,400 Revolving facility",
        "2,000 1,500 Senior notes",
        "4,750 4,750",
    ]
    assert unstaggered(captioned) == captioned
    twice = ["2024", "2024 Units sold", "310 295 Units returned", "12 9 Units scrapped", "4 3"]
    assert unstaggered(twice) == twice  # a header naming one column twice names none


def test_a_year_after_the_columns_opens_the_first_label() -> None:
    rows = _rows("\n".join([
        "(in thousands)", "2025", "2024 2023 2031 Notes",
        "8,100 8,100 — Restricted stock units",
        "4,200 3,900 2,750 Stock options",
        "610 705 880",
    ]))
    assert rows["Notes"] == {"2025": "8,100", "2024": "8,100", "2023": "—"}
    assert rows["Stock options"] == {"2025": "610", "2024": "705", "2023": "880"}


KEY_METRICS = "\n".join([
    "Key Metrics",
    "(In millions, except percentages)",
    "2024 | 2025 | change",
    "Monthly Active Platform Buyers (“MAPBs”) | 2024: 41 | 2025: 52 | change: 27%",
    "Deliveries | 2024: 1,880 | 2025: 2,310 | change: 23%",
    "Gross Order Value | 2024: $12,400 | 2025: $15,950 | change: 29%",
    "Revenue | 2024: $3,020 | 2025: $3,770 | change: 25%",
])


def test_rows_above_a_tables_first_dollar_row_are_counts() -> None:
    evidence = _evidence(KEY_METRICS)
    ask = _ask("How many monthly active platform buyers did the company have in 2025?")
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "52.0 million" in first and "$" not in first.split("(source")[0]
    revenue = evidence_answer(_ask("What was the company's revenue in 2025?"),
                              evidence).text.splitlines()[0]
    assert "$3.77 billion" in revenue


def test_a_second_re_cut_changes_nothing() -> None:
    """Ingestion re-cuts a page once; the answer side re-cuts again, for passages stored before
    ingestion did: on a passage already re-cut that second pass must leave every line as is."""
    once = staggered_text(STAGGERED)
    assert once != STAGGERED
    assert staggered_text(once) == once
    assert unstaggered(once.splitlines()) == once.splitlines()


def test_a_passage_stored_before_the_re_cut_is_read_as_rows() -> None:
    """A data room ingested before ingestion re-cut staggered tables holds them as the text layer
    wrote them: the answer side reads their rows all the same."""
    rows = {row.label: row.cells for table in read_tables(STAGGERED) for row in table.rows}
    assert rows["Net Revenue"] == {"2023": "$8,410", "2024": "$9,025", "change": "7%"}
    ask = _ask("What was net revenue in 2024?")
    lead = rank_spans(ask.frame, _evidence(STAGGERED))[0]
    assert lead.text.startswith("Net Revenue") and "$9,025" in lead.text
