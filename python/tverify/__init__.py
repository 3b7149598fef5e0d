"""tverify from Python: check the constructions of ML-theory papers with the same C++ core as the CLI.

    import tverify
    cert = tverify.check("copy", claims=["copy.thm2_3"], D=2, n=2, L=4, variant="corrected", threads=2)
    cert.verdicts          # {"copy.thm2_3 (text)": "verified", ...}
    cert.to_json()         # the certificate `tverify check ... --json FILE` writes
    tverify.recheck(cert)  # re-runs its command: a Recheck that is true when it reproduces

The verbs mirror the CLI's: check, prove, eval, sweep, recheck, report, and check_model for an ONNX model.
docs/python.md says what the package offers and what it does not yet.
"""

import html
import itertools
import json
import math
import numbers
import os
import pathlib
import re
import shlex
import sys
import tempfile
import time
from collections import namedtuple
from fractions import Fraction

from . import _tverify

__all__ = ["constructions", "check", "prove", "eval", "sweep", "recheck", "report", "check_model", "exact",
           "weights", "Certificate", "Evaluation", "Recheck", "Surd", "Symbolic", "Weights"]


def constructions():
    """Every construction tverify knows, as dicts: name, paper, params (name, flag, range, default, help), variants,
    claims."""
    return _tverify.constructions()


def _construction(name):
    for c in _tverify.constructions():
        if c["name"] == name:
            return c
    _tverify.require_construction(name)  # raises the CLI's message
    raise AssertionError(f"the registry has no construction '{name}' yet finds it")


def _option_text(value):
    """A parameter value as the CLI reads it: strings as they are (a decimal "0.8" is read exactly), integers (numpy's
    too) in decimal, and every other real number exactly as p/q: a Fraction, or a float's exact binary value."""
    if isinstance(value, bool):
        raise TypeError("a boolean is a flag: pass it as True to give the flag, False to leave it out")
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Real):
        q = _exact_real(value)
        return f"{q.numerator}/{q.denominator}" if q.denominator != 1 else str(q.numerator)
    raise TypeError(f"a parameter value must be a number or a str (got {type(value).__name__})")


def _exact_real(value):
    """A real number (int, Fraction, float, or numpy's) as the Fraction it is exactly; ValueError if not finite."""
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    try:
        numerator, denominator = value.as_integer_ratio()  # a float's, and numpy's floats' of every width, exactly
    except (OverflowError, ValueError):
        raise ValueError(f"a number must be finite (got {value!r})") from None
    except AttributeError:
        raise TypeError(f"a real number without an exact value: {type(value).__name__} {value!r}") from None
    return Fraction(int(numerator), int(denominator))


def _params(construction, given, specs=None):
    """Keyword arguments as the CLI's options: a name with '_' is the parameter with '-' when that one exists."""
    specs = {p["name"]: p for p in (construction["params"] if specs is None else specs)}
    out, words = {}, []
    for key, value in given.items():
        name = key if key in specs else key.replace("_", "-")
        if name not in specs:
            known = ", ".join(specs)
            raise ValueError(f"{construction['name']} has no parameter '{key}' (parameters: {known})")
        if specs[name]["flag"]:
            if not isinstance(value, bool):
                raise TypeError(f"{key} is a flag: True or False")
            if value:
                out[name] = "true"
                words.append(f"--{name}")
            continue
        out[name] = _option_text(value)
        words += [f"--{name}", out[name]]
    return out, words


def _count(name, value, low, high):
    """An int in [low, high]: TypeError for another type, ValueError out of range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer in [{low}, {high}] (got {type(value).__name__} {value!r})")
    if not low <= value <= high:
        raise ValueError(f"{name} must be an integer in [{low}, {high}] (got {value!r})")
    return int(value)


def _variant(variant):
    """A variant's name as the binding takes it ('' for the default): None, or a non-empty str."""
    if variant is None:
        return ""
    if not isinstance(variant, str):
        raise TypeError(f"variant must be a str (got {type(variant).__name__})")
    if not variant:
        raise ValueError("variant must name a variant (got an empty string); leave it out for the default")
    return variant


