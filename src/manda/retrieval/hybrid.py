"""Hybrid search over one deal: dense vectors + BM25, fused by weighted scores, then the graph.

Template method in the neo4j-graphrag manner: `search()` validates, splits a compound question
into sub-queries (`compound.py`), `_candidates()` gathers the vector and full-text lists (the
full-text query carries the question's line-item equivalents, `manda.finance.equivalents`),
`fuse()` combines them, `_expand()` follows the knowledge graph (a hit on a superseded finding
brings its successor; a conflict brings both sides), pages of the statement the question names or
implies are favoured (`manda.finance.statements`, labelled at ingestion), and hits are merged per
location so the top k are k distinct pages, slides or tables. An optional reranker reorders the
head. Weights were measured, not guessed: `bench/fusion_probe.py` runs the sample deal and the
real-filings probe, judged on its held-out half (figures in the README).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Literal, Protocol

from manda.embed.port import Embedder, Reranker
from manda.finance.statements import (
    line_item_matcher,
)
from manda.ingest.chunking import shown_text
from manda.kg.port import Corpus, Findings, ScoredId, Search
from manda.models import Chunk, DocumentStatus, FindingStatus, RelationType, SearchHit
from manda.retrieval.aliases import with_aliases
from manda.retrieval.hits import chunk_hit, chunk_statements
from manda.retrieval.query import SearchQuery, name_words, read_query

log = logging.getLogger(__name__)


SUCCESSOR_FACTOR = 0.95  # a corrected figure sits right under the superseded hit
CONFLICT_FACTOR = 0.5  # the other side of a conflict: lower, or false conflicts crowd out hits
SUB_QUERY_FACTOR = 0.9  # a sub-query's best hit sits just under the whole question's


@dataclass(frozen=True)
class Routing:
    """Score added to pages of the statement a question names outright, or only implies, and
    to the passages of the document(s) a question names ("Target's net sales", "the FY2023
    report"): in a room of several companies' filings, the name decides the page."""

    named: float = 0.3
    implied: float = 0.2
    document: float = 0.5
    line_item: float = 0.1  # a passage with a table row of the line item asked ("Inventories 12")


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
    sub_queries: list[str] = field(default_factory=list)
    statements: list[str] = field(default_factory=list)
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
        pool: int = 60,
        expand_graph: bool = True,
        fusion: Literal["weighted", "rrf"] = "weighted",
        expand_vocabulary: bool = True,
        routing: Routing | None = Routing(),
        split_compound: bool = True,
        sibling_weight: float = 0.0,
    ) -> None:
        self._graph = graph
        self._embedder = embedder
        self._reranker = reranker
        self._weights = weights or FusionWeights()
        self._pool = pool
        self._expand_graph = expand_graph
        self._fusion = fusion  # "rrf" is the equal-weight baseline bench/fusion_probe.py measures
        self._expand_vocabulary = expand_vocabulary
        self._routing = routing
        self._split_compound = split_compound
        self._unindexed_said: set[tuple[str, str]] = set()
        # a location's other chunks add this share of their scores (0: ranked by its best chunk;
        # 0.1 and 0.3 lost on the probe's dev half)
        self._sibling_weight = sibling_weight
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

    async def warm(self, deal_id: str) -> None:
        """Open the deal's indexes (keyword, and this embedder's vectors) before its first
        question, read a question once (the vocabulary's patterns compile on first use: most of
        a second) and embed one, so nobody waits for any of it."""
        embedder_id = self._embedder.id if self._embedder is not None else ""
        await self._graph.warm_search(deal_id, embedder_id)
        await asyncio.to_thread(read_a_question)
        if self._embedder is not None:  # its first run sets up what later runs reuse
            await self._embedder.embed(["What was revenue last quarter?"], "query")

    async def search(
        self, deal_id: str, query: str, k: int = 8, *, distinct: bool = True
    ) -> list[SearchHit]:
        """The `k` best passages of `deal_id` for `query`, best first.

        With `distinct` (the default) they are `k` distinct locations: the chunks of one page,
        slide or table are merged into its best one, so one page cannot crowd out the rest.
        """
        if not query.strip():
            return []
        if k < 1:
            raise ValueError("k must be at least 1")
        deal = await self._graph.get_deal(deal_id)
        if deal is not None and deal.entity_links:  # names the team said are one entity
            query = with_aliases(query, deal.entity_links)
        stats = SearchStats()
        self._last.set(stats)
        reading = read_query(query)  # the query read once: this search reads nothing else of it
        queries = [reading]
        if self._split_compound:
            stats.sub_queries = list(reading.sub_queries)
            queries += [read_query(q) for q in reading.sub_queries]
        dense_ids: set[str] = set()
        bm25_ids: set[str] = set()
        channels: dict[str, dict[str, float]] = {}  # chunk -> channel -> its best raw score
        lists: list[list[ScoredId]] = []
        shown = max(k * 4, self._pool) if distinct else max(k, self._pool // 2)
        # the question and its sub-queries at once: one's embedding runs while another's
        # keyword and findings reads do (results are fused in the questions' order below)
        found = await asyncio.gather(*(self._channels(deal_id, q, shown) for q in queries))
        for dense, bm25, facts in found:
            dense_ids.update(h.id for h in dense)
            bm25_ids.update(h.id for h in bm25)
            stats.facts += len(facts)
            for name, found in (("vector", dense), ("bm25", bm25), ("findings", facts)):
                for h in found:
                    mine = channels.setdefault(h.id, {})
                    mine[name] = max(mine.get(name, float("-inf")), round(h.score, 6))
            if self._fusion == "rrf":
                lists.append(reciprocal_rank_fusion(dense, bm25, facts))
            else:
                lists.append(fuse(dense, bm25, self._weights, facts))
        fused = lists[0] if len(lists) == 1 else merge_sub_queries(lists)
        head = fused[:shown]
        if self._expand_graph:
            head = await self._expand(deal_id, head, shown=k)
        chunks = {c.id: c for c in await self._graph.get_chunks(deal_id, [h.id for h in head])}
        names = await self._graph.document_names(deal_id)
        if self._routing is not None:
            head = self._route(reading, head, chunks)
            if self._routing.document > 0:
                head = self._route_documents(reading, head, chunks, names)
        siblings: dict[str, list[Chunk]] = {}
        if distinct and self._sibling_weight > 0:
            head = aggregate_locations(head, chunks, self._sibling_weight)
        if distinct:
            siblings = location_groups(head, chunks)
            head = distinct_locations(head, chunks)
        hits = await self._hydrate(deal_id, head, chunks, names, dense_ids, bm25_ids)
        hits = [h.model_copy(update={"channel_scores": channels[h.chunk_id]})
                if h.chunk_id in channels else h for h in hits]
        if siblings:  # a merged location shows every retrieved passage of it, in reading order
            hits = [h.model_copy(update={"text": "\n".join(
                shown_text(c) for c in sorted(siblings[h.chunk_id], key=lambda c: c.ordinal))})
                if len(siblings.get(h.chunk_id, ())) > 1 else h for h in hits]
        if self._reranker is not None and hits:
            hits = await self._rerank(query, hits[: max(k, self._pool // 2)], k)
        return hits[:k]

    def _route(
        self, query: SearchQuery, head: list[ScoredId], chunks: dict[str, Chunk]
    ) -> list[ScoredId]:
        """Lift the pages labelled (at ingestion) as the statement the question needs."""
        assert self._routing is not None
        wanted, named = query.statements, query.statement_named
        items = list(query.line_items)
        self.last.statements = [str(kind) for kind in wanted]
        bonus = self._routing.named if named else self._routing.implied
        row_bonus = self._routing.line_item if items else 0.0
        if (not wanted or bonus <= 0) and row_bonus <= 0:
            return head
        states = line_item_matcher(items)

        def lift(chunk: Chunk) -> float:
            extra = bonus if wanted and set(wanted) & set(chunk_statements(chunk)) else 0.0
            if row_bonus and states(shown_text(chunk)):
                extra += row_bonus
            return extra

        routed = [ScoredId(h.id, h.score + lift(chunks[h.id])) if h.id in chunks else h
                  for h in head]
        return sorted(routed, key=lambda h: (-h.score, h.id))

    def _route_documents(
        self, query: SearchQuery, head: list[ScoredId], chunks: dict[str, Chunk],
        names: Mapping[str, str],
    ) -> list[ScoredId]:
        """Lift the passages of the documents whose names the question uses."""
        assert self._routing is not None
        named = named_documents(query.name_words, names)
        if not named:
            return head
        bonus = self._routing.document
        routed = [
            ScoredId(h.id, h.score + bonus)
            if h.id in chunks and chunks[h.id].document_id in named
            else h
            for h in head
        ]
        return sorted(routed, key=lambda h: (-h.score, h.id))

    async def _channels(self, deal_id: str, query: SearchQuery, shown: int
                        ) -> tuple[list[ScoredId], list[ScoredId], list[ScoredId]]:
        """Dense, keyword and findings candidates of one question or sub-query."""
        dense, bm25 = await self._candidates(deal_id, query)
        # The findings channel takes part in either fusion (weight 0 turns it off in both).
        facts = (await self._fact_matches(deal_id, query, [*dense, *bm25], shown)
                 if self._weights.facts else [])
        return dense, bm25, facts

    async def _candidates(self, deal_id: str, query: SearchQuery
                          ) -> tuple[list[ScoredId], list[ScoredId]]:
        keywords = query.text
        if self._expand_vocabulary:
            keywords = " ".join([query.text, *(f'"{phrase}"' for phrase in query.expansions)])
        bm25 = await self._graph.fulltext_search(deal_id, keywords, self._pool)
        dense: list[ScoredId] = []
        if self._embedder is not None:
            try:
                vector = (await self._embedder.embed([query.text], "query"))[0]
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
                notice = ("Semantic search is unavailable right now; results come from keyword "
                          "and graph search only.")
                if notice not in self.last.notices:  # once, however many sub-queries ran
                    self.last.notices.append(notice)
            else:
                if not dense and bm25:
                    self._say_unindexed(deal_id, self._embedder.id)
        else:
            self.last.dense = False
        return dense, bm25

    def _say_unindexed(self, deal_id: str, embedder_id: str) -> None:
        """Passages match by keyword but none has a vector for this embedder: the deal was
        embedded by another one (a switch of embedder) and reads by keywords until reindexed."""
        self.last.dense = False
        if (deal_id, embedder_id) not in self._unindexed_said:  # once a process
            self._unindexed_said.add((deal_id, embedder_id))
            log.warning(
                "deal %s has no vectors for embedder %s (embedded by another one?): searching "
                "BM25 + graph only until `manda reindex --deal %s`",
                deal_id, embedder_id, deal_id,
            )
        notice = ("Semantic search has no index for this deal yet; results come from keyword "
                  "and graph search only.")
        if notice not in self.last.notices:
            self.last.notices.append(notice)

    async def _fact_matches(self, deal_id: str, query: SearchQuery, found: Sequence[ScoredId],
                            shown: int) -> list[ScoredId]:
        """Passages holding findings on the subject and period the question names: those the
        other channels `found`, and the `shown` strongest of the rest — all a head of `shown`
        passages can take from this channel, whose other passages score alike and below them
        (the store reads no more: a line item restated on every page of a 100,000-page room has
        ~150,000 findings)."""
        subjects = sorted(query.expanded_subjects if self._expand_vocabulary else query.subjects)
        if not subjects:
            return []
        return await self._graph.fact_chunks(deal_id, subjects, sorted(query.periods),
                                             among=[h.id for h in found], limit=shown)

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
        chunks: dict[str, Chunk],
        names: Mapping[str, str],
        dense_ids: set[str],
        bm25_ids: set[str],
    ) -> list[SearchHit]:
        # completed documents by name (`names`); any other is looked at alone (rarely any)
        doc_names: dict[str, str | None] = dict(names)
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
            hits.append(chunk_hit(chunk, name, via=via or ["graph"], score=round(h.score, 6)))
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
                update={"score": round(r.score, 6), "via": [*hits[r.index].via, "rerank"],
                        "channel_scores": {**hits[r.index].channel_scores,
                                           "rerank": round(r.score, 6)}}
            )
            for r in results
        ]


def read_a_question(question: str = "What was the gross margin trend of Q3 2024 revenue and "
                                     "capex in the FY2024 cash flow statement?") -> None:
    """Read a question the way search does, for its side effects only: every pattern of the
    vocabulary, line items and statements compiled and cached before the first real one."""
    reading = read_query(question)
    line_item_matcher(list(reading.line_items))("Revenue 5,200")


def merge_sub_queries(lists: Sequence[Sequence[ScoredId]]) -> list[ScoredId]:
    """One list from the question's and its sub-queries' fused lists.

    Each list is scaled so its best hit scores 1 (a sub-query's at SUB_QUERY_FACTOR), and a
    chunk keeps its best scaled score: every part of the question brings its best pages.
    """
    best: dict[str, float] = {}
    for position, ranked in enumerate(lists):
        if not ranked:
            continue
        top = max(h.score for h in ranked) or 1.0
        factor = 1.0 if position == 0 else SUB_QUERY_FACTOR
        for h in ranked:
            score = factor * h.score / top
            if score > best.get(h.id, float("-inf")):
                best[h.id] = score
    return [ScoredId(cid, s) for cid, s in sorted(best.items(), key=lambda x: (-x[1], x[0]))]


def named_documents(asked: frozenset[str], names: Mapping[str, str]) -> set[str]:
    """The ids of the documents the question names best, by the distinctive words of their file
    names (`asked`: the question's name words; `names`: file name by document id).

    A word in every document's name ("10-K" in a room of 10-Ks) names none of them; a word in
    one names that one strongly (weight log(n / df)). The documents with the highest total win;
    none when the question uses no distinctive name word.
    """
    if len(names) < 2:
        return set()
    index = NameIndex.of(names)
    n = len(names)
    distinctive = {w for w in asked if 0 < index.df.get(w, 0) < n}
    # A year or number alone ("FY2023") is a period, not a name: it only adds to a named word.
    if not any(not w.isdigit() for w in distinctive):
        return set()
    candidates = {doc_id for w in distinctive if not w.isdigit() for doc_id in index.holders[w]}
    score = {doc_id: sum(math.log(n / index.df[w]) for w in index.words[doc_id] & distinctive)
             for doc_id in candidates}
    best = max(score.values())
    return {doc_id for doc_id, value in score.items() if value >= best - 1e-9}


@dataclass(frozen=True)
class NameIndex:
    """The name words of a deal's documents: each one's words, in how many names each word is,
    and which documents hold it — built once for a set of names, not on every question."""

    words: dict[str, set[str]]
    df: dict[str, int]
    holders: dict[str, list[str]]

    @classmethod
    def of(cls, names: Mapping[str, str]) -> NameIndex:
        kept = _NAME_INDEXES.get(id(names))
        if kept is not None and kept[0] is names:  # a store hands out one mapping until its
            return kept[1]                          # documents change
        words = {doc_id: name_words(filename) for doc_id, filename in names.items()}
        holders: dict[str, list[str]] = {}
        for doc_id, found in words.items():
            for word in found:
                holders.setdefault(word, []).append(doc_id)
        index = cls(words, {w: len(ids) for w, ids in holders.items()}, holders)
        _NAME_INDEXES[id(names)] = (names, index)  # kept alive here, so its id stays its own
        while len(_NAME_INDEXES) > NAME_INDEXES_KEPT:
            del _NAME_INDEXES[next(iter(_NAME_INDEXES))]
        return index


NAME_INDEXES_KEPT = 16  # deals whose name indexes one process keeps
_NAME_INDEXES: dict[int, tuple[Mapping[str, str], NameIndex]] = {}


def location_key(chunk: Chunk) -> tuple[str, str, str]:
    """One key per cited place: a page, a slide (its notes apart), a heading, a cell range.

    A table split into row ranges keeps each range apart: other rows are other figures, not a
    near-duplicate (the answer evals lost a census row when a sheet's ranges were merged).
    """
    return chunk.document_id, str(chunk.location.kind), chunk.location.label


def distinct_locations(ranked: Sequence[ScoredId], chunks: dict[str, Chunk]) -> list[ScoredId]:
    """The best chunk of each location, in rank order; the others of its location are dropped."""
    seen: set[tuple[str, str, str]] = set()
    out: list[ScoredId] = []
    for h in ranked:
        chunk = chunks.get(h.id)
        if chunk is None:
            continue
        key = location_key(chunk)
        if key not in seen:
            seen.add(key)
            out.append(h)
    return out


def aggregate_locations(
    ranked: Sequence[ScoredId], chunks: dict[str, Chunk], weight: float
) -> list[ScoredId]:
    """Each location's best chunk scored its own score plus `weight` times its siblings'."""
    lead: dict[tuple[str, str, str], str] = {}
    extra: dict[str, float] = {}
    for h in sorted(ranked, key=lambda h: (-h.score, h.id)):
        chunk = chunks.get(h.id)
        if chunk is None:
            continue
        first = lead.setdefault(location_key(chunk), h.id)
        if first != h.id:
            extra[first] = extra.get(first, 0.0) + weight * h.score
    out = [ScoredId(h.id, h.score + extra.get(h.id, 0.0)) for h in ranked]
    return sorted(out, key=lambda h: (-h.score, h.id))


def location_groups(ranked: Sequence[ScoredId], chunks: dict[str, Chunk]) -> dict[str, list[Chunk]]:
    """For the best chunk of each location, every ranked chunk of that location (itself too)."""
    best: dict[tuple[str, str, str], str] = {}
    groups: dict[str, list[Chunk]] = {}
    for h in ranked:
        chunk = chunks.get(h.id)
        if chunk is None:
            continue
        lead = best.setdefault(location_key(chunk), h.id)
        groups.setdefault(lead, []).append(chunk)
    return groups


