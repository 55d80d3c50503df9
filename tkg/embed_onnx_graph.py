"""The integer graphs the default embedder runs, rewritten from the verified int8 MiniLM file.

`int8_matmul_model` turns the file's dequantised weights into integer matrix products
(``DynamicQuantizeMatMul``); `rows_model` makes from that a graph that runs any number of texts of one
token length a call while quantising each text's activations by themselves, so batching changes no bit of
a vector. Both are written once into the cache directory (whole or not at all) and reused; `tkg.embed_onnx`
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


def rows_model(int8_model: Path | bytes, target: Path) -> Path | bytes:
    """The integer model for a batch of texts of one token length, any number a call: each
    ``DynamicQuantizeMatMul`` becomes what it computes, with each text's activations quantised by
    themselves (the text's own min and max, taken with zero, give its scale and zero point, as the
    fused operator takes them for a whole run) and one integer matrix product for the whole batch:
    ``QuantizeLinear`` on the batch axis, ``MatMulInteger``, minus zero point times the weight's column
    sums (exact in int32), then times the text's scale and the weight's column scale. A text's vector
    is then bitwise the one it gets alone (tests/test_embed_onnx.py checks it), while the products
    run on the batch's rows at once. Made once into ``target``, then reused."""
    if target.is_file():
        return target
    onnx = _onnx()
    helper, numpy_helper = onnx.helper, onnx.numpy_helper
    model = onnx.load_from_string(int8_model) if isinstance(int8_model, bytes) else onnx.load(str(int8_model))
    weights = {w.name: w for w in model.graph.initializer}
    extra = [numpy_helper.from_array(np.float32(0), "rows_f0"),
             numpy_helper.from_array(np.float32(255), "rows_f255"),
             numpy_helper.from_array(np.array([-1, 1, 1], np.int64), "rows_per_text")]
    nodes = []
    for node in model.graph.node:
        if node.op_type != "DynamicQuantizeMatMul":
            nodes.append(node)
            continue
        x, w, w_scale, w_zero = node.input[:4]
        if numpy_helper.to_array(weights[w_zero]).any():
            raise EmbeddingError(f"{node.name}: the per-text rewrite needs weights without a zero point")
        if not any(e.name == f"{w}_column_sum" for e in extra):
            sums = numpy_helper.to_array(weights[w]).astype(np.int32).sum(axis=0, dtype=np.int32)
            extra.append(numpy_helper.from_array(sums, f"{w}_column_sum"))
        steps = _per_text_steps(x, w, w_scale, onnx.TensorProto)
        local = {out for _, _, out, _ in steps}
        prefix = f"{node.name}_rows_"
        nodes += [
            helper.make_node(op, [prefix + i if i in local else i for i in ins], [prefix + out],
                             name=prefix + out, **attrs)
            for op, ins, out, attrs in steps
        ]
        nodes.append(helper.make_node("Mul", [prefix + "accf", prefix + "multiplier"], list(node.output),
                                      name=prefix + "out"))
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    model.graph.initializer.extend(extra)
    return _kept(model.SerializeToString(), target)


Step = tuple[str, list[str], str, dict[str, Any]]


def _per_text_steps(x: str, w: str, w_scale: str, types: Any) -> list[Step]:
    """``DynamicQuantizeMatMul(x, w, w_scale, 0)`` with a scale and zero point per text (batch row):
    (operator, inputs, output, attributes), outputs named within the node; the product is then
    ``accf * multiplier``."""
    return [
        ("ReduceMin", [x], "min0", {"axes": [1, 2], "keepdims": 0}),
        ("ReduceMax", [x], "max0", {"axes": [1, 2], "keepdims": 0}),
        ("Min", ["min0", "rows_f0"], "min", {}),
        ("Max", ["max0", "rows_f0"], "max", {}),
        ("Sub", ["max", "min"], "range", {}),
        ("Div", ["range", "rows_f255"], "scale", {}),
        ("Div", ["min", "scale"], "min_scaled", {}),
        ("Sub", ["rows_f0", "min_scaled"], "zero0", {}),
        ("Clip", ["zero0", "rows_f0", "rows_f255"], "zero1", {}),
        ("Round", ["zero1"], "zero2", {}),
        ("Cast", ["zero2"], "zero", {"to": types.UINT8}),
        ("QuantizeLinear", [x, "scale", "zero"], "xq", {"axis": 0}),
        ("MatMulInteger", ["xq", w], "acc0", {}),
        ("Cast", ["zero"], "zero32", {"to": types.INT32}),
        ("Reshape", ["zero32", "rows_per_text"], "zero3", {}),
        ("Mul", ["zero3", f"{w}_column_sum"], "shift", {}),
        ("Sub", ["acc0", "shift"], "acc", {}),
        ("Cast", ["acc"], "accf", {"to": types.FLOAT}),
        ("Reshape", ["scale", "rows_per_text"], "scale3", {}),
        ("Mul", ["scale3", w_scale], "multiplier", {}),
    ]


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
