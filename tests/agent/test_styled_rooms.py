"""Topic questions, evidence-first answers and "not found" on data rooms in US, German and UK
styles (tests/agent/styled_rooms.py), ingested by the real pipeline and answered offline."""

from __future__ import annotations

import asyncio
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from styled_rooms import DE, UK, US, write_room

from manda.answers import Answer, Intent
from manda.app import Manda
from manda.config import Settings


@pytest.fixture(scope="module")
def styled_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One home holding the three rooms, ingested once for the module."""
    root = tmp_path_factory.mktemp("styled")
    home = root / "home"

    async def ingest() -> None:
        async with Manda(Settings(MANDA_HOME=home)) as app:
            for deal in (US, DE, UK):
                await app.ingest.ingest(deal, [write_room(root / "rooms", deal)])

    asyncio.run(ingest())
    return home


@pytest.fixture
async def manda(styled_home: Path, tmp_path: Path) -> AsyncIterator[Manda]:
    home = tmp_path / "home"
    shutil.copytree(styled_home, home)
    async with Manda(Settings(MANDA_HOME=home)) as app:
        yield app


async def ask(app: Manda, deal: str, question: str) -> Answer:
    answer = await app.answers.ask(deal, question)
    assert answer.grounded, answer.answer
    return answer


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
async def test_ownership_comes_from_the_cap_table_with_classes_and_stakes(
        manda: Manda, deal: str, question: str, holders: list[str], ledger: str) -> None:
    answer = await ask(manda, deal, question)
    for item in holders:
        assert item in answer.answer, answer.answer
    assert "add up to 100%" in answer.answer
    assert ledger in cited_files(answer)


async def test_management_lists_people_and_says_the_cfo_is_missing(manda: Manda) -> None:
    answer = await ask(manda, US, "Give me a summary of the management team")
    text = answer.answer
    for person in ("Jane Doe", "Kim Lee", "Raj Patel"):
        assert person in text
    assert "Maria Gomez" not in text  # a census employee is not management
    assert "no CFO is named" in text
    assert "ten years at Oracle" in text  # background, from the bios
    assert any(a.type == "add_to_qa" for a in answer.suggested_actions)
    assert "revenue" not in text.lower()  # people, not key financial figures


async def test_a_team_with_a_finance_director_has_no_missing_cfo(manda: Manda) -> None:
    answer = await ask(manda, UK, "Who is on the leadership team?")
    assert "Fiona Reid" in answer.answer and "Finance Director" in answer.answer
    assert "no CFO" not in answer.answer


@pytest.mark.parametrize(("deal", "question", "holder", "not_holder"), [
    (US, "Who is the VP of Sales?", "Raj Patel", "Jane Doe"),
    (US, "Who is the COO?", "Kim Lee", "Jane Doe"),
    (UK, "Who is the CFO?", "Fiona Reid", "Alasdair Grant"),
    (DE, "Who is the managing director?", "Klaus Berger", "Sabine Koch"),
])
async def test_a_named_role_is_answered_with_its_holder_only(
        manda: Manda, deal: str, question: str, holder: str, not_holder: str) -> None:
    answer = await ask(manda, deal, question)
    assert answer.answer.startswith(holder), answer.answer
    assert not_holder not in answer.answer


async def test_a_role_nobody_holds_is_not_answered_with_the_ceo(manda: Manda) -> None:
    answer = await ask(manda, US, "Who is the CFO?")
    assert "no document names a CFO" in answer.answer
    assert not re.search(r"Jane Doe is the", answer.answer)
    assert any(a.type == "add_to_qa" for a in answer.suggested_actions)


async def test_a_persons_pay_comes_from_their_census_row_with_its_header(manda: Manda) -> None:
    answer = await ask(manda, US, "What is Raj Patel's salary?")
    assert "Raj Patel" in answer.answer and "Base Salary (USD): 185,000" in answer.answer
    assert "2.3 Employee census Sept 2024.csv" in cited_files(answer)
    assert "310,000" not in answer.answer  # not the CEO's row


async def test_a_price_stated_only_in_an_email_is_found(manda: Manda) -> None:
    answer = await ask(manda, US, "What price did the buyer offer?")
    assert "$48 million" in answer.answer
    assert cited_files(answer) == {"RE_ Indicative offer.txt"}


@pytest.mark.parametrize(("deal", "parts"), [
    (US, ["Acme Supply LLC", "$2.4 million", "Superior Court of California", "discovery"]),
    (DE, ["Stahlhandel Nord GmbH", "EUR 850,000", "Landgericht Stuttgart", "pending"]),
])
async def test_litigation_names_claimant_amount_court_and_status(
        manda: Manda, deal: str, parts: list[str]) -> None:
    answer = await ask(manda, deal, "Is there any pending litigation?")
    for part in parts:
        assert part in answer.answer, answer.answer


async def test_red_flags_catch_a_key_person_dependency(manda: Manda) -> None:
    answer = await ask(manda, US, "What are the red flags?")
    assert answer.intent is Intent.DUE_DILIGENCE
    assert "Key-person dependency" in answer.answer and "founder Jane Doe" in answer.answer
    assert "Acme Supply LLC" in answer.answer


async def test_tell_me_about_the_company_is_an_overview_with_drill_downs(manda: Manda) -> None:
    answer = await ask(manda, US, "Tell me about the company")
    assert answer.intent is Intent.EXPLORATION
    assert "supply-chain analytics software" in answer.answer
    assert "$46.7 million" in answer.answer
    assert "**Where to drill down**" in answer.answer


async def test_the_pnl_has_periods_as_columns_and_computed_margins(manda: Manda) -> None:
    answer = await ask(manda, US, "Walk me through the P&L")
    text = answer.answer
    assert re.search(r"\| Line \| FY2022 \| FY2023 \|", text), text
    row = next(line for line in text.splitlines() if line.startswith("| EBITDA |"))
    assert "$6.1 million" in row and "$8.6 million" in row
    assert "| EBITDA margin (computed) | 16.0% | 18.4% |" in text  # 8.6 / 46.7
    assert text.index("| Revenue |") < text.index("| Gross profit |") < text.index("| EBITDA |")


async def test_budget_against_actual_comes_from_two_documents(manda: Manda) -> None:
    answer = await ask(manda, UK, "Compare the budget to the actual")
    text = answer.answer
    assert answer.intent is Intent.COMPARISON
    assert "£15.0m" in text and "£14.2m" in text and "-5.3%" in text
    assert {"4.3 Budget FY2024.md", "4.1 Board pack March 2024.md"} <= cited_files(answer)


async def test_an_out_of_room_risk_question_is_not_a_red_flags_report(manda: Manda) -> None:
    answer = await ask(manda, US, "Is the company adequately insured against cyber risks?")
    text = answer.answer
    assert text.startswith("I searched") and "found nothing that answers this" in text
    assert "**Unusual items**" not in text and "Acme Supply" not in text
    assert len(text.splitlines()) <= 4
    assert [a.question for a in answer.suggested_actions if a.type == "add_to_qa"] == [
        "Is the company adequately insured against cyber risks?"]
