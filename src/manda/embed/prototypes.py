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
    """A cache of texts' vectors, by (embedder id, input type, text).

    `input_type` defaults to "query": a prototype describes what is looked for, as a question
    does, and is compared with passages embedded as documents (E5 reads "query: " before it).
    `limit` bounds a cache of texts that are not fixed (the spans a question weighs): past it,
    the texts held longest are let go first.
    """

    def __init__(self, limit: int | None = None) -> None:
        self._vectors: dict[tuple[str, InputType, str], np.ndarray] = {}
        self._limit = limit
        self._pending: dict[tuple[str, InputType, str], asyncio.Future[np.ndarray]] = {}

    async def vectors(
        self, embedder: Embedder, texts: Sequence[str], input_type: InputType = "query"
    ) -> np.ndarray:
        """Vectors of `texts` ([len(texts), dimension], read-only), each embedded once."""
        if not texts:
            return np.empty((0, embedder.dimension), dtype=np.float32)
        key = embedder.id, input_type
        held = {t: self._vectors.get((*key, t)) for t in texts}
        # a text another caller is embedding right now is awaited, not embedded again; the
        # rest is embedded here in one call, without holding up callers asking other texts
        waiting = {t: self._pending[(*key, t)] for t, v in held.items()
                   if v is None and (*key, t) in self._pending}
        mine = [t for t, v in held.items() if v is None and t not in waiting]
        if mine:
            loop = asyncio.get_running_loop()
            futures = {t: loop.create_future() for t in mine}
            self._pending.update({(*key, t): f for t, f in futures.items()})
            try:
                found = await embedder.embed(mine, input_type)
            except BaseException as exc:
                failed = exc if isinstance(exc, Exception) else RuntimeError(
                    f"embedding was cancelled by the caller that asked first: {exc!r}")
                for future in futures.values():
                    future.set_exception(failed)
                    future.exception()  # read here: a text nobody else waited for is not logged
                raise
            finally:
                for t in mine:
                    self._pending.pop((*key, t), None)
            for text, vector in zip(mine, found, strict=True):
                vector = np.array(vector, dtype=np.float32)
                vector.setflags(write=False)
                self._vectors[(*key, text)] = held[text] = vector
                futures[text].set_result(vector)
        for text, future in waiting.items():
            held[text] = await future
        out = np.stack([held[t] for t in texts])
        if self._limit is not None:  # the texts held longest go first
            for old in list(self._vectors)[:max(0, len(self._vectors) - self._limit)]:
                del self._vectors[old]
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
