"""sweep('model', vary='family', ...): a manifest from the CLI's form or from models={value: model}, rows with exact
values as Fractions, the verdict change bracketed, and the manifest kept (family_file=) for the CLI's recheck."""
import json
from fractions import Fraction

import pytest

import tverify
from helpers import cli

TASK = dict(task="copy", V=2, lengths="1:3", progress=False)


def export(folder, tau):
    path = folder / f"copy-tau-{str(tau).replace('/', '_')}.onnx"
    ran = cli("export", "copy", "--variant", "corrected", "--D", "2", "--n", "2", "--tau", str(tau), "--onnx",
              str(path), cwd=folder)
    assert ran.returncode == 0, ran.stderr
    return path


def test_a_family_from_a_dict_of_models(tmp_path):
    models = {Fraction(1, 4): export(tmp_path, "1/4"), 1: export(tmp_path, 1), 2: export(tmp_path, 2).read_bytes()}
    kept = tmp_path / "kept" / "family.jsonl"
    kept.parent.mkdir()
    summary = tverify.sweep("model", vary="family", out=tmp_path / "out", models=models, parameter="tau",
                            family_file=kept, **TASK)
    assert [m["value"] for m in summary["models"]] == [Fraction(1, 4), 1, 2]
    assert [m["verdict"] for m in summary["models"]] == ["refuted", "verified", "verified"]
    assert summary["verdict_changes"][0]["from"]["tau"] == Fraction(1, 4)
    lines = [json.loads(line) for line in kept.read_text().splitlines()]
    assert [line["tau"] for line in lines] == ["1/4", "1", "2"]
    assert (kept.parent / "family-2.onnx").exists()  # the bytes, written beside the manifest
    assert cli("recheck", str(tmp_path / "out" / "model-family.json"), cwd=tmp_path).returncode == 0


def test_a_family_from_a_callable(tmp_path):
    summary = tverify.sweep("model", vary="family", out=tmp_path / "out", models=lambda tau: export(tmp_path, tau),
                            parameter="tau", values=["1/4", 1], figure_size="page", **TASK)
    assert [m["verdict"] for m in summary["models"]] == ["refuted", "verified"]
    assert "size 6in,3.6in" in (tmp_path / "out" / "model-family.gp").read_text()


def test_family_arguments_are_checked(tmp_path):
    with pytest.raises(TypeError, match="parameter=NAME"):
        tverify.sweep("model", vary="family", out=tmp_path / "a", models={1: "x.onnx"}, **TASK)
    with pytest.raises(ValueError, match="needs values="):
        tverify.sweep("model", vary="family", out=tmp_path / "a", models=lambda v: "x.onnx", parameter="t", **TASK)
    with pytest.raises(ValueError, match="names a value twice"):
        tverify.sweep("model", vary="family", out=tmp_path / "a", models=lambda v: "x.onnx", parameter="t",
                      values=[1, 1.0, 2], **TASK)
    with pytest.raises(ValueError, match="give models= too"):
        tverify.sweep("model", vary="family", out=tmp_path / "a", parameter="t", **TASK)
    with pytest.raises(ValueError, match="the model of t = 1: --onnx"):
        tverify.sweep("model", vary="family", out=tmp_path / "a", models={1: tmp_path / "missing.onnx"},
                      parameter="t", **TASK)
    assert not (tmp_path / "a").exists()
