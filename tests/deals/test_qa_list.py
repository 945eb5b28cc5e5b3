"""The Q&A list as a deliverable: numbered questions, marked answered, edited, removed (each in
the audit log) and exported to the spreadsheet a deal team sends the seller."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from manda.app import Manda
from manda.cli import main
from manda.exports.qa import HEADERS
from manda.hitl.qa import QuestionNotFoundError
from manda.models import QAPriority


async def test_answer_edit_remove_and_export(app: Manda, tmp_path: Path) -> None:
    deals = app.deals
    first, _ = await deals.add_question(
        "targetco",
        "Please explain the P&L bridge",
        by="U1",
        category="Financial",
        source="TargetCo_Q3_2024_Report.pdf, p.1",
    )
    second, _ = await deals.add_question("targetco", "Who holds the IP?", by="U2")
    third, _ = await deals.add_question(
        "targetco", "List change-of-control clauses", by="U1", priority=QAPriority.HIGH
    )
    assert [first.number, second.number, third.number] == [1, 2, 3]

    answered = await deals.mark_answered("targetco", "Q1", by="U2", answer="See bridge v2")
    assert answered.status == "answered" and answered.answer == "See bridge v2"
    edited = await deals.edit_question(
        "targetco",
        "2",
        by="U1",
        question="Who owns the core IP?",
        category="ip",
        priority=QAPriority.HIGH,
    )
    assert (edited.question, edited.category, edited.priority) == (
        "Who owns the core IP?",
        "IP",
        QAPriority.HIGH,
    )
    await deals.remove_question("targetco", third.id, by="U2")
    with pytest.raises(QuestionNotFoundError, match="Question 3 is not on the Q&A list"):
        await deals.remove_question("targetco", "3", by="U2")
    fourth, _ = await deals.add_question("targetco", "Any pending litigation?", by="U1")
    assert fourth.number == 4  # numbers already sent to the seller are never reused

    actions = [(e.action, e.by) for e in await deals.audit_log("targetco") if e.action[:3] == "qa."]
    assert ("qa.answered", "U2") in actions and ("qa.edited", "U1") in actions
    assert ("qa.removed", "U2") in actions

    path, count = await deals.export_questions(
        "targetco", tmp_path / "qa.xlsx", people={"U1": "Anna Berg"}
    )
    assert count == 3
    sheet = load_workbook(path).active
    rows = [list(r) for r in sheet.iter_rows(min_row=3, values_only=True)]
    assert tuple(rows[0]) == HEADERS
    assert [r[0] for r in rows[1:]] == [1, 2, 4]
    assert rows[1][1] == "Please explain the P&L bridge" and rows[1][8] == "See bridge v2"
    assert rows[1][2:7] == [
        "Financial",
        "medium",
        "answered",
        "TargetCo_Q3_2024_Report.pdf, p.1",
        "Anna Berg",
    ]
    assert rows[2][1:4] == ["Who owns the core IP?", "IP", "high"] and rows[2][6] == "U2"


def test_the_cli_exports_the_list(
    home_copy: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MANDA_HOME", str(home_copy))
    assert main(["qa", "--deal", "targetco"]) == 0
    assert "empty" in capsys.readouterr().out
    target = tmp_path / "out" / "qa.xlsx"
    assert main(["qa", "--deal", "targetco", "--export", str(target)]) == 0
    assert "Wrote 0 questions" in capsys.readouterr().out and target.is_file()
    assert main(["qa", "--deal", "targetco", "--remove", "9"]) == 1
    assert "Question 9 is not on the Q&A list of targetco" in capsys.readouterr().err
