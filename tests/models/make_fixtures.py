"""Writes the small ONNX models the model checker's tests load (python3-onnx only, no PyTorch).

Each model reads int64 tokens of shape [1, seq] (seq a symbolic axis unless named fixed) and writes logits
[1, seq, 8]. Run from the repository root: /usr/bin/python3 tests/models/make_fixtures.py
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = 8


def tokens_input(seq="seq"):
    return helper.make_tensor_value_info("tokens", TensorProto.INT64, [1, seq])


def logits_output(seq="seq"):
    return helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, seq, CLASSES])


def save(name, nodes, initializers, opset=14, seq="seq", input_info=None):
    graph = helper.make_graph(nodes, name, [input_info or tokens_input(seq)], [logits_output(seq)], initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="make_fixtures")
    with open(os.path.join(HERE, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())
    return model


def one_hot_nodes(source, out="logits"):
    """logits[0, p, c] = 1.0 if source[0, p] == c else 0.0, with an embedding of 9 rows (tokens 0..8)."""
    embedding = numpy_helper.from_array(np.eye(9, CLASSES, dtype=np.float32), "embedding")
    return [helper.make_node("Gather", ["embedding", source], [out], name="embed")], [embedding]


def reverse_model():
    """y_i = x_{n+1-i} by index arithmetic: position p reads position L - p (clamped to L - 1 at BOS), exactly."""
    consts = [numpy_helper.from_array(np.array(v, dtype=np.int64), n) for v, n in
              [(0, "zero"), (1, "one"), ([1], "axis1")]]
    nodes = [
        helper.make_node("Shape", ["tokens"], ["shape"], start=1, end=2, name="length"),
        helper.make_node("Squeeze", ["shape"], ["L"], name="scalar_length"),
        helper.make_node("Range", ["zero", "L", "one"], ["p"], name="positions"),
        helper.make_node("Sub", ["L", "p"], ["mirror"], name="mirror"),
        helper.make_node("Sub", ["L", "one"], ["last"], name="last"),
        helper.make_node("Min", ["mirror", "last"], ["source"], name="clamp"),
        helper.make_node("Gather", ["tokens", "source"], ["reversed"], axis=1, name="read"),
    ]
    embed_nodes, embed_init = one_hot_nodes("reversed")
    return save("reverse", nodes + embed_nodes, consts + embed_init, opset=15)


def identity_model():
    """The reverse task done wrong: y_i = x_i (the model forgot to reverse); right exactly on palindromes."""
    embed_nodes, embed_init = one_hot_nodes("tokens")
    return save("identity", embed_nodes, embed_init)


def fixed_length_model():
    """identity exported at a fixed length of 4 tokens."""
    embed_nodes, embed_init = one_hot_nodes("tokens")
    return save("identity_fixed4", embed_nodes, embed_init, seq=4)


def softmax_model(name, beta):
    """Attention to the keys of the same token: position p attends with weights softmax(beta * [x_j == x_p]) and
    reads back one-hot tokens, so the argmax is x_p whenever exp(beta) outweighs the other keys (beta = 4 does for
    up to 54 tokens); with beta = 0 the logits are the token frequencies."""
    eye = numpy_helper.from_array(np.eye(9, CLASSES, dtype=np.float32), "embedding")
    scale = numpy_helper.from_array(np.array(beta, dtype=np.float32), "beta")
    nodes = [
        helper.make_node("Gather", ["embedding", "tokens"], ["e"], name="embed"),
        helper.make_node("Transpose", ["e"], ["eT"], perm=[0, 2, 1], name="keys"),
        helper.make_node("MatMul", ["e", "eT"], ["match"], name="scores"),
        helper.make_node("Mul", ["match", "beta"], ["scaled"], name="temperature"),
        helper.make_node("Softmax", ["scaled"], ["weights"], axis=-1, name="attention"),
        helper.make_node("MatMul", ["weights", "e"], ["logits"], name="read"),
    ]
    return save(name, nodes, [eye, scale])


def masked_model():
    """Causal attention with a -inf mask (as masked_fill exports it): position p gives weight 1/(p+1) to each
    j <= p and exactly 0 beyond, and reads back one-hot tokens, so its logits are the token frequencies of
    x_0..x_p (BOS included): the argmax is the most frequent token, and equally frequent tokens tie."""
    eye = numpy_helper.from_array(np.eye(9, CLASSES, dtype=np.float32), "embedding")
    minus_inf = numpy_helper.from_array(np.array(-np.inf, dtype=np.float32), "minus_inf")
    zero = numpy_helper.from_array(np.array(0.0, dtype=np.float32), "fzero")
    consts = [numpy_helper.from_array(np.array(v, dtype=np.int64), n) for v, n in [(1, "k")]]
    nodes = [
        helper.make_node("Gather", ["embedding", "tokens"], ["e"], name="embed"),
        helper.make_node("Shape", ["tokens"], ["shape"], start=1, end=2, name="length"),
        helper.make_node("Concat", ["shape", "shape"], ["square"], axis=0, name="square"),
        helper.make_node("ConstantOfShape", ["square"], ["ones"],
                         value=numpy_helper.from_array(np.array([1], dtype=np.int64)), name="ones"),
        helper.make_node("Trilu", ["ones", "k"], ["strict"], upper=1, name="strictly_above"),
        helper.make_node("Cast", ["strict"], ["future"], to=TensorProto.BOOL, name="future"),
        helper.make_node("Where", ["future", "minus_inf", "fzero"], ["mask"], name="mask"),
        helper.make_node("Softmax", ["mask"], ["weights"], axis=-1, name="attention"),
        helper.make_node("MatMul", ["weights", "e"], ["logits"], name="read"),
    ]
    return save("masked_prefix", nodes, [eye, minus_inf, zero] + consts, opset=15)


def unsupported_op_model():
    embed_nodes, embed_init = one_hot_nodes("tokens", out="e")
    nodes = embed_nodes + [helper.make_node("Sin", ["e"], ["logits"], name="wave")]
    return save("unsupported_sin", nodes, embed_init)


def old_opset_model():
    embed_nodes, embed_init = one_hot_nodes("tokens")
    return save("opset11", embed_nodes, embed_init, opset=11)


def real_input_model():
    embed_nodes, embed_init = one_hot_nodes("tokens")
    return save("real_input", embed_nodes, embed_init,
                input_info=helper.make_tensor_value_info("tokens", TensorProto.FLOAT, [1, "seq"]))


def nan_weight_model():
    table = np.eye(9, CLASSES, dtype=np.float32)
    table[2, 3] = np.nan
    return save("nan_weight", [helper.make_node("Gather", ["embedding", "tokens"], ["logits"], name="embed")],
                [numpy_helper.from_array(table, "embedding")])


def infinite_weight_model():
    table = np.eye(9, CLASSES, dtype=np.float32)
    table[2, 3] = np.inf
    return save("inf_weight", [helper.make_node("Gather", ["embedding", "tokens"], ["logits"], name="embed")],
                [numpy_helper.from_array(table, "embedding")])


def small_embedding_model():
    """An embedding of 3 rows: tokens 0..2 only."""
    table = numpy_helper.from_array(np.eye(3, CLASSES, dtype=np.float32), "embedding")
    return save("three_rows", [helper.make_node("Gather", ["embedding", "tokens"], ["logits"], name="embed")], [table])


def bad_broadcast_model():
    """LayerNormalization of [1, seq, 8] logits with a scale of 2 entries, which does not broadcast to the 8."""
    embed_nodes, embed_init = one_hot_nodes("tokens", out="e")
    scale = numpy_helper.from_array(np.ones(2, dtype=np.float32), "scale")
    nodes = embed_nodes + [helper.make_node("LayerNormalization", ["e", "scale"], ["logits"], axis=-1, name="norm")]
    return save("bad_broadcast", nodes, embed_init + [scale], opset=17)


def cast_overflow_model():
    """tokens + 300 cast to uint8 before the embedding: 300 does not fit (ONNX Runtime would wrap it to 44)."""
    shift = numpy_helper.from_array(np.array(300, dtype=np.int64), "shift")
    nodes = [helper.make_node("Add", ["tokens", "shift"], ["shifted"], name="shift"),
             helper.make_node("Cast", ["shifted"], ["small"], to=TensorProto.UINT8, name="narrow")]
    embed_nodes, embed_init = one_hot_nodes("small")
    return save("cast_overflow", nodes + embed_nodes, embed_init + [shift])


def int_overflow_model():
    """tokens + (2^63 - 1): past 2^63 for every token but 0."""
    big = numpy_helper.from_array(np.array(2 ** 63 - 1, dtype=np.int64), "big")
    nodes = [helper.make_node("Add", ["tokens", "big"], ["shifted"], name="overflow"),
             helper.make_node("Sub", ["shifted", "big"], ["back"], name="back")]
    embed_nodes, embed_init = one_hot_nodes("back")
    return save("int_overflow", nodes + embed_nodes, embed_init + [big])


def dropout_training_model():
    """Dropout with training_mode true: random, no function of its input."""
    embed_nodes, embed_init = one_hot_nodes("tokens", out="e")
    consts = [numpy_helper.from_array(np.array(0.5, dtype=np.float32), "ratio"),
              numpy_helper.from_array(np.array(True), "training")]
    nodes = embed_nodes + [helper.make_node("Dropout", ["e", "ratio", "training"], ["logits"], name="drop")]
    return save("dropout_training", nodes, embed_init + consts)


def exponent_exact_beyond_doubles_model():
    """logits = one_hot(x) * (-3)^e with e = (2 + 2^-60) - 2^-60 = 2: in doubles 2 + 2^-60 is not a point, so e is
    enclosed in an interval around 2 and (-3)^e has no real value; at 256 bits e is the point 2 and the logits are
    9 * one_hot(x). The checker must climb past the double rung instead of reporting an error."""
    consts = [numpy_helper.from_array(np.array(v, dtype=np.float32), n) for v, n in
              [(-3.0, "base"), (2.0, "two"), (2.0 ** -60, "tiny")]]
    nodes = [
        helper.make_node("Add", ["two", "tiny"], ["two_and_tiny"], name="add_tiny"),
        helper.make_node("Sub", ["two_and_tiny", "tiny"], ["exponent"], name="remove_tiny"),
        helper.make_node("Pow", ["base", "exponent"], ["nine"], name="power"),
        helper.make_node("Mul", ["one_hot", "nine"], ["logits"], name="scale"),
    ]
    embed_nodes, embed_init = one_hot_nodes("tokens", out="one_hot")
    return save("exponent_exact_beyond_doubles", embed_nodes + nodes, embed_init + consts)


if __name__ == "__main__":
    for make in [reverse_model, identity_model, fixed_length_model, masked_model, unsupported_op_model,
                 old_opset_model, real_input_model, nan_weight_model, infinite_weight_model, small_embedding_model,
                 bad_broadcast_model, cast_overflow_model, int_overflow_model, dropout_training_model,
                 exponent_exact_beyond_doubles_model]:
        make()
    softmax_model("attend_same", 4.0)
    softmax_model("attend_uniform", 0.0)
    full = open(os.path.join(HERE, "reverse.onnx"), "rb").read()
    with open(os.path.join(HERE, "truncated.onnx"), "wb") as f:
        f.write(full[: len(full) // 2])
    with open(os.path.join(HERE, "not_onnx.onnx"), "w") as f:
        f.write("this is a text file, not a model\n")
    for name in sorted(os.listdir(HERE)):
        if name.endswith(".onnx") and name not in ("truncated.onnx", "not_onnx.onnx"):
            try:
                onnx.checker.check_model(onnx.load(os.path.join(HERE, name)))
            except Exception as e:  # the deliberately bad ones
                print(f"{name}: not a valid model ({str(e).splitlines()[0][:80]})")
