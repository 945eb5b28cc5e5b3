"""Heading paths through ingestion: stored with every chunk and finding, returned on search hits,
read with each sentence, and filled in for documents stored before they were kept."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from fixtures.headed_documents import CLAIM, TITLE, build_layout_pdf

from manda.app import Manda
from manda.config import Settings
from manda.ingest.chunking import shown_text
from manda.kg.embedded import EmbeddedKnowledgeGraph
from manda.passages import sentences_of

DEAL = "falcon"
LEGAL_TITLE = "TargetCo GmbH — Legal Summary"


def _legal_summary(path: Path) -> Path:
    """The issue's example: a legal summary whose claim stands under "Litigation"."""
    d = docx.Document()
    d.add_paragraph(LEGAL_TITLE, style="Title")
    d.add_paragraph("Prepared by company counsel for prospective buyers.")
    d.add_heading("Litigation", level=1)
    d.add_paragraph(CLAIM)
    d.add_heading("Financing", level=1)
    d.add_paragraph("The term loan of EUR 4.0 million matures on 30 June 2027.")
    d.save(path)
    return path


async def _ingested_room(app: Manda, tmp_path: Path) -> Path:
    room = tmp_path / "room"
    room.mkdir()
    _legal_summary(room / "Legal_Summary.docx")
    build_layout_pdf(room / "Falcon_Legal_Summary.pdf")
    await app.ingest.ingest(DEAL, [room])
    return room


@pytest.fixture
async def app(tmp_path: Path) -> Manda:
    async with Manda(Settings(MANDA_HOME=tmp_path / "home")) as manda:
        yield manda


async def test_the_claim_is_stored_searched_and_read_under_litigation(
    app: Manda, tmp_path: Path
) -> None:
    await _ingested_room(app, tmp_path)
    documents = {d.filename: d for d in await app.graph.list_documents(DEAL)}

    expected = {"Legal_Summary.docx": (LEGAL_TITLE, "Litigation"),
                "Falcon_Legal_Summary.pdf": (TITLE, "3 Legal", "3.2 Litigation",
                                             "Pending claims")}
    for name, path in expected.items():
        chunks = await app.graph.list_chunks(DEAL, documents[name].id)
        [claim] = [c for c in chunks if "former distributor" in c.text]
        assert claim.heading_path == path
        findings = await app.graph.findings_for_chunks(DEAL, [claim.id])
        assert findings and {f.heading_path for f in findings} == {path}
        assert documents[name].headings_read

    hits = await app.search.search(DEAL, "distributor claims damages early termination", k=5)
    hit = next(h for h in hits if h.document == "Legal_Summary.docx")
    assert hit.heading_path == (LEGAL_TITLE, "Litigation")
    read = sentences_of(hit)
    assert [s.text for s in read][-2:] == [
        CLAIM.split(". ")[0] + ".", "The claim was filed in June 2024 and is pending."]
    assert {s.under for s in read} == {f"{LEGAL_TITLE} › Litigation"}


async def test_a_document_stored_before_heading_paths_gets_them_once_without_extraction(
    app: Manda, tmp_path: Path
) -> None:
    room = await _ingested_room(app, tmp_path)
    graph = app.graph
    assert isinstance(graph, EmbeddedKnowledgeGraph)
    stored = {}
    for doc in await graph.list_documents(DEAL):  # as a home of the previous version holds it
        chunks = await graph.list_chunks(DEAL, doc.id)
        stored |= {c.id: c for c in chunks}
        await graph.set_heading_paths(DEAL, {c.id: () for c in chunks})
        await graph.upsert_document(doc.model_copy(update={"headings_read": False}))
    findings = {f.id: f for f in await graph.list_findings(DEAL)}
    keywords = await graph.keyword_state(DEAL)

    report = await app.ingest.ingest(DEAL, [room])

    assert sorted(report.unchanged) == ["Falcon_Legal_Summary.pdf", "Legal_Summary.docx"]
    assert report.findings == 0
    for doc in await graph.list_documents(DEAL):
        assert doc.headings_read
        for chunk in await graph.list_chunks(DEAL, doc.id):
            assert chunk == stored[chunk.id]  # text, place and heading path as first read
    after = {f.id: f for f in await graph.list_findings(DEAL)}
    assert after == findings | {
        f.id: f.model_copy(update={"heading_path": stored[f.chunk_id].heading_path})
        for f in findings.values() if f.chunk_id}
    assert await graph.keyword_state(DEAL) == keywords  # the keyword index was not touched

    again = await app.ingest.ingest(DEAL, [room])  # now a no-op
    assert sorted(again.unchanged) == sorted(report.unchanged)
    assert {f.id: f for f in await graph.list_findings(DEAL)} == after


async def test_search_json_and_the_trace_carry_the_heading_path(
    app: Manda, tmp_path: Path
) -> None:
    from manda.agent.tools import render_passages
    from manda.traces import AnswerTrace, TracePassage, trace_sections

    room = tmp_path / "room"
    room.mkdir()
    _legal_summary(room / "Legal_Summary.docx")
    await app.ingest.ingest(DEAL, [room])
    hits = await app.search.search(DEAL, "distributor damages", k=3)

    rendered = render_passages(hits[:1])
    assert f'under="{LEGAL_TITLE} › Litigation"' in rendered
    chunk = (await app.graph.get_chunks(DEAL, [hits[0].chunk_id]))[0]
    assert shown_text(chunk) == hits[0].text
    trace = AnswerTrace(answer_id="a", conversation_id="c", deal_id=DEAL, question="q",
                        at="2024-10-01T09:00:00+00:00", answered_by="offline",
                        intent="fact_lookup", passages=[TracePassage(
                            document=hits[0].document, location=hits[0].location.label,
                            heading_path=list(hits[0].heading_path), score=hits[0].score)])
    [line] = dict(trace_sections(trace))["Passages"]
    assert f"(under {LEGAL_TITLE} › Litigation)" in line
