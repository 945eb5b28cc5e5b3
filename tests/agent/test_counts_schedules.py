"""Counts and schedules whose rows are years (issue 25): a count read from a table of counts
leads with its number, never as money; a question's verb is no line item's word; a schedule's
year row is the amount due in that year and its total the whole; a count of shares stated at a
date is a count. The documents below are written for the tests; none is a filing's text."""

from __future__ import annotations

from test_filings_leads import _ask, _evidence

from manda.agent.compose import compose
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.schedules import answer as schedule_answer
from manda.agent.compose.schedules import schedules
from manda.agent.frame import read_question
from manda.agent.kinds import states_count
from manda.agent.relevance import stems_of, term_in
from manda.agent.spans import balance_side, fits_kind, rank_spans

OUTLETS = "\n".join([
    "Outlet Data",
    "Change in Number of Outlets 2025 2024",
    "2025 | 2024",
    "Beginning outlet count | 2025: 812 | 2024: 790",
    "Opened | 2025: 25 | 2024: 24",
    "Closed | 2025: (3) | 2024: (2)",
    "Ending outlet count | 2025: 834 | 2024: 812",
    "(a)In thousands; reflects total floor area less office space.",
])
INCOME = "\n".join([
    "CONSOLIDATED STATEMENTS OF OPERATIONS",
    "(millions)",
    "2025 | 2024",
    "Operating income | 2025: $3,120 | 2024: $2,950",
])


def test_a_plural_and_its_singular_are_one_word_either_way_round() -> None:
    assert term_in("stor", stems_of("Ending store count"))
    assert term_in("outlet", stems_of("Number of outlets"))


def test_the_questions_verb_is_how_it_asks_not_what() -> None:
    frame = read_question("How many outlets did Northwind operate at the end of fiscal 2025?")
    assert frame.verb == "operate" and frame.counted == ("outlets",)
    assert read_question("How much debt did the group repay in 2027?").verb == "repa"
    assert read_question("How much does Northwind have to repay in 2027?").verb is None
    # the company named after the auxiliary is whom it asks about, and counts nothing
    assert read_question("How many Northwind shares were outstanding?").counted == ("shares",)


def test_a_count_table_leads_with_its_number_not_as_money_nor_operating_income() -> None:
    ask = _ask("How many outlets did the company operate at the end of fiscal 2025?")
    evidence = _evidence(OUTLETS, INCOME)
    ranked = rank_spans(ask.frame, evidence)
    top = ranked[0]
    assert top.row is not None and top.row.label == "Ending outlet count"
    assert not any("Operating income" in s.text for s in ranked)  # "operate" is no line item
    assert all(f.unit is None for f in top.figures())  # no "(a) In thousands" footnote, no $
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert first.startswith("Ending outlet count was 834 at 31 December 2025") and "$" not in first


def test_a_roll_forwards_first_and_last_rows_are_its_two_ends() -> None:
    assert balance_side("Beginning outlet count", row=True) == "opening"
    assert balance_side("Ending outlet count", row=True) == "closing"


def test_a_count_stated_at_a_date_is_a_count_of_the_things_before_the_date() -> None:
    assert states_count("Number of shares of common stock outstanding as of January 28, 2026 "
                        "5,120,330,100", ("shares",))
    assert states_count("Total shares of common stock outstanding as of March 4, 2026, were "
                        "210,400,512.", ("shares",))
    assert not states_count("Revenue was $5,120 million as of January 28, 2026.", ("shares",))


MATURITIES = "\n".join([
    "Note 9 – Borrowings",
    "The future principal payments for the Company's notes as of June 30, 2025, are as follows "
    "(in millions):",
    "2026 $1,250",
    "2027 2,400",
    "2028 900",
    "Thereafter 6,100",
    "Total notes principal $10,650",
])
LEASES = "\n".join([
    "Lease liability maturities as of June 30, 2025, are as follows (in millions):",
    "OperatingLeases FinanceLeases Total",
    "2026 $300 $40 $340",
    "2027 280 30 310",
    "2028 250 20 270",
    "Thereafter 900 60 960",
    "Total undiscounted liabilities 1,730 150 1,880",
    "Less: Imputed interest (230) (20) (250)",
    "Total lease liabilities $1,500 $130 $1,630",
])
COMMITMENTS = "\n".join([
    "Contractual Obligations",
    "The following summarizes the payments due by fiscal year for our contractual obligations "
    "as of June 30, 2025:",
    "(In millions) 2026 2027 Thereafter Total",
    "Borrowings principal and interest $1,600 $2,700 $7,000 $11,300",
    "Purchase commitments 4,000 1,000 500 5,500",
    "Total $5,600 $3,700 $7,500 $16,800",
])


