"""The independent checker (independent/confirm.py, no code shared with tverify) on model certificates the binary
writes: it confirms them, catches forged counterexamples, margins, boxes, counts and model files, and refuses bad
input with exit 2 and one line. Its arithmetic (intervals.py) is checked against mpmath at high precision, and its
readout's ties and undecided comparisons directly.
"""
import json
import os
import shutil
import subprocess
import sys
from fractions import Fraction

import pytest

from helpers import SOURCE_DIR, cli

pytest.importorskip("onnx")
mpmath = pytest.importorskip("mpmath")

INDEPENDENT = os.path.join(SOURCE_DIR, "independent")
CONFIRM = os.path.join(INDEPENDENT, "confirm.py")
MODELS = os.path.join(SOURCE_DIR, "examples", "models")
sys.path.insert(0, INDEPENDENT)
import intervals  # noqa: E402
import model_answers  # noqa: E402


def confirm(path, *options, cwd=None):
    return subprocess.run([sys.executable, CONFIRM, str(path), *options], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def certificate(folder, name, *args):
    """A model certificate written by the binary into `folder`, with the model copied beside it."""
    model = args[args.index("--onnx") + 1]
    shutil.copy(os.path.join(MODELS, model), folder / model)
    out = folder / f"{name}.json"
    result = cli("check", "model", *args, "--json", str(out), cwd=folder)
    assert result.returncode in (0, 1), result.stderr
    return out


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    folder = tmp_path_factory.mktemp("independent")
    return {
        "histogram": certificate(folder, "histogram", "--onnx", "histogram.onnx", "--task", "histogram", "--V", "4",
                                 "--lengths", "1:4"),
        "sort": certificate(folder, "sort", "--onnx", "sort.onnx", "--task", "sort", "--V", "4", "--lengths", "1:5",
                            "--max-counterexamples", "2"),
        "previous": certificate(folder, "previous", "--onnx", "previous.onnx", "--task", "previous", "--V", "16",
                                "--lengths", "1:5", "--method", "bounds"),
        "copy": certificate(folder, "copy", "--onnx", "copy.onnx", "--task", "copy", "--V", "3", "--lengths", "1:3"),
    }


def forged(path, edit, name="forged.json"):
    """A copy of the certificate at `path` with `edit` applied to its JSON, beside the original."""
    data = json.loads(path.read_text())
    edit(data)
    out = path.parent / name
    out.write_text(json.dumps(data))
    return out


def answer_line(result):
    return result.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("name", ["histogram", "previous", "copy"])
def test_confirms_the_suites_certificates(certificates, name):
    result = confirm(certificates[name])
    assert result.returncode == 0, result.stdout + result.stderr
    assert answer_line(result) == "answer: confirmed"
    assert "not confirmed" not in result.stdout


def test_previous_boxes_are_re_derived(certificates):
    result = confirm(certificates["previous"])
    assert "confirmed: claims[0] model.task decided boxes (all" in result.stdout
    assert "confirmed: claims[0] model.task coverage" in result.stdout


def test_sort_counterexamples_are_confirmed(certificates):
    # --max-inputs 0: the failure count (1,364 inputs) is left unchecked, the counterexamples re-evaluated
    result = confirm(certificates["sort"], "--max-inputs", "0")
    assert result.returncode == 3, result.stdout
    assert "confirmed: claims[0] model.task counterexample [0, 1, 1, 0, 2] (answers [0, 0, 1, 1, 1]" in result.stdout
    assert "not checked: claims[0] model.task failure count" in result.stdout
    assert "not confirmed" not in result.stdout


def _first_counterexample(data):
    return data["claims"][0]["counterexamples"][0]


@pytest.mark.parametrize("edit", [
    lambda d: _first_counterexample(d).update(input=[0, 1, 1, 0, 3]),             # a token changed: not a failure
    lambda d: _first_counterexample(d).update(input=[0, 1, 1, 1, 2], expected=[0, 1, 1, 1, 2]),  # a failing input
    lambda d: _first_counterexample(d).update(got=[0, 0, 1, 1, 3]),               # what the model answers
    lambda d: _first_counterexample(d).update(expected=[0, 0, 1, 1, 1]),          # the task's output
    lambda d: d["claims"][0].update(failed=31, passed=1333),                      # counts
    lambda d: d["claims"][0]["details"]["lengths"][4].update(error_rate="1/64"),  # a formula of the counts
    lambda d: d["claims"][0].update(verdict="verified"),
], ids=["input", "input-other-failure", "got", "expected", "counts", "error-rate", "verdict"])
def test_a_forged_counterexample_is_caught(certificates, edit):
    result = confirm(forged(certificates["sort"], edit), "--max-inputs", "0")
    assert result.returncode == 1, result.stdout + result.stderr
    assert answer_line(result) == "answer: not confirmed"


def test_a_forged_margin_is_caught(certificates):
    def edit(d):
        margin = d["claims"][0]["details"]["smallest_margin_bound"]["smallest_checked"]
        margin["margin"] = "[1.0e-03, 1.1e-03]"
    result = confirm(forged(certificates["histogram"], edit))
    assert result.returncode == 1, result.stdout
    assert "not confirmed: claims[0] model.task smallest margin" in result.stdout


def test_another_model_file_is_caught(certificates, tmp_path):
    cert = json.loads(certificates["sort"].read_text())
    shutil.copy(os.path.join(MODELS, "histogram.onnx"), tmp_path / "sort.onnx")
    (tmp_path / "sort.json").write_text(json.dumps(cert))
    result = confirm(tmp_path / "sort.json", cwd=tmp_path)  # a relative path is read from the current folder
    assert result.returncode == 1, result.stdout
    assert "the model file differs" in result.stdout


@pytest.mark.parametrize("edit", [
    lambda boxes: boxes[0].update(box="* | *"),      # copy, length 2, target 0: widened past one expected class
    lambda boxes: boxes[0].update(margin="1.9998"),  # a margin above the box's
    lambda boxes: boxes[0].update(margin="0.5"),     # a margin far below the bound re-derived
], ids=["widened", "margin-up", "margin-down"])
def test_a_forged_box_is_caught(certificates, edit):
    result = confirm(forged(certificates["copy"], lambda d: edit(d["claims"][0]["details"]["bounds"]
                                                                 ["decided_boxes"])))
    assert result.returncode == 1, result.stdout
    assert answer_line(result) == "answer: not confirmed"


def test_a_box_widened_past_one_expected_class_is_caught(certificates):
    def edit(d):
        box = d["claims"][0]["details"]["bounds"]["decided_boxes"][-1]  # length 5, target 4: reads x_4
        box["box"] = "* | * | * | 0,1 | *"
    result = confirm(forged(certificates["previous"], edit))
    assert result.returncode == 1, result.stdout


@pytest.mark.parametrize("content", [
    "not json", '{"tool": "tverify", "verb": "check"', '{"tool": "tverify", "tool": "tverify"}', "[]",
    '{"tool": "tverify", "verb": "check", "construction": "model", "params": {"onnx": "absent.onnx"}, '
    '"options": {"model": {"sha256": "00"}, "decode": "every"}}',
], ids=["not-json", "truncated", "duplicate-key", "not-an-object", "missing-model"])
def test_bad_input_is_one_line_and_exit_2(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = confirm(path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_truncated_real_certificate_and_a_missing_model_are_bad_input(certificates, tmp_path):
    text = certificates["histogram"].read_text()
    (tmp_path / "cut.json").write_text(text[: len(text) // 2])
    assert confirm(tmp_path / "cut.json").returncode == 2
    cert = json.loads(text)
    cert["params"]["onnx"] = "gone.onnx"
    (tmp_path / "gone.json").write_text(json.dumps(cert))
    result = confirm(tmp_path / "gone.json")
    assert result.returncode == 2 and result.stdout == "" and "gone.onnx" in result.stderr


def test_a_smallest_margin_bound_above_a_real_margin_is_never_confirmed(certificates):
    # The histogram's smallest margin is 1/900 (about 0.0011, at [0, 0, 0, 0]); an at_least raised to 0.0277 with its
    # parts edited to agree is consistent with the certificate's own numbers, and must still not be confirmed.
    def edit(d):
        bound = d["claims"][0]["details"]["smallest_margin_bound"]
        bound["smallest_checked"].update(input=[0, 1, 2, 3], margin="[0.0277777761220931, 0.0277777761220933]")
        bound["at_least"] = "0.0277777"
        bound.pop("lowest_box", None)
    cert = certificate(certificates["histogram"].parent, "histogram-bounds", "--onnx", "histogram.onnx", "--task",
                       "histogram", "--V", "4", "--lengths", "1:4", "--method", "bounds")
    assert confirm(cert).returncode == 0
    result = confirm(forged(cert, edit, "raised-at-least.json"))
    assert result.returncode in (1, 3), result.stdout
    assert "confirmed: claims[0] model.task smallest_margin_bound.at_least" not in result.stdout


def _write_model(path, nodes, initializers, output_elem):
    import numpy as np  # noqa: F401 (onnx's helpers take numpy arrays)
    from onnx import TensorProto, helper
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, "n"])],
                              [helper.make_tensor_value_info("logits", output_elem, [1, "n", 2])], initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    model.ir_version = 8
    import onnx
    onnx.save(model, str(path))


def _as_verified(d):
    """A refuted model claim rewritten, counts and rows and all, as verified."""
    claim = d["claims"][0]
    claim.update(verdict="verified", failed=0, passed=claim["checked"], counterexamples=[])
    claim["details"].pop("smallest_margin_bound", None)
    claim["details"].pop("smallest_margin", None)
    for row in claim["details"]["lengths"]:
        row.update(failed=0, error_rate="0")


def test_floating_point_never_decides(tmp_path):
    # logits = ((E[x] + 1 / -inf) + [2^60, 0]) - [2^60, 0], E[1] = [1, 2^-10]: exactly [1, 2^-10] at token 1 (argmax
    # 0, parity expects 1), but a float leaking from 1 / -inf would round both logits to 1 (a tie) or to 0.
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper
    inits = [numpy_helper.from_array(np.array([[2.0**40, 0.0], [1.0, 2.0**-10], [0.0, 0.0]], np.float32), "emb"),
             numpy_helper.from_array(np.array([1.0], np.float32), "one"),
             numpy_helper.from_array(np.array([-np.inf], np.float32), "ninf"),
             numpy_helper.from_array(np.array([2.0**60, 0.0], np.float32), "A"),
             numpy_helper.from_array(np.array([-2.0**60, 0.0], np.float32), "B")]
    nodes = [helper.make_node("Gather", ["emb", "ids"], ["g"], name="gather"),
             helper.make_node("Div", ["one", "ninf"], ["t"], name="div"),
             helper.make_node("Add", ["g", "t"], ["g2"], name="add0"),
             helper.make_node("Add", ["g2", "A"], ["g3"], name="add1"),
             helper.make_node("Add", ["g3", "B"], ["logits"], name="add2")]
    _write_model(tmp_path / "float.onnx", nodes, inits, TensorProto.FLOAT)
    out = tmp_path / "float.json"
    run = cli("check", "model", "--onnx", "float.onnx", "--task", "parity", "--V", "2", "--lengths", "1:1",
              "--bos", "no", "--json", str(out), cwd=tmp_path)
    assert run.returncode == 1, run.stderr  # tverify refutes it: token 1 gives argmax 0
    result = confirm(forged(out, _as_verified, "float-verified.json"))
    assert result.returncode != 0, result.stdout


def test_an_input_given_twice_in_an_expected_file_is_not_confirmed(tmp_path):
    shutil.copy(os.path.join(MODELS, "histogram.onnx"), tmp_path / "histogram.onnx")
    (tmp_path / "pairs.jsonl").write_text('{"input": [4, 0], "output": [1]}\n{"input": [4, 0], "output": [2]}\n'
                                          '{"input": [4, 1], "output": [1]}\n')
    out = tmp_path / "dup.json"
    run = cli("check", "model", "--onnx", "histogram.onnx", "--expected", "pairs.jsonl", "--json", str(out),
              cwd=tmp_path)
    assert run.returncode == 1, run.stderr  # tverify checks each line: [4, 0] cannot give both 1 and 2
    result = confirm(forged(out, _as_verified, "dup-verified.json"))
    assert result.returncode != 0, result.stdout


@pytest.mark.parametrize("edit", [
    lambda d: d["params"].update(lengths="1:10000000"),
    lambda d: d["params"].update(V=10 ** 12),
    lambda d: d["claims"][0]["details"]["smallest_margin_bound"].update(at_least="1e-999999999"),
    lambda d: d["claims"][0]["details"]["lengths"][0].update(error_rate="1/0"),
], ids=["lengths", "V", "exponent", "zero-denominator"])
def test_out_of_range_fields_are_bad_input_at_once(certificates, edit):
    cert = certificate(certificates["histogram"].parent, "histogram-bounds2", "--onnx", "histogram.onnx", "--task",
                       "histogram", "--V", "4", "--lengths", "1:3", "--method", "bounds")
    result = confirm(forged(cert, edit, "out-of-range.json"))
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1


# The arithmetic and the readout, directly.

@pytest.mark.parametrize("bits", [64, 256])
@pytest.mark.parametrize("function", ["exp", "erf", "tanh", "sigmoid", "log", "sqrt"])
def test_enclosures_hold_the_real_value(function, bits):
    mpmath.mp.prec = 2 * bits + 64
    reference = {"exp": mpmath.exp, "erf": mpmath.erf, "tanh": mpmath.tanh, "log": mpmath.log,
                 "sqrt": mpmath.sqrt, "sigmoid": lambda v: 1 / (1 + mpmath.exp(-v))}[function]
    points = [Fraction(1, 3), Fraction(-7, 2), Fraction(5), Fraction(1, 10 ** 12), Fraction(31, 4)]
    for x in points:
        if function in ("log", "sqrt") and x <= 0:
            continue
        with intervals.precision(bits):
            enclosure = getattr(intervals, function)(x)
        exact = reference(mpmath.mpf(x.numerator) / x.denominator)
        low, high = mpmath.mpf(enclosure.lo), mpmath.mpf(enclosure.hi)
        assert low <= exact <= high, (function, x)
        assert high - low <= abs(exact) * mpmath.mpf(2) ** (8 - bits) + mpmath.mpf(2) ** (-bits), (function, x)


def test_the_readout_decides_ties_exactly_and_never_by_intervals():
    assert model_answers.certified_argmax([Fraction(1), Fraction(1), Fraction(0)]) == "tie 0,1"
    assert model_answers.certified_argmax([Fraction(0), Fraction(2), Fraction(1)]) == 1
    with intervals.precision(64):
        third = intervals.Interval.of(Fraction(1, 3))
        with pytest.raises(intervals.Undecided):
            model_answers.certified_argmax([third, Fraction(1, 3)])
        assert model_answers.certified_argmax([third, Fraction(1, 2)]) == 1
