"""Roll-forwards written as lines, not as a `|` table: an award activity table whose text layer
writes each row's figures and then the next row's label ("1,240 $ 7.15 4.1 $ 52,310 Exercised"),
one written a row a line whose balances are labelled by their dates alone, a one-column goodwill
roll-forward, and one cut between two chunks of a passage. Each balance is read at its own
label's date, a column a block (a measure of the row, not a part of the company); a balance asked
at a date is answered by its column's figure at that date. The tables are invented."""

from __future__ import annotations

from test_filings_leads import _ask
from test_spans import _evidence

from manda.agent.compose.fact_lookup import compose
from manda.agent.spans.rollforward import balance_date, rollforward_tables, unrepeated
from manda.agent.spans.rows import _by_part

OPTIONS = [
    "The following table summarizes stock option activity (in thousands, except per share "
    "data):Options Outstanding",
    "Number of",
    "Options",
    "Weighted-",
    "Average",
    "Exercise",
    "Price",
    "Aggregate",
    "Intrinsic",
    "Value",
    "Balance as of December 31, 2023",
    "1,240 $ 7.15 $ 52,310 Exercised",
    "(410) 6.02 Forfeited",
    "(15) 9.40 Balance as of December 31, 2024",
    "815 $ 7.66 $ 31,004 No",
    "options were granted in 2024 or 2023.",
]

UNITS = [
    "Restricted Share Unit Activity Total Nonvested Units",
    "Share Units (a) Grant Date Fair Value (b)",
    "February 3, 2024 2,610 $88.20",
    "Granted 1,150 95.10",
    "Vested (930) 84.75",
    "February 1, 2025 2,830 $92.04",
    "(a) In thousands.",
]

GOODWILL = [
    "The changes in goodwill were as follows (in thousands):Balance as of December 31, 2023",
    "$ 96,410 Additions",
    "4,200 Foreign currency translation",
    "and other adjustments (318) Balance as of December 31, 2024",
    "$ 100,292 Intangible assets consisted",
    "of the following.",
]


def _blocks(lines: list[str]) -> list[list[str]]:
    tables = rollforward_tables(lines)
    return [[row.render() for row in table.rows]
            for table, _ in _by_part(tables, measured=tables)]


def test_a_balances_label_carries_its_date() -> None:
    assert balance_date("Balance as of December 31, 2024")[0] == "Balance"
    assert balance_date("February 1, 2025")[0] == ""
    assert balance_date("Exercised") is None


def test_a_staggered_award_table_is_read_a_measure_a_block_at_its_balances_dates() -> None:
    assert _blocks(OPTIONS) == [
        ["Options Outstanding Balance, Number of Options — December 31, 2023: 1,240; "
         "December 31, 2024: 815"],
        ["Options Outstanding Balance, Weighted-Average Exercise Price — December 31, 2023: "
         "$7.15; December 31, 2024: $7.66"],
        ["Options Outstanding Balance, Aggregate Intrinsic Value — December 31, 2023: $52,310; "
         "December 31, 2024: $31,004"]]


def test_balances_labelled_by_their_dates_alone_take_the_tables_title() -> None:
    """"February 3, 2024 2,610 $88.20" under titles cut after their footnotes' marks."""
    assert _blocks(UNITS) == [
        ["Restricted Share Unit Activity Total Nonvested Units, Share Units — February 3, 2024: "
         "2,610; February 1, 2025: 2,830"],
        ["Restricted Share Unit Activity Total Nonvested Units, Grant Date Fair Value — "
         "February 3, 2024: $88.20; February 1, 2025: $92.04"]]


def test_a_one_column_roll_forward_under_its_caption() -> None:
    assert _blocks(GOODWILL) == [
        ["Balance — December 31, 2023: $96,410; December 31, 2024: $100,292"]]


def test_no_roll_forward_without_two_dated_balances_or_titles_as_many_as_its_figures() -> None:
    assert rollforward_tables(OPTIONS[:12]) == []  # one balance only
    untitled = [OPTIONS[0], *OPTIONS[10:]]  # three figures, no titles to read them by
    assert rollforward_tables(untitled) == []
    schedule = ["Expected recognition of unearned revenue (in millions):",
                "September 30, 2023 $19,673", "December 31, 2023 15,600", "March 31, 2024 9,912"]
    assert rollforward_tables(schedule) == []  # no movements between the dates
    assert rollforward_tables(["Revenue grew 12% to $4.1 billion as of December 31, 2024.",
                               "Net income was $310 million."]) == []


def test_a_balance_asked_at_a_date_is_its_columns_figure_at_that_date() -> None:
    evidence = _evidence("\n".join(OPTIONS))
    count = compose(_ask("How many stock options were outstanding as of December 31, 2023?"),
                    evidence).text
    assert "1,240" in count.split("\n")[0] or "1.24 million" in count.split("\n")[0], count
    price = compose(_ask("What was the weighted-average exercise price of the stock options "
                         "outstanding at December 31, 2024?"), evidence).text
    assert "$7.66" in price.split("\n")[0], price
    goodwill = compose(_ask("What was the goodwill balance as of December 31, 2023?"),
                       _evidence("\n".join(GOODWILL))).text
    assert "$96.41 million at 31 December 2023" in goodwill.split("\n")[0], \
        goodwill


def test_a_table_cut_between_two_chunks_is_read_whole() -> None:
    """A passage of two chunks, the second repeating the table's caption line and the rows the
    first ended with: read without the repeat, the table has its titles and its closing
    balance."""
    cut = "\n".join([*OPTIONS[:14], OPTIONS[0], *OPTIONS[10:]])
    assert unrepeated(cut.split("\n")) == OPTIONS
    price = compose(_ask("What was the weighted-average exercise price of the stock options "
                         "outstanding at December 31, 2024?"), _evidence(cut)).text
    assert "$7.66" in price.split("\n")[0], price


def test_a_lead_ins_tail_is_no_title_of_balances_labelled_by_their_dates() -> None:
    """A chunk that opens with the tail of the lead-in ("… and years):") over balances labelled
    "As of <date>": each balance is labelled by its date, never by that scrap of the lead-in."""
    lines = ["in thousands, per share amounts, and years):",
             "Number of Shares", "Weighted-Average Exercise Price Per Share",
             "As of December 31, 2024",
             "2,100 $ 12.40 Exercised",
             "(300) $ 9.10 As of December 31, 2025",
             "1,800 $ 12.95 The total intrinsic value",
             "of options exercised was $40 million."]
    labels = [row.label for table in rollforward_tables(lines) for row in table.rows]
    assert labels and not any("thousands" in label for label in labels), labels