def test_a_schedules_rows_are_years_its_rest_and_its_whole() -> None:
    found = schedules(_evidence(MATURITIES))
    assert len(found) == 1
    entries = {e.label: e for e in found[0].entries}
    assert entries["2027"].year == 2027 and entries["Thereafter"].rest
    assert entries["Total notes principal"].total and found[0].as_of is not None


def test_the_amount_due_in_a_year_is_its_row_with_the_schedules_date() -> None:
    ask = _ask("How much of the notes principal is due in 2027?")
    assert ask.frame.schedule and not ask.frame.timeline
    draft = schedule_answer(ask, _evidence(MATURITIES))
    assert draft is not None
    first = draft.text.splitlines()[0]
    assert first.startswith("$2.4 billion falls due in 2027")
    assert "30 June 2025" in first and "$10.7 billion in all" in first


def test_the_years_after_the_last_listed_are_its_thereafter_row() -> None:
    ask = _ask("How much of the notes principal is due after 2028?")
    assert ask.frame.schedule_after
    draft = schedule_answer(ask, _evidence(MATURITIES))
    assert draft is not None and draft.text.startswith("$6.1 billion falls due after 2028")


def test_the_whole_of_several_columns_is_the_total_column_and_first_total() -> None:
    ask = _ask("What are the total undiscounted lease payments, operating and finance together?")
    draft = schedule_answer(ask, _evidence(LEASES))
    assert draft is not None and draft.text.startswith("$1.88 billion in all")
    ask = _ask("What are the total operating lease payments due?")
    draft = schedule_answer(ask, _evidence(LEASES))
    assert draft is not None and draft.text.startswith("$1.73 billion in all")


def test_column_titles_of_several_words_name_the_columns() -> None:
    """"Operating Leases Finance Leases Total" over three columns: each title is the words up to
    its "Leases", so the finance leases asked are read from the second column, not the first."""
    spaced = LEASES.replace("OperatingLeases FinanceLeases", "Operating Leases Finance Leases")
    assert [s.name for s in schedules(_evidence(spaced))] == [
        "Operating Leases", "Finance Leases", "Total"]
    draft = schedule_answer(_ask("How much is owed in finance lease payments in 2026?"),
                            _evidence(spaced))
    assert draft is not None and draft.text.startswith("$40"), draft.text


def test_what_a_schedule_column_owes_in_a_year_is_its_years_row() -> None:
    """"What finance lease payments does it owe in 2026?" reads as a list of payments, yet asks
    one year's line of the schedule: the amount due in that year, from the column named."""
    spaced = LEASES.replace("OperatingLeases FinanceLeases", "Operating Leases Finance Leases")
    ask = _ask("What finance lease payments does the company owe in 2026?")
    assert ask.frame.schedule
    draft = schedule_answer(ask, _evidence(spaced))
    assert draft is not None and draft.text.startswith("$40"), draft.text
    # a list asked of a year without a schedule's manner is no schedule's line
    assert not _ask("What leases did the company sign in 2026?").frame.schedule


def test_a_schedule_across_a_header_of_years_is_read_by_its_lines() -> None:
    ask = _ask("What are the total contractual obligations?")
    draft = schedule_answer(ask, _evidence(COMMITMENTS))
    assert draft is not None and draft.text.startswith("$16.8 billion in all (Total)")
    ask = _ask("How much of the purchase commitments is due in 2027?")
    draft = compose(ask, _evidence(COMMITMENTS))
    assert draft.text.startswith("$1.0 billion falls due in 2027")


