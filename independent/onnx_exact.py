"""An exact ONNX interpreter for rational graphs, written from the ONNX operator specification alone: it shares no code
with tverify, so that it can check tverify's answers.

Reals are Fractions (a stored float32 or float64 weight is the exact binary number it stores), integers are Python
ints checked against their element type's range, booleans are bools; every tensor is a numpy object array with its
ONNX element type beside it. Only what can be computed exactly is: an op outside the list below, a non-finite
weight, a division by zero or an integer outside its type's range (where ONNX Runtime and numpy wrap around) raises
Refused, naming the node.
"""
from fractions import Fraction
import math

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper

REAL = {TensorProto.FLOAT: (24, -126, 127), TensorProto.DOUBLE: (53, -1022, 1023),
        TensorProto.FLOAT16: (11, -14, 15), TensorProto.BFLOAT16: (8, -126, 127)}  # precision, emin, emax
INTEGER = {TensorProto.INT8: (-2**7, 2**7 - 1), TensorProto.UINT8: (0, 2**8 - 1),
           TensorProto.INT16: (-2**15, 2**15 - 1), TensorProto.UINT16: (0, 2**16 - 1),
           TensorProto.INT32: (-2**31, 2**31 - 1), TensorProto.UINT32: (0, 2**32 - 1),
           TensorProto.INT64: (-2**63, 2**63 - 1), TensorProto.UINT64: (0, 2**64 - 1)}
BOOL = TensorProto.BOOL


class Refused(Exception):
    """The graph leaves what this interpreter computes exactly (the message names the node)."""


class Tensor:
    def __init__(self, values, elem):
        self.values = np.asarray(values, dtype=object)
        self.elem = elem

    def ints(self):
        return [int(v) for v in self.values.reshape(-1)]


def round_to_real_type(q, elem):
    """q rounded to nearest, ties to even, into the real type `elem` (subnormals included); past the largest finite
    value, an infinity, which this interpreter refuses."""
    precision, emin, emax = REAL[elem]
    if q == 0:
        return Fraction(0)
    magnitude = abs(q)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()  # floor(log2 |q|) or one above
    if magnitude < Fraction(2) ** exponent:
        exponent -= 1
    exponent = max(exponent, emin)
    ulp = Fraction(2) ** (exponent - precision + 1)
    m = q / ulp
    rounded = round(m)  # Python rounds a Fraction half to even
    result = rounded * ulp
    if abs(result) >= Fraction(2) ** (emax + 1):
        raise OverflowError
    return result


def _stored(initializer):
    array = numpy_helper.to_array(initializer)
    elem = initializer.data_type
    return _from_numpy(array, elem, initializer.name)


def _from_numpy(array, elem, name):
    if elem in REAL:
        if not np.all(np.isfinite(array.astype(np.float64))):
            raise Refused(f"'{name}' holds a value that is not finite")
        values = [Fraction(float(v)) for v in array.reshape(-1).astype(np.float64)]
    elif elem in INTEGER:
        values = [int(v) for v in array.reshape(-1)]
    elif elem == BOOL:
        values = [bool(v) for v in array.reshape(-1)]
    else:
        raise Refused(f"'{name}' has element type {TensorProto.DataType.Name(elem)}")
    return Tensor(np.array(values, dtype=object).reshape(array.shape), elem)


