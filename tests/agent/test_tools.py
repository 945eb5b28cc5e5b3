"""The agent's tools: deal-scoped, read-only, every result added to the question's evidence."""

from __future__ import annotations

import ast
import gc
from pathlib import Path

from room import ANNUAL, ANNUAL_FIX, BIOS, DEAL, DECK, LEGAL, Q3, Room

from manda.agent import planner
from manda.agent.context import AgentContext
from manda.agent.evidence import Evidence
from manda.agent.tools import TOOL_NAMES, ToolBox
from manda.llm.port import ToolCall
from manda.models import DocumentRole, FindingStatus
from manda.retrieval.hybrid import HybridSearch


async def toolbox(room: Room) -> tuple[ToolBox, Evidence]:
    ctx = AgentContext(graph=room.graph, search=room.search, memory=room.memory)
    evidence = Evidence(documents={d.id: d for d in await room.graph.list_documents(DEAL)})
    return ToolBox(ctx, DEAL, evidence), evidence


async def test_the_tools_are_the_specified_ones() -> None:
    assert TOOL_NAMES == ("query_knowledge_base", "list_documents", "get_document_info",
                          "detect_contradictions",
                          "find_gaps", "get_timeline", "red_flags", "validate_finding",
                          "suggest_questions", "add_to_qa", "update_knowledge_base", "create_irl",
                          "trigger_analysis", "update_knowledge_graph", "topic_brief")


def test_the_offline_plan_calls_only_specified_tools() -> None:
    """The planner names tools by string; each must be a spec (and so have its handler)."""
    tree = ast.parse(Path(planner.__file__).read_text(encoding="utf-8"))
    named = {
        node.args[1].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_call"
        and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)
    }
    assert named and named <= set(TOOL_NAMES)


async def test_every_specified_tool_runs_through_its_handler(room: Room) -> None:
    box, evidence = await toolbox(room)
    for index, name in enumerate(TOOL_NAMES):
        result = await box.run(ToolCall(id=str(index), name=name, arguments={}))
        assert "Unknown tool" not in result.content
    assert evidence.tool_calls == list(TOOL_NAMES)


