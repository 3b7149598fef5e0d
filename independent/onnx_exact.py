"""An ONNX interpreter written from the ONNX operator specification alone: it shares no code with tverify, so that it
can check tverify's answers.

Reals are Fractions (a stored float32 or float64 weight is the exact binary number it stores), integers are Python
ints checked against their element type's range, booleans are bools; every tensor is a numpy object array with its
ONNX element type beside it. The rational ops are computed exactly. The irrational ones (Exp, Log, Sqrt, Pow with a
fractional exponent, Erf, Tanh, Sigmoid, Softmax, LayerNormalization) give an `intervals.Interval` enclosing the exact
real wherever the exact value is not rational (e^0 = 1 and the square root of a square stay exact), at the precision
the caller sets with `intervals.precision`; the rational ops then compute on the enclosures, so every real is exact
or enclosed. A comparison that the enclosures leave undecided raises `intervals.Undecided` (the caller may retry at a
higher precision). An infinity is carried only where the model stores one in a tensor of zeros and infinities (a
mask, as `masked_fill(..., -inf)` exports it): a Softmax gives its entry weight exactly 0. Anything else this does not
compute (an op outside the list below, a non-finite weight among finite ones, a division by zero, an integer outside
its type's range, an indeterminate form) raises Refused, naming the node.
"""
from fractions import Fraction
import math

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper

import intervals
from intervals import Interval

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
        doubles = array.reshape(-1).astype(np.float64)
        if np.any(np.isnan(doubles)) or (not np.all(np.isfinite(doubles)) and np.any((doubles != 0) & np.isfinite(doubles))):
            raise Refused(f"'{name}' holds a NaN, or an infinity beside values other than 0")
        values = [float(v) if math.isinf(v) else Fraction(float(v)) for v in doubles]
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
    if elem in REAL and any(isinstance(v, float) and math.isnan(v) for v in t.values.reshape(-1)):
        raise Refused(f"node '{node.name}' ({node.op_type}): an indeterminate form (inf - inf or 0 * inf)")
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
    """Div; of integers, the quotient truncated toward zero (what ONNX runtimes compute: the operator's text does not
    say), checked against the type's range."""
    if any(v == 0 for v in b.values.reshape(-1)):
        raise Refused(f"node '{node.name}' (Div): division by zero")
    if any(_is_infinite(v) for v in b.values.reshape(-1)):
        raise Refused(f"node '{node.name}' (Div): division by an infinity")
    if a.elem in INTEGER:
        truncated = np.vectorize(lambda p, q: abs(p) // abs(q) * (1 if (p < 0) == (q < 0) else -1),
                                 otypes=[object])(a.values, b.values)
        return _checked(node, truncated, a.elem)
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
        pick = real_max if kind == "ReduceMax" else real_min
        out = items[0]
        for v in items[1:]:
            out = pick(out, v)
        return out

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


def real_max(a, b):
    """The larger of two reals; over intervals, the interval of the larger (no comparison needed)."""
    if _is_infinite(a) or _is_infinite(b):
        return a if (b == -math.inf or a == math.inf) else b
    if isinstance(a, Interval) or isinstance(b, Interval):
        return intervals.hull_max(a, b)
    return max(a, b)


def real_min(a, b):
    if _is_infinite(a) or _is_infinite(b):
        return a if (b == math.inf or a == -math.inf) else b
    if isinstance(a, Interval) or isinstance(b, Interval):
        return intervals.hull_min(a, b)
    return min(a, b)


def _is_infinite(v):
    return isinstance(v, float) and math.isinf(v)


def _exact_sqrt(q):
    """The square root of a Fraction when it is rational, else None."""
    if q < 0:
        return None
    p, r = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return Fraction(p, r) if p * p == q.numerator and r * r == q.denominator else None


def _exp(v):
    """e^v: exact at v = 0 and v = -inf, else an enclosure (cached by exact argument and precision)."""
    if _is_infinite(v):
        return Fraction(0) if v < 0 else v
    if isinstance(v, Interval):
        return intervals.exp(v)
    if v == 0:
        return Fraction(1)
    key = (v, intervals.bits())
    if key not in _EXP_CACHE:
        _EXP_CACHE[key] = intervals.exp(v)
    return _EXP_CACHE[key]


_EXP_CACHE = {}


def _sqrt(v):
    if not isinstance(v, Interval):
        root = _exact_sqrt(Fraction(v))
        if root is not None:
            return root
    return intervals.sqrt(v)


def _log(v):
    if not isinstance(v, Interval) and v == 1:
        return Fraction(0)
    return intervals.log(v)


def _odd_zero(fn):
    """An odd function, exact at 0."""
    return lambda v: Fraction(0) if (not isinstance(v, Interval) and v == 0) else fn(v)


IRRATIONAL_UNARY = {"Exp": _exp, "Sqrt": _sqrt, "Log": _log, "Erf": _odd_zero(intervals.erf),
                    "Tanh": _odd_zero(intervals.tanh), "Sigmoid": intervals.sigmoid}


