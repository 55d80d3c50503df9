"""The integer graphs the default embedder runs, rewritten from the verified int8 MiniLM file.

`int8_matmul_model` turns the file's dequantised weights into integer matrix products
(``DynamicQuantizeMatMul``) and runs GELU and attention as onnxruntime's fused operators (`_fused`);
`rows_model` makes from that a graph that runs any number of texts of one
token length a call while quantising each text's activations by themselves (each product one
``MatMulIntegerToFloat``, the zero points taken off by extra rows of the weight), so batching changes no
bit of a vector. Both are written once into the cache directory (whole or not at all) and reused;
`tkg.embed_onnx` names the files and checks the source first.
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
    _fused(model, onnx)
    return _kept(model.SerializeToString(), target)


def _fused(model: Any, onnx: Any) -> None:
    """Each layer's GELU (``Div, Erf, Add, Mul, Mul`` after the bias ``Add``) as one ``BiasGelu``, and
    its attention (reshapes, transposes, two ``MatMul``, mask, ``Softmax``, NaN guard) as one
    ``MultiHeadAttention`` over the three projections with their biases and the attention mask, as
    onnxruntime's own transformer fusions would write them; unused nodes and weights are dropped. The
    exporter's patterns are not the ones onnxruntime's optimiser matches, and at these short lengths
    the many small operators cost more than the integer products. The float operations then run in
    another order, so vectors differ from the unfused graph's by rounding (and the quantisation steps
    it moves), hence another model id (`tkg.embed_onnx`)."""
    helper, numpy_helper = onnx.helper, onnx.numpy_helper
    graph = model.graph
    weights = {w.name: w for w in graph.initializer}
    made_by = {out: node for node in graph.node for out in node.output}
    used_by: dict[str, list[Any]] = {}
    for node in graph.node:
        for name in node.input:
            used_by.setdefault(name, []).append(node)

    def only_user(name: str, op: str) -> Any:
        users = used_by.get(name, [])
        if len(users) != 1 or users[0].op_type != op:
            raise EmbeddingError(f"the MiniLM graph changed: {name} is not used by one {op} alone")
        return users[0]

    def bias_add(name: str) -> tuple[str, str]:
        """The input and bias of the first ``Add`` with a weight above ``name`` (first inputs up)."""
        node = made_by[name]
        while not (node.op_type == "Add" and any(i in weights for i in node.input)):
            node = made_by[node.input[0]]
        x, bias = sorted(node.input, key=lambda i: i in weights)
        return x, bias

    added = [helper.make_node("Cast", ["attention_mask"], ["fused_mask"], to=onnx.TensorProto.INT32,
                              name="fused_mask")]
    for erf in [n for n in graph.node if n.op_type == "Erf"]:
        out = erf.output[0]
        for op in ("Add", "Mul", "Mul"):  # + 1, * 0.5, * x
            out = only_user(out, op).output[0]
        x, bias = bias_add(made_by[erf.input[0]].input[0])
        added.append(helper.make_node("BiasGelu", [x, bias], [out], domain="com.microsoft",
                                      name=f"{erf.name}_bias_gelu"))
    for softmax in [n for n in graph.node if n.op_type == "Softmax"]:
        scores = made_by[made_by[softmax.input[0]].input[0]]
        (q, q_bias), (k, k_bias) = bias_add(scores.input[0]), bias_add(scores.input[1])
        guard = [n for n in used_by[softmax.output[0]] if n.op_type == "Where"]
        mixed = only_user(guard[0].output[0], "MatMul") if len(guard) == 1 else None
        if mixed is None or made_by[softmax.input[0]].op_type != "Add" or scores.op_type != "MatMul":
            raise EmbeddingError(f"the MiniLM graph changed: no attention pattern at {softmax.name}")
        v, v_bias = bias_add(mixed.input[1])
        out = only_user(only_user(mixed.output[0], "Transpose").output[0], "Reshape").output[0]
        qkv_bias = np.concatenate([numpy_helper.to_array(weights[b]) for b in (q_bias, k_bias, v_bias)])
        bias_name = f"{softmax.name}_qkv_bias"
        graph.initializer.append(numpy_helper.from_array(qkv_bias.astype(np.float32), bias_name))
        heads = qkv_bias.size // 3 // _head_size(weights, made_by, scores.input[0], numpy_helper)
        added.append(helper.make_node(
            "MultiHeadAttention", [q, k, v, bias_name, "fused_mask"], [out],
            domain="com.microsoft", num_heads=heads, name=f"{softmax.name}_attention"))
    _replace(graph, added)


def _head_size(weights: dict[str, Any], made_by: dict[str, Any], query: str, numpy_helper: Any) -> int:
    """The width of one attention head: the last dimension the query is reshaped to."""
    node = made_by[query]
    while node.op_type != "Reshape":
        node = made_by[node.input[0]]
    shape = made_by[node.input[1]]
    last = shape.input[-1]
    if last not in weights:
        raise EmbeddingError("the MiniLM graph changed: the query's head size is not a constant")
    return int(numpy_helper.to_array(weights[last]).reshape(-1)[-1])


def _replace(graph: Any, added: list[Any]) -> None:
    """``added`` nodes produce what they name in place of the old producers; then only the nodes and
    weights the graph's outputs need are kept, in an order where every input comes first."""
    replaced = {out for node in added for out in node.output}
    nodes = added + [n for n in graph.node if not replaced.intersection(n.output)]
    made_by = {out: n for n in nodes for out in n.output}
    needed: set[int] = set()
    stack = [o.name for o in graph.output]
    while stack:
        node = made_by.get(stack.pop())
        if node is not None and id(node) not in needed:
            needed.add(id(node))
            stack.extend(i for i in node.input if i)
    ready = {i.name for i in graph.input} | {w.name for w in graph.initializer} | {""}
    pending, ordered = [n for n in nodes if id(n) in needed], []
    while pending:
        runnable = [n for n in pending if all(i in ready for i in n.input)]
        if not runnable:
            raise EmbeddingError("the MiniLM graph changed: the fused graph has a cycle")
        for n in runnable:
            ready.update(n.output)
        ordered += runnable
        done = {id(n) for n in runnable}
        pending = [n for n in pending if id(n) not in done]
    inputs = {i for n in ordered for i in n.input}
    kept = [w for w in graph.initializer if w.name in inputs]
    del graph.node[:], graph.initializer[:]
    graph.node.extend(ordered)
    graph.initializer.extend(kept)


