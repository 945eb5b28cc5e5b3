"""Every line item a question names is a subject of its frame (issue 25): a balance-sheet line
that no finding holds ("total assets", "inventories", "goodwill", "shareholders' equity") is
answered from its statement row, a change between two year ends from both columns of that row at
their dates, and the ranking reads a row label one way. None of it knows a company or a filing:
the documents below are written for the tests."""

from __future__ import annotations

from datetime import date

import pytest

from manda.agent.compose import comparison
from manda.agent.compose.common import Ask
from manda.agent.compose.evidence_first import answer as evidence_answer
from manda.agent.compose.ranking import _names_line_item, _of_asked
from manda.agent.evidence import Evidence
from manda.agent.frame import read_question
from manda.agent.spans import rank_spans
from manda.answers import Intent
from manda.finance.label_heads import adds_another_thing
from manda.finance.vocabulary import asked_items, names_alone
from manda.models import Document, DocumentStatus, Location, SearchHit

DOC = Document(id="k1", deal_id="d", filename="Brightwell_10-K.pdf", content_hash="h",
               file_type="pdf", size_bytes=1, version_family="f",
               status=DocumentStatus.COMPLETED, doc_date=date(2025, 12, 31),
               fiscal_year_end="--12-31")

# a balance sheet that prints the prior year end first
BALANCE = "\n".join([
    "BRIGHTWELL CORP. CONSOLIDATED BALANCE SHEETS",
    "(in millions)",
    "December 31, | 2024 | 2025",
    "Inventories | 2024: 2,710 | 2025: 3,120",
    "Total current assets | 2024: 6,480 | 2025: 7,055",
    "Goodwill | 2024: 1,204 | 2025: 1,388",
    "Total assets | 2024: 15,902 | 2025: 17,436",
    "Total liabilities | 2024: 9,118 | 2025: 9,760",
    "Total shareholders' investment | 2024: 6,784 | 2025: 7,676",
    "Total liabilities and shareholders' investment | 2024: 15,902 | 2025: 17,436",
])

# the same line in the cash-flow statement: its change over the year, never its balance
CASH_FLOW = "\n".join([
    "BRIGHTWELL CORP. CONSOLIDATED STATEMENTS OF CASH FLOWS",
    "(in millions)",
    "Year Ended December 31, | 2024 | 2025",
    "Changes in operating assets and liabilities:",
    "Inventories | 2024: (220) | 2025: (410)",
])


def _evidence(*pages: tuple[str, tuple[str, ...]]) -> Evidence:
    hits = [SearchHit(chunk_id=f"c{i}", document_id=DOC.id, document=DOC.filename, text=text,
                      location=Location.for_page(50 + i), score=1.0, statements=statements)
            for i, (text, statements) in enumerate(pages)]
    return Evidence(documents={DOC.id: DOC}, hits=hits)


def _ask(question: str) -> Ask:
    return Ask.of(read_question(question))


@pytest.mark.parametrize(("question", "subjects"), [
    ("How did Brightwell's total assets at the end of 2025 compare with the end of 2024?",
     ("total assets",)),
    ("How much goodwill did Brightwell carry at December 31, 2025?", ("goodwill",)),
    ("How did inventories change between the end of 2024 and the end of 2025?", ("inventory",)),
    ("What was total shareholders' equity at the end of 2025?", ("equity",)),
    ("What equity stake does Brightwell hold in the venture?", ()),
    ("How much stock did they issue to the founders?", ()),
])
def test_a_statement_line_named_by_itself_is_a_subject(question: str,
                                                       subjects: tuple[str, ...]) -> None:
    assert read_question(question).subjects == subjects


def test_a_wording_names_its_line_item_alone_in_two_words_or_as_its_label() -> None:
    assert names_alone("inventories", "inventory") and names_alone("Goodwill", "goodwill")
    assert names_alone("total equity", "equity")
    assert not names_alone("equity", "equity") and not names_alone("stock", "inventory")
    assert [s for s, _, _ in asked_items("What were total liabilities and net sales?")] == [
        "total liabilities", "revenue"]


def test_a_statement_lines_name_cues_no_intent_of_its_own() -> None:
    frame = read_question("What were Brightwell's total liabilities at December 31, 2025?")
    assert frame.intent is Intent.FACT_LOOKUP and frame.subjects == ("total liabilities",)
    assert read_question("What liabilities should we worry about?").intent is \
        Intent.DUE_DILIGENCE


