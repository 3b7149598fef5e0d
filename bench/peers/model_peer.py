#!/usr/bin/python3
"""The peer of `tverify check model` on the example sort model: the same PyTorch module (examples/models/models.py,
retrained from its seed to the weights exported to sort.onnx) evaluated in float32 on every input of the same domain,
one sequence at a time as tverify evaluates them, and compared with the sorted sequence. Floating point: a
measurement of speed, never a verification.

usage: model_peer.py LO HI [threads]   -> prints the evaluation seconds and the number of wrong inputs.
"""
import itertools
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "models"))
from models import trained_sort_model  # noqa: E402

V = 4

if __name__ == "__main__":
    lo, hi = int(sys.argv[1]), int(sys.argv[2])
    torch.set_num_threads(int(sys.argv[3]) if len(sys.argv) > 3 else 2)
    model = trained_sort_model(V=V, max_len=8).eval()
    start, wrong = time.time(), 0
    with torch.no_grad():
        for n in range(lo, hi + 1):
            for x in itertools.product(range(V), repeat=n):
                tokens = torch.tensor([[V, *x]])
                got = model(tokens).argmax(-1)[0, 1:].tolist()
                wrong += got != sorted(x)
    print(f"{time.time() - start:.3f} s, {wrong} wrong")
