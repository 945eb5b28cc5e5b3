"""The Voyage adapters drive the real voyageai SDK against a local fake of Voyage's REST API."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import numpy as np
import pytest

from manda.embed.port import Embedder, Reranker, RerankResult
from manda.embed.voyage import (
    VoyageEmbedder,
    VoyageRequestError,
    VoyageReranker,
    estimate_tokens,
    plan_batches,
)
from manda.errors import BackendUnavailableError
from manda.testing.voyage_server import FakeVoyageServer, Fault, fake_embedding, fake_relevance

KEY = "test-key"
FAST = {"backoff_initial": 0.001, "backoff_max": 0.01}


@pytest.fixture
async def server() -> AsyncIterator[FakeVoyageServer]:
    async with FakeVoyageServer(api_key=KEY) as running:
        yield running


@pytest.fixture
async def embedder(server: FakeVoyageServer) -> AsyncIterator[VoyageEmbedder]:
    adapter = VoyageEmbedder(api_key=KEY, base_url=server.base_url, max_retries=2, **FAST)
    await adapter.start()
    yield adapter
    await adapter.aclose()


def _reranker(server: FakeVoyageServer, **kwargs: Any) -> VoyageReranker:
    return VoyageReranker(api_key=KEY, base_url=server.base_url, **FAST, **kwargs)


async def test_texts_are_embedded_in_requests_of_at_most_1000(
    server: FakeVoyageServer, embedder: VoyageEmbedder
) -> None:
    texts = [f"clause {i} of the share purchase agreement" for i in range(2500)]

    vectors = await embedder.embed(texts, "document")

    assert [len(r.body["input"]) for r in server.embedding_requests] == [1000, 1000, 500]
    assert vectors.shape == (2500, 1024)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(vectors[1234], fake_embedding(texts[1234]), atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    first = server.embedding_requests[0]
    assert first.authorization == f"Bearer {KEY}"
    assert first.body["model"] == "voyage-3.5"
    assert first.body["output_dimension"] == 1024
    assert first.body["truncation"] is True
    # the adapter's own HTTP session: one kept-alive connection for every batch
    assert len({r.client_port for r in server.embedding_requests}) == 1


async def test_long_texts_are_split_by_the_token_budget(
    server: FakeVoyageServer, embedder: VoyageEmbedder
) -> None:
    texts = ["revenue " * 375] * 400  # 3,000 characters: 1,000 tokens by the estimate

    vectors = await embedder.embed(texts, "document")

    sizes = [len(r.body["input"]) for r in server.embedding_requests]
    assert sizes == [320, 80]
    assert all(sum(estimate_tokens(t) for t in r.body["input"]) <= 320_000
               for r in server.embedding_requests)
    assert vectors.shape == (400, 1024)


def test_a_text_over_the_budget_goes_alone() -> None:
    assert plan_batches([5, 50, 5, 5], max_items=10, max_cost=20) == [
        range(0, 1),
        range(1, 2),
        range(2, 4),
    ]
    assert plan_batches([], max_items=10, max_cost=20) == []


async def test_input_type_and_dimension_reach_the_api(server: FakeVoyageServer) -> None:
    embedder = VoyageEmbedder(api_key=KEY, base_url=server.base_url + "/", dimension=256)
    try:
        query = await embedder.embed(["What was Q3 revenue?"], "query")
        docs = await embedder.embed(["Q3 revenue was €5.2M", "The CEO is Anna"], "document")
    finally:
        await embedder.aclose()

    assert isinstance(embedder, Embedder)
    assert embedder.id == "voyage-3.5-256"
    assert [r.body["input_type"] for r in server.embedding_requests] == ["query", "document"]
    assert [r.body["output_dimension"] for r in server.embedding_requests] == [256, 256]
    assert query.shape == (1, 256)
    scores = docs @ query[0]
    assert scores[0] > scores[1]


async def test_nothing_to_embed_makes_no_request(
    server: FakeVoyageServer, embedder: VoyageEmbedder
) -> None:
    vectors = await embedder.embed([], "query")
    assert vectors.shape == (0, 1024)
    assert server.requests == []


async def test_rate_limits_are_retried_until_they_pass(
    server: FakeVoyageServer, embedder: VoyageEmbedder
) -> None:
    server.fail_next(2, 429, retry_after=0)

    vectors = await embedder.embed(["net debt at closing"], "document")

    assert [r.status for r in server.requests] == [429, 429, 200]
    np.testing.assert_allclose(vectors[0], fake_embedding("net debt at closing"), atol=1e-6)


@pytest.mark.parametrize("status", [500, 503])
async def test_a_service_that_keeps_failing_gives_a_clear_error(
    server: FakeVoyageServer, embedder: VoyageEmbedder, status: int
) -> None:
    server.fail_next(10, status)

    with pytest.raises(BackendUnavailableError) as raised:
        await embedder.embed(["working capital"], "document")

    assert len(server.requests) == 3  # one attempt and max_retries=2 retries
    message = str(raised.value)
    assert "Voyage AI did not answer the embeddings (voyage-3.5) request after 3" in message
    assert f"HTTP {status}" in message
    assert "VOYAGE_API_KEY" in message


async def test_a_request_that_outlives_the_timeout_raises(server: FakeVoyageServer) -> None:
    server.delay_next(5, 30.0)
    embedder = VoyageEmbedder(
        api_key=KEY, base_url=server.base_url, timeout=0.2, max_retries=1, **FAST
    )
    try:
        with pytest.raises(BackendUnavailableError, match=r"after 2 attempt.*Timeout"):
            await embedder.embed(["headcount"], "query")
    finally:
        await embedder.aclose()

    assert len(server.requests) == 2


async def test_a_refused_key_is_not_retried_and_says_what_to_check(
    server: FakeVoyageServer,
) -> None:
    embedder = VoyageEmbedder(api_key="wrong-key", base_url=server.base_url, **FAST)
    try:
        with pytest.raises(VoyageRequestError, match="refused the API key") as raised:
            await embedder.embed(["capex"], "document")
    finally:
        await embedder.aclose()

    assert "Check VOYAGE_API_KEY" in str(raised.value)
    assert len(server.requests) == 1


async def test_an_invalid_request_is_reported_with_voyages_reason(
    server: FakeVoyageServer,
) -> None:
    embedder = VoyageEmbedder(
        api_key=KEY, base_url=server.base_url, max_texts_per_request=1500, **FAST
    )
    try:
        with pytest.raises(VoyageRequestError, match="batch size limit is 1000"):
            await embedder.embed(["x"] * 1200, "document")
    finally:
        await embedder.aclose()

    assert [r.status for r in server.requests] == [400]


async def test_rerank_returns_the_top_k_best_first(server: FakeVoyageServer) -> None:
    documents = [
        "The CEO is Anna Schmidt",
        "Revenue for the third quarter was 5.2M",
        "Third quarter revenue grew; third quarter revenue was 5.2M",
        "The office lease ends in 2027",
    ]
    query = "third quarter revenue"
    reranker = _reranker(server)
    try:
        results = await reranker.rerank(query, documents, top_k=2)
    finally:
        await reranker.aclose()

    assert isinstance(reranker, Reranker)
    assert reranker.id == "rerank-2.5"
    assert [r.index for r in results] == [2, 1]
    assert results[0].score == pytest.approx(fake_relevance(query, documents[2]))
    assert results[0].score > results[1].score
    request = server.rerank_requests[0]
    assert request.body["model"] == "rerank-2.5"
    assert request.body["top_k"] == 2
    assert request.body["documents"] == documents


async def test_rerank_over_several_requests_merges_by_score(server: FakeVoyageServer) -> None:
    documents = [f"item {i} " + "revenue " * (i % 4) + "cost " * (3 - i % 4) for i in range(7)]
    split = _reranker(server, max_documents_per_request=3)
    whole = _reranker(server)
    try:
        merged = await split.rerank("revenue", documents, top_k=4)
        single = await whole.rerank("revenue", documents, top_k=4)
    finally:
        await split.aclose()
        await whole.aclose()

    assert [len(r.body["documents"]) for r in server.rerank_requests] == [3, 3, 1, 7]
    assert merged == single
    assert all(isinstance(r, RerankResult) for r in merged)


async def test_rerank_of_nothing_makes_no_request(server: FakeVoyageServer) -> None:
    reranker = _reranker(server)
    assert await reranker.rerank("q", [], top_k=5) == []
    assert await reranker.rerank("q", ["a"], top_k=0) == []
    assert server.requests == []


async def test_rerank_retries_a_rate_limit_then_answers(server: FakeVoyageServer) -> None:
    server.script(Fault(status=429, retry_after=0))
    reranker = _reranker(server)
    try:
        results = await reranker.rerank("ebitda", ["ebitda margin", "headcount"], top_k=5)
    finally:
        await reranker.aclose()

    assert [r.index for r in results] == [0, 1]
    assert [r.status for r in server.requests] == [429, 200]
