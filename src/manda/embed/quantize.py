"""The offline embedder's derived models: made once from a pinned file, cached, checked.

The same machinery serves both offline models: MiniLM's q8 model below, and the multilingual
model's ONNX files and tokenizer (`manda.embed.e5_source`), which use `publish` and, for q8,
`quantize_model` on the 4-bit weights written out as float32.

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


def derived_path(cache_dir: Path, source_sha256: str, stem: str = f"minilm-l6-v2-{RECIPE}") -> Path:
    """Where a file derived from the source with that sha256 is cached (`stem` names the model
    and its recipe; a suffix other than `.onnx` is given by the caller with `with_suffix`)."""
    return cache_dir / f"{stem}-{source_sha256[:16]}.onnx"


def cached_file(path: Path) -> Path | None:
    """`path` if it is in the cache whole (its bytes match its `.sha256`), else None."""
    stamp = path.with_suffix(".sha256")
    try:
        expected = stamp.read_text(encoding="ascii").strip()
    except OSError:
        return None
    if path.is_file() and file_sha256(path) == expected:
        return path
    log.warning("the cached embedding model file %s does not match its checksum; it is rebuilt",
                path)
    return None


def cached_model(cache_dir: Path, source_sha256: str) -> Path | None:
    """The derived MiniLM model already in the cache, whole, or None."""
    return cached_file(derived_path(cache_dir, source_sha256))


def publish(
    target: Path, make: Callable[[Path], Path], check: Callable[[Path], None], *, what: str
) -> Path:
    """Make a file in a work folder beside `target` (`make(folder)` returns it), `check` it, then
    move it to `target` with a `.sha256` stamp of its bytes; nothing half-written is ever seen
    there. `check` raises `DerivedModelError` when the file must not be used."""
    cache_dir = target.parent
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".build-", dir=cache_dir))
    except OSError as exc:
        raise DerivedModelError(
            f"Cannot write the derived {what} to {cache_dir}: {exc}.",
            hint="Point MANDA_MODEL_CACHE at a writable directory, or set "
            "MANDA_OFFLINE_MODEL=minilm and MANDA_OFFLINE_EMBEDDER=fp32 (nothing to derive).",
        ) from exc
    try:
        made = make(work)
        check(made)
        with made.open("rb") as f:
            os.fsync(f.fileno())
        digest = file_sha256(made)
        os.replace(made, target)
        stamp = work / "stamp"
        stamp.write_text(digest + "\n", encoding="ascii")
        os.replace(stamp, target.with_suffix(".sha256"))
        log.info("derived the %s %s (sha256 %s)", what, target, digest)
        return target
    finally:
        for leftover in work.iterdir():
            with contextlib.suppress(OSError):
                leftover.unlink()
        with contextlib.suppress(OSError):
            work.rmdir()


def quantize_model(source: Path, work: Path, *, contrib_ops: bool = False) -> Path:
    """The recipe (`RECIPE`) applied to the float model `source`: constant-folded, then int8
    weights per output channel in 7 bits and int8 activations. `contrib_ops`: the graph holds
    ONNX Runtime contrib operators, whose outputs shape inference cannot type (they are float)."""
    try:
        import onnx
        import onnxruntime as ort
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:  # `onnx` is what onnxruntime.quantization needs
        raise DerivedModelError(
            f"Cannot derive the int8 embedding model: {exc}.",
            hint="Reinstall Manda (`pip install -e .`), which depends on `onnx`; or set "
            "MANDA_OFFLINE_EMBEDDER=fp32 to embed without deriving the q8 model.",
        ) from exc
    folded, quantized = work / "folded.onnx", work / "model.onnx"
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(folded)
    options.log_severity_level = 3
    ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
    extra = {"DefaultTensorType": onnx.TensorProto.FLOAT} if contrib_ops else {}
    with _quiet_advice():
        quantize_dynamic(
            folded, quantized, weight_type=QuantType.QInt8, per_channel=True,
            reduce_range=True, op_types_to_quantize=["MatMul"] if contrib_ops else None,
            extra_options=extra,
        )
    folded.unlink()
    return quantized


def build_model(
    source: Path, source_sha256: str, cache_dir: Path, check: Callable[[Path], None]
) -> Path:
    """Derive the int8 MiniLM model from `source` into `cache_dir`; `check(path)` must pass
    before the file is published (it raises `DerivedModelError` when the vectors differ)."""
    return publish(
        derived_path(cache_dir, source_sha256),
        lambda work: quantize_model(source, work),
        check,
        what="int8 embedding model",
    )


class _DropAdvice(logging.Filter):
    _NOISE = ("pre-processing before quantization", "Failed to infer data type of tensor")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not any(noise in message for noise in self._NOISE)


@contextlib.contextmanager
def _quiet_advice() -> Iterator[None]:
    """`quantize_dynamic` logs advice meant for static quantisation of image models to the
    root logger, and a warning per tensor a contrib operator produces (typed float by
    `DefaultTensorType`); they would only puzzle a person reading Manda's log."""
    advice = _DropAdvice()
    logging.getLogger().addFilter(advice)
    try:
        yield
    finally:
        logging.getLogger().removeFilter(advice)


def probes(path: Path | None = None, key: str = "vectors") -> tuple[list[str], np.ndarray]:
    """The probe texts and the reference vectors (`key`) a derived model must give them."""
    data = json.loads((path or PROBES_PATH).read_text(encoding="utf-8"))
    return list(data["texts"]), np.asarray(data[key], dtype=np.float32)


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
