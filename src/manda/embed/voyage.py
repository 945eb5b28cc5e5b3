"""Voyage AI embeddings and rerank through the official `voyageai` SDK, within Voyage's limits.

`base_url` is the SDK's own: the API root including `/v1` (default `https://api.voyageai.com/v1`);
the SDK appends `/embeddings` and `/rerank`. Retries are tenacity's, on transient failures only
(429 honouring `Retry-After`, 5xx, timeouts, lost connections); the SDK's own retry is off.
Every attempt runs inside the "Voyage" circuit breaker when one is given: retries stop once it
opens, and while it is open no request is sent (`CircuitOpenError`, at once).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import aiohttp
import numpy as np
import voyageai
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
    wait_random,
)
from voyageai import error as voyage_error

from manda.embed.port import InputType, RerankResult
from manda.errors import BackendUnavailableError, MandaError
from manda.resilience.breaker import CircuitBreaker, CircuitOpenError
from manda.resilience.retry import stop_if_breaker_not_closed

ErrorSink = Callable[[BaseException], object]

T = TypeVar("T")

MAX_TEXTS_PER_REQUEST = 1000
MAX_DOCUMENTS_PER_RERANK = 1000
CONTEXT_TOKENS = 32_000  # each text is truncated to this many tokens (truncation=True)
CHARS_PER_TOKEN = 3  # a conservative estimate: Voyage's tokenizer averages more on English
#: Voyage's per-request token limits; a model not listed gets the smallest.
TOKEN_LIMITS = {
    "voyage-3.5-lite": 1_000_000,
    "voyage-3.5": 320_000,
    "voyage-2": 320_000,
    "voyage-3-large": 120_000,
    "voyage-code-3": 120_000,
    "rerank-2.5": 600_000,
    "rerank-2.5-lite": 600_000,
    "rerank-2": 600_000,
    "rerank-2-lite": 600_000,
}
DEFAULT_TOKEN_LIMIT = 100_000

TRANSIENT_ERRORS: tuple[type[Exception], ...] = (
    voyage_error.RateLimitError,
    voyage_error.ServiceUnavailableError,
    voyage_error.ServerError,
    voyage_error.Timeout,
    voyage_error.APIConnectionError,
)


class VoyageRequestError(MandaError):
    """Voyage refused a request (bad key, invalid input): retrying would not help."""


def estimate_tokens(text: str) -> int:
    return min(CONTEXT_TOKENS, max(1, math.ceil(len(text) / CHARS_PER_TOKEN)))


def plan_batches(costs: Sequence[int], *, max_items: int, max_cost: int) -> list[range]:
    """Consecutive spans of at most `max_items` items and `max_cost` summed cost (greedy).

    An item dearer than `max_cost` on its own still gets a span of its own.
    """
    spans: list[range] = []
    start, total = 0, 0
    for i, cost in enumerate(costs):
        if i > start and (i - start >= max_items or total + cost > max_cost):
            spans.append(range(start, i))
            start, total = i, 0
        total += cost
    if start < len(costs):
        spans.append(range(start, len(costs)))
    return spans


class _VoyageCaller:
    """One SDK client, one HTTP session and one retry policy, for one Voyage model."""

    def __init__(
        self,
        *,
        what: str,
        api_key: str,
        base_url: str | None,
        timeout: float,
        max_retries: int,
        backoff_initial: float,
        backoff_max: float,
        breaker: CircuitBreaker | None = None,
        on_error: ErrorSink | None = None,
    ) -> None:
        if not api_key:
            raise ValueError("A Voyage API key is required (VOYAGE_API_KEY)")
        if max_retries < 0 or timeout <= 0:
            raise ValueError("max_retries must be >= 0 and timeout > 0")
        self.base_url = base_url.rstrip("/") if base_url else None
        self._what = what
        # max_retries=0: the SDK makes exactly one attempt; retries are ours, below.
        self.client = voyageai.AsyncClient(
            api_key=api_key, max_retries=0, timeout=timeout, base_url=self.base_url
        )
        self._attempts = max_retries + 1
        self._backoff_max = backoff_max
        self._backoff = wait_exponential(multiplier=backoff_initial, max=backoff_max) + wait_random(
            0, backoff_initial
        )
        self._session: aiohttp.ClientSession | None = None
        self._start_lock = asyncio.Lock()
        self._breaker = breaker
        self._on_error = on_error

    async def start(self) -> None:
        async with self._start_lock:
            if self._session is None:
                self._session = aiohttp.ClientSession()

    async def aclose(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            await session.close()

    async def call(self, fn: Callable[..., Awaitable[T]], **kwargs: Any) -> T:
        if self._session is None:
            await self.start()
        stop = stop_after_attempt(self._attempts)
        if self._breaker is not None:
            stop = stop | stop_if_breaker_not_closed(self._breaker)
        retrying = AsyncRetrying(
            stop=stop,
            wait=self._wait,
            retry=retry_if_exception_type(TRANSIENT_ERRORS),
            reraise=True,
        )
        # The SDK reuses the session it finds in this context variable instead of opening one
        # per request.
        token = voyageai.aiosession.set(self._session)
        try:
            return await retrying(self._attempt, fn, **kwargs)
        except CircuitOpenError:
            raise
        except TRANSIENT_ERRORS as exc:
            raise BackendUnavailableError(
                f"Voyage AI did not answer the {self._what} request after "
                f"{retrying.statistics.get('attempt_number', self._attempts)} "
                f"attempt(s): {_describe(exc)}.",
                hint="Try again later; if it persists, check VOYAGE_BASE_URL and Voyage's status "
                "page, or unset VOYAGE_API_KEY to run with the offline embedder.",
            ) from exc
        except voyage_error.AuthenticationError as exc:
            raise VoyageRequestError(
                f"Voyage AI refused the API key for the {self._what} request: {_describe(exc)}.",
                hint="Check VOYAGE_API_KEY, or unset it to run with the offline embedder.",
            ) from exc
        except voyage_error.VoyageError as exc:
            raise VoyageRequestError(
                f"Voyage AI refused the {self._what} request: {_describe(exc)}."
            ) from exc
        finally:
            voyageai.aiosession.reset(token)

    async def _attempt(self, fn: Callable[..., Awaitable[T]], **kwargs: Any) -> T:
        try:
            if self._breaker is None:
                return await fn(**kwargs)
            return await self._breaker.call(fn, **kwargs)
        except CircuitOpenError:
            raise
        except Exception as exc:
            if self._on_error is not None:
                self._on_error(exc)
            raise

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome is not None else None
        retry_after = _retry_after(exc)
        wait = retry_after if retry_after is not None else self._backoff(state)
        return min(wait, self._backoff_max)


class _VoyageClient:
    """What the embedder and the reranker share: their caller opens and closes with them."""

    _caller: _VoyageCaller

    async def start(self) -> None:
        await self._caller.start()

    async def aclose(self) -> None:
        await self._caller.aclose()


def _retry_after(exc: BaseException | None) -> float | None:
    headers = getattr(exc, "headers", None)
    value = headers.get("Retry-After") if headers else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _describe(exc: BaseException) -> str:
    status = getattr(exc, "http_status", None)
    message = getattr(exc, "user_message", None) or str(exc) or type(exc).__name__
    return f"HTTP {status}, {message}" if status else f"{type(exc).__name__}, {message}"


class VoyageEmbedder(_VoyageClient):
    """Voyage embeddings (default `voyage-3.5` at 1024 dimensions), batched within its limits.

    `id` is `f"{model}-{dimension}"`. `embed()` before `start()` starts it on first use.
    """

    def __init__(
        self,
        *,
        api_key: str,
        model: str = "voyage-3.5",
        dimension: int = 1024,
        base_url: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff_initial: float = 1.0,
        backoff_max: float = 20.0,
        max_texts_per_request: int = MAX_TEXTS_PER_REQUEST,
        max_tokens_per_request: int | None = None,
        breaker: CircuitBreaker | None = None,
        on_error: ErrorSink | None = None,
    ) -> None:
        self.model = model
        self.dimension = dimension
        self.id = f"{model}-{dimension}"
        self._max_texts = max_texts_per_request
        self._max_tokens = max_tokens_per_request or TOKEN_LIMITS.get(model, DEFAULT_TOKEN_LIMIT)
        self._caller = _VoyageCaller(
            what=f"embeddings ({model})",
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            backoff_initial=backoff_initial,
            backoff_max=backoff_max,
            breaker=breaker,
            on_error=on_error,
        )

    async def embed(self, texts: Sequence[str], input_type: InputType) -> np.ndarray:
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        costs = [estimate_tokens(t) for t in texts]
        for span in plan_batches(costs, max_items=self._max_texts, max_cost=self._max_tokens):
            result = await self._caller.call(
                self._caller.client.embed,
                texts=[texts[i] for i in span],
                model=self.model,
                input_type=input_type,
                truncation=True,
                output_dimension=self.dimension,
            )
            vectors = np.asarray(result.embeddings, dtype=np.float32)
            if vectors.shape != (len(span), self.dimension):
                raise VoyageRequestError(
                    f"Voyage AI answered {self.model} embeddings of shape {vectors.shape} for "
                    f"{len(span)} texts; expected ({len(span)}, {self.dimension}).",
                    hint="Check that the model supports this output dimension.",
                )
            out[span.start : span.stop] = vectors
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.clip(norms, 1e-12, None)


class VoyageReranker(_VoyageClient):
    """Voyage rerank (default `rerank-2.5`): the `top_k` documents, best first.

    More documents than one request takes are reranked in several requests; Voyage's relevance
    scores are absolute, so the parts merge by score.
    """

    def __init__(
        self,
        *,
        api_key: str,
        model: str = "rerank-2.5",
        base_url: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff_initial: float = 1.0,
        backoff_max: float = 20.0,
        max_documents_per_request: int = MAX_DOCUMENTS_PER_RERANK,
        max_tokens_per_request: int | None = None,
        breaker: CircuitBreaker | None = None,
        on_error: ErrorSink | None = None,
    ) -> None:
        self.model = model
        self.id = model
        self._max_documents = max_documents_per_request
        self._max_tokens = max_tokens_per_request or TOKEN_LIMITS.get(model, DEFAULT_TOKEN_LIMIT)
        self._caller = _VoyageCaller(
            what=f"rerank ({model})",
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            backoff_initial=backoff_initial,
            backoff_max=backoff_max,
            breaker=breaker,
            on_error=on_error,
        )

    async def rerank(self, query: str, documents: Sequence[str], top_k: int) -> list[RerankResult]:
        if not documents or top_k < 1:
            return []
        query_tokens = estimate_tokens(query)  # billed once per document
        costs = [query_tokens + estimate_tokens(d) for d in documents]
        results: list[RerankResult] = []
        for span in plan_batches(costs, max_items=self._max_documents, max_cost=self._max_tokens):
            answer = await self._caller.call(
                self._caller.client.rerank,
                query=query,
                documents=[documents[i] for i in span],
                model=self.model,
                top_k=min(top_k, len(span)),
                truncation=True,
            )
            results.extend(
                RerankResult(index=span.start + r.index, score=float(r.relevance_score))
                for r in answer.results
            )
        results.sort(key=lambda r: (-r.score, r.index))
        return results[:top_k]
