"""A process loads an offline model once; a file changed on disk since is read again."""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from manda.embed.loaded import LOADED, LoadedModel, LoadedModels
from manda.embed.offline import OfflineEmbedder


def counting_load(files: tuple[Path, ...], loads: list[int]) -> LoadedModel:
    loads.append(1)
    session: Any = object()
    tokenizer: Any = object()
    return LoadedModel(session, tokenizer, frozenset({"input_ids"}), files[0], files)


def model_files(tmp_path: Path) -> tuple[Path, ...]:
    files = (tmp_path / "model.onnx", tmp_path / "tokenizer.json")
    for path in files:
        path.write_bytes(b"weights")
    return files


def test_the_same_files_are_loaded_once_and_shared(tmp_path: Path) -> None:
    models, loads = LoadedModels(), []
    load = partial(counting_load, model_files(tmp_path), loads)
    first = models.get("e5-q8", load)
    assert models.get("e5-q8", load) is first
    assert len(loads) == 1


def test_a_file_changed_or_gone_since_is_loaded_again(tmp_path: Path) -> None:
    models, loads = LoadedModels(), []
    files = model_files(tmp_path)
    load = partial(counting_load, files, loads)
    first = models.get("e5-q8", load)
    files[1].write_bytes(b"cut short")  # damaged on disk after the load
    second = models.get("e5-q8", load)
    assert second is not first and len(loads) == 2
    os.remove(files[0])
    models.get("e5-q8", load)
    assert len(loads) == 3


def test_the_least_recently_used_model_leaves_first(tmp_path: Path) -> None:
    models, loads = LoadedModels(capacity=2), []
    load = partial(counting_load, model_files(tmp_path), loads)
    models.get("minilm", load)
    models.get("e5-q8", load)
    models.get("minilm", load)  # used again: e5-q8 is now the least recent
    models.get("e5-fp32", load)
    assert len(loads) == 3
    models.get("minilm", load)
    assert len(loads) == 3
    models.get("e5-q8", load)
    assert len(loads) == 4


async def test_embedders_on_the_same_files_share_one_model_and_embed_alike() -> None:
    LOADED.clear()
    first = OfflineEmbedder(model="minilm")
    vectors = await first.embed(["Revenue grew 8% in FY2024."], "document")
    session, tokenizer = first._session, first._tokenizer
    await first.aclose()
    second = OfflineEmbedder(model="minilm")
    windowed = OfflineEmbedder(model="minilm", max_windows=4)
    try:
        again = await second.embed(["Revenue grew 8% in FY2024."], "document")
        await windowed.start()
        assert second._session is session and second._tokenizer is tokenizer
        assert second.model_file == first.model_file
        assert windowed._tokenizer is not tokenizer  # windows: a tokenizer that keeps overflow
        np.testing.assert_array_equal(vectors, again)
    finally:
        await second.aclose()
        await windowed.aclose()


async def test_a_query_is_embedded_once_and_each_caller_gets_its_own_copy() -> None:
    LOADED.clear()
    embedder = OfflineEmbedder()
    try:
        asked = ["What was Q3 2024 revenue?", "Who are the largest customers?"]
        first = await embedder.embed([asked[0], asked[1], asked[0]], "query")
        np.testing.assert_array_equal(first[0], first[2])
        first[0] *= 0  # a caller's array is its own
        again = await embedder.embed(asked, "query")
        assert np.linalg.norm(again[0]) == pytest.approx(1.0, abs=1e-5)
        LOADED.clear()  # a model loaded afresh embeds the queries anew: the same vectors
        fresh = OfflineEmbedder()
        try:
            np.testing.assert_array_equal(await fresh.embed(asked, "query"), again)
        finally:
            await fresh.aclose()
        # a passage is embedded as a passage, never answered from the queries' vectors
        passage = await embedder.embed([asked[0]], "document")
        assert float(passage[0] @ again[0]) < 0.999
    finally:
        await embedder.aclose()
