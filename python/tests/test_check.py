"""The Python package against the CLI: the same constructions, the same certificates, the same errors.

Run by scripts/test with PYTHONPATH=<build>/python and TVERIFY_BINARY=<build>/cli/tverify.
"""

import hashlib
from fractions import Fraction

import pytest

import tverify
from helpers import SOURCE_DIR, cli, reproducible


def test_constructions_are_the_registry():
    names = [c["name"] for c in tverify.constructions()]
    assert names == ["copy", "count3", "cat", "markov", "model"]
    copy = tverify.constructions()[0]
    assert "copy.thm2_3" in copy["claims"]
    assert copy["variants"] == ["paper", "corrected"]
    assert {p["name"]: p["default"] for p in copy["params"]}["D"] == "2"


@pytest.mark.parametrize("construction", ["copy", "count3", "cat", "markov"])
def test_default_check_is_the_cli_certificate(construction, tmp_path):
    ran = cli("check", construction, "--threads", "2", "--json", "c.json", cwd=tmp_path)
    assert ran.returncode in (0, 1, 3), ran.stderr
    cert = tverify.check(construction, threads=2)
    assert reproducible(cert.to_json()) == reproducible((tmp_path / "c.json").read_text())
    assert cert.exit_code == ran.returncode


def test_parameters_claims_and_variant_reach_the_check(tmp_path):
    ran = cli("check", "copy", "--D", "3", "--n", "2", "--L", "5", "--claim", "copy.thm2_3", "--variant", "corrected",
              "--tau", "7/2", "--threads", "1", "--json", "c.json", cwd=tmp_path)
    cert = tverify.check("copy", claims=["copy.thm2_3"], variant="corrected", threads=1, D=3, n=2, L=5,
                         tau=Fraction(7, 2))
    assert reproducible(cert.to_json()) == reproducible((tmp_path / "c.json").read_text())
    assert cert.to_json().endswith("}\n")
    # Theorem 2.3 under both readings of Definition 2.2 (docs/claims.md: corrected, text reading verified).
    assert cert.verdicts["copy.thm2_3 (text)"] == "verified"
    assert cert.json["command"].startswith("tverify check copy --D 3 --n 2 --L 5 --tau 7/2")


def test_a_counterexample_is_a_python_list():
    cert = tverify.check("copy", claims=["copy.alg1"], D=2, n=2, L=4, threads=1)
    refuted = cert.claims[0]
    assert refuted["verdict"] == "refuted"
    assert isinstance(refuted["counterexamples"][0]["input"], list)
    assert "| `copy.alg1 (text)` | refuted |" in cert._repr_markdown_()
    assert "<td>copy.alg1 (text)</td><td>refuted</td>" in cert._repr_html_()


def test_one_claim_as_a_str_and_the_run_limits_reach_the_command(tmp_path):
    cert = tverify.check("copy", claims="copy.alg1", D=2, n=2, L=4, threads=1, max_counterexamples=2,
                         max_inputs=100, force=True)
    assert cert.json["command"] == ("tverify check copy --D 2 --n 2 --L 4 --claim copy.alg1 --threads 1 "
                                    "--max-inputs 100 --max-counterexamples 2 --force")
    assert len(cert.claims[0]["counterexamples"]) == 2
    ran = cli(*cert.json["command"].split()[1:], "--json", "c.json", cwd=tmp_path)
    assert reproducible(cert.to_json()) == reproducible((tmp_path / "c.json").read_text())
    assert ran.returncode == cert.exit_code


@pytest.mark.parametrize("kwargs, message", [
    ({"D": 0}, "--D must be an integer in [1, 64] (got '0')"),
    ({"claims": ["copy.nope"]}, "copy.nope"),
    ({"variant": "best"}, "variant"),
])
def test_bad_input_is_the_cli_message_as_value_error(kwargs, message, tmp_path):
    with pytest.raises(ValueError) as error:
        tverify.check("copy", threads=1, **kwargs)
    assert message in str(error.value)
    assert "\n" not in str(error.value)
    words = ["check", "copy", "--threads", "1"]
    for key, value in kwargs.items():
        if key == "claims":
            words += ["--claim", value[0]]
        else:
            words += [f"--{key}", str(value)]
    ran = cli(*words, cwd=tmp_path)
    assert ran.returncode == 2
    assert ran.stderr == f"tverify: error: {error.value}\n"