def test_a_question_of_no_schedule_is_left_to_the_other_shapes() -> None:
    assert not _ask("What was operating income in 2025?").frame.schedule
    assert not _ask("When do the notes mature?").frame.schedule
    assert schedule_answer(_ask("How much rent is due in 2027?"), _evidence(MATURITIES)) is None


def test_a_count_of_shares_is_named_by_its_stock_and_an_aside_names_none() -> None:
    assert states_count("The number of shares of the registrant's common stock outstanding as "
                        "of February 22, 2026 was 812,004,310.", ("shares",))
    ask = _ask("How many shares of common stock were outstanding in February 2026?")
    evidence = _evidence(
        "The number of shares of the registrant's common stock outstanding as of February 22, "
        "2026 was 812,004,310.",
        "CONSOLIDATED BALANCE SHEETS\n(in millions)\n2025 | 2024\n"
        "Common stock ($0.01 par value; 900 shares outstanding) | 2025: $9 | 2024: $9")
    first = evidence_answer(ask, evidence).text.splitlines()[0]
    assert "812,004,310" in first and "$9" not in first


def test_what_is_left_of_a_program_that_may_yet_be_used_is_stated_not_hedged() -> None:
    ask = _ask("How much is left under the share repurchase program?")
    evidence = _evidence(
        "As of December 31, 2025, the dollar value of shares that may yet be purchased under "
        "the program is $4.1 billion.",
        "Future repurchases may be made in the open market if market conditions allow.")
    assert "$4.1 billion" in rank_spans(ask.frame, evidence)[0].text
    assert _ask("How much remained of the share repurchase program?").frame.remaining
    assert not _ask("Why did the gross margin remain flat?").frame.remaining


def test_another_years_schedule_does_not_answer_a_balance_at_a_year_asked() -> None:
    ask = _ask("How large were the notes principal payments due at the end of fiscal 2021?")
    assert schedule_answer(ask, _evidence(MATURITIES)) is None
    assert read_question("How many employees did the company have at the end of 2025?").verb is None


def test_a_table_whose_rows_are_years_is_a_schedule_too() -> None:
    evidence = _evidence("\n".join([
        "Future minimum lease payments as of December 31, 2025 (in millions):",
        "Year | Amount",
        "2026 | Amount: $410", "2027 | Amount: 395", "2028 | Amount: 380",
        "Thereafter | Amount: 1,200", "Total | Amount: $2,385"]))
    ask = _ask("What are the total future minimum lease payments?")
    draft = schedule_answer(ask, evidence)
    assert draft is not None and draft.text.startswith("$2.39 billion in all (Total)")
    assert "31 December 2025" in draft.text


def test_a_row_of_a_table_of_counts_counts_the_things_its_caption_names() -> None:
    ask = _ask("How many new outlets did the company open in fiscal 2025?")
    ranked = rank_spans(ask.frame, _evidence(OUTLETS))
    opened = next(s for s in ranked if s.row is not None and s.row.label == "Opened")
    assert fits_kind(opened, ask.frame)


def test_a_statements_years_are_no_schedule() -> None:
    statement = "\n".join(["(In millions) 2025 2024 2023",
                           "Net sales $5,600 $5,100 $4,700", "Operating income 900 800 700"])
    assert schedules(_evidence(statement)) == []


OBLIGATIONS = "\n".join([
    "Contractual Obligations",
    "The following summarizes our principal commitments as of December 31, 2025 (in millions):",
    "2026 2027 2028 Thereafter Total",
    "Senior notes principal and interest $410 $395 $380 $2,900 $4,085",
    "Aircraft purchase commitments (1) 220 180 150 640 1,190",
    "Hangar construction commitments (2) 75 60 — — 135",
    "Total commitments $705 $635 $530 $3,540 $5,410",
    "(1)Includes take-or-pay agreements with carriers.",
    "(2)Includes signed contracts for hangars under construction.",
])


