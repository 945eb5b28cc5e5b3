"""The live eval's mechanics without a key: `run_evals(live=True)` with Claude answering through
the real SDK from the local Messages API. A scripted model cites by id, writes in French and
computes a ratio with its working; the run takes its cases in turns from every room's dev and
held-out sets, stops at its token budget and says so, and reports right or wrong and tokens per
case and per room. (`scripts/live-check.sh` runs `manda eval --live --token-budget N` against the
real API where ANTHROPIC_API_KEY is set.)"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anthropic
import pytest
import yaml
from room import DEAL, DECK, OTHER, OTHER_REPORT, Q3, Room
from test_claude_evidence_ids import shown

from manda.agent.service import AnswerService
from manda.evals.runner import in_turns, load_dataset, run_evals, write_report
from manda.llm.claude import ClaudeChatModel
from manda.testing.anthropic_server import (
    FakeAnthropicServer,
    RecordedRequest,
    Reply,
    text_reply,
    tool_reply,
)

USAGE = {"input_tokens": 1000, "output_tokens": 100}

CASES: list[dict[str, Any]] = [
    {"id": "L-01", "title": "French revenue with a margin", "deal": DEAL,
     "ask": "Quel était le chiffre d'affaires du T3 2024 ?",
     "checks": {"contains": "5,2 M€", "cites": [{"file": Q3, "location": "p.1"}],
                "grounded": True}},
    {"id": "L-02", "title": "French revenue a year before", "deal": DEAL,
     "ask": "Quel était le chiffre d'affaires du T3 2023 ?",
     "checks": {"contains": "4,7 M€"}},
    {"id": "L-03", "title": "Held out: EBITDA a year before", "deal": DEAL, "held_out": True,
     "ask": "Quel était l'EBITDA du T3 2023 ?",
     "checks": {"contains": "0,75 M€"}},  # the scripted model answers revenue: wrong
    {"id": "L-04", "title": "Held out: revenue again", "deal": DEAL, "held_out": True,
     "ask": "Et le chiffre d'affaires du T3 2024 ?",
     "checks": {"contains": "5,2 M€"}},
    {"id": "L-05", "title": "The other room", "deal": OTHER,
     "ask": "Quel était le chiffre d'affaires du T3 2024 ?",
     "checks": {"contains": "£7.7M", "cites": [{"file": OTHER_REPORT}]}},
]


def excerpt_id(request: RecordedRequest, file: str, loc: str = "p.1") -> str | None:
    m = re.search(rf'<excerpt id="(S\d+)" file="{re.escape(file)}" loc="{re.escape(loc)}"',
                  shown(request))
    return m.group(1) if m else None


def careful_reader(request: RecordedRequest) -> Reply:
    """Answers in French from the excerpt it was given, by its id; searches first when the
    excerpt is not there yet."""
    question = request.body["messages"][0]["content"]
    question = question if isinstance(question, str) else str(question[0].get("text"))
    file = OTHER_REPORT if "Otherco" in shown(request) else Q3
    ident = excerpt_id(request, file)
    if ident is None:
        return tool_reply("query_knowledge_base", {"query": "chiffre d'affaires T3",
                                                   "subject": ["revenue"], "k": 4},
                          usage=USAGE)
    if file == OTHER_REPORT:
        return text_reply(f"Le chiffre d'affaires du T3 2024 s'élève à £7.7M [{ident}].",
                          usage=USAGE)
    if "2023" in question.split("Retrieved from")[0]:
        return text_reply(f"Au T3 2023, le chiffre d'affaires était de 4,7 M€ [{ident}].",
                          usage=USAGE)
    deck = excerpt_id(request, DECK, "slide 2")
    if deck is None:
        return tool_reply("query_knowledge_base", {"query": "chiffre d'affaires T3 2024 "
                                                   "présentation", "k": 6}, usage=USAGE)
    return text_reply(
        f"Le chiffre d'affaires du T3 2024 s'élève à 5,2 M€ [{ident}] ; la présentation de la "
        f"direction indique 5,0 M€ [{deck}] : les deux documents divergent.\n\n"
        f"La marge d'EBITDA est de 21,2 % : EBITDA de 1,1 M€ [{ident}] / chiffre d'affaires de "
        "5,2 M€.", usage=USAGE)


@dataclass
class LiveApp:
    ingest: Any
    answers: AnswerService
    deals: Any = None


@pytest.fixture
async def live(room: Room, server: FakeAnthropicServer) -> AsyncIterator[LiveApp]:
    client = anthropic.AsyncAnthropic(api_key="test-key", base_url=server.base_url,
                                      max_retries=0, timeout=10.0)
    server._handler = careful_reader
    yield LiveApp(ingest=None, answers=room.service(ClaudeChatModel(client=client,
                                                                    model="claude-test")))
    await client.close()


def dataset(tmp_path: Path) -> Path:
    path = tmp_path / "live.yaml"
    path.write_text(yaml.safe_dump({"deal": DEAL, "cases": CASES}, allow_unicode=True),
                    encoding="utf-8")
    return path


def test_cases_are_taken_in_turns_from_every_room_and_set(tmp_path: Path) -> None:
    order = [c.id for c in in_turns(load_dataset(dataset(tmp_path)))]
    assert order == ["L-01", "L-03", "L-05", "L-02", "L-04"]


async def test_a_live_run_reports_each_case_and_room_and_stops_at_its_budget(
        live: LiveApp, tmp_path: Path) -> None:
    report = await run_evals(live, dataset(tmp_path), live=True, budget_tokens=3_000)
    by_id = {c.id: c for c in report.cases}
    ran = [c.id for c in report.cases if not c.skipped]
    # every room and both sets reached before the budget ran out
    assert ran == ["L-01", "L-03", "L-05"]
    assert by_id["L-01"].passed and by_id["L-05"].passed and not by_id["L-03"].passed
    answer = by_id["L-01"].turns[0].answer
    assert f"5,2 M€ (source: {Q3}, p.1)" in answer and "[S" not in answer
    assert "21,2 %" in answer
    assert all(by_id[i].tokens > 0 for i in ran)
    skipped = [c for c in report.cases if c.skipped]
    assert skipped and all(c.tokens == 0 for c in skipped)
    used = report.input_tokens + report.output_tokens
    assert used >= 3_000
    assert report.stopped == (f"token budget of 3000 reached ({used} tokens used) after "
                              f"{len(ran)} of 5 cases; the rest were not run")
    markdown, as_json = write_report(report, tmp_path / "live.md")
    text = markdown.read_text(encoding="utf-8")
    assert f"- **Stopped**: {report.stopped}" in text
    assert "| Case | Result | Checks | Tokens | Failed checks |" in text
    assert f"| L-01 French revenue with a margin | pass | 3/3 | {by_id['L-01'].tokens} |" in text
    assert "| L-03 Held out: EBITDA a year before (held-out) | FAIL |" in text
    rooms = json.loads(as_json.read_text(encoding="utf-8"))["by_deal"]
    assert rooms[OTHER] == {"cases_passed": 1, "cases_run": 1, "cases_skipped": 0,
                            "tokens": by_id["L-05"].tokens}
    assert rooms[DEAL]["cases_run"] + rooms[DEAL]["cases_skipped"] == 4
    assert f"- Room {OTHER}: 1/1 cases right, 0 not run; {by_id['L-05'].tokens} tokens" in text


async def test_a_budget_large_enough_runs_every_case(live: LiveApp, tmp_path: Path) -> None:
    report = await run_evals(live, dataset(tmp_path), live=True, budget_tokens=1_000_000)
    assert report.stopped is None and not any(c.skipped for c in report.cases)
    assert [c.id for c in report.cases if c.passed] == ["L-01", "L-05", "L-02", "L-04"]


def test_the_cli_refuses_a_live_run_without_a_key_and_a_budget_without_live(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from manda.cli import main

    monkeypatch.setenv("MANDA_HOME", str(tmp_path))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert main(["eval", "--live", "--token-budget", "1000"]) == 2
    said = " ".join(capsys.readouterr().out.split())
    assert "manda eval --live: ANTHROPIC_API_KEY is not set" in said and "without --live" in said
    assert main(["eval", "--token-budget", "1000"]) == 2
    said = " ".join(capsys.readouterr().out.split())
    assert "--token-budget limits a --live run's tokens" in said
