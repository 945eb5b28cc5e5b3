"""Hybrid search over one deal: dense vectors + BM25, fused by weighted scores, then the graph.

Template method in the neo4j-graphrag manner: `search()` validates, `_candidates()` gathers the
vector and full-text lists, `fuse()` combines them, `_expand()` follows the knowledge graph (a hit
on a superseded finding brings its successor; a conflict brings both sides), and an optional
reranker reorders the head. Fusion weights were measured, not guessed: `bench/fusion_probe.py` runs
the sample deal and real 10-K pages; weighted fusion of normalised scores plus the facts channel
beat dense alone, BM25 alone and equal-weight RRF (figures in the README).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Literal, Protocol

from manda.embed.port import Embedder, Reranker
from manda.finance.periods import find_periods
from manda.finance.vocabulary import find_subjects
from manda.kg.port import Corpus, Findings, ScoredId, Search
from manda.models import DocumentStatus, FindingStatus, RelationType, SearchHit

log = logging.getLogger(__name__)


SUCCESSOR_FACTOR = 0.95  # a corrected figure sits right under the superseded hit
CONFLICT_FACTOR = 0.5  # the other side of a conflict: lower, or false conflicts crowd out hits


@dataclass(frozen=True)
class FusionWeights:
    """Weights of the min-max normalised dense and BM25 scores (measured; see module doc).

    `facts` weighs the knowledge-graph channel: passages holding an extracted finding whose
    subject and period the question names (its score is the finding's confidence, unnormalised).
    """

    dense: float = 0.5
    bm25: float = 0.5
    facts: float = 0.4


@dataclass
class SearchStats:
    """What the last search used, for logs and degraded-mode notices."""

    dense: bool = True
    bm25: bool = True
    facts: int = 0  # passages the findings channel contributed to the fusion
    graph_added: int = 0
    reranked: bool = False
    notices: list[str] = field(default_factory=list)


def _normalise(hits: Sequence[ScoredId]) -> dict[str, float]:
    if not hits:
        return {}
    scores = [h.score for h in hits]
    low, high = min(scores), max(scores)
    span = high - low
    if span <= 1e-12:
        return {h.id: 1.0 for h in hits}
    return {h.id: (h.score - low) / span for h in hits}


def fuse(
    dense: Sequence[ScoredId],
    bm25: Sequence[ScoredId],
    weights: FusionWeights,
    facts: Sequence[ScoredId] = (),
) -> list[ScoredId]:
    """Weighted sum of per-list min-max normalised scores; ties broken by id for determinism."""
    d, b = _normalise(dense), _normalise(bm25)
    f = {h.id: h.score for h in facts}
    combined = {
        cid: weights.dense * d.get(cid, 0.0)
        + weights.bm25 * b.get(cid, 0.0)
        + weights.facts * f.get(cid, 0.0)
        for cid in d.keys() | b.keys() | f.keys()
    }
    return [ScoredId(cid, s) for cid, s in sorted(combined.items(), key=lambda x: (-x[1], x[0]))]


def reciprocal_rank_fusion(*rankings: Sequence[ScoredId], k: int = 60) -> list[ScoredId]:
    """Plain equal-weight RRF over every channel given (each ranked by its own score, best
    first), kept as the baseline the fusion probe compares against."""
    scores: dict[str, float] = {}
    for channel in rankings:
        ranked = sorted(channel, key=lambda h: (-h.score, h.id))
        for rank, hit in enumerate(ranked, start=1):
            scores[hit.id] = scores.get(hit.id, 0.0) + 1.0 / (k + rank)
    return [ScoredId(cid, s) for cid, s in sorted(scores.items(), key=lambda x: (-x[1], x[0]))]


class SearchStore(Search, Corpus, Findings, Protocol):
    """The roles retrieval reads: ranked chunk ids, the chunks and documents, the findings."""


class HybridSearch:
    """Deal-scoped passage search; the embedder's id selects the vector index it reads."""

    def __init__(
        self,
        *,
        graph: SearchStore,
        embedder: Embedder | None,
        reranker: Reranker | None = None,
        weights: FusionWeights | None = None,
        pool: int = 40,
        expand_graph: bool = True,
        fusion: Literal["weighted", "rrf"] = "weighted",
    ) -> None:
        self._graph = graph
        self._embedder = embedder
        self._reranker = reranker
        self._weights = weights or FusionWeights()
        self._pool = pool
        self._expand_graph = expand_graph
        self._fusion = fusion  # "rrf" is the equal-weight baseline bench/fusion_probe.py measures
        # Per task, not per instance: concurrent questions must not swap their notices.
        self._last: ContextVar[SearchStats | None] = ContextVar(f"search:{id(self)}", default=None)

    @property
    def last(self) -> SearchStats:
        """What the last search of the current task used (notices of degraded channels)."""
        stats = self._last.get()
        if stats is None:
            stats = SearchStats()
            self._last.set(stats)
        return stats

    async def search(self, deal_id: str, query: str, k: int = 8) -> list[SearchHit]:
        """The `k` best passages of `deal_id` for `query`, best first."""
        if not query.strip():
            return []
        if k < 1:
            raise ValueError("k must be at least 1")
        self._last.set(SearchStats())
        dense, bm25 = await self._candidates(deal_id, query)
        # The findings channel takes part in either fusion (weight 0 turns it off in both).
        facts = await self._fact_matches(deal_id, query) if self._weights.facts else []
        self.last.facts = len(facts)
        if self._fusion == "rrf":
            fused = reciprocal_rank_fusion(dense, bm25, facts)
        else:
            fused = fuse(dense, bm25, self._weights, facts)
        head = fused[: max(k, self._pool // 2)]
        if self._expand_graph:
            head = await self._expand(deal_id, head, shown=k)
        hits = await self._hydrate(deal_id, head, dense, bm25)
        if self._reranker is not None and hits:
            hits = await self._rerank(query, hits, k)
        return hits[:k]

    async def _candidates(self, deal_id: str, query: str) -> tuple[list[ScoredId], list[ScoredId]]:
        bm25 = await self._graph.fulltext_search(deal_id, query, self._pool)
        dense: list[ScoredId] = []
        if self._embedder is not None:
            try:
                vector = (await self._embedder.embed([query], "query"))[0]
                dense = await self._graph.vector_search(
                    deal_id, self._embedder.id, vector, self._pool
                )
            except Exception as exc:  # degraded mode, said out loud
                log.warning(
                    "embedder %s unavailable, searching BM25 + graph only: %s",
                    self._embedder.id,
                    exc,
                )
                self.last.dense = False
                self.last.notices.append(
                    "Semantic search is unavailable right now; results come from keyword and "
                    "graph search only."
                )
        else:
            self.last.dense = False
        return dense, bm25

    async def _fact_matches(self, deal_id: str, query: str) -> list[ScoredId]:
        """Passages holding findings on the subject and period the question names."""
        subjects = {subject for subject, _, _ in find_subjects(query)}
        if not subjects:
            return []
        periods = {period for period, _, _ in find_periods(query)}
        best: dict[str, float] = {}
        for subject in sorted(subjects):
            for finding in await self._graph.list_findings(deal_id, subject=subject):
                if finding.chunk_id is None or finding.status is FindingStatus.REJECTED:
                    continue
                if periods and finding.period not in periods:
                    continue
                score = finding.confidence
                if finding.status is FindingStatus.SUPERSEDED:
                    score *= 0.5  # graph expansion brings the correction next to it
                best[finding.chunk_id] = max(best.get(finding.chunk_id, 0.0), score)
        return [ScoredId(cid, score) for cid, score in best.items()]

    async def _expand(self, deal_id: str, head: list[ScoredId], *, shown: int) -> list[ScoredId]:
        """Bring successors of superseded findings and both sides of conflicts into the results.

        Only the hits that will be shown are followed, and at most `shown // 2` (at least 2)
        passages are added: on real filings a broad fact ("revenue FY2023") can have dozens of
        related findings, and unbounded expansion pushed the real hits out (bench/fusion_probe.py).
        """
        score_of = {h.id: h.score for h in head}
        followed = [h.id for h in head[:shown]]
        findings = await self._graph.findings_for_chunks(deal_id, followed)
        if not findings:
            return head
        in_head = {f.id: f for f in findings}
        lifted: dict[str, float] = {}
        for rel in await self._graph.list_relations(deal_id, ids=list(in_head)):
            if rel.type is RelationType.SUPERSEDES and rel.target_id in in_head:
                origin, wanted = in_head[rel.target_id], rel.source_id  # old hit -> its successor
                factor = SUCCESSOR_FACTOR
            elif rel.type is RelationType.CONTRADICTS:
                near = rel.source_id if rel.source_id in in_head else rel.target_id
                origin = in_head[near]
                wanted = rel.target_id if near == rel.source_id else rel.source_id
                factor = CONFLICT_FACTOR
            else:
                continue
            if wanted in in_head:
                continue
            found = await self._graph.get_finding(deal_id, wanted)
            if found is None or found.chunk_id is None or found.status is FindingStatus.REJECTED:
                continue
            score = score_of.get(origin.chunk_id or "", 0.0) * factor
            if score > max(score_of.get(found.chunk_id, 0.0), lifted.get(found.chunk_id, 0.0)):
                lifted[found.chunk_id] = score
        strongest = dict(sorted(lifted.items(), key=lambda x: (-x[1], x[0]))[: max(2, shown // 2)])
        self.last.graph_added = len(strongest)
        merged = [h for h in head if h.id not in strongest]
        merged += [ScoredId(cid, s) for cid, s in strongest.items()]
        return sorted(merged, key=lambda h: (-h.score, h.id))

    async def _hydrate(
        self,
        deal_id: str,
        ranked: list[ScoredId],
        dense: Sequence[ScoredId],
        bm25: Sequence[ScoredId],
    ) -> list[SearchHit]:
        chunks = {c.id: c for c in await self._graph.get_chunks(deal_id, [h.id for h in ranked])}
        doc_names: dict[str, str | None] = {}
        dense_ids, bm25_ids = {h.id for h in dense}, {h.id for h in bm25}
        hits: list[SearchHit] = []
        for h in ranked:
            chunk = chunks.get(h.id)
            if chunk is None:
                continue
            if chunk.document_id not in doc_names:
                doc = await self._graph.get_document(deal_id, chunk.document_id)
                # a passage reached through a finding of a half-ingested document is not shown
                shown = doc is None or doc.status is DocumentStatus.COMPLETED
                doc_names[chunk.document_id] = (
                    (doc.filename if doc else chunk.document_id) if shown else None
                )
            name = doc_names[chunk.document_id]
            if name is None:
                continue
            via = [name for name, ids in (("vector", dense_ids), ("bm25", bm25_ids)) if h.id in ids]
            hits.append(
                SearchHit(
                    chunk_id=chunk.id,
                    document_id=chunk.document_id,
                    document=name,
                    location=chunk.location,
                    text=chunk.text,
                    score=round(h.score, 6),
                    via=via or ["graph"],
                )
            )
        return hits

    async def _rerank(self, query: str, hits: list[SearchHit], k: int) -> list[SearchHit]:
        assert self._reranker is not None
        try:
            results = await self._reranker.rerank(query, [h.text for h in hits], top_k=len(hits))
        except Exception as exc:
            log.warning("reranker %s unavailable, keeping fused order: %s", self._reranker.id, exc)
            self.last.notices.append("Reranking is unavailable right now; fused order kept.")
            return hits
        self.last.reranked = True
        return [
            hits[r.index].model_copy(
                update={"score": round(r.score, 6), "via": [*hits[r.index].via, "rerank"]}
            )
            for r in results
        ]
