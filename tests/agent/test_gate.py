"""The validation gate and citation grounding, on evidence retrieved from the hand-built deal."""

from __future__ import annotations

import pytest
from room import ANNUAL, ANNUAL_FIX, DEAL, DECK, Q3, Room

from manda.agent.context import AgentContext
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite, find_markers, ground
from manda.agent.tools import ToolBox
from manda.agent.validate import Requirements, check_numbers, run_gate


@pytest.fixture
async def evidence(room: Room) -> Evidence:
    """What a question about revenue and EBITDA retrieves."""
    ctx = AgentContext(graph=room.graph, search=room.search, memory=room.memory)
    found = Evidence(documents={d.id: d for d in await room.graph.list_documents(DEAL)})
    box = ToolBox(ctx, DEAL, found)
    await box.query_knowledge_base({"query": "Q3 2024 revenue EBITDA",
                                    "subject": "revenue, ebitda"})
    return found


def test_markers_are_written_and_read_back(evidence: Evidence) -> None:
    by_place = {s.key: s for s in evidence.sources() if s.document in (Q3, DECK)}
    sources = list(by_place.values())[:2]
    single = cite(sources[:1])
    assert single == f"(source: {sources[0].document}, {sources[0].location})"
    several = cite(sources)
    assert several.startswith("(sources: ") and ", " in several
    refs = find_markers(f"Revenue was €5.2M {several}.", evidence)[0].references
    assert [(r.document, r.location) for r in refs] == [(s.document, s.location) for s in sources]
    assert all(r.source is not None for r in refs)


def test_hallucinated_references_are_dropped(evidence: Evidence) -> None:
    text = (f"Revenue was €5.2M in Q3 2024 (sources: {Q3} p.1, Imaginary_Board_Pack.pdf p.9). "
            f"Cash was strong (source: {Q3}, p.77).")
    gate = run_gate(text, evidence, Requirements())
    assert "Imaginary_Board_Pack.pdf" not in gate.text and "p.77" not in gate.text
    assert f"(source: {Q3}, p.1)" in gate.text
    assert {(r.document, r.location) for r in gate.dropped} == {
        ("Imaginary_Board_Pack.pdf", "p.9"), (Q3, "p.77")}
    assert [(c.document, c.location) for c in ground(gate.text, evidence)] == [(Q3, "p.1")]


@pytest.mark.parametrize("stated", ["€4.7M", "EUR 4.7 million", "4,700k", "EUR 4,700 thousand"])
def test_the_same_amount_written_differently_is_grounded(evidence: Evidence, stated: str) -> None:
    gate = run_gate(f"Q3 2023 revenue was {stated} (source: {Q3}, p.1).", evidence,
                    Requirements())
    assert gate.ok, gate.errors


def test_a_number_no_cited_excerpt_states_is_an_error(evidence: Evidence) -> None:
    gate = run_gate(f"Q3 2024 revenue was €50M (source: {Q3}, p.1).", evidence, Requirements())
    assert gate.errors == [f"The number €50M is not stated at {Q3}, p.1, the place cited beside "
                           "it. Cite the excerpt that states it, or show the working of a figure "
                           "you computed with its inputs and their sources."]
    uncited = run_gate("Q3 2024 revenue was €5.2M.", evidence, Requirements())
    assert "cites no source" in uncited.errors[0]


def test_variance_between_stated_numbers_is_allowed(evidence: Evidence) -> None:
    text = (f"EBITDA rose from €0.75M in Q3 2023 to €1.1M in Q3 2024 (source: {Q3}, p.1), "
            "+€0.35M (+46.7%).")
    assert run_gate(text, evidence, Requirements()).ok


def test_confidence_scores_are_refused(evidence: Evidence) -> None:
    for wording in ("with 92% confidence", "(confidence: HIGH)", "score 0.93"):
        gate = run_gate(f"Q3 2024 revenue was €5.2M (source: {Q3}, p.1) {wording}.", evidence,
                        Requirements())
        assert any("confidence" in e for e in gate.errors), wording