async def test_an_answer_leaves_no_reference_cycles(room: Room) -> None:
    """An answer's evidence is freed when the answer ends, not by a full garbage collection: in
    the bot those stopped the event loop for 40-100 ms in the middle of a burst of acks."""
    service = room.service()
    question = "What was Q3 2023 revenue?"
    await service.ask(DEAL, question)  # caches filled once
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds unreachable is kept to be named
    try:
        answer = await service.ask(DEAL, question)
        box, _ = await toolbox(room)
        for index, name in enumerate(TOOL_NAMES):
            await box.run(ToolCall(id=str(index), name=name, arguments={}))
        del box
        gc.collect()
        left = sorted({type(o).__name__ for o in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert "€4.7M" in answer.answer
    assert left == []


async def test_query_quotes_passages_as_data_and_adds_them(room: Room) -> None:
    box, evidence = await toolbox(room)
    out = await box.query_knowledge_base({"query": "board minutes revenue"})
    assert out.startswith("<document_excerpts>")
    assert 'contains_instruction="true"' in out  # the minutes' injected paragraph is flagged
    assert evidence.hits and all(h.document_id in evidence.documents for h in evidence.hits)


async def test_document_info_names_versions(room: Room) -> None:
    box, _ = await toolbox(room)
    out = await box.get_document_info({"document": ANNUAL_FIX})
    assert '"supersedes": ["Acme_Annual_Report_2023.pdf"]' in out
    assert '"authoritative": true' in out


async def test_contradictions_and_corrections(room: Room) -> None:
    box, evidence = await toolbox(room)
    out = await box.detect_contradictions({})
    assert f"({Q3}, p.1) conflicts with €5.0M ({DECK}, slide 2)" in out or \
        f"({DECK}, slide 2) conflicts with €5.2M ({Q3}, p.1)" in out
    assert f"EUR 2.9 million ({ANNUAL_FIX}, p.1) corrects EUR 3.1 million" in out
    assert len(evidence.findings) >= 4


async def test_validate_finding_proposes_approval_of_pending_ones(room: Room) -> None:
    box, evidence = await toolbox(room)
    pending = await room.graph.list_findings(DEAL, status=FindingStatus.PENDING)
    out = await box.validate_finding({"finding_id": pending[0].id})
    assert "value stated in its excerpt: yes" in out
    assert [(a.type, a.finding_id) for a in evidence.proposals] == [
        ("approve_finding", pending[0].id)]
    assert (await room.graph.get_finding(DEAL, pending[0].id)).status is FindingStatus.PENDING


async def test_suggest_questions_from_gaps_and_add_to_qa_proposes(room: Room) -> None:
    box, evidence = await toolbox(room)
    await box.find_gaps({})
    suggested = await box.suggest_questions({"topic": "tax"})
    assert "[Tax] Please provide: Corporate income and trade tax returns 2021-2023." in suggested
    told = await box.add_to_qa({"question": "Please send the tax returns.", "category": "Tax"})
    assert "nothing was added yet" in told
    assert await room.graph.list_qa_items(DEAL) == []
    assert evidence.proposals[-1].question == "Please send the tax returns."


async def test_unknown_tools_and_bad_arguments_are_errors_for_the_model(room: Room) -> None:
    box, _ = await toolbox(room)
    unknown = await box.run(ToolCall("1", "delete_everything", {}))
    assert unknown.is_error and "Unknown tool 'delete_everything'" in unknown.content
    bad = await box.run(ToolCall("2", "validate_finding", {}))
    assert bad.is_error and "validate_finding could not run" in bad.content


async def test_degraded_search_is_said_out_loud(room: Room) -> None:
    class BrokenEmbedder:
        id = "broken"
        dimension = 3

        async def embed(self, texts: object, input_type: object) -> object:
            raise ConnectionError("embedding service unreachable")

    room.search = HybridSearch(graph=room.graph, embedder=BrokenEmbedder())  # type: ignore[arg-type]
    answer = await room.service().ask(DEAL, "What was Q3 2023 revenue?")
    assert "€4.7M" in answer.answer
    assert answer.notices == ["Semantic search is unavailable right now; results come from "
                              "keyword and graph search only."]


async def test_roles_are_favoured_and_shown_to_the_model(room: Room) -> None:
    docs = {d.filename: d for d in await room.graph.list_documents(DEAL)}
    await room.graph.upsert_document(docs[LEGAL].model_copy(
        update={"role": DocumentRole.LEGAL_MEMO}))
    box, evidence = await toolbox(room)
    out = await box.query_knowledge_base({"query": "covenant term loan",
                                          "roles": "legal memo, nonsense"})
    assert evidence.hits[0].document == LEGAL  # the legal memo's passages come first
    assert f'file="{LEGAL}"' in out and 'role="legal_memo"' in out and '<excerpt id="S' in out
    info = await box.get_document_info({"document": LEGAL})
    assert '"role": "legal_memo"' in info


async def test_topic_brief_gives_the_model_the_shape_with_sources(room: Room) -> None:
    box, _ = await toolbox(room)
    out = await box.run(ToolCall(id="t1", name="topic_brief", arguments={"topic": "management"}))
    assert not out.is_error
    assert "Anna Schmidt** — Chief Executive Officer" in out.content
    assert "Markus Weber** — no role stated" in out.content
    assert "no CFO is named" in out.content  # a key role the room does not fill
    assert f"(source: {BIOS}, " in out.content
    bad = await box.run(ToolCall(id="t2", name="topic_brief", arguments={"topic": "weather"}))
    assert bad.is_error and "ownership" in bad.content


async def test_a_slides_speaker_notes_qualify_its_figures(room: Room) -> None:
    """The deck's notes say Q3 is a preliminary estimate; the search need not return the notes
    for the answer to say so (the figure on the slide is read with what the notes say of it)."""
    from manda.agent.translate import document_basis

    box, evidence = await toolbox(room)
    await box.query_knowledge_base({"query": "Q3 2024 revenue", "subject": "revenue"})
    deck = next(d.id for d in evidence.documents.values() if d.filename == DECK)
    on_slide = [f for f in evidence.findings.values()
                if f.document_id == deck and f.location.label == "slide 2"
                and f.period == "Q3 2024"]
    assert on_slide
    assert "preliminary" in evidence.annotations[(deck, "slide 2")].lower()
    assert document_basis(on_slide[0], evidence) == "a preliminary estimate"


async def test_the_timeline_tool_keeps_to_the_questions_as_of_date(room: Room) -> None:
    from datetime import date

    from manda.agent.constraints import Admission, parse_constraints

    box, evidence = await toolbox(room)
    full = await box.get_timeline({})
    dates = [line.split(" ")[0] for line in full.splitlines()[2:-1]]
    cut = date(2024, 6, 30)
    assert any(d[:10] > cut.isoformat() for d in dates if d[:4].isdigit()), dates

    box, evidence = await toolbox(room)
    evidence.admission = Admission(parse_constraints("Key dates as of 30 June 2024?")[1])
    out = await box.get_timeline({})
    listed, _, left_out = out.partition("<left_out")
    assert 'reason="as of 30 June 2024: events after that date"' in left_out
    assert evidence.timeline_left_out
    for event in evidence.timeline_left_out:
        assert event.title not in listed
        assert event.date > cut
    # what the answer may cite: no place that only a left-out event stands on
    cited = {(s.document, s.location) for s in evidence.dated}
    kept = {(c.document, c.location) for e in evidence.timeline.events for c in e.citations}
    assert cited == kept


async def test_list_documents_is_the_room_s_inventory_with_dates_status_and_versions(
        room: Room) -> None:
    """"What do we have?" is answered from the room itself: every document, its role, date,
    status and the version that supersedes it (issue 30, item 6)."""
    box, evidence = await toolbox(room)
    listed = await box.list_documents({})
    documents = list(evidence.documents.values())
    assert listed.startswith(f"{len(documents)} document(s):")
    assert all(d.filename in listed for d in documents)
    [line] = [x for x in listed.splitlines() if x.startswith(f"- {ANNUAL} ")]
    assert line.endswith(f"superseded by {ANNUAL_FIX}")
    role = next(d.role for d in documents if d.filename == ANNUAL).value
    one = await box.list_documents({"role": role, "limit": 1})
    assert f"of role {role}" in one.splitlines()[0]
    assert len([x for x in one.splitlines() if x.startswith("- ")]) == 1