def rows_model(int8_model: Path | bytes, target: Path) -> Path | bytes:
    """The integer model for a batch of texts of one token length, any number a call: each
    ``DynamicQuantizeMatMul`` becomes what it computes, with each text's activations quantised by
    themselves (the text's own min and max, taken with zero, give its scale and zero point, as the
    fused operator takes them for a whole run) and one integer matrix product for the whole batch:
    ``QuantizeLinear`` on the batch axis, then one ``MatMulIntegerToFloat`` (`_zero_point_rows`) whose
    extra inner rows take off each text's zero point times the weight's column sums (exact in int32)
    and whose scale is the text's scale times the weight's column scale, as the fused operator
    multiplies. A text's vector is then bitwise the one it gets alone (tests/test_embed_onnx.py checks
    it), while the products run on the batch's rows at once. Made once into ``target``, then reused."""
    if target.is_file():
        return target
    onnx = _onnx()
    helper, numpy_helper = onnx.helper, onnx.numpy_helper
    model = onnx.load_from_string(int8_model) if isinstance(int8_model, bytes) else onnx.load(str(int8_model))
    weights = {w.name: w for w in model.graph.initializer}
    extra = [numpy_helper.from_array(np.float32(0), "rows_f0"),
             numpy_helper.from_array(np.float32(1), "rows_f1"),
             numpy_helper.from_array(np.float32(255), "rows_f255"),
             numpy_helper.from_array(np.array([-1, 1, 1], np.int64), "rows_per_text")]
    ids = model.graph.input[0].name  # (texts, tokens), the leading shape of every product's input
    nodes = [helper.make_node("Shape", [ids], ["rows_texts_tokens"], name="rows_texts_tokens")]
    augmented: set[str] = set()
    for node in model.graph.node:
        if node.op_type != "DynamicQuantizeMatMul":
            nodes.append(node)
            continue
        x, w, w_scale, w_zero = node.input[:4]
        if numpy_helper.to_array(weights[w_zero]).any():
            raise EmbeddingError(f"{node.name}: the per-text rewrite needs weights without a zero point")
        if w not in augmented:
            augmented.add(w)
            weight = numpy_helper.to_array(weights[w])
            below = _zero_point_rows(weight)
            extra += [numpy_helper.from_array(np.concatenate([weight, below]), f"{w}_rows"),
                      numpy_helper.from_array(np.array([len(below)], np.int64), f"{w}_extra")]
            nodes.append(helper.make_node("Concat", ["rows_texts_tokens", f"{w}_extra"], [f"{w}_zero_shape"],
                                          name=f"{w}_zero_shape", axis=0))
        steps = _per_text_steps(x, w, w_scale, onnx.TensorProto)
        local = {out for _, _, out, _ in steps}
        prefix = f"{node.name}_rows_"
        nodes += [
            helper.make_node(op, [prefix + i if i in local else i for i in ins], [prefix + out],
                             name=prefix + out, **attrs)
            for op, ins, out, attrs in steps
        ]
        product = [prefix + "xz", f"{w}_rows", prefix + "multiplier", "rows_f1"]
        nodes.append(helper.make_node("MatMulIntegerToFloat", product, list(node.output), name=prefix + "out",
                                      domain="com.microsoft"))
    used = {i for n in nodes for i in n.input}
    kept = [w for w in list(model.graph.initializer) + extra if w.name in used]  # not the weights replaced
    del model.graph.node[:], model.graph.initializer[:]
    model.graph.node.extend(nodes)
    model.graph.initializer.extend(kept)
    return _kept(model.SerializeToString(), target)


