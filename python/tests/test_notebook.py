"""examples/tverify.ipynb runs from start to end with Debian's nbclient and the python3 kernel (no network), its
results are the ones docs/python.md and examples/models/README.md describe, its figure is drawn inline, and the
verdicts its committed outputs show are the ones a fresh run gives. About 10 s."""

import os

import pytest

from helpers import SOURCE_DIR

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")


def test_the_example_notebook_runs(monkeypatch):
    examples = os.path.join(SOURCE_DIR, "examples")
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # ipykernel's debugger note about frozen modules
    monkeypatch.setenv("CI", "true")  # no progress bars in the outputs
    notebook = nbformat.read(os.path.join(examples, "tverify.ipynb"), as_version=4)
    committed = [_verdict_outputs(cell) for cell in notebook.cells]
    assert any(committed), "the notebook is committed with its outputs"
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": examples}}).execute()
    outputs = "\n".join(str(o.get("data", {}).get("text/plain", o.get("text", "")))
                        for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs)
    assert "'copy.thm2_3 (text)': 'verified'" in outputs  # corrected, text reading (docs/claims.md)
    assert "'copy.thm2_3 (formula)': 'refuted'" in outputs
    assert "layer 2 at each generation step" in outputs
    assert "the value matrix of layer 1's head h2" in outputs
    assert "error-rate.pdf" in outputs
    assert "'input': [0, 1, 1, 0, 2]" in outputs  # the sort model's smallest counterexample (examples/models)
    assert "reproduced" in outputs
    assert not [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs
                if o.get("output_type") == "error"]
    assert any("image/png" in o.get("data", {}) for cell in notebook.cells if cell.cell_type == "code"
               for o in cell.outputs)  # the sweep's figure, inline
    assert [_verdict_outputs(cell) for cell in notebook.cells] == committed


def _verdict_outputs(cell):
    """The plain-text results of a code cell that state verdicts."""
    if cell.cell_type != "code":
        return []
    texts = [str(o.get("data", {}).get("text/plain", "")) for o in cell.outputs]
    return [t for t in texts if "verified" in t or "refuted" in t]
