"""tverify from Python: check the constructions of ML-theory papers with the same C++ core as the CLI.

    import tverify
    cert = tverify.check("copy", claims=["copy.thm2_3"], D=2, n=2, L=4, variant="corrected", threads=2)
    cert.verdicts          # {"copy.thm2_3 (text)": "verified", ...}
    cert.to_json()         # the certificate `tverify check ... --json FILE` writes

docs/python.md says what the package offers and what it does not yet.
"""

import json
import os
import shlex
from fractions import Fraction

from . import _tverify

__all__ = ["constructions", "check", "Certificate"]


def constructions():
    """Every construction tverify knows, as dicts: name, paper, params (name, flag, range, default, help), variants,
    claims."""
    return _tverify.constructions()


def _construction(name):
    for c in _tverify.constructions():
        if c["name"] == name:
            return c
    known = ", ".join(c["name"] for c in _tverify.constructions())
    raise ValueError(f"unknown construction '{name}' (known: {known})")


def _option_text(value):
    """A parameter value as the CLI reads it: integers and strings as they are, Fractions as p/q."""
    if isinstance(value, bool):
        raise TypeError("a boolean is a flag: pass it as True to give the flag, False to leave it out")
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)
    if isinstance(value, (int, str)):
        return str(value)
    raise TypeError(f"a parameter value must be an int, a str or a Fraction (got {type(value).__name__})")


def _params(construction, given):
    """Keyword arguments as the CLI's options: a name with '_' is the parameter with '-' when that one exists."""
    specs = {p["name"]: p for p in construction["params"]}
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


def _count(name, value, low):
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name} must be an integer >= {low} (got {value!r})")
    return value


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

    def __repr__(self):
        verdicts = ", ".join(f"{k}: {v}" for k, v in self.verdicts.items())
        return f"<tverify certificate {self.json['construction']} ({self.json['variant']}): {verdicts}>"

    def _repr_markdown_(self):
        rows = ["| claim | verdict | checked | failed | unknown | summary |", "|---|---|---|---|---|---|"]
        for c in self.claims:
            summary = c.get("summary", "").replace("|", "\\|")
            rows.append(f"| `{_claim_label(c)}` | {c['verdict']} | {c['checked']} | {c['failed']} | "
                        f"{c['unknown']} | {summary} |")
        return "\n".join(rows)


def _claim_label(c):
    return c["id"] + (f" ({c['reading']})" if c.get("reading") else "")


def check(construction, claims=None, variant=None, threads=None, max_inputs=10_000_000, max_counterexamples=10,
          force=False, **params):
    """Checks claims of a construction over every input of its domain, as `tverify check` does.

    Parameters are keyword arguments named as the CLI's options (D=2, n=2, L=4; point_file= for --point-file);
    values are int, str or Fraction, flags True/False. claims: a list of claim ids (default: every claim check
    decides for this run). Raises ValueError with the CLI's one-line message for bad input.
    """
    spec = _construction(construction)
    given, words = _params(spec, params)
    claims = list(dict.fromkeys(claims or []))
    threads = _count("threads", (os.cpu_count() or 1) if threads is None else threads, 1)
    max_inputs = _count("max_inputs", max_inputs, 1)
    max_counterexamples = _count("max_counterexamples", max_counterexamples, 0)
    command = ["tverify", "check", construction, *words]
    for claim in claims:
        command += ["--claim", claim]
    if variant is not None:
        command += ["--variant", variant]
    command += ["--threads", str(threads)]
    text, code = _tverify.check(construction, given, variant or "", claims, threads, max_inputs, max_counterexamples,
                                bool(force), shlex.join(command))
    return Certificate(text, code)
