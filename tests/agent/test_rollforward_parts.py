"""A roll-forward whose columns are segments and whose balances' labels end in their dates
("Goodwill - December 31, 2024 | Harbor Services: 4,310 | …", as ingestion writes such a table):
a segment's balance asked at a date is read in its column, at its row's date, and the company's
total in the column of the whole. The table is invented."""

from __future__ import annotations

from dataclasses import replace

from test_filings_leads import _ask, _evidence

from manda.agent.compose.fact_lookup import compose
from manda.agent.compose.lead_check import sibling_named
from manda.agent.spans import rank_spans
from manda.agent.spans.rows import _by_part
from manda.agent.tables import read_tables

ROLL = "\n".join([
    "Note 6 — Goodwill",
    "The following summarizes our goodwill activity in 2024 and 2025 by segment (in millions):",
    "Harbor Services | Inland Freight | Cloud | Consolidated",
    "Goodwill - January 1, 2024 | Harbor Services: $4,100 | Inland Freight: $1,250 | Cloud: $640 "
    "| Consolidated: $5,990",
    "Acquisition activity | Harbor Services: 210 | Inland Freight: 35 | Cloud: 18 | "
    "Consolidated: 263",
    "Goodwill - December 31, 2024 | Harbor Services: 4,310 | Inland Freight: 1,285 | Cloud: 658 "
    "| Consolidated: 6,253",
    "Acquisition activity | Harbor Services: 40 | Inland Freight: 62 | Cloud: 9 | "
    "Consolidated: 111",
    "Balance as of December 31, 2025 | Harbor Services: $4,350 | Inland Freight: $1,347 | "
    "Cloud: $667 | Consolidated: $6,364",
])


def _answer(question: str) -> str:
    return compose(_ask(question), _evidence(ROLL)).text


def test_a_roll_forwards_balances_are_read_a_segment_a_block_by_their_dates() -> None:
    """Each segment's balances under their labels' dates ("as of" is no part of the date), the
    whole's under no segment; the movements between them stay in the table as written."""
    read = [(part, table.header, [r.render() for r in table.rows])
            for table, part in _by_part(read_tables(ROLL))]
    assert read[0][0] is None and read[0][2] == [
        "Acquisition activity — Harbor Services: 210; Inland Freight: 35; Cloud: 18; "
        "Consolidated: 263",
        "Acquisition activity — Harbor Services: 40; Inland Freight: 62; Cloud: 9; "
        "Consolidated: 111"]
    assert ("Cloud", ["January 1, 2024", "December 31, 2024", "December 31, 2025"],
            ["Goodwill — January 1, 2024: $640; December 31, 2024: 658",
             "Balance — December 31, 2025: $667"]) in read
    assert [part for part, _, _ in read[1:]] == ["Harbor Services", "Inland Freight", "Cloud", ""]


def test_a_segments_balance_at_a_date_is_its_columns_figure_at_its_rows_date() -> None:
    cloud = _answer("How much goodwill did the Cloud segment carry at December 31, 2024?")
    assert cloud.startswith("Cloud — Goodwill was $658.0 million at 31 December 2024"), cloud
    inland = _answer("Inland Freight goodwill at year-end 2024?")
    assert inland.startswith("Inland Freight — Goodwill was $1.29 billion at 31 December 2024"), \
        inland
    whole = _answer("What was goodwill at December 31, 2024?")
    assert whole.startswith("Goodwill was $6.25 billion at 31 December 2024"), whole


def test_a_table_of_segments_with_no_dated_row_is_read_as_written() -> None:
    table = "\n".join(["Harbor Services | Cloud | Total",
                       "Acquisition activity | Harbor Services: 210 | Cloud: 18 | Total: 228"])
    assert [part for _, part in _by_part(read_tables(table))] == [None]



FOREIGN = ROLL.replace("Inland Freight", "International")


def test_a_segment_whose_name_is_a_qualifier_states_its_own_balance() -> None:
    """"International goodwill at year-end 2024?": "international" also qualifies a line item
    among its siblings (federal, state, foreign), but a row read under the International
    segment is that segment's own goodwill, whatever its block's caption says, not the
    unqualified whole."""
    ask = _ask("International goodwill at year-end 2024?")
    assert ask.frame.qualified
    top = rank_spans(ask.frame, _evidence(FOREIGN))[0]
    assert top.segment == "International" and "1,285" in top.text
    assert not sibling_named(replace(top, group="activity by segment (in millions)"), ask)
    answer = compose(ask, _evidence(FOREIGN)).text
    assert answer.startswith("International — Goodwill was $1.29 billion at 31 December 2024"), \
        answer
