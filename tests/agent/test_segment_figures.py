"""A segment's figures (issue 25): its margin computed from its own rows, never the company's,
each input cited and the formula in one line; an input its rows lack said to be missing; its
line item against the year before. Segments are printed as a note's blocks, as rows under a
line item's heading, or in labels that say both. The documents are invented."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence
from test_segment_ranking import NOTE

from manda.agent.compose import segment_figures
from manda.agent.compose.common import Ask
from manda.agent.compose.comparison import compose as compare
from manda.agent.compose.fact_lookup import compose
from manda.agent.frame import read_question
from manda.agent.planner import OfflineComposer

MDNA = "\n".join([
    "Segment results",
    "Net sales by segment is as follows (in millions):",
    "2024 | 2025",
    "Net Sales:",
    "Americas | 2024: $8,120 | 2025: $8,610",
    "Europe | 2024: 3,050 | 2025: 3,720",
    "Marine | 2024: 1,400 | 2025: 1,530",
    "Consolidated | 2024: $12,570 | 2025: $13,860",
])

INCOME = "\n".join([
    "Operating income by segment is as follows (in millions):",
    "2024 | 2025",
    "Operating Income:",
    "Americas | 2024: $810 | 2025: $905",
    "Europe | 2024: (70) | 2025: 140",
    "Marine | 2024: 390 | 2025: 470",
    "Consolidated | 2024: $1,130 | 2025: $1,515",
])

COMPANY = "\n".join([
    "Consolidated Statements of Operations (in millions)",
    "2024 | 2025",
    "Total net sales | 2024: $12,570 | 2025: $13,860",
    "Operating income | 2024: $1,130 | 2025: $1,515",
])

LABELLED = "\n".join([
    "Revenues (in millions)",
    "2024 | 2025",
    "Total boats segment revenue | 2024: 9,400 | 2025: 10,100",
    "Marine engines segment revenue | 2024: 1,400 | 2025: 1,530",
    "Total revenues | 2024: $10,800 | 2025: $11,630",
    "Gross profit marine engines segment | 2024: $288 | 2025: $341",
])


def _answer(question: str, *texts: str) -> str:
    return compose(_ask(question), _evidence(*texts)).text


def test_a_segments_margin_reads_both_inputs_from_its_own_block_not_the_companys() -> None:
    text = _answer("What was Europe's operating margin in 2025?", NOTE, COMPANY)
    lead, working = text.splitlines()
    assert lead.startswith("Europe operating margin was 3.8% in 2025"), lead
    assert "Europe operating income $140.0 million (source: Annual.pdf, p.30)" in lead, lead
    assert "Europe revenue $3.72 billion (source: Annual.pdf, p.30)" in lead, lead
    assert working.endswith("(140) ÷ 3,720 = 0.038 (in millions)."), working
    assert "10.9%" not in text  # the company's margin


def test_a_segments_rows_under_each_line_items_heading_are_its_inputs() -> None:
    text = _answer("What was the operating margin of the Marine segment in 2025?",
                   COMPANY, MDNA, INCOME)
    assert text.startswith("Marine operating margin was 30.7% in 2025"), text
    assert "Marine operating income $470.0 million (source: Annual.pdf, p.32)" in text, text
    assert "Marine revenue $1.53 billion (source: Annual.pdf, p.31)" in text, text


def test_an_input_the_segments_rows_lack_is_said_to_be_missing() -> None:
    text = _answer("What was the Marine segment's gross margin in 2025?", NOTE, COMPANY)
    assert text.startswith("The Marine figures read do not state its gross profit"), text
    assert "Read for Marine: Marine net sales (source: Annual.pdf, p.30)" in text, text
    assert "%" not in text


def test_the_companys_margin_is_still_the_companys_where_no_segment_is_named() -> None:
    text = _answer("What was the operating margin in 2025?", COMPANY, NOTE)
    assert text.startswith("Operating margin was 10.9% in 2025"), text


def test_a_segments_line_item_against_the_year_before_from_its_own_row() -> None:
    question = "How did Americas operating income change from 2024 to 2025?"
    assert read_question(question).periods == ("FY2024", "FY2025")
    for text in (compare(_ask(question), _evidence(COMPANY, NOTE)).text,
                 _answer(question, COMPANY, NOTE)):
        lead, working = text.splitlines()
        assert lead.startswith("Americas operating income rose 11.7% in 2025, to $905.0 million "
                               "from $810.0 million in 2024 (up $95.0 million; computed)"), lead
        assert working.endswith("(905 − 810) ÷ 810 = 0.117 (in millions)."), working
    moved = _answer("How did Marine operating income change between 2024 and 2025?",
                    COMPANY, INCOME)
    assert moved.startswith("Marine operating income rose 20.5% in 2025"), moved


def test_a_segments_revenue_growth_is_the_change_of_its_revenue_row() -> None:
    """"What was Europe's revenue growth in 2025?": a growth rate is the change of its line
    item, read from the segment's own row (it had been "the passages state no revenue growth
    for Europe", with the segment's net sales for both years in hand)."""
    text = _answer("What was Europe's revenue growth in 2025?", COMPANY, MDNA)
    assert text.startswith("Europe net sales rose 22.0% in 2025, to $3.72 billion from "
                           "$3.05 billion in 2024"), text