def test_wrong_types_and_names_raise_before_any_work(tmp_path):
    with pytest.raises(ValueError) as error:
        tverify.check("nope")
    assert cli("check", "nope", cwd=tmp_path).stderr == f"tverify: error: {error.value}\n"  # the CLI's line
    for huge in ({"threads": 2**40}, {"max_inputs": 2**70}, {"max_counterexamples": 10**6}):
        with pytest.raises(ValueError, match=r"must be an integer in \[") as error:
            tverify.check("copy", **huge)
        assert "\n" not in str(error.value)
    with pytest.raises(TypeError, match="claims must be"):
        tverify.check("copy", claims=["copy.alg1", 3])
    with pytest.raises(ValueError, match="no parameter 'Q'"):
        tverify.check("copy", Q=2)
    with pytest.raises(ValueError, match=r"--D must be an integer in \[1, 64\] \(got '5/2'\)"):
        tverify.check("copy", D=2.5)  # a float is the number it is: 5/2, no integer
    with pytest.raises(TypeError):
        tverify.check("copy", D=[2])
    with pytest.raises(TypeError):
        tverify.check("markov", tied="yes")
    with pytest.raises(ValueError, match="threads"):
        tverify.check("copy", threads=0)


def test_max_memory_is_the_cli_budget(tmp_path):
    reverse = f"{SOURCE_DIR}/tests/models/reverse.onnx"
    with pytest.raises(ValueError, match=r"above --max-memory 1.0 MiB; raise --max-memory"):
        tverify.check_model(reverse, task="reverse", V=2, lengths="1:2", max_memory="1M", threads=1)
    cert = tverify.check_model(reverse, task="reverse", V=2, lengths="1:2", max_memory=8 << 30, threads=1)
    assert cert.json["command"].endswith("--threads 1 --max-memory 8589934592")
    ran = cli(*cert.json["command"].split()[1:], "--json", "c.json", cwd=tmp_path)
    assert ran.returncode == cert.exit_code
    assert reproducible(cert.to_json()) == reproducible((tmp_path / "c.json").read_text())
    with pytest.raises(ValueError, match=r"max_memory '' is no size"):
        tverify.check("count3", max_memory="")
    with pytest.raises(TypeError, match=r"max_memory is a size"):
        tverify.check("count3", max_memory=1.5)
    with pytest.raises(ValueError, match=r"--max-memory is not read by `tverify check count3`"):
        tverify.check("count3", max_memory="8G")
    with pytest.raises(ValueError, match=r"max_memory '12X' is no size"):  # parsed before the sweep's worker starts
        tverify.sweep("model", "lengths", tmp_path / "s", onnx=reverse, task="reverse", V=2, lengths="1:2",
                      max_memory="12X")


def test_check_model_exports_a_torch_module(tmp_path):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (scripts/setup --examples installs it)")

    class Echo(torch.nn.Module):
        """Logits one-hot on each position's own token (V = 3 data tokens, BOS = 3): y_i = x_i, or, shifted, the
        next token id."""

        def __init__(self, shift):
            super().__init__()
            self.table = torch.nn.Embedding(4, 4)
            with torch.no_grad():
                self.table.weight.copy_(torch.roll(torch.eye(4), shift, dims=1))

        def forward(self, tokens):
            return self.table(tokens)

    echo = lambda xs: list(xs)  # noqa: E731
    kept = tmp_path / "echo.onnx"
    cert = tverify.check_model(Echo(0), task=echo, V=3, lengths="1:3", onnx_file=kept, threads=1, progress=False)
    assert cert.verdicts == {"model.task": "verified"}
    with open(kept, "rb") as f:
        assert cert.json["options"]["model"]["sha256"] == hashlib.sha256(f.read()).hexdigest()
    assert cert.json["options"]["model"]["producer"].startswith("pytorch")
    broken = tverify.check_model(Echo(1), task=echo, V=3, lengths="1:3", threads=1, progress=False)
    assert broken.verdicts == {"model.task": "refuted"}
    with pytest.raises(ValueError, match="onnx_file is where a torch.nn.Module is exported"):
        tverify.check_model(kept, task="sort", V=3, onnx_file=tmp_path / "other.onnx")


def test_eval_model_logits_as_fractions():
    ev = tverify.eval("model", "4,0,1", onnx=f"{SOURCE_DIR}/tests/models/attention_alibi.onnx", logits=True)
    exact = ev.exact_result
    assert exact["decided_at"] == "53"  # the double-interval rung, a name
    for row, margin, winner in zip(exact["logits"], exact["margins"], exact["argmax"]):
        lo, hi = margin
        assert 0 < lo <= hi
        assert all(isinstance(end, Fraction) for logit in row for end in logit)
        others = [logit for k, logit in enumerate(row) if k != winner]
        assert lo <= row[winner][1] - max(l for l, _ in others)
