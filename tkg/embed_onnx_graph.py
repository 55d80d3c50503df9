"""The integer graphs the default embedder runs, rewritten from the verified int8 MiniLM file.

`int8_matmul_model` turns the file's dequantised weights into integer matrix products
(``DynamicQuantizeMatMul``); `rows_model` makes from that a graph that runs several texts of one token
length a call while quantising each text's activations by themselves, so batching changes no bit of a
vector. Both are written once into the cache directory (whole or not at all) and reused; `tkg.embed_onnx`
names the files and checks the source first.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from tkg.errors import EmbeddingError


def int8_matmul_model(source: Path, target: Path) -> Path | bytes:
    """The verified ``source`` with each ``Cast(int8 weight) * scale -> MatMul`` replaced by one
    ``DynamicQuantizeMatMul`` on the same int8 weight and per-column scale; made once into
    ``target``, then reused (the model's bytes instead when ``target`` cannot be written)."""
    if target.is_file():
        return target
    onnx = _onnx()
    helper, numpy_helper = onnx.helper, onnx.numpy_helper
    model = onnx.load(str(source))
    graph = model.graph
    weights = {w.name: w for w in graph.initializer}
    made_by = {out: node for node in graph.node for out in node.output}
    nodes, extra = [], []
    for node in graph.node:
        mul = made_by.get(node.input[1]) if node.op_type == "MatMul" else None
        cast = made_by.get(mul.input[0]) if mul is not None and mul.op_type == "Mul" else None
        if (mul is None or cast is None or cast.op_type != "Cast" or cast.input[0] not in weights
                or mul.input[1] not in weights):
            nodes.append(node)
            continue
        q = cast.input[0]
        scale = numpy_helper.to_array(weights[mul.input[1]]).reshape(-1).astype(np.float32)
        extra += [numpy_helper.from_array(scale, f"{q}_column_scale"),
                  numpy_helper.from_array(np.zeros(scale.shape, np.int8), f"{q}_zero")]
        nodes.append(
            helper.make_node(
                "DynamicQuantizeMatMul",
                [node.input[0], q, f"{q}_column_scale", f"{q}_zero"],
                list(node.output),
                name=f"{node.name}_int8",
                domain="com.microsoft",
            )
        )
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(extra)
    model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return _kept(model.SerializeToString(), target)


def rows_model(int8_model: Path | bytes, rows: int, target: Path) -> Path | bytes:
    """The integer model for a batch of exactly ``rows`` texts of one token length: each
    ``DynamicQuantizeMatMul`` is split into one per text (``Split`` on the batch axis, ``Concat``
    after), so every text's activations are quantised with their own scale, as when it runs alone,
    while the other operators run once for the whole batch. A text's vector is then bitwise the one
    it gets alone (tests/test_embed_onnx.py checks it). Made once into ``target``, then reused."""
    if target.is_file():
        return target
    onnx = _onnx()
    helper = onnx.helper
    model = onnx.load_from_string(int8_model) if isinstance(int8_model, bytes) else onnx.load(str(int8_model))
    nodes = []
    for node in model.graph.node:
        if node.op_type != "DynamicQuantizeMatMul":
            nodes.append(node)
            continue
        parts = [f"{node.name}_row{i}" for i in range(rows)]
        outs = [f"{node.name}_row{i}_out" for i in range(rows)]
        nodes.append(helper.make_node("Split", [node.input[0]], parts, name=f"{node.name}_split", axis=0))
        nodes += [
            helper.make_node("DynamicQuantizeMatMul", [part, *node.input[1:]], [out],
                             name=f"{node.name}_{i}", domain="com.microsoft")
            for i, (part, out) in enumerate(zip(parts, outs, strict=True))
        ]
        nodes.append(helper.make_node("Concat", outs, list(node.output), name=f"{node.name}_concat", axis=0))
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return _kept(model.SerializeToString(), target)


def _onnx() -> Any:
    """The ``onnx`` package, which only the rewrites need (an extra of ``tkg[local]``)."""
    try:
        import onnx
    except ImportError:
        raise EmbeddingError(
            'the int8-matmul embedder rewrites the model with the onnx package; pip install "tkg[local]"'
        ) from None
    return onnx


def _kept(data: bytes, target: Path) -> Path | bytes:
    """``data`` written to ``target`` whole (or not at all), else the bytes when it cannot be written."""
    partial = target.with_suffix(f".{os.getpid()}.partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(data)
        os.replace(partial, target)  # whole or absent, whichever process wins
    except OSError:
        return data
    return target