def _real_function(node, fn, v):
    if _is_infinite(v):
        limits = {"Exp": (0, v), "Erf": (-1, 1), "Tanh": (-1, 1), "Sigmoid": (0, 1), "Sqrt": (None, v)}
        low, high = limits.get(node.op_type, (None, None))
        value = low if v < 0 else high
        if value is None:
            raise Refused(f"node '{node.name}' ({node.op_type}) of {v}")
        return Fraction(value) if isinstance(value, int) else value
    if isinstance(v, (Fraction, int)) and not isinstance(v, bool):
        if node.op_type in ("Sqrt", "Log") and v < 0 or node.op_type == "Log" and v == 0:
            raise Refused(f"node '{node.name}' ({node.op_type}) of {v}")
    return fn(v)


def _power(node, x, y):
    """x^y: an integer exponent exactly (ONNX Pow), a fractional one as e^(y ln x) for x > 0."""
    if isinstance(y, Interval):
        raise Refused(f"node '{node.name}' (Pow): an exponent that is not exact")
    if _is_infinite(x) or _is_infinite(y):
        raise Refused(f"node '{node.name}' (Pow): an infinite operand")
    if Fraction(y).denominator == 1:
        n = int(y)
        if n < 0 and not isinstance(x, Interval) and x == 0:
            raise Refused(f"node '{node.name}' (Pow): 0 to a negative power")
        return x ** n if isinstance(x, Interval) or n >= 0 else Fraction(1) / Fraction(x) ** -n
    if not isinstance(x, Interval):
        if x < 0:
            raise Refused(f"node '{node.name}' (Pow): a negative base to a fractional power")
        if x == 0:
            return Fraction(0)
    return intervals.exp(Fraction(y) * intervals.log(x))


def _softmax(node, x, axis):
    """Softmax along one axis (opset 13): w_i = 1 / sum_j e^(x_j - x_i), each difference's exponential enclosed
    directly (no enclosure is divided by itself, and e^0 = 1 exactly, so equal scores give exactly equal weights); an
    entry -inf weighs exactly 0."""
    axis = _axis(axis, x.values.ndim)
    moved = np.moveaxis(x.values, axis, -1)
    out = np.empty(moved.shape, dtype=object)
    for index in np.ndindex(*moved.shape[:-1]):
        row = list(moved[index])
        if any(v == math.inf for v in row if _is_infinite(v)):
            raise Refused(f"node '{node.name}' (Softmax): an entry +inf")
        finite = [k for k, v in enumerate(row) if not _is_infinite(v)]
        if not finite:
            raise Refused(f"node '{node.name}' (Softmax): a row of -inf only")
        weights = [Fraction(0)] * len(row)
        for i in finite:
            total = Fraction(1)
            for j in finite:
                if j != i:
                    total = total + _exp(row[j] - row[i])
            weights[i] = 1 / total
        out[index] = np.array(weights + [None], dtype=object)[:-1]
    return Tensor(np.moveaxis(out, -1, axis), x.elem)


def _range(node, start, limit, delta):
    """ONNX Range: max(ceil((limit - start) / delta), 0) elements start + i delta, of start's type."""
    elem = start.elem
    start, limit, delta = (t.values.reshape(-1)[0] for t in (start, limit, delta))
    if any(isinstance(v, Interval) for v in (start, limit, delta)) or delta == 0:
        raise Refused(f"node '{node.name}' (Range): bounds that are not exact, or a step 0")
    count = max(math.ceil(Fraction(limit - start) / Fraction(delta)), 0)
    return Tensor(np.array([start + i * delta for i in range(count)], dtype=object), elem)


def _gemm(node, inputs, attributes):
    """Y = alpha A' B' + beta C, A' and B' transposed when transA, transB say so."""
    a, b = inputs[0].values, inputs[1].values
    if attributes.get("transA", 0):
        a = a.T
    if attributes.get("transB", 0):
        b = b.T
    y = np.matmul(a, b) * Fraction(attributes.get("alpha", 1.0))
    if len(inputs) > 2 and inputs[2] is not None:
        y = y + inputs[2].values * Fraction(attributes.get("beta", 1.0))
    return _checked(node, y, inputs[0].elem)