def test_a_label_that_says_the_segment_and_the_line_item_is_that_segments_row() -> None:
    text = _answer("How did gross profit of the marine engines segment change in 2025?",
                   LABELLED)
    assert text.startswith("Marine engines gross profit rose 18.4% in 2025, to $341.0 million "
                           "from $288.0 million in 2024"), text


def test_a_segments_share_is_over_its_tables_whole_not_another_segments_total() -> None:
    # a segment the question says is one, or a note's block or label names; a category's row
    # ("Services" under "Net sales") keeps the table's share (`computed.share_of_total`)
    text = _answer("What share of net sales came from the Europe segment in 2025?", MDNA)
    assert text.startswith("Europe's share of net sales was 26.8% in 2025"), text
    assert "÷ consolidated net sales $13.9 billion" in text, text
    block = _answer("What share of net sales came from Europe in 2025?", NOTE)
    assert block.startswith("Europe's share of net sales was 26.8% in 2025"), block
    labelled = _answer("What share of revenues came from the marine engines segment in 2025?",
                       LABELLED)
    assert "13.2%" in labelled and "÷ total revenues $11.6 billion" in labelled, labelled


def test_the_companys_own_words_name_no_segment() -> None:
    evidence = _evidence(NOTE)
    lines = segment_figures.segment_lines(evidence)
    ask = _ask("What was Marine Americas' operating margin in 2025?")
    assert segment_figures.asked_segment(ask, lines) == "Americas"
    assert segment_figures.asked_segment(ask, lines, frozenset({"americas"})) == "Marine"


def test_years_joined_to_a_led_year_are_periods_in_each_language() -> None:
    assert read_question("How did revenue change between 2023 and 2024?").periods == (
        "FY2023", "FY2024")
    assert read_question("Comment le chiffre d'affaires a-t-il évolué de 2023 à 2024 ?"
                         ).periods == ("FY2023", "FY2024")
    assert read_question("Revenue in 2024").periods == ("FY2024",)


def test_a_segment_ranking_searches_for_every_segments_figures() -> None:
    ask = Ask.of(read_question("Which segment grew its operating income fastest in 2025?"))
    queries = [str(c.arguments.get("query", "")) for c in OfflineComposer().plan(ask, max_calls=6)]
    assert any(q.startswith("operating income by segment") for q in queries), queries


MARINE = "\n".join([
    "Note 9 — Segment Information",
    "(in millions)",
    "Marine",
    "2024 | 2025",
    "Net sales | 2024: $1,400 | 2025: $1,530",
    "Operating income | 2024: $390 | 2025: $470",
])

