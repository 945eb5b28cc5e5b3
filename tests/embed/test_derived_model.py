"""The q8 model is derived once from the pinned file, cached with its checksum, and checked."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from manda.embed import quantize
from manda.embed.offline import MODEL_SHA256, OfflineEmbedder

MiniLM = partial(OfflineEmbedder, model="minilm")


async def test_derived_once_then_loaded_from_the_cache(tmp_path: Path) -> None:
    first = MiniLM(cache_dir=tmp_path)
    await first.start()
    derived = quantize.derived_path(tmp_path, MODEL_SHA256)
    assert first.model_file == derived and derived.is_file()
    assert derived.with_suffix(".sha256").read_text().strip() == quantize.file_sha256(derived)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".build-")] == []
    built_at = derived.stat().st_mtime_ns

    second = MiniLM(cache_dir=tmp_path)
    texts, reference = quantize.probes()
    vectors = await second.embed(texts, "document")
    assert derived.stat().st_mtime_ns == built_at  # loaded, not derived again
    assert float(((vectors * reference).sum(axis=1)).min()) >= quantize.PROBE_COSINE


async def test_a_damaged_cached_model_is_derived_again(tmp_path: Path) -> None:
    await MiniLM(cache_dir=tmp_path).start()
    derived = quantize.derived_path(tmp_path, MODEL_SHA256)
    derived.write_bytes(derived.read_bytes()[: 1 << 20])  # cut short, as by a full disk

    again = MiniLM(cache_dir=tmp_path)
    await again.start()
    assert quantize.file_sha256(derived) == derived.with_suffix(".sha256").read_text().strip()
    assert (await again.embed(["Revenue grew 8%."], "query")).shape == (1, 384)


async def test_a_model_that_embeds_differently_is_never_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = json.loads(quantize.PROBES_PATH.read_text(encoding="utf-8"))
    vectors = np.asarray(data["vectors"])
    data["vectors"] = np.roll(vectors, 1, axis=0).tolist()  # each probe given another's vector
    probes = tmp_path / "probes.json"
    probes.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(quantize, "PROBES_PATH", probes)
    cache = tmp_path / "cache"

    with pytest.raises(quantize.DerivedModelError, match="embeds differently") as raised:
        await MiniLM(cache_dir=cache).start()
    assert "MANDA_OFFLINE_EMBEDDER=fp32" in raised.value.hint
    assert not quantize.derived_path(cache, MODEL_SHA256).exists()
    assert list(cache.iterdir()) == []  # the candidate was removed with its work folder


async def test_an_unwritable_cache_says_where_and_what_to_do(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    with pytest.raises(quantize.DerivedModelError, match="Cannot write") as raised:
        await MiniLM(cache_dir=blocked / "models").start()
    assert "MANDA_MODEL_CACHE" in raised.value.hint
