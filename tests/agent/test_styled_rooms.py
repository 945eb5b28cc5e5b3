"""Topic questions, evidence-first answers and "not found" on data rooms in US, German and UK
styles (tests/agent/styled_rooms.py), ingested by the real pipeline and answered offline."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import pytest
from styled_rooms import DE, UK, US, write_room

from manda.answers import Answer, Intent
from manda.app import Manda
from manda.config import Settings

QUESTIONS: tuple[tuple[str, str], ...] = (
    (US, "Who owns the company?"), (UK, "Who are the shareholders?"),
    (DE, "What is the cap table?"), (US, "Give me a summary of the management team"),
    (UK, "Who is on the leadership team?"), (US, "Who is the VP of Sales?"),
    (US, "Who is the COO?"), (UK, "Who is the CFO?"), (DE, "Who is the managing director?"),
    (US, "Who is the CFO?"), (US, "What is Raj Patel's salary?"),
    (US, "What price did the buyer offer?"), (US, "Is there any pending litigation?"),
    (DE, "Is there any pending litigation?"), (US, "What are the red flags?"),
    (US, "Tell me about the company"), (US, "Walk me through the P&L"),
    (UK, "Compare the budget to the actual"),
    (US, "Is the company adequately insured against cyber risks?"),
    (US, "What does the balance sheet look like?"), (US, "What debt facilities are in place?"),
    (US, "What are the financial covenants?"), (US, "Who are the largest customers?"),
    (US, "Is the business dependent on the founder?"), (DE, "Walk me through the balance sheet"),
    (DE, "What bank debt does the company have?"), (UK, "Who holds the A Ordinary shares?"),
    (US, "How much is drawn under the revolving credit facility?"),
    (DE, "How much of the credit line is drawn?"),
    (US, "How did revenue do last year against the prior year?"),
    (UK, "What was EBITDA last year?"),
    (US, "How much is drawn on the revolver?"), (US, "What's the top line growth?"),
    (DE, "Wie viel ist von der Kreditlinie in Anspruch genommen?"),
    (US, "Who runs the company?"),
)


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Answer]:
    """The three rooms ingested once, every question of this module asked once (offline)."""
    root = tmp_path_factory.mktemp("styled")

    async def run() -> dict[tuple[str, str], Answer]:
        async with Manda(Settings(MANDA_HOME=root / "home")) as app:
            for deal in (US, DE, UK):
                await app.ingest.ingest(deal, [write_room(root / "rooms", deal)])
            return {(deal, q): await app.answers.ask(deal, q) for deal, q in QUESTIONS}

    return asyncio.run(run())


@pytest.fixture
def ask(answers: dict[tuple[str, str], Answer]) -> Callable[[str, str], Answer]:
    def answer_to(deal: str, question: str) -> Answer:
        answer = answers[(deal, question)]
        assert answer.grounded, answer.answer
        return answer
    return answer_to


Ask = Callable[[str, str], Answer]


def cited_files(answer: Answer) -> set[str]:
    return {c.document for c in answer.citations}


@pytest.mark.parametrize(("deal", "question", "holders", "ledger"), [
    (US, "Who owns the company?", ["Jane Doe", "Sequoia Ridge Partners LP", "52.0%",
                                   "Series A Preferred"], "1.4 Stock ledger.csv"),
    (UK, "Who are the shareholders?", ["Alasdair Grant", "Highland Ventures LLP", "60%",
                                       "A Ordinary"], "1.2 Register of members.md"),
    (DE, "What is the cap table?", ["Familie Müller Holding GmbH", "Klaus Berger", "60 %"],
     "Gesellschafterliste.md"),
])
def test_ownership_comes_from_the_cap_table_with_classes_and_stakes(
        ask: Ask, deal: str, question: str, holders: list[str], ledger: str) -> None:
    answer = ask(deal, question)
    for item in holders:
        assert item in answer.answer, answer.answer
    assert "add up to 100%" in answer.answer
    assert ledger in cited_files(answer)


def test_management_lists_people_and_says_the_cfo_is_missing(ask: Ask) -> None:
    answer = ask(US, "Give me a summary of the management team")
    text = answer.answer
    for person in ("Jane Doe", "Kim Lee", "Raj Patel"):
        assert person in text
    assert "Maria Gomez" not in text  # a census employee is not management
    assert "no CFO is named" in text
    assert "ten years at Oracle" in text  # background, from the bios
    assert any(a.type == "add_to_qa" for a in answer.suggested_actions)
    assert "revenue" not in text.lower()  # people, not key financial figures


def test_who_runs_the_company_leads_with_its_chief_executive_then_the_team(ask: Ask) -> None:
    text = ask(US, "Who runs the company?").answer
    assert text.splitlines()[0].startswith("Jane Doe is the Chief Executive Officer"), text
    for person in ("Kim Lee", "Raj Patel"):
        assert person in text


def test_a_team_with_a_finance_director_has_no_missing_cfo(ask: Ask) -> None:
    answer = ask(UK, "Who is on the leadership team?")
    assert "Fiona Reid" in answer.answer and "Finance Director" in answer.answer
    assert "no CFO" not in answer.answer


@pytest.mark.parametrize(("deal", "question", "holder", "not_holder"), [
    (US, "Who is the VP of Sales?", "Raj Patel", "Jane Doe"),
    (US, "Who is the COO?", "Kim Lee", "Jane Doe"),
    (UK, "Who is the CFO?", "Fiona Reid", "Alasdair Grant"),
    (DE, "Who is the managing director?", "Klaus Berger", "Sabine Koch"),
])
def test_a_named_role_is_answered_with_its_holder_only(
        ask: Ask, deal: str, question: str, holder: str, not_holder: str) -> None:
    answer = ask(deal, question)
    assert answer.answer.startswith(holder), answer.answer
    assert not_holder not in answer.answer


def test_a_role_nobody_holds_is_not_answered_with_the_ceo(ask: Ask) -> None:
    answer = ask(US, "Who is the CFO?")
    assert "The documents name no CFO" in answer.answer
    assert not re.search(r"Jane Doe is the", answer.answer)
    assert any(a.type == "add_to_qa" for a in answer.suggested_actions)


def test_a_persons_pay_comes_from_their_census_row_with_its_header(ask: Ask) -> None:
    answer = ask(US, "What is Raj Patel's salary?")
    assert "Raj Patel" in answer.answer and "Base Salary (USD): 185,000" in answer.answer
    assert "2.3 Employee census Sept 2024.csv" in cited_files(answer)
    assert "310,000" not in answer.answer  # not the CEO's row


def test_a_price_stated_only_in_an_email_is_found(ask: Ask) -> None:
    answer = ask(US, "What price did the buyer offer?")
    assert "$48 million" in answer.answer
    assert cited_files(answer) == {"RE_ Indicative offer.txt"}


@pytest.mark.parametrize(("deal", "parts"), [
    (US, ["Acme Supply LLC", "$2.4 million", "Superior Court of California", "discovery"]),
    (DE, ["Stahlhandel Nord GmbH", "EUR 850,000", "Landgericht Stuttgart", "pending"]),
])
def test_litigation_names_claimant_amount_court_and_status(
        ask: Ask, deal: str, parts: list[str]) -> None:
    answer = ask(deal, "Is there any pending litigation?")
    for part in parts:
        assert part in answer.answer, answer.answer


def test_red_flags_catch_a_key_person_dependency(ask: Ask) -> None:
    answer = ask(US, "What are the red flags?")
    assert answer.intent is Intent.DUE_DILIGENCE
    assert "Key-person dependency" in answer.answer and "founder Jane Doe" in answer.answer
    assert "Acme Supply LLC" in answer.answer


def test_tell_me_about_the_company_is_an_overview_with_drill_downs(ask: Ask) -> None:
    answer = ask(US, "Tell me about the company")
    assert answer.intent is Intent.EXPLORATION
    assert "supply-chain analytics software" in answer.answer
    assert "$46.7 million" in answer.answer
    assert "**Where to drill down**" in answer.answer


def test_the_pnl_has_periods_as_columns_and_computed_margins(ask: Ask) -> None:
    answer = ask(US, "Walk me through the P&L")
    text = answer.answer
    assert re.search(r"\| Line \| FY2022 \| FY2023 \|", text), text
    row = next(line for line in text.splitlines() if line.startswith("| EBITDA |"))
    assert "$6.1 million" in row and "$8.6 million" in row
    assert "| EBITDA margin (computed) | 16.0% | 18.4% |" in text  # 8.6 / 46.7
    assert text.index("| Revenue |") < text.index("| Gross profit |") < text.index("| EBITDA |")


def test_budget_against_actual_comes_from_two_documents(ask: Ask) -> None:
    answer = ask(UK, "Compare the budget to the actual")
    text = answer.answer
    assert answer.intent is Intent.COMPARISON
    assert "£15.0m" in text and "£14.2m" in text and "-5.3%" in text
    assert {"4.3 Budget FY2024.md", "4.1 Board pack March 2024.md"} <= cited_files(answer)


def test_an_out_of_room_risk_question_is_not_a_red_flags_report(ask: Ask) -> None:
    answer = ask(US, "Is the company adequately insured against cyber risks?")
    text = answer.answer
    assert text.startswith("I searched") and "found nothing that answers this" in text
    assert "**Unusual items**" not in text and "Acme Supply" not in text
    assert "**Red flags, most serious first**" not in text
    assert len(text.splitlines()) <= 4
    assert [a.question for a in answer.suggested_actions if a.type == "add_to_qa"] == [
        "Is the company adequately insured against cyber risks?"]


# ---------------------------------------------------------------- issue 10: more topic shapes


def test_a_us_balance_sheet_keeps_its_thousands_caption_and_columns(ask: Ask) -> None:
    answer = ask(US, "What does the balance sheet look like?")
    assert "in thousands of U.S. dollars" in answer.answer
    assert "December 31, 2023" in answer.answer and "12,400" in answer.answer
    assert "Long-term debt, net of current portion" in answer.answer
    assert "5.3 Consolidated balance sheets.md" in cited_files(answer)


def test_debt_facilities_name_the_lender_and_maturity(ask: Ask) -> None:
    answer = ask(US, "What debt facilities are in place?")
    assert "First Harbor Bank" in answer.answer and "June 30, 2027" in answer.answer


def test_covenants_give_level_latest_result_and_computed_headroom(ask: Ask) -> None:
    text = ask(US, "What are the financial covenants?").answer
    assert re.search(r"not more than 3\.50x", text) and "1.4x" in text
    assert "2.10x" in text  # 3.50x - 1.40x, computed
    assert "at least 1.25x" in text  # a minimum covenant read as a minimum, no result stated


def test_largest_customers_come_from_a_revenue_by_customer_table(ask: Ask) -> None:
    text = ask(US, "Who are the largest customers?").answer
    assert "Northgate Retail" in text and "20%" in text
    assert "Acme Supply" not in text


def test_a_key_person_question_quotes_the_dependency_and_offers_qa(ask: Ask) -> None:
    answer = ask(US, "Is the business dependent on the founder?")
    assert "Jane Doe" in answer.answer and "dependent" in answer.answer
    assert any(a.type == "add_to_qa" for a in answer.suggested_actions)


def test_a_german_hgb_balance_sheet_in_teur_is_shown_with_its_rows(ask: Ask) -> None:
    text = ask(DE, "Walk me through the balance sheet").answer
    assert "TEUR" in text and "Verbindlichkeiten gegenüber Kreditinstituten" in text
    assert "4.800" in text and "31.12.2023" in text


def test_german_bank_debt_rows_and_the_loan_terms(ask: Ask) -> None:
    text = ask(DE, "What bank debt does the company have?").answer
    assert "Verbindlichkeiten gegenüber Kreditinstituten" in text
    assert "Kreissparkasse Esslingen" in text and "30 September 2028" in text


@pytest.mark.parametrize(("deal", "question", "row"), [
    (US, "How much is drawn under the revolving credit facility?",
     "| Revolving credit facility | $10.0 million at 2023-12-31 | $3.5 million at 2023-12-31 | "
     "$6.5M (computed) |"),
    (DE, "How much of the credit line is drawn?",
     # German wording ("EUR 0,8 Mio.") shown as amounts are formatted, like the headroom beside
     "| Credit line | €2M at 2023-12-31 | €800k at 2023-12-31 | €1.2M (computed) |"),
])
def test_a_facility_limit_is_shown_beside_what_is_drawn(
        ask: Ask, deal: str, question: str, row: str) -> None:
    text = ask(deal, question).answer
    assert row in text
    assert "Where the documents differ" not in text  # the limit is not taken for debt


def test_a_share_class_question_names_its_holder(ask: Ask) -> None:
    text = ask(UK, "Who holds the A Ordinary shares?").answer
    assert "Highland Ventures" in text and "300,000" in text


def test_last_year_is_the_latest_full_year_the_room_reports(ask: Ask) -> None:
    """A banker's "last year" is the company's last reported year, whatever the calendar says;
    a budget for a later year is not a reported year."""
    us = ask(US, "How did revenue do last year against the prior year?").answer
    assert re.search(r"FY2022.*FY2023", us.split("\n")[0] + us) and "46.7" in us and "38.2" in us
    assert "“Last year” read as FY2023" in us
    uk = ask(UK, "What was EBITDA last year?").answer
    assert uk.startswith("EBITDA was £2.6m in FY2024") and "3.0m" not in uk.split("\n")[0]


@pytest.mark.parametrize(("deal", "question", "first"), [
    (US, "How much is drawn on the revolver?",
     "$3.5 million is drawn on the revolving credit facility of $10.0 million as of 31 December "
     "2023; headroom $6.5M (computed)"),
    (DE, "Wie viel ist von der Kreditlinie in Anspruch genommen?",
     "€800k is drawn on the credit line of €2M as of 31 December 2023; headroom €1.2M "
     "(computed)"),
    (US, "What's the top line growth?", "Revenue grew 22.3% in FY2023 (computed)"),
])
def test_the_first_line_is_the_figure_asked(ask: Ask, deal: str, question: str,
                                            first: str) -> None:
    assert ask(deal, question).answer.startswith(first)
