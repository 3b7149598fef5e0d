"""Every verb of the package against the CLI's: prove, eval, sweep, recheck, report and check_model give what the CLI
gives for the same command; progress reaches a callable; Ctrl-C stops a check and a proof (the CLI's too); exact values
read as Fractions."""

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from fractions import Fraction

import pytest

import tverify
from helpers import BINARY, SOURCE_DIR, cli, reproducible

SORT_MODEL = os.path.join(SOURCE_DIR, "examples", "models", "sort.onnx")


def test_prove_is_the_cli_certificate(tmp_path):
    ran = cli("prove", "copy", "--claim", "copy.scores", "--threads", "1", "--json", "p.json", cwd=tmp_path)
    assert ran.returncode in (0, 1, 3), ran.stderr
    cert = tverify.prove("copy", claims=["copy.scores"], threads=1, progress=False)
    assert reproducible(cert.to_json()) == reproducible((tmp_path / "p.json").read_text())
    assert cert.exit_code == ran.returncode
    assert cert.json["verb"] == "prove"


def test_a_cross_checked_prove_is_the_cli_certificate(tmp_path):
    ran = cli("prove", "count3", "--cross-check", "--json", "p.json", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    cert = tverify.prove("count3", cross_check=True, progress=False)
    assert cert.json["options"]["cross_check"] is True
    assert cert.json["command"].endswith(" --cross-check")  # the command recheck re-runs
    assert cert.json["claims"][0]["details"]["cross_check"]["agrees"] is True
    with pytest.raises(ValueError, match="cross_check must be True or False"):
        tverify.prove("count3", cross_check="yes", progress=False)


def test_eval_is_the_cli_text(tmp_path):
    ran = cli("eval", "copy", "--input", "0,1,1,0", "--variant", "corrected", "--trace", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert tverify.eval("copy", "0,1,1,0", variant="corrected", trace=True) == ran.stdout
    with pytest.raises(ValueError, match=r"--input token must be an integer in \[0, 1\]"):
        tverify.eval("copy", "0,7")
    with pytest.raises(TypeError):
        tverify.eval("copy", [0, 1])


def test_eval_result_and_trace_are_the_cli_json(tmp_path):
    ran = cli("eval", "copy", "--input", "0,1,1,0", "--variant", "corrected", "--trace", "--json", "-", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    document = json.loads(ran.stdout)
    ev = tverify.eval("copy", "0,1,1,0", variant="corrected", trace=True)
    assert ev.result == document["result"]
    assert [t["name"] for t in document["trace"]] == list(ev.trace_exact)
    # The copy sequence <BOS> x <COPY> x_1..x_3 has 2L + 1 = 9 positions; the one-hot value block has d = D + 2 = 4
    # entries. Each score vector holds one score per key up to the query.
    assert ev.trace["layer1.value"].shape == (9, 4)
    assert ev.trace["layer2.scores.position_9"].shape == (9,)
    for t in document["trace"]:
        flat = [str(v) for row in [ev.trace_exact[t["name"]]] for v in _flatten(row)]
        assert flat == t["values"]
    assert ev.trace_exact["layer1.value"][0] == [0, 0, Fraction(1), 0]  # <BOS> = D = 2: its one-hot value
    assert tverify.eval("copy", "0,1,1,0").trace == {}


def _flatten(nested):
    if not isinstance(nested, list):
        return [nested]
    return [v for item in nested for v in _flatten(item)]


def test_sweep_writes_the_cli_files(tmp_path):
    ran = cli("sweep", "copy", "--vary", "L", "--L-max", "6", "--threads", "1", "--out", "cli", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    summary = tverify.sweep("copy", "L", tmp_path / "py", L_max=6, threads=1, progress=False)
    assert summary["threshold"] == Fraction(1, 2)  # "1/2" in the CLI's summary: exact numbers come as Fractions
    as_printed = {k: str(v) if isinstance(v, Fraction) else v for k, v in summary.items()}
    assert as_printed == json.loads(ran.stdout.replace(str(tmp_path / "cli"), str(tmp_path / "py")))
    for name in os.listdir(tmp_path / "cli"):
        if name.endswith(".csv"):
            assert (tmp_path / "py" / name).read_text() == (tmp_path / "cli" / name).read_text()
    with pytest.raises(ValueError, match="has no parameter 'Lmax'"):
        tverify.sweep("copy", "L", tmp_path / "py", Lmax=6)


def test_recheck_reproduces_and_names_an_edited_field(tmp_path):
    cert = tverify.check("copy", claims=["copy.thm2_3"], threads=1, progress=False)
    assert tverify.recheck(cert, threads=1, progress=False).reproduced
    path = tmp_path / "c.json"
    path.write_text(cert.to_json())
    assert tverify.recheck(path, threads=1, progress=False)
    edited = json.loads(cert.to_json())
    edited["claims"][0]["passed"] += 1
    result = tverify.recheck(json.dumps(edited), threads=1, progress=False)
    assert not result
    assert any("passed" in field for field, _, _ in result.differences)
    path.write_text(json.dumps(edited))
    ran = cli("recheck", str(path), "--threads", "1", cwd=tmp_path)
    assert ran.returncode == 1
    with pytest.raises(ValueError):
        tverify.recheck('{"tool": "something else"}')


def test_report_is_the_cli_table(tmp_path):
    cert = tverify.check("copy", claims=["copy.thm2_3"], threads=1, progress=False)
    (tmp_path / "c.json").write_text(cert.to_json())
    for fmt, flag in (("markdown", "--markdown"), ("latex", "--latex")):
        ran = cli("report", "c.json", flag, cwd=tmp_path)
        assert ran.returncode == 0, ran.stderr
        assert tverify.report(tmp_path / "c.json", format=fmt) == ran.stdout
    assert tverify.report([cert]) == cli("report", "c.json", cwd=tmp_path).stdout
    with pytest.raises(ValueError, match="format"):
        tverify.report(cert, format="html")


def test_check_model_from_a_path_and_from_bytes(tmp_path):
    words = ["--onnx", SORT_MODEL, "--task", "sort", "--V", "3", "--lengths", "1:3", "--threads", "1"]
    ran = cli("check", "model", *words, "--json", "m.json", cwd=tmp_path)
    assert ran.returncode in (0, 1), ran.stderr
    cert = tverify.check_model(SORT_MODEL, task="sort", V=3, lengths="1:3", threads=1, progress=False)
    assert reproducible(cert.to_json()) == reproducible((tmp_path / "m.json").read_text())
    with open(SORT_MODEL, "rb") as f:
        from_bytes = tverify.check_model(f.read(), task="sort", V=3, lengths="1:3", threads=1, progress=False)
    assert from_bytes.verdicts == cert.verdicts
    assert from_bytes.json["options"]["model"]["sha256"] == cert.json["options"]["model"]["sha256"]
    with pytest.raises(ValueError, match="ONNX|onnx"):
        tverify.check_model(b"not a model", task="sort", V=3, lengths="1:3")


def test_check_model_by_bounds_past_enumeration():
    previous = os.path.join(SOURCE_DIR, "examples", "models", "previous.onnx")
    # 16 + 16^2 + ... + 16^8 inputs, verified by bounds over boxes; a budget of 10 boxes leaves most unknown.
    cert = tverify.check_model(previous, task="previous", V=16, lengths="1:8", threads=2, progress=False)
    claim = cert.claims[0]
    assert claim["verdict"] == "verified" and claim["checked"] == 4_581_298_448
    assert claim["details"]["method"] == "bounds"
    budget = tverify.check_model(previous, task="previous", V=16, lengths="1:8", max_boxes=10, progress=False)
    assert budget.claims[0]["verdict"] == "unknown"
    with pytest.raises(ValueError, match="--method bounds needs a task with an abstraction"):
        tverify.check_model(SORT_MODEL, task="most-frequent", V=3, lengths="1:3", method="bounds")


def test_progress_reaches_a_callable():
    seen = []
    tverify.check("copy", claims=["copy.err"], D=2, n=2, L=8, threads=2, progress=lambda d, t: seen.append((d, t)))
    assert seen
    assert seen[-1] == (256, 256)  # the last report is the whole domain: every string of [2]^8
    assert all(d <= t for d, t in seen)


def test_a_model_check_reports_progress_to_a_callable():
    seen = []
    tverify.check_model(SORT_MODEL, task="sort", V=2, lengths="1:4", method="enumerate", threads=2,
                        progress=lambda d, t: seen.append((d, t)))
    assert seen
    assert seen[-1] == (30, 30)  # every sequence of length 1..4 over 2 tokens: 2 + 4 + 8 + 16
    assert all(d <= t for d, t in seen)


def test_ctrl_c_stops_a_model_check():
    # sort over V = 4, lengths 1..10 (1.4 million sequences) runs for minutes; SIGINT after half a second must stop it.
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        tverify.check_model(SORT_MODEL, task="sort", V=4, lengths="1:10", method="enumerate", threads=2, force=True,
                            progress=False)
    assert time.monotonic() - start < 10


def test_a_sweep_takes_the_run_limits(tmp_path):
    # copy --vary L up to L = 5 enumerates [2]^5 = 32 strings at its last point: above max_inputs = 16 unless forced.
    with pytest.raises(ValueError, match="--max-inputs"):
        tverify.sweep("copy", vary="L", out=tmp_path / "refused", D=2, n=2, L_max=5, max_inputs=16, progress=False)
    summary = tverify.sweep("copy", vary="L", out=tmp_path / "forced", D=2, n=2, L_max=5, max_inputs=16, force=True,
                            threads=1, progress=False)
    assert summary["L_max"] == 5
    certificate = json.loads((tmp_path / "forced" / "length-D2-n2-onehot-paper.json").read_text())
    assert certificate["command"].endswith("--threads 1 --max-inputs 16 --force")
    assert tverify.recheck(tmp_path / "forced" / "length-D2-n2-onehot-paper.json", max_inputs=16, force=True)
    # A sweep whose files record no counterexample refuses a counterexample limit, as the CLI does; so does its recheck.
    with pytest.raises(ValueError, match="--max-counterexamples is not read by `tverify sweep copy --vary L`"):
        tverify.sweep("copy", vary="L", out=tmp_path / "limit", D=2, n=2, L_max=4, max_counterexamples=3,
                      progress=False)
    assert not (tmp_path / "limit").exists()


def test_recheck_reads_back_a_command_with_quotes_and_a_newline_in_a_path(tmp_path):
    folder = tmp_path / "it's \"quoted\" back\\slash\nnew line"
    folder.mkdir()
    model = folder / "sort.onnx"
    shutil.copy(os.path.join(SOURCE_DIR, "examples", "models", "sort.onnx"), model)
    ran = cli("check", "model", "--onnx", str(model), "--task", "sort", "--V", "2", "--lengths", "1:2", "--json",
              "c.json", cwd=tmp_path)
    assert ran.returncode in (0, 1), ran.stderr
    assert cli("recheck", "c.json", cwd=tmp_path).returncode == 0
    assert tverify.recheck(tverify.check_model(model, task="sort", V=2, lengths="1:2", threads=1, progress=False))


def test_ctrl_c_stops_a_check():
    # copy.err over [3]^14 (4.8 million strings) runs for minutes; SIGINT after half a second must stop it.
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        tverify.check("copy", claims=["copy.err"], D=3, n=3, L=14, threads=2, force=True, progress=False)
    assert time.monotonic() - start < 10


def _when_a_query_starts(folder, act):
    """act() 0.2 s after the first SMT-LIB2 dump appears in `folder`: prove writes each query there just before Z3
    checks it, and the checks below take over a second."""
    def watch():
        for _ in range(1200):
            if any(folder.glob("*.smt2")):
                time.sleep(0.2)
                act()
                return
            time.sleep(0.05)

    threading.Thread(target=watch, daemon=True).start()


def test_ctrl_c_stops_a_proof(tmp_path):
    # copy.scores at D = 2, n = 6, L = 16, text reading: one Z3 query of about 1.5 s. SIGINT during it must end in
    # KeyboardInterrupt, not in a verdict `unknown` (Z3 left to its own handling of Ctrl-C answers unknown).
    _when_a_query_starts(tmp_path, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        tverify.prove("copy", claims=["copy.scores"], D=2, n=6, L=16, reading="text", smt2=tmp_path, progress=False)
    assert time.monotonic() - start < 60


def test_ctrl_c_stops_the_cli_during_a_proof(tmp_path):
    # The same proof from the CLI: SIGINT during Z3's check ends the process by the signal, with no certificate.
    process = subprocess.Popen([BINARY, "prove", "copy", "--claim", "copy.scores", "--D", "2", "--n", "6", "--L", "16",
                                "--reading", "text", "--smt2", "queries", "--json", "c.json"], cwd=tmp_path,
                               stdout=subprocess.DEVNULL)
    _when_a_query_starts(tmp_path / "queries", lambda: process.send_signal(signal.SIGINT))
    assert process.wait(timeout=60) == -signal.SIGINT
    assert not (tmp_path / "c.json").exists()


@pytest.mark.parametrize("text, value", [
    ("5/8", Fraction(5, 8)),
    ("-3", Fraction(-3)),
    (7, Fraction(7)),
    ("[0.25, 0.5]", (Fraction(1, 4), Fraction(1, 2))),
    ("[-1e-3, 2]", (Fraction(-1, 1000), Fraction(2))),
])
def test_exact_values_read_as_fractions(text, value):
    assert tverify.exact(text) == value


def test_a_certificates_exact_values_as_fractions():
    cert = tverify.check("copy", claims=["copy.err"], variant="corrected", D=2, n=2, L=5, threads=1, progress=False)
    text, formula = cert.exact_claims  # copy.err under the text and the formula reading
    raw_text, raw_formula = cert.claims
    assert text["details"]["err"] == Fraction(raw_text["details"]["err"])  # "3/8" in the certificate
    assert text["details"]["p_ngram"] == Fraction(raw_text["details"]["p_ngram"])
    assert isinstance(text["details"]["err"], Fraction) and raw_text["details"]["err"] == "3/8"
    assert formula["counterexamples"][0]["got"] == Fraction(raw_formula["counterexamples"][0]["got"])
    assert formula["counterexamples"][0]["expected"] == "err < 1/4"  # a formula stays text
    assert text["details"]["settings"]["tau"] == "4 ln(128)"
    markov = tverify.check("markov", claims=["markov.lemma1"], threads=1, progress=False)
    enclosures = [v for v in _leaves(markov.exact_claims) if isinstance(v, tuple)]
    assert enclosures and all(lo <= hi for lo, hi in enclosures)


def _leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


@pytest.mark.parametrize("number, value", [
    ("0.1", Fraction(1, 10)),
    (" -2.5e-1 ", Fraction(-1, 4)),
    (0.5, Fraction(1, 2)),
    (0.1, Fraction(3602879701896397, 2**55)),  # the double nearest 1/10, exactly
    (Fraction(2, 3), Fraction(2, 3)),
])
def test_exact_reads_decimals_and_floats_exactly(number, value):
    assert tverify.exact(number) == value


def test_numpy_numbers_are_parameters_and_exact_numbers():
    np = pytest.importorskip("numpy")
    assert tverify.exact(np.int64(3)) == 3 and tverify.exact(np.float32(0.25)) == Fraction(1, 4)
    by_numpy = tverify.check("copy", claims=["copy.alg1"], D=np.int64(2), n=np.int32(1), L=np.int64(3),
                             threads=np.int64(1), progress=False)
    by_int = tverify.check("copy", claims=["copy.alg1"], D=2, n=1, L=3, threads=1, progress=False)
    assert by_numpy.claims == by_int.claims
    markov = tverify.check("markov", claims=["markov.lemma1"], p=0.5, threads=1, progress=False)
    assert markov.json["params"]["p"] == "1/2"  # 0.5 exactly


def test_exact_refuses_what_is_not_an_exact_number():
    for bad in ("0.5.1", "a/b", "[1, x]", "[1, 0]", "1e", float("inf"), float("nan")):
        with pytest.raises(ValueError):
            tverify.exact(bad)
    for wrong_type in (True, None, [1, 2], 1j):
        with pytest.raises(TypeError):
            tverify.exact(wrong_type)
    # the copy construction's error rate, as its certificate gives it
    cert = tverify.check("copy", claims=["copy.err"], threads=1, progress=False)
    assert tverify.exact(cert.claims[0]["counterexamples"][0]["got"]) == Fraction(5, 8)


def test_a_tqdm_bar_when_asked(capsys):
    pytest.importorskip("tqdm")
    cert = tverify.check("copy", claims=["copy.err"], D=2, n=2, L=8, threads=1, progress=True)
    assert cert.verdicts
    assert "256/256" in capsys.readouterr().err  # the bar's last state: every string of [2]^8


def test_a_callable_task_is_the_built_in_task(tmp_path):
    built_in = tverify.check_model(SORT_MODEL, task="sort", V=3, lengths="1:5", threads=2, progress=False)
    pairs = tmp_path / "pairs.jsonl"
    called = tverify.check_model(SORT_MODEL, task=lambda xs: sorted(xs), V=3, lengths="1:5", threads=2,
                                 progress=False, expected_file=pairs)
    assert called.verdicts == built_in.verdicts
    a, b = built_in.claims[0], called.claims[0]
    assert (a["passed"], a["failed"], a["unknown"]) == (b["passed"], b["failed"], b["unknown"])
    # the callable's inputs carry BOS = V in front, as the built-in task lays them out
    assert [[3, *c["input"]] for c in a["counterexamples"]] == [c["input"] for c in b["counterexamples"]]
    assert len(pairs.read_text().splitlines()) == 3 + 9 + 27 + 81 + 243
    (tmp_path / "c.json").write_text(called.to_json())
    ran = cli("recheck", "c.json", cwd=tmp_path)
    assert ran.returncode == 0, ran.stdout + ran.stderr  # the pairs file makes the certificate recheckable


def test_a_callable_that_raises_or_returns_garbage():
    def broken(xs):
        if len(xs) == 2:
            raise ZeroDivisionError("division by zero")
        return sorted(xs)

    with pytest.raises(ValueError, match=r"raised ZeroDivisionError on input \[0, 0\]: division by zero"):
        tverify.check_model(SORT_MODEL, task=broken, V=3, lengths="1:3")
    with pytest.raises(TypeError, match="must return a list of ints"):
        tverify.check_model(SORT_MODEL, task=lambda xs: "sorted", V=3, lengths="1:3")
    with pytest.raises(ValueError, match="lengths"):
        tverify.check_model(SORT_MODEL, task=sorted, V=3, lengths="3:1")
    with pytest.raises(ValueError, match="expected_file"):
        tverify.check_model(SORT_MODEL, task="sort", V=3, expected_file="x.jsonl")


def test_cat_weights_reproduce_the_layer_s_exact_scores():
    # The scores <q_t, k_s> of the last query, computed here from the exported filters and embeddings alone
    # ((F * X)_t = sum_i F_i e(z_{t-i})), must be the ones eval's trace reports from the layer itself.
    params = dict(V=3, N=2, filter="1,1/2", c=4)
    w = tverify.weights("cat", exact=True, **params)
    assert w["query_filter"] == [1, Fraction(1, 2)]
    assert w["key_filter"] == [0, 1, Fraction(1, 2)]  # key delay: F one step late
    assert (w["c_squared"], w["value_offset"], w["full_windows"]) == (16, 0, 0)
    z = [0, 1, 2, 0, 1]

    def convolved(taps, s):
        row = [Fraction(0)] * 3
        for i, f in enumerate(taps):
            if s - i >= 0:
                row = [r + f * e for r, e in zip(row, w["embedding"][z[s - i]])]
        return row

    t = len(z) - 1
    q = convolved(w["query_filter"], t)
    dots = [sum(a * b for a, b in zip(q, convolved(w["key_filter"], s))) for s in range(t + 1)]
    traced = tverify.eval("cat", input=",".join(map(str, z)), trace=True, **params).trace_exact["scores.dots"]
    assert dots == traced == [0, Fraction(1, 2), Fraction(5, 4), Fraction(1, 2), Fraction(1, 2)]
    value_delay = tverify.weights("cat", variant="value_delay", **params)
    assert list(value_delay["key_filter"]) == [1, 0.5] and value_delay["value_offset"] == 1


def test_weights_are_the_construction_s_exact_matrices():
    w = tverify.weights("copy", D=2, n=2, variant="paper")
    assert w["Psi"].shape == (4, 4)  # one-hot: d = D + 2, one row per token 0, 1, <BOS>, <COPY>
    assert (w["Psi"] == __import__("numpy").eye(4)).all()
    assert [k for k in w if k.endswith(".window")] == ["h1.window", "h2.window", "h3.window"]
    assert [w[f"h{k}.window"] for k in (1, 2, 3)] == [1, 2, 3]  # Lemma C.4: h_t averages the last t tokens
    assert "Lemma C.3" in w.meanings["mlp.inner"]
    def squared_norms(psi):
        return [sum(v.rational ** 2 + v.coefficient ** 2 * v.radicand if isinstance(v, tverify.Surd) else v ** 2
                    for v in row) for row in psi]

    # Lemma C.2 as printed (docs/errata.md, E5): D = 2 gives d = 3 and one code bit of +-1/sqrt(3), so the code rows
    # have squared norm 1/3, not 1; BOS and COPY are unit vectors. The corrected codes are unit vectors.
    paper = tverify.weights("copy", D=2, n=2, embedding="c2", tau=Fraction(7, 2), exact=True)
    assert paper["tau"] == Fraction(7, 2)
    assert squared_norms(paper["Psi"]) == [Fraction(1, 3), Fraction(1, 3), 1, 1]
    assert paper["Psi"][0][2] == tverify.Surd(0, Fraction(1, 3), 3)
    corrected = tverify.weights("copy", D=2, n=2, embedding="c2", variant="corrected", exact=True)
    assert squared_norms(corrected["Psi"]) == [1, 1, 1, 1]
    assert corrected["Psi"][0][2] == 1  # 1 * sqrt(1) is read as the rational 1
    with pytest.raises(ValueError, match="no named weights"):
        tverify.weights("count3")
    with pytest.raises(ValueError, match="--D must be an integer"):
        tverify.weights("copy", D=0)


def test_markov_weights_are_both_printed_points():
    # theta_star for p + q > 1 (eq. 10) and for p + q <= 1 (eq. 7), theta_pi (eq. 11), each entry checked against the
    # paper's formula computed here in floating point; logarithms stay symbolic, with enclosures around the value.
    d = 4
    w = tverify.weights("markov", exact=True, p=Fraction(1, 2), q=Fraction(4, 5), d=d, m=4, r=4, N=6, tied=True)
    assert [k for k in w if k.startswith("theta_star.")] == [
        "theta_star." + b for b in ("e", "p", "W_Q", "W_K", "W_V", "W_O", "W_1", "W_2", "b")]  # tied: no a
    assert w["theta_star.e"] == [1] * d and w["theta_star.W_O"] == [[0] * 4 for _ in range(d)]
    assert w["theta_star.b"] == 2  # log(p/(1-p)) + d/2 with log(1) = 0: exactly 2, an exact Fraction
    l1, l2 = math.log(1 / 1), math.log((1 - 0.8) / 0.8)
    w_star = math.sqrt((2 / d ** 2) * (1 - (l2 - l1) / d))
    entry = w["theta_star.W_1"][0][0]
    assert entry.terms == {"w": 1} and entry.lower <= Fraction(w_star) + Fraction(1, 10 ** 12)
    assert entry.upper >= Fraction(w_star) - Fraction(1, 10 ** 12) and abs(float(entry) - w_star) < 1e-12
    assert w["theta_star.W_2"][0][0].terms == {"w": -1}  # W_2 = -W_1^T
    pi_b = w["theta_pi.b"]  # log(p/q)
    assert isinstance(pi_b, tverify.Symbolic) and pi_b.constant == 0 and pi_b.terms == {"l3": 1}
    assert pi_b.lower <= Fraction(math.log(0.625)) + Fraction(1, 10 ** 12) <= pi_b.upper + Fraction(2, 10 ** 12)
    assert abs(float(pi_b) - math.log(0.625)) < 1e-12
    assert w["theta_pi.e"] == [0] * d
    low = tverify.weights("markov", p=Fraction(1, 5), q=Fraction(1, 5), d=d, tied=True)  # eq. 7: p + q <= 1
    e_star = math.sqrt(math.log(0.8 * 0.8 / (0.2 * 0.2)) / d)
    assert abs(low["theta_star.e"] - e_star).max() < 1e-12 and low["theta_star.e"].shape == (d,)
    assert "l1 = log(p/(1-p))" in low.meanings["theta_star.e"]
    untied = tverify.weights("markov", d=d)
    assert "theta_star.a" in untied and untied["theta_pi.p"].shape == (6, d)


def test_a_progress_callable_that_raises_stops_the_check():
    def broken(done, total):
        raise RuntimeError("progress display failed")

    with pytest.raises(RuntimeError, match="progress display failed"):
        tverify.check("copy", claims=["copy.err"], D=3, n=3, L=14, threads=2, force=True, progress=broken)
    assert tverify.check("copy", claims=["copy.err"], threads=1, progress=False).verdicts  # still usable


def test_files_are_read_as_the_cli_reads_them(tmp_path):
    # /dev/zero would be read until memory ran out, and a FIFO with no writer would block forever.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo), str(tmp_path)):
        with pytest.raises(ValueError, match="is not a regular file"):
            tverify.recheck(path)
        with pytest.raises(ValueError, match="is not a regular file"):
            tverify.report([path])
    with pytest.raises(ValueError, match="at least one certificate"):
        tverify.report([])


def test_wrong_types_raise_type_error_and_wrong_values_value_error():
    for call in (lambda: tverify.check("copy", threads="2"), lambda: tverify.check("copy", max_inputs=1.5),
                 lambda: tverify.check("copy", variant=3), lambda: tverify.check("copy", progress=3),
                 lambda: tverify.sweep("count3", vary="values", out="o", fast="yes"),
                 lambda: tverify.eval("copy", "0,1", trace="yes"),
                 lambda: tverify.check_model(SORT_MODEL, task=lambda x: x, V="4"),
                 lambda: tverify.check_model(SORT_MODEL, task=lambda x: x, V=2, lengths=3)):
        with pytest.raises(TypeError):
            call()
    for call in (lambda: tverify.check("copy", variant=""), lambda: tverify.eval("markov", "0,1", trace=True),
                 lambda: tverify.check("copy", threads=0)):
        with pytest.raises(ValueError):
            call()


def test_a_notebook_without_ipywidgets_gets_a_few_plain_lines(monkeypatch, capsys):
    # tqdm's text bar in a notebook cell prints a line per redraw; without ipywidgets the package prints a plain line
    # at most every 10 s and one at the end.
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(tverify, "_in_notebook", lambda: True)
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # import ipywidgets raises ImportError
    tverify.check("copy", claims=["copy.err"], D=2, n=2, L=10, threads=2)
    lines = capsys.readouterr().err.splitlines()
    assert 1 <= len(lines) <= 3, lines
    assert lines[-1] == "tverify: 1,024 of 1,024 inputs (100%)"
