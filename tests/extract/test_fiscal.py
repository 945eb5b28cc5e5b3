"""The fiscal year is learned from what documents say, and column headers are read with it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from manda.app import Manda
from manda.config import Settings
from manda.finance.fiscal import (
    FiscalYearEnd,
    fiscal_label,
    fiscal_period_of_column,
    label_fiscal_parts,
    learn_fiscal_year_end,
    month_range_period,
)
from manda.finance.periods import (
    parse_period,
    period_end,
    period_sort_key,
    previous_period,
    same_quarter_last_year,
)

JUNE = FiscalYearEnd(6, 30)
MARCH = FiscalYearEnd(3, 31)


@pytest.mark.parametrize(
    ("text", "year_end"),
    [
        ("Consolidated statements of operations for the years ended June 30, 2024 and 2023",
         JUNE),
        ("Report and financial statements for the year ended 31 March 2024", MARCH),
        ("Budget for FY to 31 March", MARCH),
        ("The Group's financial year end is 30 June.", JUNE),
        ("twelve months ended 30 June 2024", JUNE),
        ("Das Geschäftsjahr der Gesellschaft läuft vom 1. Juli bis 30. Juni.", JUNE),
        ("Jahresabschluss zum 31. Dezember 2023", FiscalYearEnd(12, 31)),
        ("Fiscal year ending September 30, 2024", FiscalYearEnd(9, 30)),
        ("Comptes annuels de l'exercice clos le 30 septembre 2025", FiscalYearEnd(9, 30)),
        ("Cuentas anuales del ejercicio terminado el 31 de diciembre de 2025",
         FiscalYearEnd(12, 31)),
    ],
)
def test_the_year_end_is_learned_from_how_documents_state_it(text: str,
                                                             year_end: FiscalYearEnd) -> None:
    assert learn_fiscal_year_end([text]) == year_end


def test_the_most_stated_year_end_wins_and_silence_learns_nothing() -> None:
    texts = ["year ended 31 March 2024", "FY to 31 March", "year ended 31 December 2023 (old)"]
    assert learn_fiscal_year_end(texts) == MARCH
    assert learn_fiscal_year_end(["Revenue grew 12% in 2024."]) is None
    # a trailing window ends any month: "last twelve months to 30 September" is no year end
    assert learn_fiscal_year_end(["Revenue, last twelve months to 30 September 2024"]) is None


def test_a_fiscal_year_is_labelled_by_the_year_it_ends_in() -> None:
    assert JUNE.fiscal_year_of(date(2023, 12, 15)) == 2024
    assert JUNE.fiscal_year_of(date(2024, 6, 30)) == 2024
    assert MARCH.end_of(2024) == date(2024, 3, 31)
    assert period_end("FY2024", JUNE.key) == date(2024, 6, 30)
    assert period_end("FY2024") == date(2024, 12, 31)
    assert JUNE.iso() == "--06-30" and FiscalYearEnd.from_iso("--06-30") == JUNE


@pytest.mark.parametrize(
    ("header", "flow", "year_end", "period"),
    [
        ("2023", True, JUNE, "FY2023"),  # audited "2023 | 2022": the year ended 30 June 2023
        ("2023/24", True, MARCH, "FY2024"),
        ("FY2023/24", True, MARCH, "FY2024"),
        ("30 June 2024", True, JUNE, "FY2024"),  # revenue "at" a year end is that year's
        ("30 June 2024", False, JUNE, "as of 2024-06-30"),  # cash at that date stays a date
        ("31.03.2024", True, MARCH, "FY2024"),
        ("31 Dec 2023", True, None, "FY2023"),
        ("30 Sep 2024", True, None, "as of 2024-09-30"),
        ("Year ended 31 March 2024", True, MARCH, "FY2024"),
    ],
)
def test_column_headers_map_to_fiscal_periods(header: str, flow: bool,
                                              year_end: FiscalYearEnd | None,
                                              period: str) -> None:
    assert fiscal_period_of_column(header, year_end, flow=flow) == period


@pytest.mark.parametrize(
    ("header", "period"),
    [
        ("Dec-23", "Dec 2023"), ("Jun'24", "Jun 2024"), ("December 2023", "Dec 2023"),
        ("2023-12", "Dec 2023"), ("12/2023", "Dec 2023"), ("März 2024", "Mar 2024"),
        ("Actual 2023", "FY2023"), ("Budget 2025", "FY2025"), ("GJ 2023/24", "FY2024"),
        ("YTD Jun-24", None), ("Jan–Jun 2024", None),
        ("LTM Sep 2024", "LTM Sep 2024"),  # the twelve months to September, not September
    ],
)
def test_month_and_labelled_year_headers(header: str, period: str | None) -> None:
    assert parse_period(header) == period


def test_month_arithmetic() -> None:
    assert previous_period("Jan 2024") == "Dec 2023"
    assert same_quarter_last_year("Dec 2023") == "Dec 2022"
    assert period_end("Feb 2024") == date(2024, 2, 29)
    months = ["Q4 2023", "Dec 2023", "FY2023", "Nov 2023"]
    assert sorted(months, key=period_sort_key) == ["Nov 2023", "Dec 2023", "Q4 2023", "FY2023"]


async def test_ingestion_learns_the_deals_year_end_and_reads_later_files_with_it(
    tmp_path: Path,
) -> None:
    room = tmp_path / "room"
    room.mkdir()
    (room / "Doc_01.md").write_text(
        "# Harbour Foods Ltd\n\nReport and financial statements for the year ended 30 June 2024."
        "\n\nTurnover for the year ended 30 June 2024 was £41.2m.\n")
    later = tmp_path / "Doc_02.csv"
    later.write_text("£000,FY2024,FY2023\nCash at bank,5100,4200\nTurnover,41200,38000\n")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("harbour", [room])
        deal = await app.graph.get_deal("harbour")
        assert deal is not None and deal.fiscal_year_end == "--06-30"
        await app.ingest.ingest("harbour", [later])
        docs = {d.filename: d for d in await app.graph.list_documents("harbour")}
        assert docs["Doc_02.csv"].fiscal_year_end == "--06-30"
        cash = await app.graph.list_findings("harbour", subject="cash")
        assert {(f.period, f.value) for f in cash} >= {("as of 2024-06-30", 5_100_000)}


async def test_a_file_read_before_the_rooms_year_end_was_known_is_read_again_with_it(
    tmp_path: Path,
) -> None:
    room = tmp_path / "room"
    room.mkdir()  # the certificate comes first and never states the year end itself
    (room / "A_Covenant_Certificate.md").write_text(
        "# Covenant certificate Q2 FY2025\n\nNet debt of $12.4 million; leverage 2.1x.\n")
    (room / "B_Accounts.md").write_text(
        "# Marlow Valves Inc\n\nFinancial statements for the year ended September 30, 2024."
        "\n\nRevenue for the year ended September 30, 2024 was $61.0 million.\n")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        report = await app.ingest.ingest("marlow", [room])
        net_debt = await app.graph.list_findings("marlow", subject="net debt")
        # Q2 of a year ending 30 September ends on 31 March, not 30 June
        assert [(f.period, f.value) for f in net_debt] == [("as of 2025-03-31", 12_400_000)]
        stored = await app.graph.list_findings("marlow")
        assert report.findings == len(stored)
        docs = {d.filename: d for d in await app.graph.list_documents("marlow")}
        assert docs["A_Covenant_Certificate.md"].fiscal_year_end == "--09-30"


@pytest.mark.parametrize(
    ("text", "year_end", "period"),
    [
        ("Apr–Jun 2024", None, "Q2 2024"),
        ("Apr–Jun 2024", MARCH, "Q1 2025"),
        ("Oct - Dec 23", MARCH, "Q3 2024"),
        ("Jan-Mar 2024", JUNE, "Q3 2024"),
        ("Apr-Sep 2024", MARCH, "H1 2025"),
        ("Apr-Sep 2024", None, None),  # not a half of a calendar year
        ("Jul 2024–Jun 2025", JUNE, "FY2025"),
        ("Apr 2024–Mar 2025", JUNE, "LTM Mar 2025"),  # twelve months, not the fiscal year
        ("Apr 2024–Sep 2024", JUNE, None),
    ],
)
def test_a_span_of_months_is_a_period_of_the_fiscal_year(text: str,
                                                         year_end: FiscalYearEnd | None,
                                                         period: str | None) -> None:
    assert month_range_period(text, year_end) == period


def test_fiscal_quarters_end_inside_the_fiscal_year() -> None:
    assert period_end("Q1 2025", MARCH.key) == date(2024, 6, 30)
    assert period_end("Q4 2025", MARCH.key) == date(2025, 3, 31)
    assert period_end("H1 2024", JUNE.key) == date(2023, 12, 31)
    assert period_end("Q3 2024") == date(2024, 9, 30)


def test_a_month_column_stored_as_its_first_day_is_that_month() -> None:
    assert fiscal_period_of_column("2024-04-01", MARCH, flow=True) == "Apr 2024"
    assert fiscal_period_of_column("2024-04-01", MARCH, flow=False) == "as of 2024-04-01"


def test_a_trailing_window_is_no_year_end_and_a_first_quarter_defines_one() -> None:
    pack = "(in thousands) · Q1 FY25 = Jul–Sep 2024 · LTM Mar-25 = twelve months to March 31, 2025"
    assert learn_fiscal_year_end([pack]) == JUNE
    assert learn_fiscal_year_end(["for the twelve months ended 31 March 2024"]) == MARCH
    assert learn_fiscal_year_end(["Q1 FY2025 (April to June 2024)"]) == MARCH


def test_an_ltm_column_header_over_its_month_span() -> None:
    assert fiscal_period_of_column("LTM Mar-25 Apr 2024–Mar 2025", JUNE, flow=True) == (
        "LTM Mar 2025")


def test_a_fiscal_quarter_is_written_as_the_fiscal_years() -> None:
    assert fiscal_label("Q2 2025", JUNE) == "Q2 FY2025"
    assert fiscal_label("H1 2024", MARCH) == "H1 FY2024"
    assert fiscal_label("Q2 2025", FiscalYearEnd(12, 31)) == "Q2 2025"  # a calendar year
    assert fiscal_label("Q2 2025", None) == "Q2 2025"
    assert fiscal_label("FY2025", JUNE) == "FY2025"
    text = ("| Metric | Q1 2025 | Q2 2025 |\n"
            "Revenue was $11.4M in Q1 2025 (source: Pack Q1 2025.xlsx, Quarterly!C6); the "
            "report says “Q1 2025 was strong”.")
    assert label_fiscal_parts(text, JUNE) == (
        "| Metric | Q1 FY2025 | Q2 FY2025 |\n"
        "Revenue was $11.4M in Q1 FY2025 (source: Pack Q1 2025.xlsx, Quarterly!C6); the "
        "report says “Q1 2025 was strong”.")
    assert label_fiscal_parts(text, None) == text


def test_a_month_column_under_a_quarter_band_is_the_month() -> None:
    """A sheet's quarter band over month-end dates is read as one header ("Q1 FY25 2024-02-29"):
    each column is its month, for a flow and for a balance, never the quarter's end."""
    january = FiscalYearEnd(1, 31)
    assert fiscal_period_of_column("Q1 FY25 2024-02-29", january, flow=True) == "Feb 2024"
    assert fiscal_period_of_column("Q4 FY25 2025-01-31", january, flow=False) == "Jan 2025"
    assert fiscal_period_of_column("H1 2024 2024-03-01", None, flow=True) == "Mar 2024"
    # a year's band over its year end, and a quarter named with a day inside it, stay as they were
    assert fiscal_period_of_column("FY2024 31.12.2024", None, flow=True) == "FY2024"
    assert fiscal_period_of_column("Q2 2024 15 May 2024", None, flow=True) == "Q2 2024"


def test_net_new_arr_is_its_own_line_item_not_the_arr() -> None:
    from manda.finance.vocabulary import canonical_subject

    assert canonical_subject("Net new ARR") == "net new arr"
    assert canonical_subject("Ending ARR") == "arr"


def test_the_fiscal_quarter_of_a_day_counts_from_the_month_after_the_year_end() -> None:
    assert FiscalYearEnd(9, 27).quarter_of(date(2025, 5, 1)) == "Q3 2025"
    assert FiscalYearEnd(6, 30).quarter_of(date(2023, 9, 1)) == "Q1 2024"
    assert FiscalYearEnd(12, 31).quarter_of(date(2025, 5, 1)) == "Q2 2025"
