"""examples/tverify.ipynb runs from start to end with Debian's nbclient and the python3 kernel (no network), and its
results are the ones docs/python.md and examples/models/README.md describe. About 10 s."""

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
