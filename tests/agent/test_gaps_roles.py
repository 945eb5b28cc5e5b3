"""IRL coverage: any column layout is read, and a request is covered by a document that provides
it (by its role or what it states), never by one that only mentions or promises it."""

from __future__ import annotations

from pathlib import Path

import pytest

from manda.agent.evidence import Evidence
from manda.agent.gaps import assess_coverage, irl_items
from manda.app import Manda
from manda.config import Settings
from manda.ingest.parsers.base import table_text
from manda.models import Location, SearchHit


async def test_a_category_item_priority_irl_covered_by_roles_not_mentions(tmp_path: Path) -> None:
    room = tmp_path / "room"
    room.mkdir()
    (room / "DD_list.csv").write_text(
        "Category,Item,Priority\n"
        "Financial,Cash flow statement,High\n"
        "Tax,Corporate tax returns 2021-2023,High\n"
        "Legal,Shareholder register and cap table,High\n"
        "HR,Employee census with salaries,Medium\n"
        "Legal,Lease schedule for all sites,Low\n"
    )
    (room / "Doc_01.md").write_text(
        "# Status of the data room\n\nThe tax returns for 2021-2023 will be uploaded next week. "
        "The cash flow statement has not yet been provided.\n"
    )
    (room / "Doc_02.csv").write_text(  # a register of members, never called a cap table
        "Holder,Share class,Shares,% of total\nAlan Reed,Ordinary,600000,60%\n"
        "Kite Ventures LP,Preferred,400000,40%\n"
    )
    (room / "Doc_03.csv").write_text(
        "Employee ID,Name,Job title,Department,Start date,Base salary (GBP),FTE\n"
        "1,Maria Lopez,Controller,Finance,2019-03-01,58000,1.0\n"
        "2,James Carter,Sales Manager,Sales,2020-07-15,61000,1.0\n"
        "3,Priya Shah,Engineer,R&D,2021-01-04,65000,1.0\n"
        "4,Tom Reed,Analyst,Finance,2022-09-12,41000,0.8\n"
        "5,Ana Silva,Engineer,R&D,2023-02-01,63000,1.0\n"
    )
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("kite", [room])
        coverage = await assess_coverage(app.graph, "kite", Evidence())
    assert coverage.origin == "irl"
    by_item = {e.item.item: e for e in coverage.items}
    assert set(by_item) == {"Cash flow statement", "Corporate tax returns 2021-2023",
                            "Shareholder register and cap table", "Employee census with salaries",
                            "Lease schedule for all sites"}
    assert {e.item.category for e in coverage.items} == {"Financial", "Tax", "Legal", "HR"}
    assert all(e.item.ref is None and e.item.priority for e in coverage.items)
    covered = {name: [s.document for s in e.covered_by] for name, e in by_item.items()}
    assert covered == {
        "Cash flow statement": [],  # "has not yet been provided"
        "Corporate tax returns 2021-2023": [],  # "will be uploaded"
        "Shareholder register and cap table": ["Doc_02.csv"],  # its role: a cap table
        "Employee census with salaries": ["Doc_03.csv"],
        "Lease schedule for all sites": [],
    }


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([["Ref", "Request", "Status"], ["1.1", "Audited accounts FY2023", "Open"]],
         ("1.1", "General", "Audited accounts FY2023", None, "Open")),
        ([["Category", "Item", "Priority"], ["Financial", "Cash flow statement", "High"]],
         (None, "Financial", "Cash flow statement", "High", None)),
        ([["Item No.", "Workstream", "Document requested", "Prio"],
          ["A-7", "Commercial", "Top 20 customers by revenue", "1"]],
         ("A-7", "Commercial", "Top 20 customers by revenue", "1", None)),
        ([["Information requested", "Provided?"], ["Org chart", "No"]],
         (None, "General", "Org chart", None, "No")),
    ],
)
def test_irl_rows_of_any_column_layout(rows: list[list[str]],
                                       expected: tuple[str | None, ...]) -> None:
    text = "[request_list.xlsx Sheet1!A1:D2]\n" + table_text(rows)
    hit = SearchHit(chunk_id="c1", document_id="d1", document="request_list.xlsx",
                    location=Location.for_cell("Sheet1", "A1:D2"), text=text, score=0.0)
    [item] = irl_items([hit])
    assert (item.ref, item.category, item.item, item.priority, item.status) == expected
