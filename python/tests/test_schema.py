"""docs/schema/: every kind of certificate the CLI writes (check and prove of each construction, a model check, each
construction's sweeps) validates against its JSON Schema, and certificates edited to break the format do not."""
import copy
import json
import os
import pathlib

import pytest
from jsonschema import Draft202012Validator, RefResolver
from jsonschema.exceptions import ValidationError

from helpers import SOURCE_DIR, cli

SCHEMAS = pathlib.Path(SOURCE_DIR) / "docs" / "schema"
REVERSE = os.path.join(SOURCE_DIR, "tests", "models", "reverse.onnx")


def validator(kind):
    store = {}
    for path in SCHEMAS.glob("*.schema.json"):
        schema = json.loads(path.read_text())
        Draft202012Validator.check_schema(schema)
        store[schema["$id"]] = schema
    schema = store[f"https://schema.tverify.invalid/{kind}.schema.json"]
    return Draft202012Validator(schema, resolver=RefResolver.from_schema(schema, store=store))


def certificate(folder, *args, name="c.json"):
    ran = cli(*args, "--json", name, cwd=folder)
    assert ran.returncode in (0, 1, 3), ran.stderr  # verified, refuted, unknown: 2 is bad input, 4 internal
    return json.loads((folder / name).read_text())


def sweep_certificates(folder, *args):
    """The certificates a sweep writes (one per figure; a --fast sweep's checkpoint is none)."""
    ran = cli("sweep", *args, "--out", "out", cwd=folder)
    assert ran.returncode == 0, ran.stderr
    paths = [p for p in (folder / "out").glob("*.json") if not p.name.endswith(".checkpoint.json")]
    assert paths
    return [json.loads(p.read_text()) for p in paths]


CHECKS = [
    ("copy", "--D", "2", "--n", "1", "--L", "2"),
    ("count3", "--n", "2", "--values", "0:1"),
    ("cat", "--V", "2", "--N", "1", "--L", "3"),
    ("markov", "--d", "2", "--m", "2", "--r", "2", "--N", "2", "--samples", "0"),
]
PROVES = [
    ("copy", "--variant", "corrected", "--D", "2", "--n", "1", "--L", "2"),
    ("count3",),
    ("markov", "--d", "2", "--N", "2"),
]
SWEEPS = [
    ("copy", "--vary", "tau", "--D", "2", "--n", "1", "--L", "2", "--resolution", "1"),
    ("copy", "--vary", "L=2:4:x2", "--fast", "--D", "2", "--n", "1", "--samples", "2"),
    ("count3", "--vary", "values", "--n", "2", "--L-max", "1"),
    ("cat", "--vary", "L", "--V", "2", "--N", "1", "--L", "3"),
    ("markov", "--vary", "pq", "--d", "2", "--m", "2", "--r", "2", "--N", "2", "--resolution", "1/2"),
    ("model", "--vary", "lengths", "--onnx", REVERSE, "--task", "reverse", "--V", "2", "--lengths", "1:2"),
]


@pytest.mark.parametrize("args", CHECKS, ids=lambda a: a[0])
def test_check_certificates_validate(tmp_path, args):
    validator("check").validate(certificate(tmp_path, "check", *args))


@pytest.mark.parametrize("args", PROVES, ids=lambda a: a[0])
def test_prove_certificates_validate(tmp_path, args):
    validator("prove").validate(certificate(tmp_path, "prove", *args))


def test_a_cross_checked_prove_certificate_validates(tmp_path):
    crossed = certificate(tmp_path, "prove", "count3", "--cross-check")
    assert crossed["claims"][0]["details"]["cross_check"]["answer"] == "unsat"
    validator("prove").validate(crossed)
    with pytest.raises(ValidationError):  # an answer no solver gives
        validator("prove").validate(broken(crossed, lambda c: c["claims"][0]["details"]["cross_check"]
                                           .update(answer="probably")))


@pytest.mark.parametrize("args", SWEEPS, ids=lambda a: " ".join(a[:3]))
def test_sweep_certificates_validate(tmp_path, args):
    for written in sweep_certificates(tmp_path, *args):
        validator("sweep").validate(written)


def test_model_certificates_validate_as_check_and_model(tmp_path):
    model = certificate(tmp_path, "check", "model", "--onnx", REVERSE, "--task", "reverse", "--V", "2", "--lengths",
                        "1:3", "--method", "enumerate")
    validator("check").validate(model)
    validator("model").validate(model)
    with pytest.raises(ValidationError):  # a copy certificate is no model certificate
        validator("model").validate(certificate(tmp_path, "check", *CHECKS[0], name="copy.json"))
    # By bounds: the margin's lower bound instead of the smallest margin; one without its at_least fails.
    previous = os.path.join(SOURCE_DIR, "examples", "models", "previous.onnx")
    bounded = certificate(tmp_path, "check", "model", "--onnx", previous, "--task", "previous", "--V", "16",
                          "--lengths", "1:3", "--method", "bounds", name="bounds.json")
    details = bounded["claims"][0]["details"]
    assert "smallest_margin_bound" in details and "smallest_margin" not in details
    validator("model").validate(bounded)
    with pytest.raises(ValidationError):
        validator("model").validate(broken(bounded, lambda c: c["claims"][0]["details"]["smallest_margin_bound"]
                                           .pop("at_least")))


def broken(certificate, edit):
    c = copy.deepcopy(certificate)
    edit(c)
    return c


def test_certificates_that_break_the_format_do_not_validate(tmp_path):
    check = certificate(tmp_path, "check", *CHECKS[0])
    v = validator("check")
    v.validate(check)
    edits = {
        "an unknown verdict": lambda c: c["claims"][0].update(verdict="maybe"),
        "no format_version": lambda c: c.pop("format_version"),
        "another format_version": lambda c: c.update(format_version=2),
        "a field of no certificate": lambda c: c.update(extra=1),
        "a negative count": lambda c: c["claims"][0].update(failed=-1),
        "vacuous inside the hypotheses": lambda c: c["claims"][0].update(verdict="vacuous", outside_hypotheses=False),
        "vacuous without its finding": lambda c: c["claims"][0].update(verdict="vacuous", outside_hypotheses=True),
        "a finding of a claim that is not vacuous": lambda c: c["claims"][0].update(finding="verified"),
        "a prove certificate's verb": lambda c: c.update(verb="prove"),
        "another tool": lambda c: c.update(tool="other"),
    }
    for what, edit in edits.items():
        with pytest.raises(ValidationError):
            v.validate(broken(check, edit))
            pytest.fail(what)