def test_a_change_between_two_year_ends_reads_both_columns_of_the_one_row_with_the_change(
) -> None:
    ask = _ask("How did Brightwell's total assets at the end of 2025 compare with the end of "
               "2024?")
    assert ask.frame.intent is Intent.COMPARISON
    text = comparison.compose(ask, _evidence((BALANCE, ("balance sheet",)))).text
    first = text.splitlines()[0]
    assert first.startswith("Total assets was 17.4 billion at 31 December 2025")
    assert "against 15.9 billion at 31 December 2024 (+1.53 billion, +9.6%)" in first
    assert "found nothing" not in text


def test_a_balance_asked_is_its_balance_sheet_row_not_its_cash_flow_change() -> None:
    ask = _ask("How did Brightwell's inventories change between the end of 2024 and the end "
               "of 2025?")
    evidence = _evidence((CASH_FLOW, ("cash flow statement",)),
                         (BALANCE, ("balance sheet",)))
    top = rank_spans(ask.frame, evidence)[0]
    assert top.row is not None and "3,120" in top.text


def test_the_line_items_own_total_leads_over_a_total_that_joins_it_to_another() -> None:
    assert adds_another_thing("Total liabilities and shareholders' investment")
    assert not adds_another_thing("Total shareholders' investment")
    assert not adds_another_thing("Bank loans and overdrafts")  # one line item, two wordings
    ask = _ask("What was Brightwell's total shareholders' equity at the end of 2025?")
    first = evidence_answer(ask, _evidence((BALANCE, ("balance sheet",)))).text.splitlines()[0]
    assert first.startswith("Total shareholders' investment was 7.68 billion")


def test_a_goodwill_question_is_answered_by_goodwill_not_by_another_asset() -> None:
    ask = _ask("How much goodwill did Brightwell carry at December 31, 2025?")
    top = rank_spans(ask.frame, _evidence((BALANCE, ("balance sheet",))))[0]
    assert top.row is not None and top.row.label == "Goodwill"


def test_ranking_reads_a_blocks_line_item_as_the_label_is_read() -> None:
    revenue = _ask("Which segment grew its net sales fastest in 2025?")
    assets = _ask("Which segment had the largest total assets at the end of 2025?")
    assert not _of_asked("Total assets", revenue)  # a statement line is no block of sales
    assert _of_asked("Total assets", assets) and _of_asked("Net sales", revenue)
    assert _names_line_item("Total cost of revenue") and _names_line_item("Gross profit")
    assert not _names_line_item("Automotive sales")  # a part of net sales, not a head


def test_a_comparison_with_one_year_unstated_quotes_the_change_the_other_states() -> None:
    """"How much cash did it hold at the end of 2025, against the end of 2024?" where the room
    states 2025's cash with its change from 2024 but no 2024 figure: the sentence stating the
    change leads, quoted, above the table's blank."""
    from manda.models import Confidence, Finding, FindingKind

    said = ("We ended 2025 with $4.12 billion in cash and cash equivalents, representing an "
            "increase of $0.85 billion from the end of 2024.")
    cash = Finding(id="f1", deal_id="d", document_id=DOC.id, kind=FindingKind.METRIC,
                   subject="cash", label="Cash", period="as of 2025-12-31", value=4.12e9,
                   unit="USD", value_text="$4.12 billion", excerpt=said,
                   location=Location.for_page(2), confidence=0.9,
                   confidence_level=Confidence.HIGH)
    evidence = Evidence(documents={DOC.id: DOC}, findings={cash.id: cash})
    ask = _ask("How much cash did Brightwell hold at the end of 2025, against the end of 2024?")
    text = comparison.compose(ask, evidence).text
    assert text.splitlines()[0].startswith(f"Brightwell_10-K.pdf states: “{said}”"), text


@pytest.mark.parametrize("question", [
    "By how much can the shares reserved under Brightwell's employee stock purchase plan grow "
    "each year?",
    "How many shares did the ESPP issue in 2025?",
    "What did the employee stock options granted in 2025 cost?",
    "Combien d'actions le plan d'épargne entreprise de Brightwell a-t-il émis ?",
    "¿Cuántas acciones emitió el plan de compra de acciones para empleados de Brightwell?",
    "Wie viele Aktien gab das Mitarbeiteraktienprogramm von Brightwell aus?",
])
def test_a_plans_name_names_no_line_item(question: str) -> None:
    """The words of a plan's name ("employee", "stock" of "employee stock purchase plan") ask
    no headcount and no inventory, and send the search to no employee census."""
    frame = read_question(question)
    assert frame.subjects == ()
    assert frame.named_as == ()
    assert all(role.value != "employee_census" for role in frame.roles)


def test_employees_asked_beside_a_plan_stay_a_headcount() -> None:
    frame = read_question("How many employees joined the employee stock purchase plan in 2025?")
    assert frame.subjects == ("headcount",)
    assert frame.named_as == (("headcount", "employees"),)
