"""Builds the example models (training the sort model for a few seconds) and exports them with
torch.onnx.export: histogram.onnx, copy.onnx, copy8.onnx (the same model at V = 8), previous.onnx,
induction.onnx, sort.onnx beside this script.

    scripts/setup --examples            # Debian's python3-torch and python3-onnx
    /usr/bin/python3 examples/models/export.py
"""
import os
import time

import onnx
import torch

from models import CopyModel, HistogramModel, InductionHeadModel, PreviousTokenModel, trained_sort_model

HERE = os.path.dirname(os.path.abspath(__file__))


def export(model, example, name):
    model.eval()
    path = os.path.join(HERE, name)
    torch.onnx.export(model, (example,), path, opset_version=14, input_names=["tokens"], output_names=["logits"],
                      dynamic_axes={"tokens": {1: "seq"}, "logits": {1: "seq"}})
    loaded = onnx.load(path)
    onnx.checker.check_model(loaded)
    ops = sorted({node.op_type for node in loaded.graph.node})
    print(f"{name}: {os.path.getsize(path)} bytes, ops {', '.join(ops)}")


if __name__ == "__main__":
    torch.manual_seed(0)
    export(HistogramModel(V=4, max_len=8), torch.tensor([[4, 0, 1, 1]]), "histogram.onnx")
    export(CopyModel(V=3), torch.tensor([[3, 0, 1, 4, 0]]), "copy.onnx")
    export(CopyModel(V=8), torch.tensor([[8, 0, 1, 9, 0]]), "copy8.onnx")
    export(PreviousTokenModel(V=16), torch.tensor([[16, 0, 1, 2]]), "previous.onnx")
    export(InductionHeadModel(V=16), torch.tensor([[16, 0, 1, 2, 0]]), "induction.onnx")
    start = time.time()
    sort_model = trained_sort_model(V=4, max_len=8)
    print(f"sort model trained in {time.time() - start:.1f} s")
    export(sort_model, torch.tensor([[4, 2, 0, 3, 1]]), "sort.onnx")
