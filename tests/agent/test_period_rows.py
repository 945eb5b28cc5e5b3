"""Tables whose rows are headed by periods, their column gaps lost (issue 25): a line item's
figure a quarter under a lead-in that names it ("Three Months Ending" over "December 31, 2025
3,180"), and a quarter's repurchases a month under the quarter's title ("October 1, 2025 to
October 31, 2025:" over a line of figures, then "Total"). The row of the period asked answers;
the total line is the quarter the title names. The companies and figures are invented."""

from __future__ import annotations

from datetime import date

from test_spans import _evidence as _passages

from manda.agent.compose.common import Ask
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.agent.spans.period_rows import period_label, period_tables
from manda.models import Document, DocumentStatus

JUNE = Document(id="d1", deal_id="d", filename="Harbor_Annual_FY2025.pdf", content_hash="h",
                file_type="pdf", size_bytes=1, version_family="f",
                status=DocumentStatus.COMPLETED, doc_date=date(2025, 6, 30),
                fiscal_year_end="--06-30")

DECEMBER = Document(id="d2", deal_id="d", filename="Kestrel_Annual_2025.pdf", content_hash="h",
                    file_type="pdf", size_bytes=1, version_family="f",
                    status=DocumentStatus.COMPLETED, doc_date=date(2025, 12, 31),
                    fiscal_year_end="--12-31")

BY_QUARTER = "\n".join([
    "Deferred Revenue",
    "Deferred revenue is invoiced annually and recognized over the service period.",
    "The following table outlines the expected future recognition of deferred revenue as of "
    "June 30, 2025:",
    "(In millions)",
    "Three Months Ending",
    "September 30, 2025 $4,210",
    "December 31, 2025 3,180",
    "March 31, 2026 2,050",
    "June 30, 2026 1,120",
    "Thereafter 640",
    "Total $11,200",
    "Refer to the notes for further discussion.",
])

BY_MONTH = "\n".join([
    "Purchases of Equity Securities by the Issuer",
    "Share repurchase activity during the three months ended December 31, 2025, was as follows "
    "(in millions, except number of shares, which are reflected in thousands, and per-share "
    "amounts):",
    "Periods Total Number of Shares Purchased Average Price Paid Per Share Approximate Dollar "
    "Value of Shares That May Yet Be Purchased Under the Program",
    "October 1, 2025 to October 31, 2025:",
    "Open market purchases 1,200 $50.10",
    "November 1, 2025 to November 30, 2025:",
    "Open market purchases 1,350 $52.40",
    "December 1, 2025 to December 31, 2025:",
    "Open market purchases 1,100 $55.00",
    "Total 3,650 $2,400",
])

THE_YEAR = ("Shareholders' Equity\nDuring 2025, the Company repurchased 14 million shares of "
            "its common stock for $700 million under its share repurchase program.")


def _ask(question: str) -> Ask:
    return Ask.of(read_question(question))


def _first(question: str, *texts: str, doc: Document) -> str:
    return evidence_answer(_ask(question), _passages(*texts, doc=doc)).text.splitlines()[0]


def test_a_period_and_nothing_else_heads_a_row() -> None:
    assert period_label("December 31, 2025")
    assert period_label("October 1, 2025 to October 31, 2025:")
    assert period_label("Three Months Ending March 31, 2026")
    assert not period_label("Open market purchases")
    assert not period_label("Thereafter")
    assert not period_label("Balance as of December 31, 2025")


def test_a_line_items_figures_by_quarter_are_rows_of_one_column() -> None:
    [table] = period_tables(BY_QUARTER.splitlines())
    assert table.header == ["The expected future recognition of deferred revenue"]
    labels = [row.label for row in table.rows]
    assert labels == ["Three Months Ending September 30, 2025",
                      "Three Months Ending December 31, 2025",
                      "Three Months Ending March 31, 2026", "Three Months Ending June 30, 2026",
                      "Thereafter", "Total"]
    assert [next(iter(row.cells.values())) for row in table.rows][:2] == ["$4,210", "3,180"]


def test_the_row_of_the_fiscal_quarter_asked_answers() -> None:
    # December 31, 2025 ends the second quarter of the year ending June 30, 2026
    first = _first("How much deferred revenue does Harbor expect to recognize in Q2 of fiscal "
                   "2026?", BY_QUARTER, doc=JUNE)
    assert "3,180" in first and "11,200" not in first, first
    fourth = _first("How much deferred revenue does Harbor expect to recognize in the fourth "
                    "quarter of fiscal 2026?", BY_QUARTER, doc=JUNE)
    assert "1,120" in fourth, fourth


def test_the_total_of_a_table_by_period_is_no_quarter_of_it() -> None:
    ranked = rank_spans(_ask("How much deferred revenue does Harbor expect to recognize in Q3 "
                             "of fiscal 2026?").frame, _passages(BY_QUARTER, doc=JUNE))
    rows = [s for s in ranked if s.row is not None]
    assert rows[0].row is not None and rows[0].row.label.endswith("March 31, 2026"), rows[0]


def test_the_total_line_is_the_quarter_its_title_names() -> None:
    first = _first("How many shares did Kestrel repurchase in the quarter ended December 31, "
                   "2025?", THE_YEAR, BY_MONTH, doc=DECEMBER)
    assert "3,650" in first and "14 million" not in first, first


def test_a_months_line_is_read_under_its_period_and_columns() -> None:
    first = _first("What average price per share did Kestrel pay for the shares it repurchased "
                   "from November 1, 2025 to November 30, 2025?", BY_MONTH, doc=DECEMBER)
    assert "$52.40" in first, first
    assert "November 1, 2025 to November 30, 2025" in first, first


def test_what_remains_is_read_where_the_table_closes() -> None:
    first = _first("What dollar value of shares could Kestrel still buy back under its "
                   "repurchase program at the end of 2025?", BY_MONTH, doc=DECEMBER)
    assert "$2,400" in first, first


def test_a_terse_quarter_asked_is_read_on_the_total_line() -> None:
    # the best span by words states no figure ("any specific number of shares"): the total
    # line of the quarter asked leads instead
    aside = ("Capital Return\nShares repurchased in the fourth quarter of 2025 are retired, "
             "and the program does not obligate the Company to acquire any specific number of "
             "shares.")
    first = _first("Kestrel shares repurchased in Q4 2025?", aside, BY_MONTH, doc=DECEMBER)
    assert "3,650" in first, first


def test_a_whole_year_asked_is_no_months_line_of_a_table_by_period() -> None:
    shares = "\n".join(["The following table shows the changes in shares of common stock for "
                        "2025 and 2024 (in thousands):", "2025 | 2024",
                        "Common stock repurchased | 2025: (14,250) | 2024: (12,900)"])
    first = _first("How much stock did the company repurchase in 2025, in shares and dollars?",
                   BY_MONTH, shares, doc=DECEMBER)
    assert "14,250" in first or "14.25" in first, first
    assert "1,200" not in first and "1,350" not in first and "1,100" not in first, first
