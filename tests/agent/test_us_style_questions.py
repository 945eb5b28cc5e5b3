"""Questions and tables in the US house style of the Tidewater room, read the way a banker means
them (the end-to-end checks are the `US-*` dev cases in evals/dataset.yaml)."""

from __future__ import annotations

from manda.agent.frame import read_question
from manda.agent.tables import read_tables
from manda.finance.vocabulary import canonical_subject


def test_a_month_is_a_period_not_a_name() -> None:
    frame = read_question("What was EBITDA in February 2025?")
    assert frame.entity is None and frame.periods == ("Feb 2025",)


def test_ltm_questions_name_the_trailing_twelve_months() -> None:
    assert read_question("LTM EBITDA as of March?").partial_period == "LTM Mar"
    assert read_question("LTM EBITDA as of March 2025?").periods == ("LTM Mar 2025",)
    assert read_question("What is LTM revenue?").partial_period == "LTM"
    assert read_question("What was revenue in March 2025?").periods == ("Mar 2025",)


def test_group_headings_inside_a_register_do_not_split_it() -> None:
    text = ("Holder | Class | Shares\n"
            "Series B Preferred\n"
            "Bayou Growth | Class: Series B Preferred | Shares: 2,000,000\n"
            "Common Stock\n"
            "Maria Delgado | Class: Common Stock | Shares: 3,600,000\n"
            "Preferred stock converts 1:1 into common.")
    [table] = read_tables(text)
    assert [r.label for r in table.rows] == [
        "Series B Preferred", "Bayou Growth", "Common Stock", "Maria Delgado"]
    assert table.rows[1].cells["Shares"] == "2,000,000"


def test_banker_phrasings_of_the_year_end_and_the_adjustments() -> None:
    assert read_question("When is their fiscal year end?").year_end
    assert read_question("When does the company's financial year end?").year_end
    assert not read_question("What was revenue at the year end?").year_end
    assert read_question("Walk me through the QoE adjustments").adjustments
    assert read_question("What are the EBITDA add-backs?").adjustments
    assert not read_question("What was adjusted EBITDA in FY2025?").adjustments


def test_revolver_and_deferred_tax_lines_keep_their_own_meaning() -> None:
    assert canonical_subject("Revolver drawn") == "revolver"
    assert canonical_subject("Revolving credit facility") == "revolver"
    assert canonical_subject("Revolving credit facility limit") == "facility limit"
    assert canonical_subject("Deferred income taxes") == "deferred tax"
    assert canonical_subject("Deferred income") == "deferred revenue"
