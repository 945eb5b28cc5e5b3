"""Embedding and rerank adapters; the heavy ones (onnxruntime, voyageai) load when first used."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from manda.embed.port import Embedder, InputType, Reranker, RerankResult

if TYPE_CHECKING:
    from manda.embed.offline import OfflineEmbedder
    from manda.embed.voyage import VoyageEmbedder, VoyageReranker

__all__ = [
    "Embedder",
    "InputType",
    "OfflineEmbedder",
    "RerankResult",
    "Reranker",
    "VoyageEmbedder",
    "VoyageReranker",
]

_LAZY = {
    "OfflineEmbedder": "manda.embed.offline",
    "VoyageEmbedder": "manda.embed.voyage",
    "VoyageReranker": "manda.embed.voyage",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