SALES_ONLY = "\n".join([
    "Segment results",
    "Net sales by segment is as follows (in millions):",
    "2024 | 2025",
    "Net Sales:",
    "Americas | 2024: $8,120 | 2025: $8,610",
    "Europe | 2024: 3,050 | 2025: 3,720",
])


def test_segments_read_from_several_passages_are_ranked_with_both_years() -> None:
    draft = segment_figures.rank(_ask("Which segment grew its operating income fastest in 2025?"),
                                 _evidence(MARINE, INCOME))
    assert draft is not None
    lead, order = draft.text.splitlines()[:2]
    assert lead.startswith("Marine +20.5% ($470.0 million against $390.0 million) ranks first "
                           "by growth in 2025"), lead
    assert "2. Americas +11.7% ($905.0 million against $810.0 million)" in order, order


def test_segments_whose_line_was_not_read_are_named_not_ranked() -> None:
    ask = _ask("Which segment grew its operating income fastest in 2025?")
    draft = segment_figures.rank(ask, _evidence(MARINE, SALES_ONLY))
    assert draft is not None
    assert draft.text.startswith("The passages read do not state operating income for two "
                                 "segments or more"), draft.text
    assert "Marine operating income (source: Annual.pdf, p.30)" in draft.text, draft.text
    by_sales = segment_figures.rank(_ask("Which segment grew fastest in 2025?"),
                                    _evidence(MARINE, SALES_ONLY))
    assert by_sales is not None and by_sales.text.startswith("Europe +22.0%"), by_sales.text


def test_a_segments_line_not_read_is_said_missing_not_answered_with_the_companys() -> None:
    text = _answer("How did Europe operating income change from 2024 to 2025?",
                   COMPANY, SALES_ONLY)
    assert text.startswith("The passages read state no operating income for Europe"), text
    assert "Europe net sales (source: Annual.pdf, p.31)" in text, text
    assert "1,515" not in text and "$1.52 billion" not in text


def test_a_margin_the_table_states_for_a_part_leads_over_one_computed() -> None:
    """"Products" under "Gross margin percentage:" states the part's margin: it is quoted, not
    computed again from the part's gross margin and sales and said to be unstated."""
    stated = "\n".join([
        "Gross margin for 2025 and 2024 is as follows (dollars in millions):",
        "2025 | 2024",
        "Gross margin:",
        "Devices | 2025: $1,129 | 2024: $1,090",
        "Subscriptions | 2025: 823 | 2024: 712",
        "Gross margin percentage:",
        "Devices | 2025: 36.8% | 2024: 37.2%",
        "Subscriptions | 2025: 75.4% | 2024: 73.9%",
    ])
    sales = "\n".join([
        "Net sales by category (in millions):",
        "2025 | 2024",
        "Net sales:",
        "Devices | 2025: $3,070 | 2024: $2,949",
        "Subscriptions | 2025: 1,092 | 2024: 963",
    ])
    first = _answer("What was the Devices gross margin percentage in 2025?",
                    stated, sales).splitlines()[0]
    assert "36.8%" in first and "computed" not in first, first


GOODWILL = "\n".join([
    "Consolidated Balance Sheets (in millions)",
    "2025 | 2024",
    "Goodwill | 2025: $4,210 | 2024: $4,080",
    "Total assets | 2025: $52,300 | 2024: $49,900",
])


def test_a_segments_level_is_never_led_by_the_companys_total() -> None:
    """"Goodwill of the Marine segment": the balance sheet's goodwill is the company's, and the
    segment's rows state sales and income only; the answer says no passage states the
    segment's goodwill, never the company's $4.2 billion."""
    text = _answer("How much goodwill did the Marine segment carry at the end of 2025?",
                   GOODWILL, MDNA, INCOME)
    first = text.splitlines()[0]
    assert first.startswith("The passages read state no goodwill for Marine"), text
    assert "4,210" not in first and "$4.21 billion" not in first, first