def _attributes(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _checked(node, values, elem):
    """values as a tensor of `elem`, every integer inside its type's range."""
    t = Tensor(values, elem)
    if elem in INTEGER:
        lo, hi = INTEGER[elem]
        for v in t.values.reshape(-1):
            if not lo <= v <= hi:
                raise Refused(f"node '{node.name}' ({node.op_type}): {v} is outside "
                              f"{TensorProto.DataType.Name(elem)}")
    return t


def _axis(axis, rank):
    return axis + rank if axis < 0 else axis


def _cast(node, x, to):
    flat = []
    for v in x.values.reshape(-1):
        if to == BOOL:
            flat.append(v != 0)
        elif to in INTEGER:
            flat.append(int(v))  # a real truncates toward zero; a bool is 0 or 1
        elif to in REAL:
            try:
                flat.append(round_to_real_type(Fraction(v), to))
            except OverflowError:
                raise Refused(f"node '{node.name}' (Cast): {v} rounds to an infinity")
        else:
            raise Refused(f"node '{node.name}' (Cast): to {TensorProto.DataType.Name(to)}")
    return _checked(node, np.array(flat, dtype=object).reshape(x.values.shape), to)


def _divide(node, a, b):
    if a.elem not in REAL:
        raise Refused(f"node '{node.name}' (Div): integer division is not modelled")
    if any(v == 0 for v in b.values.reshape(-1)):
        raise Refused(f"node '{node.name}' (Div): division by zero")
    return Tensor(a.values / b.values, a.elem)


def _reduce(node, x, axes, attributes):
    rank = x.values.ndim
    if not axes:
        if attributes.get("noop_with_empty_axes", 0):
            return x
        axes = list(range(rank))
    axes = tuple(sorted(_axis(a, rank) for a in axes))
    keep = bool(attributes.get("keepdims", 1))
    kind = node.op_type
    if kind == "ReduceMean" and x.elem not in REAL:
        raise Refused(f"node '{node.name}' (ReduceMean): of integers is not modelled")

    def fold(v):
        items = list(v.reshape(-1))
        if kind == "ReduceMean" and not items:
            raise Refused(f"node '{node.name}' (ReduceMean): over an empty axis")
        if kind in ("ReduceSum", "ReduceMean"):
            total = sum(items, Fraction(0) if x.elem in REAL else 0)
            return total / len(items) if kind == "ReduceMean" else total
        if kind == "ReduceProd":
            return math.prod(items)
        if not items:
            raise Refused(f"node '{node.name}' ({kind}): over an empty axis")
        return max(items) if kind == "ReduceMax" else min(items)

    moved = np.moveaxis(x.values, axes, tuple(range(rank - len(axes), rank)))
    kept_shape = moved.shape[:rank - len(axes)]
    out = np.empty(kept_shape, dtype=object)
    for index in np.ndindex(*kept_shape):
        out[index] = fold(moved[index])
    if keep:
        out = out.reshape([1 if i in axes else s for i, s in enumerate(x.values.shape)])
    return _checked(node, out, x.elem)


def _cumsum(node, x, axis, attributes):
    axis = _axis(axis, x.values.ndim)
    values = np.flip(x.values, axis) if attributes.get("reverse", 0) else x.values
    out = np.cumsum(values, axis=axis)
    if attributes.get("exclusive", 0):
        out = out - values
    if attributes.get("reverse", 0):
        out = np.flip(out, axis)
    return _checked(node, out, x.elem)


def _reshape(x, shape):
    shape = [x.values.shape[i] if s == 0 else s for i, s in enumerate(shape)]
    return Tensor(x.values.reshape(shape), x.elem)


def _slice(x, starts, ends, axes, steps):
    rank = x.values.ndim
    axes = axes or list(range(len(starts)))
    steps = steps or [1] * len(starts)
    index = [slice(None)] * rank
    for start, end, axis, step in zip(starts, ends, axes, steps):
        index[_axis(axis, rank)] = slice(*slice(start, end, step).indices(x.values.shape[_axis(axis, rank)]))
    return Tensor(x.values[tuple(index)], x.elem)


def _constant(node, attributes):
    if "value" in attributes:
        return _stored(attributes["value"])
    for key, elem in (("value_float", TensorProto.FLOAT), ("value_floats", TensorProto.FLOAT),
                      ("value_int", TensorProto.INT64), ("value_ints", TensorProto.INT64)):
        if key in attributes:
            dtype = np.float32 if elem == TensorProto.FLOAT else np.int64
            return _from_numpy(np.array(attributes[key], dtype=dtype), elem, node.name)
    raise Refused(f"node '{node.name}' (Constant): no value this interpreter reads")


def _binary(fn):
    return lambda node, a, b: _checked(node, fn(a.values, b.values), a.elem)


def _compare(fn):
    return lambda node, a, b: Tensor(fn(a.values, b.values), BOOL)


def _variadic(fn):
    def run(node, *xs):
        values = xs[0].values
        for x in xs[1:]:
            values = np.vectorize(fn, otypes=[object])(values, x.values)
        return Tensor(values, xs[0].elem)
    return run


def _unary(fn):
    return lambda node, x: _checked(node, np.vectorize(fn, otypes=[object])(x.values) if x.values.size
                                    else x.values, x.elem)


def _trilu(node, x, k=None):
    k = k.ints()[0] if k is not None else 0
    rows, cols = x.values.shape[-2:]
    keep = np.array([[(j - i >= k) if _attributes(node).get("upper", 1) else (j - i <= k) for j in range(cols)]
                     for i in range(rows)], dtype=bool)
    zero = Fraction(0) if x.elem in REAL else (False if x.elem == BOOL else 0)
    return Tensor(np.where(keep, x.values, zero), x.elem)


def _gather(node, data, indices, axis):
    axis = _axis(axis, data.values.ndim)
    size = data.values.shape[axis]
    flat = []
    for i in indices.values.reshape(-1):
        if not -size <= i < size:
            raise Refused(f"node '{node.name}' (Gather): index {i} outside [{-size}, {size - 1}]")
        flat.append(i + size if i < 0 else i)
    taken = np.take(data.values, np.array(flat, dtype=np.int64).reshape(indices.values.shape), axis=axis)
    return Tensor(taken, data.elem)


def _evaluate(node, inputs, attributes):
    """The outputs of one node (a list), from its inputs (None where an optional input is absent)."""
    op = node.op_type
    arithmetic = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply}
    comparisons = {"Equal": np.equal, "Less": np.less, "Greater": np.greater, "LessOrEqual": np.less_equal,
                   "GreaterOrEqual": np.greater_equal}
    if op in arithmetic:
        return [_binary(arithmetic[op])(node, *inputs)]
    if op in comparisons:
        return [_compare(comparisons[op])(node, *inputs)]
    if op == "Div":
        return [_divide(node, *inputs)]
    if op == "MatMul":
        a, b = inputs
        return [_checked(node, np.matmul(a.values, b.values), a.elem)]
    if op in ("Max", "Min"):
        return [_variadic(max if op == "Max" else min)(node, *inputs)]
    if op in ("Relu", "Abs", "Neg"):
        fn = {"Relu": lambda v: max(v, 0 * v), "Abs": abs, "Neg": lambda v: -v}[op]
        return [_unary(fn)(node, inputs[0])]
    if op in ("And", "Or"):
        fn = np.logical_and if op == "And" else np.logical_or
        return [Tensor(fn(inputs[0].values, inputs[1].values).astype(object), BOOL)]
    if op == "Not":
        return [Tensor(np.logical_not(inputs[0].values.astype(bool)).astype(object), BOOL)]
    if op == "Where":
        return [Tensor(np.where(inputs[0].values.astype(bool), inputs[1].values, inputs[2].values), inputs[1].elem)]
    if op == "Cast":
        return [_cast(node, inputs[0], attributes["to"])]
    if op == "Gather":
        return [_gather(node, inputs[0], inputs[1], attributes.get("axis", 0))]
    if op == "CumSum":
        return [_cumsum(node, inputs[0], inputs[1].ints()[0], attributes)]
    if op.startswith("Reduce"):
        axes = inputs[1].ints() if len(inputs) > 1 and inputs[1] is not None else list(attributes.get("axes", []))
        return [_reduce(node, inputs[0], axes, attributes)]
    if op == "Dropout" and len(inputs) > 2 and inputs[2] is not None and any(inputs[2].values.reshape(-1)):
        raise Refused(f"node '{node.name}' (Dropout): in training mode")
    if op in ("Identity", "Dropout"):
        return [inputs[0]]
    if op == "Transpose":
        perm = attributes.get("perm", list(reversed(range(inputs[0].values.ndim))))
        return [Tensor(np.transpose(inputs[0].values, perm), inputs[0].elem)]
    if op == "Reshape":
        return [_reshape(inputs[0], inputs[1].ints())]
    if op in ("Unsqueeze", "Squeeze"):
        x = inputs[0]
        axes = inputs[1].ints() if len(inputs) > 1 and inputs[1] is not None else None
        if op == "Unsqueeze":
            values = x.values
            for axis in sorted(_axis(a, x.values.ndim + len(axes)) for a in axes):
                values = np.expand_dims(values, axis)
            return [Tensor(values, x.elem)]
        axes = tuple(_axis(a, x.values.ndim) for a in axes) if axes else None
        return [Tensor(np.squeeze(x.values, axis=axes), x.elem)]
    if op == "Shape":
        shape = list(inputs[0].values.shape)
        start, end = attributes.get("start", 0), attributes.get("end", len(shape))
        return [Tensor(np.array(shape[slice(start, end)], dtype=object), TensorProto.INT64)]
    if op == "Concat":
        return [Tensor(np.concatenate([x.values for x in inputs], axis=attributes["axis"]), inputs[0].elem)]
    if op == "Slice":
        ints = [x.ints() if x is not None else None for x in inputs[1:]] + [None] * (5 - len(inputs))
        return [_slice(inputs[0], ints[0], ints[1], ints[2], ints[3])]
    if op == "Constant":
        return [_constant(node, attributes)]
    if op == "ConstantOfShape":
        fill = _stored(attributes["value"]) if "value" in attributes else Tensor([Fraction(0)], TensorProto.FLOAT)
        return [Tensor(np.full(inputs[0].ints(), fill.values.reshape(-1)[0], dtype=object), fill.elem)]
    if op == "Expand":
        shape = np.broadcast_shapes(inputs[0].values.shape, tuple(inputs[1].ints()))
        return [Tensor(np.broadcast_to(inputs[0].values, shape).copy(), inputs[0].elem)]
    if op == "Trilu":
        return [_trilu(node, *inputs)]
    raise Refused(f"node '{node.name}': op {op} is not modelled by this interpreter")


def evaluate(model, tokens):
    """The graph's first output for the token sequence `tokens` (fed as its first input, shape [1, len]), exact."""
    graph = model.graph
    values = {init.name: _stored(init) for init in graph.initializer}
    feed = graph.input[0]
    values[feed.name] = Tensor(np.array([list(tokens)], dtype=object), feed.type.tensor_type.elem_type)
    for node in graph.node:
        inputs = [values[name] if name else None for name in node.input]
        for name, out in zip(node.output, _evaluate(node, inputs, _attributes(node))):
            values[name] = out
    return values[graph.output[0].name]