def test_a_footnoted_line_of_a_schedule_is_read_and_its_note_is_no_cell() -> None:
    found = {s.name: s for s in schedules(_evidence(OBLIGATIONS))}
    aircraft = found["Aircraft purchase commitments (1)"]
    assert [e.cell for e in aircraft.entries] == ["220", "180", "150", "640", "1,190"]
    # the lines under a footnoted one are read too, to the table's total
    assert "Total commitments" in found
    first = schedule_answer(_ask("How much were the company's aircraft purchase commitments in "
                                 "total as of December 31, 2025?"), _evidence(OBLIGATIONS))
    assert first is not None and "$1.19 billion" in first.text.splitlines()[0]


def test_commitments_outstanding_ask_the_whole_of_their_line() -> None:
    ask = _ask("What hangar construction commitments did the company have outstanding at "
               "December 31, 2025?")
    assert ask.frame.schedule
    draft = compose(ask, _evidence(OBLIGATIONS))
    assert "$135" in draft.text.splitlines()[0]


HEADED = "\n".join([
    "Contractual Obligations",
    "The following summarizes our principal commitments as of December 31, 2025 (in millions):",
    "2026 2027 Thereafter Total",
    "Senior notes: (a)",
    "Principal payments $300 $250 $2,000 $2,550",
    "Interest payments 90 80 600 770",
    "Hangar construction commitments (b) 75 60 — 135",
    "Fuel purchase commitments (c) 410 390 120 920",
    "Total $875 $780 $2,720 $4,375",
])


def test_a_heading_names_the_lines_under_it_up_to_its_siblings_own_note() -> None:
    """"Senior notes: (a)" heads the principal and interest lines under it; a line with a note of
    its own ("(b)"), as the heading has, stands beside the heading, not under it."""
    names = {s.name for s in schedules(_evidence(HEADED))}
    assert "Senior notes: (a) Principal payments" in names
    assert "Senior notes: (a) Interest payments" in names
    assert "Hangar construction commitments (b)" in names
    assert "Fuel purchase commitments (c)" in names
    draft = compose(_ask("How much in fuel purchase commitments is due in total?"),
                    _evidence(HEADED))
    first = draft.text.splitlines()[0]
    assert "$920" in first and "Senior notes" not in first


def test_what_the_company_has_to_pay_or_owes_asks_the_schedule() -> None:
    """"have to pay in 2027", "still owes": a schedule's words as an analyst types them."""
    ask = _ask("How much borrowings principal and interest does the company have to pay in "
               "2027?")
    assert ask.frame.schedule
    draft = compose(ask, _evidence(COMMITMENTS))
    assert draft.text.startswith("$2.7 billion falls due in 2027")
    ask = _ask("Total borrowings principal and interest the company still owes?")
    assert ask.frame.schedule
    draft = compose(ask, _evidence(COMMITMENTS))
    assert draft.text.startswith("$11.3 billion in all")


STACKED = "\n".join([
    "Maturity of Lease Liabilities Operating Finance",
    "(millions) Leases (a) Leases (b) Total",
    "2026 $410 $95 $505",
    "2027 400 90 490",
    "2028 380 85 465",
    "Thereafter 1,900 700 2,600",
    "Total lease payments $3,090 $970 $4,060",
])


def test_a_header_printed_over_two_lines_names_each_column() -> None:
    """"Operating Finance" over "(millions) Leases (a) Leases (b) Total": the columns are the
    operating leases, the finance leases and the total, the notes' marks and the scale no
    column's."""
    names = [s.name for s in schedules(_evidence(STACKED))]
    assert names == ["Operating Leases", "Finance Leases", "Total"], names


def test_the_column_that_says_most_of_the_question_is_the_one_asked() -> None:
    """"Finance lease payments": "Finance Leases" says finance and lease, "Operating Leases"
    lease only; the finance column's year answers, never the first column's."""
    draft = schedule_answer(_ask("How much are the finance lease payments due in 2026?"),
                            _evidence(STACKED))
    assert draft is not None and draft.text.startswith("$95.0 million falls due in 2026"), \
        draft and draft.text
    draft = schedule_answer(_ask("How much are the finance lease payments due in 2027?"),
                            _evidence(LEASES))
    assert draft is not None and draft.text.startswith("$30.0 million falls due in 2027"), \
        draft and draft.text
