"""Random graphs over the rational ops, checked by tverify and by the exact interpreter of independent/ (Python
fractions, written from the ONNX specification, no code shared with tverify): the verdicts, failure counts and
counterexamples must agree under --decode every and generate, and a graph whose integers leave their type's range on
some input must be refused (exit 2, the node named) by both.

Each graph reads tokens [BOS = V, x_1..x_n], gathers an embedding and applies a random chain of per-position steps
(linear maps, elementwise arithmetic with constants, Relu, Abs, Neg, Max, Min, Where over a comparison, a row
reduction, a round trip through an integer type of random width) and causal ones (CumSum over the positions), then
a linear readout to V + 1 classes. Weights are multiples of 1/8, exact in float32. The expected outputs are the
interpreter's own argmaxes, for two seeds in three with about one input in five changed, so that both verdicts occur
(a graph whose logits tie exactly fails unchanged).
"""
import itertools
import json
import os
import random
import sys

import pytest

from helpers import SOURCE_DIR, cli

onnx = pytest.importorskip("onnx")
np = pytest.importorskip("numpy")
from onnx import TensorProto, helper  # noqa: E402

sys.path.insert(0, os.path.join(SOURCE_DIR, "independent"))
import model_answers  # noqa: E402
import onnx_exact  # noqa: E402

V, LENGTHS, GENERATED, SEEDS = 3, (1, 2, 3), 2, range(60)
NARROW = [TensorProto.INT8, TensorProto.UINT8, TensorProto.INT16, TensorProto.INT32, TensorProto.UINT16]


class Builder:
    def __init__(self, rng):
        self.rng, self.nodes, self.initializers, self.count = rng, [], [], 0

    def name(self, stem):
        self.count += 1
        return f"{stem}{self.count}"

    def constant(self, shape, elem=TensorProto.FLOAT, low=-16, high=16):
        name = self.name("w")
        size = int(np.prod(shape)) if shape else 1
        if elem == TensorProto.FLOAT:
            values = [self.rng.randint(low, high) / 8 for _ in range(size)]
        else:
            values = [self.rng.randint(max(low, 0) if elem in (TensorProto.UINT8, TensorProto.UINT16) else low, high)
                      for _ in range(size)]
        self.initializers.append(helper.make_tensor(name, elem, shape, values))
        return name

    def ints(self, values):
        name = self.name("i")
        self.initializers.append(helper.make_tensor(name, TensorProto.INT64, [len(values)], values))
        return name

    def node(self, op, inputs, **attributes):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name=out, **attributes))
        return out


def random_step(b, x, d):
    """One random step on x [1, n, d]: the new tensor and its width."""
    kind = b.rng.choice(["linear", "elementwise", "unary", "minmax", "where", "reduce", "cumsum", "integers"])
    if kind == "linear":
        width = b.rng.randint(1, 4)
        return b.node("Add", [b.node("MatMul", [x, b.constant([d, width])]), b.constant([width])]), width
    if kind == "elementwise":
        op = b.rng.choice(["Add", "Sub", "Mul", "Div"])
        c = b.constant([d], low=1, high=16) if op == "Div" else b.constant([d])
        return b.node(op, [x, c]), d
    if kind == "unary":
        return b.node(b.rng.choice(["Relu", "Abs", "Neg"]), [x]), d
    if kind == "minmax":
        return b.node(b.rng.choice(["Max", "Min"]), [x, b.constant([d])]), d
    if kind == "where":
        comparison = b.node(b.rng.choice(["Greater", "Less", "Equal", "GreaterOrEqual"]), [x, b.constant([d])])
        return b.node("Where", [comparison, x, b.node("Mul", [x, b.constant([d])])]), d
    if kind == "reduce":
        op = b.rng.choice(["ReduceSum", "ReduceMax", "ReduceMin"])
        reduced = (b.node(op, [x, b.ints([2])], keepdims=1) if op == "ReduceSum"
                   else b.node(op, [x], axes=[2], keepdims=1))
        return b.node("Sub", [x, reduced]), d
    if kind == "cumsum":
        return b.node("CumSum", [x, b.ints([1])]), d
    elem = b.rng.choice(NARROW)
    scaled = b.node("Mul", [x, b.constant([d], low=8, high=64)])
    integers = b.node("Cast", [scaled], to=elem)
    op = b.rng.choice(["Add", "Mul", "Sub"])
    integers = b.node(op, [integers, b.constant([d], elem, low=-4 if op != "Mul" else 1, high=40)])
    return b.node("Cast", [integers], to=TensorProto.FLOAT), d


