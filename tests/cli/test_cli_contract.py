"""The command-line contract: JSON shapes and exit codes that scripts rely on."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from manda.cli import agent as agent_cli
from manda.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_search_json_shape(
    home_copy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MANDA_HOME", str(home_copy))
    code, out, _ = run(capsys, "search", "--deal", "targetco", "--k", "3", "--json", "Q3 revenue")
    assert code == 0
    results = json.loads(out)["results"]
    assert len(results) == 3
    for r in results:
        assert set(r) == {"document", "location", "page", "heading_path", "text", "score"}
        assert isinstance(r["document"], str) and isinstance(r["score"], float)
        assert all(isinstance(h, str) for h in r["heading_path"])
        assert r["page"] is None or isinstance(r["page"], int)
    assert any(r["heading_path"] for r in results)  # the sample's reports have headings


def test_unknown_deal_is_a_clear_error(
    home_copy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MANDA_HOME", str(home_copy))
    code, _, err = run(capsys, "search", "--deal", "nosuchdeal", "revenue")
    assert code == 1
    assert "no deal called 'nosuchdeal'" in err and "manda ingest --deal nosuchdeal" in err


def test_ingest_reports_skipped_files_and_exits_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MANDA_HOME", str(tmp_path / "home"))
    room = tmp_path / "room"
    room.mkdir()
    (room / "a.md").write_text("# Summary\n\nRevenue for FY2023 was EUR 18.4 million.\n")
    (room / "b.pdf").write_bytes(b"")
    code, out, _ = run(capsys, "ingest", "--deal", "d1", "--json", str(room))
    assert code == 0
    report = json.loads(out)
    assert report["ingested"] == ["a.md"]
    assert report["skipped"][0]["filename"] == "b.pdf" and report["skipped"][0]["reason"]
    code, out, _ = run(capsys, "docs", "--deal", "d1", "--json")
    statuses = {d["filename"]: d["status"] for d in json.loads(out)["documents"]}
    assert statuses == {"a.md": "completed", "b.pdf": "failed"}


def test_review_approve_then_twice_is_refused(
    home_copy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MANDA_HOME", str(home_copy))
    code, out, _ = run(capsys, "findings", "--deal", "targetco", "--status", "pending", "--json")
    assert code == 0
    pending = json.loads(out)["findings"]
    assert pending and all(f["status"] == "pending" for f in pending)
    finding_id = pending[0]["id"]
    code, out, _ = run(capsys, "review", "approve", finding_id, "--by", "anna")
    assert code == 0 and "approved by anna" in out
    code, _, err = run(capsys, "review", "reject", finding_id, "--by", "ben")
    assert code == 1 and "already approved by anna" in err
    code, out, _ = run(capsys, "findings", "--deal", "targetco", "--status", "approved", "--json")
    assert finding_id in {f["id"] for f in json.loads(out)["findings"]}
    code, out, _ = run(capsys, "review", "undo", finding_id, "--by", "ben")
    assert code == 0 and "Undid the approval of finding" in out and "by anna" in out
    code, _, err = run(capsys, "review", "undo", finding_id, "--by", "ben")
    assert code == 1 and "no such decision to undo" in err
    code, out, _ = run(capsys, "review", "reject", finding_id, "--by", "ben")  # decided anew
    assert code == 0 and "rejected by ben" in out


def test_docs_show_each_documents_role(
    home_copy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MANDA_HOME", str(home_copy))
    code, out, _ = run(capsys, "docs", "--deal", "targetco", "--json")
    assert code == 0
    roles = {d["filename"]: d["role"] for d in json.loads(out)["documents"]}
    assert roles["TargetCo_Cap_Table.csv"] == "cap_table"
    assert roles["TargetCo_IRL.xlsx"] == "irl"
    assert roles["TargetCo_Annual_Report_2023.pdf"] == "audited_statements"
    assert roles["TargetCo_Board_Minutes_2024-09.txt"] == "board_minutes"
    assert roles["TargetCo_Forecast_2025.xlsx"] == "budget_forecast"
    from manda.cli import kb

    monkeypatch.setattr(kb.out, "width", 200)  # one line per document, so the text can be read
    code, out, _ = run(capsys, "docs", "--deal", "targetco")
    line = next(x for x in out.splitlines() if "TargetCo_Cap_Table.csv" in x)
    assert code == 0 and "cap table" in line
    line = next(x for x in out.splitlines() if "TargetCo_Q3_2024_Report.pdf" in x)
    assert "TargetCo GmbH" in line  # the company the report names itself for


def test_ask_json_carries_the_answer_id_and_its_trace_and_trace_prints_it(
    home_copy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MANDA_HOME", str(home_copy))
    code, out, _ = run(capsys, "ask", "--deal", "targetco", "--json", "--conversation", "cli:t1",
                       "What was Q3 2024 revenue?")
    assert code == 0
    shown = json.loads(out)
    assert {"answer", "intent", "citations", "numbers", "suggested_actions", "conversation_id",
            "answer_id", "usage", "constraints", "constraint_checks", "cautions",
            "trace"} == set(shown)
    revenue = next(n for n in shown["numbers"] if n["text"] == "€5.2M")
    assert revenue["value"] == 5_200_000 and revenue["currency"] == "EUR"
    assert revenue["source"]["document"] == "TargetCo_Q3_2024_Report.pdf"
    assert revenue["source"]["location"] == "p.2" and not revenue["computed"]
    trace = shown["trace"]
    assert trace["answer_id"] == shown["answer_id"] and trace["conversation_id"] == "cli:t1"
    assert trace["intent"] == "fact_lookup" and trace["tool_calls"] and trace["passages"]
    assert {"text": "€5.2M", "source": "TargetCo_Q3_2024_Report.pdf, p.2", "how": "stated",
            "inputs": []} in trace["numbers"]

    code, out, _ = run(capsys, "ask", "--deal", "targetco", "--trace", "--conversation", "cli:t1",
                       "And EBITDA?")
    assert code == 0
    for part in ("How I answered", "Follow-up: carried over period Q3 2024", "Tool calls",
                 "Passages", "Grounding", "Steps, tokens and cost", "answered by offline"):
        assert part in out, part


def test_ask_json_carries_the_constraints_and_the_thread_keeps_them(
    home_copy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MANDA_HOME", str(home_copy))
    thread = ("--conversation", "cli:constraints")
    code, out, _ = run(capsys, "ask", "--deal", "targetco", *thread, "--json",
                       "What was Q3 2024 revenue in € thousands? Use at least two sources.")
    first = json.loads(out)
    assert code == 0 and "€5,200k" in first["answer"]
    assert [c["kind"] for c in first["constraints"]] == ["min_sources", "units"]
    assert [(c["kind"], c["met"]) for c in first["constraint_checks"]] == [
        ("min_sources", True), ("units", True)]
    _, out, _ = run(capsys, "ask", "--deal", "targetco", *thread, "--json", "And EBITDA?")
    follow = json.loads(out)  # a second command, the same thread: the constraints still hold
    assert "€1,100k" in follow["answer"] and len(follow["constraints"]) == 2
    assert follow["cautions"] == [{"kind": "still_applying", "text": (
        "Still applying from earlier in this thread: at least 2 sources; amounts in EUR thousands "
        "(say “ignore the earlier instructions” to drop them).")}]
    assert "Still applying" not in follow["answer"]
    monkeypatch.setattr(agent_cli.out, "width", 300)  # a caution on one line, to be read
    code, out, _ = run(capsys, "ask", "--deal", "targetco", *thread, "And Q3 2024 revenue?")
    body, _, under = out.partition("ℹ Still applying from earlier in this thread: at least 2")
    assert code == 0 and "€5,200k" in body and under  # printed under the answer, marked


async def test_switching_the_embedder_is_reported_then_reindexed(
    home_copy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Vectors live under their embedder's index id: after a switch the doctor names the deals
    whose dense channel is empty, and `manda reindex` embeds exactly what is missing."""
    from manda.cli.doctor import run_checks
    from manda.config import Settings

    monkeypatch.setenv("MANDA_HOME", str(home_copy))
    monkeypatch.setenv("MANDA_OFFLINE_MODEL", "minilm")  # the home was embedded by the default
    index = {c.port: c for c in await run_checks(Settings())}["index"]
    assert index.ok and index.adapter == "incomplete"
    assert "targetco:" in index.warning and "manda reindex" in index.warning
    assert "minilm-l6-v2-q8" in index.warning

    from manda.app import Manda

    async with Manda(Settings()) as app:  # before reindexing: keywords only, and said so
        assert await app.search.search("targetco", "Q3 revenue")
        assert not app.search.last.dense
        assert any("no index for this deal" in n for n in app.search.last.notices)

    code, out, _ = await asyncio.to_thread(run, capsys, "reindex", "--deal", "targetco")
    assert code == 0 and "chunks embedded for minilm-l6-v2-q8" in out
    added = int(out.split("targetco: ")[1].split()[0])
    assert added > 0
    code, out, _ = await asyncio.to_thread(run, capsys, "reindex", "--deal", "targetco")
    assert "targetco: 0 chunks embedded" in out  # nothing left to embed
    index = {c.port: c for c in await run_checks(Settings())}["index"]
    assert "targetco:" not in index.warning  # the other sample deal may still be behind
    async with Manda(Settings()) as app:
        assert await app.search.search("targetco", "Q3 revenue")
        assert app.search.last.dense and not app.search.last.notices


async def test_ingesting_an_unchanged_room_after_a_switch_embeds_it_for_the_new_embedder(
    home_copy: Path, sample_rooms: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Files skipped as unchanged still get vectors for the embedder now configured: running the
    demo or `manda ingest` again after an upgrade leaves no deal on keywords only."""
    monkeypatch.setenv("MANDA_HOME", str(home_copy))
    monkeypatch.setenv("MANDA_OFFLINE_MODEL", "minilm")
    room = str(sample_rooms["targetco"])
    code, out, _ = await asyncio.to_thread(run, capsys, "ingest", "--deal", "targetco", room)
    assert code == 0 and "0 ingested, 16 unchanged" in out
    assert "passages of unchanged documents embedded for the current embedder" in out
    code, out, _ = await asyncio.to_thread(run, capsys, "ingest", "--deal", "targetco", room)
    assert code == 0 and "embedded for the current embedder" not in out  # nothing left

    from manda.app import Manda
    from manda.config import Settings

    async with Manda(Settings()) as app:
        assert await app.search.search("targetco", "Q3 revenue")
        assert app.search.last.dense and not app.search.last.notices
