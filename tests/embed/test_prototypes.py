"""Topic prototypes are embedded once per embedder, kept apart by embedder, and score passages."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence

import numpy as np
import pytest

from manda.embed.offline import OfflineEmbedder
from manda.embed.port import Embedder, InputType
from manda.embed.prototypes import TextVectors


class CountingEmbedder:
    """Implements the embedding port: a unit vector per (text, input type), calls recorded."""

    dimension = 8

    def __init__(self, embedder_id: str) -> None:
        self.id = embedder_id
        self.calls: list[tuple[list[str], InputType]] = []

    async def start(self) -> None: ...
    async def aclose(self) -> None: ...

    async def embed(self, texts: Sequence[str], input_type: InputType) -> np.ndarray:
        self.calls.append((list(texts), input_type))
        await asyncio.sleep(0)  # a real embedder yields to the loop while it works
        rows = []
        for text in texts:
            seed = hashlib.sha256(f"{self.id}|{input_type}|{text}".encode()).digest()
            row = np.frombuffer(seed[: self.dimension], dtype=np.uint8).astype(np.float32) - 127
            rows.append(row / np.linalg.norm(row))
        return np.stack(rows)


async def test_texts_are_embedded_once_and_only_the_new_ones_later() -> None:
    embedder = CountingEmbedder("fake-8")
    assert isinstance(embedder, Embedder)
    cache = TextVectors()
    first = await cache.vectors(embedder, ["litigation", "covenants", "litigation"])
    again = await cache.vectors(embedder, ["covenants", "tax", "litigation"])
    assert embedder.calls == [(["litigation", "covenants"], "query"), (["tax"], "query")]
    assert first.shape == (3, 8) and np.array_equal(first[0], first[2])
    assert np.array_equal(again[0], first[1]) and np.array_equal(again[2], first[0])
    with pytest.raises(ValueError):
        again[0, 0] = 1.0  # shared vectors cannot be changed by one caller for all


async def test_two_embedders_and_two_input_types_are_never_mixed() -> None:
    cache = TextVectors()
    one, other = CountingEmbedder("model-a"), CountingEmbedder("model-b")
    a = await cache.vectors(one, ["litigation"])
    b = await cache.vectors(other, ["litigation"])
    as_document = await cache.vectors(one, ["litigation"], "document")
    assert not np.array_equal(a, b) and not np.array_equal(a, as_document)
    assert cache.cached("model-a") == 2 and cache.cached("model-b") == 1


async def test_callers_asking_at_once_embed_each_text_once() -> None:
    embedder = CountingEmbedder("fake-8")
    cache = TextVectors()
    await asyncio.gather(*(cache.vectors(embedder, ["litigation", "tax"]) for _ in range(5)))
    assert embedder.calls == [(["litigation", "tax"], "query")]


async def test_passage_vectors_of_another_embedder_are_refused() -> None:
    with pytest.raises(ValueError, match="not made by fake-8"):
        await TextVectors().similarities(CountingEmbedder("fake-8"), np.ones((2, 384)), ["tax"])


async def test_a_german_claim_is_closest_to_the_litigation_prototype() -> None:
    """With the real offline embedder: meaning across languages, not shared words."""
    embedder = OfflineEmbedder()
    passages = await embedder.embed([
        "Ein ehemaliger Vertriebspartner verlangt Schadensersatz in Höhe von 2,3 Mio. EUR "
        "wegen der Kündigung des Vertriebsvertrags; die Klage ist anhängig.",
        "Die Umsatzerlöse stiegen im Geschäftsjahr um 9 % auf 38,5 Mio. EUR.",
    ], "document")
    topics = ["a lawsuit or legal claim against the company", "revenue growth"]
    scores = await TextVectors().similarities(embedder, passages, topics)
    assert scores.shape == (2, 2)
    assert scores[0].argmax() == 0 and scores[1].argmax() == 1
    await embedder.aclose()


async def test_a_bounded_cache_lets_go_of_the_texts_held_longest() -> None:
    embedder = CountingEmbedder("fake-8")
    cache = TextVectors(limit=2)
    await cache.vectors(embedder, ["litigation", "tax"])
    again = await cache.vectors(embedder, ["covenants", "litigation"], "document")
    assert cache.cached("fake-8") == 2  # "litigation" and "tax" as queries went first
    await cache.vectors(embedder, ["litigation"], "document")  # still held: not embedded again
    assert embedder.calls[-1] == (["covenants", "litigation"], "document")
    assert again.shape == (2, 8)


async def test_a_caller_waiting_for_anothers_text_gets_its_failure() -> None:
    class Failing(CountingEmbedder):
        async def embed(self, texts: Sequence[str], input_type: InputType) -> np.ndarray:
            self.calls.append((list(texts), input_type))
            await asyncio.sleep(0)
            raise ConnectionError("embedding service unreachable")

    embedder, cache = Failing("fake-8"), TextVectors()
    results = await asyncio.gather(*(cache.vectors(embedder, ["tax"]) for _ in range(3)),
                                   return_exceptions=True)
    assert all(isinstance(r, ConnectionError) for r in results)
    assert len(embedder.calls) == 1  # one call, its failure shared by the callers waiting on it
    assert cache.cached("fake-8") == 0
    assert await cache.vectors(CountingEmbedder("fake-8"), ["tax"]) is not None  # asked again