def random_model(seed):
    b = Builder(random.Random(seed))
    d = b.rng.randint(2, 4)
    x = b.node("Gather", [b.constant([V + 1, d]), "tokens"], axis=0)
    for _ in range(b.rng.randint(2, 6)):
        x, d = random_step(b, x, d)
    b.node("MatMul", [x, b.constant([d, V + 1])])
    b.nodes[-1].output[0] = "logits"
    graph = helper.make_graph(b.nodes, f"random{seed}",
                              [helper.make_tensor_value_info("tokens", TensorProto.INT64, [1, "seq"])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, "seq", V + 1])],
                              b.initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def expected_lines(model, rng, decode, changed):
    """The --expected pairs (the interpreter's own outputs, a tie read as its first class, and with `changed` about
    one in five changed); or the first input on which the interpreter refuses the graph, and why."""
    lines = []
    for n in LENGTHS:
        for x in itertools.product(range(V), repeat=n):
            prompt = [V, *x]
            try:
                if decode == "every":
                    output = [model_answers.argmax(row) for row in model_answers.logit_rows(model, prompt)[1:]]
                else:
                    output = generated_targets(model, prompt)
            except onnx_exact.Refused as refusal:
                return None, (prompt, str(refusal))
            output = [first_class(o) for o in output]
            if changed and rng.random() < 0.2:
                k = rng.randrange(len(output))
                output[k] = (output[k] + 1) % (V + 1)
            lines.append({"input": prompt, "output": output})
    return lines, None


def first_class(answer):
    """An argmax's class, or the first of a tie "tie a,b"."""
    return answer if isinstance(answer, int) else int(answer.split()[1].split(",")[0])


def generated_targets(model, prompt):
    """GENERATED tokens of greedy generation, a tie read as its first class."""
    sequence = list(prompt)
    for _ in range(GENERATED):
        token = model_answers.argmax(model_answers.logit_rows(model, sequence)[-1])
        sequence.append(first_class(token))
    return sequence[len(prompt):]


def reference(model, lines, decode):
    """The counterexamples, in the file's order, as (input, got)."""
    failures = []
    for line in lines:
        if decode == "every":
            right, got = model_answers.every(model, line["input"], line["output"])
        else:
            right, got = model_answers.generate(model, line["input"], line["output"], max_token=V)
        if not right:
            failures.append((line["input"], got))
    return failures


@pytest.mark.parametrize("decode", ["every", "generate"])
def test_random_graphs_agree_with_an_exact_interpreter(tmp_path, decode):
    kinds = {"verified": 0, "refuted": 0, "refused": 0}
    for seed in SEEDS:
        model = random_model(seed)
        path = tmp_path / f"random{seed}.onnx"
        onnx.save(model, str(path))
        lines, refusal = expected_lines(model, random.Random(seed), decode, changed=seed % 3 != 0)
        if refusal is not None:  # the refused node's outputs are never compared: run tverify on a trivial file
            lines = [{"input": [V, *x], "output": [0] * (n if decode == "every" else GENERATED)}
                     for n in LENGTHS for x in itertools.product(range(V), repeat=n)]
        (tmp_path / "pairs.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
        run = cli("check", "model", "--onnx", str(path), "--expected", "pairs.jsonl", "--decode", decode,
                  "--max-counterexamples", "1000", "--threads", "1", "--json", "cert.json", cwd=tmp_path)
        context = f"seed {seed}, --decode {decode}: {run.stderr.strip()[-400:]}"
        if refusal is not None:
            kinds["refused"] += 1
            assert run.returncode == 2, context
            prompt, why = refusal
            node = why.split("'")[1]  # the first input refused, and the node
            assert f"on the input {prompt}: node '{node}'" in run.stderr, f"{context} / reference: {prompt} {why}"
            continue
        assert run.returncode in (0, 1), context
        claim = json.loads((tmp_path / "cert.json").read_text())["claims"][0]
        failures = reference(model, lines, decode)
        kinds["refuted" if failures else "verified"] += 1
        assert claim["verdict"] == ("refuted" if failures else "verified"), context
        assert claim["failed"] == len(failures), context
        assert [(c["input"], c["got"]) for c in claim["counterexamples"]] == failures, context
    assert all(kinds.values()), kinds  # every outcome occurs among the seeds