def test_a_conflict_must_show_both_sources(evidence: Evidence) -> None:
    one_sided = run_gate(f"Q3 2024 revenue was €5.2M (source: {Q3}, p.1).", evidence,
                         Requirements())
    assert any("conflict" in e and DECK in e for e in one_sided.errors)
    both = run_gate(
        f"Q3 2024 revenue was €5.2M (source: {Q3}, p.1); the presentation gives €5.0M "
        f"(source: {DECK}, slide 2) — the documents conflict.", evidence, Requirements())
    assert both.ok, both.errors


async def test_a_superseded_value_must_be_named_as_corrected(room: Room) -> None:
    ctx = AgentContext(graph=room.graph, search=room.search, memory=room.memory)
    found = Evidence(documents={d.id: d for d in await room.graph.list_documents(DEAL)})
    await ToolBox(ctx, DEAL, found).query_knowledge_base(
        {"query": "FY2023 EBITDA", "subject": "ebitda"})
    stale = run_gate(f"FY2023 EBITDA was EUR 3.1 million (source: {ANNUAL}, p.1).", found,
                     Requirements())
    assert any("corrected to EUR 2.9 million" in e for e in stale.errors)
    silent = run_gate(f"FY2023 EBITDA was EUR 2.9 million (source: {ANNUAL_FIX}, p.1).", found,
                      Requirements())
    assert any("corrects EUR 3.1 million" in e for e in silent.errors)
    told = run_gate(f"FY2023 EBITDA was EUR 2.9 million (source: {ANNUAL_FIX}, p.1), corrected "
                    f"from EUR 3.1 million (source: {ANNUAL}, p.1).", found, Requirements())
    assert told.ok, told.errors


def test_required_disclosures(evidence: Evidence) -> None:
    followup = run_gate(f"EBITDA was €1.1M (source: {Q3}, p.1).", evidence,
                        Requirements(assumption="For Q3 2024"))
    assert any("period you assumed (Q3 2024)" in e for e in followup.errors)
    # named in the answer's own language, the assumed period is stated
    for said in ("Pour le T3 2024, l'EBITDA s'élève à 1,1 M€", "En el tercer trimestre de 2024, "
                 "el EBITDA fue de 1,1 M€", "Im 3. Quartal 2024 betrug das EBITDA 1,1 Mio. €",
                 "For Q3 2024, EBITDA was €1.1M"):
        stated = run_gate(f"{said} (source: {Q3}, p.1).", evidence,
                          Requirements(assumption="For Q3 2024"))
        assert not any("period you assumed" in e for e in stated.errors), (said, stated.errors)
    bare = run_gate("I don't know.", evidence, Requirements())
    assert any("say what you searched" in e for e in bare.errors)
    no_offer = run_gate("I searched the room and found nothing.", evidence,
                        Requirements(offer_qa=True))
    assert any("Q&A" in e for e in no_offer.errors)
    chatty = run_gate("Sure! Great question.\nHere is what I found:\nNothing.", evidence,
                      Requirements())
    assert any("orienting line" in e for e in chatty.errors)


def test_numbers_inside_a_file_name_are_not_claims(evidence: Evidence) -> None:
    """Numbered data rooms name files "4.3 Budget FY2024.md": the name is a label to keep."""
    numbered = next(iter(evidence.documents.values())).model_copy(
        update={"id": "d_numbered", "filename": "4.3 Budget 2024.md"})
    evidence.documents[numbered.id] = numbered
    text = f"Q3 2024 revenue was €5.2M, as 4.3 Budget 2024.md also shows (source: {Q3}, p.1)."
    assert check_numbers(text, evidence) == []
    assert check_numbers(f"Q3 2024 revenue was €4.3M (source: {Q3}, p.1).", evidence)


def test_a_covenant_headroom_is_derived_from_the_two_stated_multiples() -> None:
    from manda.agent.validate import _derived
    from manda.finance.amounts import find_amounts

    grounded = find_amounts("not more than 2.50x; leverage was 1.18x")
    assert len(grounded) == 2
    headroom, share = find_amounts("headroom 1.32x (53% of the limit)")
    assert _derived(headroom, grounded) and _derived(share, grounded)
    assert not _derived(find_amounts("2.00x")[0], grounded)