def _flag(name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{name} is a flag: True or False (got {value!r})")
    return value


def _claim_ids(claims):
    """A list of claim ids, each once: a single id may be given as a str."""
    if claims is None:
        return []
    if isinstance(claims, str):
        claims = [claims]
    if not isinstance(claims, (list, tuple)) or not all(isinstance(c, str) for c in claims):
        raise TypeError(f"claims must be a claim id or a list of claim ids (got {claims!r})")
    return list(dict.fromkeys(claims))


_DEFAULT_MAX_INPUTS, _DEFAULT_MAX_COUNTEREXAMPLES = 10_000_000, 10


def _run_limits(threads, max_inputs, max_counterexamples, force, max_memory=None):
    """The CLI's --threads, --max-inputs, --max-counterexamples, --force and --max-memory, checked against the CLI's
    ranges (max_memory by the CLI's own parser), as (the values the binding takes, the words of the command a
    certificate records)."""
    threads = _count("threads", min(os.cpu_count() or 1, 256) if threads is None else threads, 1, 256)
    max_inputs = _count("max_inputs", max_inputs, 1, 10**15)
    max_counterexamples = _count("max_counterexamples", max_counterexamples, 0, 100_000)
    if not isinstance(force, bool):
        raise TypeError(f"force is a flag: True or False (got {force!r})")
    if max_memory is not None and (isinstance(max_memory, bool) or not isinstance(max_memory, (int, str))):
        raise TypeError(f"max_memory is a size: bytes as an int, or a str such as '8G' (got {max_memory!r})")
    memory = None if max_memory is None else str(max_memory)
    words = ["--threads", str(threads)]
    if max_inputs != _DEFAULT_MAX_INPUTS:
        words += ["--max-inputs", str(max_inputs)]
    if max_counterexamples != _DEFAULT_MAX_COUNTEREXAMPLES:
        words += ["--max-counterexamples", str(max_counterexamples)]
    if force:
        words.append("--force")
    if memory is not None:
        words += ["--max-memory", memory]
    return (threads, max_inputs, max_counterexamples, force, memory), words


def _checkpoint_options(checkpoint, resume, every):
    """check's checkpoint=, resume= and checkpoint_every=, as (the values the binding takes, the command's words)."""
    if not isinstance(resume, bool):
        raise TypeError(f"resume is a flag: True or False (got {resume!r})")
    given_every = every is not None
    every = _count("checkpoint_every", 30 if every is None else every, 0, 86400)
    if checkpoint is None:
        if resume:
            raise ValueError("resume=True needs checkpoint=PATH (the checkpoint of the run to continue)")
        if given_every:
            raise ValueError("checkpoint_every= needs checkpoint=PATH")
        return ("", False, every), []
    if not isinstance(checkpoint, (str, os.PathLike)):
        raise TypeError(f"checkpoint is a path (got {type(checkpoint).__name__})")
    path = os.fspath(checkpoint)
    words = ["--checkpoint", path] + (["--resume"] if resume else []) + \
        (["--checkpoint-every", str(every)] if given_every else [])
    return (path, resume, every), words


class Certificate:
    """A check's certificate: the CLI's JSON (to_json()), its verdicts, and an exit code as the CLI's."""

    def __init__(self, text, exit_code):
        self._text = text
        self.json = json.loads(text)
        self.exit_code = exit_code

    def to_json(self):
        """The certificate text, as `tverify check ... --json FILE` writes it for the same command."""
        return self._text

    @property
    def claims(self):
        """Each claim result: id, reading, verdict, counts, counterexamples (lists), summary, details."""
        return self.json["claims"]

    @property
    def verdicts(self):
        """{claim id (and reading): verdict}."""
        return {_claim_label(c): c["verdict"] for c in self.claims}

    @property
    def exact_claims(self):
        """The claims with their exact values read: every text in `details` and in a counterexample's `expected` and
        `got` that is an exact number ("5/8") is a Fraction, an enclosure ("[lo, hi]") a pair of Fractions; other
        texts (statements, summaries, formulas such as "4 ln(128)") stay as they are."""
        return [_with_exact_values(c) for c in self.claims]

    def __repr__(self):
        verdicts = ", ".join(f"{k}: {v}" for k, v in self.verdicts.items())
        return f"<tverify certificate {self.json['construction']} ({self.json['variant']}): {verdicts}>"

    def _rows(self):
        return [[_claim_label(c), c["verdict"], str(c["checked"]), str(c["failed"]), str(c["unknown"]),
                 c.get("summary", "")] for c in self.claims]

    def _repr_markdown_(self):
        rows = ["| claim | verdict | checked | failed | unknown | summary |", "|---|---|---|---|---|---|"]
        for claim, *cells in self._rows():
            cells = [cell.replace("|", "\\|") for cell in cells]
            rows.append(f"| `{claim}` | " + " | ".join(cells) + " |")
        return "\n".join(rows)

    def _repr_html_(self):
        return _html_table(f"{self.json['construction']} ({self.json['variant']})",
                           ["claim", "verdict", "checked", "failed", "unknown", "summary"], self._rows())


def _html_table(caption, header, rows):
    """A table for Jupyter, every cell escaped."""
    def cells(tag, row):
        return "<tr>" + "".join(f"<{tag}>{html.escape(cell)}</{tag}>" for cell in row) + "</tr>"

    return (f"<table><caption>{html.escape(caption)}</caption>" + cells("th", header) +
            "".join(cells("td", row) for row in rows) + "</table>")


_TEXT_FIELDS = ("id", "reading", "verdict", "statement", "summary", "detail", "finding", "decided_at", "sha256", "model")


def _with_exact_values(value, key=None):
    """`value` with its exact numbers and enclosures as Fractions (Certificate.exact_claims)."""
    if isinstance(value, dict):
        return {k: _with_exact_values(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_with_exact_values(v) for v in value]
    if isinstance(value, str) and key not in _TEXT_FIELDS:
        try:
            return _exact_text(value, decimals=False)
        except ValueError:
            return value
    return value


def _claim_label(c):
    return c["id"] + (f" ({c['reading']})" if c.get("reading") else "")


def _progress(progress):
    """The callable the C++ side reports (done, total) to: a tqdm bar when tqdm is installed (progress=None and CI
    unset, or progress=True), a user's callable, or None."""
    if progress is not None and not isinstance(progress, bool) and not callable(progress):
        raise TypeError(f"progress must be None, True, False or a callable(done, total) (got {progress!r})")
    if progress is False or (progress is None and os.environ.get("CI")):
        return None, None
    if callable(progress) and progress is not True:
        return progress, None
    if _in_notebook() and not _importable("ipywidgets"):
        return _line_per_update(), None  # a text bar redrawn in a cell's output would print a line per redraw
    try:
        if _in_notebook():
            from tqdm.notebook import tqdm
        else:
            from tqdm import tqdm
    except ImportError:
        if progress is True:
            raise ValueError("progress=True needs tqdm (Debian: python3-tqdm)") from None
        return None, None
    bar = tqdm(total=0, unit="input", leave=False)

    def update(done, total):
        if bar.total != total:
            bar.total = total
        bar.n = done
        bar.refresh()

    return update, bar


def _in_notebook():
    """Whether this runs in a Jupyter kernel (whose cell output shows a text bar's redraws as lines)."""
    shell = sys.modules.get("IPython") and sys.modules["IPython"].get_ipython()
    return shell is not None and shell.__class__.__name__ == "ZMQInteractiveShell"


def _importable(module):
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def _line_per_update(every_s=10.0):
    """A reporter that prints one plain line to stderr at most every `every_s` seconds (and one at the end)."""
    last = {"at": None, "final": None}  # when the last line was printed; the total whose final line was

    def update(done, total):
        now = time.monotonic()
        final = bool(total) and done == total  # the total grows as a run starts each enumeration
        if final and last["final"] == total:
            return
        if final or last["at"] is None or now - last["at"] >= every_s:
            last["at"] = now
            if final:
                last["final"] = total
            share = f" ({100 * done / total:.0f}%)" if total else ""
            print(f"tverify: {done:,} of {total:,} inputs{share}", file=sys.stderr, flush=True)

    return update


def _polled(call, progress):
    """call(report) with a progress reporter, closing its bar however the call ends."""
    report, bar = _progress(progress)
    try:
        return call(report)
    finally:
        if bar is not None:
            bar.close()


def _claims_command(verb, construction, words, claims, variant, limit_words):
    command = ["tverify", verb, construction, *words]
    for claim in claims:
        command += ["--claim", claim]
    if variant is not None:
        command += ["--variant", variant]
    return command + limit_words


def check(construction, claims=None, variant=None, threads=None, max_inputs=_DEFAULT_MAX_INPUTS,
          max_counterexamples=_DEFAULT_MAX_COUNTEREXAMPLES, force=False, progress=None, max_memory=None,
          checkpoint=None, resume=False, checkpoint_every=None, **params):
    """Checks claims of a construction over every input of its domain, as `tverify check` does.

    Parameters are keyword arguments named as the CLI's options (D=2, n=2, L=4; point_file= for --point-file);
    values are int, str or Fraction, flags True/False. claims: a list of claim ids (default: every claim check
    decides for this run; one id may be a str). threads, max_inputs, max_counterexamples, force, max_memory: the
    CLI's --threads, --max-inputs, --max-counterexamples, --force, --max-memory (bytes, or '8G'). progress: None (a
    tqdm bar when tqdm is installed and CI is unset), False, True, or a callable(done, total). Ctrl-C stops the check
    (KeyboardInterrupt). checkpoint, resume, checkpoint_every: the CLI's --checkpoint PATH (the finished part of the
    run, kept as it goes), --resume (continue that run after an interruption or a kill) and --checkpoint-every
    (seconds between writes, 0..86400; default 30). Raises ValueError with the CLI's one-line message for bad input.
    """
    spec = _construction(construction)
    given, words = _params(spec, params)
    claims = _claim_ids(claims)
    limits, limit_words = _run_limits(threads, max_inputs, max_counterexamples, force, max_memory)
    keep, keep_words = _checkpoint_options(checkpoint, resume, checkpoint_every)
    command = shlex.join(_claims_command("check", construction, words, claims, variant, limit_words + keep_words))
    text, code = _polled(lambda report: _tverify.check(construction, given, _variant(variant), claims, limits, *keep,
                                                       command, report), progress)
    return Certificate(text, code)


def prove(construction, claims=None, variant=None, threads=None, timeout_s=60, smt2=None, cross_check=False,
          max_inputs=_DEFAULT_MAX_INPUTS, max_counterexamples=_DEFAULT_MAX_COUNTEREXAMPLES, force=False, progress=None,
          max_memory=None, **params):
    """Proves claims with Z3 over all inputs symbolically, as `tverify prove` does; a Certificate as check's.
    timeout_s: each query's Z3 timeout in seconds (1..86400); smt2: a folder to dump every query into as SMT-LIB2
    (the CLI's --smt2), written before Z3 runs it; cross_check=True: every query through cvc5 as well (the CLI's
    --cross-check); the other options as check's."""
    spec = _construction(construction)
    given, words = _params(spec, params)
    claims = _claim_ids(claims)
    limits, limit_words = _run_limits(threads, max_inputs, max_counterexamples, force, max_memory)
    timeout_s = _count("timeout_s", timeout_s, 1, 86400)
    command = _claims_command("prove", construction, words, claims, variant, limit_words)
    if timeout_s != 60:
        command += ["--timeout-s", str(timeout_s)]
    if smt2 is not None:
        command += ["--smt2", os.fspath(smt2)]
    if not isinstance(cross_check, bool):
        raise ValueError(f"cross_check must be True or False (got {cross_check!r})")
    if cross_check:
        command += ["--cross-check"]
    text, code = _polled(lambda report: _tverify.prove(construction, given, _variant(variant), claims, limits, timeout_s,
                                                       "" if smt2 is None else os.fspath(smt2), cross_check,
                                                       shlex.join(command), report), progress)
    return Certificate(text, code)


class Evaluation(str):
    """What `tverify eval` finds: the text it prints (this string itself), `result` (the data of `eval --json`: outputs,
    flags, exact numbers as "p/q" strings, enclosures as "[lo, hi]"), and with trace=True every intermediate block:
    `trace` {name: numpy float64 array} (each entry the nearest double, a measurement) and `trace_exact` {name: nested
    lists of Fractions, a Surd where the value is a + b sqrt(r)}; `meanings[name]` says what each block is."""

    def __new__(cls, text, result, tensors):
        self = super().__new__(cls, text)
        self.result = json.loads(result)
        self.meanings = {t["name"]: t["meaning"] for t in tensors}
        self.trace_exact = {t["name"]: _tensor(t, True) for t in tensors}
        self._tensors = tensors
        return self

    @property
    def trace(self):
        return {t["name"]: _tensor(t, False) for t in self._tensors}

    @property
    def exact_result(self):
        """`result` with its exact numbers as Fractions and its enclosures as (lo, hi) pairs of Fractions (a model's
        logits and margins under logits=True, for example)."""
        return _with_exact_values(self.result)


def _tensor(entry, exact):
    """A tensor of the binding (name, shape, values (a, b, r)) as nested Fractions (exact) or a numpy array."""
    # (a, b, r): a + b sqrt(r); (constant, terms, lower, upper): a symbolic entry
    values = [_weight_value(*v, exact) if len(v) == 3 else _symbolic_value(*v, exact) for v in entry["values"]]
    if exact:
        return _nested(values, entry["shape"])
    import numpy  # only the float view needs it

    return numpy.array(values, dtype=numpy.float64).reshape(entry["shape"])


def eval(construction, input, variant=None, trace=False, bits=None, **params):  # noqa: A001 (the CLI's verb)
    """Evaluates a construction on one input, as `tverify eval NAME --input X` does: an Evaluation, which is the text
    it prints, with the result as data and, with trace=True, every intermediate block as arrays (Evaluation's doc).
    bits=K also evaluates in K-bit MPFR floating point."""
    spec = _construction(construction)
    given, _ = _params(spec, params)
    if not isinstance(input, str):
        raise TypeError(f"input must be a str as the CLI's --input takes it (got {type(input).__name__})")
    bits = 0 if bits is None else _count("bits", bits, 2, 65536)
    if _flag("trace", trace) and not spec.get("eval_traces", True):
        raise ValueError(f"eval {construction} has no trace (it prints every result it has)")
    return Evaluation(*_tverify.eval(construction, given, _variant(variant), input, trace, bits))


def sweep(construction, vary, out, variant=None, fast=False, threads=None, max_inputs=_DEFAULT_MAX_INPUTS,
          max_counterexamples=_DEFAULT_MAX_COUNTEREXAMPLES, force=False, progress=None, max_memory=None,
          models=None, parameter=None, values=None, family_file=None, figure_size=None, **params):
    """Runs a sweep as `tverify sweep NAME --vary V --out DIR` does: writes its certificate, table and figures to
    `out` and returns the JSON summary it prints, as a dict with its exact numbers ("1/2", "0") as Fractions (as
    Certificate.exact_claims gives them). Keyword arguments are the construction's parameters and
    the sweep's options, named as the CLI's; threads, max_inputs, max_counterexamples, force and max_memory as
    check's. figure_size: the CLI's --figure-size ("3.3x2.4in", "8x6cm", "column", "page").

    A model family (construction "model", vary="family"): family=PATH names a manifest (docs/model.md), or
    models={value: model} with parameter=NAME writes one, each model a path, the model's bytes or a
    torch.nn.Module (exported as check_model exports one); models may also be a callable building the model for a
    value, called for each of values=[...]. The manifest and the exported models go beside family_file=PATH (kept, so
    that the CLI can recheck the sweep) or into a temporary folder."""
    if models is not None:
        if family_file is None:
            with tempfile.TemporaryDirectory() as folder:
                return sweep(construction, vary, out, variant, fast, threads, max_inputs, max_counterexamples, force,
                             progress, max_memory, models, parameter, values, os.path.join(folder, "family.jsonl"),
                             figure_size, **params)
        if "family" in params:
            raise ValueError("give family=PATH (a manifest) or models=, not both")
        params["family"] = _write_family(models, parameter, values, os.fspath(family_file))
    elif parameter is not None or values is not None or family_file is not None:
        raise ValueError("parameter=, values= and family_file= describe models=; give models= too")
    spec = _construction(construction)
    if not spec["sweeps"]:
        raise ValueError(f"{construction} has no sweeps")
    sweep_names = {o["name"] for o in spec["sweep_options"]}
    in_sweep = {k: v for k, v in params.items() if k in sweep_names or k.replace("_", "-") in sweep_names}
    given, words = _params(spec, {k: v for k, v in params.items() if k not in in_sweep})
    options, option_words = _params(spec, in_sweep, spec["sweep_options"])
    limits, limit_words = _run_limits(threads, max_inputs, max_counterexamples, force, max_memory)
    command = ["tverify", "sweep", construction, *words, "--vary", str(vary), "--out", os.fspath(out), *option_words]
    if _flag("fast", fast):
        command.append("--fast")
    if _variant(variant):
        command += ["--variant", variant]
    if figure_size is not None and not isinstance(figure_size, str):
        raise TypeError(f"figure_size is a str such as '3.3x2.4in' or 'column' (got {figure_size!r})")
    if figure_size == "":
        raise ValueError("figure_size must be a size such as '3.3x2.4in', 'column' or 'page' (got '')")
    if figure_size is not None:
        command += ["--figure-size", figure_size]
    command = shlex.join(command + limit_words)
    summary = _polled(lambda report: _tverify.sweep(construction, given, _variant(variant), str(vary), fast,
                                                    os.fspath(out), options, figure_size or "", limits, command,
                                                    report), progress)
    return _with_exact_values(json.loads(summary))


def _write_family(models, parameter, values, manifest):
    """Writes the --family manifest of sweep(models=...) to `manifest`, each torch.nn.Module exported and each model
    given as bytes written beside it; returns its path."""
    if not isinstance(parameter, str) or not parameter:
        raise TypeError("models= needs parameter=NAME: the models' parameter, a str such as 'beta'")
    if callable(models) and not isinstance(models, dict):
        if values is None:
            raise ValueError("models=callable needs values=[...]: the parameter's values to build a model for")
        values = list(values)
        try:
            exact = {Fraction(_option_text(v)) for v in values}
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"values= must be exact numbers (int, Fraction, float, or str such as '1/2'; got "
                             f"{values!r})") from None
        if len(exact) != len(values):
            raise ValueError(f"values= names a value twice: {values!r}")
        models = {value: models(value) for value in values}
    elif values is not None:
        raise ValueError("values= lists the values of a models=callable; a dict of models names its own")
    if not isinstance(models, dict) or not models:
        raise TypeError("models must be a non-empty dict {value: model} or a callable (with values=)")
    folder = os.path.dirname(os.path.abspath(manifest))
    lines = []
    for i, (value, model) in enumerate(models.items()):
        path = os.path.join(folder, f"{pathlib.Path(manifest).stem}-{i}.onnx")
        if _is_torch_module(model):
            _export_module(model, path)
        elif isinstance(model, (bytes, bytearray)):
            pathlib.Path(path).write_bytes(model)
        elif isinstance(model, (str, os.PathLike)):
            path = os.path.abspath(os.fspath(model))
        else:
            raise TypeError(f"a model must be a path, bytes or a torch.nn.Module (got {type(model).__name__})")
        lines.append(json.dumps({parameter: _option_text(value), "onnx": path}) + "\n")
    pathlib.Path(manifest).write_text("".join(lines))
    return manifest


class Recheck:
    """A recheck's outcome: true when the certificate reproduced. differences: (field, stored, now) tuples."""

    def __init__(self, differences, claim_results, other_commit):
        self.differences = [tuple(d) for d in differences]
        self.claim_results = claim_results
        self.made_at_other_commit = other_commit

    @property
    def reproduced(self):
        return not self.differences

    def __bool__(self):
        return self.reproduced

    def __repr__(self):
        if self.reproduced:
            return f"<tverify recheck: reproduced ({self.claim_results} claim results)>"
        fields = "; ".join(f"{f}: stored {a}, now {b}" for f, a, b in self.differences)
        return f"<tverify recheck: {len(self.differences)} field(s) differ: {fields}>"

    def _repr_html_(self):
        if self.reproduced:
            return html.escape(f"reproduced ({self.claim_results} claim results)")
        return _html_table(f"{len(self.differences)} field(s) differ", ["field", "stored", "now"],
                           [[str(x) for x in d] for d in self.differences])


def _certificate_text(certificate):
    """(text, name) of a Certificate, a certificate path, or certificate JSON text."""
    if isinstance(certificate, Certificate):
        return certificate.to_json(), "the certificate"
    is_text = isinstance(certificate, str) and certificate.lstrip().startswith("{")
    if isinstance(certificate, os.PathLike) or (isinstance(certificate, str) and not is_text):
        path = os.fspath(certificate)
        # The CLI's reader: a regular file of at most 256 MiB (never /dev/zero, never a FIFO that blocks).
        return _tverify.read_certificate_file(path), path
    if isinstance(certificate, str):
        return certificate, "the certificate text"
    raise TypeError(f"a certificate is a Certificate, a path or JSON text (got {type(certificate).__name__})")


def recheck(certificate, threads=None, max_inputs=_DEFAULT_MAX_INPUTS, max_counterexamples=_DEFAULT_MAX_COUNTEREXAMPLES,
            force=False, progress=None, max_memory=None):
    """Re-runs a certificate's command and compares every field it can reproduce, as `tverify recheck` does.
    certificate: a Certificate, a path, or certificate JSON text; the options as check's. Returns a Recheck (true
    when reproduced)."""
    text, name = _certificate_text(certificate)
    limits, _ = _run_limits(threads, max_inputs, max_counterexamples, force, max_memory)
    return Recheck(*_polled(lambda report: _tverify.recheck(text, name, limits, report), progress))


def report(certificates, format="markdown", wide=False, columns=None):  # noqa: A002 (the CLI's --markdown/--latex)
    """The table `tverify report` prints for certificates (Certificates, paths or JSON text): format "markdown" or
    "latex"; wide=True for one row per certificate; columns: a list of column names to keep (the CLI's --columns)."""
    if format not in ("markdown", "latex"):
        raise ValueError(f"format must be 'markdown' or 'latex' (got {format!r})")
    if isinstance(certificates, (Certificate, str, os.PathLike)):
        certificates = [certificates]
    if not certificates:
        raise ValueError("report needs at least one certificate")
    if columns is not None and (isinstance(columns, str) or not all(isinstance(c, str) for c in columns)):
        raise TypeError("columns must be a list of column names")
    return _tverify.report([_certificate_text(c) for c in certificates], format == "latex", bool(wide),
                           list(columns or []))


def _lengths(text):
    if not isinstance(text, str):
        raise TypeError(f"lengths must be a str lo:hi (got {type(text).__name__} {text!r})")
    m = re.fullmatch(r"(\d+):(\d+)", text)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)) <= 64:
        raise ValueError(f"lengths must be a range lo:hi of integers with 1 <= lo <= hi <= 64 (got {text!r})")
    return int(m.group(1)), int(m.group(2))


