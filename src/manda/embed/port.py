"""Embedding and rerank ports: the offline embedder by default, Voyage when configured."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

import numpy as np

InputType = Literal["document", "query"]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension.

    `id` names the vector space (model and dimension); the store keeps one index per id and
    never compares vectors of two ids.
    """

    id: str
    dimension: int

    async def start(self) -> None: ...
    async def aclose(self) -> None: ...
    async def embed(self, texts: Sequence[str], input_type: InputType) -> np.ndarray: ...


@dataclass(frozen=True)
class RerankResult:
    index: int  # position in the documents passed in
    score: float


@runtime_checkable
class Reranker(Protocol):
    id: str

    async def start(self) -> None: ...
    async def aclose(self) -> None: ...
    async def rerank(
        self, query: str, documents: Sequence[str], top_k: int
    ) -> list[RerankResult]: ...