def test_a_segments_level_is_never_led_by_another_line_of_the_segment() -> None:
    """A segment's named in capitals with a line item its rows do not state: the segment's
    sales are no answer to its goodwill."""
    text = _answer("What goodwill was allocated to the Europe segment at the end of 2025?",
                   GOODWILL, MDNA)
    first = text.splitlines()[0]
    assert "3,720" not in first and "$3.72 billion" not in first, first
    assert "no goodwill for Europe" in first, first


def test_a_segments_level_its_own_passage_states_leads() -> None:
    """The sentence that names the segment and the line item answers it."""
    said = ("Goodwill allocated to the Marine segment was $610 million at December 31, 2025.")
    first = _answer("How much goodwill did the Marine segment carry at the end of 2025?",
                    GOODWILL, MDNA, said).splitlines()[0]
    assert "$610 million" in first, first


def test_a_segments_figure_that_names_both_still_stands() -> None:
    first = _answer("What were Europe segment net sales in 2025?", MDNA, COMPANY).splitlines()[0]
    assert "3,720" in first or "$3.72 billion" in first, first


def test_a_segments_row_under_the_total_it_adds_up_to_is_its_level() -> None:
    """A data-tag dump prints the total's row and, right under it, the segments' rows that add
    up to it, none naming the line item: the segment's row answers, said with its total."""
    dump = "\n".join([
        "Consolidated Balance Sheets (in millions)",
        "2025 | 2024",
        "Goodwill | 2025: $4,210 | 2024: $4,080",
        "Americas | 2025: 2,500 | 2024: 2,450",
        "Marine | 2025: 610 | 2024: 600",
        "Europe | 2025: 1,100 | 2024: 1,030",
        "Total assets | 2025: $52,300 | 2024: $49,900",
    ])
    first = _answer("How much goodwill did the Marine segment carry at the end of 2025?",
                    dump, MDNA).splitlines()[0]
    assert first.startswith("Marine goodwill was $610.0 million"), first
    assert "add up to Goodwill ($4.21 billion)" in first, first


def test_rows_under_a_total_that_do_not_add_up_to_it_are_no_parts_of_it() -> None:
    dump = "\n".join([
        "Consolidated Balance Sheets (in millions)",
        "2025 | 2024",
        "Goodwill | 2025: $4,210 | 2024: $4,080",
        "Marine | 2025: 610 | 2024: 600",
        "Intangible assets | 2025: 900 | 2024: 950",
    ])
    first = _answer("How much goodwill did the Marine segment carry at the end of 2025?",
                    dump, MDNA).splitlines()[0]
    assert "610" not in first and "4,210" not in first and "$4.21 billion" not in first, first


def test_two_segments_asked_side_by_side_are_left_to_their_rows() -> None:
    first = _answer("What were Americas and Europe segment net sales in 2025?",
                    MDNA, COMPANY).splitlines()[0]
    assert "no net sales for" not in first, first
    assert "8,610" in first or "$8.61 billion" in first, first


def test_a_segments_row_under_its_line_items_heading_still_leads() -> None:
    """"Marine leasing" under "Revenues:" is the segment's revenue row: a lead that names the
    segment and states that row's figure stands, though it does not say "revenue"."""
    block = "\n".join([
        "Revenues by source (in millions)",
        "2025 | 2024",
        "Revenues:",
        "Boat sales | 2025: 9,400 | 2024: 9,000",
        "Marine leasing | 2025: 1,530 | 2024: 1,400",
        "Total revenues | 2025: $10,930 | 2024: $10,400",
    ])
    first = _answer("Marine leasing revenue in 2025?", block).splitlines()[0]
    assert "$1.53 billion" in first or "1,530" in first, first
    dump = "\n".join([
        "label | 2025-12-31 | 2024-12-31",
        "Revenues | 2025-12-31: 10930000000.0 | 2024-12-31: 10400000000.0",
        "Boat sales | 2025-12-31: 9400000000.0 | 2024-12-31: 9000000000.0",
        "Marine leasing | 2025-12-31: 1530000000.0 | 2024-12-31: 1400000000.0",
    ])
    first = _answer("Marine leasing revenue in 2025?", dump).splitlines()[0]
    assert "1.53 billion" in first, first
