"""A local Voyage AI API on 127.0.0.1, so the real `voyageai` SDK path runs with no network.

It answers `POST /v1/embeddings` and `POST /v1/rerank` in the shapes the SDK reads, checks
requests against the API's limits, records every request, and can be scripted to fail:

    async with FakeVoyageServer(api_key="test-key") as server:
        server.script(Fault(status=429, retry_after=0), Fault(delay=5.0))
        client = voyageai.AsyncClient(api_key="test-key", base_url=server.base_url)

Vectors are hashed bags of words (unit length), so texts that share words are close and every
run gives the same numbers; rerank scores are word-overlap cosines in [0, 1].
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import math
import re
from collections import deque
from dataclasses import dataclass
from typing import Any, Self

import numpy as np
from aiohttp import web

DEFAULT_DIMENSION = 1024
MAX_TEXTS_PER_REQUEST = 1000
MAX_DOCUMENTS_PER_RERANK = 1000
#: Voyage's published per-request token limits; models not listed get the smallest one.
TOKEN_LIMITS = {
    "voyage-3.5-lite": 1_000_000,
    "voyage-3.5": 320_000,
    "voyage-2": 320_000,
    "voyage-3-large": 120_000,
    "voyage-code-3": 120_000,
    "rerank-2.5": 600_000,
    "rerank-2.5-lite": 600_000,
}
DEFAULT_TOKEN_LIMIT = 120_000
OUTPUT_DIMENSIONS = (256, 512, 1024, 2048)
INPUT_TYPES = (None, "query", "document")

_WORD = re.compile(r"\w+")


def fake_token_count(text: str) -> int:
    """The fake's tokenizer: about four characters a token, like Voyage's on English text."""
    return max(1, math.ceil(len(text) / 4))


def _buckets(text: str, dimension: int) -> list[tuple[int, float]]:
    out = []
    for word in _WORD.findall(text.lower()):
        digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        out.append((value % dimension, 1.0 if (value >> 63) & 1 else -1.0))
    return out


def fake_embedding(text: str, dimension: int = DEFAULT_DIMENSION) -> np.ndarray:
    """The unit float32 vector the fake returns for `text` (a signed hashed bag of words)."""
    vector = np.zeros(dimension, dtype=np.float32)
    for bucket, sign in _buckets(text, dimension):
        vector[bucket] += sign
    norm = float(np.linalg.norm(vector))
    if norm == 0.0:
        vector[0] = 1.0  # no words: a fixed unit vector, never a zero one
        return vector
    return vector / norm


def fake_relevance(query: str, document: str) -> float:
    """The fake's rerank score: cosine of the two texts' word counts, in [0, 1]."""
    q, d = _word_counts(query), _word_counts(document)
    dot = sum(count * d.get(word, 0) for word, count in q.items())
    norm = math.sqrt(sum(c * c for c in q.values())) * math.sqrt(sum(c * c for c in d.values()))
    return dot / norm if norm else 0.0


def _word_counts(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for word in _WORD.findall(text.lower()):
        counts[word] = counts.get(word, 0) + 1
    return counts


@dataclass(frozen=True)
class Fault:
    """What the fake does to one request instead of (or before) answering it.

    `status` answers with that HTTP status (429 with `Retry-After` when `retry_after` is set,
    500/502/503/504, 401...); `delay` waits that many seconds first (to trip client timeouts).
    """

    status: int | None = None
    retry_after: int | None = None
    delay: float = 0.0
    detail: str = "Scripted failure of the fake Voyage API."


@dataclass
class RecordedRequest:
    path: str
    body: dict[str, Any]
    authorization: str | None
    client_port: int | None = None  # the same port on two requests: one reused connection
    status: int = 0  # the status the fake answered with (0 while in flight)


class _BadRequest(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


class FakeVoyageServer:
    """Voyage's REST API on a free port of 127.0.0.1; `base_url` is what the SDK takes.

    With `api_key` set, requests carrying another bearer token get 401 like the real API.
    """

    def __init__(self, *, api_key: str | None = None, host: str = "127.0.0.1") -> None:
        self.api_key = api_key
        self.host = host
        self.requests: list[RecordedRequest] = []
        self._faults: deque[Fault] = deque()
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._closing = asyncio.Event()

    @property
    def base_url(self) -> str:
        if self._port is None:
            raise RuntimeError("FakeVoyageServer is not started; use `async with` or start()")
        return f"http://{self.host}:{self._port}/v1"

    @property
    def embedding_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path == "/v1/embeddings"]

    @property
    def rerank_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path == "/v1/rerank"]

    def script(self, *faults: Fault) -> None:
        """Apply these faults, in order, to the next requests (one fault per request)."""
        self._faults.extend(faults)

    def fail_next(self, count: int, status: int, *, retry_after: int | None = None) -> None:
        self.script(*[Fault(status=status, retry_after=retry_after)] * count)

    def delay_next(self, count: int, seconds: float) -> None:
        self.script(*[Fault(delay=seconds)] * count)

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/v1/embeddings", self._embeddings)
        app.router.add_post("/v1/rerank", self._rerank)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self._port = self._runner.addresses[0][1]

    async def aclose(self) -> None:
        self._closing.set()  # wakes handlers sleeping on a scripted delay
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _embeddings(self, request: web.Request) -> web.Response:
        return await self._serve(request, _embeddings_result)

    async def _rerank(self, request: web.Request) -> web.Response:
        return await self._serve(request, _rerank_result)

    async def _serve(self, request: web.Request, answer: Any) -> web.Response:
        try:
            body = await request.json()
        except ValueError:
            body = None
        recorded = RecordedRequest(
            path=request.path,
            body=body if isinstance(body, dict) else {},
            authorization=request.headers.get("Authorization"),
            client_port=_client_port(request),
        )
        self.requests.append(recorded)
        response = await self._respond(recorded, body, answer)
        recorded.status = response.status
        return response

    async def _respond(self, recorded: RecordedRequest, body: Any, answer: Any) -> web.Response:
        fault = self._faults.popleft() if self._faults else None
        if fault is not None and fault.delay > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), timeout=fault.delay)
        if fault is not None and fault.status is not None:
            headers = {} if fault.retry_after is None else {"Retry-After": str(fault.retry_after)}
            return web.json_response({"detail": fault.detail}, status=fault.status, headers=headers)
        if self.api_key is not None and recorded.authorization != f"Bearer {self.api_key}":
            return web.json_response({"detail": "Provided API key is invalid."}, status=401)
        if not isinstance(body, dict):
            return web.json_response({"detail": "Request body must be a JSON object."}, status=400)
        try:
            return web.json_response(answer(body))
        except _BadRequest as bad:
            return web.json_response({"detail": bad.detail}, status=bad.status)


def _client_port(request: web.Request) -> int | None:
    peer = request.transport.get_extra_info("peername") if request.transport else None
    return peer[1] if isinstance(peer, tuple) and len(peer) >= 2 else None


def _token_limit(model: str) -> int:
    return TOKEN_LIMITS.get(model, DEFAULT_TOKEN_LIMIT)


def _embeddings_result(body: dict[str, Any]) -> dict[str, Any]:
    model = _required_str(body, "model")
    texts = body.get("input")
    if isinstance(texts, str):
        texts = [texts]
    if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
        raise _BadRequest(400, "`input` must be a non-empty string or list of strings.")
    if len(texts) > MAX_TEXTS_PER_REQUEST:
        raise _BadRequest(
            400,
            f"The batch size limit is {MAX_TEXTS_PER_REQUEST}. Your batch size is {len(texts)}.",
        )
    if body.get("input_type") not in INPUT_TYPES:
        raise _BadRequest(400, "`input_type` must be null, 'query' or 'document'.")
    dimension = body.get("output_dimension") or DEFAULT_DIMENSION
    if dimension not in OUTPUT_DIMENSIONS:
        raise _BadRequest(400, f"`output_dimension` must be one of {OUTPUT_DIMENSIONS}.")
    if body.get("output_dtype") not in (None, "float"):
        raise _BadRequest(400, "The fake Voyage API serves only output_dtype 'float'.")
    encoding = body.get("encoding_format")
    if encoding not in (None, "base64"):
        raise _BadRequest(400, "`encoding_format` must be null or 'base64'.")
    tokens = sum(fake_token_count(t) for t in texts)
    if tokens > _token_limit(model):
        raise _BadRequest(
            400,
            f"Request to model '{model}' failed. The max allowed tokens per submitted batch is "
            f"{_token_limit(model)}. Your batch has {tokens} tokens after truncation.",
        )
    data = []
    for index, text in enumerate(texts):
        vector = fake_embedding(text, dimension)
        embedding: Any = (
            base64.b64encode(vector.astype("<f4").tobytes()).decode()
            if encoding == "base64"
            else vector.tolist()
        )
        data.append({"object": "embedding", "embedding": embedding, "index": index})
    return {"object": "list", "data": data, "model": model, "usage": {"total_tokens": tokens}}


def _rerank_result(body: dict[str, Any]) -> dict[str, Any]:
    model = _required_str(body, "model")
    query = _required_str(body, "query")
    documents = body.get("documents")
    if (
        not isinstance(documents, list)
        or not documents
        or not all(isinstance(d, str) for d in documents)
    ):
        raise _BadRequest(400, "`documents` must be a non-empty list of strings.")
    if len(documents) > MAX_DOCUMENTS_PER_RERANK:
        raise _BadRequest(400, f"At most {MAX_DOCUMENTS_PER_RERANK} documents per request.")
    top_k = body.get("top_k")
    if top_k is not None and (not isinstance(top_k, int) or top_k < 1):
        raise _BadRequest(400, "`top_k` must be a positive integer.")
    query_tokens = fake_token_count(query)
    tokens = query_tokens * len(documents) + sum(fake_token_count(d) for d in documents)
    if tokens > _token_limit(model):
        raise _BadRequest(400, f"The max allowed tokens per request is {_token_limit(model)}.")
    scored = sorted(
        ((index, fake_relevance(query, doc)) for index, doc in enumerate(documents)),
        key=lambda pair: (-pair[1], pair[0]),
    )
    data = []
    for index, score in scored[:top_k]:
        item: dict[str, Any] = {"relevance_score": score, "index": index}
        if body.get("return_documents"):
            item["document"] = documents[index]
        data.append(item)
    return {"object": "list", "data": data, "model": model, "usage": {"total_tokens": tokens}}


def _required_str(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str):
        raise _BadRequest(400, f"`{key}` is required and must be a string.")
    return value