def _callable_pairs(task, V, lengths, decode, bos, max_inputs, force):
    """Every sequence over V tokens of each length, with task(sequence) as its expected output: the lines of an
    --expected file, each input after BOS = V when `bos`. The callable runs here, in the interpreter, once per input
    (the slow path)."""
    _count("V", V, 1, 64)
    lo, hi = _lengths(lengths)
    count = sum(V ** n for n in range(lo, hi + 1))
    if count > max_inputs and not force:
        raise ValueError(f"the domain has {count} inputs, more than max_inputs = {max_inputs} (raise it or force=True)")
    for n in range(lo, hi + 1):
        for xs in itertools.product(range(V), repeat=n):
            x = list(xs)
            try:
                out = task(list(x))
            except Exception as e:
                raise ValueError(f"the task callable raised {type(e).__name__} on input {x}: {e}") from e
            if decode == "last" and isinstance(out, int) and not isinstance(out, bool):
                out = [out]
            if not isinstance(out, (list, tuple)) or not all(isinstance(y, int) and not isinstance(y, bool)
                                                             for y in out):
                raise TypeError(f"the task callable must return a list of ints (on input {x} it returned {out!r})")
            yield {"input": [V, *x] if bos else x, "output": list(out)}


def _write_pairs(pairs, path):
    """The pairs as JSON Lines, written to a temporary file beside `path` and renamed into place."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".tverify-pairs-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for pair in pairs:
                f.write(json.dumps(pair, separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def check_model(onnx, task=None, progress=None, expected_file=None, bos=True, onnx_file=None, **kwargs):
    """Checks an ONNX model against a task, as `tverify check model --onnx FILE --task T` does (docs/model.md).

    onnx: a path, the model's bytes (written to a temporary file for the run; the certificate records its SHA-256),
    or a torch.nn.Module taking token ids of shape [1, seq] to logits [1, seq, classes], exported by
    torch.onnx.export (opset 17, the sequence axis symbolic, in evaluation mode) to `onnx_file` (kept, so that the CLI
    can recheck the certificate) or to a temporary file. task: a built-in task's name, or a Python callable from a data sequence (a list of ints) to its
    expected outputs (a list of ints read at the last positions, as an --expected file's "output"; an int with
    decode="last"). A callable runs in the interpreter once per input before the check (the slow path), over every
    sequence x of V tokens of each length in `lengths`; the model reads [BOS = V, x_1, ..., x_n] as for the built-in
    tasks (x as it is with bos=False, for a built-in task too: --bos no). Its pairs go to `expected_file` (a JSON Lines file the CLI can recheck the
    certificate with) or to a temporary file. Other keyword arguments are check's and the model's options (V=4,
    lengths="1:6", decode=...)."""
    def from_file(write):
        """check_model of the file write(path) makes: at onnx_file (kept), or in a temporary folder."""
        if onnx_file is not None:
            write(os.fspath(onnx_file))
            return check_model(onnx_file, task, progress, expected_file, bos, **kwargs)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "model.onnx")
            write(path)
            return check_model(path, task, progress, expected_file, bos, **kwargs)

    if _is_torch_module(onnx):
        return from_file(lambda path: _export_module(onnx, path))
    if onnx_file is not None:
        raise ValueError("onnx_file is where a torch.nn.Module is exported; give onnx a module")
    if isinstance(onnx, (bytes, bytearray)):
        return from_file(lambda path: pathlib.Path(path).write_bytes(onnx))
    if not isinstance(onnx, (str, os.PathLike)):
        raise TypeError(f"onnx must be a path, the model's bytes or a torch.nn.Module (got {type(onnx).__name__})")
    if callable(task):
        V, lengths = kwargs.pop("V", None), kwargs.pop("lengths", "1:4")
        decode = kwargs.get("decode", "every")
        pairs = _callable_pairs(task, V, lengths, decode, bos, kwargs.get("max_inputs", 10_000_000),
                                kwargs.get("force", False))
        if expected_file is not None:
            _write_pairs(pairs, os.fspath(expected_file))
            return check("model", onnx=os.fspath(onnx), expected=os.fspath(expected_file), progress=progress, **kwargs)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "expected.jsonl")
            _write_pairs(pairs, path)
            return check("model", onnx=os.fspath(onnx), expected=path, progress=progress, **kwargs)
    if expected_file is not None:
        raise ValueError("expected_file is where a callable task's pairs are written; give task a callable")
    if task is not None:
        kwargs["task"] = task
    if not bos:
        kwargs["bos"] = "no"
    return check("model", onnx=os.fspath(onnx), progress=progress, **kwargs)


def _is_torch_module(value):
    """Whether value is a torch.nn.Module (PyTorch is looked up only where the caller has imported it)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.nn.Module)


