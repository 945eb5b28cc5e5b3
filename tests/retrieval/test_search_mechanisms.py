"""The parts of search that make real filings findable: equivalents, statements, sub-queries,
distinct locations, and the indexed context line that is never shown."""

from __future__ import annotations

import pytest

from manda.app import Manda
from manda.finance.equivalents import asked_line_items, expand_query, expansions
from manda.finance.statements import (
    StatementKind,
    implied_items,
    page_statements,
    question_statements,
    row_labels,
    states_line_item,
)
from manda.kg.embedded.fulltext import match_expression
from manda.kg.port import ScoredId
from manda.models import Chunk, Location
from manda.retrieval.compound import sub_queries
from manda.retrieval.hybrid import (
    HybridSearch,
    Routing,
    aggregate_locations,
    chunk_statements,
    distinct_locations,
    merge_sub_queries,
    shown_text,
)
from manda.retrieval.query import read_query

INCOME = """CONSOLIDATED STATEMENTS OF OPERATIONS (In millions, except per share amounts)
Total net sales 416,161 391,035 | Cost of sales 220,960 210,352 | Gross margin 195,201
Research and development 34,550 | Selling, general and administrative 27,601
Operating income 133,050 | Provision for income taxes 20,719 | Net income 112,010
Diluted earnings per share $7.46 $6.08"""
BALANCE = """CONSOLIDATED BALANCE SHEETS
Total current assets 147,957 | Accounts receivable, net 39,777 | Inventories 5,718
Total assets 359,241 | Total current liabilities 165,631 | Total liabilities 285,508
Retained earnings/(Accumulated deficit) (14,264) | Total shareholders' equity 73,733"""
VOTES = """Annual Meeting of Shareholders. Proposal No. 1: election of directors.
Votes for 1,234,567, against 12,345, abstain 1,234, broker non-votes 98,765."""


def chunk(cid: str, text: str, location: Location, section: int = 0) -> Chunk:
    return Chunk(id=cid, deal_id="d", document_id="doc", ordinal=0, text=text,
                 location=location, section=section)


def test_a_question_in_analyst_words_carries_the_filings_words() -> None:
    assert "purchases of property and equipment" in expansions("What was capex in 2025?")
    assert "net sales" in expansions("How did revenue develop?")
    assert "net earnings" in expansions("What was net income?")
    assert "selling, general and administrative" in expansions("SG&A as a share of sales")
    assert "revenue" not in expansions("Total revenue and revenues")
    assert expand_query("Who is the CEO?") == "Who is the CEO?"


def test_quoted_phrases_are_fts5_phrases_and_other_text_stays_terms() -> None:
    expression = match_expression('capex "purchases of property, plant and equipment" "sales"')
    assert expression == ('"capex" OR "purchases" OR "property" OR "plant" OR "equipment" OR '
                          '"sales" OR "purchases of property plant and equipment"')
    assert match_expression('what "unclosed') == '"unclosed"'


def test_pages_are_labelled_by_the_line_items_they_state() -> None:
    assert page_statements(INCOME) == [StatementKind.INCOME]
    assert page_statements(BALANCE) == [StatementKind.BALANCE]
    assert StatementKind.PROXY_VOTE in page_statements(VOTES)
    assert page_statements("Net income rose because iPhone sales grew.") == []


def test_a_question_names_or_implies_its_statement() -> None:
    assert question_statements("Show me the balance sheet") == ([StatementKind.BALANCE], True)
    kinds, named = question_statements("What was capex in fiscal 2025?")
    assert kinds == [StatementKind.CASH_FLOW] and not named
    assert question_statements("Who founded the company?") == ([], False)


