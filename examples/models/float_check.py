"""A floating-point sanity check of the example models in PyTorch (float32): the fraction of inputs right per length
and the smallest wrong input. A measurement only; `tverify check model` decides exactly.

    /usr/bin/python3 examples/models/float_check.py
"""
import itertools

import torch

from models import HistogramModel, trained_sort_model


def rasp_accuracy(model, V, lengths, reference):
    for n in lengths:
        xs = torch.tensor(list(itertools.product(range(V), repeat=n)))
        tokens = torch.cat([torch.full((len(xs), 1), V), xs], dim=1)
        with torch.no_grad():
            got = torch.cat([model(tokens[i : i + 1]) for i in range(len(xs))]).argmax(-1)[:, 1:] \
                if isinstance(model, HistogramModel) else model(tokens).argmax(-1)[:, 1:]
        want = torch.stack([reference(x) for x in xs])
        wrong = (got != want).any(dim=1)
        first = xs[wrong.nonzero()[0, 0]].tolist() if wrong.any() else None
        print(f"  n={n}: {len(xs) - int(wrong.sum())}/{len(xs)} right; smallest wrong {first}")


def histogram_reference(x):
    return torch.tensor([int((x == t).sum()) for t in x])


if __name__ == "__main__":
    torch.manual_seed(0)
    print("histogram (hand-set)")
    rasp_accuracy(HistogramModel(V=4, max_len=8), 4, range(1, 6), histogram_reference)
    print("sort (trained)")
    rasp_accuracy(trained_sort_model(V=4, max_len=8).eval(), 4, range(1, 9), lambda x: torch.sort(x).values)
