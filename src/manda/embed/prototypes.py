"""Vectors of a few fixed texts (topic prototypes), embedded once per embedder and kept.

The vocabulary's topics each carry a short description; a passage is recognised as a topic by
its meaning when its vector is close to that description's vector, scored with the embedder the
deal already uses. Those vectors never change for one embedder, so they are embedded once per
embedder id (two embedders' vectors are never mixed, as in the store) and reused by every deal
and every question. Only texts not yet seen are sent to the embedder, in one call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np

from manda.embed.port import Embedder, InputType


class TextVectors:
    """A cache of fixed texts' vectors, by (embedder id, input type, text).

    `input_type` defaults to "query": a prototype describes what is looked for, as a question
    does, and is compared with passages embedded as documents (E5 reads "query: " before it).
    """

    def __init__(self) -> None:
        self._vectors: dict[tuple[str, InputType, str], np.ndarray] = {}
        self._lock = asyncio.Lock()

    async def vectors(
        self, embedder: Embedder, texts: Sequence[str], input_type: InputType = "query"
    ) -> np.ndarray:
        """Unit vectors of `texts` ([len(texts), dimension], read-only), embedded at most once."""
        if not texts:
            return np.empty((0, embedder.dimension), dtype=np.float32)
        async with self._lock:  # two callers asking at once embed a text once, not twice
            missing = list(dict.fromkeys(
                t for t in texts if (embedder.id, input_type, t) not in self._vectors
            ))
            if missing:
                found = await embedder.embed(missing, input_type)
                for text, vector in zip(missing, found, strict=True):
                    vector = np.array(vector, dtype=np.float32)
                    vector.setflags(write=False)
                    self._vectors[(embedder.id, input_type, text)] = vector
        out = np.stack([self._vectors[(embedder.id, input_type, t)] for t in texts])
        out.setflags(write=False)
        return out

    async def similarities(
        self, embedder: Embedder, passages: np.ndarray, texts: Sequence[str],
        input_type: InputType = "query",
    ) -> np.ndarray:
        """Cosine of each passage vector (made by `embedder`) with each text: [passages, texts]."""
        if passages.ndim != 2 or passages.shape[1] != embedder.dimension:
            raise ValueError(
                f"passage vectors of shape {passages.shape} were not made by {embedder.id} "
                f"({embedder.dimension} dimensions)"
            )
        return passages @ (await self.vectors(embedder, texts, input_type)).T

    def cached(self, embedder_id: str) -> int:
        """How many texts are held for one embedder (for tests and the doctor)."""
        return sum(1 for key in self._vectors if key[0] == embedder_id)