# a French, a German and a Spanish statement page: their rows, as their languages write them
COMPTE_DE_RESULTAT = """Compte de résultat consolidé (en milliers d'euros)
Chiffre d'affaires 48 210 | Achats consommés (21 904) | Charges de personnel (12 377)
Dotations aux amortissements (2 140) | Résultat d'exploitation 6 812
Résultat net 4 105 | Résultat par action 1,23"""
BILANZ = """Konzernbilanz zum 30. September 2025 (in TEUR)
Sachanlagen 12.480 | Vorräte 8.230 | Forderungen aus Lieferungen und Leistungen 9.114
Eigenkapital 21.905 | Rückstellungen 3.120 | Bilanzsumme 44.870"""
FLUJOS = """Estado de flujos de efectivo consolidado (miles de euros)
Flujos de efectivo de las actividades de explotación 7.420
Flujos de efectivo de las actividades de inversión (3.115) | Pagos por inversiones (3.300)
Flujos de efectivo de las actividades de financiación (1.940)
Efectivo al final del periodo 5.207"""


def test_a_statement_is_known_by_its_own_languages_rows_and_names() -> None:
    """The statements' words are the vocabulary's, in every language: a French income
    statement, a German balance sheet and a Spanish cash flow statement are labelled from
    their rows, and a question naming or implying one in its language routes to it."""
    assert page_statements(COMPTE_DE_RESULTAT) == [StatementKind.INCOME]
    assert page_statements(BILANZ) == [StatementKind.BALANCE]
    assert page_statements(FLUJOS) == [StatementKind.CASH_FLOW]
    assert question_statements("Que dit le bilan sur les stocks ?") == (
        [StatementKind.BALANCE], True)
    assert question_statements("Zeig mir die Kapitalflussrechnung") == (
        [StatementKind.CASH_FLOW], True)
    assert question_statements("¿Cuál fue el resultado neto en 2024?") == (
        [StatementKind.INCOME], False)
    assert question_statements("À combien s'élèvent les créances clients ?") == (
        [StatementKind.BALANCE], False)
    # a working capital facility is a loan, not the balance sheet's working capital
    assert question_statements("How much is drawn on the working capital facility?") == (
        [], False)
    assert question_statements("What was working capital at year end?") == (
        [StatementKind.BALANCE], False)


CASH_FLOW_ROWS = """CONSOLIDATED STATEMENTS OF CASH FLOWS (In millions)
Share-based compensation expense 12,863 11,688 10,833
Inventories 1,400 (1,046) (1,618)
Payments for acquisition of property, plant and equipment (12,715) (9,447) (10,959)
Gross margin percentage 46.9 % 46.2 %"""
PROSE = """Inventory rose in 2025 by 3% as the Company stocked 2,000 new stores.
Capital expenditures were $12.7 billion, mostly on data centres."""
XBRL_ROWS = "Statement of Cash Flows [Abstract]\nInventories\n1618000000.0\n-2642000000.0"


def test_a_table_row_states_a_line_item_and_a_sentence_does_not() -> None:
    assert ["inventory"] in row_labels(CASH_FLOW_ROWS)
    assert row_labels(PROSE) == []
    for question in ("What was capex in 2025?", "How much inventory did it hold?",
                     "What was stock-based compensation?", "What was the gross margin?"):
        items = [*asked_line_items(question), *implied_items(question)]
        assert states_line_item(CASH_FLOW_ROWS, items), question
        assert not states_line_item(PROSE, items), question
    assert states_line_item(XBRL_ROWS, asked_line_items("inventory levels"))
    # a row says a few more words than the item, not a different item
    assert not states_line_item("Cash generated by operating activities 111,482", ["cash"])
    assert asked_line_items("Who founded the company?") == []
    assert asked_line_items("capex")[0] == "capex"  # the question's own words first


def test_a_passage_stating_the_asked_line_item_is_lifted() -> None:
    search = HybridSearch(graph=None, embedder=None,  # type: ignore[arg-type]
                          routing=Routing(named=0.0, implied=0.0, document=0.0, line_item=0.1))
    chunks = {"prose": chunk("prose", PROSE, Location.for_page(20)),
              "rows": chunk("rows", CASH_FLOW_ROWS, Location.for_page(35))}
    head = [ScoredId("prose", 1.0), ScoredId("rows", 0.95)]
    routed = search._route(read_query("How much did inventories change?"), head, chunks)
    assert [h.id for h in routed] == ["rows", "prose"]
    assert search._route(read_query("Who is the auditor?"), head, chunks) == head


