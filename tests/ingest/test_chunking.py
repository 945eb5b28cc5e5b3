"""Chunks stay inside one section (so their location is exact), fit the budget and are stable."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from manda.ingest.chunking import chunk_document, split_text
from manda.ingest.parsers import parse_file
from manda.ingest.parsers.base import table_text
from manda.models import Chunk, Location, LocationKind, ParsedDocument, Section


def sentences(n: int, topic: str = "revenue") -> str:
    return " ".join(f"Sentence {i} says {topic} was EUR {i}.{i}m in the quarter." for i in range(n))


def body(chunk: Chunk) -> str:
    """The chunk text without its context line."""
    return chunk.text.split("\n", 1)[1]


def doc(*sections: Section, filename: str = "TargetCo_Q3_2024_Report.pdf") -> ParsedDocument:
    return ParsedDocument(filename=filename, file_type="pdf", sections=list(sections),
                          units=len(sections), title="TargetCo Q3 2024 Report")


def test_short_section_is_one_chunk_with_a_context_line() -> None:
    parsed = doc(Section(text="Revenue was EUR 5.2m.", location=Location.for_page(2)))

    [chunk] = chunk_document(parsed, deal_id="falcon", document_id="d_1")

    assert chunk.text == "[TargetCo_Q3_2024_Report.pdf p.2]\nRevenue was EUR 5.2m."
    assert chunk.location == Location.for_page(2)
    assert (chunk.id, chunk.ordinal, chunk.section) == (Chunk.make_id("d_1", 0), 0, 0)
    assert (chunk.deal_id, chunk.document_id) == ("falcon", "d_1")


def test_empty_sections_yield_nothing_and_indexes_stay_true() -> None:
    parsed = doc(
        Section(text="  \n\t", location=Location.for_page(1)),
        Section(text="", location=Location.for_page(2)),
        Section(text="Cash was EUR 2.1m.", location=Location.for_page(3)),
    )

    chunks = chunk_document(parsed, deal_id="falcon", document_id="d_1")

    assert [(c.ordinal, c.section, c.location.label) for c in chunks] == [(0, 2, "p.3")]


def test_long_sections_split_at_sentences_within_budget_with_overlap() -> None:
    text = sentences(80)
    parsed = doc(Section(text=text, location=Location.for_page(4)),
                 Section(text=sentences(3, "cash"), location=Location.for_page(5)))

    chunks = chunk_document(parsed, deal_id="falcon", document_id="d_1", max_chars=600,
                            overlap=120)

    page4 = [c for c in chunks if c.section == 0]
    assert len(page4) > 4
    assert all(len(c.text) <= 600 for c in chunks)
    assert all(c.location == Location.for_page(4) for c in page4)
    assert all(c.text.startswith("[TargetCo_Q3_2024_Report.pdf p.4]\n") for c in page4)
    # every sentence survives, cut only at sentence boundaries
    for i in range(80):
        assert any(f"Sentence {i} says revenue was EUR {i}.{i}m in the quarter." in body(c)
                   for c in page4)
    for c in page4:
        assert re.fullmatch(r"(Sentence \d+ says revenue was EUR [\d.]+m in the quarter\. ?)+",
                            body(c))
    # neighbours share their boundary sentence
    for before, after in itertools.pairwise(page4):
        last_sentence = body(before).rsplit("Sentence ", 1)[1]
        assert body(after).startswith("Sentence ")
        assert f"Sentence {last_sentence}" in body(after)
    # a chunk never mixes sections
    assert [c.section for c in chunks] == [0] * len(page4) + [1]
    assert "cash" not in " ".join(body(c) for c in page4)
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))


def test_paragraphs_are_preferred_boundaries() -> None:
    paragraphs = [sentences(4, f"topic{i}") for i in range(6)]
    parsed = doc(Section(text="\n\n".join(paragraphs), location=Location.for_section("Risks")))

    chunks = chunk_document(parsed, deal_id="d", document_id="x", max_chars=700, overlap=0)

    joined = [body(c).split("\n\n") for c in chunks]
    assert [p for parts in joined for p in parts] == paragraphs


def test_unbreakable_text_is_cut_hard_but_within_budget() -> None:
    blob = "x" * 3000
    pieces = split_text(blob, 500, 50)

    assert [len(p) for p in pieces] == [500] * 6
    assert "".join(pieces) == blob


def test_tables_split_by_rows_with_context_repeated_and_exact_cell_ranges() -> None:
    header = ["Name", "Role", "Joined"]
    rows = [[f"Employee {i:02d} with a long descriptive name", "Engineer", "2020-01-01"]
            for i in range(1, 26)]
    table = [header, *rows]
    # the note sits in row 1, the header in row 2, Employee NN in row NN + 2
    refs = [[f"Headcount!{col}{r}" for col in "ABC"] for r in range(2, 28)]
    section = Section(
        text=table_text(table, ["EUR thousands"]),
        location=Location.for_cell("Headcount", "A1:C27"),
        table=table,
        cell_refs=refs,
    )
    parsed = doc(section, filename="HR.xlsx")

    chunks = chunk_document(parsed, deal_id="d", document_id="x", max_chars=500)

    assert len(chunks) > 2
    seen: list[str] = []
    for n, c in enumerate(chunks):
        assert len(c.text) <= 500
        lines = body(c).split("\n")
        assert lines[:2] == ["EUR thousands", "Name | Role | Joined"]
        seen.extend(lines[2:])
        first = 1 if n == 0 else int(lines[2].split()[1]) + 2  # the first starts at the note
        last = int(lines[-1].split()[1]) + 2
        assert c.location == Location.for_cell("Headcount", f"A{first}:C{last}")
        assert c.text.split("\n")[0].startswith(f"[HR.xlsx Headcount!A{first}:C{last}]")
    assert seen == section.text.split("\n")[2:]  # every row exactly once, in order


def test_csv_tables_keep_the_section_location(tmp_path: Path) -> None:
    path = tmp_path / "customers.csv"
    path.write_text("Customer,Segment,Revenue\n" + "".join(
        f"Customer number {i},Enterprise software and services,{1000 + i}\n" for i in range(25)))
    parsed = parse_file(path)

    chunks = chunk_document(parsed, deal_id="d", document_id="x", max_chars=400)

    assert len(chunks) > 1
    assert all(c.location.label == "rows 2-26" for c in chunks)
    assert all(c.location.kind == LocationKind.ROW for c in chunks)
    assert all(body(c).startswith("Customer | Segment | Revenue\n") for c in chunks)


def test_prefix_is_configurable_and_short() -> None:
    section = Section(text="Revenue was EUR 5.2m.", location=Location.for_page(2))
    long_name = "Project_Falcon_" + "Very_Long_Descriptive_Name_" * 5 + "Q3_2024.pdf"

    [plain] = chunk_document(doc(section), deal_id="d", document_id="x", prefix=None)
    [titled] = chunk_document(doc(section), deal_id="d", document_id="x",
                              prefix="{title} | {location}")
    [shortened] = chunk_document(doc(section, filename=long_name), deal_id="d", document_id="x")

    assert plain.text == "Revenue was EUR 5.2m."
    assert titled.text == "TargetCo Q3 2024 Report | p.2\nRevenue was EUR 5.2m."
    head = shortened.text.split("\n")[0].partition("] ")[0] + "]"  # the context follows it
    assert len(head) <= 60 + len(" p.2") + 2
    assert head.startswith("[Project_Falcon_") and head.endswith("Q3_2024.pdf p.2]")


def test_chunking_is_deterministic(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("# Overview\n" + sentences(40) + "\n\n## Customers\n" + sentences(30, "churn"))
    parsed = parse_file(path)

    first = chunk_document(parsed, deal_id="d", document_id="doc1")
    second = chunk_document(parse_file(path), deal_id="d", document_id="doc1")

    assert [c.model_dump() for c in first] == [c.model_dump() for c in second]
    assert {c.location.label for c in first} == {"Overview", "Customers"}
    assert len({c.id for c in first}) == len(first)


def test_overlap_must_be_smaller_than_the_chunk() -> None:
    with pytest.raises(ValueError, match="overlap"):
        chunk_document(doc(), deal_id="d", document_id="x", max_chars=100, overlap=100)


def test_the_context_line_names_role_and_statement_for_search() -> None:
    statement = "\n".join([
        "CONSOLIDATED STATEMENTS OF CASH FLOWS (In millions)",
        "Net income 72,361 | Depreciation, amortization, and other 13,861",
        "Net cash from operating activities 87,582",
        "Additions to property and equipment (28,107)",
        "Net cash used in investing activities (22,680)",
        "Common stock repurchased (22,245) | Net cash used in financing activities (43,935)",
    ])
    parsed = doc(Section(text=statement, location=Location.for_page(7)),
                 Section(text="It increased 8% on strong demand.", location=Location.for_page(8)))

    cash_flow, prose = chunk_document(parsed, deal_id="d", document_id="x",
                                      role="audited_financials")

    head = cash_flow.text.split("\n")[0]
    assert head.startswith("[TargetCo_Q3_2024_Report.pdf p.7] ")
    assert "audited financials" in head and "cash flow statement" in head
    assert "income statement" not in head and "balance sheet" not in head
    assert "cash flow statement" not in prose.text.split("\n")[0]
    assert body(prose) == "It increased 8% on strong demand."
