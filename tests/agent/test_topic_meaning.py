"""A passage is known by its meaning too: its stored vector against each deal topic's prototype,
with the embedder the deal already uses (nothing embedded again but the prototypes)."""

from __future__ import annotations

from manda.agent.evidence import Evidence
from manda.agent.meaning import weigh_topics
from manda.app import Manda
from manda.models import SearchHit


async def _hits(app: Manda, deal: str, filename: str, location: str) -> list[SearchHit]:
    docs = {d.id: d for d in await app.graph.list_documents(deal)}
    doc = next(d for d in docs.values() if d.filename == filename)
    return [SearchHit(chunk_id=c.id, document_id=doc.id, document=doc.filename,
                      location=c.location, text=c.text, score=1.0, heading_path=c.heading_path)
            for c in await app.graph.list_chunks(deal, doc.id) if c.location.label == location]


async def test_a_passage_is_about_the_topics_its_meaning_stands_out_for(app: Manda) -> None:
    litigation = await _hits(app, "targetco", "TargetCo_Legal_Summary.docx", "Litigation")
    register = await _hits(app, "targetco", "TargetCo_Cap_Table.csv", "rows 2-7")
    quarter = await _hits(app, "targetco", "TargetCo_Q3_2024_Report.pdf", "p.1")
    evidence = Evidence(documents={}, hits=[*litigation, *register, *quarter])

    await weigh_topics("targetco", evidence, app.graph, app.embedder)

    assert "litigation" in evidence.topics_by_meaning[litigation[0].chunk_id]
    assert "ownership" in evidence.topics_by_meaning[register[0].chunk_id]
    # a quarterly report's figures stand out for no risk topic
    assert not {"litigation", "employment_claims", "change_of_control", "data_protection"} & {
        key for hit in quarter for key in evidence.topics_by_meaning[hit.chunk_id]}


async def test_passages_never_embedded_by_this_embedder_are_left_to_their_words(
        app: Manda) -> None:
    hits = await _hits(app, "targetco", "TargetCo_Legal_Summary.docx", "Litigation")
    evidence = Evidence(documents={}, hits=hits)
    await weigh_topics("another-deal", evidence, app.graph, app.embedder)  # no vectors there
    assert evidence.topics_by_meaning == {hits[0].chunk_id: ()}
