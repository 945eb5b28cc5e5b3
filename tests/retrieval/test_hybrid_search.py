"""Hybrid search on the sample deal: the right page in the top results, never another deal."""

from __future__ import annotations

import pytest

from manda.app import Manda
from manda.kg.port import ScoredId
from manda.retrieval.hybrid import FusionWeights, HybridSearch, fuse, reciprocal_rank_fusion

QUESTIONS = [
    ("What was revenue in Q3 2024?", "TargetCo_Q3_2024_Report.pdf"),
    ("FY2023 EBITDA in the corrected annual report", "TargetCo_Annual_Report_2023_CORRECTED.pdf"),
    ("pending litigation claim by a former distributor", "TargetCo_Legal_Summary.docx"),
    ("change of control clause Globex", "TargetCo_Legal_Summary.docx"),
    ("who owns the company, shareholders and ownership percentages", "TargetCo_Cap_Table.csv"),
    ("revenue forecast for 2025", "TargetCo_Forecast_2025_v2.xlsx"),
    ("Chief Financial Officer background", "TargetCo_Management_Bios.docx"),
    ("customer concentration top customers share of revenue", "TargetCo_Commercial_Overview.md"),
]


@pytest.mark.parametrize(("question", "expected"), QUESTIONS)
async def test_the_evidence_is_in_the_top_five(app: Manda, question: str, expected: str) -> None:
    hits = await app.search.search("targetco", question, k=5)
    assert expected in [h.document for h in hits]


async def test_hits_carry_exact_locations(app: Manda) -> None:
    hits = await app.search.search("targetco", "Q3 2024 revenue €5.2M", k=5)
    q3 = [h for h in hits if h.document == "TargetCo_Q3_2024_Report.pdf"]
    assert q3 and q3[0].location.page is not None and q3[0].location.label.startswith("p.")
    assert all(h.score >= hits[-1].score for h in hits)


async def test_a_search_never_returns_another_deals_documents(app: Manda) -> None:
    northwind = {d.filename for d in await app.graph.list_documents("northwind")}
    for question in ("Priya Raman CEO", "Contoso Freight contract", "revenue £7.7M", "fleet"):
        hits = await app.search.search("targetco", question, k=10)
        assert not {h.document for h in hits} & northwind
    hits = await app.search.search("northwind", "Priya Raman", k=3)
    assert hits and {h.document for h in hits} <= northwind


async def test_a_hit_on_a_superseded_figure_brings_its_correction(app: Manda) -> None:
    hits = await app.search.search("targetco", "annual report 2023 EBITDA EUR 3.1 million", k=8)
    documents = [h.document for h in hits]
    assert "TargetCo_Annual_Report_2023_CORRECTED.pdf" in documents


def test_weighted_fusion_prefers_agreement_and_respects_weights() -> None:
    dense = [ScoredId("a", 0.9), ScoredId("b", 0.8), ScoredId("c", 0.1)]
    bm25 = [ScoredId("b", 12.0), ScoredId("d", 3.0)]
    fused = [h.id for h in fuse(dense, bm25, FusionWeights(dense=0.6, bm25=0.4))]
    assert fused[0] == "b"
    only_dense = [h.id for h in fuse(dense, bm25, FusionWeights(dense=1.0, bm25=0.0))]
    assert only_dense[:2] == ["a", "b"]
    assert next(h.id for h in reciprocal_rank_fusion(dense, bm25)) == "b"


def test_rank_fusion_keeps_the_findings_channel() -> None:
    dense = [ScoredId("a", 0.9), ScoredId("b", 0.8)]
    bm25 = [ScoredId("a", 9.0), ScoredId("b", 8.0)]
    facts = [ScoredId("c", 0.4), ScoredId("b", 0.95)]  # any order: ranked by score
    fused = [h.id for h in reciprocal_rank_fusion(dense, bm25, facts)]
    assert fused == ["b", "a", "c"]


async def test_the_rrf_baseline_searches_with_the_findings_channel(app: Manda) -> None:
    for fusion in ("rrf", "weighted"):
        search = HybridSearch(graph=app.graph, embedder=app.embedder, fusion=fusion)
        assert await search.search("targetco", "Q3 2024 revenue", k=3)
        assert search.last.facts > 0, fusion


async def test_empty_question_returns_nothing(app: Manda) -> None:
    assert await app.search.search("targetco", "   ") == []
