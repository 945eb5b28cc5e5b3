"""IRL coverage: any column layout is read, and a request is covered by a document that provides
it (by its role or what it states), never by one that only mentions or promises it."""

from __future__ import annotations

from pathlib import Path

import pytest

from manda.agent.evidence import Evidence, Source
from manda.agent.gaps import ItemCoverage, assess_coverage, irl_items
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


async def test_a_french_request_list_is_read_with_its_own_status_column(tmp_path: Path) -> None:
    """Issue 24: a French room's documents cover its requests (roles and topics in French), and
    the list's own Statut column decides: "En attente" is a gap whatever the room holds."""
    room = tmp_path / "salle"
    room.mkdir()
    (room / "Liste.csv").write_text(
        "Réf;Catégorie;Demande;Priorité;Statut\n"
        "F-01;Finance;Comptes annuels certifiés des deux derniers exercices;Haute;Reçu\n"
        "F-02;Finance;Reporting mensuel de l'exercice en cours;Haute;En attente\n"
        "J-01;Juridique;Table de capitalisation à jour;Haute;Reçu\n"
        "J-02;Juridique;Liste des litiges en cours;Moyenne;Reçu\n"
        "J-03;Juridique;Polices d'assurance et sinistralité;Moyenne;Reçu\n",
        encoding="utf-8")
    (room / "Doc_1.md").write_text(
        "# Comptes annuels de l'exercice clos le 30 septembre 2024\n\n"
        "## Rapport du commissaire aux comptes sur les comptes annuels\n\n"
        "Nous certifions que les comptes annuels sont réguliers et sincères et donnent une image "
        "fidèle du résultat des opérations de l'exercice écoulé.\n\n## Bilan\n\n"
        "Le total du bilan s'élève à 12 400 K€.\n", encoding="utf-8")
    (room / "Doc_2.csv").write_text(
        "Actionnaire;Catégorie;Nombre d'actions;% du capital\n"
        "Holding Fondateurs SAS;Actions ordinaires;600 000;60,0 %\n"
        "Fonds Croissance;Actions de préférence;400 000;40,0 %\n", encoding="utf-8")
    (room / "Doc_3.md").write_text(
        "# Reporting mensuel — octobre 2024\n\nNon audité.\n\n"
        "Le chiffre d'affaires d'octobre 2024 s'élève à 1 210 K€.\n", encoding="utf-8")
    (room / "Doc_4.md").write_text(
        "# Mémo juridique — due diligence juridique\n\n## Litiges\n\n"
        "Un ancien distributeur a assigné la Société devant le tribunal de commerce de Lyon et "
        "réclame 2,3 M€ de dommages et intérêts. La procédure est en cours.\n",
        encoding="utf-8")
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("faucon", [room])
        coverage = await assess_coverage(app.graph, "faucon", Evidence())
    assert coverage.origin == "irl" and coverage.irl_document == "Liste.csv"
    by_ref = {e.item.ref: e for e in coverage.items}
    docs = {ref: [s.document for s in e.covered_by] for ref, e in by_ref.items()}
    assert docs["F-01"] == ["Doc_1.md"] and by_ref["F-01"].covered
    assert docs["J-01"] == ["Doc_2.csv"] and by_ref["J-01"].covered
    assert docs["J-02"] == ["Doc_4.md"] and by_ref["J-02"].covered
    # the reporting is in the room, but the list says it is still awaited
    assert docs["F-02"] == ["Doc_3.md"] and by_ref["F-02"].outstanding
    assert not by_ref["F-02"].covered
    # marked received, and nothing provides it
    assert not by_ref["J-03"].covered and by_ref["J-03"].status_mismatch
    assert coverage.covered == 3


def test_an_outstanding_request_is_a_gap_even_where_the_room_seems_to_answer_it() -> None:
    rows = [["Ref", "Request", "Status"], ["1.1", "Audited accounts FY2023", "Outstanding"],
            ["1.2", "Cap table", "Provided"], ["1.3", "Board minutes", "Offen"]]
    text = "[request_list.xlsx Sheet1!A1:C4]\n" + table_text(rows)
    hit = SearchHit(chunk_id="c1", document_id="d1", document="request_list.xlsx",
                    location=Location.for_cell("Sheet1", "A1:C4"), text=text, score=0.0)
    found = Source("AR_2023.pdf", "d2", "p.1", 1, "Independent auditor's report", "c2")
    audited, cap, minutes = (ItemCoverage(item, [found]) for item in irl_items([hit]))
    assert audited.outstanding and not audited.covered
    assert cap.covered and not cap.outstanding
    assert minutes.outstanding and not minutes.covered


async def test_a_request_names_the_document_to_open_first(tmp_path: Path) -> None:
    """Of the documents that cover a request, the final version of its own role comes first,
    whatever their file names: the line names what a reviewer should open."""
    room = tmp_path / "room"
    room.mkdir()
    (room / "Request_list.csv").write_text(
        "Ref,Request,Status\nF-01,Audited financial statements FY2023,Provided\n")
    accounts = ("# {title}\n\n## Independent auditor's report\n\nIn our opinion the financial "
                "statements give a true and fair view of the state of the company's affairs as "
                "at 31 December 2023.\n\n## Balance sheet\n\nTotal assets were EUR 12.4 million."
                "\n")
    (room / "A_Accounts_2023.md").write_text(
        accounts.format(title="DRAFT — Annual financial statements 2023 — for discussion only"))
    (room / "B_Accounts_2023.md").write_text(
        accounts.format(title="Annual financial statements 2023 (audited)"))
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as app:
        await app.ingest.ingest("kestrel", [room])
        documents = {d.filename: d for d in await app.graph.list_documents("kestrel")}
        coverage = await assess_coverage(app.graph, "kestrel", Evidence())
    assert documents["A_Accounts_2023.md"].draft and not documents["B_Accounts_2023.md"].draft
    [entry] = coverage.items
    assert [s.document for s in entry.covered_by] == ["B_Accounts_2023.md", "A_Accounts_2023.md"]
