"""The CIM builder: persona, outline edits, cited slides, a deck whose every figure is sourced."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pptx import Presentation

from manda.app import Manda
from manda.cim.model import BuyerPersona, SlideCitation
from manda.cim.outline import apply_edit, default_outline, parse_edit
from manda.cim.tools import parse_persona
from manda.config import Settings
from manda.finance.amounts import find_amounts, same_amount, scale_from_text
from manda.models import FindingStatus
from manda.testing.anthropic_server import FakeAnthropicServer
from manda.testing.slide_writer import INVENTED, SlideWriter
from manda.workflows.ids import WorkflowId


def test_persona_from_plain_words() -> None:
    p = parse_persona("financial buyer, mid-market, cares about cash conversion and management")
    assert p is not None and p.kind == "financial" and p.size == "mid-market"
    assert p.priorities == ["cash conversion", "management"]
    assert parse_persona("strategic, sector: industrial software").sector == "industrial software"
    assert parse_persona("someone nice") is None


def test_outline_follows_the_buyer_and_takes_plain_edits() -> None:
    financial = [s.id for s in default_outline(BuyerPersona(kind="financial"))]
    strategic = [s.id for s in default_outline(BuyerPersona(kind="strategic"))]
    assert "capital_structure" in financial and "technology_ip" in strategic
    assert financial.index("financial_overview") < financial.index("products_services")
    assert strategic.index("products_services") < strategic.index("financial_overview")
    outline = default_outline(BuyerPersona(kind="strategic"))
    n = len(outline)
    dropped = apply_edit(outline, parse_edit("drop 7"))
    assert len(dropped) == n - 1 and outline[6] not in dropped
    merged = apply_edit(outline, parse_edit("merge 3 and 4"))
    assert len(merged) == n - 1 and " and " in merged[2].title
    added = apply_edit(outline, parse_edit("add a section on IP"))
    assert added[-1].title == "IP" and added[-1].topic == "custom"
    moved = apply_edit(outline, parse_edit("move 9 to 2"))
    assert moved[1] == outline[8]
    assert apply_edit(outline, parse_edit("rename 5 to Our customers"))[4].title == "Our customers"
    with pytest.raises(ValueError, match="no section 40"):
        apply_edit(outline, parse_edit("drop 40"))
    assert parse_edit("what about section 3?") is None


def _amount_in(text: str, value: float) -> bool:
    return any(same_amount(a.value, value)
               for scale in {1.0, scale_from_text(text)}
               for a in find_amounts(text, scale=scale))


@pytest.fixture(params=["extractive", "claude"])
async def deck_app(request: pytest.FixtureRequest, home_copy: Path
                   ) -> AsyncIterator[tuple[Manda, SlideWriter | None]]:
    """The app, its slides written offline or by "Claude" (the SDK against the local Messages
    API, inventing a number on every first attempt so the gate's send-back runs each time)."""
    from tests.conftest import offline_settings

    if request.param == "extractive":
        async with Manda(offline_settings(home_copy)) as app:
            yield app, None
        return
    writer = SlideWriter(invent=True)
    async with FakeAnthropicServer(api_key="test-key", handler=writer) as server:
        settings = Settings(MANDA_HOME=home_copy, ANTHROPIC_API_KEY="test-key",
                            ANTHROPIC_BASE_URL=server.base_url, MANDA_MODEL_MAX_RETRIES=0)
        async with Manda(settings) as app:
            yield app, writer


async def test_cli_deck_every_figure_in_its_source_and_no_superseded_figure(
    deck_app: tuple[Manda, SlideWriter | None], tmp_path: Path
) -> None:
    app, writer = deck_app
    wid = WorkflowId("cim", "targetco", "tester", "test:deck")
    reply = await app.cim.start(wid, "strategic buyer")
    assert [s.id for s in reply.project.outline][:2] == ["executive_summary",
                                                         "investment_highlights"]
    reply = await app.cim.send(wid, "go")
    while reply.project.phase == "sections":
        draft = reply.project.drafts[reply.project.outline[reply.project.current].id]
        reply = await app.cim.send(wid, "approve" if draft.bullets else "next")
    deck = await app.cim.export(wid, tmp_path / "cim.pptx")
    documents = {d.filename: d for d in await app.graph.list_documents("targetco")}
    chunks = {name: await app.graph.list_chunks("targetco", d.id)
              for name, d in documents.items()}
    by_id = {c.id: c for cs in chunks.values() for c in cs}
    findings = {f.id: f for f in await app.graph.list_findings("targetco")}

    def place(cit: SlideCitation) -> str:  # the cited passage, whole (a cell's sheet block)
        finding = findings.get(cit.finding_id or "")
        if finding is not None and finding.chunk_id in by_id:
            return by_id[finding.chunk_id].text
        return " ".join(c.text for c in chunks[cit.document] if c.location.label == cit.location)

    superseded = [f for f in await app.graph.list_findings("targetco")
                  if f.status is FindingStatus.SUPERSEDED and f.value is not None]
    project = await app.cim.project(wid)
    assert project is not None and project.phase == "done"
    checked = 0
    for draft in project.approved():
        for item in [*draft.bullets, *draft.figures]:
            texts = [item.text] if hasattr(item, "text") else list(item.values.values())
            places = [place(cit) for cit in item.citations]
            for text in texts:
                for amount in find_amounts(text):
                    if amount.unit == "%" and "grew" in text:
                        continue  # a change between two cited figures
                    assert any(_amount_in(place, amount.value) for place in places), (
                        f"{draft.title}: {amount.text} not in {item.citations}")
                    checked += 1
    assert checked >= 10
    prs = Presentation(str(deck))
    assert len(prs.slides) == len(project.approved()) + 1
    bodies = [" ".join(sh.text_frame.text for sh in s.shapes if sh.has_text_frame)
              + " ".join(c.text for sh in s.shapes if sh.has_table
                         for row in sh.table.rows for c in row.cells)
              for s in prs.slides]
    live = {f.value for f in await app.graph.list_findings("targetco")
            if f.status is not FindingStatus.SUPERSEDED and f.value is not None}
    for finding in superseded:
        if any(same_amount(finding.value, v) for v in live):
            continue
        assert not any(_amount_in(body, finding.value) for body in bodies), finding.label
    notes = " ".join(s.notes_slide.notes_text_frame.text for s in list(prs.slides)[1:])
    assert "Sources:" in notes and "corrected" in notes
    if writer is not None:  # every slide was Claude's, each sent back once for its invention
        sections = len(project.outline)
        assert all(d.drafted_by.startswith("claude:") for d in project.drafts.values())
        assert writer.requests == 2 * sections and len(writer.sent_back) == sections
        assert all(INVENTED in problems for problems in writer.sent_back)
        assert INVENTED not in " ".join(bodies)


@pytest.mark.parametrize("store", ["sqlite", "redis"])
async def test_a_cim_survives_a_restart_and_edits_apply(
    home_copy: Path, store: str, request: pytest.FixtureRequest
) -> None:
    from tests.conftest import offline_settings

    settings = offline_settings(home_copy)
    if store == "redis":  # any worker resumes the thread: state in Redis, not on this disk
        settings = settings.model_copy(update={"redis_url": request.getfixturevalue("redis_url")})
    wid = WorkflowId("cim", "targetco", "U1", "slack:T1:C1:1700000000.000100")
    async with Manda(settings) as first:
        assert first.workflow_checkpoints.backend == store
        await first.cim.start(wid)
        reply = await first.cim.send(wid, "financial buyer, mid-market")
        assert reply.project.persona is not None and reply.project.phase == "outline"
        reply = await first.cim.send(wid, "drop 2")
        assert "Investment highlights" not in [s.title for s in reply.project.outline]
        reply = await first.cim.send(wid, "go")
        reply = await first.cim.send(wid, "approve")
        assert len(reply.project.approved()) == 1
    async with Manda(settings) as second:  # a new process, same stores
        status = await second.cim.send(wid, "status")
        assert "1 approved" in status.text
        reply = await second.cim.send(wid, "approve")
        assert len(reply.project.approved()) == 2
        reply = await second.cim.send(wid, "frobnicate the slide")
        assert "I can" in reply.text  # an instruction it cannot apply is explained
        reply = await second.cim.send(wid, "cancel")
        assert reply.project.phase == "cancelled"
