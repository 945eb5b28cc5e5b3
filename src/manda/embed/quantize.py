"""The offline embedder's int8 model: derived once from the pinned file, cached, checked.

The pinned package ships all-MiniLM-L6-v2 with int8 *weights* that ONNX Runtime turns back into
float32 when it loads them, so every product is computed in float32. Quantising the activations
as well (ONNX Runtime's dynamic quantisation: MatMulInteger on int8 weights and uint8
activations) embeds about twice as many texts per CPU-second (`bench/embed_bench.py`), and
ingestion spends most of its time embedding.

Recipe (`RECIPE`): constant-fold the pinned graph (ONNX Runtime's basic optimisations, which
turn the int8 weights into float32 initialisers), then `quantize_dynamic` with int8 weights,
**one scale per output channel** (one scale per tensor moves vectors to cosine ~0.95 of the
float32 model's; per channel keeps ~0.99) and **7-bit weight range** (`reduce_range`): on CPUs
without AVX-512 VNNI, ONNX Runtime's u8s8 kernel adds pairs of products in 16 bits and can
saturate with full-range weights; with 7 bits it cannot, so vectors do not depend on the CPU
(https://onnxruntime.ai/docs/performance/model-optimizations/quantization.html, "When to use
reduce-range and per-channel quantization").

The derived file is written to a cache directory (not `MANDA_HOME`: every deal store on the
machine shares it) atomically, under a name carrying the recipe and the source's sha256, beside
a `.sha256` of its own bytes. A file built by another version of `onnx`/ONNX Runtime may differ
in its bytes, so what is checked is what matters: its vectors for a few probe texts must match
the reference vectors shipped with Manda (cosine >= `PROBE_COSINE`); a file that fails is not
used and the error says what to do.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from manda.checksums import file_sha256
from manda.errors import MandaError

log = logging.getLogger(__name__)

RECIPE = "q8pc7"
"""Dynamic int8 quantisation, per-channel weights in 7 bits. A new recipe is a new file name."""

PROBES_PATH = Path(__file__).parent / "assets" / "q8_probes.json"
PROBE_COSINE = 0.999
"""A derived model whose probe vectors are all this close to the reference ones is the same
model for retrieval (different builds of the same recipe agree to ~1e-6)."""


class DerivedModelError(MandaError):
    """The int8 model could not be derived from the pinned file, or it embeds differently."""


def default_cache_dir() -> Path:
    """`~/.cache/manda/models`: derived models are shared by every deal store of the user."""
    return Path.home() / ".cache" / "manda" / "models"


def derived_path(cache_dir: Path, source_sha256: str) -> Path:
    return cache_dir / f"minilm-l6-v2-{RECIPE}-{source_sha256[:16]}.onnx"


def cached_model(cache_dir: Path, source_sha256: str) -> Path | None:
    """The derived model already in the cache, whole (its bytes match its `.sha256`), or None."""
    path = derived_path(cache_dir, source_sha256)
    stamp = path.with_suffix(".sha256")
    try:
        expected = stamp.read_text(encoding="ascii").strip()
    except OSError:
        return None
    if path.is_file() and file_sha256(path) == expected:
        return path
    log.warning("the cached embedding model %s does not match its checksum; it is rebuilt", path)
    return None


def build_model(
    source: Path, source_sha256: str, cache_dir: Path, check: Callable[[Path], None]
) -> Path:
    """Derive the int8 model from `source` into `cache_dir`; `check(path)` must pass before
    the file is published (it raises `DerivedModelError` when the vectors differ)."""
    try:
        import onnxruntime as ort
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:  # `onnx` is what onnxruntime.quantization needs
        raise DerivedModelError(
            f"Cannot derive the int8 embedding model: {exc}.",
            hint="Reinstall Manda (`pip install -e .`), which depends on `onnx`; or set "
            "MANDA_OFFLINE_EMBEDDER=fp32 to embed with the pinned file as it is.",
        ) from exc
    target = derived_path(cache_dir, source_sha256)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".build-", dir=cache_dir))
    except OSError as exc:
        raise DerivedModelError(
            f"Cannot write the derived embedding model to {cache_dir}: {exc}.",
            hint="Point MANDA_MODEL_CACHE at a writable directory, or set "
            "MANDA_OFFLINE_EMBEDDER=fp32.",
        ) from exc
    try:
        folded, quantized = work / "folded.onnx", work / "model.onnx"
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        options.log_severity_level = 3
        ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
        with _quiet_advice():
            quantize_dynamic(
                folded, quantized, weight_type=QuantType.QInt8, per_channel=True,
                reduce_range=True,
            )
        check(quantized)
        with quantized.open("rb") as f:
            os.fsync(f.fileno())
        digest = file_sha256(quantized)
        os.replace(quantized, target)
        stamp = work / "stamp"
        stamp.write_text(digest + "\n", encoding="ascii")
        os.replace(stamp, target.with_suffix(".sha256"))
        log.info("derived the int8 embedding model %s (sha256 %s)", target, digest)
        return target
    finally:
        for leftover in work.iterdir():
            with contextlib.suppress(OSError):
                leftover.unlink()
        with contextlib.suppress(OSError):
            work.rmdir()


class _DropAdvice(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "pre-processing before quantization" not in record.getMessage()


@contextlib.contextmanager
def _quiet_advice() -> Iterator[None]:
    """`quantize_dynamic` logs advice meant for static quantisation of image models to the
    root logger; it would only puzzle a person reading Manda's log."""
    advice = _DropAdvice()
    logging.getLogger().addFilter(advice)
    try:
        yield
    finally:
        logging.getLogger().removeFilter(advice)


def probes() -> tuple[list[str], np.ndarray]:
    """The probe texts and the reference vectors the recipe gives them."""
    data = json.loads(PROBES_PATH.read_text(encoding="utf-8"))
    return list(data["texts"]), np.asarray(data["vectors"], dtype=np.float32)


def compare_probes(vectors: np.ndarray, reference: np.ndarray, path: Path) -> None:
    """Raise `DerivedModelError` unless every probe vector is close to its reference."""
    cosines = (vectors * reference).sum(axis=1)
    worst = float(cosines.min())
    if worst < PROBE_COSINE:
        raise DerivedModelError(
            f"The derived embedding model {path} embeds differently from the reference "
            f"(probe cosine {worst:.4f} < {PROBE_COSINE}); it is not used.",
            hint="Install the versions of onnx and onnxruntime Manda was tested with, or set "
            "MANDA_OFFLINE_EMBEDDER=fp32 (its own index: run `manda reindex` after switching).",
        )