def test_a_location_is_ranked_by_its_best_chunk_unless_siblings_are_weighed() -> None:
    page2, page3 = Location.for_page(2), Location.for_page(3)
    chunks = {"a": chunk("a", "x", page2), "b": chunk("b", "y", page2), "c": chunk("c", "z", page3)}
    ranked = [ScoredId("c", 1.0), ScoredId("a", 0.9), ScoredId("b", 0.5)]
    assert aggregate_locations(ranked, chunks, 0.3)[0].id == "a"  # 0.9 + 0.15
    assert aggregate_locations(ranked, chunks, 0.1)[0].id == "c"  # 0.95 < 1.0


def test_compound_questions_split_into_the_line_items_they_need() -> None:
    assert sub_queries("What were Apple revenue and net income in fiscal 2025?") == [
        "revenue What were Apple in fiscal 2025?", "net income What were Apple in fiscal 2025?"]
    trend = sub_queries("Is the gross margin improving over the last two years?")
    assert trend[0].startswith("gross profit ") and trend[1].startswith("revenue ")
    assert sub_queries("What was capex in 2023?") == []
    assert sub_queries("Who is the auditor?") == []


def test_every_part_of_a_compound_question_brings_its_best_hit() -> None:
    whole = [ScoredId("a", 1.2), ScoredId("b", 0.9), ScoredId("c", 0.8)]
    part = [ScoredId("z", 0.3), ScoredId("a", 0.1)]
    merged = [h.id for h in merge_sub_queries([whole, part])]
    assert merged[:2] == ["a", "z"]  # the sub-query's best outranks the whole question's tail


def test_one_location_shows_once_with_its_best_chunk() -> None:
    page2 = Location.for_page(2)
    chunks = {
        "a": chunk("a", "[f.pdf p.2]\nfirst half", page2),
        "b": chunk("b", "[f.pdf p.2]\nsecond half", page2),
        "c": chunk("c", "[f.pdf p.3]\nnext page", Location.for_page(3)),
        "t1": chunk("t1", "rows 1-20", Location.for_cell("P&L", "A1:F20"), section=4),
        "t2": chunk("t2", "rows 21-40", Location.for_cell("P&L", "A21:F40"), section=4),
    }
    chunks["s"] = chunk("s", "slide text", Location.for_slide(2))
    chunks["n"] = chunk("n", "speaker notes", Location.for_slide(2, notes=True))
    ranked = [ScoredId(i, s) for i, s in (("b", .9), ("a", .8), ("t2", .7), ("t1", .6),
                                          ("c", .5), ("s", .4), ("n", .3))]
    assert [h.id for h in distinct_locations(ranked, chunks)] == ["b", "t2", "t1", "c", "s", "n"]


def test_the_context_line_is_searched_but_never_shown() -> None:
    text = "[Apple_10-K.pdf p.33] Apple Inc. 10-K · balance sheet\nTotal assets 359,241"
    labelled = chunk("a", text, Location.for_page(33))
    assert chunk_statements(labelled) == [StatementKind.BALANCE]
    assert shown_text(labelled) == "Total assets 359,241"
    bare = chunk("b", "[note] a body that starts with a bracket\nmore", Location.for_page(1))
    assert shown_text(bare) == bare.text and chunk_statements(bare) == []


@pytest.mark.parametrize("k", [3, 5])
async def test_manda_search_returns_k_distinct_locations(app: Manda, k: int) -> None:
    for question in ("revenue EBITDA 2024", "customer contracts and churn", "headcount"):
        hits = await app.search.search("targetco", question, k=k)
        places = {(h.document, h.location.page or h.location.label) for h in hits}
        assert len(hits) == k and len(places) == k
        assert not any(h.text.startswith("[") and "]\n" in h.text[:120] for h in hits)