def _export_module(module, path):
    """module exported as docs/model.md says: opset 17, input "tokens" [1, seq] and output "logits", seq symbolic, in
    evaluation mode (torch.onnx.export's default), traced on three zero tokens; written atomically."""
    torch = sys.modules["torch"]
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".tverify-export-", suffix=".onnx", dir=folder)
    os.close(handle)
    try:
        torch.onnx.export(module, (torch.zeros((1, 3), dtype=torch.long),), temporary, opset_version=17,
                          input_names=["tokens"], output_names=["logits"],
                          dynamic_axes={"tokens": {1: "seq"}, "logits": {1: "seq"}})
        with open(temporary, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


class Surd(namedtuple("Surd", "rational coefficient radicand")):
    """The exact real rational + coefficient * sqrt(radicand) (Fractions and an int): a weight of the unit-norm
    embedding of Lemma C.2."""

    def __float__(self):
        return float(self.rational) + float(self.coefficient) * self.radicand ** 0.5


class Symbolic(namedtuple("Symbolic", "constant terms lower upper")):
    """An exact real that involves logarithms: constant + sum of coefficient * symbol over terms {symbol: coefficient}
    (the symbols are defined in the tensor's meaning), enclosed by [lower, upper] (all Fractions): an entry of the
    Markov points."""

    def __float__(self):
        return float((self.lower + self.upper) / 2)

    def __str__(self):
        parts = [str(self.constant)] if self.constant or not self.terms else []
        parts += [f"{c}*{s}" for s, c in self.terms.items()]
        return " + ".join(parts)


def _symbolic_value(constant, terms, lower, upper, exact):
    value = Symbolic(Fraction(constant), {s: Fraction(c) for s, c in terms}, Fraction(lower), Fraction(upper))
    return value if exact else float(value)


def _weight_value(rational, coefficient, radicand, exact):
    a, b = Fraction(rational), Fraction(coefficient)
    root = math.isqrt(radicand)
    if root * root == radicand:  # sqrt(r) is an integer: the value is rational
        a, b = a + b * root, Fraction(0)
    if not exact:
        return float(Surd(a, b, radicand)) if b else float(a)
    return Surd(a, b, radicand) if b else a


class Weights(dict):
    """{name: tensor} of a construction's weights; meanings[name] says what each tensor is, with the paper's lemma."""

    def __init__(self, tensors, meanings):
        super().__init__(tensors)
        self.meanings = meanings


def weights(construction, variant=None, exact=False, **params):
    """Every weight tensor of a construction, as a Weights dict {name: array}: numpy float64 arrays (each entry the
    nearest double to the exact value, or to the midpoint of its enclosure for a Symbolic one: a measurement), or with
    exact=True nested lists of Fractions (a Surd where the value is a + b sqrt(r), a Symbolic where it involves a
    logarithm). The weights' parameters only (copy: D, n, embedding, tau; cat: V, N, L, filter, c, embedding, dim,
    vectors; markov: p, q, d, m, r, N, tied, arbitrary, seed, giving both printed points, "theta_star.W_1", ...)."""
    spec = _construction(construction)
    given, _ = _params(spec, params)
    tensors, meanings = {}, {}
    for t in _tverify.weights(construction, given, _variant(variant)):
        meanings[t["name"]] = t["meaning"]
        tensors[t["name"]] = _tensor(t, exact)
    return Weights(tensors, meanings)


def _nested(values, shape):
    if not shape:
        return values[0]
    if len(shape) == 1:
        return list(values)
    step = len(values) // shape[0]
    return [_nested(values[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


_EXACT = re.compile(r"^\s*(-?[0-9]+)(?:/([0-9]+))?\s*$")
_DECIMAL = re.compile(r"^\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,4})?\s*$")  # 10^9999 at most
_ENCLOSURE = re.compile(r"^\s*\[\s*([^,\]]+)\s*,\s*([^\]]+)\s*\]\s*$")


def exact(value):
    """An exact number as a Fraction: a certificate's "5/8" or "-3", a decimal string exactly ("0.1" is 1/10), an int
    (numpy's too), a Fraction, or a float as the binary number it is (0.5 is 1/2, 0.1 is 3602879701896397/2^55); an
    enclosure "[lo, hi]" (lo <= hi) as a pair of Fractions, each end exactly as printed. TypeError for another type,
    ValueError for another text or a float that is not finite."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
        raise TypeError(f"an exact number is a number or a str (got {type(value).__name__} {value!r})")
    if not isinstance(value, str):
        return _exact_real(value)
    return _exact_text(value, decimals=True)


def _exact_text(value, decimals):
    """A text's exact number or enclosure; a decimal ("0.1", "1e-3") only if `decimals` (a certificate's decimal
    fields are rounded for reading and stay text)."""
    m = _EXACT.match(value)
    if m:
        return Fraction(int(m.group(1)), int(m.group(2) or 1))
    if decimals and _DECIMAL.match(value):
        return Fraction(value.strip())
    m = _ENCLOSURE.match(value)
    if m:
        ends = [end.strip() for end in m.groups()]
        if all(_DECIMAL.match(end) or _EXACT.match(end) for end in ends):
            lo, hi = Fraction(ends[0]), Fraction(ends[1])
        else:
            lo = hi = None
        if lo is not None and lo <= hi:
            return lo, hi
    raise ValueError(f"not an exact number or enclosure (lo <= hi): {value!r}")
