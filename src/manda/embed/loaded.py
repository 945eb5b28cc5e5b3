"""Offline models loaded once per process and shared by every embedder that runs the same files.

Loading the multilingual model costs about 1.5 CPU-seconds (its 250,000-piece tokenizer, the
ONNX session, the checksums of the cached files) and freeing it another 0.3; a process that
starts several apps (the eval runner, the playground, the test suite) paid that for each. An
ONNX Runtime session may be run from several threads at once ("InferenceSession::Run() is
guaranteed to be thread-safe", https://github.com/microsoft/onnxruntime/pull/19301; one embedder
already runs its session from `parallel_runs` threads), a tokenizer is only read once loaded,
and an embedder never changes either after loading, so one loaded copy serves all.

A loaded model is reused only while the files it was read from are unchanged on disk (same
inode, size and modification time): a cached file replaced or damaged since is read, checked
and, if need be, derived again, as on a first load. At most `CAPACITY` models stay loaded, the
least recently used leaving first.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Tokenizer

CAPACITY = 2
"""Models kept loaded at once, closed or not: a process runs the configured one, and a second
while it switches embedder (`manda reindex`). A loaded E5 `q8` holds ~400 MB (its tokenizer and
the unpacked weights; MiniLM ~50 MB), so a model no app uses is not kept for long."""

FileStamp = tuple[str, int, int, int]


QUERIES_KEPT = 4096
"""Query vectors a loaded model keeps (`QueryVectors`): ~6 MB at 384 dimensions."""


class QueryVectors:
    """The vectors of the queries a loaded model embedded lately, by text, the least recently
    used let go first. A deal's questions search the same words again and again (the red-flag
    topics' searches, a question asked again, its sub-queries), and each is embedded once."""

    def __init__(self, limit: int = QUERIES_KEPT) -> None:
        self._limit = limit
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()  # embedders on several event loops share a model

    def get(self, text: str) -> np.ndarray | None:
        with self._lock:
            vector = self._vectors.get(text)
            if vector is not None:
                self._vectors.move_to_end(text)
            return vector

    def put(self, text: str, vector: np.ndarray) -> None:
        kept = np.array(vector, dtype=np.float32)
        kept.setflags(write=False)
        with self._lock:
            self._vectors[text] = kept
            self._vectors.move_to_end(text)
            while len(self._vectors) > self._limit:
                self._vectors.popitem(last=False)


@dataclass(frozen=True)
class LoadedModel:
    """What an embedder runs, and the files it was read and checked from."""

    session: onnxruntime.InferenceSession
    tokenizer: Tokenizer
    input_names: frozenset[str]
    model_file: Path
    read_from: tuple[Path, ...]
    queries: QueryVectors = field(default_factory=QueryVectors)


def _stamps(files: tuple[Path, ...]) -> tuple[FileStamp, ...] | None:
    """Each file's identity on disk, or None when one is gone."""
    try:
        return tuple(
            (str(path), st.st_ino, st.st_size, st.st_mtime_ns)
            for path, st in ((path, os.stat(path)) for path in files)
        )
    except OSError:
        return None


class LoadedModels:
    """The process's loaded offline models, by what was asked for (model, precision, windows,
    files, threads)."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._capacity = capacity
        self._models: OrderedDict[Hashable, tuple[LoadedModel, tuple[FileStamp, ...] | None]] = (
            OrderedDict()
        )
        self._lock = threading.Lock()

    def get(self, key: Hashable, load: Callable[[], LoadedModel]) -> LoadedModel:
        """The model loaded for `key`, if its files are unchanged since; else `load()`'s."""
        with self._lock:
            model, stamps = self._models.get(key, (None, None))
            if model is not None and stamps is not None and _stamps(model.read_from) == stamps:
                self._models.move_to_end(key)
                return model
            self._models.pop(key, None)
            model = load()
            self._models[key] = (model, _stamps(model.read_from))
            while len(self._models) > self._capacity:
                self._models.popitem(last=False)
            return model

    def clear(self) -> None:
        """Forget every loaded model (the embedders holding one keep it until they close)."""
        with self._lock:
            self._models.clear()


LOADED = LoadedModels()
"""The process's loaded models."""
