"""Voyage down: search falls back to BM25 + graph and says so; its breaker stops the calls.

The app is wired as in production with its Voyage clients pointed at a local Voyage API that
answers every request with 503 (and `Retry-After: 0`, so retries cost no time).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from fixtures.resilience import external_call_errors

from manda.agent.context import AgentContext
from manda.agent.service import AnswerService
from manda.app import Manda
from manda.config import Settings
from manda.embed.port import Embedder, InputType
from manda.embed.voyage import VoyageEmbedder
from manda.errors import BackendUnavailableError
from manda.resilience import BreakerState, CircuitBreaker, CircuitOpenError
from manda.retrieval.hybrid import HybridSearch
from manda.testing.voyage_server import FakeVoyageServer

KEY = "test-key"
DEAL = "targetco"
SEMANTIC_DOWN = ("Semantic search is unavailable right now; results come from keyword and graph "
                 "search only.")
RERANK_DOWN = "Reranking is unavailable right now; fused order kept."


@pytest.fixture
async def server() -> AsyncIterator[FakeVoyageServer]:
    async with FakeVoyageServer(api_key=KEY) as running:
        yield running


def voyage_errors(app: Manda) -> float:
    return sum(external_call_errors(app.metrics, "Voyage").values())


async def test_answers_come_from_keyword_and_graph_search_and_say_so(
    home_copy: Path, server: FakeVoyageServer
) -> None:
    server.fail_next(1000, 503, retry_after=0)
    settings = Settings(MANDA_HOME=home_copy, VOYAGE_API_KEY=KEY, VOYAGE_BASE_URL=server.base_url)
    async with Manda(settings) as app:
        answer = await app.answers.ask(DEAL, "What was Q3 2024 EBITDA?")
        assert answer.answer.startswith("EBITDA was €1.1M in Q3 2024")
        assert {c.document for c in answer.citations} >= {"TargetCo_Q3_2024_Report.pdf"}
        assert SEMANTIC_DOWN in answer.notices and RERANK_DOWN in answer.notices

        breaker = app.breakers.get("Voyage")
        assert breaker.state is BreakerState.OPEN  # the embedder and reranker share it
        sent = len(server.requests)
        assert sent == breaker.failure_threshold == voyage_errors(app)

        again = await app.answers.ask(DEAL, "Who is the CEO?")
        assert len(server.requests) == sent  # open: no request leaves
        assert "Anna Schmidt" in again.answer and SEMANTIC_DOWN in again.notices


async def test_an_open_breaker_stops_the_retries_and_then_every_call(
    server: FakeVoyageServer,
) -> None:
    server.fail_next(1000, 503, retry_after=0)
    failures: list[BaseException] = []
    breaker = CircuitBreaker("Voyage", failure_threshold=2)
    embedder = VoyageEmbedder(api_key=KEY, base_url=server.base_url, max_retries=5,
                              breaker=breaker, on_error=failures.append)
    await embedder.start()
    try:
        with pytest.raises(BackendUnavailableError, match=r"after 2 attempt\(s\): HTTP 503"):
            await embedder.embed(["net debt"], "query")
        assert len(server.requests) == 2 and len(failures) == 2  # not 6: the breaker opened
        with pytest.raises(CircuitOpenError) as refused:
            await embedder.embed(["net debt"], "query")
        assert len(server.requests) == 2
        assert str(refused.value).startswith("Voyage is failing (2 errors in a row); not calling")
    finally:
        await embedder.aclose()


class FailingForOneQuestion:
    """An `Embedder` that fails (like Voyage down) for texts holding `word`, and holds the first
    two calls until both arrived, so two questions search at the same time."""

    def __init__(self, inner: Embedder, word: str) -> None:
        self._inner = inner
        self._word = word
        self.id, self.dimension = inner.id, inner.dimension
        self._arrived = 0
        self._both = asyncio.Event()

    async def start(self) -> None: ...
    async def aclose(self) -> None: ...

    async def embed(self, texts: Sequence[str], input_type: InputType) -> np.ndarray:
        self._arrived += 1
        if self._arrived >= 2:
            self._both.set()
        await self._both.wait()
        if any(self._word in text for text in texts):
            raise BackendUnavailableError("Voyage AI did not answer the embeddings request.")
        return await self._inner.embed(texts, input_type)


async def test_the_notice_goes_to_the_question_whose_search_failed(app: Manda) -> None:
    search = HybridSearch(graph=app.graph, embedder=FailingForOneQuestion(app.embedder, "EBITDA"))
    answers = AnswerService(AgentContext(graph=app.graph, search=search, memory=app.memory))
    failed, fine = await asyncio.gather(
        answers.ask(DEAL, "What was Q3 2024 EBITDA?"),
        answers.ask(DEAL, "Who is the CEO?"),
    )
    assert failed.notices == [SEMANTIC_DOWN] and failed.answer.startswith("EBITDA was €1.1M")
    assert fine.notices == [] and "Anna Schmidt" in fine.answer
