"""The IRL workflow: built from the room, edited in plain words, exported, and then the list gap
checks read."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from manda.agent.evidence import Evidence
from manda.agent.gaps import assess_coverage
from manda.app import Manda
from manda.models import QAItem
from manda.workflows.ids import WorkflowId


def test_workflow_ids_carry_mode_deal_owner_and_a_slack_thread() -> None:
    wid = WorkflowId.parse("irl:falcon:U123:slack:T1:C9:1700000000.000100")
    assert (wid.mode, wid.deal_id, wid.owner) == ("irl", "falcon", "U123")
    assert wid.conversation == "slack:T1:C9:1700000000.000100"
    assert str(wid) == "irl:falcon:U123:slack:T1:C9:1700000000.000100"
    with pytest.raises(ValueError, match="not a workflow id"):
        WorkflowId.parse("report:falcon:U1:x")


async def test_irl_built_edited_exported_and_read_by_gap_checks(app: Manda, tmp_path: Path) -> None:
    wid = WorkflowId("irl", "targetco", "U1", "test:irl")
    reply = await app.irl.start(wid)
    project = reply.project
    assert project.items and {i.status for i in project.items} == {"open", "provided"}
    assert all(i.purpose for i in project.items)
    open_refs = [i.ref for i in project.open_items()]
    first_open = open_refs[0]
    reply = await app.irl.send(wid, f"priority {first_open} low")
    assert next(i for i in reply.project.items if i.ref == first_open).priority == "low"
    reply = await app.irl.send(wid, "add: Insurance claims history of the last five years "
                                    "(Legal, high)")
    added = next(i for i in reply.project.items if i.request.startswith("Insurance claims"))
    assert (added.category, added.priority, added.status) == ("Legal", "high", "open")
    reply = await app.irl.send(wid, f"drop {open_refs[1]}")
    assert open_refs[1] not in [i.ref for i in reply.project.items]
    reply = await app.irl.send(wid, "drop Z-99")
    assert "There is no request Z-99" in reply.text
    await app.graph.add_qa_item(QAItem(id="q1", deal_id="targetco", category="Financial",
                                       question="Why did opex rise in Q2 2024?", created_by="U1"))
    reply = await app.irl.send(wid, "attach Q&A")
    assert any(i.qa_id == "q1" for i in reply.project.items)
    out = await app.irl.export(wid, tmp_path / "irl.xlsx")
    sheet = load_workbook(out).active
    rows = list(sheet.iter_rows(values_only=True))
    header = next(n for n, r in enumerate(rows) if r and r[0] == "Ref")
    assert rows[header] == ("Ref", "Category", "Request", "Priority", "Purpose", "Status",
                            "Provided by")
    requests = [r[2] for r in rows[header + 1:]]
    assert "Insurance claims history of the last five years" in requests
    assert "Why did opex rise in Q2 2024?" in requests
    coverage = await assess_coverage(app.graph, "targetco", Evidence())
    assert coverage.origin == "irl" and coverage.irl_document == "irl.xlsx"
    assert any(e.item.item.startswith("Insurance claims") for e in coverage.items)
    assert (await app.irl.project(wid)).phase == "exported"
