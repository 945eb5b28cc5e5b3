"""The search bench measures hybrid search, all of it: its store's vectors are the configured
embedder's, and a search that ran without a channel stops it instead of being timed."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from search_bench import ChannelMissing, build, channels_took_part

from manda.embed.offline import OfflineEmbedder
from manda.kg.embedded import EmbeddedKnowledgeGraph
from manda.retrieval.hybrid import HybridSearch


async def test_the_bench_store_is_searched_with_every_channel_and_stops_without_one(
        tmp_path: Path) -> None:
    embedder = OfflineEmbedder()
    graph = EmbeddedKnowledgeGraph(tmp_path / "bench.db")
    await graph.start()
    await embedder.start()
    try:
        await build(graph, 500, embedder)
        assert await graph.embedded_chunk_ids("bench", embedder.id)  # the configured one's
        search = HybridSearch(graph=graph, embedder=embedder)
        await search.search("bench", "pending litigation", k=5)
        channels_took_part(search, "pending litigation", findings=False)  # passes

        other = EmbeddedKnowledgeGraph(tmp_path / "other.db")
        await other.start()
        await other.upsert_deal(await graph.get_deal("bench"))  # type: ignore[arg-type]
        documents = await graph.list_documents("bench")
        await other.upsert_document(documents[0])
        chunks = await graph.list_chunks("bench", documents[0].id)
        await other.add_chunks("bench", chunks)
        vectors = np.ones((len(chunks), embedder.dimension), dtype=np.float32)
        await other.add_vectors("bench", "another-embedder", [c.id for c in chunks], vectors)
        blind = HybridSearch(graph=other, embedder=embedder)
        await blind.search("bench", "pending litigation", k=5)
        with pytest.raises(ChannelMissing, match="the dense channel took no part"):
            channels_took_part(blind, "pending litigation", findings=False)
        await other.aclose()
    finally:
        await embedder.aclose()
        await graph.aclose()