def _layer_normalization(node, inputs, attributes):
    """LayerNormalization (opset 17): (x - mean) / sqrt(variance + epsilon) * scale + bias over the axes from `axis`
    on, the variance the mean of the squared deviations."""
    x = inputs[0].values
    axis = _axis(attributes.get("axis", -1), x.ndim)
    epsilon = Fraction(attributes.get("epsilon", 1e-5))
    axes = tuple(range(axis, x.ndim))
    count = int(np.prod([x.shape[a] for a in axes]))
    mean = np.sum(x, axis=axes, keepdims=True) / count
    deviation = x - mean
    variance = np.sum(deviation * deviation, axis=axes, keepdims=True) / count
    root = np.vectorize(lambda v: _sqrt(v + epsilon), otypes=[object])(variance)
    y = deviation / root * inputs[1].values
    if len(inputs) > 2 and inputs[2] is not None:
        y = y + inputs[2].values
    return _checked(node, y, inputs[0].elem)


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
        return [_variadic(real_max if op == "Max" else real_min)(node, *inputs)]
    if op in ("Relu", "Abs", "Neg"):
        fn = {"Relu": lambda v: real_max(v, 0 * v), "Abs": abs, "Neg": lambda v: -v}[op]
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
    if op in IRRATIONAL_UNARY:
        return [_unary(lambda v: _real_function(node, IRRATIONAL_UNARY[op], v))(node, inputs[0])]
    if op == "Pow":
        return [_checked(node, np.vectorize(lambda x, y: _power(node, x, y), otypes=[object])(
            inputs[0].values, inputs[1].values), inputs[0].elem)]
    if op == "Softmax":
        return [_softmax(node, inputs[0], attributes.get("axis", -1))]
    if op == "Range":
        return [_range(node, *inputs)]
    if op == "Gemm":
        return [_gemm(node, inputs, attributes)]
    if op == "LayerNormalization":
        return [_layer_normalization(node, inputs, attributes)]
    raise Refused(f"node '{node.name}': op {op} is not modelled by this interpreter")


def _hull_rows(node, data, token_sets):
    """Gather of the rows of `data` over a box of inputs: per position, the hull of the rows its tokens pick (a
    value every token's row shares stays exact)."""
    size = data.values.shape[0]
    rows = []
    for tokens in token_sets:
        if any(not 0 <= t < size for t in tokens):
            raise Refused(f"node '{node.name}' (Gather): a token outside [0, {size - 1}]")
        picked = [data.values[t] for t in tokens]
        row = np.empty(picked[0].shape, dtype=object)
        for index in np.ndindex(*row.shape):
            column = [r[index] for r in picked]
            row[index] = column[0] if all(v == column[0] for v in column[1:]) else intervals.hull(column)
        rows.append(row)
    return Tensor(np.array([rows], dtype=object).reshape((1, len(token_sets)) + data.values.shape[1:]), data.elem)


def _box_node(node, attributes, inputs, feed, token_sets):
    """The outputs of a node that reads the token input, over a box of inputs: an embedding lookup (Gather along
    axis 0 of a weight, by the tokens) gives each position the hull of its tokens' rows; Shape gives the shape; any
    other use of the token ids has no box evaluation."""
    if node.op_type == "Shape" and list(node.input) == [feed]:
        start, end = attributes.get("start", 0), attributes.get("end", 2)
        return [Tensor(np.array([1, len(token_sets)][slice(start, end)], dtype=object), TensorProto.INT64)]
    if node.op_type == "Gather" and list(node.input)[1:] == [feed] and node.input[0] != feed and \
            attributes.get("axis", 0) == 0 and inputs[0].values.ndim >= 1:
        return [_hull_rows(node, inputs[0], token_sets)]
    raise Refused(f"node '{node.name}' ({node.op_type}) reads the token ids: no evaluation over a box of inputs")


def evaluate(model, tokens, token_sets=None):
    """The graph's first output for the token sequence `tokens` (fed as its first input, shape [1, len]), exact or
    enclosed. With `token_sets` (one tuple of tokens per position), over the box of every sequence that picks one
    token per position: every value then encloses its value at each member."""
    opset = max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), default=0)
    if opset < 13:  # Softmax's axis, Squeeze's and ReduceSum's axes changed meaning at 13: read as from 13 on only
        raise Refused(f"the model imports opset {opset}: this interpreter reads the operators as opset 13 and later "
                      "define them")
    graph = model.graph
    values = {init.name: _stored(init) for init in graph.initializer}
    feed = graph.input[0]
    values[feed.name] = Tensor(np.array([list(tokens)], dtype=object), feed.type.tensor_type.elem_type)
    for node in graph.node:
        inputs = [values[name] if name else None for name in node.input]
        attributes = _attributes(node)
        if token_sets is not None and feed.name in node.input:
            outputs = _box_node(node, attributes, inputs, feed.name, token_sets)
        else:
            try:
                outputs = _evaluate(node, inputs, attributes)
            except (TypeError, ValueError, ZeroDivisionError, OverflowError) as error:
                raise Refused(f"node '{node.name}' ({node.op_type}): {error}")
        for name, out in zip(node.output, outputs):
            values[name] = _no_float(node, out)
    return values[graph.output[0].name]


def _no_float(node, tensor):
    """`tensor` if every real in it is a Fraction, an Interval or an infinity (a mask): a finite Python float would be
    floating point deciding what only exact or enclosed values may decide."""
    if tensor is not None and tensor.elem in REAL:
        for v in tensor.values.reshape(-1):
            if isinstance(v, float) and not math.isinf(v):
                raise Refused(f"node '{node.name}' ({node.op_type}): a value ({v}) is neither exact nor enclosed")
    return tensor
