"""The pieces topic answers stand on: table rows with headers, roles in any spelling, passage
relevance and the retrieval confidence behind "not found", and values that cannot conflict."""

from __future__ import annotations

import pytest

from manda.agent.compose.people import holds_role
from manda.agent.evidence import Evidence
from manda.agent.relevance import confidence, content_terms, rank
from manda.agent.tables import read_tables, rows_naming
from manda.agent.topics import OVERVIEW, OWNERSHIP, PNL, asked_role, shape_for
from manda.finance.compare import comparable
from manda.models import Location, SearchHit
from manda.vocabulary import topic


def hit(text: str, document: str = "memo.md", chunk: str = "c1") -> SearchHit:
    return SearchHit(chunk_id=chunk, document_id=document, document=document,
                     location=Location.for_section("s"), text=text, score=1.0)


def test_rows_keep_their_headers_in_the_ingested_and_the_markdown_layout() -> None:
    ingested = ("[ledger.csv rows 2-4]\nHolder | Class | Shares | %\n"
                "Jane Doe | Class: Common | Shares: 5200000 | %: 52.0%\n"
                "Total | Shares: 10000000 | %: 100.0%")
    table = read_tables(ingested)[0]
    assert table.header == ["Holder", "Class", "Shares", "%"]
    assert table.rows[0].label == "Jane Doe"
    assert table.rows[0].cells == {"Class": "Common", "Shares": "5200000", "%": "52.0%"}
    markdown = ("Register of members\n\n| Member | Number of shares |\n|---|---|\n"
                "| Alasdair Grant | 600,000 |")
    table = read_tables(markdown)[0]
    assert table.caption == ["Register of members"]
    assert table.rows[0].render() == "Alasdair Grant — Number of shares: 600,000"
    assert [r.label for _, r in rows_naming([ingested, markdown], "jane doe")] == ["Jane Doe"]


@pytest.mark.parametrize(("stated", "asked", "holds"), [
    ("VP, Sales", "VP of Sales", True),
    ("Chief Financial Officer", "CFO", True),
    ("Finance Director", "CFO", True),  # UK
    ("Geschäftsführer", "CEO", True),  # German
    ("Chief Executive Officer", "VP of Sales", False),  # never the CEO for another role
    ("Chief Executive Officer", "CFO", False),
    ("Head of Production", "Head of Sales", False),
])
def test_roles_match_in_any_spelling_and_never_across(stated: str, asked: str,
                                                      holds: bool) -> None:
    assert holds_role(stated, asked) is holds


def test_topic_questions_are_recognised_in_other_phrasings() -> None:
    assert shape_for("Who are the stockholders?") is OWNERSHIP
    assert shape_for("Who owns Thistle Software Ltd?") is OWNERSHIP
    # the owner of an asset, not of the company: the IP topic, not ownership
    assert shape_for("Who owns the IP?") is topic("ip_and_open_source")
    assert shape_for("What is the ownership of the source code?") is topic("ip_and_open_source")
    assert shape_for("Show me the register of members") is OWNERSHIP
    assert shape_for("Walk me through the statement of operations") is PNL
    assert shape_for("What does the business do?") is OVERVIEW
    assert asked_role("Who is the General Counsel?") == "General Counsel"
    assert asked_role("What did the CFO present?") is None


def test_confidence_comes_from_meaning_words_not_the_question_form() -> None:
    evidence = Evidence(hits=[
        hit("Bluepeak confirms its indicative offer of $48 million for 100% of the shares."),
        hit("Revenue grew 12% in FY2023 on new subscription customers.", chunk="c2"),
    ])
    assert content_terms("What price did the buyer offer?") == ["price", "buyer", "offer"]
    ranked = rank(evidence, "What price did the buyer offer?")
    assert ranked[0].text.startswith("Bluepeak confirms")
    assert confidence(ranked) >= 0.45
    assert confidence(rank(evidence, "Does the company have D&O insurance?")) == 0.0


def test_values_two_orders_of_magnitude_apart_or_in_other_units_do_not_conflict() -> None:
    assert comparable(5_200_000, 5_000_000, "EUR", "EUR")
    assert not comparable(860, 200_000, "USD", "USD")  # a "$000" table read as dollars
    assert not comparable(5_200_000, 5_200_000, "EUR", "USD")
    assert comparable(-100_000, 2_000_000)  # a loss against a profit is a disagreement
