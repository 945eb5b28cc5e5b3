"""Reading scanned pages offline: a page image in, its text and how sure the engine is out.

Two engines, chosen by measurement (`bench/ocr_bench.py`, figures in the README): Tesseract
(Debian's `tesseract-ocr`, run as a process, so a page that takes too long is killed) and
RapidOCR (`rapidocr-onnxruntime`, PP-OCR models shipped in the package). `MANDA_OCR=auto`
takes Tesseract when it is installed, else RapidOCR when it is, else none: scanned pages are then
reported as unreadable with what to install. Engines are built once per process, on first use.
"""

from __future__ import annotations

import io
import logging
import shutil
import subprocess
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PIL.Image import Image

log = logging.getLogger(__name__)

ENGINES = ("tesseract", "rapidocr")
RENDER_DPI = 300  # Tesseract is trained on ~300 dpi text; lower costs accuracy on small print


class OcrTimeout(Exception):
    """A page took longer than the per-page budget."""


@dataclass(frozen=True)
class OcrText:
    """What the engine read on one page, in reading order, and its mean confidence (0-1)."""

    text: str
    confidence: float


class OcrEngine(Protocol):
    name: str

    def read(self, image: Image, timeout: float) -> OcrText:
        """The page's text; `OcrTimeout` past `timeout` seconds."""
        ...


class TesseractEngine:
    """Debian's `tesseract` binary, one process per page (killed at the timeout)."""

    def __init__(self, binary: str, languages: str = "eng") -> None:
        self._binary = binary
        self._languages = languages
        self.name = f"tesseract ({_tesseract_version(binary)})"

    def read(self, image: Image, timeout: float) -> OcrText:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        # https://tesseract-ocr.github.io/tessdoc/Command-Line-Usage.html — `stdin stdout tsv`
        # prints one row per word with its block/paragraph/line numbers and a 0-100 confidence.
        try:
            done = subprocess.run(
                [self._binary, "stdin", "stdout", "-l", self._languages, "--dpi",
                 str(RENDER_DPI), "tsv"],
                input=buffer.getvalue(), capture_output=True, timeout=timeout, check=True,
                env={"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"},
            )
        except subprocess.TimeoutExpired as exc:
            raise OcrTimeout from exc
        return _from_tsv(done.stdout.decode("utf-8", "replace"))


def _from_tsv(tsv: str) -> OcrText:
    lines: dict[tuple[str, str, str, str], list[str]] = {}
    confidences: list[float] = []
    for row in tsv.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5" or not cols[11].strip():
            continue
        lines.setdefault((cols[1], cols[2], cols[3], cols[4]), []).append(cols[11])
        confidence = float(cols[10])
        if confidence >= 0:
            confidences.append(confidence / 100)
    text = "\n".join(" ".join(words) for words in lines.values())
    mean = sum(confidences) / len(confidences) if confidences else 0.0
    return OcrText(text, round(mean, 3))


def _tesseract_version(binary: str) -> str:
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "version unknown"
    first = (out.stdout or out.stderr).decode("utf-8", "replace").splitlines()
    return first[0].strip() if first else "version unknown"


class RapidOcrEngine:
    """PP-OCR models run by onnxruntime (shipped in `rapidocr-onnxruntime`); in-process."""

    name = "rapidocr (PP-OCRv4, onnxruntime)"

    def __init__(self) -> None:
        self._engine: object | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="manda-ocr")
        self._lock = threading.Lock()

    def read(self, image: Image, timeout: float) -> OcrText:
        import numpy as np

        with self._lock:
            if self._engine is None:
                from rapidocr_onnxruntime import RapidOCR

                self._engine = RapidOCR()
        pixels = np.asarray(image.convert("RGB"))
        future = self._pool.submit(self._engine, pixels)  # type: ignore[arg-type]
        try:
            result, _ = future.result(timeout=timeout)
        except FutureTimeout as exc:  # the page finishes in the background; its text is dropped
            raise OcrTimeout from exc
        return _from_boxes(result or [])


def _from_boxes(boxes: Sequence[Sequence[object]]) -> OcrText:
    """Boxes (corners, text, score) into lines: top to bottom, left to right."""
    items = []
    for corners, text, score in boxes:  # type: ignore[misc]
        ys = [float(p[1]) for p in corners]  # type: ignore[index, union-attr]
        xs = [float(p[0]) for p in corners]  # type: ignore[index, union-attr]
        items.append((min(ys), max(ys), min(xs), str(text), float(score)))  # type: ignore[arg-type]
    items.sort()
    lines: list[list[tuple[float, str]]] = []
    bottom = -1.0
    for top, low, left, text, _ in items:
        if lines and top < bottom - (low - top) / 2:  # overlaps the current line vertically
            lines[-1].append((left, text))
            bottom = max(bottom, low)
        else:
            lines.append([(left, text)])
            bottom = low
    text = "\n".join(" ".join(t for _, t in sorted(line)) for line in lines)
    scores = [item[4] for item in items]
    return OcrText(text, round(sum(scores) / len(scores), 3) if scores else 0.0)


_ENGINES: dict[str, OcrEngine | None] = {}
_ENGINES_LOCK = threading.Lock()


def ocr_engine(preference: str) -> OcrEngine | None:
    """The engine `MANDA_OCR` asks for (`auto`, `tesseract`, `rapidocr`, `off`), built once."""
    with _ENGINES_LOCK:
        if preference not in _ENGINES:
            _ENGINES[preference] = _build(preference)
        return _ENGINES[preference]


def _build(preference: str) -> OcrEngine | None:
    if preference == "off":
        return None
    if preference in ("auto", "tesseract"):
        binary = shutil.which("tesseract")
        if binary:
            return TesseractEngine(binary)
        if preference == "tesseract":
            return None
    if preference in ("auto", "rapidocr") and _importable("rapidocr_onnxruntime"):
        return RapidOcrEngine()
    return None


def _importable(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def describe(preference: str) -> tuple[str, str]:
    """(engine, what to fix) for `manda doctor`, without loading any model."""
    if preference == "off":
        return "off", "scanned pages are not read (MANDA_OCR=off)"
    if preference in ("auto", "tesseract") and shutil.which("tesseract"):
        return f"tesseract ({_tesseract_version(shutil.which('tesseract') or '')})", ""
    if preference in ("auto", "rapidocr") and _importable("rapidocr_onnxruntime"):
        return RapidOcrEngine.name, ""
    return "none", (
        "scanned pages cannot be read: `apt-get install tesseract-ocr` (or `pip install "
        "rapidocr-onnxruntime`)"
    )