def _zero_point_rows(weight: np.ndarray) -> np.ndarray:
    """Rows to put below an int8 weight so that a text's zero point, repeated in as many extra columns of
    its quantised input, takes off zero point times the weight's column sums inside the integer product:
    they sum to minus the column sums, each entry within ±63. A zero point is up to 255, and x86 CPUs
    without VNNI multiply u8 by s8 in pairs summed into int16 (``vpmaddubsw``), which saturates above
    32767: two entries of ±127 times 255 would, two of ±63 cannot, so the product stays exact there too.

    >>> _zero_point_rows(np.array([[100, -3], [100, 1]], np.int8)).tolist()
    [[-63, 2], [-63, 0], [-63, 0], [-11, 0]]
    """
    left = -weight.astype(np.int64).sum(axis=0)
    rows: list[np.ndarray] = []
    while not rows or left.any():
        step = np.clip(left, -63, 63)
        rows.append(step)
        left = left - step
    return np.array(rows, np.int8)


Step = tuple[str, list[str], str, dict[str, Any]]


def _per_text_steps(x: str, w: str, w_scale: str, types: Any) -> list[Step]:
    """``DynamicQuantizeMatMul(x, w, w_scale, 0)`` with a scale and zero point per text (batch row):
    (operator, inputs, output, attributes), outputs named within the node; the product is then
    ``MatMulIntegerToFloat(xz, w_rows, multiplier, 1)``: the quantised input with the text's zero point
    in ``len(_zero_point_rows(w))`` more columns, and the text's scale times the column scale, which
    the product multiplies its exact integer sums by, as the fused operator does."""
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
        ("Reshape", ["zero", "rows_per_text"], "zero3", {}),
        ("Expand", ["zero3", f"{w}_zero_shape"], "zero_columns", {}),
        ("Concat", ["xq", "zero_columns"], "xz", {"axis": 2}),
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
